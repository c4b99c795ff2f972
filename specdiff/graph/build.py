"""graph: Document -> SpecGraph. Swagger 2.0 and OpenAPI 3.x both become one normalised model.

Swagger `body`/`formData` parameters become request bodies, `produces`/`consumes` become media types,
`definitions` become named schemas; parameter, body, response and header `$ref`s are resolved here so
that moving something into components is not a change.
"""

from __future__ import annotations

import marshal
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import lru_cache
from operator import attrgetter, methodcaller
from typing import Any

import specdiff.graph.servers as servers
from specdiff.errors import InputError
from specdiff.frozen import refilled
from specdiff.graph.evidence import kubernetes_evidence
from specdiff.graph.kubernetes_names import GVK, declared_gvks, first_kind
from specdiff.graph.model import (
    ADDITIONAL_OPERATIONS,
    ITEM_SCHEMA,
    METHODS,
    METHODS_32,
    MediaType,
    NamedSchema,
    Operation,
    Parameter,
    ReadList,
    RequestBody,
    Response,
    Schema,
    Security,
    SecurityScheme,
    Server,
    SpecGraph,
    Written,
    group_version_of_name,
    group_version_of_path,
    is_xml,
)
from specdiff.graph.normalise import Normaliser, Place
from specdiff.graph.references import References
from specdiff.graph.refs import Resolver
from specdiff.graph.reuse import Earlier
from specdiff.graph.schemas import refs_in
from specdiff.graph.security import effective, schemes
from specdiff.graph.stability import DECLARED, declared, of_version, written_level
from specdiff.graph.sunset import sunset_header, sunset_of
from specdiff.load.document import Document
from specdiff.load.sourcemap import join_pointer, pointer_token

_PATH_PARAM = re.compile(r"\{[^}/]*\}")
#: what the graph reads of the objects of an operation itself (their schemas, media and headers); documentation
#: is compared where the differ reads it. The rest is compared as data, with its `$ref`s followed (Builder._data)
_READ = frozenset({"schema", "items", "content", "headers", "description", "summary", "example", "examples"})
_READ_PATH_ITEM = frozenset({"parameters", "servers", *METHODS, *_READ})
_READ_ROOT = frozenset({"paths", "components", "definitions", "parameters", "responses", "securityDefinitions",
                        "security", "servers", "webhooks", "tags", "info", *_READ})
_READ_OPERATION = frozenset({"parameters", "requestBody", "responses", "callbacks", "security", "servers", "tags",
                             "consumes", "produces", "schemes", *_READ})
#: Swagger 2.0 parameter keywords that describe its value, i.e. its schema
_V2_SCHEMA_KEYS = ("type", "format", "items", "collectionFormat", "default", "maximum", "exclusiveMaximum",
                   "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
                   "uniqueItems", "enum", "multipleOf", "x-nullable")


#: where Swagger 2.0 parameters that make up the request body go (`Builder._v2_body`)
_IN_BODY = frozenset({"body", "formData"})
#: what a parameter record, or a parameter object, says, read in C over a whole list (most operations have no
#: body parameter to leave out, and share their list of parameters or their schemas with others)
_LOCATION, _SCHEMA, _REF = attrgetter("location"), attrgetter("schema"), methodcaller("get", "$ref")
_PLAIN_KINDS = frozenset({str, int, float, bool, type(None)})  # (a schema `_schema_refs` need not walk)
_MEDIA_SCHEMAS = attrgetter("schema", "item_schema")  # what linking reads of a media type (`_reads_alike`)
_STRING_OR_NONE = (str, type(None))  # (`str | None` would make a union object at each test)
_UNSET: Any = object()  # (a package not looked at yet, `attribute_group_versions`)


def operation_key(method: str, path: str) -> str:
    """Method and path template with parameter names erased: a renamed path parameter is the same route."""
    return f"{method.upper()} {_route(path)}"


# (each cache of this module keyed by a spec's text is bounded: a history reads many specs in one process)
@lru_cache(maxsize=4096)
def _route(path: str) -> str:
    return _PATH_PARAM.sub("{}", path)


def build(doc: Document, earlier: SpecGraph | None = None) -> SpecGraph:
    """The graph of one OpenAPI document (specdiff.graph.graph_of takes any input); with the graph of the version
    before, what that read of the path items both write alike is taken from it (graph.reuse)."""
    builder = Builder(Resolver(doc))
    if earlier is not None:
        builder.earlier = Earlier.of(earlier, doc, builder.resolver, builder.schemas)
    builder.add(doc)
    return builder.result(doc)


