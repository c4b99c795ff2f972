"""OpenAPI 3.1 schema references as JSON Schema 2020-12 resolves them, with python-jsonschema's `referencing`.

In a 3.1 document a schema's `$ref` resolves against the base URI of the schema resource around it: the
document's own location, or the `$id` of an enclosing schema (an embedded resource, itself relative to the one
around it); its fragment is a JSON pointer into that resource or a plain name (`$anchor`, `$dynamicAnchor`).
`referencing` knows these rules, dialect by dialect (`jsonSchemaDialect`, a schema's `$schema`): it finds the
resources and anchors of each document and resolves a reference to its target, `$dynamicRef` against the
dynamic scope it is given. Around it specdiff keeps what it adds: the target's place (document and pointer: one
identity for every spelling, and source positions), files read only inside the spec's folder and through the
loader's budgets, and nothing from the network unless remote references are allowed: a URI that no schema
declares is an input error.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urldefrag, urljoin, urlsplit

import referencing
import referencing.exceptions
import referencing.jsonschema

from specdiff.errors import InputError
from specdiff.load.document import REMOTE_SCHEMES, Document
from specdiff.load.sourcemap import join_pointer, nodes_along

#: where an OpenAPI document holds schemas outside other schemas (3.2 adds `itemSchema` to media types)
_SCHEMA_KEYS = frozenset({"schema", "itemSchema"})
#: values that hold examples or vendor data, never schemas
_NOT_OPENAPI = frozenset({"example", "examples", "default", "enum", "const"})

#: (document, pointer) of a target
Place = tuple[Document, str]


def file_uri(doc: Document) -> str | None:
    """The `file:` URI of a document read from a file."""
    return (Path(doc.base).resolve() / Path(doc.name).name).as_uri() if doc.base is not None else None


def document_uri(doc: Document) -> str:
    """The URI a document is retrieved from: its file, its URL, or a name for an input with no folder; an
    OpenAPI 3.2 document's `$self` is resolved against it."""
    uri = doc.name if urlsplit(doc.name).scheme.lower() in REMOTE_SCHEMES else file_uri(doc)
    if uri is None:
        uri = "file:///" + quote(Path(doc.name).name)
    own = doc.data.get("$self") if isinstance(doc.data, dict) and _version(doc.data).startswith("3.2") else None
    return urldefrag(urljoin(uri, own))[0] if isinstance(own, str) else uri


def _specification(doc: Document) -> referencing.Specification[Any]:
    """How `referencing` reads one document: an OpenAPI document is no schema, but holds schemas, each read in
    the document's dialect (`jsonSchemaDialect`, 2020-12 when it names none) unless it names its own
    (`$schema`); a file of one schema is read in the dialect of the spec that refers to it."""
    data = doc.data
    dialect_id = data.get("jsonSchemaDialect") if isinstance(data, dict) else None
    dialect = referencing.jsonschema.specification_with(
        dialect_id if isinstance(dialect_id, str) else "", default=referencing.jsonschema.DRAFT202012)
    if not _is_openapi(data):
        return dialect

    def id_of(contents: Any) -> str | None:
        found = None if contents is data or not isinstance(contents, dict) else dialect.id_of(contents)
        return found if isinstance(found, str) else None  # a wrong-typed `$id` names nothing

    def subresources_of(contents: Any) -> Any:
        if contents is data:
            return _schemas_of(data)
        try:  # a wrong-typed keyword (`$defs: x`) holds no schema, as the differ reads it
            return [each for each in dialect.subresources_of(contents) if isinstance(each, (dict, bool))]
        except (AttributeError, TypeError):
            return []

    def anchors_in(_: Any, contents: Any) -> Any:
        if contents is data or not isinstance(contents, dict):
            return ()
        return [anchor for anchor in dialect.anchors_in(contents) if isinstance(anchor.name, str)]

    # (referencing's attrs classes take their fields as keywords; mypy's attrs plugin does not see them)
    return referencing.Specification(  # type: ignore[call-arg]
        name="openapi", id_of=id_of, subresources_of=subresources_of, anchors_in=anchors_in,
        maybe_in_subresource=lambda segments, resolver, subresource: resolver)


def _schemas_of(data: dict[str, Any]) -> Iterator[Any]:
    """The schemas an OpenAPI document holds outside other schemas: named ones, and those of parameters, media
    types and headers wherever these are written."""
    components = data.get("components")
    named = components.get("schemas") if isinstance(components, dict) else None
    if isinstance(named, dict):
        yield from (schema for schema in named.values() if isinstance(schema, (dict, bool)))
    pending: list[Any] = [value for key, value in data.items() if key != "components"]
    if isinstance(components, dict):
        pending.extend(value for key, value in components.items() if key != "schemas")
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, dict):
            for key, value in node.items():
                if key in _SCHEMA_KEYS and isinstance(value, (dict, bool)):
                    yield value
                elif key not in _NOT_OPENAPI and not key.startswith("x-") and isinstance(value, (dict, list)):
                    pending.append(value)


def _is_openapi(data: Any) -> bool:
    return isinstance(data, dict) and "openapi" in data


