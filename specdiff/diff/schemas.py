"""Schema comparison: neutral facts about two JSON Schemas, one recursive function per keyword family.

References are read through graph.normalise: every spelling of one becomes a node with one identity. Named
schemas are compared once per pair by `specdiff.diff.diff`; inside any schema a `$ref` to a named schema
stops the walk (the pair is compared on its own, and its changes reach operations through the graph), and
any other pair of nodes is compared once, so the cost is linear in the size of the specs, not in the number
of operations times schemas.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import specdiff.diff.jsonschema2020 as jsonschema2020
import specdiff.diff.openapi_extensions as openapi_extensions
from specdiff.diff.evidence import (
    empty_already_invalid,
    merge_keys,
    restated,
    said_conditions,
    said_required,
    said_text_values,
    said_values,
    said_written,
)
from specdiff.diff.jsonschema2020 import compare_2020
from specdiff.diff.kernel import (
    MISSING,
    Emit,
    Side,
    by_value,
    canonical,
    keyed_difference,
    keyword_pointer,
    mapping,
    presence,
    same_value,
)
from specdiff.diff.openapi_extensions import compare_docs, compare_extensions
from specdiff.diff.openapi_extensions import deprecation_facts as _deprecation_facts
from specdiff.diff.residue import residue
from specdiff.diff.vocabulary import DOC_ATTRIBUTES, SCALAR_KEYWORDS, Where, change
from specdiff.frozen import refilled
from specdiff.graph.ecosystem import Ecosystem
from specdiff.graph.kubernetes_names import group_version_kinds
from specdiff.graph.lifecycle import lifecycle_of
from specdiff.graph.model import NamedSchema, Schema, SpecGraph
from specdiff.graph.normalise import ANNOTATIONS, Node, Normaliser, lone_part, overlay
from specdiff.graph.refs import MODERN, naming_keywords, unchanged_files
from specdiff.graph.schemas import (
    deprecated_enum_values,
    enum_values,
    lists_enum,
    nullable,
    required_set,
    type_set,
)
from specdiff.graph.stability import least_stable
from specdiff.load.document import Document
from specdiff.load.sourcemap import pointer_token
from specdiff.records import Change, Context, unreached

if TYPE_CHECKING:
    from specdiff.diff.compositions import Overlaps

#: values that say the same as leaving the keyword out (`minLength: 0`, `readOnly: false`); the Swagger
#: `collectionFormat` is compared as the parameter's style, not here
KEYWORD_DEFAULTS: dict[str, Any] = {"minLength": 0, "minItems": 0, "minProperties": 0, "uniqueItems": False,
                                    "readOnly": False, "writeOnly": False, "deprecated": False,
                                    "exclusiveMinimum": False, "exclusiveMaximum": False}


#: the keywords the schema differ compares, its families' included (`x-kubernetes-*`, by prefix, are the
#: Kubernetes family's); specdiff.diff.residue compares the rest as data. Swagger's `x-nullable` is `nullable`;
#: its `collectionFormat` is compared as the parameter's style.
HANDLES = frozenset({"$ref", "type", "nullable", "x-nullable", "enum", "properties", "required", "items",
                     "additionalProperties", "not", "allOf", "oneOf", "anyOf", "discriminator", "collectionFormat",
                     *SCALAR_KEYWORDS, *jsonschema2020.HANDLES, *openapi_extensions.HANDLES})
KUBERNETES_PREFIX = openapi_extensions.KUBERNETES_PREFIX
#: what the graph says of a place (`SpecGraph.located`): its level, whether it is only read, only written
Located = tuple[str, bool, bool]
#: a side that is not there: read and written wherever the other is
_ANYWHERE: Located = ("stable", True, True)
#: the plain keywords `_keywords` compares as values
_SCALARS = frozenset(SCALAR_KEYWORDS) - {"deprecated"}
#: keywords whose values, written alike, may still compare apart: what they name is paired by meaning or by name
#: (unions, discriminators, 2020-12 subschemas and dynamic references), or their items are matched on their own
#: terms (CEL rules); `_worded_apart` does not vouch for a pair that writes one
_READ_BEYOND_TEXT = (frozenset({"allOf", "anyOf", "oneOf", "discriminator", "$dynamicRef",
                                "x-kubernetes-validations"}) | jsonschema2020.HANDLES_BUT_ITEMS)
#: the keywords whose family in `_keywords` reads nothing else of a schema: plain values, properties with the
#: `required` list, and the subschemas of items and map values (`_apart_in_own_keywords`)
_OWN = _SCALARS | {"properties", "required", "items", "additionalProperties"}
#: the keywords of one subschema `_worded_apart` follows where they differ, as the walk does (`single`), beside
#: each property
_SUBSCHEMAS = ("items", "additionalProperties")


class DeferredPlace:
    """Where a named pair's changes are, its facts (direction, stability, resource and kind) asked of the graph
    only when the pair brings a change: most named pairs that differ only differ in their descriptions.

    Its walk runs from `provisional`, read both ways at the most stable level with no resource or kind, from
    which the real facts follow for anything found (`resolved`): `_directed` keeps a direction that is not both
    and only ever lowers a level; a question that needs the real facts asks for them (`SchemaDiffer._real`)."""

    def __init__(self, provisional: Where, facts: Callable[[], Where]) -> None:
        self.provisional = provisional
        self._facts = facts
        self._where: Where | None = None

    @property
    def where(self) -> Where:
        """The named pair's place with its real facts, asked of the graph once."""
        if self._where is None:
            self._where = self._facts()
        return self._where

    @property
    def known(self) -> bool:
        return self._where is not None

    def resolved(self, where: Where) -> Where:
        """A place of the walk from `provisional` with the real facts (a place that has them stays as it is)."""
        return refilled(where, context=self._context(where.context), direction=self._direction(where.direction))

    def resolved_change(self, found: Change) -> Change:
        return refilled(found, context=self._context(found.context), direction=self._direction(found.direction))

    def _context(self, context: Context) -> Context:
        real = self.where.context
        return refilled(context, stability=least_stable(real.stability, context.stability), resource=real.resource,
                        kind=real.kind)

    def _direction(self, walked: str) -> str:
        real = self.where.direction
        return walked if real == "both" else real


def _kind_name(gvks: list[str]) -> str | None:
    """`Status` when every group/version/kind listed names that kind (meta/v1 types are listed in many groups)."""
    kinds = {gvk.rpartition("/")[2] for gvk in gvks}
    return kinds.pop() if len(kinds) == 1 else None


