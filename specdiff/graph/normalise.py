"""Normalisation: every spelling of a schema reference reaches one node, and a schema reads in one form.

A spec may write the same schema inline or behind a `$ref` (to a named schema, to another place in the document,
to another file, through a chain of refs), with keywords beside the `$ref`, or wrapped in an `allOf` of one
member. `Normaliser.node` turns each spelling into a `Node`: the schema in normal form (the target with what is
written beside each ref laid over it) at the place its keywords are written, and an identity that every spelling
shares: the named schema's name, else the final target's (document key, pointer); either with what is laid over
it. The differ compares each (old identity, new identity) pair once, and dispatches only by keyword.

Document keys name a document the same way on both sides: "" for the spec itself, the group-version of a
directory's document, the path inside the spec's folder of a file reached by `$ref`, or its URL.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, NamedTuple

from specdiff.frozen import record
from specdiff.graph.refs import MODERN, Resolver, naming_keywords
from specdiff.load.document import Document
from specdiff.load.sourcemap import join_pointer
from specdiff.records import ordering_text as canonical  # (the form the differ compares values in)

Schema = dict[str, Any]

#: keywords that describe a schema without constraining it
ANNOTATIONS = frozenset({"$ref", "description", "title", "example", "examples", "externalDocs", "$comment"})
#: what an `allOf` part may say and still be only what OpenAPI 3.0 writes beside a `$ref`: `allOf: [{$ref: X},
#: {nullable: true}]` is the nullable reference `{$ref: X, nullable: true}` written where siblings are ignored
BESIDE_A_REF = (ANNOTATIONS - {"$ref"}) | {"nullable", "default", "readOnly", "writeOnly", "deprecated"}


class Place(NamedTuple):
    """A place in one of the documents a spec is made of: refs written there resolve in that document."""

    pointer: str
    document: Document


@record(frozen=True, slots=True)
class Node:
    """A schema in normal form, where its keywords are written, and the identity all its spellings share."""

    schema: Schema
    pointer: str
    document: Document
    identity: Hashable
    #: the named schema a chain of refs reaches first, and what is written beside the refs before it
    named: str | None = None
    beside: Schema | None = None
    #: reached through `$ref`s with nothing but annotations beside them, reading as written (no generic bound):
    #: a place a named pair holding it compares
    bare: bool = False
    #: reached through a `$dynamicRef` of a generic bound by the scope that uses it: each use is compared where it
    #: is (one level: what the binding holds is compared once, as any schema)
    generic: bool = False


class Normaliser:
    """One spec's references resolved to node identities; `opaque` holds what equal text cannot vouch for."""

    def __init__(self, resolver: Resolver, part_keys: dict[Document, str] | None = None) -> None:
        self.resolver = resolver
        self.part_keys = part_keys or {}
        #: schemas reached through a `$ref` to a place that is not a named schema (`#/x-lib/Foo`, a file), by
        #: (document key, pointer): nothing compares them on their own, so equal text around such a ref says
        #: nothing unless these are equal on both sides too
        self.opaque: dict[tuple[str, str], Any] = {}
        self._generics: Generics | None = None
        self._chains: dict[tuple[int, str, int], _Chain] = {}  # by where the chain starts (`_rest`)

    def key(self, doc: Document) -> str:
        """The document's key: the same for the same document on both sides of a comparison."""
        if doc is self.resolver.root:
            return ""
        part = self.part_keys.get(doc)
        if part is not None:
            return part
        return self.resolver.key(doc) or doc.name

    def unwrap(self, schema: Schema, pointer: str) -> tuple[Schema, str]:
        """`{allOf: [X], ...}` says what X says plus the rest: read it as X with the rest laid over it; so does
        `{allOf: [X, {nullable: true}]}`, whose other parts only say what is written beside a `$ref`.

        This is how OpenAPI 3.0 writes a `$ref` with a description, nullable or default beside it, so moving
        between the two spellings (or into a named schema) is not a change.
        """
        while True:
            members = schema.get("allOf")
            index = lone_part(members)
            if index is None or not isinstance(members, list):
                return schema, pointer
            rest = {k: v for k, v in schema.items() if k != "allOf"}
            for other in (m for i, m in enumerate(members) if i != index):
                rest = {**other, **rest}
            schema, pointer = (overlay(members[index], rest) if rest else members[index]), f"{pointer}/allOf/{index}"

    def refers(self, schema: Schema, doc: Document) -> bool:
        """Whether a schema is a reference: a `$ref`, or in a 2020-12 document a `$dynamicRef`."""
        return isinstance(schema.get("$ref"), str) or (
            isinstance(schema.get("$dynamicRef"), str) and self.resolver.modern(doc))

    def _reference(self, schema: Schema, doc: Document) -> tuple[str, str] | None:
        """(keyword, reference) a schema is followed by, or None."""
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return "$ref", ref
        ref = schema.get("$dynamicRef")
        if isinstance(ref, str) and self.resolver.modern(doc):
            return "$dynamicRef", ref
        return None

    def node(self, schema: Schema, pointer: str, doc: Document) -> Node:
        """Follow a chain of `$ref`s to a schema that is none, laying what each ref has beside it over its target.

        A schema with no `$ref` is its own node, identified by where it is written. In a 2020-12 document a
        `$dynamicRef` is followed to what the dynamic scope binds it to, and a generic schema reached from a
        scope that binds its `$dynamicRef`s otherwise is read as bound there (`Generics`): another node.
        """
        reference = self._reference(schema, doc)
        if reference is None:
            return Node(schema, pointer, doc, (self.key(doc), pointer))
        if reference[0] == "$ref" and not self.resolver.modern(self.resolver.root):
            found = self._plain(schema, pointer, doc, reference[1])
            if found is not None:
                return found
        laid: Schema = {}
        named: str | None = None
        beside: Schema | None = None
        binding: tuple[Hashable, ...] = ()
        dynamic = generic = False
        met: set[tuple[int, str, int]] = set()  # places a chain through `$dynamicRef`s has reached
        while reference is not None:
            keyword, ref = reference
            modern = self.resolver.modern(doc)
            extra = siblings(schema, doc.dialect in MODERN)
            if keyword == "$dynamicRef":
                extra.pop("$dynamicRef", None)
            if extra:
                laid = overlay(extra, laid) if laid else extra
            at = pointer + "/" + keyword
            unnamed = named is None
            if keyword == "$dynamicRef":
                dynamic = True
                generic = generic or self.generics.is_bound(schema)
                if (id(doc), pointer, id(schema)) in met:
                    raise Resolver.error(f"$dynamicRef cycle with no schema in it, at {ref!r}", doc, at)
                met.add((id(doc), pointer, id(schema)))
                target, target_doc, target_pointer = self.generics.follow(schema, ref, doc, at, pointer)
                if named is None and not binding:
                    home = self.resolver.home(target_doc, target_pointer)
                    named = home[0] if home is not None and not home[1] else None
                    beside = laid if named is not None else None
            else:
                if named is None and not binding:
                    named = self.resolver.named(ref, doc, at)
                    beside = laid if named is not None else None
                target, target_doc, target_pointer = self.resolver.lookup(ref, doc, at)
            if modern and isinstance(target, dict) and self.resolver.writes_dynamic_refs():
                bound = self.generics.bound(schema, pointer, doc, target, target_pointer, target_doc)
                if bound is not None:
                    target, binding = bound, (*binding, self.generics.binding_of(bound))
                    if unnamed:  # the generic read as bound here is not the named schema alone
                        named = beside = None
            schema, doc, pointer = (target if isinstance(target, dict) else {}), target_doc, target_pointer
            reference = self._reference(schema, doc)
        identity: Hashable = ("schema", named) if named is not None else (self.key(doc), pointer)
        if binding:
            identity = (identity, binding)
        if laid:
            identity = (identity, canonical(laid))
        return Node(overlay(schema, laid) if laid else schema, pointer, doc, identity, named, beside,
                    not (laid or binding or dynamic), generic)

    def _plain(self, schema: Schema, pointer: str, doc: Document, ref: str) -> Node | None:
        """`node` for a chain of plain `$ref`s (no `$dynamicRef` anywhere on it: None else), the chain past the
        first ref followed once for all the refs that reach it (`_rest`)."""
        at = pointer + "/$ref"
        named = self.resolver.named(ref, doc, at)
        target, target_doc, target_pointer = self.resolver.lookup(ref, doc, at)
        rest = self._rest(target if isinstance(target, dict) else {}, target_pointer, target_doc)
        if rest is None:
            return None
        schema, pointer, doc, laid, named, beside = _step(rest, siblings(schema, doc.dialect in MODERN), named)
        identity: Hashable = ("schema", named) if named is not None else (self.key(doc), pointer)
        if laid:
            identity = (identity, canonical(laid))
        return Node(overlay(schema, laid) if laid else schema, pointer, doc, identity, named, beside, not laid)

    def _rest(self, schema: Schema, pointer: str, doc: Document) -> _Chain | None:
        """The chain of refs from a schema a ref points at, kept by where that schema is written: thousands of
        properties that each reach one long chain of refs followed it once each, link by link. None for a chain
        that meets a `$dynamicRef`, which `node` follows by the path to it."""
        steps: list[tuple[tuple[int, str, int], Schema, str | None]] = []
        while True:
            key = (id(doc), pointer, id(schema))  # a place in a document: the document keeps the schema alive
            known = self._chains.get(key)
            if known is not None:
                break
            reference = self._reference(schema, doc)
            if reference is None:
                known = (schema, pointer, doc, {}, None, None)
                break
            keyword, ref = reference
            if keyword != "$ref":
                return None
            at = pointer + "/$ref"
            steps.append((key, siblings(schema, doc.dialect in MODERN), self.resolver.named(ref, doc, at)))
            target, doc, pointer = self.resolver.lookup(ref, doc, at)
            schema = target if isinstance(target, dict) else {}
        for key, extra, named in reversed(steps):
            known = self._chains[key] = _step(known, extra, named)
        return known

    @property
    def generics(self) -> Generics:
        if self._generics is None:
            self._generics = Generics(self)
        return self._generics

    def target(self, schema: Schema, pointer: str, doc: Document) -> Schema:
        """What a schema says once its `$ref`s are followed (itself when it has none)."""
        if not isinstance(schema.get("$ref"), str):
            return schema
        return self.node(schema, pointer, doc).schema


