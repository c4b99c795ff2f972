"""Servers as the graph reads them: the base URLs each operation is called at, in OpenAPI 3 terms.

An operation's own `servers`, else its path item's, else the document's; OpenAPI 3 without `servers` means
`/`. Swagger 2.0's `schemes`, `host` and `basePath` are the same thing spelled apart: one server per scheme
(`https://api.example.com/v1`), an operation's own `schemes` taking the place of the document's. So a spec
that moves from Swagger 2.0 to OpenAPI 3 with the same base URL has no server change.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from specdiff.graph.model import Server, ServerVariable
from specdiff.load.document import Document
from specdiff.load.sourcemap import join_pointer
from specdiff.patterns import compiled

if TYPE_CHECKING:
    from urllib.parse import SplitResult

#: what a document without servers is called at (OpenAPI 3.0.3, 4.7.2: "a single server with a url value of /")
ROOT = (Server("/", (), ""),)
#: a variable as a server URL writes it (OpenAPI 3.1, 4.8.5.1: `{name}`, no braces inside)
_VARIABLE = r"\{([^{}]*)\}"


def written(raw: Any, pointer: str) -> tuple[Server, ...] | None:
    """A `servers` list as written at `pointer`, or None when it is absent or empty (then the enclosing one
    applies)."""
    if not isinstance(raw, list) or not raw:
        return None
    found = []
    for i, item in enumerate(raw):
        if isinstance(item, dict) and isinstance(item.get("url"), str):
            at = f"{pointer}/{i}"
            found.append(Server(item["url"], _variables(item.get("variables"), at + "/variables"), at + "/url"))
    return tuple(found) or None


def of_document(doc: Document) -> tuple[Server, ...]:
    data = doc.data if isinstance(doc.data, dict) else {}
    if doc.dialect == "swagger-2.0":
        return swagger(data, data.get("schemes"), "/schemes")
    return written(data.get("servers"), "/servers") or ROOT


def of_operation(raw: dict[str, Any], at: str, doc: Document, inherited: tuple[Server, ...]) -> tuple[Server, ...]:
    """The servers an operation written at `at` is called at; `inherited` are its path item's or document's."""
    if doc.dialect == "swagger-2.0":
        schemes = raw.get("schemes")
        data = doc.data if isinstance(doc.data, dict) else {}
        return swagger(data, schemes, at + "/schemes") if isinstance(schemes, list) and schemes else inherited
    return written(raw.get("servers"), at + "/servers") or inherited


def swagger(data: dict[str, Any], schemes: Any, schemes_pointer: str) -> tuple[Server, ...]:
    """Swagger 2.0's `schemes` x `host` + `basePath`, one server per scheme; a missing host or scheme is the one
    the document was served from, written as a relative URL, as OpenAPI 3 writes it."""
    host = data.get("host") if isinstance(data.get("host"), str) else ""
    base = data.get("basePath") if isinstance(data.get("basePath"), str) else ""
    names = tuple(s for s in schemes if isinstance(s, str)) if isinstance(schemes, list) else ()
    return _swagger(host, base, names, schemes_pointer if host and len(names) > 1 else "")


@lru_cache(maxsize=256)  # (a Kubernetes document writes `schemes: [https]` on each of its thousand operations)
def _swagger(host: str, base: str, names: tuple[str, ...], schemes_pointer: str) -> tuple[Server, ...]:
    pointer = "/basePath" if base else "/host" if host else ""
    if not host:
        return (Server(base or "/", (), pointer),)
    if not names:
        return (Server(f"//{host}{base}", (), pointer),)
    return tuple(Server(f"{scheme.lower()}://{host}{base}", (), pointer if len(names) == 1 else schemes_pointer)
                 for scheme in names)


def _variables(raw: Any, pointer: str) -> tuple[ServerVariable, ...]:
    if not isinstance(raw, dict):
        return ()
    found = []
    for name, item in raw.items():
        item = item if isinstance(item, dict) else {}
        default = item.get("default")
        enum = item.get("enum")
        found.append(ServerVariable(str(name), str(default) if default is not None else None,
                                    tuple(str(v) for v in enum) if isinstance(enum, list) else None,
                                    pointer + join_pointer((str(name),))))
    return tuple(sorted(found, key=lambda v: v.name))


def resolved(server: Server) -> str:
    """The URL a client calls when it keeps every variable's default, without a trailing slash, its scheme and
    host in lower case (neither is case-sensitive). Each `{name}` written in the URL is replaced once, in one
    pass: a default that writes `{other}` is text, not another variable to substitute (defaults that each wrote
    the next twice would double the URL per variable)."""
    defaults = {variable.name: variable.default for variable in server.variables if variable.default is not None}
    url = (compiled(_VARIABLE).sub(lambda found: defaults.get(found[1], found[0]), server.url) if defaults
           else server.url)
    parts = _split(url)
    if parts is None:
        return url  # no URL urllib can read (a host in brackets that is no IP address): compared as written
    origin = f"{parts.scheme.lower()}:" if parts.scheme else ""
    origin += f"//{parts.netloc.lower()}" if parts.netloc or url.startswith("//") else ""
    return origin + (parts.path.rstrip("/") or "/") + (f"?{parts.query}" if parts.query else "")


def origin(url: str) -> str:
    """`https://api.example.com` of a resolved URL; "" for a relative one; the whole text for one urllib cannot
    read, which shares its origin with no other URL."""
    parts = _split(url)
    if parts is None:
        return url
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""


def _split(url: str) -> SplitResult | None:
    """A URL's parts; None for text urllib refuses (`https://[*b]/`: a bracketed host that is no IP address)."""
    from urllib.parse import urlsplit  # (with ipaddress: for the specs that write servers)

    try:
        return urlsplit(url)
    except ValueError:
        return None
