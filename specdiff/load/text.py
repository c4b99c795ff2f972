"""A spec's text -> Document: the dialect it is written in, and the source map that locates its nodes.

Its own module so that every loader (files, folders, git revisions) builds documents the same way without
importing the others."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from specdiff.errors import InputError
from specdiff.load.document import Document
from specdiff.load.parse import DEFAULT_LIMITS, Limits, parse_text
from specdiff.load.sourcemap import JsonSourceMap, SourceMap, YamlSourceMap

if TYPE_CHECKING:
    from pathlib import Path

#: the files a folder of specs is read for
SPEC_SUFFIXES = (".json", ".yaml", ".yml")


def load_text(text: str, name: str, base: str | None, limits: Limits = DEFAULT_LIMITS,
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
        if re.match(r"3\.2(\.\d+)?(-.*)?$", version):
            return "openapi-3.2"
        raise InputError(f"unsupported openapi version {version!r} (3.0, 3.1 and 3.2 are understood)", file=name,
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
    for suffix in SPEC_SUFFIXES:
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