class Generics:
    """Generic schemas of 2020-12 documents: a schema whose `$dynamicRef`s resolve against the dynamic scope
    (the resources a reference chain entered on the way to it) reads differently from each scope that binds
    them otherwise (the OpenAPI 3.1 specification's generic list and tree).

    A generic schema reached from such a scope is copied once per binding, and each `$dynamicRef` in the copy is
    followed to what that scope binds it to; the copy keeps the generic's places (its changes are reported where
    they are written, so the same change met through every use folds into one), and the scope it was reached in
    goes on to the references inside it. Copies are made once per (generic, binding), so a cycle through
    `$dynamicRef`s comes back to a node already met.
    """

    def __init__(self, normal: Normaliser) -> None:
        self.normal = normal
        self.resolver = normal.resolver
        #: id of a copied `$dynamicRef` holder -> what its scope binds it to
        self._bound: dict[int, tuple[Any, Document, str]] = {}
        #: id of a copied schema -> the dynamic scope it was reached in
        self._scopes: dict[int, tuple[str, ...]] = {}
        #: (id of the generic, binding) -> its copy; keeps every copy alive, so ids stay unique
        self._copies: dict[tuple[int, tuple[Hashable, ...]], Schema] = {}
        self._bindings: dict[int, tuple[Hashable, ...]] = {}
        #: id of a schema -> the `$dynamicRef`s inside it: (pointer below it, reference)
        self._dynamic_refs: dict[int, list[tuple[str, str]]] = {}

    def scope(self, schema: Schema, pointer: str, doc: Document) -> tuple[str, ...]:
        """The dynamic scope at a schema: the one it was reached in when it is a copy, else the resources
        around it."""
        return self._scopes.get(id(schema)) or self.resolver.scope(doc, pointer)

    def follow(self, schema: Schema, ref: str, doc: Document, at: str, pointer: str) -> tuple[Any, Document, str]:
        """What a `$dynamicRef` reaches: what its copy was bound to, else what the resources around it bind."""
        bound = self._bound.get(id(schema))
        if bound is not None:
            return bound
        return self.resolver.dynamic(ref, doc, at, self.scope(schema, pointer, doc))

    def is_bound(self, schema: Schema) -> bool:
        """Whether a `$dynamicRef` holder is one of a generic bound by the scope that reached it."""
        return id(schema) in self._bound

    def binding_of(self, copy: Schema) -> tuple[Hashable, ...]:
        return self._bindings[id(copy)]

    def bound(self, source: Schema, source_pointer: str, source_doc: Document, target: Schema,
              target_pointer: str, target_doc: Document) -> Schema | None:
        """The target of a reference read as bound by the scope of its source, or None when that scope binds
        its `$dynamicRef`s as the target's own resources do."""
        dynamic_refs = self._refs_in(target)
        if not dynamic_refs:
            return None
        outer = self.scope(source, source_pointer, source_doc)
        binding: list[Hashable] = []
        places: dict[str, tuple[Any, Document, str]] = {}
        differs = False
        for below, ref in dynamic_refs:
            at = target_pointer + below
            static = self.resolver.scope(target_doc, at)
            scope = (*outer, *(uri for uri in static if uri not in outer))
            found = self.resolver.dynamic(ref, target_doc, at + "/$dynamicRef", scope)
            places[below] = found
            differs = differs or found[1:] != self.resolver.dynamic(ref, target_doc, at + "/$dynamicRef", static)[1:]
            binding.append((below, self.normal.key(found[1]), found[2]))
        if not differs:
            return None
        key = (id(target), tuple(binding))
        copy = self._copies.get(key)
        if copy is None:
            copy = self._copies[key] = self._copy(target, "", places, (*outer, *self.resolver.scope(
                target_doc, target_pointer)[len(outer):]))
            self._bindings[id(copy)] = tuple(binding)
        return copy

    def _copy(self, node: Any, below: str, places: dict[str, tuple[Any, Document, str]],
              scope: tuple[str, ...]) -> Any:
        """A generic's schemas copied, each `$dynamicRef` holder bound and each schema given its scope."""
        if isinstance(node, list):
            return [self._copy(item, f"{below}/{i}", places, scope) for i, item in enumerate(node)]
        if not isinstance(node, dict):
            return node
        copy = {key: self._copy(value, below + join_pointer((key,)), places, scope)
                for key, value in node.items()}
        self._scopes[id(copy)] = scope
        if below in places:
            self._bound[id(copy)] = places[below]
        return copy

    def _refs_in(self, schema: Schema) -> list[tuple[str, str]]:
        """The `$dynamicRef`s written inside a schema (pointers below it), without following references."""
        found = self._dynamic_refs.get(id(schema))
        if found is None:
            found = self._dynamic_refs[id(schema)] = []
            pending: list[tuple[Any, str]] = [(schema, "")]
            while pending:
                node, below = pending.pop()
                if isinstance(node, dict):
                    if isinstance(node.get("$dynamicRef"), str):
                        found.append((below, node["$dynamicRef"]))
                    pending.extend((value, below + join_pointer((key,)))
                                   for key, value in node.items() if isinstance(value, (dict, list)))
                elif isinstance(node, list):
                    pending.extend((value, f"{below}/{i}") for i, value in enumerate(node))
            found.sort()
        return found