class SchemaDiffer:
    """Compares schemas of two specs; `names` maps old named-schema identities to new ones, `ecosystem` says
    what the specs are (graph.ecosystem), which decides what some keywords mean to the server."""

    include_docs = False  # report documentation changes too (`--include-docs`)

    def __init__(self, old: SpecGraph, new: SpecGraph, names: dict[str, str], emit: Emit,
                 ecosystem: Ecosystem, unchanged: frozenset[str] | None = None) -> None:
        self.old, self.new, self.ecosystem = old, new, ecosystem
        self.old_normal, self.new_normal = old.normal, new.normal
        self.names = names
        self.emit = emit
        self._stack: set[tuple[int, str, int, str]] = set()
        #: equal text means equal meaning when the schemas reached through refs to places other than named
        #: schemas (`#/x-lib/Foo`, another file) are equal on both sides: named pairs are compared on their own
        #: (a `$dynamicRef` reaches what the path to it binds, which equal text cannot vouch for either)
        dynamic = old.normal.resolver.writes_dynamic_refs() or new.normal.resolver.writes_dynamic_refs()
        self.equal_means_unchanged = old.normal.opaque == new.normal.opaque and not dynamic
        #: else, in a split spec, the files where it still does (`graph.refs.unchanged_files`, or `unchanged` as a
        #: differ of the same pair found them): a commit changes a few of thousands, and with them the schemas
        #: written in every file that leads to them
        self.unchanged_files: frozenset[str] = frozenset() if unchanged is None else unchanged
        if unchanged is None and not (self.equal_means_unchanged or dynamic) and (old.normal.resolver.externals or
                                                                                 new.normal.resolver.externals):
            paired = {name for name, other in names.items() if name == other}
            self.unchanged_files = unchanged_files(old.normal.resolver, new.normal.resolver,
                                                   (name for name in (*old.schemas, *new.schemas)
                                                    if name not in paired))
        #: pairs reached through a $ref, compared once whatever the spelling and the path to them:
        #: (old node identity, new node identity, direction, stability)
        self._followed: set[tuple[Hashable, ...]] = set()
        #: (old name, new name, joined, what each writes beside) -> whether a reference moved keeps the JSON
        self._wire: dict[tuple[str, str, bool, str, str], bool] = {}
        #: old named schema -> the schemas places that named it now name, sending and accepting the same JSON
        self.renamed: dict[str, set[str]] = {}
        #: `anyOf` branches whose enum only lists known values (`_open_types`), by where they are written
        self._open_enums: set[str] = set()
        #: the branches of the `oneOf` whose added branches are being noted, indexed once for all of them
        self._overlaps: tuple[dict[str, tuple[str, Schema]], Overlaps] | None = None
        #: while a plain object is compared with the closest branch of the union of its kinds it became: the old
        #: properties another branch carries (by name, the branch), and where the closest branch is written
        self._elsewhere: dict[str, str] = {}
        self._elsewhere_at = ""
        #: and those no branch carries that a new union sharing its kinds holds (`_kinds_moved_out`)
        self._moved_out: dict[str, str] = {}
        #: the old spec's merge keys, by where each named type is written, read when first needed
        self._keys: dict[tuple[Document, str], dict[str, str]] | None = None
        #: objects a Kubernetes API server serves are read into Go structs: a field left out decodes to its zero
        #: value, so `default: ""`, `0`, `false`, `{}` or `[]` (which the v3 documents write and the v2 ones do
        #: not) says nothing
        self.zero_default_is_implied = ecosystem.kubernetes_served
        from specdiff.diff.kubernetes import KubernetesExtensions, predates_topology  # they build on Side, Where

        self.extensions = KubernetesExtensions(emit, self.old_normal, self.new_normal,
                                               lambda: ecosystem.builtin_types and predates_topology(old))
        #: the named pair being walked whose facts are asked only when needed (`compare_named`)
        self._deferred: DeferredPlace | None = None

    # -- entry points -------------------------------------------------------------------------------
    def compare(self, old: Side, new: Side, where: Where) -> None:
        if self.unchanged(old, new):
            return  # equal content compares equal all the way down (a C-speed check)
        self.compare_differing(old, new, where)

    def unchanged(self, old: Side, new: Side) -> bool:
        """Whether two schemas are equal all the way down: equal text, where equal text means equal meaning."""
        return (self._text_decides(old.document, new.document, old.places is None and new.places is None)
                and old.schema == new.schema)

    def named_unchanged(self, old: NamedSchema, new: NamedSchema) -> bool:
        """`unchanged` for a pair of named schemas, asked of every pair a comparison matches (most are equal)
        without making their sides."""
        return self._text_decides(old.document, new.document) and old.schema == new.schema

    def _text_decides(self, old: Document, new: Document, unjoined: bool = True) -> bool:
        """Whether equal text means equal meaning for schemas written in these documents: in the whole spec, or in
        the one file of a split spec both are written in (not for an `allOf` read as one schema, `unjoined`
        False, whose parts may come from several)."""
        if self.equal_means_unchanged:
            return True
        if not self.unchanged_files or not unjoined:
            return False
        key = self.old_normal.resolver.key(old)
        return key in self.unchanged_files and self.new_normal.resolver.key(new) == key

    def compare_differing(self, old: Side, new: Side, where: Where) -> None:
        """`compare` without its equality check, for a pair the caller has found to differ: on a large pair
        that check is the costly part."""
        key = (id(old.document), old.pointer, id(new.document), new.pointer)
        if key in self._stack:
            return  # a recursive structure: its first visit covers it
        self._stack.add(key)
        try:
            self._compare(old, new, self._placed(where, old, new))
        finally:
            self._stack.discard(key)

    def compare_named(self, old: Side, new: Side, place: DeferredPlace) -> None:
        """`compare_differing` for a pair of named schemas whose facts are asked of the graph only when the walk
        needs them; the changes it finds come with the place's provisional facts, for the caller to resolve."""
        if self._worded_apart(old, new):
            return  # (most named pairs that differ: their descriptions were reworded)
        if place.known:
            self.compare_differing(old, new, place.where)
            return
        self._deferred = place
        try:
            self.compare_differing(old, new, place.provisional)
        finally:
            self._deferred = None

    def _worded_apart(self, old: Side, new: Side) -> bool:
        """Whether two schemas found to differ differ only in descriptions the walk reads for no change of its own:
        those of the schemas on the paths where they differ (their own, their properties', their items' and map
        values'), none of which lists an enum's values (`Possible enum values:`, read as the enum). The rest of
        those schemas is written alike, as JSON, and writes no keyword that `_READ_BEYOND_TEXT` holds, so every
        family finds its values equal; a `$ref` among them has only annotations and `x-kubernetes-*` markers
        beside it and names a named pair on both sides, which the walk compares on its own (only what is written
        beside the refs is compared there, and that is the same). Equal subschemas are passed over as the walk
        passes them (`equal_means_unchanged`); descriptions are compared with `--include-docs`, and equal text
        read in two dialects may say two things."""
        if not self._text_tells(old, new):
            return False
        waiting = [(old.schema, new.schema, old.pointer, new.pointer)]
        while waiting:
            o, n, old_pointer, new_pointer = waiting.pop()
            if not (_READ_BEYOND_TEXT.isdisjoint(o) and _READ_BEYOND_TEXT.isdisjoint(n)):
                return False
            for key in o.keys() | n.keys():
                before, after = o.get(key, MISSING), n.get(key, MISSING)
                if key == "properties" and isinstance(before, dict) and isinstance(after, dict):
                    if before.keys() != after.keys():
                        return False
                    for name in [name for name, schema in after.items() if before[name] != schema]:
                        was, schema = before[name], after[name]
                        if not (isinstance(was, dict) and isinstance(schema, dict)):
                            return False
                        token = "/properties" + pointer_token(name)
                        waiting.append((was, schema, old_pointer + token, new_pointer + token))
                elif key in _SUBSCHEMAS and isinstance(before, dict) and isinstance(after, dict):
                    if before != after:
                        waiting.append((before, after, f"{old_pointer}/{key}", f"{new_pointer}/{key}"))
                elif key == "items" or not _worded_alike(key, before, after):
                    return False  # (`items` that is no subschema: a tuple, or the 2020-12 boolean)
            if "$ref" in o and not self._names_named_pair(o, n, old_pointer, new_pointer, old, new):
                return False
        return True

    def _text_tells(self, old: Side, new: Side) -> bool:
        """Whether a pair's text, written alike, is unchanged for the walk: the precondition of both passes over a
        pair (`_worded_apart`, `_apart_in_own_keywords`). Not with `--include-docs`, which compares descriptions;
        nor where equal subschemas may compare apart (`equal_means_unchanged`); nor across dialects, where equal
        text may say two things."""
        return not self.include_docs and self.equal_means_unchanged and old.document.dialect == new.document.dialect

    def _names_named_pair(self, old_schema: Schema, new_schema: Schema, old_pointer: str, new_pointer: str,
                          old: Side, new: Side) -> bool:
        """Whether a `$ref` written alike on both sides, with only annotations and `x-kubernetes-*` markers beside
        it, names a named pair: the walk then compares no more than what is beside it (`_compare`). (The node the
        walk reads names the schema the `$ref` names, where no `$dynamicRef` is written: `Normaliser.node`.)"""
        ref = old_schema["$ref"]
        if not isinstance(ref, str) or any(
                key not in ANNOTATIONS and not key.startswith(KUBERNETES_PREFIX) for key in old_schema):
            return False
        old_named = self.old_normal.resolver.named(ref, old.document, old_pointer + "/$ref")
        new_named = self.new_normal.resolver.named(ref, new.document, new_pointer + "/$ref")
        return old_named is not None and new_named is not None and self.names.get(old_named) == new_named

    def _real(self, where: Where) -> Where:
        """`where` with its real direction and stability, for a question the walk asks of them."""
        return where if self._deferred is None else self._deferred.resolved(where)

    def introduced(self, new: Side, where: Where) -> None:
        """A schema the new spec adds: facts about what it brings (lifecycle markers that break KEP-2558)."""
        self.extensions.introduced(new, where)

    # -- refs: graph.normalise resolves every spelling to a node; here only what a pair of nodes means ----------
    def _compare(self, old: Side, new: Side, where: Where) -> None:
        written_old, written_new = old, new
        composed = _composed(old.schema) or _composed(new.schema)
        if composed and self._read_as_one(old, new, where):
            return
        if not composed:  # two allOfs of several parts compare part by part
            old, new = _unwrapped(old, self.old_normal), _unwrapped(new, self.new_normal)
        if not (self.old_normal.refers(old.schema, old.document) or self.new_normal.refers(new.schema, new.document)):
            if not self._union_against_plain(old, new, where):  # (`where` is placed for the sides as written)
                self._keywords(old, new, where, placed=old is written_old and new is written_new)
            return
        o = self.old_normal.node(old.schema, old.pointer, old.document)
        n = self.new_normal.node(new.schema, new.pointer, new.document)
        move = ""  # where a reference moved to a schema that sends or accepts other JSON
        if o.named is not None and n.named is not None:
            if self.names.get(o.named) == n.named:
                # the named pair is compared once on its own; here only what is written beside the refs,
                # x-kubernetes-* markers as written (they override what the named type says)
                self.extensions.compare(written_old, written_new, where)
                old_beside = _plain(o.beside, self.old.schemas[o.named].schema)
                new_beside = _plain(n.beside, self.new.schemas[n.named].schema)
                if old_beside or new_beside:
                    self._keywords(Side(old_beside, old.pointer, old.document),
                                   Side(new_beside, new.pointer, new.document), where)
                return
            body = where.context.at_body()
            same = self.ecosystem.spec == "openapi" and self.same_on_the_wire(o, n, joined=body)
            wire: dict[str, Any] = {"same_wire": True} if same else {}
            if body:  # a body swapped for another type: one change, with what each is
                self.emit(change("modified", "schema", "$ref", old=o.named, new=n.named, where=where,
                                 old_pointer=old.pointer + "/$ref", new_pointer=new.pointer + "/$ref",
                                 **self._kinds(o.named, n.named, where), **wire))
                if self.ecosystem.spec == "openapi":
                    with self._moved("" if same else new.pointer + "/$ref"):
                        self._on_the_wire(o, n, where)
                return  # a Kubernetes kind is one type, compared where it is named (DELETE answering it)
            self.emit(change("modified", "schema", "$ref", old=o.named, new=n.named, where=where,
                             old_pointer=old.pointer + "/$ref", new_pointer=new.pointer + "/$ref", **wire,
                             **_example_shows(enum_values(o.schema), enum_values(n.schema), where)))
            if self.ecosystem.spec == "openapi" and self._unrelated(o, n):
                return  # another thing altogether: the reference change says it, field by field says nothing
            move = "" if same or self.ecosystem.spec != "openapi" else new.pointer + "/$ref"
        if o.bare and n.bare and self._inside_named_pair(o, n):
            return  # the same place inside a pair of named schemas, compared with that pair
        real = self._real(where)
        key: tuple[Hashable, ...] = (o.identity, n.identity, real.direction, real.context.stability)
        if o.generic or n.generic:  # a generic's binding, reported at each use and folded by group (its place)
            key = (*key, where.context.schema, where.context.field)
        if key not in self._followed:
            self._followed.add(key)
            with self._moved(move):
                self.compare(Side(o.schema, o.pointer, o.document), Side(n.schema, n.pointer, n.document), where)

    @contextmanager
    def _moved(self, pointer: str) -> Iterator[None]:
        """While the two schemas a reference moved between are compared: each change found is marked as brought
        by the move at `pointer` (`moved_with`), so that group folds it into the move's finding. The innermost
        move claims a change; no pointer, no move (the same JSON under another name brings nothing)."""
        if not pointer:
            yield
            return
        emit = self.emit

        def marked(found: Change) -> None:
            emit(found if found.fact("moved_with") else replace(found, detail=(*found.detail, ("moved_with", pointer))))

        self.emit = marked
        try:
            yield
        finally:
            self.emit = emit

    def _on_the_wire(self, old: Node, new: Node, where: Where) -> None:
        """A plain API's body whose type was replaced by another: what goes over the wire is the same whatever
        the types are called, so two related types are compared field by field here, where the body is used,
        each read as one object with its `allOf` parts joined (`BuyMuseumTicketsResponse` became
        `allOf: [Ticket, ...]`)."""
        if not self._unrelated(old, new):
            self.compare(self._joined(_side(old), self.old_normal), self._joined(_side(new), self.new_normal), where)

    def same_on_the_wire(self, old: Node, new: Node, joined: bool = False) -> bool:
        """Whether a place that now names `new`'s schema instead of `old`'s sends and accepts the same JSON: read
        with what each place writes beside its ref, the two differ in nothing beyond what the old schema differs
        from its own new version in, which is reported at that schema itself (GitHub split `simple-user` into
        `nullable-simple-user`, the old one's content, and a `simple-user` that is not nullable). `joined` reads
        each as one object with its `allOf` parts joined, as a body is compared (`_on_the_wire`). Asked once
        per pair and what is beside; `renamed` keeps the pairs that are."""
        if old.named is None or new.named is None:
            return False  # only a reference to a named schema can name another
        key = (old.named, new.named, joined, _text(old.beside), _text(new.beside))
        if key not in self._wire:
            # assumed while it is being answered: a schema that refers to itself (a `Tag` whose `parent` is a
            # `Tag`) meets the same question again inside, and is the same as far as the rest of it says
            self._wire[key] = True
            moved = self._differences(_side(old), _side(new), joined)
            own = self.names.get(old.named)
            kept: set[tuple[Any, ...]] = set()
            if own is not None:
                after = self.new.schemas[own]
                kept = self._differences(_side(old), Side(overlay(after.schema, old.beside or {}), after.pointer,
                                                          after.document), joined)
            self._wire[key] = moved <= kept
            if self._wire[key]:
                self.renamed.setdefault(old.named, set()).add(new.named)
        return self._wire[key]

    def _differences(self, old: Side, new: Side, joined: bool) -> set[tuple[Any, ...]]:
        """The changes from one schema to another, as what changed and where inside them, whatever the pointers:
        a differ of its own finds them, so this one's memory of pairs compared stays as it was."""
        found: list[Change] = []
        differ = SchemaDiffer(self.old, self.new, self.names, found.append, self.ecosystem, self.unchanged_files)
        differ._wire = self._wire  # the questions asked and being answered, shared: a cycle asks one once
        if joined:
            old, new = differ._joined(old, self.old_normal), differ._joined(new, self.new_normal)
        differ.compare(old, new, Where(Context(), "both"))
        return {(c.kind, c.node, c.attribute, c.context.field, c.context.part, _text(c.old), _text(c.new))
                for c in found if not c.fact("same_wire")}  # a reference inside moved to the same JSON

    def _unrelated(self, old: Node, new: Node) -> bool:
        """Two object types that share fewer than half of the properties of the larger describe different things
        (a spec corrected to name what an operation really returns, or another resource): field by field they
        would only list every field of both as removed and added, so the reference change alone reports it.
        (Either way round the same answer: swapping the specs swaps additions and removals, nothing else.)"""
        old_names = set(mapping(self._joined(_side(old), self.old_normal).schema.get("properties")))
        new_names = set(mapping(self._joined(_side(new), self.new_normal).schema.get("properties")))
        larger = max(len(old_names), len(new_names))
        return larger > 1 and 2 * len(old_names & new_names) < larger

    def _kinds(self, old_name: str, new_name: str, where: Where) -> dict[str, Any]:
        """The Kubernetes kinds two named body types stand for, and whether the new one is the kind the operation
        acts on (a DELETE answering the deleted object instead of `Status`)."""
        old_kinds = group_version_kinds(self.old.schemas[old_name].schema) if old_name in self.old.schemas else []
        new_kinds = group_version_kinds(self.new.schemas[new_name].schema) if new_name in self.new.schemas else []
        return {"old_kind": _kind_name(old_kinds), "new_kind": _kind_name(new_kinds),
                "own_kind": where.operation_kind is not None and where.operation_kind in new_kinds}

    def _inside_named_pair(self, old: Node, new: Node) -> bool:
        old_home = self.old_normal.resolver.home(old.document, old.pointer)
        new_home = self.new_normal.resolver.home(new.document, new.pointer)
        return (old_home is not None and new_home is not None and old_home[1] == new_home[1]
                and self.names.get(old_home[0]) == new_home[0] and old_home[0] in self.old.schemas
                and self.old.schemas[old_home[0]].document is old.document
                and self.new.schemas[new_home[0]].document is new.document)

    # -- keywords -----------------------------------------------------------------------------------
    def _keywords(self, old: Side, new: Side, where: Where, placed: bool = False) -> None:
        """Every keyword of two schemas; `placed` when `where` is already placed for these sides (`_placed`)."""
        o, n = old.schema, new.schema
        if not placed:
            where = self._placed(where, old, new)
        if self._apart_in_own_keywords(old, new):
            self._scalars(old, new, where)
            self._properties(old, new, where)
            self.single("items", "[]", old, new, where)
            self._additional_properties(old, new, where)
            self.extensions.compare(old, new, where)
            return
        old_types, new_types = type_set(o, old.document.dialect), type_set(n, new.document.dialect)
        retyped = old_types != new_types
        if retyped:
            self.emit(change("modified", "schema", "type", old=_types(old_types), new=_types(new_types), where=where,
                             old_pointer=old.pointer, new_pointer=new.pointer,
                             had_properties=bool(o.get("properties")),
                             with_items=isinstance(o.get("items"), dict) and isinstance(n.get("items"), dict),
                             **_form_field(where)))
        if nullable(o) != nullable(n):
            self.emit(change("modified", "schema", "nullable", old=nullable(o), new=nullable(n), where=where,
                             old_pointer=old.pointer, new_pointer=new.pointer, **self._in_deprecated(old, new)))
        self._scalars(old, new, where)
        self._collection_format(old, new, where)
        self._enum(old, new, where)
        self._properties(old, new, where)
        if not (isinstance(o.get("items"), list) or isinstance(n.get("items"), list)):  # a tuple: jsonschema2020
            self.single("items", "[]", old, new, where, presence=not retyped)
        self._additional_properties(old, new, where)
        self.single("not", "<not>", old, new, where)
        paired: dict[str, str] = {}
        switched = _switched_union(o, n)
        for keyword in ("allOf", "oneOf", "anyOf"):
            if switched and keyword == switched[0]:
                continue  # its members are compared under the keyword it became
            paired.update(self._composition(keyword, old, new, where,
                                            switched[0] if switched and keyword == switched[1] else None))
        if switched:
            self._union_switched(*switched, old, new, where)
        self.value("discriminator", _discriminator(o, lambda name: paired.get(self.names.get(name, name), name)),
                   _discriminator(n, lambda name: name), old, new, where)
        compare_2020(self, old, new, where)
        compare_extensions(self, old, new, where)
        if self.include_docs:
            compare_docs(self, old, new, where)
        self.extensions.compare(old, new, where)
        xml = {"xml": {"xml_body": self._carried_as_xml(old, new, where)}} if "xml" in o or "xml" in n else None
        for found in residue(o, n, self._handles(old, new), old.pointer, new.pointer, where, KUBERNETES_PREFIX, xml):
            self.emit(found)

    def _apart_in_own_keywords(self, old: Side, new: Side) -> bool:
        """Whether two schemas differ only in keywords whose family reads nothing else of them (`_OWN`, and the
        `x-kubernetes-*` markers) and in descriptions that list no enum's values (`Possible enum values:`, read as
        the enum): every other family finds the rest written alike, as JSON, and reports nothing, so `_keywords`
        runs those families alone (a Kubernetes field that gains `x-kubernetes-list-type`, a type whose
        properties changed). As in `_worded_apart`: no keyword whose equal text may still compare apart is
        written, equal subschemas are passed over, and both sides are read in one dialect."""
        o, n = old.schema, new.schema
        if not self._text_tells(old, new) or not (_READ_BEYOND_TEXT.isdisjoint(o) and _READ_BEYOND_TEXT.isdisjoint(n)) \
                or not (isinstance(o.get("items", {}), dict) and isinstance(n.get("items", {}), dict)):
            return False  # (`items` that is no subschema is a union's or a tuple's: `_union_against_plain`)
        for key in o.keys() | n.keys():
            if key in _OWN or key.startswith(KUBERNETES_PREFIX):
                continue
            if not _worded_alike(key, o.get(key, MISSING), n.get(key, MISSING)):
                return False
        return True

    def _scalars(self, old: Side, new: Side, where: Where) -> None:
        """The plain keywords written on either side, in their order; `deprecated` is compared with the sunset it
        announces (compare_extensions)."""
        o, n = old.schema, new.schema
        for keyword in sorted((o.keys() | n.keys()) & _SCALARS, key=SCALAR_KEYWORDS.index):
            self.value(keyword, _given(o, keyword, self.zero_default_is_implied),
                        _given(n, keyword, self.zero_default_is_implied), old, new, where)

    def _handles(self, old: Side, new: Side) -> frozenset[str]:
        """The keywords compared here: in 2020-12 documents, those naming schemas too (graph.refs2020), which
        change nothing where no reference reads them and are read through the references that do."""
        if old.document.dialect in MODERN or new.document.dialect in MODERN:
            return HANDLES | naming_keywords() | {"$dynamicRef"}
        return HANDLES

    def value(self, keyword: str, old_value: Any, new_value: Any, old: Side, new: Side, where: Where,
               node: str = "schema") -> None:
        if old_value is MISSING and new_value is MISSING:
            return
        if old_value is not MISSING and new_value is not MISSING and same_value(old_value, new_value):
            return
        kind = presence(old_value, new_value)
        facts: dict[str, Any] = (
            {"only_in_parameters": self._only_in_parameters(new, where)} if keyword == "readOnly" else {})
        said = restated(keyword, kind, old.described(), new.described(), old_value, new_value)
        if said:
            facts["evidence"] = said
        if kind != "added" and _enum_within(keyword, old_value, new.schema):
            facts["enum_within"] = True
        self.emit(change(kind, node, keyword, old=None if old_value is MISSING else old_value,
                         new=None if new_value is MISSING else new_value, where=where,
                         old_pointer=None if kind == "added" else keyword_pointer(old, keyword),
                         new_pointer=None if kind == "removed" else keyword_pointer(new, keyword), **facts))

    def _collection_format(self, old: Side, new: Side, where: Where) -> None:
        """A Swagger 2.0 list's `collectionFormat` (`csv` when not written) where it is no parameter's own, which
        is compared as the parameter's style: a list's items, a form field, a response header."""
        if "collectionFormat" not in old.schema and "collectionFormat" not in new.schema:
            return
        part = where.context.part
        if part is not None and part.kind == "parameter" and not where.context.field:
            return
        self.value("collectionFormat", old.schema.get("collectionFormat", "csv"),
                   new.schema.get("collectionFormat", "csv"), old, new, where)

    def _carried_as_xml(self, old: Side, new: Side, where: Where) -> bool:
        """Whether an XML body carries the place, in either version: the body being compared is one, or the named
        schema holding the place is carried by one (graph.model)."""
        if where.xml:
            return True
        old_home = self.old_normal.resolver.home(old.document, old.pointer)
        new_home = self.new_normal.resolver.home(new.document, new.pointer)
        return bool(old_home and old_home[0] in self.old.schemas and self.old.carried_as_xml(old_home[0])
                    or new_home and new_home[0] in self.new.schemas and self.new.carried_as_xml(new_home[0]))

    def _only_in_parameters(self, new: Side, where: Where) -> bool:
        """Whether requests carry the place only as parameter values, never in a body (graph.model): what the
        named schema holding it is used as, else the part of the operation that writes it."""
        home = self.new_normal.resolver.home(new.document, new.pointer)
        if home is not None:
            return self.new.only_parameters_write(home[0])
        part = where.context.part
        return part is not None and part.kind == "parameter"

    def _enum(self, old: Side, new: Side, where: Where) -> None:
        """Enum values from `enum`, or from the "Possible enum values:" list a live Kubernetes spec documents."""
        old_enum, new_enum = enum_values(old.schema), enum_values(new.schema)
        if old_enum is None and new_enum is None:
            return
        if old_enum is None or new_enum is None:
            kind = "added" if new_enum is not None else "removed"
            enforced = kind == "added" and self.ecosystem.schema_validates and isinstance(new.schema.get("enum"), list)
            said = said_values(old.schema, new_enum) if kind == "added" else None
            listed, values = (new, new_enum) if kind == "added" else (old, old_enum)
            every = {"every_value": True} if _every_value(listed.schema, values) else {}
            self.emit(change(kind, "schema", "enum", old=old_enum, new=new_enum, where=where,
                             old_pointer=_enum_pointer(old) if kind == "removed" else None,
                             new_pointer=_enum_pointer(new) if kind == "added" else None, enforced=enforced,
                             **({"evidence": said} if said else {}), **every))
            return
        old_keys, new_keys = by_value(old_enum), by_value(new_enum)
        added, removed, _ = keyed_difference(old_keys, new_keys)
        # a branch of an `anyOf` beside one that takes any value of its type: the list names known values
        left_open = {"open": True} if new.pointer in self._open_enums else {}
        left_open.update(_example_shows(old_enum, new_enum, where))
        for key in added:
            value = new_enum[new_keys[key]]
            self.emit(change("added", "enum-value", "enum", new=value, where=where, old_pointer=_enum_pointer(old),
                             new_pointer=_enum_pointer(new, new_keys[key]), value=value, **left_open))
        deprecated = {canonical(value) for value in deprecated_enum_values(old.schema)}
        for key in removed:
            value = old_enum[old_keys[key]]
            self.emit(change("removed", "enum-value", "enum", old=value, where=where,
                             old_pointer=_enum_pointer(old, old_keys[key]), new_pointer=_enum_pointer(new),
                             value=value, deprecated=key in deprecated, **left_open))

    def _properties(self, old: Side, new: Side, where: Where) -> None:
        old_props = mapping(old.schema.get("properties"))
        new_props = mapping(new.schema.get("properties"))
        old_required, new_required = required_set(old.schema), required_set(new.schema)
        for name, schema in new_props.items():
            if self.equal_means_unchanged and old_props.get(name, MISSING) == schema:
                continue  # (as `compare` would, before a pointer and a place are made for it)
            pointer = new.property_pointer(name)
            if name not in old_props:
                at = self._placed(where.at("." + name), None, Side(schema, pointer, new.document))
                self.emit(change("added", "property", new=schema, where=at, new_pointer=pointer, name=name,
                                 required=name in new_required, already_required=name in old_required,
                                 read_only=bool(isinstance(schema, dict) and schema.get("readOnly")),
                                 **_lifecycle_facts(schema)))
                if isinstance(schema, dict):
                    self.introduced(Side(schema, pointer, new.document), at)
            elif isinstance(schema, dict) and isinstance(old_props[name], dict):
                old_pointer = old.property_pointer(name)
                before = old_props[name]
                if name in new_required and before.get("readOnly") is True and not schema.get("readOnly") \
                        and self._real(where).direction != "response":
                    before = self._now_written(before, old_pointer, new.pointer, name, where)
                # (found to differ above, unless `before` was rewritten: not compared for equality again)
                differing = self.compare_differing if self.equal_means_unchanged and before is old_props[name] \
                    else self.compare
                differing(Side(before, old_pointer, old.document), Side(schema, pointer, new.document),
                          where.at("." + name))
        for name, schema in old_props.items():
            if name not in new_props:
                old_pointer = old.property_pointer(name)
                at = self._placed(where.at("." + name), Side(schema, old_pointer, old.document), None)
                self.emit(change("removed", "property", old=schema, where=at, old_pointer=old_pointer, name=name,
                                 required=name in old_required, **_lifecycle_facts(schema),
                                 **_deprecation_facts(schema), **self._in_deprecated(old, new),
                                 **_read_only(schema), **self._kept_by_branch(new, name)))
        for name in sorted(new_required - old_required):
            if name in old_props or name not in new_props:
                at = self._read_or_written(where.at("." + name), old, new, name)
                self.emit(change("modified", "property", "required", old=False, new=True, where=at,
                                 old_pointer=keyword_pointer(old, "required"),
                                 new_pointer=keyword_pointer(new, "required"), name=name,
                                 evidence=self._already_required(old, name)))
        for name in sorted(old_required - new_required):
            if name in new_props or name not in old_props:
                at = self._read_or_written(where.at("." + name), old, new, name)
                self.emit(change("modified", "property", "required", old=True, new=False, where=at,
                                 old_pointer=keyword_pointer(old, "required"),
                                 new_pointer=keyword_pointer(new, "required"),
                                 name=name, evidence=self._still_written(old, name),
                                 undefined=_never_defined(old.schema, name)))

    def _in_deprecated(self, old: Side, new: Side) -> dict[str, Any]:
        """`in_deprecated` when a property marked deprecated, on either side, is or holds the changed place: the
        change goes with the deprecated one (GitHub's gist `forks`, deprecated as its items lost their fields)."""
        held = (self.old.deprecated_at(old.document, old.pointer) or self.new.deprecated_at(new.document, new.pointer))
        return {"in_deprecated": True} if held else {}

    # -- what the old text already said about a field whose `required` changed (specdiff.diff.evidence) -------
    def _already_required(self, old: Side, name: str) -> str | None:
        """The old spec's words that made the field required before the marker: its description, or (for an
        API server's own types, read into Go structs) its type's own required fields."""
        field = mapping(old.schema.get("properties")).get(name)
        if not isinstance(field, dict):
            return None
        said = said_required(field)
        if said or not self.ecosystem.builtin_types:
            return said
        keys = self._merge_keys().get((old.document, old.pointer), {})
        if name in keys:
            return keys[name]
        node = self.old_normal.node(*self.old_normal.unwrap(field, old.property_pointer(name)), old.document)
        named = self.old.schemas.get(node.named) if node.named is not None else None
        return empty_already_invalid(node.named, named.schema) if named and node.named else None

    def _merge_keys(self) -> dict[tuple[Document, str], dict[str, str]]:
        """The old spec's lists merged by a field of their items (specdiff.diff.evidence.merge_keys), by where
        each named type is written, read once."""
        if self._keys is None:
            keys = merge_keys(self.old.schemas)
            self._keys = {(named.document, named.pointer): keys[name] for name, named in self.old.schemas.items()
                          if name in keys}
        return self._keys

    def _still_written(self, old: Side, name: str) -> str | None:
        """The old spec's words that say the server defaults or populates the field, so readers still see it."""
        field = mapping(old.schema.get("properties")).get(name)
        if not isinstance(field, dict):
            return None
        default = _given(field, "default", self.zero_default_is_implied)
        return said_written(field, None if default is MISSING else default)

    def _now_written(self, before: Schema, old_pointer: str, new_pointer: str, name: str, where: Where) -> Schema:
        """A required property that stops being read-only: requests never carried it (the required list binds
        only responses while it is read-only), and now every request must. That is the change writers meet,
        reported as the property becoming required in requests; the property is compared without its old
        `readOnly`, so the same change is not reported again as a read-only field made writable."""
        at = Where(where.context.at("." + name), where.direction if unreached(where.direction) else "request",
                   where.operation_kind)
        self.emit(change("modified", "property", "required", old=False, new=True, where=at,
                         old_pointer=old_pointer + "/readOnly", new_pointer=new_pointer + "/required", name=name,
                         was_read_only=True))
        return {key: value for key, value in before.items() if key != "readOnly"}

    # -- what the graph says about a place: its stability and direction ----------------------------------
    def _placed(self, where: Where, old: Side | None, new: Side | None) -> Where:
        """`where` as the graph places the sides: at the level the markers around the old side give (what
        existing users relied on; the new side's for an added field), and only read (or only written) when a
        read-only (write-only) field holds both sides."""
        old_at = self.old.located(old.document, old.pointer) if old else None
        new_at = self.new.located(new.document, new.pointer) if new else None
        first = old_at or new_at
        stability = least_stable(where.context.stability, first[0]) if first else where.context.stability
        return self._directed(where, stability, old_at, new_at)

    def _read_or_written(self, where: Where, old: Side, new: Side, name: str) -> Where:
        """A field whose `required` changed is read or written as the field itself is on both sides."""
        if name not in mapping(old.schema.get("properties")) or name not in mapping(new.schema.get("properties")):
            return where
        return self._directed(where, where.context.stability,
                              self.old.located(old.document, old.property_pointer(name)),
                              self.new.located(new.document, new.property_pointer(name)))

    def _directed(self, where: Where, stability: str, old_at: Located | None, new_at: Located | None) -> Where:
        """`where` at `stability`, read or written as the places `graph.located` says the sides are (a side
        that is not there neither restricts)."""
        _, old_read, old_written = old_at or _ANYWHERE
        _, new_read, new_written = new_at or _ANYWHERE
        direction = where.direction  # (read-only or not, what nothing uses stays unused or cut off)
        if old_read and new_read and direction != "request" and not unreached(direction):
            direction = "response"
        elif old_written and new_written and direction != "response" and not unreached(direction):
            direction = "request"
        if stability == where.context.stability and direction == where.direction:
            return where
        return Where(where.context if stability == where.context.stability
                     else refilled(where.context, stability=stability), direction, where.operation_kind, where.xml,
                     where.form, where.example)

    def single(self, keyword: str, suffix: str, old: Side, new: Side, where: Where, presence: bool = True) -> None:
        """A subschema keyword: compare both subschemas, or report one that appeared or vanished."""
        o, n = old.schema.get(keyword), new.schema.get(keyword)
        if isinstance(o, dict) and isinstance(n, dict):
            self.compare(Side(o, old.place(keyword), old.document), Side(n, new.place(keyword), new.document),
                         where.at(suffix))
        elif presence and (isinstance(o, dict) or isinstance(n, dict)):
            self.value(keyword, o if o is not None else MISSING, n if n is not None else MISSING, old, new,
                        where)

    def _additional_properties(self, old: Side, new: Side, where: Where) -> None:
        """Extra properties: any (absent or true), none (false), or those a schema accepts."""
        o, n = old.schema.get("additionalProperties"), new.schema.get("additionalProperties")
        if isinstance(o, dict) and isinstance(n, dict):
            self.single("additionalProperties", "{}", old, new, where)
            return
        allowed_old = o if isinstance(o, dict) else o is not False
        allowed_new = n if isinstance(n, dict) else n is not False
        if allowed_old is not allowed_new:
            said = said_text_values(old.schema, allowed_new) if allowed_old is True else None
            self.emit(change("modified", "schema", "additionalProperties", old=allowed_old, new=allowed_new,
                             where=where,
                             old_pointer=keyword_pointer(old, "additionalProperties"),
                             new_pointer=keyword_pointer(new, "additionalProperties"),
                             **({"evidence": said} if said else {})))

    def _union_against_plain(self, old: Side, new: Side, where: Where) -> bool:
        """A plain schema that became an `anyOf`/`oneOf` (or the reverse) is compared with its closest member.

        The other members are reported as added (or removed), so `{type: string}` becoming
        `{anyOf: [{type: string}, {enum: [""]}]}` is one new member, not a lost type and two new members.
        """
        if not (_lists_members(old.schema) or _lists_members(new.schema)):
            return False  # (most pairs: no list of members on either side)
        for keyword in ("anyOf", "oneOf", "items"):
            old_members, new_members = _union_members(old, keyword), _union_members(new, keyword)
            if isinstance(old_members, list) == isinstance(new_members, list):
                continue
            union, plain = (new, old) if isinstance(new_members, list) else (old, new)
            if any(isinstance(_union_members(plain, k), list) for k in ("anyOf", "oneOf", "items")):
                return False
            types = _branch_types(union.schema.get(keyword), keyword) if isinstance(plain.schema.get("type"), list) \
                else None
            if types is not None:  # `type: [string, "null"]` written as `anyOf: [{type: string}, {type: "null"}]`
                listed = Side({**{k: v for k, v in union.schema.items() if k != keyword}, "type": types},
                              union.pointer, union.document)
                self._keywords(*((plain, listed) if union is new else (listed, plain)), where)
                return True
            values = _branch_enums(union.schema.get(keyword), keyword) if "enum" in plain.schema else None
            if values is not None:  # `enum: [a, b, null]` written as `oneOf: [{enum: [a, b]}, {enum: [null]}]`
                listed = Side({**{k: v for k, v in union.schema.items() if k != keyword}, "enum": values},
                              union.pointer, union.document)
                self._keywords(*((plain, listed) if union is new else (listed, plain)), where)
                return True
            normal = self.new_normal if union is new else self.old_normal
            members = self._members(keyword, union, normal, rename=union is old)
            if not members:
                return False
            rest = {k: v for k, v in union.schema.items() if k != keyword}
            if keyword != "items" and _constrains(rest, members, union.document.dialect):
                self._constraint_union(keyword, plain, union, rest, members, where, added=union is new)
                return True
            closest = self._closest(plain, members, normal, union.document)
            pointer, member = members[closest]
            lifted = Side(overlay(member, rest) if rest else member, pointer, union.document)
            kinds: set[str] = set()
            if union is new:
                # (kept for an object split the same way that holds this one: its removed fields are noted after)
                outer = self._elsewhere, self._moved_out, self._elsewhere_at
                kinds = self._split_into_kinds(plain, union, members, closest)
                self.compare(plain, lifted, where)
                self._elsewhere, self._moved_out, self._elsewhere_at = outer
            else:
                self.compare(lifted, plain, where)
            if plain.document.dialect == "swagger-2.0" and union.document.dialect != "swagger-2.0":
                return True  # Swagger 2.0 has no oneOf/anyOf: its plain schema is how it writes this union
            shared = _shared_labels(members, {"#": ("", plain.schema)})
            forms = self.ecosystem.builtin_types and _scalar_forms(
                plain.schema, union.schema, [normal.target(m, at, union.document) for at, m in members.values()])
            for key, (pointer, schema) in members.items():
                if key != closest:
                    kind = "added" if union is new else "removed"
                    self.emit(change(kind, "schema", "anyOf" if keyword == "items" else keyword,
                                     old=None if kind == "added" else key,
                                     new=key if kind == "added" else None, where=where,
                                     old_pointer=pointer if kind == "removed" else None,
                                     new_pointer=pointer if kind == "added" else None,
                                     member=_member_label(key, schema, shared, pointer),
                                     plain_format=plain.schema.get("format"),
                                     scalar_forms=forms,
                                     **self._branch_facts(keyword, key, union, members) if kind == "added" else {},
                                     **({"kind_of_plain": True} if key in kinds else {}),
                                     **_named_only(keyword, key, union, members),
                                     **({"expansion": True} if kind == "added" and _newly_expandable(
                                         key, plain.schema, union.schema) else {})))
            return True
        return False

    def _constraint_union(self, keyword: str, plain: Side, union: Side, rest: Schema,
                          members: dict[str, tuple[str, Schema]], where: Where, added: bool) -> None:
        """A `oneOf`/`anyOf` that came (or went) beside a schema's own type, each branch only narrowing that
        schema: the schema is compared without it, and the union is one constraint added (or removed)."""
        base = Side(rest, union.pointer, union.document)  # the same place: its keywords, compared here
        if rest != plain.schema:
            old, new = (plain, base) if added else (base, plain)
            self._keywords(old, new, where)
        count = len(members)
        condition = f"{'exactly one' if keyword == 'oneOf' else 'at least one'} of {count} conditions ({keyword})"
        pointer = f"{union.pointer}/{keyword}"
        # an `anyOf` one of whose branches the old schema already demanded holds for every value valid before
        implied = added and keyword == "anyOf" and any(_implies(plain.schema, member) for _, member in members.values())
        branches = union.schema[keyword]  # the union as written: two unions of as many branches are two changes
        self.emit(change("added" if added else "removed", "schema", keyword, old=None if added else branches,
                         new=branches if added else None, where=where, old_pointer=None if added else pointer,
                         new_pointer=pointer if added else None, constrains=True, condition=condition,
                         implied=implied, evidence=said_conditions(plain.schema, keyword, branches) if added else None))

    def _split_into_kinds(self, plain: Side, union: Side, members: dict[str, tuple[str, Schema]], closest: str
                          ) -> set[str]:
        """A plain object that became a union of objects, one per kind of it, none carrying all its properties: the
        branches that describe the properties they share with the old object as it did (only adding their own), a
        value of each being a value of the old object. The old properties the closest branch lacks and another
        carries (or a new union's kind, `_kinds_moved_out`) are noted for the comparison with the closest one that
        follows, as kept there rather than removed."""
        plain_props = mapping(plain.schema.get("properties"))
        if not plain_props or plain.schema.get("type", "object") != "object":
            return set()
        branches = {key: self._resolved(Side(m, at, union.document), self.new_normal)
                    for key, (at, m) in members.items()}
        closest_props = mapping(branches[closest].schema.get("properties"))
        self._elsewhere = {}
        for key, branch in branches.items():
            for name in mapping(branch.schema.get("properties")):
                if key != closest and name in plain_props and name not in closest_props:
                    self._elsewhere.setdefault(name, key)
        carried = {name for branch in branches.values() for name in mapping(branch.schema.get("properties"))}
        self._moved_out = self._kinds_moved_out(set(plain_props) - carried, branches, union.document)
        if self._elsewhere or self._moved_out:
            self._elsewhere_at = branches[closest].pointer
        if any(set(plain_props) <= set(mapping(branch.schema.get("properties"))) for branch in branches.values()):
            return set()  # the old object is still one branch: the others are new shapes beside it
        return {key for key, branch in branches.items() if self._kind_of(plain, branch)}

    def _kinds_moved_out(self, names: set[str], branches: dict[str, Side], doc: Document) -> dict[str, str]:
        """The old properties no kind of the split object carries that a union new to the spec, sharing kinds with
        it, holds in a kind of its own: those kinds moved to that union (the schema of another operation that
        used the old object), and this one no longer sends them. By property, the union."""
        if not names:
            return {}
        kinds = {branch.pointer for branch in branches.values()}
        moved: dict[str, str] = {}
        for named in self.new.schemas.values():
            others = named.schema.get("anyOf", named.schema.get("oneOf"))
            if named.name in self.old.schemas or named.document is not doc or not isinstance(others, list):
                continue
            resolved = [self._resolved(Side(o, f"{named.pointer}/x/{i}", doc), self.new_normal)
                        for i, o in enumerate(others) if isinstance(o, dict)]
            if not kinds & {branch.pointer for branch in resolved}:
                continue
            for branch in resolved:
                for name in mapping(branch.schema.get("properties")):
                    if name in names and branch.pointer not in kinds:
                        moved.setdefault(name, named.name)
        return moved

    def _kind_of(self, plain: Side, branch: Side) -> bool:
        """Whether every value of the object `branch` is a value of the object `plain`: each property both name
        has the same types on both, the old object's required ones are there, and the old took other properties."""
        props, plain_props = mapping(branch.schema.get("properties")), mapping(plain.schema.get("properties"))
        if plain.schema.get("additionalProperties") is False or not props or \
                not required_set(plain.schema) <= set(props):
            return False
        for name in set(props) & set(plain_props):
            old = self._resolved(Side(plain_props[name], plain.property_pointer(name), plain.document),
                                 self.old_normal).schema
            new = self._resolved(Side(props[name], branch.property_pointer(name), branch.document),
                                 self.new_normal).schema
            if not isinstance(old, dict) or not isinstance(new, dict) or \
                    type_set(old, plain.document.dialect) != type_set(new, branch.document.dialect):
                return False
        return True

    def _kept_by_branch(self, new: Side, name: str) -> dict[str, Any]:
        """The branch that still carries a property of a plain object that became a union of its kinds."""
        if new.pointer != self._elsewhere_at:
            return {}
        if name in self._elsewhere:
            return {"in_other_branch": self._elsewhere[name]}
        return {"moved_to_union": self._moved_out[name]} if name in self._moved_out else {}

    def _closest(self, plain: Side, members: dict[str, tuple[str, Schema]], normal: Normaliser,
                 doc: Document) -> str:
        """The member that reads most like `plain`: equal, else of the same type, else the first."""
        wanted = type_set(plain.schema, plain.document.dialect)
        same_type = None
        for key, (pointer, member) in members.items():
            target = normal.target(member, pointer, doc)
            if target == plain.schema:
                return key
            if same_type is None and type_set(target, doc.dialect) == wanted:
                same_type = key
        return same_type or next(iter(members))

    def _composition(self, keyword: str, old: Side, new: Side, where: Where, was: str | None = None
                     ) -> dict[str, str]:
        """Compare the members of an `allOf`, `oneOf` or `anyOf` paired by meaning (`_paired`); the others are
        added or removed. `was` is the keyword the old side wrote them under when it was the other union
        (`_switched_union`). Returns the pairs, old key -> new key."""
        was = was or keyword
        if was not in old.schema and keyword not in new.schema:
            return {}  # most schemas: no composition to pair
        old_members = self._members(was, old, self.old_normal, rename=True)
        new_members = self._members(keyword, new, self.new_normal, rename=False)
        pairs = self._paired(keyword, old, new, old_members, new_members)
        label = "" if keyword == "allOf" else f"<{keyword}>"
        open_types = _open_types(was, old, old_members) & _open_types(keyword, new, new_members)
        for old_key, key in pairs.items():
            (old_pointer, old_schema), (pointer, schema) = old_members[old_key], new_members[key]
            old_side, new_side = Side(old_schema, old_pointer, old.document), Side(schema, pointer, new.document)
            if old_key != key:  # the same branch under another name, or spelt inline: compare what it says
                old_side = self._resolved(old_side, self.old_normal)
                new_side = self._resolved(new_side, self.new_normal)
            types = type_set(schema, new.document.dialect)
            listing = bool(types) and types <= open_types
            if listing:
                self._open_enums.add(new_side.pointer)
            self.compare(old_side, new_side, where.at(label))
            self._open_enums.discard(new_side.pointer)
        self._member_notes(keyword, old, new, old_members, new_members, pairs, where)
        return pairs

    def _union_switched(self, was: str, now: str, old: Side, new: Side, where: Where) -> None:
        """A union written with the other keyword (`anyOf` became `oneOf`, or back): one change, with whether a
        value may match two of the new branches, the only values the two keywords judge apart."""
        from specdiff.diff.compositions import may_overlap  # (imported by the few pairs whose compositions differ)

        members = self._members(now, new, self.new_normal, rename=False)
        targets = [self.new_normal.target(member, at, new.document) for at, member in members.values()]
        overlaps = "discriminator" not in new.schema and any(
            may_overlap(a, b) for i, a in enumerate(targets) for b in targets[i + 1:])
        self.emit(change("modified", "schema", now, old=was, new=now, where=where,
                         old_pointer=f"{old.pointer}/{was}", new_pointer=f"{new.pointer}/{now}", overlaps=overlaps))

    def _member_notes(self, keyword: str, old: Side, new: Side, old_members: dict[str, tuple[str, Schema]],
                      new_members: dict[str, tuple[str, Schema]], pairs: dict[str, str], where: Where) -> None:
        """The members that pair with none: added (with what a new `oneOf` branch overlaps) or removed."""
        paired = set(pairs.values())
        shared = _shared_labels(old_members, new_members)
        for key, (pointer, schema) in new_members.items():
            if key not in paired:
                facts = self._branch_facts(keyword, key, new, new_members) | _named_only(keyword, key, new, new_members)
                if _newly_expandable(key, old.schema, new.schema):
                    facts["expansion"] = True
                self.emit(change("added", "schema", keyword, new=key, where=where, new_pointer=pointer,
                                 member=_member_label(key, schema, shared, pointer), **facts))
        for key, (pointer, schema) in old_members.items():
            if key not in pairs:
                self.emit(change("removed", "schema", keyword, old=key, where=where, old_pointer=pointer,
                                 member=_member_label(key, schema, shared, pointer)))

    def _paired(self, keyword: str, old: Side, new: Side, old_members: dict[str, tuple[str, Schema]],
                new_members: dict[str, tuple[str, Schema]]) -> dict[str, str]:
        """Old member key -> new member key for the members that are the same branch: the same named schema;
        then, in a union with a discriminator, the schemas one discriminator value selects; then a `$ref` and an
        inline schema (or two) that say the same; then members of the same types, in order, two inline ones
        first (two named schemas are two types), unless one named schema went and another came sharing most of
        its properties (a schema renamed). Position alone pairs nothing: a branch inserted before the others is an
        added branch, not every branch changed."""
        pairs = {key: key for key in old_members if key in new_members and not key.startswith("#")}

        def pair(old_key: str, new_key: str) -> None:
            if old_key not in pairs and new_key not in pairs.values():
                pairs[old_key] = new_key

        if keyword != "allOf":
            old_values = _discriminator(old.schema, lambda name: self.names.get(name, name))
            new_values = _discriminator(new.schema, lambda name: name)
            if isinstance(old_values, dict) and isinstance(new_values, dict):
                for value, old_key in old_values["mapping"].items():
                    new_key = new_values["mapping"].get(value)
                    if old_key in old_members and new_key in new_members:
                        pair(old_key, new_key)
        old_targets = {key: self.old_normal.target(m, at, old.document) for key, (at, m) in old_members.items()}
        new_targets = {key: self.new_normal.target(m, at, new.document) for key, (at, m) in new_members.items()}

        def kind(targets: dict[str, Schema], key: str, dialect: str) -> tuple[Any, ...]:
            return tuple(sorted(type_set(targets[key], dialect))), nullable(targets[key])

        # each tier pairs by a key (written alike, say the same, the same types): the new members are indexed
        # by it once, so thousands of branches pair in linear time, each old member with the first new one
        # not yet taken, in order
        tiers: list[tuple[Callable[[str], Any], Callable[[str], Any], Callable[[str], bool]]] = [
            (lambda a: canonical(old_members[a][1]), lambda b: canonical(new_members[b][1]), lambda a: True),
            (lambda a: canonical(old_targets[a]), lambda b: canonical(new_targets[b]), lambda a: True),
            (lambda a: kind(old_targets, a, old.document.dialect) if a.startswith("#") else None,
             lambda b: kind(new_targets, b, new.document.dialect) if b.startswith("#") else None, lambda a: True),
            (lambda a: kind(old_targets, a, old.document.dialect),
             lambda b: kind(new_targets, b, new.document.dialect), lambda a: a.startswith("#"))]
        for old_key_of, new_key_of, any_new in tiers:  # each member pairs once: the most telling tier wins
            waiting = [k for k in old_members if k not in pairs]
            if not waiting:
                break
            taken = set(pairs.values())
            index: dict[Any, deque[str]] = {}
            inline: dict[Any, deque[str]] = {}
            for key in new_members:
                if key not in taken and (found := new_key_of(key)) is not None:
                    index.setdefault(found, deque()).append(key)
                    if key.startswith("#"):
                        inline.setdefault(found, deque()).append(key)
            for old_key in waiting:
                found = old_key_of(old_key)
                queue = (index if any_new(old_key) else inline).get(found) if found is not None else None
                while queue and queue[0] in taken:
                    queue.popleft()
                if queue:
                    pairs[old_key] = queue.popleft()
                    taken.add(pairs[old_key])
        # one named schema under a new name: of the named members left unpaired, an old one gone from the new
        # spec and a new one absent from the old that share at least half of the larger's properties and are of
        # the same types (`B` became `Bee`); few are left by now, and past _RENAMES candidate pairs none is tried.
        # A union that swaps its one named branch for a new schema renames it too, though the old schema stays for
        # other places (Stripe's card `three_d_secure` from `three_d_secure_details` to a copy with one value more)
        counterparts = set(self.names.values())
        taken = set(pairs.values())
        named_old = [a for a in old_members if a not in pairs and not a.startswith("#")]
        left_new = [b for b in new_members if b not in taken and not b.startswith("#") and b not in counterparts]
        swapped = len(named_old) == len(left_new) == 1 and left_new[0] not in self.old.schemas
        left_old = [a for a in named_old if swapped or a not in self.new.schemas]
        if len(left_old) * len(left_new) <= _RENAMES:
            for a in left_old:
                old_names = set(mapping(old_targets[a].get("properties")))
                for b in left_new:
                    new_names = set(mapping(new_targets[b].get("properties")))
                    larger = max(len(old_names), len(new_names))
                    if b not in taken and larger > 0 and 2 * len(old_names & new_names) >= larger and kind(
                            old_targets, a, old.document.dialect) == kind(new_targets, b, new.document.dialect):
                        pair(a, b)
                        taken.add(b)
                        break
        return pairs

    def _read_as_one(self, old: Side, new: Side, where: Where) -> bool:
        """Compare two schemas as their `allOf` parts read as one, each keyword and property where it is written,
        when one is not an `allOf` or their parts do not all pair: a part added, dropped or split in two is
        judged by what the whole schema now says, not as removed properties and new parts. The parts that
        came or went are noted. False (compare part by part) when every part pairs, or when a part holds a
        union (unions pair member by member)."""
        old_parts, new_parts, pairs = {}, {}, {}
        if "allOf" in old.schema and "allOf" in new.schema:
            old_parts = self._members("allOf", old, self.old_normal, rename=True)
            new_parts = self._members("allOf", new, self.new_normal, rename=False)
            pairs = self._paired("allOf", old, new, old_parts, new_parts)
            if len(pairs) == len(old_parts) == len(new_parts):
                return False
        joined_old, joined_new = self._joined(old, self.old_normal), self._joined(new, self.new_normal)
        if any(k in side.schema for side in (joined_old, joined_new) for k in ("oneOf", "anyOf")):
            return False
        self._keywords(joined_old, joined_new, where)
        self._member_notes("allOf", old, new, old_parts, new_parts, pairs, where)
        return True

    def _joined(self, side: Side, normal: Normaliser) -> Side:
        """A schema as one: its `allOf` parts joined (each property where it is written), past its `$ref`s."""
        side = self._resolved(side, normal)
        if not isinstance(side.schema.get("allOf"), list):
            return side

        def part(schema: Schema, pointer: str) -> tuple[Schema, str]:
            node = normal.node(schema, pointer, side.document)
            return node.schema, node.pointer if node.document is side.document else pointer

        from specdiff.diff.compositions import composed

        schema, places = composed(side.schema, side.pointer, part)
        return Side(schema, side.pointer, side.document, places)

    def _resolved(self, side: Side, normal: Normaliser) -> Side:
        """A member as the schema its `$ref`s lead to, where that schema is written."""
        node = normal.node(side.schema, side.pointer, side.document)
        return Side(node.schema, node.pointer, node.document)

    # -- what an added allOf part or oneOf branch brings (specdiff.diff.compositions) ---------------
    def _branch_facts(self, keyword: str, key: str, union: Side, members: dict[str, tuple[str, Schema]]
                      ) -> dict[str, Any]:
        """For a `oneOf` branch added: whether a value may match it and another branch (no discriminator). The
        union's branches are indexed once for all the branches added to it (`Overlaps`)."""
        if keyword != "oneOf" or "discriminator" in union.schema:
            return {}
        if self._overlaps is None or self._overlaps[0] is not members:
            from specdiff.diff.compositions import Overlaps

            self._overlaps = (members, Overlaps({name: self.new_normal.target(branch, at, union.document)
                                                 for name, (at, branch) in members.items()}))
        return {"overlaps": self._overlaps[1].any_besides(key)}

    def _members(self, keyword: str, side: Side, normal: Normaliser, rename: bool) -> dict[str, tuple[str, Schema]]:
        members = side.schema.get(keyword)
        if not isinstance(members, list):
            return {}
        found: dict[str, tuple[str, Schema]] = {}
        inline = 0
        for i, member in enumerate(members):
            if not isinstance(member, dict):
                continue
            pointer = f"{side.pointer}/{keyword}/{i}"
            name = normal.node(member, pointer, side.document).named if isinstance(member.get("$ref"), str) else None
            if name is not None:
                found[self.names.get(name, name) if rename else name] = (pointer, member)
            else:
                found[f"#{inline}"] = (pointer, member)
                inline += 1
        return found


