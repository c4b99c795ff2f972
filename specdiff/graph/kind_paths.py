"""Where a Kubernetes type sits inside the kinds that hold it, so a reader meets a field by the path they write in
a manifest (`PodDisruptionBudget.status.currentHealthy`) rather than by its Go type
(`PodDisruptionBudgetStatus.currentHealthy`).

Computed once per graph: one breadth-first walk per kind (a schema with `x-kubernetes-group-version-kind`) along
its fields (properties, items, additionalProperties, through `$ref`s and compositions), keeping the first, so
shortest, path to each named schema. A walk stops at other kinds (a `PodList`'s items are the `Pod` kind's own)
and never enters a schema twice, so cycles are cut.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from specdiff.graph.kubernetes_names import GVK

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


def held_by(graph: SpecGraph, schema: str) -> Holders:
    """The kinds whose fields reach a named schema, each with the shortest steps from it; worked out for the
    whole graph when first asked."""
    return graph.derived(kind_paths).get(schema, ())


def kind_paths(graph: SpecGraph) -> dict[str, Holders]:
    """Named schema -> the kinds whose fields reach it and the shortest steps from each (sorted by kind, then
    group-version); a kind itself and a type no kind reaches are absent."""
    kinds = sorted(name for name, named in graph.schemas.items() if named.gvk)
    fields: dict[str, Fields] = {}
    found: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for kind in kinds:
        reached: dict[str, tuple[str, ...]] = {kind: ()}
        frontier = [kind]
        while frontier:
            ahead = []
            for name in frontier:
                if name not in fields:
                    fields[name] = _fields(graph, graph.schemas[name])
                for steps, target in fields[name]:
                    if target in reached or _is_kind(graph.schemas.get(target)):
                        continue
                    reached[target] = reached[name] + steps
                    ahead.append(target)
            frontier = ahead
        gvk = graph.schemas[kind].gvk or ""
        for name, steps in reached.items():
            if name != kind:
                found.setdefault(name, []).append((gvk, steps))
    return {name: tuple(sorted(holders, key=lambda held: (held[0].rpartition("/")[2], held[0])))
            for name, holders in found.items()}


def _is_kind(named: NamedSchema | None) -> bool:
    """A schema that is a kind of its own (or several, as `DeleteOptions`): a walk from another kind stops there."""
    return named is None or bool(named.gvk) or GVK in named.schema


def _fields(graph: SpecGraph, named: NamedSchema) -> Fields:
    """The named schemas a schema's fields lead to, in the order the schema writes them."""
    resolver = graph.normal.resolver
    # the graph already knows which named schemas this one refers to: a ref that ends in one of their names is
    # that schema, and only another spelling is resolved again
    refers_to = {target for _, target in graph.graph.out_edges(("schema", named.name))}
    found: Fields = []
    if not refers_to:
        return found  # a leaf type such as Time: its fields lead nowhere

    def walk(schema: Any, steps: tuple[str, ...]) -> None:
        if not isinstance(schema, dict) or _LEADS.isdisjoint(schema):
            return  # most fields are plain values: not walked into
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            last = ref.rpartition("/")[2]
            target = last if ("schema", last) in refers_to else resolver.named(ref, named.document, named.pointer)
            if target is not None and target in graph.schemas:
                found.append((steps, target))
        properties = schema.get("properties")
        if isinstance(properties, dict):
            for key, value in properties.items():
                walk(value, (*steps, f".{key}"))
        for keyword, step in _STEPS.items():
            walk(schema.get(keyword), (*steps, step))
        for keyword in _COMPOSITIONS:
            members = schema.get(keyword)
            for member in members if isinstance(members, list) else ():
                walk(member, steps)

    walk(named.schema, ())
    return found
