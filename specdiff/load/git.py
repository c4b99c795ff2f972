"""Inputs from git: `REV:path` (a file or a per-group directory at a revision; `:path` is the staged version).

Read with `git cat-file` and `git ls-tree` (no shell, no checkout), and `$ref`s to other files are read at the
same revision through `Document.reader`. Inside a repository, revision syntax means git:
`X:path` is never read from a working-tree file of that name, since a pull request could add a folder named
after its base revision and have its own copy compared with itself. A file whose name holds a colon is written
`./X:path`; Windows drive letters (`C:\\specs`) stay paths.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from specdiff.errors import InputError
from specdiff.load.document import Document
from specdiff.load.parse import Limits, decode

_SPEC_SUFFIXES = (".json", ".yaml", ".yml")
_DRIVE = re.compile(r"[A-Za-z]$")
_LOOKS_LIKE_REF = re.compile(r"[\w@{}^~][\w@{}^~./-]*$")


@dataclass(frozen=True, slots=True)
class GitSource:
    """A file or folder at a revision; `rev` "" means the index (what is staged)."""

    source: str  # as the user typed it
    rev: str
    path: str  # relative to the repository's top level, POSIX separators
    toplevel: Path
    shadowed: bool = False  # a working-tree file has the same name: it is not read, and the report says so

    def note(self) -> tuple[str, ...]:
        if not self.shadowed:
            return ()
        return (f"{self.source} is read from git ({self.rev or 'the index'}); the working-tree file of the same "
                f"name is not read: write ./{self.source} to compare that file",)

    def object(self, path: str | None = None) -> str:
        return f"{self.rev}:{path if path is not None else self.path}"


def _git(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError:  # git is not installed: nothing is a revision
        return subprocess.CompletedProcess(["git", *args], 127, b"", b"")


def _repository() -> tuple[Path, str] | None:
    """(top level, prefix of the working directory inside it), or None outside a work tree."""
    done = _git(["rev-parse", "--show-toplevel", "--show-prefix"])
    if done.returncode != 0:
        return None
    lines = done.stdout.decode("utf-8", "surrogateescape").splitlines()
    if not lines:
        return None
    return Path(lines[0]), lines[1] if len(lines) > 1 else ""


def is_revision(rev: str) -> bool:
    """A commit or tree of the repository here; never read as an option."""
    if not rev or rev.startswith("-"):
        return False
    return _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{tree}}"]).returncode == 0


def parse_source(source: str) -> GitSource | None:
    """`REV:path` as a git source, or None when it is a local path: one that starts with `./`, `../` or `/`,
    a drive letter, a name that could not be a revision, or any name outside a git repository."""
    rev, colon, path = source.partition(":")
    if not colon or not path or source.startswith(("./", "../", "/")) or _DRIVE.match(rev):
        return None
    if rev and not _LOOKS_LIKE_REF.match(rev):
        return None
    repository = _repository()
    if repository is None:
        return None
    toplevel, prefix = repository
    if rev and not is_revision(rev):
        if Path(source).exists():
            raise InputError(f"{rev!r} is not a revision of the git repository here; to read the file of that "
                             f"name, write ./{source}", file=source)
        raise InputError(f"no such file, and {rev!r} is not a revision of the git repository here", file=source)
    # like git: relative to the top level, unless it starts with ./ or ../ (then relative to here)
    if path.startswith(("./", "../")) or path in (".", ".."):
        path = str(PurePosixPath(prefix) / path)
    parts: list[str] = []
    for part in PurePosixPath(path).parts:
        if part == "..":
            if not parts:
                raise InputError("path leaves the repository", file=source)
            parts.pop()
        elif part not in (".", "/"):
            parts.append(part)
    return GitSource(source, rev, "/".join(parts), toplevel, shadowed=Path(source).exists())


def load_git(found: GitSource, limits: Limits) -> Document:
    """The Document for a git source: one spec file, or a per-group directory of them."""
    kind = _git(["cat-file", "-t", found.object()], found.toplevel)
    if kind.returncode != 0 and not found.rev and _tree_files(found):
        document = _load_tree(found, limits)  # the index holds no tree objects, only the files below a folder
    elif kind.returncode != 0:
        where = f"revision {found.rev!r}" if found.rev else "the index (nothing staged there)"
        raise InputError(f"{found.path!r} does not exist at {where}", file=found.source)
    elif kind.stdout.strip() == b"tree":
        document = _load_tree(found, limits)
    else:
        document = _load_blob(found, found.path, found.source, limits)
    return replace(document, notes=found.note()) if found.shadowed else document


def _read_blob(found: GitSource, path: str, name: str, limits: Limits) -> str:
    size = _git(["cat-file", "-s", found.object(path)], found.toplevel)
    if size.returncode != 0:
        raise InputError(f"{path!r} does not exist at revision {found.rev!r}", file=name)
    if int(size.stdout.strip() or 0) > limits.max_bytes:
        raise InputError(f"file is {int(size.stdout)} bytes, over the {limits.max_bytes}-byte limit (--max-bytes)",
                         file=name)
    blob = _git(["cat-file", "blob", found.object(path)], found.toplevel)
    if blob.returncode != 0:
        raise InputError(f"{path!r} is not a file at revision {found.rev!r}", file=name)
    return decode(blob.stdout, name)


def _reader(found: GitSource, limits: Limits) -> Callable[[Path, str], str]:
    """Document.reader for $refs: the same revision, never the working tree."""
    top = found.toplevel.resolve()

    def read(target: Path, name: str) -> str:
        try:
            relative = target.resolve().relative_to(top).as_posix()
        except ValueError:
            raise InputError("$ref leaves the repository (refused)", file=name) from None
        return _read_blob(found, relative, name, limits)

    return read


def _load_blob(found: GitSource, path: str, name: str, limits: Limits) -> Document:
    from specdiff.load import load_text

    text = _read_blob(found, path, name, limits)
    base = found.toplevel.resolve() / PurePosixPath(path).parent
    return load_text(text, name, base, limits, reader=_reader(found, limits))


def _load_tree(found: GitSource, limits: Limits) -> Document:
    from specdiff.load import group_version_of_file

    names = _tree_files(found)
    if not names:
        raise InputError("directory holds no .json or .yaml spec files at that revision", file=found.source)
    parts = []
    for file_name in names:
        path = f"{found.path}/{file_name}" if found.path else file_name
        shown = f"{found.source.rstrip('/')}/{file_name}"
        parts.append((group_version_of_file(file_name), _load_blob(found, path, shown, limits)))
    base = found.toplevel.resolve() / found.path
    return Document(name=found.source, data=None, dialect="openapi-dir", format="dir", base=base, parts=tuple(parts),
                    limits=limits)


def _tree_files(found: GitSource) -> list[str]:
    """Spec files directly inside the folder (not below it), sorted like the directory loader."""
    if found.rev:
        listing = _git(["ls-tree", "-z", found.object()], found.toplevel)
        entries = [line.split(b"\t", 1) for line in listing.stdout.split(b"\0") if b"\t" in line]
        names = [name.decode("utf-8", "surrogateescape") for meta, name in entries if meta.split()[1] == b"blob"]
    else:
        prefix = f"{found.path}/" if found.path else ""
        listing = _git(["ls-files", "-z", "--cached", "--", prefix or "."], found.toplevel)
        names = [p[len(prefix):] for p in listing.stdout.decode("utf-8", "surrogateescape").split("\0")
                 if p.startswith(prefix) and "/" not in p[len(prefix):]]
    return sorted(n for n in names if n.endswith(_SPEC_SUFFIXES))


def exists_at(rev: str, path: str) -> bool:
    """Whether `path` (relative to the working directory) is a file or folder at `rev` ("" for the index)."""
    if rev and not is_revision(rev):
        return False
    return _git(["cat-file", "-e", f"{rev}:./{path}"]).returncode == 0