class Builder:
    """Reads one document, or several into one graph (a per-group directory): `add` each, then `result`.

    Named schemas are keyed by name; when a later document holds another version of a name already read, the
    version most documents hold is kept (ties: the first read) and `result` says so in the graph's notes.
    """

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.graph = References()
        self.schemas: dict[str, NamedSchema] = {}
        self.operations: dict[str, Operation] = {}
        self.security_schemes: dict[str, SecurityScheme] = {}
        self._refs_cache: dict[int, set[str]] = {}  # by id: Swagger shares parameter objects between routes
        self._targets_by_schemas: dict[tuple[int, ...], list[str]] = {}  # by the ids of the parameters' schemas
        self._v2_schemas: dict[int, Schema] = {}
        #: a reusable parameter (`$ref`) read once per document and path-parameter names, not once per route
        self._shared_parameters: dict[tuple[Document, str, tuple[str, ...]],
                                      tuple[tuple[str, str], Parameter]] = {}
        #: a list of parameters that only refers to reusable ones, by document, path-parameter names and refs: read
        #: once (Kubernetes writes the same few lists in every list and watch operation)
        self._parameter_lists: dict[tuple[Document, tuple[str, ...], tuple[str, ...]], ReadList] = {}
        #: a parameter written inline, by document, path-parameter names and content (`_content`): its key, its
        #: record where first read, and the pointer of its schema below the parameter's
        self._inline_parameters: dict[tuple[Document, tuple[str, ...], bytes],
                                      tuple[tuple[str, str], Parameter, str]] = {}
        #: each parameter record read through a `$ref`, by where it is written (SpecGraph.referred_parameters)
        self._referred: dict[str, Parameter] = {}
        self._lists: dict[tuple[str, tuple[str, ...]], ReadList] = {}  # (SpecGraph.parameter_lists)
        self._named_refs: dict[tuple[Document, str], str] = {}  # a document's refs to named schemas, resolved
        #: the named schemas the document being added lists and that are not read yet, with their pointers
        self._listed: dict[str, tuple[Schema, str]] = {}
        self._unnamed: dict[tuple[Document, str], Any] = {}  # schemas reached by refs to other places
        self._holders: dict[str, list[Document]] = {}  # documents holding the kept version of a named schema
        self._variants: dict[str, list[NamedSchema]] = {}  # other versions of it, one per document
        self._added: list[Document] = []
        self._document_security: dict[Document, Security] = {}
        self.written: dict[str, Written] = {}
        self.earlier: Earlier | None = None
        self._read_through: set[str] = set()  # (SpecGraph.read_through)
        self._took = False  # whether it took records from the earlier graph
        self.doc: Document
        self.data: dict[str, Any] = {}
        self.v2 = False

    def add(self, doc: Document) -> None:
        self.doc, self.data, self.v2 = doc, doc.data, doc.dialect == "swagger-2.0"
        self._added.append(doc)
        container = "definitions" if self.v2 else "components"
        components = self.data.get("components") or {}
        if not isinstance(components, dict):
            raise InputError("'components' must be a mapping", file=self.doc.name, place="/components")
        named = self.data.get("definitions") if self.v2 else components.get("schemas")
        if named is not None and not isinstance(named, dict):
            raise InputError(f"'{container}' schemas must be a mapping", file=self.doc.name,
                             place="/definitions" if self.v2 else "/components/schemas")
        for name, scheme in schemes(doc, self._deref).items():
            self.security_schemes.setdefault(name, scheme)  # a directory's documents repeat the same schemes
        prefix = ("definitions",) if self.v2 else ("components", "schemas")
        listed = [(name, schema, join_pointer(prefix + (name,))) for name, schema in (named or {}).items()]
        for name, schema, pointer in listed:
            self._name_listed(name, schema, pointer, self.doc)
        for name, schema, pointer in listed:
            self._add_schema(name, schema, pointer, self.doc, listed=True)
        self._listed.clear()
        document_servers = servers.of_document(doc)
        for container, path, item, item_pointer in self._path_items():
            if path.startswith("x-"):
                continue  # an extension of the Paths object (specdiff.diff.operations compares it as one)
            before = self.earlier.item(container, path) if self.earlier is not None else None
            differing = self.earlier.differing(before, item) if self.earlier is not None else None
            if differing is not None and self._reused(path, item, item_pointer, before, differing):
                continue
            item, at, item_doc = self._deref(item, item_pointer, self.doc)
            if not isinstance(item, dict):
                raise InputError("a path item must be a mapping", file=item_doc.name, place=at)
            self.written[item_pointer] = Written(self._data(item, at, item_doc, _READ_PATH_ITEM), at)
            shared = self._parameters(item.get("parameters"), at + "/parameters", path, item_doc)
            item_servers = servers.written(item.get("servers"), at + "/servers") or document_servers
            for method, written, tokens in self._methods(item, at, item_doc):
                key = operation_key(method, path)
                if key not in self.operations:
                    raw, place = self._operation_object(written, Place(at + tokens, item_doc))
                    alike = self.earlier.written_alike(
                        key, before, item_pointer, tokens, raw, tokens.split("/", 2)[1] not in differing) if (
                        self.earlier is not None and differing is not None and "servers" not in differing
                        and place == (item_pointer + tokens, self.doc)) else None
                    op = self._operation(key, path, method, raw, item_pointer + tokens, shared, place,
                                         inherited=item_servers, alike=alike)
                    callbacks = self._callbacks(op.path, raw, place) if "callbacks" in raw else None
                    self.operations[op.key] = replace(op, callbacks=callbacks) if callbacks else op
        webhooks: dict[str, Any] = self.data["webhooks"] if isinstance(self.data.get("webhooks"), dict) else {}
        for name, item in webhooks.items():
            self._reversed_item(f"webhook {name}", item, join_pointer(("webhooks", name)))

    def _reused(self, path: str, item: dict[str, Any], pointer: str, before: Any, differing: list[str]
                ) -> bool:
        """Take a path item's operations, their edges and its data from the graph of the version before, which read
        them from an item written alike (`before`, the old document's item of the route; `differing`, the keys it
        writes otherwise; graph.reuse): the records and edges reading it again would give."""
        assert self.earlier is not None
        earlier = self.earlier
        if differing:
            return False
        taken = []
        for method, _, tokens in self._methods(item, pointer, self.doc):
            key = operation_key(method, path)
            if key not in self.operations:  # (else an earlier route took the key, as when the item is read)
                op = earlier.graph.operations.get(key)
                if op is None or op.pointer != pointer + tokens or op.callbacks:
                    return False
                taken.append(op)
        if not earlier.holds(taken):
            return False
        self.written[pointer] = earlier.graph.written[pointer]
        for op in taken:
            self.operations[op.key] = op
            node = ("op", op.key)
            self.graph.add_node(node)
            self.graph.add_edges_from((node, target, attributes)
                                      for target, attributes in earlier.graph.graph.succ[node].items())
        self._took = True
        return True

    def _path_items(self) -> list[tuple[str, str, Any, str]]:
        """Each path item with the key that holds it, its route and its pointer: `paths`, then AutoRest's
        `x-ms-paths`, which writes the operations a path cannot tell apart in OpenAPI 2.0 (`/jobs?op=cancel`),
        called as any other."""
        found = []
        for key in ("paths", "x-ms-paths"):
            items = self.data.get(key) or {}
            if not isinstance(items, dict):
                raise InputError(f"'{key}' must be a mapping", file=self.doc.name, place="/" + key)
            found += [(key, path, item, join_pointer((key, path))) for path, item in items.items()]
        return found

    # -- webhooks and callbacks: operations whose request the API sends -----------------------------------
    def _callbacks(self, path: str, raw: dict[str, Any], place: Place) -> dict[str, Written]:
        """OpenAPI 3 `callbacks` of an operation: `{name: {expression: path item}}`, each a reversed operation; the
        callback objects as written, by name."""
        callbacks = raw.get("callbacks")
        written: dict[str, Written] = {}
        for name, callback in (callbacks if isinstance(callbacks, dict) else {}).items():
            callback, at, doc = self._deref(callback, place.pointer + join_pointer(("callbacks", name)), place.document)
            if isinstance(callback, dict):
                written[str(name)] = Written(callback, at)
            for expression, item in (callback if isinstance(callback, dict) else {}).items():
                if expression.startswith("x-"):
                    continue  # an extension of the Callback object, not a runtime expression
                self._reversed_item(f"{path} callback {name} {expression}", item, at + join_pointer((expression,)),
                                    doc)
        return written

    def _reversed_item(self, path: str, item: Any, pointer: str, doc: Document | None = None) -> None:
        item, pointer, doc = self._deref(item, pointer, doc or self.doc)
        if not isinstance(item, dict):
            raise InputError("a path item must be a mapping", file=doc.name, place=pointer)
        shared = self._parameters(item.get("parameters"), pointer + "/parameters", "", doc)
        for method, written, tokens in self._methods(item, pointer, doc):
            key = operation_key(method, path)
            if key not in self.operations:
                raw, place = self._operation_object(written, Place(pointer + tokens, doc))
                op = self._operation(key, path, method, raw, pointer + tokens, shared, place, reversed_=True)
                self.operations[op.key] = op

    def _methods(self, item: dict[str, Any], pointer: str, doc: Document
                 ) -> Iterator[tuple[str, dict[str, Any], str]]:
        """(method, operation object, pointer tokens from the path item) of each operation a path item holds:
        under its method keys and, in OpenAPI 3.2, `query` and `additionalOperations` (other methods, spelled
        as they are sent; the specification keeps the fixed methods out of it)."""
        v32 = self.doc.dialect == "openapi-3.2"
        for method in filter(item.__contains__, METHODS_32 if v32 else METHODS):  # (in C: most hold one or two)
            if isinstance(item[method], dict):
                yield method, item[method], "/" + method
        others = item.get(ADDITIONAL_OPERATIONS) if v32 else None
        if others is None:
            return
        if not isinstance(others, dict):
            raise InputError(f"'{ADDITIONAL_OPERATIONS}' must be a mapping", file=doc.name,
                             place=f"{pointer}/{ADDITIONAL_OPERATIONS}")
        for method, raw in others.items():
            tokens = join_pointer((ADDITIONAL_OPERATIONS, str(method)))
            if str(method).lower() in METHODS_32:
                raise InputError(f"'{ADDITIONAL_OPERATIONS}' may not hold {method}: write it as the path item's "
                                 f"'{str(method).lower()}'", file=doc.name, place=pointer + tokens)
            if isinstance(raw, dict):
                yield str(method), raw, tokens

    def _operation_object(self, raw: dict[str, Any], place: Place) -> tuple[dict[str, Any], Place]:
        """An Operation object past its `$ref`s (`get: {$ref: resources/sizes/sizes_list.yml}`, as bundlers
        read it) and where it is written: its own refs resolve there."""
        found, at, doc = self._deref(raw, place.pointer, place.document)
        if not isinstance(found, dict):
            raise self.resolver.error("an operation must be a mapping", doc, at)
        return found, place if found is raw else Place(at, doc)

    def _elsewhere(self, doc: Document) -> Document | None:
        """The document a record names: one written elsewhere than the spec's own, else None, which its readers
        take for the graph's document: a record the next version's graph takes (graph.reuse) points into that
        graph's document."""
        return None if doc is self.resolver.root else doc

    def _data(self, obj: dict[str, Any], at: str, doc: Document, read: frozenset[str]) -> dict[str, Any]:
        """An object as its unmodelled keys are compared, as data: what the graph does not `read` itself (vendor
        extensions, links, code samples) with its `$ref`s followed, so a change behind one is a change here."""
        if read.issuperset(obj):  # (most objects hold only keys the graph reads, and so no `$ref`: as they are)
            return obj
        data, _ = self.resolver.written(obj, doc, at, read)
        return data if isinstance(data, dict) else obj

    def result(self, doc: Document, part_keys: dict[Document, str] | None = None) -> SpecGraph:
        if isinstance(doc.data, dict):  # last: a root key that `$ref`s point into is compared where it is used
            read = _READ_ROOT | self.resolver.reached_roots(doc)
            self.written[""] = Written(self._data(doc.data, "", doc, read), "")
            if isinstance(doc.data.get("info"), dict):
                self.written["/info"] = Written(self._data(doc.data["info"], "/info", doc, _READ), "/info")
        notes = doc.notes + self._settle_variants(part_keys or {}) + tuple(
            f"{why}: not followed, so what it points at is not compared"
            for _, why in sorted(self.resolver.unfollowed.items()))
        schemas = attribute_group_versions(self.schemas)
        evidence = kubernetes_evidence(schemas, self._added)
        normal = Normaliser(self.resolver, part_keys)
        normal.opaque = {(normal.key(target_doc), pointer): target
                         for (target_doc, pointer), target in self._unnamed.items()}
        read_through = self._read_through.union(self.resolver.inlined.get(id(doc), ()))
        referred = self._referred
        if self._took and self.earlier is not None:  # what it took, it read through what the earlier graph did
            read_through |= self.earlier.graph.read_through
            referred = {**self.earlier.graph.referred_parameters, **referred}
        return SpecGraph(doc, self.operations, schemas, self.graph,
                         part_keys=part_keys or {}, notes=notes, evidence=evidence,
                         security_schemes=self.security_schemes, written=self.written,
                         read_through=frozenset(read_through), referred_parameters=referred,
                         parameter_lists=self._lists, _normal=normal)

    # -- schemas ------------------------------------------------------------------------------------
    def _add_schema(self, name: str, schema: Any, pointer: str, doc: Document, listed: bool = False) -> None:
        kept = self.schemas.get(name)
        if kept is not None:
            if listed and kept.document is not doc and isinstance(schema, dict):  # a shared schema's copy
                if schema == kept.schema:
                    self._holders[name].append(doc)
                else:
                    self._variants.setdefault(name, []).append(NamedSchema(name, schema, pointer, doc))
            return
        if not isinstance(schema, dict):
            raise InputError("a schema must be a mapping", file=doc.name, place=pointer)
        self.schemas[name] = NamedSchema(name, schema, pointer, doc)
        self._holders[name] = [doc]
        if not listed:  # (a listed schema was named before any was read)
            self._name_listed(name, schema, pointer, doc)
        self._link(name, schema, pointer, doc)

    def _name_listed(self, name: str, schema: Any, pointer: str, doc: Document) -> None:
        """Know the `$ref` that most refer to a named schema by (its own pointer) as naming it, resolved: a
        document's listed schemas are all named before any is read, so that a `$ref` to one listed after the
        schema holding it is not resolved again (`_known` reads it where it is first met, as a resolved one was)."""
        if (isinstance(schema, dict) and not isinstance(schema.get("$ref"), str) and "%" not in pointer
                and self.resolver.key(doc) is None and not self.resolver.modern(doc)):
            self._named_refs[(doc, "#" + pointer)] = name
            if name not in self.schemas:
                self._listed[name] = schema, pointer

    def _known(self, doc: Document, ref: str) -> str | None:
        """The named schema a `$ref` names when it is known by name, read first where it is listed but not read
        yet (`_name_listed`)."""
        name = self._named_refs.get((doc, ref))
        if name is not None and name not in self.schemas:
            self._add_schema(name, *self._listed[name], doc, listed=True)
        return name

    def _link(self, name: str, schema: Schema, pointer: str, doc: Document) -> None:
        node = ("schema", name)
        self.graph.add_node(node)
        taken = self.earlier.schema_refs(name, schema, pointer) if self.earlier is not None and doc is self.doc \
            else None
        if taken is not None:
            self._took = True
        for target in self._schema_refs(schema, pointer, doc) if taken is None else taken:
            self.graph.add_edge(node, ("schema", target))

    def _settle_variants(self, part_keys: dict[Document, str]) -> tuple[str, ...]:
        """Where documents disagree on a named schema, keep the version most of them hold and say so."""
        outvoted: dict[str, list[str]] = {}  # document -> names it holds a minority version of
        for name, variants in sorted(self._variants.items()):
            versions = [(self.schemas[name], self._holders[name])]
            for variant in variants:
                same = next((v for v in versions if v[0].schema == variant.schema), None)
                if same is None:
                    versions.append((variant, [variant.document]))
                else:
                    same[1].append(variant.document)
            winner = max(range(len(versions)), key=lambda i: (len(versions[i][1]), -i))  # ties: the first read
            if winner:
                chosen = versions[winner][0]
                self.schemas[name] = chosen
                self.graph.remove_edges_from(list(self.graph.out_edges(("schema", name))))
                self._link(name, chosen.schema, chosen.pointer, chosen.document)
            for index, (_, holders) in enumerate(versions):
                for holder in holders if index != winner else ():
                    outvoted.setdefault(part_keys.get(holder, holder.name), []).append(name)
        return tuple(
            f"{where} holds another version of {len(names)} shared schema{'s' if len(names) != 1 else ''} than "
            f"most documents ({', '.join(names[:3])}{', ...' if len(names) > 3 else ''}); "
            "the version most documents hold is compared"
            for where, names in sorted(outvoted.items()))

    def _schema_refs(self, schema: Schema, pointer: str, doc: Document) -> set[str]:
        """Named schemas an inline schema refers to; refs to other places are followed inline."""
        cached = self._refs_cache.get(id(schema))
        if cached is not None:
            return cached
        ref = schema.get("$ref")
        if len(schema) == 1 and isinstance(ref, str):  # the common {"$ref": ...}, resolved once per document
            known = self._known(doc, ref)
            if known is not None:
                found = self._refs_cache[id(schema)] = {known}
                return found
        elif not isinstance(ref, str) and _PLAIN_KINDS.issuperset(map(type, schema.values())):
            found = self._refs_cache[id(schema)] = set()  # a leaf such as {"type": "string"}: nothing to refer to
            return found
        return self._walk_refs(schema, pointer, doc)

    def _walk_refs(self, schema: Schema, pointer: str, doc: Document) -> set[str]:
        found: set[str] = set()
        pending = [(schema, pointer, doc)]
        seen: set[int] = set()
        while pending:
            current, at, current_doc = pending.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            modern = self.resolver.modern(current_doc)
            for tokens, ref in refs_in(current, ("$ref", "$dynamicRef") if modern else ("$ref",)):
                known = self._known(current_doc, ref)
                if known is not None:
                    found.add(known)
                    continue
                ref_at = at + join_pointer(tokens)
                if tokens[-1] == "$dynamicRef":  # what it reaches where nothing binds it otherwise: the schemas a
                    # scope binds it to are in the resources that scope entered, reached on the way to it
                    target, target_doc, target_pointer = self.resolver.dynamic(
                        ref, current_doc, ref_at, self.resolver.scope(current_doc, ref_at))
                    home = self.resolver.home(target_doc, target_pointer)
                    name = home[0] if home is not None and not home[1] else None
                else:
                    name = self.resolver.named(ref, current_doc, ref_at)
                    target, target_doc, target_pointer = self.resolver.lookup(ref, current_doc, ref_at)
                if name is not None:
                    found.add(name)
                    if not modern:  # a 2020-12 ref reads by where it is written
                        self._named_refs[(current_doc, ref)] = name
                    self._add_schema(name, target, target_pointer, target_doc)
                elif isinstance(target, dict):
                    home = self.resolver.home(target_doc, target_pointer)
                    if home is not None and home[0] in self.schemas and self.schemas[home[0]].document is target_doc:
                        found.add(home[0])  # a place inside a named schema: used through it, compared with it
                    else:
                        self._unnamed[(target_doc, target_pointer)] = target
                    pending.append((target, target_pointer, target_doc))
                    self._read_through.add(target_pointer)
        self._refs_cache[id(schema)] = found
        return found

    def _deref(self, obj: Any, pointer: str, doc: Document) -> tuple[Any, str, Document]:
        """Follow `$ref` chains of path items, parameters, responses, bodies and headers (not schemas) to the object,
        its pointer and the document it is written in (refs inside it resolve there); the resolver refuses a chain
        that comes back on itself, so any other is followed to its end."""
        while isinstance(obj, dict) and isinstance(obj.get("$ref"), str):
            obj, doc, pointer = self.resolver.lookup(obj["$ref"], doc, pointer)
            self._read_through.add(pointer)
        return obj, pointer, doc

    # -- operations ---------------------------------------------------------------------------------
    def _operation(self, key: str, path: str, method: str, raw: dict[str, Any], pointer: str,
                   shared: dict[tuple[str, str], Parameter], place: Place,
                   reversed_: bool = False, inherited: tuple[Server, ...] = (),
                   alike: tuple[Operation, bool] | None = None) -> Operation:
        """`key` is the operation's (`operation_key`); `pointer`, where the route names the operation; `place`,
        where its object is written (another place or file when the path item is a `$ref`); `inherited`, the
        servers of its path item or document (none for a webhook or callback, which the API calls at a URL the
        client gives); `alike`, the earlier graph's record of the operation when its object is written alike but
        for its parameters and request body, in a path item whose servers are written alike too (graph.reuse), and
        whether its body is written alike too: it takes that record's reading of everything else, and of such a
        body; its servers are those the same context gives."""
        at, doc = place
        like, like_body = alike if alike is not None else (None, False)
        own = self._parameters(raw.get("parameters"), at + "/parameters", "" if reversed_ else path, doc)
        merged = {**shared, **own}
        parameters = merged if _IN_BODY.isdisjoint(map(_LOCATION, merged.values())) else {
            key: param for key, param in merged.items() if param.location not in _IN_BODY}
        if self.v2:  # (a Swagger body is read from the parameters `parameters` leaves out: most operations have none)
            body = self._v2_body(raw, merged, at, doc) if len(parameters) < len(merged) else None
        elif like is not None and like_body:
            body = like.body
        else:
            body = self._v3_body(raw.get("requestBody"), at, doc)
        if like is not None:
            self._took = True
            op = refilled(like, parameters=parameters, body=body)
            if not self._kept_edges(op, like):
                self._link_operation(op, self._answered(like))
            return op
        responses, announced = self._responses(raw.get("responses"), at + "/responses", raw, doc)
        group_version, versioned = (None, "stable") if reversed_ else _versioned(path)
        written = "x-stability-level" in raw  # (`declared` and `written_level` read it; most write none)
        word = declared(raw) if written else None
        sunset = (sunset_of(raw) if "x-sunset" in raw else None) or announced
        op = Operation(
            key=key, method=method, path=path, pointer=pointer,
            parameters=parameters, body=body, responses=responses, deprecated=bool(raw.get("deprecated")),
            operation_id=raw.get("operationId"), tags=tuple(map(str, _list(raw.get("tags")))),
            group_version=group_version,
            stability=DECLARED[word] if word else versioned,
            document=self._elsewhere(self.doc), reversed=reversed_, sunset=sunset,
            declared_stability=written_level(raw) if written else None,
            summary=_text(raw.get("summary")), description=_text(raw.get("description")),
            kind=first_kind(raw), security=self._security(raw, at, doc),
            servers=servers.of_operation(raw, at, doc, inherited) if inherited else (),
            raw=self._data(raw, at, doc, _READ_OPERATION),
        )
        self._link_operation(op)
        return op

    def _security(self, raw: dict[str, Any], at: str, doc: Document) -> Security:
        """The operation's effective security; the document's, which most operations have, is read once."""
        if "security" in raw:
            return effective(raw, at, doc, self.doc)
        found = self._document_security.get(self.doc)
        if found is None:
            found = self._document_security[self.doc] = effective(raw, at, doc, self.doc)
        return found

    def _link_operation(self, op: Operation, answered: list[tuple[str, bool]] | None = None) -> None:
        """The edges from an operation to the named schemas it uses, each with the directions it uses it in and
        whether an XML body carries it. A parameter's value is written as the request is, but apart from its body
        ("parameter"), where `readOnly` says nothing; a webhook's or callback's request is sent by the API and read
        by the client. Each schema object's refs are read once (`_schema_refs`); most parameters' lead nowhere.
        `answered`: what its responses use, when the earlier graph says (`_answered`)."""
        parameter, request, response = ("response", "response", "request") if op.reversed else (
            "parameter", "request", "response")
        uses: dict[str, set[str]] = {}  # named schema -> the directions the operation uses it in
        in_xml: set[str] = set()  # named schemas a body of an XML media type carries

        def use(targets: Iterable[str], direction: str, xml: bool = False) -> None:
            for target in targets:
                directions = uses.get(target)
                if directions is None:
                    uses[target] = {direction}
                else:
                    directions.add(direction)
                if xml:
                    in_xml.add(target)

        def body(media: dict[str, MediaType], direction: str) -> None:
            """A body's media types, each record once per XML or not: Swagger's all share one, told XML or not once
            per list of names, and its refs read once."""
            if len(set(map(id, media.values()))) == 1:
                shared = next(iter(media.values()))
                distinct = [(shared, xml) for xml in _xml_kinds(tuple(media))]
            else:
                distinct = [(m, xml) for (_, xml), m in {(id(m), is_xml(name)): m for name, m in media.items()}.items()]
            for m, xml in distinct:
                if m.schema is not None:
                    use(refs(m.schema, m.pointer, m.document or doc), direction, xml)
            for m, xml in distinct:
                if m.item_schema is not None:
                    use(refs(m.item_schema, m.item_pointer, m.document or doc), direction, xml)

        refs, doc = self._schema_refs, self.doc
        targets = self._parameter_targets(op.parameters)
        if targets:
            use(targets, parameter)
        if op.body:
            body(op.body.media, request)
        for target, xml in answered or ():
            use((target,), response, xml)
        for found in op.responses.values() if answered is None else ():
            if found.media:  # (a Kubernetes operation's 401 has none)
                body(found.media, response)
            for header in found.headers.values():
                if header.schema is not None:
                    use(refs(header.schema, header.pointer, header.document or doc), response)
        node = ("op", op.key)
        self.graph.add_node(node)
        self.graph.add_edges_from((node, ("schema", target), {"directions": directions, "xml": target in in_xml})
                                  for target, directions in uses.items())

    def _kept_edges(self, op: Operation, like: Operation) -> bool:
        """Give an operation that takes the reading of `like` but for its parameters, and perhaps its request body
        (graph.reuse), the edges of `like` in the earlier graph, when its parameters name the schemas the
        earlier ones did, in their order, its body reads the schemas that one did and the new graph holds each
        schema: the edges linking it would give (a parameter's uses come first, then the body's and the
        responses'). Most such operations only gained a plain query parameter (Kubernetes 1.36's
        `shardSelector`)."""
        assert self.earlier is not None
        edges = self.earlier.graph.graph.succ[("op", like.key)]
        if (not _reads_alike(op.body, like.body) or not self.schemas.keys() >= {target for _, target in edges}
                or self._parameter_targets(op.parameters) != [
                    target for (_, target), attributes in edges.items() if "parameter" in attributes["directions"]]):
            return False
        node = ("op", op.key)
        self.graph.add_node(node)
        self.graph.add_edges_from((node, target, attributes) for target, attributes in edges.items())
        return True

    def _answered(self, like: Operation) -> list[tuple[str, bool]] | None:
        """The named schemas the responses of `like` use, in their order, each with whether XML carries it: the
        earlier graph's record whose responses an operation written alike but for its parameters takes (graph.reuse)
        and whose edges say so, when nothing else of it used them (else their order is not the responses' alone)
        and the new graph holds each; None otherwise, and its responses are read for them."""
        assert self.earlier is not None
        found = []
        for (_, target), attributes in self.earlier.graph.graph.succ[("op", like.key)].items():
            directions = attributes["directions"]
            if "response" in directions:
                if len(directions) > 1 or target not in self.schemas:
                    return None
                found.append((target, attributes["xml"]))
        return found

    def _parameter_targets(self, parameters: dict[tuple[str, str], Parameter]) -> list[str]:
        """The named schemas the parameters of an operation refer to, in the order they name them: found once for
        each list of parameter schemas (Kubernetes' list operations share theirs), as each schema's refs are read
        once (`_schema_refs`, by the schema object too)."""
        schemas = tuple(map(id, map(_SCHEMA, parameters.values())))
        found = self._targets_by_schemas.get(schemas)
        if found is None:
            found = self._targets_by_schemas[schemas] = list(dict.fromkeys(
                target for param in parameters.values() if param.schema is not None
                for target in self._schema_refs(param.schema, param.pointer, param.document or self.doc)))
        return found

    def _v2_schema(self, param: dict[str, Any]) -> Schema:
        """A Swagger parameter or header describes its value inline; one schema object per parameter object."""
        key = id(param)
        if key not in self._v2_schemas:
            self._v2_schemas[key] = {k: param[k] for k in _V2_SCHEMA_KEYS if k in param}
        return self._v2_schemas[key]

    def _parameters(self, raw: Any, pointer: str, path: str, doc: Document
                    ) -> dict[tuple[str, str], Parameter]:
        if raw is None:
            return {}
        if not isinstance(raw, list):
            raise InputError("'parameters' must be a list", file=doc.name, place=pointer)
        path_names = _path_names(path)
        own = doc is self.resolver.root  # (the lists of the spec's own document are kept by place, `_lists`)
        kept = self.earlier.parameters(pointer, path_names) if own and self.earlier is not None else None
        if kept is not None and kept[0] == raw:
            read = kept
            self._took = True  # (what its records read through, the earlier graph read)
        else:
            refs = _refs_of(raw)
            known = self._parameter_lists.get((doc, path_names, refs)) if refs is not None else None
            read = (raw, known[1], known[2]) if known is not None else self._read_parameters(
                raw, pointer, path_names, doc, kept)
            if refs is not None and known is None:
                self._parameter_lists[(doc, path_names, refs)] = read
        if own:
            self._lists[(pointer, path_names)] = read
        return read[1]

    def _read_parameters(self, raw: list[Any], pointer: str, path_names: tuple[str, ...], doc: Document,
                         kept: ReadList | None) -> ReadList:
        """A list of parameters read item by item; `kept`, the earlier graph's reading of the list at its place,
        whose record an item written alike at the same position takes (`Earlier.parameters`)."""
        items: list[tuple[tuple[str, str], Parameter]] = []
        for i, item in enumerate(raw):
            ref = item.get("$ref") if isinstance(item, dict) else None
            if kept is not None and i < len(kept[0]) and kept[0][i] == item:
                key, parameter = kept[2][i]
                self._took = True
            elif isinstance(ref, str):
                shared = self._shared_parameters.get((doc, ref, path_names))
                if shared is None:
                    param, at, written = self._deref(item, f"{pointer}/{i}", doc)
                    shared = self._shared_parameters[(doc, ref, path_names)] = self._referred_parameter(
                        param, at, written, path_names)
                key, parameter = shared
            else:
                key, parameter = self._inline_parameter(item, f"{pointer}/{i}", doc, path_names)
            items.append((key, parameter))
        return raw, dict(items), tuple(items)

    def _referred_parameter(self, param: Any, at: str, written: Document, path_names: tuple[str, ...]
                            ) -> tuple[tuple[str, str], Parameter]:
        """A parameter read through a `$ref` to `at`: one record for every route that refers to it, whatever its
        path's parameters (which only key it), and the earlier graph's when there is one (its document writes `at`
        alike, `Earlier.of`), so that the operations of both graphs name one record, which the differ passes over;
        else read here."""
        if written is not self.resolver.root:  # (the records are kept by their place in the spec's own document)
            return self._parameter(param, at, written, path_names)
        kept = self._referred.get(at)
        if kept is None and self.earlier is not None:
            kept = self.earlier.graph.referred_parameters.get(at)
            self._took |= kept is not None  # (what its data read through, the earlier graph read)
        if kept is None:
            key, kept = self._parameter(param, at, written, path_names)
        else:
            key = _parameter_key(kept.location, kept.name, path_names)
        self._referred[at] = kept
        return key, kept

    def _inline_parameter(self, param: Any, at: str, doc: Document, path_names: tuple[str, ...]
                          ) -> tuple[tuple[str, str], Parameter]:
        """A parameter written in the operation: Kubernetes writes the same ones (`dryRun`, `fieldValidation`, a
        body of one type) in hundreds of operations, so one is read once per document, path-parameter names and
        content, and only its pointers are its own; not one whose reading noted something at its own place (a
        `$ref` in its data that could not be followed, or one between a split spec's files)."""
        content = _content(param)
        if content is None:
            return self._parameter(param, at, doc, path_names)
        known = self._inline_parameters.get((doc, path_names, content))
        if known is None:
            noted = len(self.resolver.unfollowed), len(self.resolver.links)
            key, parameter = self._parameter(param, at, doc, path_names)
            if noted == (len(self.resolver.unfollowed), len(self.resolver.links)):
                self._inline_parameters[(doc, path_names, content)] = key, parameter, parameter.pointer[len(at):]
            return key, parameter
        key, first, below = known
        return key, refilled(first, pointer=at + below, written=Written(first.written.data, at))

    def _parameter(self, param: Any, at: str, written: Document, path_names: tuple[str, ...]
                   ) -> tuple[tuple[str, str], Parameter]:
        """A parameter object past its `$ref`s, keyed by where it goes and its name (a path parameter by its
        position in the path, a header by its name in lower case)."""
        if not isinstance(param, dict) or "name" not in param or "in" not in param:
            raise InputError("a parameter needs 'name' and 'in'", file=written.name, place=at)
        location, name = str(param["in"]), str(param["name"])
        for key in ("style", "collectionFormat"):
            if not isinstance(param.get(key), _STRING_OR_NONE):
                raise InputError(f"'{key}' must be a string", file=written.name, place=f"{at}/{key}")
        schema: Schema | None
        if self.v2 and location != "body":  # a form field too describes its value inline
            schema = self._v2_schema(param)
            schema_at = at
        elif self.v2:
            schema, schema_at = _dict(param.get("schema")), at + "/schema"
        else:
            schema, schema_at = self._v3_parameter_schema(param, at)
        return _parameter_key(location, name, path_names), Parameter(
            location=location, name=name, required=bool(param.get("required")) or location == "path",
            schema=schema, pointer=schema_at, deprecated=bool(param.get("deprecated")),
            style=param.get("style") or param.get("collectionFormat"), explode=param.get("explode"),
            sunset=sunset_of(param), document=self._elsewhere(written),
            written=Written(self._data(param, at, written, _READ), at),
        )

    @staticmethod
    def _v3_parameter_schema(param: dict[str, Any], at: str) -> tuple[Schema | None, str]:
        if isinstance(param.get("schema"), dict):
            return param["schema"], at + "/schema"
        content = param.get("content")
        if isinstance(content, dict):
            for media_type, media in sorted(content.items()):
                if isinstance(media, dict) and isinstance(media.get("schema"), dict):
                    return media["schema"], at + join_pointer(("content", media_type, "schema"))
        return None, at

    def _v2_body(self, raw: dict[str, Any], params: dict[tuple[str, str], Parameter],
                 pointer: str, doc: Document) -> RequestBody | None:
        consumes = _list(raw.get("consumes")) or _list(self.data.get("consumes")) or ["application/json"]
        for (location, _), param in params.items():
            if location == "body":
                media = dict.fromkeys(map(str, consumes), MediaType(param.schema, param.pointer, param.document))
                return RequestBody(param.required, media, param.pointer.removesuffix("/schema"), param.written)
        form = [param for (location, _), param in params.items() if location == "formData"]
        if not form:
            return None
        # formData parameters read as one object; each property's schema is its own keywords, with no $ref in it
        schema: Schema = {"type": "object", "properties": {p.name: p.schema or {} for p in form}}
        required = sorted(p.name for p in form if p.required)
        if required:
            schema["required"] = required
        form_types = [m for m in consumes if "form" in str(m)] or ["application/x-www-form-urlencoded"]
        media = dict.fromkeys(map(str, form_types), MediaType(schema, pointer + "/parameters", self._elsewhere(doc)))
        return RequestBody(bool(required), media, pointer + "/parameters", form_fields=True)

    def _v3_body(self, raw: Any, pointer: str, doc: Document) -> RequestBody | None:
        if raw is None:
            return None
        body, at, doc = self._deref(raw, pointer + "/requestBody", doc)
        if not isinstance(body, dict):
            raise InputError("a request body must be a mapping", file=doc.name, place=at)
        return RequestBody(bool(body.get("required")), self._content(body.get("content"), at, doc), at,
                           Written(self._data(body, at, doc, _READ), at))

    def _content(self, content: Any, pointer: str, doc: Document) -> dict[str, MediaType]:
        """The media types of a `content` map, each followed through its `$ref` (OpenAPI 3.2 keeps reusable ones
        in `components/mediaTypes`) to where it is written."""
        if not isinstance(content, dict):
            return {}
        media: dict[str, MediaType] = {}
        for name, written in content.items():
            item, at, item_doc = self._deref(written, pointer + "/content" + pointer_token(name), doc)
            schema = item.get("schema") if isinstance(item, dict) else None
            items = item.get(ITEM_SCHEMA) if isinstance(item, dict) else None
            media[name] = MediaType(schema if isinstance(schema, dict) else None,
                                    at + "/schema" if isinstance(schema, dict) else at, self._elsewhere(item_doc),
                                    Written(self._data(item, at, item_doc, _READ) if isinstance(item, dict) else {},
                                            at),
                                    items if isinstance(items, dict) else None)
        return media

    def _responses(self, raw: Any, pointer: str, op: dict[str, Any], doc: Document
                   ) -> tuple[dict[str, Response], str | None]:
        """The responses by status, and the date a documented `Sunset` header (RFC 8594) announces: the first
        status's, in the order of their text, that has one."""
        if not isinstance(raw, dict):
            return {}, None
        produces = list(map(str, _list(op.get("produces")) or _list(self.data.get("produces")) or ["application/json"]))
        responses: dict[str, Response] = {}
        sunsets: dict[str, str] = {}
        for key, item in raw.items():
            status = str(key)
            if status.startswith("x-"):
                continue
            response, at, written = self._deref(item, pointer + pointer_token(status), doc)
            if not isinstance(response, dict):
                raise InputError("a response must be a mapping", file=written.name, place=at)
            if self.v2:
                schema = response.get("schema")
                media = dict.fromkeys(produces, MediaType(schema, at + "/schema", self._elsewhere(written))) \
                    if isinstance(schema, dict) else {}
            else:
                media = self._content(response.get("content"), at, written)
            headers, sunset = self._headers(response["headers"], at, written) if "headers" in response else ({}, None)
            if sunset:
                sunsets[status] = sunset
            responses[status] = Response(status, media, headers, at,
                                         Written(self._data(response, at, written, _READ), at))
        return responses, sunsets[min(sunsets)] if sunsets else None

    def _headers(self, raw: Any, pointer: str, doc: Document) -> tuple[dict[str, Parameter], str | None]:
        """The headers by lower-cased name, and the date a `Sunset` header among them announces."""
        if not isinstance(raw, dict):
            return {}, None
        headers: dict[str, Parameter] = {}
        written: dict[str, Any] = {}
        for name, item in raw.items():
            header, at, header_doc = self._deref(item, pointer + join_pointer(("headers", name)), doc)
            written[name] = header
            if not isinstance(header, dict):
                continue
            schema: Schema | None
            if self.v2:
                schema, schema_at = self._v2_schema(header), at
            else:
                schema, schema_at = self._v3_parameter_schema(header, at)
            headers[name.lower()] = Parameter("header", name, bool(header.get("required")), schema, schema_at,
                                              document=self._elsewhere(header_doc),
                                              written=Written(self._data(header, at, header_doc, _READ), at))
        return headers, sunset_header(written)


