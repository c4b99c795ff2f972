"""Opening the files specdiff reads: regular files only, checked on the open descriptor before a byte is read."""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from pathlib import Path


class NotRegular(OSError):
    """A folder, FIFO, device or socket where a file was expected; `kind` names it (`a FIFO`)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def inside(path: Path | str, root: Path | str) -> bool:
    """Whether `path` is under `root` after symlinks are followed: the confinement rule for every file specdiff
    opens because of another (a folder's entry, a configuration or baseline found or named by a configuration;
    a `$ref`'s file through `Folders`, which applies the same rule to paths it resolves itself). A link inside
    the folder to a file outside it is outside; a symlink loop is outside."""
    try:
        resolved, folder = os.path.normcase(os.path.realpath(path)), os.path.normcase(os.path.realpath(root))
    except OSError:
        return False
    return resolved == folder or resolved.startswith(os.path.join(folder, ""))


class Folders:
    """`Path.resolve` for the many files of a few folders, confined to `root` as `inside` confines: a split spec
    reaches thousands of files in a few hundred folders, so each folder is resolved once (every component
    followed) and a file in it costs one `lstat` of its own name, unless that name is a link, `.` or `..`.
    Paths are strings here: a `Path` made for each of thousands of references costs more than the lookups."""

    def __init__(self, root: str) -> None:
        from pathlib import Path

        self.root = str(Path(root).resolve())
        self._prefix = os.path.normcase(os.path.join(self.root, ""))
        self._resolved: dict[str, str] = {}  # folder as written -> resolved

    def resolve(self, folder: str, location: str) -> str:
        """`location` in `folder` with every symlink followed; RuntimeError for a symlink loop, as
        `Path.resolve` raises."""
        from pathlib import Path

        joined = os.path.join(folder, location)
        head, name = os.path.split(joined)
        if name in ("", ".", "..") or not head:
            return str(Path(joined).resolve())
        resolved = self._resolved.get(head)
        if resolved is None:
            resolved = self._resolved[head] = str(Path(head).resolve())
        target = os.path.join(resolved, name)
        return str(Path(target).resolve()) if os.path.islink(target) else target

    def key(self, resolved: str) -> str | None:
        """A path `resolve` gave, relative to the root with `/` between its parts; None when it is not under the
        root (what `inside` says of it, without resolving it again)."""
        if os.path.normcase(resolved) == os.path.normcase(self.root):
            return "."
        if not os.path.normcase(resolved).startswith(self._prefix):
            return None
        return resolved[len(self._prefix):].replace(os.sep, "/")


def kind_of(mode: int) -> str:
    """What a file that is not a regular one is, as an error names it."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket"


def open_regular(path: Path | str) -> tuple[BinaryIO, int]:
    """The file opened for reading and its size. Opened without blocking, since a plain open of a FIFO waits
    for a writer for ever; anything but a regular file raises NotRegular (OSError for the rest)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    status = os.fstat(fd)
    if not stat.S_ISREG(status.st_mode):
        os.close(fd)
        raise NotRegular(kind_of(status.st_mode))
    return os.fdopen(fd, "rb"), status.st_size


def replace_whole(path: str, text: str) -> None:
    """Write a temporary file beside the target, then rename it over the target: never a half-written file.

    The temporary file is created exclusively under an unpredictable name, so nothing planted in the folder
    (a symlink at a guessable name) receives the text. The target may be missing, a regular file or a symlink;
    a symlink is replaced by the file, and the file it pointed to is left alone. A folder, FIFO, device or
    socket is never replaced (`NotRegular`); any other failure is the `OSError` it raised.
    """
    import tempfile

    try:
        mode: int | None = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise NotRegular(kind_of(mode))
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as a plain open() would have made it, not mkstemp's 0600
        os.replace(temporary, path)
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)
