"""An operation whose parameters differ only in their places and words is passed over as an equal one is
(`operations._same_parameters`): Kubernetes rewords `pretty` in every operation of a release; an operation apart
beside them reads them once; and a body apart only in being required compares none of its media types. What the
words or the settings beside them still say is found as the whole comparison finds it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import real_graphed

import specdiff.diff.operations as operations
from specdiff.diff import diff
from specdiff.diff.operations import OperationDiffer
from specdiff.diff.schemas import SchemaDiffer
from specdiff.load import load_text
from specdiff.pipeline import compare_graphed, graphed, run

PRETTY = {"name": "pretty", "in": "query", "description": "If 'true', the output is pretty printed.",
          "schema": {"type": "string", "uniqueItems": True}}
THING = {"$ref": "#/components/schemas/Thing"}


def _spec(pretty: dict[str, Any]) -> dict[str, Any]:
    """A path item whose `pretty` parameter both its operations take, one of them with a body."""
    ok = {"description": "ok", "content": {"application/json": {"schema": THING}}}
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {"/things/{name}": {
                "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}},
                               pretty],
                "get": {"responses": {"200": ok}},
                "put": {"requestBody": {"content": {"application/json": {"schema": THING}}},
                        "responses": {"200": ok}}}},
            "components": {"schemas": {"Thing": {"type": "object", "properties": {"a": {"type": "string"}}}}}}


def _reworded(**beside: Any) -> dict[str, Any]:
    return _spec({**PRETTY, "description": "If 'true', then the output is pretty printed.", **beside})


def _changes(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, str | None, Any, Any]]:
    found = diff(graphed(load_text(json.dumps(old), "old.json", None)).graph,
                 graphed(load_text(json.dumps(new), "new.json", None)).graph)
    return [(c.kind, c.node, c.attribute, c.old, c.new) for c in found]


def _findings(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    report = run(load_text(json.dumps(old), "old.json", None), load_text(json.dumps(new), "new.json", None))
    return sorted((f.rule, f.change.pointer) for f in report.findings)


def _spied(monkeypatch: Any, differ: type, method: str, seen: Any) -> list[Any]:
    """What a differ's method is called with, `seen(new side)` a call, in order; the method still does its work."""
    calls: list[Any] = []
    original = getattr(differ, method)

    def spy(self: Any, old: Any, new: Any, where: Any) -> None:
        calls.append(seen(new))
        original(self, old, new, where)

    monkeypatch.setattr(differ, method, spy)
    return calls


@pytest.fixture
def compared(monkeypatch: Any) -> list[str]:
    """The parameters `_parameter` compares setting by setting, by name."""
    return _spied(monkeypatch, OperationDiffer, "_parameter", lambda new: new.name)


def test_operations_whose_parameter_was_only_reworded_are_passed_over(compared: list[str]) -> None:
    assert _changes(_spec(PRETTY), _reworded()) == []
    assert compared == []


def test_an_operation_changed_beside_a_reworded_parameter_reports_that_change_alone(compared: list[str],
                                                                                   monkeypatch: Any) -> None:
    """Its parameters are read once, found alike, and not again part by part."""
    read: list[str] = []
    same_but_place = operations._same_but_place
    monkeypatch.setattr(operations, "_same_but_place",
                        lambda old, new: read.append(new.name) or same_but_place(old, new))
    new = _reworded()
    new["paths"]["/things/{name}"]["put"]["requestBody"]["required"] = True
    assert _changes(_spec(PRETTY), new) == [("modified", "request-body", "required", False, True)]
    assert compared == []
    assert read == ["name", "pretty"] * 2  # (GET, then PUT)


def test_what_a_reworded_parameter_changed_beside_its_words_is_found(compared: list[str]) -> None:
    """Its schema, its being required, a setting: found in both operations (one finding for the two), as for a
    parameter not reworded."""
    at = "/paths/~1things~1{name}/parameters/1/schema"
    assert _findings(_spec(PRETTY), _reworded(schema={"type": "integer", "uniqueItems": True})) == [
        ("schema.type-changed", at)]
    assert _findings(_spec(PRETTY), _reworded(required=True)) == [("parameter.became-required", at)]
    assert _findings(_spec(PRETTY), _reworded(deprecated=True)) == [("parameter.deprecated", at)]
    assert compared == ["pretty"] * 6  # (each of the two operations, in each of the three pairs)


def test_a_parameter_written_without_words_on_one_side_is_compared(compared: list[str]) -> None:
    """Words written on one side only are no rewording: the parameter is compared setting by setting (and finds
    nothing, as before)."""
    bare = {key: value for key, value in PRETTY.items() if key != "description"}
    assert not operations._alike_but_words(bare, PRETTY) and not operations._alike_but_words(PRETTY, bare)
    assert _changes(_spec(bare), _spec(PRETTY)) == []
    assert compared == ["pretty", "pretty"]  # (in each of the two operations)


def test_on_a_real_release_passing_over_reworded_parameters_finds_what_comparing_them_finds(monkeypatch: Any) -> None:
    """apps/v1 1.27 -> 1.30 rewords `pretty` in each of its 76 operations, and 29 of their bodies became required."""
    old, new = "kubernetes/v3/v1.27/apis__apps__v1_openapi.json", "kubernetes/v3/v1.30/apis__apps__v1_openapi.json"
    compared = _spied(monkeypatch, OperationDiffer, "_parameter", lambda new: new.name)
    passing = compare_graphed(real_graphed(old), real_graphed(new))
    assert compared == []  # (every reworded `pretty` passed over)
    monkeypatch.setattr(operations, "_alike_but_words", lambda *_: False)
    comparing = compare_graphed(real_graphed(old), real_graphed(new))
    assert compared == ["pretty"] * 76
    assert passing.findings == comparing.findings
    assert {f.rule for f in passing.findings if f.change.node == "request-body"} == {"request-body.became-required"}


def test_a_body_that_only_became_required_compares_none_of_its_media_types(monkeypatch: Any) -> None:
    """Its media types are equal, their schemas all the way down; one whose schema changed beside is compared."""
    pointers = _spied(monkeypatch, SchemaDiffer, "compare", lambda new: new.pointer)
    new = _spec(PRETTY)
    body = new["paths"]["/things/{name}"]["put"]["requestBody"]
    body["required"] = True
    assert _changes(_spec(PRETTY), new) == [("modified", "request-body", "required", False, True)]
    assert pointers == []
    body["content"]["application/json"]["schema"] = {**THING, "nullable": True}
    assert _findings(_spec(PRETTY), new) == [
        ("request-body.became-required", "/paths/~1things~1{name}/put/requestBody"),
        ("schema.nullable-added", "/paths/~1things~1{name}/put/requestBody/content/application~1json/schema")]
    assert pointers == ["/paths/~1things~1{name}/put/requestBody/content/application~1json/schema"]
