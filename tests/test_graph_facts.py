"""The facts a comparison asks of a graph about the schemas that changed (the operations reaching each, how they use
it, its stability) are worked out for those schemas' ancestors only (specdiff/graph/model.py): the same answers
whatever the order they are asked in, as a walk over the whole graph gives, and linear in a long chain."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from specdiff.graph import graph_of
from specdiff.graph.stability import least_stable, most_stable, of_version
from specdiff.load import load_text
from specdiff.load.limits import Limits
from specdiff.pipeline import graphed

_MARKER = st.sampled_from([None, "alpha", "beta"])
_VERSIONS = st.sampled_from([None, "v1", "v1beta1", "v1alpha1"])
_DIRECTIONS = ("request", "parameter", "response")


def _name(i: int, version: str | None) -> str:
    return f"io.k8s.api.demo.{version}.S{i}" if version else f"S{i}"


@st.composite
def _specs(draw: Any) -> dict[str, Any]:
    """Schemas with their own markers and group-versions, whose fields (marked or not) refer to others, cycles
    included; operations with markers using some of them in a request body, a parameter or a response."""
    count = draw(st.integers(1, 8))
    versions = [draw(_VERSIONS) for _ in range(count)]
    schemas = [{"version": versions[i], "marker": draw(_MARKER),
                "fields": draw(st.lists(st.tuples(st.integers(0, count - 1), _MARKER), max_size=3))}
               for i in range(count)]
    operations = [{"marker": draw(_MARKER),
                   "uses": draw(st.lists(st.tuples(st.sampled_from(_DIRECTIONS), st.integers(0, count - 1)),
                                         max_size=3))} for _ in range(draw(st.integers(0, 4)))]
    return {"names": [_name(i, versions[i]) for i in range(count)], "schemas": schemas, "operations": operations}


def _document(spec: dict[str, Any]) -> str:
    names = spec["names"]

    def ref(i: int) -> dict[str, Any]:
        return {"$ref": f"#/components/schemas/{names[i]}"}

    schemas = {}
    for name, schema in zip(names, spec["schemas"], strict=True):
        written: dict[str, Any] = {"type": "object", "properties": {
            f"f{j}": {"allOf": [ref(target)], **({"x-stability-level": marker} if marker else {})}
            for j, (target, marker) in enumerate(schema["fields"])}}
        if schema["marker"]:
            written["x-stability-level"] = schema["marker"]
        schemas[name] = written
    paths = {}
    for k, operation in enumerate(spec["operations"]):
        written = {"responses": {"default": {"description": "d"}}, "parameters": []}
        sent = [ref(target) for direction, target in operation["uses"] if direction == "request"]
        if sent:
            written["requestBody"] = {"content": {"application/json": {"schema": {"allOf": sent}}}}
        for j, (direction, target) in enumerate(operation["uses"]):
            if direction == "parameter":
                written["parameters"].append({"name": f"q{j}", "in": "query", "schema": ref(target)})
            elif direction == "response":
                written["responses"][str(200 + j)] = {"description": "ok",
                                                      "content": {"application/json": {"schema": ref(target)}}}
        if operation["marker"]:
            written["x-stability-level"] = operation["marker"]
        paths[f"/o{k}"] = {"post": written}
    return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths,
                       "components": {"schemas": schemas}})


def _expected(spec: dict[str, Any]) -> dict[str, tuple[tuple[str, ...], set[str], str]]:
    """Each schema's operations, directions and stability, by a fixed point over the whole graph."""
    names, schemas, operations = spec["names"], spec["schemas"], spec["operations"]
    count = len(names)
    version_level = [of_version(schema["version"]) for schema in schemas]
    own = [least_stable(version_level[i], schemas[i]["marker"] or "stable") for i in range(count)]
    caps: dict[tuple[int, int], str] = {}  # a field's level caps a target only when every field to it has one
    for i, schema in enumerate(schemas):
        for target, marker in schema["fields"]:
            held = caps.get((i, target))
            caps[(i, target)] = "stable" if held == "stable" or not marker else most_stable(held or "alpha", marker)
    users: list[set[str]] = [set() for _ in range(count)]
    directions: list[set[str]] = [set() for _ in range(count)]
    levels: list[dict[int, str]] = [{}, {}]  # by fields_only
    for k, operation in enumerate(operations):
        for direction, target in operation["uses"]:
            users[target].add(f"POST /o{k}")
            directions[target].add(direction)
            for fields_only, found in enumerate(levels):
                level = "stable" if fields_only else least_stable(operation["marker"] or "stable", own[target])
                found[target] = most_stable(found.get(target, "alpha"), level)
    for _ in range(count):  # every path has fewer edges than there are schemas
        for (source, target), cap in caps.items():
            users[target] |= users[source]
            directions[target] |= directions[source]
            for fields_only, found in enumerate(levels):
                if source in found:
                    level = least_stable(found[source], cap, "stable" if fields_only else own[target])
                    found[target] = most_stable(found.get(target, "alpha"), level)
    stability = [least_stable(own[i], levels[1].get(i, own[i])) if schemas[i]["version"]  # (its group-version)
                 else levels[0].get(i, own[i]) for i in range(count)]
    return {names[i]: (tuple(sorted(users[i])), directions[i], stability[i]) for i in range(count)}


