"""Inputs from git: `REV:path` (a file or a per-group directory at a revision; `:path` is the staged version).

Read with `git cat-file` and `git ls-tree` (no shell, no checkout), and `$ref`s to other files are read at the
same revision through `Document.reader`. Inside a repository, revision syntax means git:
`X:path` is never read from a working-tree file of that name, since a pull request could add a folder named
after its base revision and have its own copy compared with itself. A file whose name holds a colon is written
`./X:path`; Windows drive letters (`C:\\specs`) stay paths.
"""

from __future__ import annotations

import marshal
import re
import subprocess
import weakref
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Any

from specdiff.errors import InputError
from specdiff.frozen import record
from specdiff.load.document import Document
from specdiff.load.parse import Limits, decode, parse_text
from specdiff.load.text import SPEC_SUFFIXES, group_version_of_file, load_text

_DRIVE = re.compile(r"[A-Za-z]$")
#: the modes of a tree's entries whose objects are blobs: files, executables and symbolic links (which git reads
#: as the blob of the link's text, whichever way a file is asked for)
_BLOB_MODES = frozenset({b"100644", b"100755", b"120000"})
_LOOKS_LIKE_REF = re.compile(r"[\w@{}^~][\w@{}^~./-]*$")


@record(frozen=True, slots=True)
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


def _repository(here: Path | None = None) -> tuple[Path, str] | None:
    """(top level, prefix of `here`, by default the working directory, inside it), or None outside a work tree."""
    done = _git(["rev-parse", "--show-toplevel", "--show-prefix"], here)
    if done.returncode != 0:
        return None
    lines = done.stdout.decode("utf-8", "surrogateescape").splitlines()
    if not lines:
        return None
    return Path(lines[0]), lines[1] if len(lines) > 1 else ""


def is_revision(rev: str, here: Path | None = None) -> bool:
    """A commit or tree of the repository here (or at `here`); never read as an option."""
    if not rev or rev.startswith("-"):
        return False
    return _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{tree}}"], here).returncode == 0


def parse_source(source: str, here: Path | None = None) -> GitSource | None:
    """`REV:path` as a git source, or None when it is a local path: one that starts with `./`, `../` or `/`,
    a drive letter, a name that could not be a revision, or any name outside a git repository. `here` is the
    directory of the repository it resolves against (default: the working directory)."""
    rev, colon, path = source.partition(":")
    if not colon or not path or source.startswith(("./", "../", "/")) or _DRIVE.match(rev):
        return None
    if rev and not _LOOKS_LIKE_REF.match(rev):
        return None
    repository = _repository(here)
    if repository is None:
        if here is not None:
            raise InputError(f"{str(here)!r} is not inside a git repository", file=source)
        return None
    toplevel, prefix = repository
    if rev and not is_revision(rev, here):
        if (here or Path()).joinpath(source).exists():
            raise InputError(f"{rev!r} is not a revision of the git repository here; to read the file of that "
                             f"name, write ./{source}", file=source)
        where = "here" if here is None else f"at {str(here)!r}"
        raise InputError(f"no such file, and {rev!r} is not a revision of the git repository {where}", file=source)
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
    return GitSource(source, rev, "/".join(parts), toplevel, shadowed=((here or Path()) / source).exists())


def load_git(found: GitSource, limits: Limits) -> Document:
    """The Document for a git source: one spec file, or a per-group directory of them."""
    kind = _git(["cat-file", "-t", found.object()], found.toplevel)
    blobs = _Blobs.next()
    if kind.returncode != 0 and not found.rev and _tree_files(found):
        document = _load_tree(found, limits, blobs)  # the index holds no tree objects, only files below a folder
    elif kind.returncode != 0:
        where = f"revision {found.rev!r}" if found.rev else "the index (nothing staged there)"
        raise InputError(f"{found.path!r} does not exist at {where}", file=found.source)
    elif kind.stdout.strip() == b"tree":
        document = _load_tree(found, limits, blobs)
    else:
        document = _load_blob(found, found.path, found.source, limits, blobs)
    return replace(document, notes=found.note()) if found.shadowed else document


def _read_blob(found: GitSource, path: str, name: str, limits: Limits, objects: _Objects, blobs: _Blobs) -> str:
    # a file the input beside this one read is not asked of git again, only looked up in its folder's listing
    known = blobs.known(objects.listed(found.rev, path, limits.max_bytes)) if found.rev and blobs.beside() else None
    if known is not None:
        text, size = known
        limits.check_size(size, name)
        return text
    oid, kind, size, blob = objects.blob(found.object(path), limits.max_bytes)
    if kind is None:
        raise InputError(f"{path!r} does not exist at revision {found.rev!r}", file=name)
    limits.check_size(size, name)
    if blob is None:
        raise InputError(f"{path!r} is not a file at revision {found.rev!r}", file=name)
    return blobs.text(oid, blob, name)