def _parameter_key(location: str, name: str, path_names: tuple[str, ...]) -> tuple[str, str]:
    """Where a parameter goes and its name: a path parameter by its position in the path, a header by its name in
    lower case (HTTP header names are case-insensitive, RFC 9110)."""
    if location == "header":
        return location, name.lower()
    return location, str(path_names.index(name)) if location == "path" and name in path_names else name


@lru_cache(maxsize=4096)
def _versioned(path: str) -> tuple[str | None, str]:
    """The group/version a path template names (`group_version_of_path`) and the stability its version says: the
    operations of one path item ask it once."""
    group_version = group_version_of_path(path)
    return group_version, of_version(group_version.split("/")[-1] if group_version else None)


@lru_cache(maxsize=4096)
def _path_names(path: str) -> tuple[str, ...]:
    """The names of a path template's parameters, in order (`/pets/{id}` -> ("id",))."""
    return tuple(m.group(0)[1:-1] for m in _PATH_PARAM.finditer(path))


@lru_cache(maxsize=4096)  # (an API names a handful of media type lists, on every body and response)
def _xml_kinds(names: tuple[str, ...]) -> tuple[bool, ...]:
    """Whether XML or not, for the media types of a body: each answer once, in the order the types give it."""
    return tuple(dict.fromkeys(map(is_xml, names)))