def _constrains(rest: Schema, members: dict[str, tuple[str, Schema]], dialect: str) -> bool:
    """Whether a union's branches only narrow the object written beside them (Gateway API's address: an object
    of `type` and `value`, with `oneOf: [{type: IPAddress, value: an IP}, {type: anything else}]`): the schema
    is an object of its own and no branch is a type of its own (no `type`, no `$ref`). A scalar's branches
    (`oneOf: [{enum: [a, b]}, {enum: [null]}]`) list its values, and are compared as alternatives."""
    is_object = "properties" in rest or "object" in type_set(rest, dialect)
    return is_object and all("type" not in member and "$ref" not in member for _, member in members.values())


def _implies(schema: Schema, branch: Schema) -> bool:
    """Whether every value `schema` accepts meets `branch`, read keyword by keyword: the fields it requires are
    required there, and each other keyword is written there alike (`required: [source]` meets `{required:
    [source]}`)."""
    required = set(required_set(schema))
    return bool(branch) and all(set(map(str, value)) <= required if key == "required" and isinstance(value, list)
                                else schema.get(key, MISSING) == value for key, value in branch.items())


#: what a branch may say and still take every value of its type: its type, nullable, and annotations
#: candidate pairs of renamed named members a union's pairing tries at most (each compares two property sets)
_RENAMES = 10_000
_OPEN_BRANCH = frozenset({"type", "nullable", *ANNOTATIONS - {"$ref"}})