def _version(data: dict[str, Any]) -> str:
    return str(data.get("openapi", ""))  # (graph.refs reads it the same way)


class Resources:
    """The schema resources of one side of a comparison (its documents and the files they name), in one
    `referencing` registry; `place` maps what the registry returns back to where it is written."""

    def __init__(self) -> None:
        self.registry: referencing.Registry[Any] = referencing.Registry()
        self.documents: dict[str, Document] = {}  # URI -> document
        self._added: set[int] = set()
        #: id of every mapping of the documents added -> where it is written
        self._places: dict[int, Place] = {}
        #: id of each resource's contents -> its URI: the base URI inside it
        self._bases: dict[int, str] = {}
        self._scopes: dict[tuple[int, str], tuple[str, ...]] = {}
        #: whether a document added writes a `$dynamicRef`
        self.dynamic = False

    def add(self, doc: Document, retrieved_as: str | None = None) -> None:
        """Register a document and the schema resources and anchors it declares (once: a spec asks for each of
        its refs); one read for a reference to another URI (under a 3.2 document's `$self`) is known by that URI
        too, and its own references resolve against it."""
        first = id(doc) not in self._added
        uris = [*([retrieved_as] if retrieved_as else []), *([document_uri(doc)] if first else [])]
        new = [uri for uri in dict.fromkeys(uris) if uri not in self.documents]
        if new:
            try:
                specification = _specification(doc)  # (an OpenAPI document is read as one whatever it writes)
                resource = (specification.create_resource(doc.data) if _is_openapi(doc.data)
                            else referencing.Resource.from_contents(doc.data, default_specification=specification))
                self.registry = self.registry.with_resources((uri, resource) for uri in new).crawl()
            except (AttributeError, TypeError) as err:  # a schema naming another dialect, read by its rules
                raise InputError(f"the schemas cannot be read as the JSON Schema dialects they name ({err})",
                                 file=doc.name) from None
            self.documents.update((uri, doc) for uri in new)
        if not first:
            return
        self._added.add(id(doc))
        self._index(doc)
        for known in self.registry:
            contents = self.registry[known].contents
            if isinstance(contents, dict) and id(contents) in self._places:
                self._bases.setdefault(id(contents), known)
        self._bases[id(doc.data)] = uris[0]

    def _index(self, doc: Document) -> None:
        pending: list[tuple[Any, str]] = [(doc.data, "")]
        places = self._places
        while pending:
            node, pointer = pending.pop()
            if isinstance(node, dict):
                places.setdefault(id(node), (doc, pointer))
                if "$dynamicRef" in node:
                    self.dynamic = True
                pending.extend((value, pointer + join_pointer((key,))) for key, value in node.items()
                               if isinstance(value, (dict, list)))
            else:
                pending.extend((value, f"{pointer}/{i}") for i, value in enumerate(node)
                               if isinstance(value, (dict, list)))

    def base(self, doc: Document, pointer: str) -> str:
        """The base URI at a place of a document: that of the innermost resource around it."""
        return self.scope(doc, pointer)[-1]

    def scope(self, doc: Document, pointer: str) -> tuple[str, ...]:
        """The URIs of the resources around a place of a document, outermost (the document) first."""
        known = self._scopes.get((id(doc), pointer))
        if known is not None:
            return known
        scope = [self._bases[id(doc.data)]]
        for node in nodes_along(doc.data, pointer):
            uri = self._bases.get(id(node))
            if uri is not None and uri != scope[-1]:
                scope.append(uri)
        found = self._scopes[(id(doc), pointer)] = tuple(scope)
        return found

    def locate(self, ref: str, base: str, scope: tuple[str, ...] = (), dynamic: bool = False) -> Place | None:
        """Where a reference written under `base` points, or None when nothing is there; `scope` is the dynamic
        scope (URIs of the resources entered, outermost first) a `$dynamicRef` resolves against. Raises
        `Unknown` for a URI that no document added declares."""
        uri, fragment = urldefrag(urljoin(base, ref))
        try:
            resource = self.registry.get_or_retrieve(uri).value
        except (referencing.exceptions.NoSuchResource, referencing.exceptions.Unretrievable):
            raise Unknown(uri) from None
        resolver = self.registry.resolver(base_uri=scope[0] if dynamic and scope else base)
        try:
            for entered in scope[1:] if dynamic else ():
                resolver = resolver.lookup(entered).resolver
            if dynamic:
                resolver = resolver.lookup(base).resolver
            contents = resolver.lookup(uri + ("#" + fragment if fragment else "")).contents
        except (referencing.exceptions.Unresolvable, AttributeError, TypeError, ValueError):
            return None  # (also a pointer through a plain value, a list's token that is no index)
        found = self._places.get(id(contents)) if isinstance(contents, dict) else None
        if found is not None:
            return found
        home = self._places.get(id(resource.contents))
        if home is None or not fragment.startswith("/"):
            return None
        return home[0], home[1] + unquote(fragment)


class Unknown(Exception):
    """A reference to a URI that no document of the spec declares."""

    def __init__(self, uri: str) -> None:
        super().__init__(uri)
        self.uri = uri

