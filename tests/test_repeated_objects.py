"""What a spec writes many times is read once: a parameter written word for word in many operations (Kubernetes'
`dryRun`) once a document, each operation keeping its own pointers, so findings name the place that changed; a
Swagger body's one schema once for all the media types it is produced as, XML or not."""

from __future__ import annotations

import json
from typing import Any

from specdiff.graph import graph_of
from specdiff.load import load_text
from specdiff.pipeline import run

DRY_RUN = {"name": "dryRun", "in": "query", "type": "string", "uniqueItems": True, "description": "dry run"}


def _swagger(parameters: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    return {"swagger": "2.0", "info": {"title": "repeated", "version": "1"},
            "paths": {path: {"post": {"parameters": written, "responses": {"200": {"description": "ok"}}}}
                      for path, written in parameters.items()}}


def _findings(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    report = run(load_text(json.dumps(old), "old.json", None), load_text(json.dumps(new), "new.json", None))
    return sorted((f.rule, f.change.pointer) for f in report.findings)


def test_each_operation_keeps_the_pointers_of_its_copy() -> None:
    other = {"name": "x", "in": "query", "type": "string"}
    graph = graph_of(load_text(json.dumps(_swagger({"/a": [DRY_RUN], "/b": [other, DRY_RUN]})), "s.json", None))
    a, b = (graph.operations[f"POST /{name}"].parameters[("query", "dryRun")] for name in "ab")
    assert a.schema is b.schema and a.written.data == b.written.data  # read once
    assert (a.pointer, a.written.pointer) == ("/paths/~1a/post/parameters/0",) * 2
    assert (b.pointer, b.written.pointer) == ("/paths/~1b/post/parameters/1",) * 2


def test_a_change_to_one_copy_is_found_where_that_copy_is_written() -> None:
    changed = {**DRY_RUN, "type": "integer"}
    old = _swagger({"/a": [DRY_RUN], "/b": [DRY_RUN], "/c": [DRY_RUN]})
    new = _swagger({"/a": [DRY_RUN], "/b": [changed], "/c": [DRY_RUN]})
    assert _findings(old, new) == [("schema.type-changed", "/paths/~1b/post/parameters/0")]


def test_values_equal_in_python_but_not_in_json_are_not_one_parameter() -> None:
    """`1`, `1.0` and `true` are equal keys in Python: each copy keeps the value it writes."""
    written = [{**DRY_RUN, "default": value} for value in (1, 1.0, True)]
    graph = graph_of(load_text(json.dumps(_swagger({f"/{i}": [p] for i, p in enumerate(written)})), "s.json", None))
    defaults = [graph.operations[f"POST /{i}"].parameters[("query", "dryRun")].schema["default"] for i in range(3)]
    assert [type(value) for value in defaults] == [int, float, bool]


def test_zero_and_negative_zero_are_not_one_parameter() -> None:
    """`0.0 == -0.0` in Python, but JSON writes them apart: each copy keeps the one it writes."""
    written = [{**DRY_RUN, "default": value} for value in (0.0, -0.0)]
    graph = graph_of(load_text(json.dumps(_swagger({f"/{i}": [p] for i, p in enumerate(written)})), "s.json", None))
    defaults = [graph.operations[f"POST /{i}"].parameters[("query", "dryRun")].schema["default"] for i in range(2)]
    assert [str(value) for value in defaults] == ["0.0", "-0.0"]


def test_a_parameter_with_nested_schemas_is_read_once() -> None:
    array = {"name": "ids", "in": "query", "schema": {"type": "array", "items": {"type": "string", "enum": ["a"]}}}
    spec = {"openapi": "3.0.3", "info": {"title": "repeated", "version": "1"}, "paths": {
        path: {"get": {"parameters": [array], "responses": {"200": {"description": "ok"}}}} for path in ("/a", "/b")}}
    graph = graph_of(load_text(json.dumps(spec), "s.json", None))
    a, b = (graph.operations[f"GET /{name}"].parameters[("query", "ids")] for name in "ab")
    assert a.schema is b.schema
    assert (a.pointer, b.pointer) == ("/paths/~1a/get/parameters/0/schema", "/paths/~1b/get/parameters/0/schema")


def test_each_copy_of_a_parameter_notes_the_ref_in_its_data_that_is_not_followed() -> None:
    """What reading a copy notes at its own place is noted for each copy: it is not one read for all."""
    dangling = {**DRY_RUN, "x-origin": {"$ref": "#/nowhere"}}
    graph = graph_of(load_text(json.dumps(_swagger({"/a": [dangling], "/b": [dangling]})), "s.json", None))
    unfollowed = "$ref '#/nowhere' points at nothing: not followed, so what it points at is not compared"
    assert graph.notes == (f"s.json:1:220: {unfollowed}", f"s.json:1:434: {unfollowed}")


def test_a_swagger_body_produced_as_xml_and_json_carries_its_schema_as_both() -> None:
    spec = _swagger({"/a": []})
    spec["paths"]["/a"]["post"]["responses"] = {"200": {"description": "ok", "schema": {"$ref": "#/definitions/A"}}}
    spec["paths"]["/b"] = {"get": {"produces": ["application/json", "application/xml", "text/plain"], "responses": {
        "200": {"description": "ok", "schema": {"$ref": "#/definitions/B"}}}}}
    spec["definitions"] = {"A": {"type": "object"}, "B": {"type": "object"}}
    graph = graph_of(load_text(json.dumps(spec), "s.json", None))
    assert (graph.carried_as_xml("A"), graph.carried_as_xml("B")) == (False, True)
    assert (graph.direction("A"), graph.direction("B")) == ("response", "response")
    media = graph.operations["GET /b"].responses["200"].media
    assert list(media) == ["application/json", "application/xml", "text/plain"]
    assert media["application/json"] is media["application/xml"] is media["text/plain"]  # one record, read once