def _open_types(keyword: str, side: Side, members: dict[str, tuple[str, Schema]]) -> frozenset[str]:
    """The scalar types an `anyOf` takes whole: those of its branches that say nothing but their type
    (`anyOf: [{type: string}, {type: string, enum: [gpt-4o, ...]}]`: any string, the enum naming known ones)."""
    if keyword != "anyOf":
        return frozenset()
    found: set[str] = set()
    for _, member in members.values():
        if "type" in member and member.keys() <= _OPEN_BRANCH:
            found |= type_set(member, side.document.dialect) & {"string", "integer", "number"}
    return frozenset(found)


def _named_only(keyword: str, key: str, union: Side, members: dict[str, tuple[str, Schema]]) -> dict[str, bool]:
    """`open` for an `anyOf` branch whose every value another branch already takes whole (a string enum beside
    `type: string`): it names known values and adds none."""
    types = type_set(members[key][1], union.document.dialect)
    others = {name: member for name, member in members.items() if name != key}
    return {"open": True} if types and types <= _open_types(keyword, union, others) else {}


def _lists_members(schema: Schema) -> bool:
    """Whether a schema writes a list under a keyword `_union_members` reads."""
    return isinstance(schema.get("anyOf"), list) or isinstance(schema.get("oneOf"), list) \
        or isinstance(schema.get("items"), list)


