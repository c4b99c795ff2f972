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

import json
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, NamedTuple

from specdiff.graph.refs import Resolver
from specdiff.load.document import Document

Schema = dict[str, Any]

#: keywords that describe a schema without constraining it
ANNOTATIONS = frozenset({"$ref", "description", "title", "example", "examples", "externalDocs", "$comment"})


class Place(NamedTuple):
    """A place in one of the documents a spec is made of: refs written there resolve in that document."""

    pointer: str
    document: Document


@dataclass(frozen=True, slots=True)
class Node:
    """A schema in normal form, where its keywords are written, and the identity all its spellings share."""

    schema: Schema
    pointer: str
    document: Document
    identity: Hashable
    #: the named schema a chain of refs reaches first, and what is written beside the refs before it
    named: str | None = None
    beside: Schema | None = None
    #: reached through refs with nothing but annotations beside them
    bare: bool = False


class Normaliser:
    """One spec's references resolved to node identities; `opaque` holds what equal text cannot vouch for."""

    def __init__(self, resolver: Resolver, part_keys: dict[Document, str] | None = None) -> None:
        self.resolver = resolver
        self.part_keys = part_keys or {}
        #: schemas reached through a `$ref` to a place that is not a named schema (`#/x-lib/Foo`, a file), by
        #: (document key, pointer): nothing compares them on their own, so equal text around such a ref says
        #: nothing unless these are equal on both sides too
        self.opaque: dict[tuple[str, str], Any] = {}
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
        """`{allOf: [X], ...}` says what X says plus the rest: read it as X with the rest laid over it.

        This is how OpenAPI 3.0 writes a `$ref` with a description, nullable or default beside it, so moving
        between the two spellings (or into a named schema) is not a change.
        """
        while True:
            members = schema.get("allOf")
            if not isinstance(members, list) or len(members) != 1 or not isinstance(members[0], dict):
                return schema, pointer
            rest = {k: v for k, v in schema.items() if k != "allOf"}
            schema, pointer = (overlay(members[0], rest) if rest else members[0]), pointer + "/allOf/0"

    def node(self, schema: Schema, pointer: str, doc: Document) -> Node:
        """Follow a chain of `$ref`s to a schema that is none, laying what each ref has beside it over its target.

        A schema with no `$ref` is its own node, identified by where it is written. The chain past the first
        ref is followed once for all the refs that reach it (`_rest`).
        """
        ref = schema.get("$ref")
        if not isinstance(ref, str):
            return Node(schema, pointer, doc, (self.key(doc), pointer))
        at = pointer + "/$ref"
        named = self.resolver.named(ref, doc, at)
        target, doc, pointer = self.resolver.lookup(ref, doc, at)
        schema, pointer, doc, laid, named, beside = _step(
            self._rest(target if isinstance(target, dict) else {}, pointer, doc), siblings(schema), named)
        identity: Hashable = ("schema", named) if named is not None else (self.key(doc), pointer)
        if laid:
            identity = (identity, canonical(laid))
        return Node(overlay(schema, laid) if laid else schema, pointer, doc, identity, named, beside, not laid)

    def _rest(self, schema: Schema, pointer: str, doc: Document) -> _Chain:
        """The chain of refs from a schema a ref points at, kept by where that schema is written: thousands of
        properties that each reach one long chain of refs followed it once each, link by link."""
        steps: list[tuple[tuple[int, str, int], Schema, str | None]] = []
        while True:
            key = (id(doc), pointer, id(schema))  # a place in a document: the document keeps the schema alive
            known = self._chains.get(key)
            if known is not None:
                break
            ref = schema.get("$ref")
            if not isinstance(ref, str):
                known = (schema, pointer, doc, {}, None, None)
                break
            at = pointer + "/$ref"
            steps.append((key, siblings(schema), self.resolver.named(ref, doc, at)))
            target, doc, pointer = self.resolver.lookup(ref, doc, at)
            schema = target if isinstance(target, dict) else {}
        for key, extra, named in reversed(steps):
            known = self._chains[key] = _step(known, extra, named)
        return known

    def target(self, schema: Schema, pointer: str, doc: Document) -> Schema:
        """What a schema says once its `$ref`s are followed (itself when it has none)."""
        if not isinstance(schema.get("$ref"), str):
            return schema
        return self.node(schema, pointer, doc).schema


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


def siblings(schema: Schema) -> Schema:
    """What a schema that holds a `$ref` says beside it, annotations left out."""
    return {k: v for k, v in schema.items() if k not in ANNOTATIONS}


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


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)