class _Blobs:
    """The files one input read from git, by object id, and their parses, seen by the inputs read just before and
    just after it (the other side of a comparison, the versions beside it in a history): a file both sides hold
    is decoded and parsed once, though a split spec's commit changes few of its thousands of files. A parse is
    handed on as `marshal` bytes, so each input still gets data of its own: the graph and the differ key state
    by the identity of parsed objects (and take one object on both sides for one place)."""

    _latest: weakref.ref[_Blobs] | None = None

    def __init__(self) -> None:
        self.texts: dict[str, tuple[str, int]] = {}  # object id -> text, size in bytes
        #: (text, limits, whether the name ends in .json, which decides whether text that is not JSON is YAML)
        #: -> (its marshalled data, format)
        self.parses: dict[tuple[str, Limits, bool], tuple[bytes, str]] = {}
        self._near = [(self.texts, self.parses)]

    @classmethod
    def next(cls) -> _Blobs:
        """The table of the next input, sharing with the one before it while that one's documents live."""
        made, earlier = cls(), cls._latest() if cls._latest is not None else None
        if earlier is not None:
            made._near.append((earlier.texts, earlier.parses))
            earlier._near.append((made.texts, made.parses))
        cls._latest = weakref.ref(made)
        return made

    def beside(self) -> bool:
        """Whether an input read beside this one has read more files than this one: it may hold the next."""
        return any(len(texts) > len(self.texts) for texts, _ in self._near)

    def known(self, oid: str) -> tuple[str, int] | None:
        """(text, size in bytes) of an object an input sharing this table read, kept for the next one too."""
        known = next((texts[oid] for texts, _ in self._near if oid in texts), None) if oid else None
        if known is not None:
            self.texts[oid] = known
        return known

    def text(self, oid: str, raw: bytes, name: str) -> str:
        known = self.known(oid)
        if known is not None:
            return known[0]
        text = decode(raw, name)
        if oid:
            self.texts[oid] = (text, len(raw))
        return text

    def parse(self, text: str, name: str, limits: Limits) -> tuple[Any, str]:
        """`parse_text`, once per text and limits across the inputs that share this table."""
        key = (text, limits, name.endswith(".json"))
        known = next((parses[key] for _, parses in self._near if key in parses), None)
        if known is not None:
            self.parses[key] = known
            return marshal.loads(known[0]), known[1]
        data, fmt = parse_text(text, name, limits)
        try:
            self.parses[key] = (marshal.dumps(data), fmt)
        except ValueError:  # nested deeper than marshal goes: the other side parses it again
            pass
        return data, fmt


class _Objects:
    """One `git cat-file --batch-command` per spec read from git, asked for each file in turn: a split spec
    reaches thousands of files, and a process per file would cost more than reading them. Each file is one
    request (`contents`, whose reply starts with the object's type and size), not two: a reply is a wait for
    git, and on a busy machine the waits cost more than the reading. It lives as long as the spec's reader (git
    reads the index once, so a process kept longer would not see what was staged since). Object names holding a
    line break, which the batch protocol cannot carry, are read with a process of their own."""

    def __init__(self, toplevel: Path) -> None:
        self.toplevel = toplevel
        self.process: subprocess.Popen[bytes] | None = None
        self._trees: dict[str, dict[bytes, str]] = {}  # folder at the revision -> its blobs' object ids, by name

    def _ask(self, command: str, name: str) -> bytes | None:
        """The reply's header line, or None when git cannot be asked."""
        if self.process is None or self.process.poll() is not None:
            try:
                self.process = subprocess.Popen(["git", "cat-file", "--batch-command"], cwd=self.toplevel,
                                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                stderr=subprocess.DEVNULL)
            except OSError:
                return None
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(f"{command} {name}\n".encode("utf-8", "surrogateescape"))
            self.process.stdin.flush()
        except OSError:
            return None
        return self.process.stdout.readline()

    def blob(self, name: str, limit: int, wanted: str = "blob") -> tuple[str, str | None, int, bytes | None]:
        """(object id, object type, size, the bytes of a blob (or the `wanted` type) of at most `limit` bytes), or
        ("", None, 0, None) when there is no such object. What is not read (a larger blob, a tree) is dropped with
        the process, which the next request starts again, instead of being read only to be thrown away."""
        if "\n" in name:
            return self._alone(name, limit)
        parts = (self._ask("contents", name) or b"").split()
        if len(parts) != 3 or not parts[2].isdigit():
            return "", None, 0, None
        oid, kind, size = parts[0].decode(), parts[1].decode(), int(parts[2])
        assert self.process is not None and self.process.stdout is not None
        if kind != wanted or size > limit:
            self.close(kill=True)
            return oid, kind, size, None
        return oid, kind, size, self.process.stdout.read(size + 1)[:-1]  # the object and the line break after it

    def listed(self, rev: str, path: str, limit: int) -> str:
        """The object id of a file at a revision as its folder lists it ("" when it lists no file of that name):
        one request per folder, where asking for a file's contents is one per file. A folder's listing (a tree
        object of at most `limit` bytes) names each entry's mode, name and object id."""
        folder, _, file = path.rpartition("/")
        entries = self._trees.get(folder)
        if entries is None:
            entries = self._trees[folder] = {}
            oid, kind, size, tree = self.blob(f"{rev}:{folder}", limit, "tree") if "\n" not in folder else (
                "", None, 0, None)
            width = len(oid) // 2  # (a SHA-1 or a SHA-256 repository)
            at = 0
            while tree is not None and at < len(tree):
                space, end = tree.find(b" ", at), tree.find(b"\0", at)
                if space < 0 or end < space or end + 1 + width > len(tree):
                    break  # not a tree as git writes one: ask for each file
                if tree[at:space] in _BLOB_MODES:
                    entries[tree[space + 1:end]] = tree[end + 1:end + 1 + width].hex()
                at = end + 1 + width
        return entries.get(file.encode("utf-8", "surrogateescape"), "")

    def _alone(self, name: str, limit: int) -> tuple[str, str | None, int, bytes | None]:
        """As `blob`, without the object id (such a file is read again by the other side)."""
        size = _git(["cat-file", "-s", name], self.toplevel)
        kind = _git(["cat-file", "-t", name], self.toplevel)
        if size.returncode or kind.returncode:
            return "", None, 0, None
        found, length = kind.stdout.decode().strip(), int(size.stdout.strip() or 0)
        if found != "blob" or length > limit:
            return "", found, length, None
        blob = _git(["cat-file", "blob", name], self.toplevel)
        return "", found, length, blob.stdout if blob.returncode == 0 else None

    def close(self, kill: bool = False) -> None:
        if self.process is not None:
            if kill:
                self.process.kill()
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait()
            if self.process.stdout is not None:
                self.process.stdout.close()
            self.process = None