def _union_members(side: Side, keyword: str) -> Any:
    """The members of a union written with `keyword`. Swagger 2.0 and OpenAPI 3.0 have no tuples, so a list of
    `items` on a schema that is not an array is how some specs (Slack's) write "one of these": read as `anyOf`,
    a plain user object that became `{items: [user, enterprise user]}` keeps its properties."""
    if keyword != "items":
        return side.schema.get(keyword)
    if side.document.dialect in ("swagger-2.0", "openapi-3.0") and "array" not in type_set(
            side.schema, side.document.dialect):
        return side.schema.get("items")
    return None


def _every_value(schema: Schema, values: Any) -> bool:
    """Whether an enum lists every value of the schema's type: `[true, false]` on a boolean, which allows no
    less than the type does."""
    return schema.get("type") == "boolean" and isinstance(values, list) and \
        {v for v in values if isinstance(v, bool)} == {True, False}


def _unwrapped(side: Side, normal: Normaliser) -> Side:
    """`side` past an `allOf` of one part; as it is, with where each joined part writes what, when it has none."""
    schema, pointer = normal.unwrap(side.schema, side.pointer)
    return side if schema is side.schema else Side(schema, pointer, side.document)


def _plain(beside: Schema | None, target: Schema) -> Schema:
    """What is written beside a `$ref` apart from the x-kubernetes-* markers, which are compared as written, and
    apart from what the named schema it refers to says itself (`{type: object, $ref: ApiKey}` with `ApiKey` an
    object says no more than `{$ref: ApiKey}`)."""
    return {k: v for k, v in (beside or {}).items()
            if not k.startswith("x-kubernetes-") and target.get(k, MISSING) != v}