def _direction(directions: set[str]) -> str:
    sides = {"request" if direction == "parameter" else direction for direction in directions}
    return sides.pop() if len(sides) == 1 else "both"


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_facts_of_each_schema_are_a_whole_graph_walk_s_whatever_the_order_asked(data: Any) -> None:
    spec = data.draw(_specs())
    graph = graph_of(load_text(_document(spec), "spec.json", None))
    expected = _expected(spec)
    for name in data.draw(st.permutations(spec["names"])):
        asked = data.draw(st.permutations(["operations", "direction", "reached", "stability"]))
        found = {"operations": graph.operations_reaching(name), "direction": graph.direction(name),
                 "reached": graph.reached(name), "stability": graph.stability(name)}
        operations, directions, stability = expected[name]
        assert {fact: found[fact] for fact in asked} == {
            "operations": operations, "direction": _direction(directions), "reached": bool(directions),
            "stability": stability}, name


class _Counted(dict[Any, Any]):
    """A graph's parents by node, counting how often any are read."""

    reads = 0

    def __getitem__(self, node: Any) -> Any:
        _Counted.reads += 1
        return super().__getitem__(node)


def test_asking_about_every_schema_of_a_long_chain_reads_each_node_s_parents_a_few_times() -> None:
    """1,000 schemas each holding the next, asked about bottom first (the most a walk up per schema would read) and
    top first (each schema new, entered from the one walked right above it): each fact walks each node once."""
    links = 1000
    schemas: dict[str, Any] = {f"S{i}": {"type": "object", "properties": {
        "next": {"$ref": f"#/components/schemas/S{i + 1}"}}} for i in range(links)}
    schemas[f"S{links}"] = {"type": "object"}
    ok = {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}
    document = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                "paths": {"/a": {"get": {"responses": {"200": ok}}}}, "components": {"schemas": schemas}}
    text = json.dumps(document)
    for order in (range(links, -1, -1), range(links + 1)):
        graph = graphed(load_text(text, "spec.json", None, Limits(max_depth=links))).graph
        graph.graph.pred = _Counted(graph.graph.pred)
        _Counted.reads = 0
        for i in order:
            name = f"S{i}"
            assert (graph.operations_reaching(name), graph.direction(name), graph.stability(name)) == (
                ("GET /a",), "response", "stable")
        assert _Counted.reads < 10 * links, _Counted.reads


def _two_types(quiet: str, limit: int) -> str:
    """`Quiet` differs between versions only in a description; `Loud` in a limit. A beta operation reads both."""
    return json.dumps({
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "paths": {"/things": {"get": {"x-stability-level": "beta", "responses": {"200": {
            "description": "d", "content": {"application/json": {"schema": {"type": "object", "properties": {
                "quiet": {"$ref": "#/components/schemas/Quiet"}, "loud": {"$ref": "#/components/schemas/Loud"}}}}}}}}}},
        "components": {"schemas": {
            "Quiet": {"type": "object", "properties": {"a": {"type": "string", "description": quiet}}},
            "Loud": {"type": "object", "properties": {"b": {"type": "string", "maxLength": limit}}}}}})


def test_a_pair_of_named_schemas_that_brings_no_change_asks_the_graph_no_fact(monkeypatch: Any) -> None:
    """Most named pairs that differ only differ in their descriptions: their direction and stability are never
    asked; a pair that brings a change has the facts it would have had if they had been asked first."""
    from specdiff.diff import diff
    from specdiff.graph.model import SpecGraph

    asked: list[str] = []
    direction, stability = SpecGraph.direction, SpecGraph.stability

    def counted_direction(graph: SpecGraph, schema: str) -> str:
        asked.append(schema)
        return direction(graph, schema)

    def counted_stability(graph: SpecGraph, schema: str) -> str:
        asked.append(schema)
        return stability(graph, schema)

    monkeypatch.setattr(SpecGraph, "direction", counted_direction)
    monkeypatch.setattr(SpecGraph, "stability", counted_stability)
    old = graphed(load_text(_two_types("old words", 5), "old.json", None)).graph
    new = graphed(load_text(_two_types("new words", 3), "new.json", None)).graph
    found = diff(old, new)
    assert [(c.attribute, c.context.schema, c.context.field, c.direction, c.context.stability) for c in found] == [
        ("maxLength", "Loud", (".b",), "response", "beta")]
    assert "Quiet" not in asked and "Loud" in asked
