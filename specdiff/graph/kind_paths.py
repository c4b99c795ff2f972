"""Where a Kubernetes type sits inside the kinds that hold it, so a reader meets a field by the path they write in
a manifest (`PodDisruptionBudget.status.currentHealthy`) rather than by its Go type
(`PodDisruptionBudgetStatus.currentHealthy`).

Computed once per graph: one breadth-first walk per kind (a schema with `x-kubernetes-group-version-kind`) along
its fields (properties, items, additionalProperties, through `$ref`s and compositions), keeping the first, so
shortest, path to each named schema. A walk stops at other kinds (a `PodList`'s items are the `Pod` kind's own)
and never enters a schema twice, so cycles are cut. It goes as far as the schemas asked about so far need, and
goes on from there when asked about one it has not reached. Schemas asked about together (`held_by_each`, as a
comparison asks about those that changed) are walked to through the types above them only.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from specdiff.graph.kubernetes_names import GVK
from specdiff.graph.references import components_from

if TYPE_CHECKING:
    from specdiff.graph.model import NamedSchema, SpecGraph

#: the kinds reaching a type, each as ("policy/v1/PodDisruptionBudget", steps from the kind to the type)
Holders = tuple[tuple[str, tuple[str, ...]], ...]
#: the fields of a schema that lead to named schemas: (steps from the schema, the named schema)
Fields = list[tuple[tuple[str, ...], str]]

_STEPS = {"items": "[]", "additionalProperties": "{}"}
_COMPOSITIONS = ("allOf", "oneOf", "anyOf")
#: the keywords through which a schema may lead to another
_LEADS = frozenset(("$ref", "properties", *_STEPS, *_COMPOSITIONS))
#: those that lead to schemas nested below a schema's own properties
_NESTED = frozenset((*_STEPS, *_COMPOSITIONS))


def held_by(graph: SpecGraph, schema: str) -> Holders:
    """The kinds whose fields reach a named schema, each with the shortest steps from it (sorted by kind, then
    group-version); () for a kind itself and for a type no kind reaches."""
    return graph.derived(_Walks).holders(schema)


def held_by_each(graph: SpecGraph, schemas: Iterable[str]) -> dict[str, Holders]:
    """`held_by` for each of the schemas, asked together: the types above all of them are found first, so each
    kind's walk goes through those types only and reads the fields of no other."""
    walks = graph.derived(_Walks)
    schemas = list(schemas)
    for schema in schemas:
        walks.kinds_above(schema)
    return {schema: walks.holders(schema) for schema in schemas}


class _Walk:
    """A breadth-first walk from one kind, as far as it went: the steps to each schema it reached, and the
    schemas in the order it reached them, the first `expanded` of which it read the fields of.

    It goes only through the types above the schemas asked about when it began, those in the components
    numbered up to `within` (`_Walks.kinds_above`): the shortest steps to a schema, and which of them comes
    first, pass only through the types above it, so the walk finds the same steps to each of those schemas and
    skips the fields of every type that leads to none of them."""

    __slots__ = ("reached", "queue", "expanded", "within")

    def __init__(self, kind: str, within: int) -> None:
        self.reached: dict[str, tuple[str, ...]] = {kind: ()}
        self.queue = [kind]
        self.expanded = 0
        self.within = within