SCALAR_TYPES = ("string", "integer", "number", "boolean")


def _scalar_forms(plain: Schema, union: Schema, members: list[Schema]) -> bool:
    """A value of one scalar type written as a union of bare scalar types that includes it (`type: string` as
    `oneOf: [{type: string}, {type: number}]`): how an API server's spec lists the JSON forms one value is read
    in, with nothing else said about it on either side (asked only of API server types: in a CRD the schema is
    what validation enforces, so there the union is a real widening)."""
    def bare(schema: Schema, allowed: set[str]) -> bool:
        return not (schema.keys() - allowed - set(DOC_ATTRIBUTES))

    return (plain.get("type") in SCALAR_TYPES and bare(plain, {"type", "format"})
            and bare(union, {"oneOf", "anyOf", "format"}) and plain.get("type") in [m.get("type") for m in members]
            and all(member.get("type") in SCALAR_TYPES and bare(member, {"type"}) for member in members))


#: values an inline branch that lists them is named by, at most (Stripe's `{type: string, enum: [""]}`: "")
_NAMED_VALUES = 3


def _form_field(where: Where) -> dict[str, Any]:
    """`as_text` for a field of a form body, or the items of one that is a list: written as text
    (`count=5`), as a parameter's value is."""
    steps = where.context.field
    field = len(steps) == 1 or len(steps) == 2 and steps[1] == "[]"
    return {"as_text": True} if where.form and field and steps[0].startswith(".") else {}


