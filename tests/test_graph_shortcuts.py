"""The graph's shortcuts for what Kubernetes writes on every operation give what the general reading gives."""

from __future__ import annotations

import json
from typing import Any

import pytest

from specdiff.graph import graph_of
from specdiff.graph.kubernetes_names import first_kind, group_version_kinds
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
