"""load: a source (path, directory, "-" for stdin) -> Document, with its dialect detected."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from specdiff.errors import InputError
from specdiff.load.document import Document
from specdiff.load.files import NotRegular, inside, open_regular
from specdiff.load.parse import DEFAULT_LIMITS, Limits, decode, parse_text
from specdiff.load.sourcemap import JsonSourceMap, SourceMap, YamlSourceMap

__all__ = ["Document", "Limits", "DEFAULT_LIMITS", "STDIN", "load", "load_text", "read_stdin", "detect_dialect"]

_SPEC_SUFFIXES = (".json", ".yaml", ".yml")


def load(source: str, limits: Limits = DEFAULT_LIMITS) -> Document:
    """Read a spec from a file, a directory of per-group documents, stdin ("-"), or git ("REV:path")."""
    if source == "-":
        return load_text(read_stdin(limits), STDIN, None, limits)
    if ":" in source:
        from specdiff.load.git import load_git, parse_source

        found = parse_source(source)
        if found is not None:
            return load_git(found, limits)
    path = Path(source)
    if path.is_dir():
        return _load_dir(path, source, limits)
    return load_text(read_file(path, source, limits), source, path.parent, limits, reader=_file_reader(limits))


#: how errors and reports name the spec read from stdin ("-")
STDIN = "<stdin>"


def read_stdin(limits: Limits) -> str:
    """The text on stdin, read once: a second read finds it empty (and a process pool's worker finds none)."""
    raw = sys.stdin.buffer.read(limits.max_bytes + 1)
    if len(raw) > limits.max_bytes:
        raise InputError(f"input is over the {limits.max_bytes}-byte limit (--max-bytes)", file=STDIN)
    return decode(raw, STDIN)


def read_file(path: Path, name: str, limits: Limits) -> str:
    """A spec file's text: a FIFO, device or socket (given as OLD or NEW, or reached by `$ref`) is refused
    before reading, since reading one could block the run for ever."""
    try:
        fh, size = open_regular(path)
        with fh:
            if size > limits.max_bytes:
                raise InputError(f"file is {size} bytes, over the {limits.max_bytes}-byte limit (--max-bytes)",
                                 file=name)
            raw = fh.read(limits.max_bytes + 1)
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


def load_text(text: str, name: str, base: Path | None, limits: Limits = DEFAULT_LIMITS,
              reader: Callable[[Path, str], str] | None = None,
              parsed: tuple[Any, str] | None = None) -> Document:
    """A Document from a spec's text; `parsed` is the text's (data, format) when it was parsed elsewhere."""
    data, fmt = parsed or parse_text(text, name, limits)
    dialect = detect_dialect(data, name)
    sourcemap: SourceMap = JsonSourceMap(text) if fmt == "json" else YamlSourceMap(text, multi=isinstance(data, list))
    return Document(name=name, data=data, dialect=dialect, format=fmt, base=base, sourcemap=sourcemap,
                    reader=reader, limits=limits)


def detect_dialect(data: Any, name: str) -> str:
    if isinstance(data, list):
        if data and all(isinstance(d, dict) and _is_crd(d) for d in data):
            return "crd"
        raise InputError("the document is a list, not a mapping (nor a list of CustomResourceDefinitions)",
                         file=name, place="1:1")
    if not isinstance(data, dict):
        raise InputError(f"the document is a {type(data).__name__}, not a mapping", file=name, place="1:1")
    if "swagger" in data:
        if str(data["swagger"]) != "2.0":
            raise InputError(f"unsupported swagger version {data['swagger']!r} (only 2.0 is Swagger)", file=name,
                             place="/swagger")
        return "swagger-2.0"
    if "openapi" in data:
        version = str(data["openapi"])
        if re.match(r"3\.0(\.\d+)?(-.*)?$", version):
            return "openapi-3.0"
        if re.match(r"3\.1(\.\d+)?(-.*)?$", version):
            return "openapi-3.1"
        raise InputError(f"unsupported openapi version {version!r} (3.0 and 3.1 are understood)", file=name,
                         place="/openapi")
    if _is_crd(data) or (data.get("kind") == "List" and isinstance(data.get("items"), list)
                         and data["items"] and all(isinstance(i, dict) and _is_crd(i) for i in data["items"])):
        return "crd"
    raise InputError("not an OpenAPI 2.0/3.x document or a CustomResourceDefinition "
                     "(no 'swagger', 'openapi' or 'kind: CustomResourceDefinition')", file=name)


def _is_crd(data: dict[str, Any]) -> bool:
    return data.get("kind") == "CustomResourceDefinition"


def group_version_of_file(filename: str) -> str:
    """`apis__apps__v1_openapi.json` -> `apps/v1`; `api__v1_openapi.json` -> `core/v1`."""
    stem = filename
    for suffix in _SPEC_SUFFIXES:
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
    stem = stem.removesuffix("_openapi")
    parts = [p for p in stem.split("__") if p]
    if parts and parts[0] == "api":
        return "core/" + "/".join(parts[1:]) if len(parts) > 1 else "core"
    if parts == ["apis"]:
        return "apis"  # the discovery document of all groups
    if parts and parts[0] == "apis":
        parts = parts[1:]
    return "/".join(parts) or filename


def _load_dir(path: Path, name: str, limits: Limits) -> Document:
    files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix in _SPEC_SUFFIXES)
    if not files:
        raise InputError("directory holds no .json or .yaml spec files", file=name)
    parts = []
    for file in files:
        if not inside(file, path):  # the rule a `$ref` follows: a folder's files are the folder's own
            raise InputError("a symlink that leaves the folder (refused)", file=str(file))
        doc = load_text(read_file(file, str(file), limits), str(file), path, limits, reader=_file_reader(limits))
        parts.append((group_version_of_file(file.name), doc))
    return Document(name=name, data=None, dialect="openapi-dir", format="dir", base=path, parts=tuple(parts),
                    limits=limits)