def _shared_labels(*sides: dict[str, tuple[str, Schema]]) -> set[str]:
    """The types two union members share, on either side: saying one came or went tells a reader nothing of
    which one it was."""
    labels = [_member_label(key, schema) for members in sides for key, (_, schema) in members.items()]
    return {label for label in labels if labels.count(label) > 1}


def _member_label(key: str, schema: Schema, shared: frozenset[str] | set[str] = frozenset(), pointer: str = ""
                  ) -> str:
    """A named member by its name, an inline one by the few values it lists (the empty string a field now takes
    to clear it) or else by its type: `#1` means nothing to a reader. A type that another member has too
    (`shared`) says which one it is: `object {labels}`, `array of label`, `one of "a", "b", ...`, else by its
    place in the `allOf`, `anyOf` or `oneOf` (`object, alternative 3`, `part 2`)."""
    if not key.startswith("#"):
        return key
    values = [schema["const"]] if "const" in schema else schema.get("enum")
    if isinstance(values, list) and 0 < len(values) <= _NAMED_VALUES:
        named = [json.dumps(value) for value in values]
        return "the empty string" if named == ['""'] else " or ".join(named)
    kind = schema.get("type")
    label = kind + (f" ({schema['format']})" if isinstance(schema.get("format"), str) else "") \
        if isinstance(kind, str) else ""
    if label and label not in shared:
        return label
    described = _described(schema, label)
    if described:
        return described
    keyword, _, index = pointer.rpartition("/")
    place = f"{'part' if keyword.endswith('allOf') else 'alternative'} {int(index) + 1}" if index.isdigit() else key
    return f"{label}, {place}" if label else f"an inline schema ({place})"