#: where a chain of refs ends (schema, pointer, document), what the refs on it lay over that schema, the named
#: schema it reaches first and what its refs before that one lay beside it
_Chain = tuple[Schema, str, Document, Schema, str | None, Schema | None]


def _step(rest: _Chain, extra: Schema, named: str | None) -> _Chain:
    """A chain one ref longer at its head: the ref's siblings `extra`, and the named schema it points at."""
    schema, pointer, doc, laid, named_later, beside = rest
    if named is not None:
        beside = extra  # what lies beside the refs before the first named one: this ref's alone
    elif named_later is not None:
        beside = overlay(beside, extra) if extra and beside else (extra or beside)
    laid = overlay(laid, extra) if extra and laid else (extra or laid)  # what a ref nearer the head says wins
    return schema, pointer, doc, laid, named if named is not None else named_later, beside


def siblings(schema: Schema, modern: bool = False) -> Schema:
    """What a schema that holds a `$ref` says beside it, annotations left out; in a 2020-12 document (`modern`:
    OpenAPI 3.1 and later), the keywords that only name or hold schemas too (`$id`, `$anchor`, `$defs`)."""
    if modern:
        return {k: v for k, v in schema.items() if k not in ANNOTATIONS and k not in naming_keywords()}
    return {k: v for k, v in schema.items() if k not in ANNOTATIONS}


