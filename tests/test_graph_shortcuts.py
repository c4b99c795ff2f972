"""The graph's shortcuts for what Kubernetes writes on every operation give what the general reading gives."""

from __future__ import annotations

import json
from typing import Any

import pytest

from specdiff.graph import graph_of
from specdiff.graph.kubernetes_names import first_kind, group_version_kinds
from specdiff.graph.refs import Resolver
from specdiff.load import load_text


@pytest.mark.parametrize("declared", [
    {"group": "apps", "version": "v1", "kind": "Deployment"}, {"group": "", "version": "v1", "kind": "Pod"},
    {"version": 1, "kind": 2}, {}, [{"group": "batch", "version": "v1", "kind": "Job"}], [], "Pod", None,
])
def test_an_operations_kind_is_the_first_its_group_version_kind_names(declared: Any) -> None:
    operation = {} if declared is None else {"x-kubernetes-group-version-kind": declared}
    assert first_kind(operation) == next(iter(group_version_kinds(operation)), None)


def test_inline_parameters_read_once_tell_equal_values_of_other_types_apart() -> None:
    """`1`, `1.0` and `true` are equal keys: each operation's parameter keeps the value, and type, it writes."""
    values = [1, 1.0, True, 1, "1"]
    spec = {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {
        f"/p{i}": {"get": {"parameters": [{"name": "n", "in": "query", "type": "integer", "default": value}],
                           "responses": {"200": {"description": "ok"}}}} for i, value in enumerate(values)}}
    graph = graph_of(load_text(json.dumps(spec), "spec.json", None))
    for i, value in enumerate(values):
        parameter = graph.operations[f"GET /p{i}"].parameters["query", "n"]
        read = parameter.schema["default"] if parameter.schema is not None else None
        assert (type(read), read) == (type(value), value)
        assert parameter.pointer == f"/paths/~1p{i}/get/parameters/0"


def test_a_ref_to_a_schema_listed_later_is_known_by_name_and_reads_it_where_it_is_met(monkeypatch: Any) -> None:
    """`Pet` refers to `Owner`, listed after `Tag`: the `$ref` is not resolved again, and `Owner` is read where the
    reference meets it, before `Tag`, as a resolved reference read it; a schema listed nowhere is resolved."""
    resolved: list[str] = []
    named = Resolver.named
    monkeypatch.setattr(Resolver, "named", lambda self, ref, *rest: resolved.append(ref) or named(self, ref, *rest))
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {"/pets": {"get": {"responses": {"200": {"description": "ok", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}},
            "components": {"schemas": {
                "Pet": {"type": "object", "properties": {"owner": {"$ref": "#/components/schemas/Owner"},
                                                         "age": {"$ref": "#/definitions/Age"}}},
                "Tag": {"type": "string"},
                "Owner": {"type": "object", "properties": {"name": {"type": "string"}}}}},
            "definitions": {"Age": {"type": "integer"}}}
    graph = graph_of(load_text(json.dumps(spec), "spec.json", None))
    assert resolved == ["#/definitions/Age"]
    assert list(graph.schemas) == ["Pet", "Age", "Owner", "Tag"]  # (in the order the walk meets them)
    assert graph.schemas["Owner"].pointer == "/components/schemas/Owner"
    assert sorted(graph.graph.succ["schema", "Pet"]) == [("schema", "Age"), ("schema", "Owner")]
    assert graph.operations_reaching("Owner") == ("GET /pets",)
