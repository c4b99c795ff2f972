"""Security as the graph reads it: each operation's effective requirement and the schemes it names.

Both dialects come out in OpenAPI 3 terms, so a spec that moves from Swagger 2.0 to OpenAPI 3 compares by what
clients do, not by how it is spelled: `securityDefinitions` and `components.securitySchemes` are one table,
Swagger's `basic` is `http` with scheme `basic`, and its one OAuth `flow` is a named flow with its scopes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from specdiff.errors import InputError
from specdiff.graph.model import OAuthFlow, Requirement, Security, SecurityScheme
from specdiff.load.document import Document
from specdiff.load.sourcemap import join_pointer

#: Swagger 2.0 OAuth `flow` -> the OpenAPI 3 flow that obtains tokens the same way
_V2_FLOWS = {"implicit": "implicit", "password": "password", "application": "clientCredentials",
             "accessCode": "authorizationCode"}

#: (object, pointer, document) -> the same, with `$ref`s followed
Deref = Callable[[Any, str, Document], tuple[Any, str, Document]]


def effective(raw_operation: dict[str, Any], at: str, written: Document, spec: Document) -> Security:
    """The operation's own `security` (`at` is where it is written, in `written`), else that of the `spec`
    holding it; `[]` and no requirement anywhere both mean anyone may call it."""
    if "security" in raw_operation:
        return requirement(raw_operation["security"], at + "/security", written)
    if isinstance(spec.data, dict) and "security" in spec.data:
        return requirement(spec.data["security"], "/security", spec)
    return Security(stated=not _defines_schemes(spec))


def settled(security: Security, api_server: bool) -> Security:
    """What leaving `security` out says, for the ecosystem decided from both specs (graph.ecosystem): anyone may
    call (OpenAPI's reading), except in a Kubernetes API server's spec that defines schemes, where it says
    nothing and is not compared: kube-openapi's per-group v3 documents leave out the requirement their
    swagger.json states. The graph records only that it was left out (`Security.stated`)."""
    return security if security.stated or api_server else replace(security, stated=True)


def requirement(raw: Any, pointer: str, document: Document) -> Security:
    """A `security` list: each requirement object one alternative, each scheme in it with its scopes."""
    if not isinstance(raw, list):
        raise InputError("'security' must be a list of requirement objects", file=document.name, place=pointer)
    alternatives = []
    for index, item in enumerate(raw):
        if not isinstance(item, dict):
            raise InputError("a security requirement must be a mapping", file=document.name,
                             place=f"{pointer}/{index}")
        schemes = tuple(sorted((str(name), frozenset(str(s) for s in scopes if isinstance(s, str))
                                if isinstance(scopes, list) else frozenset()) for name, scopes in item.items()))
        alternatives.append(Requirement(schemes, f"{pointer}/{index}"))
    return Security(tuple(alternatives), pointer)


def _listed(document: Document) -> dict[str, Any]:
    """`securityDefinitions` or `components.securitySchemes` as written, {} when absent or malformed."""
    data = document.data if isinstance(document.data, dict) else {}
    components = data.get("components")
    listed = data.get("securityDefinitions") if document.dialect == "swagger-2.0" else (
        components.get("securitySchemes") if isinstance(components, dict) else None)
    return listed if isinstance(listed, dict) else {}


def _defines_schemes(document: Document) -> bool:
    """Whether the document defines security schemes (then leaving `security` out may say nothing)."""
    return bool(_listed(document))


def schemes(document: Document, deref: Deref) -> dict[str, SecurityScheme]:
    """The schemes a document defines, by name."""
    v2 = document.dialect == "swagger-2.0"
    prefix = ("securityDefinitions",) if v2 else ("components", "securitySchemes")
    found = {}
    for name, item in _listed(document).items():
        raw, at, _ = deref(item, join_pointer((*prefix, name)), document)
        if isinstance(raw, dict):
            found[str(name)] = _v2_scheme(str(name), raw, at) if v2 else _v3_scheme(str(name), raw, at)
    return found


def _v3_scheme(name: str, raw: dict[str, Any], at: str) -> SecurityScheme:
    flows = raw["flows"] if isinstance(raw.get("flows"), dict) else {}
    return SecurityScheme(
        name, _text(raw.get("type")) or "", at, location=_text(raw.get("in")), parameter=_text(raw.get("name")),
        scheme=(_text(raw.get("scheme")) or "").lower() or None, bearer_format=_text(raw.get("bearerFormat")),
        flows=tuple(sorted((_flow(str(flow), item, at + join_pointer(("flows", str(flow))))
                            for flow, item in flows.items() if isinstance(item, dict)),
                           key=lambda f: f.name)),
        open_id_connect_url=_text(raw.get("openIdConnectUrl")), oauth2_metadata_url=_text(raw.get("oauth2MetadataUrl")),
        deprecated=raw.get("deprecated") is True)


def _v2_scheme(name: str, raw: dict[str, Any], at: str) -> SecurityScheme:
    kind = _text(raw.get("type")) or ""
    if kind == "basic":
        return SecurityScheme(name, "http", at, scheme="basic")
    flow = _text(raw.get("flow"))
    flows = (_flow(_V2_FLOWS.get(flow, flow), raw, at),) if kind == "oauth2" and flow else ()
    return SecurityScheme(name, kind, at, location=_text(raw.get("in")), parameter=_text(raw.get("name")),
                          flows=flows)


def _flow(name: str, raw: dict[str, Any], at: str) -> OAuthFlow:
    scopes = raw.get("scopes")
    return OAuthFlow(name, at, _text(raw.get("authorizationUrl")), _text(raw.get("tokenUrl")),
                     _text(raw.get("refreshUrl")), frozenset(map(str, scopes)) if isinstance(scopes, dict)
                     else frozenset(), _text(raw.get("deviceAuthorizationUrl")))


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None