class _Reader:
    """Document.reader for $refs: the same revision, never the working tree, through one git process."""

    def __init__(self, found: GitSource, limits: Limits, blobs: _Blobs) -> None:
        self.found, self.limits, self.top, self.blobs = found, limits, found.toplevel.resolve(), blobs
        self.objects = _Objects(found.toplevel)
        weakref.finalize(self, self.objects.close)

    def __call__(self, target: Path, name: str) -> str:
        """The text of a file at the revision; `target` is resolved already (graph.refs confines it first)."""
        try:
            relative = target.relative_to(self.top).as_posix()
        except ValueError:
            raise InputError("$ref leaves the repository (refused)", file=name) from None
        return _read_blob(self.found, relative, name, self.limits, self.objects, self.blobs)

    def parse(self, text: str, name: str, limits: Limits) -> tuple[Any, str]:
        """A text this reader read, parsed (graph.refs asks the reader of a document for the files it reaches)."""
        return self.blobs.parse(text, name, limits)


def _load_blob(found: GitSource, path: str, name: str, limits: Limits, blobs: _Blobs) -> Document:
    reader = _Reader(found, limits, blobs)
    text = _read_blob(found, path, name, limits, reader.objects, blobs)
    base = str(found.toplevel.resolve() / PurePosixPath(path).parent)
    return load_text(text, name, base, limits, reader=reader, parsed=blobs.parse(text, name, limits))


def _load_tree(found: GitSource, limits: Limits, blobs: _Blobs) -> Document:
    names = _tree_files(found)
    if not names:
        raise InputError("directory holds no .json or .yaml spec files at that revision", file=found.source)
    parts = []
    for file_name in names:
        path = f"{found.path}/{file_name}" if found.path else file_name
        shown = f"{found.source.rstrip('/')}/{file_name}"
        parts.append((group_version_of_file(file_name), _load_blob(found, path, shown, limits, blobs)))
    base = str(found.toplevel.resolve() / found.path)
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
    return sorted(n for n in names if n.endswith(SPEC_SUFFIXES))


def read_text(source: str, limits: Limits) -> str:
    """The text of one file given as `REV:path` (`:path` for the staged version)."""
    found = parse_source(source)
    if found is None:
        raise InputError("not a file in the git repository here", file=source)
    objects = _Objects(found.toplevel)  # (one file, no $refs: no reader, and git's process ends here)
    try:
        return _read_blob(found, found.path, source, limits, objects, _Blobs())
    finally:
        objects.close()


def staged_files(folder: str) -> list[str]:
    """The spec files (.json, .yaml, .yml) staged directly inside `folder` (relative to the working directory)."""
    found = parse_source(f":./{folder}")
    return [] if found is None else _tree_files(found)


def exists_at(rev: str, path: str, repo: str | None = None) -> bool:
    """Whether `path` (relative to the working directory, or to `repo`) is a file or folder at `rev` ("" for the
    index)."""
    here = Path(repo) if repo is not None else None
    if rev and not is_revision(rev, here):
        return False
    return _git(["cat-file", "-e", f"{rev}:./{path}"], here).returncode == 0