def _reads_alike(body: RequestBody | None, before: RequestBody | None) -> bool:
    """Whether two request bodies carry equal schemas under the same media types, in one order: what linking an
    operation reads of its body (`Builder._link_operation`)."""
    if body is None or before is None:
        return body is before
    return tuple(body.media) == tuple(before.media) and list(map(_MEDIA_SCHEMAS, body.media.values())) == list(
        map(_MEDIA_SCHEMAS, before.media.values()))


def _refs_of(items: list[Any]) -> tuple[str, ...] | None:
    """The `$ref` of each item of a parameter list, when each is a mapping that has one (read in C); else None."""
    try:
        refs = tuple(map(_REF, items))
    except AttributeError:  # (an item that is no mapping, which reading it refuses)
        return None
    return refs if set(map(type, refs)) <= {str} else None


def _content(obj: Any) -> bytes | None:
    """A mapping's content as a key, in C: how a repeated inline parameter is recognised. Its marshalled bytes tell
    `1`, `1.0` and `true` apart (equal keys in Python), and `0.0` from `-0.0`; the same content in another key
    order is another key, read again. None for anything else, or what marshal cannot write (a YAML date)."""
    if not isinstance(obj, dict):
        return None
    try:
        return marshal.dumps(obj)
    except ValueError:
        return None