class _Walks:
    """The walks from the kinds of one graph, each made when a schema below that kind is first asked about, as
    far as that schema: a comparison asks about the few types that changed, and only the kinds above them are
    walked, most of them a step or two (`ObjectMeta` is a field of every kind)."""

    def __init__(self, graph: SpecGraph) -> None:
        self.graph = graph
        self.fields: dict[str, Fields] = {}
        self.walks: dict[str, _Walk] = {}  # by kind
        self.held: dict[str, Holders] = {}
        #: the strongly connected components of the types walked up from (`kinds_above`): each node's component,
        #: and the kinds above each component
        self.component: dict[Any, int] = {}
        self.kinds: list[frozenset[str]] = []
        self.types_above = _TypesAbove(graph)

    def holders(self, schema: str) -> Holders:
        found = self.held.get(schema)
        if found is None:
            schemas = self.graph.schemas
            holders = [(schemas[kind].gvk or "", steps) for kind in sorted(self.kinds_above(schema))
                       if (steps := self._steps(kind, schema)) is not None]
            found = self.held[schema] = tuple(sorted(holders, key=lambda held: (held[0].rpartition("/")[2],
                                                                                held[0])))
        return found

    def kinds_above(self, schema: str) -> frozenset[str]:
        """The kinds a path of references leads down from to a schema without passing another kind: the only
        ones whose walk can reach it.

        Each strongly connected component of the types above it (`components_from` on their parents that are no
        kinds, `_TypesAbove`) is summed up once from the components right above it, as `SpecGraph` sums up the
        operations above a schema: a walk up to the kinds from each type asked about was quadratic on a long
        chain of types."""
        start = ("schema", schema)
        placed, summed = self.component, self.kinds
        if start not in placed:
            if start not in self.graph.graph:
                return frozenset()
            schemas, pred = self.graph.schemas, self.graph.graph.pred
            for members in components_from(self.types_above, (start,), placed):  # each after those above it
                number = len(summed)
                placed.update(dict.fromkeys(members, number))
                kinds: set[str] = set()
                for node in members:
                    for parent in pred[node]:
                        if parent[0] != "schema":
                            continue
                        named = schemas.get(parent[1])
                        if named is not None and named.gvk:
                            kinds.add(parent[1])
                        elif not _is_kind(named) and placed[parent] != number:
                            kinds.update(summed[placed[parent]])
                summed.append(frozenset(kinds))
        return summed[placed[start]]

    def _steps(self, kind: str, schema: str) -> tuple[str, ...] | None:
        """The shortest steps from a kind along its fields to a schema, stopping at other kinds: its walk goes on
        breadth first until it reaches the schema, or has nowhere left to go."""
        walk, placed = self.walks.get(kind), self.component
        if walk is None:
            walk = self.walks[kind] = _Walk(kind, len(self.kinds) - 1)
        elif placed[("schema", schema)] > walk.within:  # above none asked before: once more through every type
            walk = self.walks[kind] = _Walk(kind, sys.maxsize)
        graph, fields, reached, queue, within = self.graph, self.fields, walk.reached, walk.queue, walk.within
        while schema not in reached and walk.expanded < len(queue):
            name = queue[walk.expanded]
            walk.expanded += 1
            if name not in fields:
                fields[name] = _fields(graph, graph.schemas[name])
            for steps, target in fields[name]:
                if (target in reached or placed.get(("schema", target), sys.maxsize) > within
                        or _is_kind(graph.schemas.get(target))):
                    continue
                reached[target] = reached[name] + steps
                queue.append(target)
        return reached.get(schema)


class _TypesAbove(dict[Any, list[Any]]):
    """The schemas right above each node that are no kind (`_is_kind`): where a path up from a type to the kinds
    above it goes on. Worked out when asked and not kept: `components_from` asks once for each node it walks, and
    never walks a node it placed before."""

    def __init__(self, graph: SpecGraph) -> None:
        super().__init__()
        self.graph = graph

    def __missing__(self, node: Any) -> list[Any]:
        schemas = self.graph.schemas
        return [parent for parent in self.graph.graph.pred[node]
                if parent[0] == "schema" and not _is_kind(schemas.get(parent[1]))]


def _is_kind(named: NamedSchema | None) -> bool:
    """A schema that is a kind of its own (or several, as `DeleteOptions`): a walk from another kind stops there."""
    return named is None or bool(named.gvk) or GVK in named.schema


def _fields(graph: SpecGraph, named: NamedSchema) -> Fields:
    """The named schemas a schema's fields lead to, in the order the schema writes them."""
    # the graph already knows which named schemas this one refers to: a ref that ends in one of their names is
    # that schema, and only another spelling is resolved again
    refers_to = graph.graph.succ.get(("schema", named.name))
    found: Fields = []
    if not refers_to:
        return found  # a leaf type such as Time: its fields lead nowhere
    resolver, schemas = graph.normal.resolver, graph.schemas

    def walk(schema: dict[str, Any], steps: tuple[str, ...]) -> None:
        """(called only for a mapping holding a keyword of `_LEADS`: most fields are plain values)"""
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            last = ref.rpartition("/")[2]
            target = last if ("schema", last) in refers_to else resolver.named(ref, named.document, named.pointer)
            if target is not None and target in schemas:
                found.append((steps, target))
        properties = schema.get("properties")
        if isinstance(properties, dict):
            for key, value in properties.items():
                if isinstance(value, dict) and not _LEADS.isdisjoint(value):
                    walk(value, (*steps, f".{key}"))
        if _NESTED.isdisjoint(schema):
            return  # (most: a `$ref` with words, or an object's properties)
        for keyword, step in _STEPS.items():
            value = schema.get(keyword)
            if isinstance(value, dict) and not _LEADS.isdisjoint(value):
                walk(value, (*steps, step))
        for keyword in _COMPOSITIONS:
            members = schema.get(keyword)
            for member in members if isinstance(members, list) else ():
                if isinstance(member, dict) and not _LEADS.isdisjoint(member):
                    walk(member, steps)

    if isinstance(named.schema, dict) and not _LEADS.isdisjoint(named.schema):
        walk(named.schema, ())
    return found