def lone_part(members: Any) -> int | None:
    """The index of the one part of an `allOf` that says more than is written beside a `$ref` (`BESIDE_A_REF`
    and vendor extensions), the others only adding to it; None when two parts say more, or it is no list of
    schemas. An `allOf` of one part is that part."""
    if not isinstance(members, list) or not members or not all(isinstance(m, dict) for m in members):
        return None
    if len(members) == 1:
        return 0
    said = [i for i, m in enumerate(members) if any(k not in BESIDE_A_REF and not str(k).startswith("x-") for k in m)]
    return said[0] if len(said) == 1 else None


def overlay(base: Schema, extra: Schema) -> Schema:
    """`base` and `extra` read as one schema (`allOf` of the two): properties and required are joined."""
    merged = {**base, **extra}
    if isinstance(base.get("properties"), dict) and isinstance(extra.get("properties"), dict):
        merged["properties"] = {**base["properties"], **extra["properties"]}
    if isinstance(base.get("required"), list) and isinstance(extra.get("required"), list):
        merged["required"] = _joined(base["required"], extra["required"])
    return merged


def _joined(first: list[Any], second: list[Any]) -> list[Any]:
    """Both lists in order, each entry once, by its JSON form: a malformed `required` may hold a mapping."""
    return list({canonical(value): value for value in [*first, *second]}.values())