def _list(value: Any) -> list[Any]:
    """A list from the spec, or an empty one where the spec has something else (it is not ours to judge)."""
    return value if isinstance(value, list) else []


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _dict(value: Any) -> Any:
    return value if isinstance(value, dict) else None


def attribute_group_versions(schemas: dict[str, NamedSchema]) -> dict[str, NamedSchema]:
    """Each named schema with its group/version/kind, group-version and stability.

    A schema with one `x-kubernetes-group-version-kind` belongs to that group-version. Any other schema belongs
    to the group-version that the kinds of its package (its name up to the last dot: `io.k8s.api.flowcontrol.
    v1beta2` for `...v1beta2.FlowSchemaSpec`) all belong to, which maps Go package names to API groups
    (`flowcontrol` -> `flowcontrol.apiserver.k8s.io`). A package whose kinds span several group-versions (meta/v1,
    with DeleteOptions and WatchEvent listed under every group) or that has no kinds falls back to its name:
    `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` -> `meta/v1`. Shared schemas with several kinds get no gvk.
    """
    kinds = {name: gvks for name, named in schemas.items()  # (most declare none: asked only of those that write one)
             if GVK in named.schema and (gvks := declared_gvks(named.schema))}
    packages: dict[str, set[str]] = {}  # the group-versions of each package's kinds
    for name, gvks in kinds.items():
        packages.setdefault(_package(name), set()).update(gv for gv, _ in gvks)
    #: what a package gives each of its schemas that declares no kind (most of them), worked out once a package
    by_package: dict[str, tuple[str | None, str] | None] = {}
    attributed = {}
    for name, named in schemas.items():
        own = kinds.get(name)
        if own is None:
            package = _package(name)
            found = by_package.get(package, _UNSET)
            if found is _UNSET:
                owners = packages.get(package, ()) if package else ()
                found = by_package[package] = _with_stability(next(iter(owners))) if len(owners) == 1 else None
            group_version, stability = found or _with_stability(group_version_of_name(name))
            gvk = None
        else:
            owners = {gv for gv, _ in own}
            group_version, stability = _with_stability(next(iter(owners)) if len(owners) == 1
                                                       else group_version_of_name(name))
            gvk = f"{own[0][0]}/{own[0][1]}" if len(own) == 1 else None
        attributed[name] = NamedSchema(named.name, named.schema, named.pointer, named.document, gvk, group_version,
                                       stability)
    return attributed


@lru_cache(maxsize=4096)
def _with_stability(group_version: str | None) -> tuple[str | None, str]:
    """A group-version with the stability its version says."""
    return group_version, of_version(group_version.split("/")[-1] if group_version else None)


def _package(name: str) -> str:
    return name.rpartition(".")[0]
