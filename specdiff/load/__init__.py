"""load: a source (path, directory, "-" for stdin) -> Document, with its dialect detected."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from specdiff.errors import InputError
from specdiff.load.document import Document, mappings
from specdiff.load.files import NotRegular, inside, open_regular
from specdiff.load.parse import DEFAULT_LIMITS, Limits, decode
from specdiff.load.text import SPEC_SUFFIXES, detect_dialect, group_version_of_file, load_text

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Document", "Limits", "DEFAULT_LIMITS", "STDIN", "load", "load_text", "read_stdin", "detect_dialect",
           "refers_to_files"]



def load(source: str, limits: Limits = DEFAULT_LIMITS, repo: str | None = None) -> Document:
    """Read a spec from a file, a directory of per-group documents, stdin ("-"), or git ("REV:path"); `repo` is
    the directory of the repository `REV:path` resolves against (default: the working directory), and with one
    a source is always read as `REV:path`."""
    if source == "-":
        return load_text(read_stdin(limits), STDIN, None, limits)
    if ":" in source:
        from pathlib import Path

        from specdiff.load.git import load_git, parse_source

        found = parse_source(source, Path(repo) if repo is not None else None)
        if found is not None:
            return load_git(found, limits)
    if repo is not None:
        raise InputError("with a repository given, a source is REV:path (:path for the staged version)", file=source)
    if os.path.isdir(source or os.curdir):  # (as pathlib reads it, "" names the working directory)
        return _load_dir(source, limits)
    return load_text(read_file(source, source, limits), source, folder_of(source), limits,
                     reader=_file_reader(limits))


def folder_of(path: str) -> str:
    """The folder a file's relative `$ref`s resolve against (`.` for a file named alone)."""
    return os.path.dirname(path) or "."


#: how errors and reports name the spec read from stdin ("-")
STDIN = "<stdin>"


def read_stdin(limits: Limits) -> str:
    """The text on stdin, read once: a second read finds it empty (and a process pool's worker finds none)."""
    raw = sys.stdin.buffer.read(limits.max_bytes + 1)
    if len(raw) > limits.max_bytes:
        raise InputError(f"input is over the {limits.max_bytes}-byte limit (--max-bytes)", file=STDIN)
    return decode(raw, STDIN)


def refers_to_files(doc: Document) -> bool:
    """Whether a spec is split across files: a `$ref` of its own documents names another file (not a URL)."""
    return any(isinstance(ref := node.get("$ref"), str) and ref.partition("#")[0] and "://" not in ref
               for node in mappings([doc.data, *(part.data for _, part in doc.parts)]))


def read_file(path: Path | str, name: str, limits: Limits) -> str:
    """A spec file's text: a FIFO, device or socket (given as OLD or NEW, or reached by `$ref`) is refused
    before reading, since reading one could block the run for ever."""
    try:
        fh, size = open_regular(path)
        with fh:
            limits.check_size(size, name)
            # sized to the file: a read of the limit's bytes allocates them first (0.3 ms for 64 MB)
            raw = fh.read(size + 1)
            if len(raw) > size:  # the file grew since it was measured, or is measured as empty (/proc)
                raw += fh.read(limits.max_bytes + 1 - len(raw))
    except FileNotFoundError:
        raise InputError("no such file", file=name) from None
    except NotRegular as err:
        raise InputError(f"is {err.kind}, not a file", file=name) from None
    except PermissionError:
        raise InputError("permission denied", file=name) from None
    except OSError as err:
        raise InputError(err.strerror or "cannot be read", file=name) from None
    if len(raw) > limits.max_bytes:
        raise InputError(f"input is over the {limits.max_bytes}-byte limit (--max-bytes)", file=name)
    return decode(raw, name)


def _file_reader(limits: Limits) -> Callable[[Path, str], str]:
    return lambda path, name: read_file(path, name, limits)


def _load_dir(name: str, limits: Limits) -> Document:
    from pathlib import Path  # (a folder's files are listed, and named, as pathlib writes them)

    path = Path(name)
    files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix in SPEC_SUFFIXES)
    if not files:
        raise InputError("directory holds no .json or .yaml spec files", file=name)
    parts = []
    for file in files:
        if not inside(file, path):  # the rule a `$ref` follows: a folder's files are the folder's own
            raise InputError("a symlink that leaves the folder (refused)", file=str(file))
        doc = load_text(read_file(file, str(file), limits), str(file), str(path), limits,
                        reader=_file_reader(limits))
        parts.append((group_version_of_file(file.name), doc))
    return Document(name=name, data=None, dialect="openapi-dir", format="dir", base=str(path), parts=tuple(parts),
                    limits=limits)