def _described(schema: Schema, label: str) -> str:
    """An inline member by what it holds: the first of its many values (`_member_label` names a few), its
    properties, required fields or items; "" when it holds none of them."""
    values = schema.get("enum")
    if isinstance(values, list) and values:
        return f"one of {', '.join(json.dumps(value, default=str) for value in values[:_NAMED_VALUES])}, ..."
    names = list(mapping(schema.get("properties")))
    if names:
        return f"{label or 'object'} {_braced(names)}"
    if label == "object" and "properties" in schema and schema.get("additionalProperties") is False:
        return "the empty object"
    required = [str(name) for name in _listed(schema.get("required"))]
    if required:
        return f"{label or 'a value'} requiring {_braced(required)}"
    items = schema.get("items")
    if isinstance(items, dict):
        ref = items.get("$ref")
        inner = str(ref).rpartition("/")[2] if isinstance(ref, str) else _member_label("#", items)
        return f"{label or 'array'} of {inner}" if not inner.startswith("an inline") else ""
    return ""


def _braced(names: list[str]) -> str:
    """Field names as one item of a list, however many: `{a, b, c, ...}`."""
    return "{" + ", ".join(names[:3]) + (", ...}" if len(names) > 3 else "}")


#: what a branch may write beside its type and still say nothing but the type
_BARE_BRANCH = frozenset({"type", "title", "description"})


def _branch_enums(members: Any, keyword: str) -> list[Any] | None:
    """The values of a union whose branches each only list values (`oneOf: [{enum: [a, b]}, {enum: [null]}]`):
    one enum of them all; None for any other union, and for a `oneOf` that lists a value twice, which it refuses."""
    if keyword not in ("anyOf", "oneOf") or not isinstance(members, list) or not members:
        return None
    lists = [m["enum"] for m in members if isinstance(m, dict) and isinstance(m.get("enum"), list)
             and m.keys() <= {"enum", "title", "description"}]
    if len(lists) != len(members):
        return None
    values = [value for listed in lists for value in listed]
    if keyword == "oneOf" and len({canonical(value) for value in values}) < len(values):
        return None
    return values


def _branch_types(members: Any, keyword: str) -> list[str] | None:
    """The types of a union whose branches each say only a type (`anyOf: [{type: string}, {type: number}]`): the
    values of a type list; None for any other union, and for a `oneOf` whose branches a number may match two of
    (`integer` and `number`), which the list would take."""
    if keyword not in ("anyOf", "oneOf") or not isinstance(members, list) or not members:
        return None
    types = [m.get("type") for m in members if isinstance(m, dict) and m.keys() <= _BARE_BRANCH]
    if len(types) != len(members) or not all(isinstance(t, str) for t in types):
        return None
    if keyword == "oneOf" and {"integer", "number"} <= set(types):
        return None
    return [str(t) for t in types]


def _switched_union(old: Schema, new: Schema) -> tuple[str, str] | None:
    """(old keyword, new keyword) when a union's `anyOf` became a `oneOf`, or back, the other not written."""
    for was, now in (("anyOf", "oneOf"), ("oneOf", "anyOf")):
        if isinstance(old.get(was), list) and isinstance(new.get(now), list) and was not in new and now not in old:
            return was, now
    return None


def _read_only(schema: Any) -> dict[str, Any]:
    """`read_only` for a removed property marked read-only: requests never carried it."""
    return {"read_only": True} if isinstance(schema, dict) and schema.get("readOnly") is True else {}


def _text(value: Any) -> str:
    """A change's value as text that compares equal when the values are equal, whatever their key order."""
    return json.dumps(value, sort_keys=True, default=str)


def _worded_alike(keyword: str, old: Any, new: Any) -> bool:
    """Whether a keyword's values are written alike, or are descriptions reworded without listing an enum's values
    (`Possible enum values:`, read as the enum): what both passes over a pair accept of a keyword they do not
    follow."""
    if keyword == "description":
        return old == new or not (lists_enum(old) or lists_enum(new))
    return same_value(old, new)


def _side(node: Node) -> Side:
    return Side(node.schema, node.pointer, node.document)


def _composed(schema: Schema) -> bool:
    """An `allOf` of several parts, more than one of which says more than is written beside a `$ref`."""
    members = schema.get("allOf")
    return isinstance(members, list) and len(members) > 1 and lone_part(members) is None


def _never_defined(schema: Schema, name: str) -> bool:
    """Whether a schema's `required` names a property that it never defines, though it defines others and has no
    other part (`allOf`, `patternProperties`) that could: a slip in the list, with no field a client reads."""
    properties = mapping(schema.get("properties"))
    return bool(properties) and name not in properties and not any(
        key in schema for key in ("allOf", "anyOf", "oneOf", "patternProperties", "$ref", "dependentSchemas"))


def _example_shows(old_enum: list[Any] | None, new_enum: list[Any] | None, where: Where) -> dict[str, bool]:
    """`example_shows` when the old response example holds, at the place, a value the old list left out and the
    new one lists: the list is corrected to what the server was documented to send (Slack's error responses, whose
    `ok` was listed as `true` beside an example showing `false`)."""
    if not where.example or old_enum is None or new_enum is None:
        return {}
    shown = canonical(where.example[0])
    listed = {canonical(value) for value in old_enum}, {canonical(value) for value in new_enum}
    return {"example_shows": True} if shown not in listed[0] and shown in listed[1] else {}


def _given(schema: Schema, keyword: str, zero_default_is_implied: bool = False) -> Any:
    """A keyword's value, or MISSING when it is absent or says only what its absence says (`minLength: 0`,
    and with `zero_default_is_implied` a `default` that is its type's zero value)."""
    value = schema.get(keyword, MISSING)
    default = KEYWORD_DEFAULTS.get(keyword, MISSING)
    if type(value) is type(default) and value == default:
        return MISSING
    if keyword == "default" and zero_default_is_implied and value is not None and not value:
        return MISSING
    return value


#: bounds a value is held to, and whether a value meets one
_MEETS: dict[str, Callable[[Any, Any], bool]] = {
    "maxLength": lambda bound, value: isinstance(value, str) and len(value) <= bound,
    "minLength": lambda bound, value: isinstance(value, str) and len(value) >= bound,
    "pattern": lambda bound, value: isinstance(value, str) and re.search(bound, value) is not None,
    "maximum": lambda bound, value: _is_number(value) and value <= bound,
    "minimum": lambda bound, value: _is_number(value) and value >= bound,
}


def _enum_within(keyword: str, bound: Any, schema: Schema) -> bool:
    """Whether the schema's `enum` lists every value it takes and each met the old `bound` of `keyword`: the
    bound goes, but nothing outside it can come (Stripe dropping `maxLength: 5000` from a field that became an
    enum of short names). A null the schema allows meets every bound, as JSON Schema applies none to it."""
    meets, values = _MEETS.get(keyword), schema.get("enum")
    if meets is None or not isinstance(values, list) or not values or bound is MISSING:
        return False
    try:
        return all(value is None or meets(bound, value) for value in values)
    except (TypeError, ValueError, re.error):  # a bound of another type, a pattern Python cannot read
        return False


#: Stripe's list of the objects an ID field expands to when a request asks (`expand[]=field`)
EXPANSIONS = "x-expansionResources"


def _newly_expandable(key: str, old: Schema, new: Schema) -> bool:
    """Whether the branch `key` is an object the field is only sent as when a request asks to expand it, on a
    field no request could expand before: clients that never ask keep getting the ID."""
    listed = new.get(EXPANSIONS)
    if EXPANSIONS in old or not isinstance(listed, dict):
        return False
    refs = [branch.get("$ref") for keyword in ("oneOf", "anyOf") for branch in _listed(listed.get(keyword))
            if isinstance(branch, dict)]
    return any(isinstance(ref, str) and _last_segment(ref) == key for ref in refs)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _enum_pointer(side: Side, index: int | None = None) -> str:
    """`enum` (or one of its values), else the description that documents the values."""
    if not isinstance(side.schema.get("enum"), list):
        return side.pointer + "/description"
    return f"{side.pointer}/enum" if index is None else f"{side.pointer}/enum/{index}"


def _lifecycle_facts(schema: Any) -> dict[str, Any]:
    """What a field's KEP-2558 marker says, for the rules on added and removed fields."""
    lifecycle = lifecycle_of(schema) if isinstance(schema, dict) else None
    if lifecycle is None or lifecycle.status in (None, "stable"):
        return {}
    return {"lifecycle": lifecycle.status, "feature_gate": lifecycle.feature_gate,
            "min_version": lifecycle.min_version}


def _types(types: frozenset[str]) -> str | list[str] | None:
    if not types:
        return None
    return next(iter(types)) if len(types) == 1 else sorted(types)


def _discriminator(schema: Schema, member: Callable[[str], str]) -> Any:
    """A discriminator as its property and the value -> member it selects: its `mapping`, and each named member
    it does not map by its own name (the value OpenAPI implies). Targets are compared by what they select, as
    `member` names it (an old member by the new member paired with it), not by how the `$ref` is spelt."""
    value = schema.get("discriminator", MISSING)
    if not isinstance(value, dict):
        return value
    explicit = mapping(value.get("mapping"))
    mapped = {_last_segment(target) for target in explicit.values() if isinstance(target, str)}
    selects = {name: member(name) for name in _member_names(schema) if name not in mapped}
    selects.update({key: member(_last_segment(target)) for key, target in explicit.items() if isinstance(target, str)})
    read = {"propertyName": value.get("propertyName"), "mapping": dict(sorted(selects.items()))}
    default = value.get("defaultMapping")  # OpenAPI 3.2: the member a value without the property (or unmapped) is
    if isinstance(default, str):
        read["defaultMapping"] = member(_last_segment(default))
    return read


def _member_names(schema: Schema) -> list[str]:
    """The names of the schemas a `oneOf` or `anyOf` refers to (none when the keyword holds no list)."""
    return [_last_segment(m["$ref"]) for keyword in ("oneOf", "anyOf") for m in _listed(schema.get(keyword))
            if isinstance(m, dict) and isinstance(m.get("$ref"), str)]


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _last_segment(ref: str) -> str:
    """`Cat` from `#/components/schemas/Cat` or `Cat`: a discriminator mapping may give a name or a reference."""
    return ref.rpartition("/")[2]
