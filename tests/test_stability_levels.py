"""Stability from `x-stability-level` markers, and card levels keyed on stability."""

from __future__ import annotations

import json
from typing import Any

import pytest

from specdiff.classify.cards import resolve_level
from specdiff.load import load_text
from specdiff.pipeline import run


def _spec(marker: str | None, kind: str) -> dict[str, Any]:
    field: dict[str, Any] = {"type": kind}
    if marker is not None:
        field["x-stability-level"] = marker
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"Frob": {"type": "object", "properties": {"size": field}}}}}


def _levels(marker: str | None) -> list[tuple[str, str, str]]:
    old, new = _spec(marker, "string"), _spec(marker, "integer")
    report = run(load_text(json.dumps(old), "old.json", None), load_text(json.dumps(new), "new.json", None))
    return [(f.rule, f.change.pointer, f.level.value) for f in report.findings]


@pytest.mark.parametrize(("marker", "level"), [("draft", "safe"), ("alpha", "safe"), ("beta", "breaking"),
                                               ("stable", "breaking"), (None, "breaking")])
def test_an_x_stability_level_marker_sets_the_fields_stability(marker: str | None, level: str) -> None:
    assert _levels(marker) == [("schema.type-changed", "/components/schemas/Frob/properties/size", level)]


def test_an_operation_marked_draft_is_alpha() -> None:
    def spec(required: bool) -> dict[str, Any]:
        op = {"x-stability-level": "draft", "parameters": [
            {"name": "q", "in": "query", "required": required, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok"}}}
        return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": op}}}

    report = run(load_text(json.dumps(spec(False)), "old.json", None),
                 load_text(json.dumps(spec(True)), "new.json", None))
    assert [(f.rule, f.change.pointer, f.level.value, f.change.context.stability) for f in report.findings] == [
        ("parameter.became-required", "/paths/~1a/get/parameters/0/schema", "safe", "alpha")]


@pytest.mark.parametrize(("stability", "level"), [("alpha", "safe"), ("beta", "dangerous"), ("ga", "breaking")])
def test_a_card_level_may_key_on_stability(stability: str, level: str) -> None:
    spec = {"alpha": "safe", "beta": "dangerous", "default": "breaking"}
    assert resolve_level(spec, "openapi", "request", "card", stability) == level
    nested = {"openapi": {"request": spec, "response": "safe"}, "kubernetes": "breaking"}
    assert resolve_level(nested, "openapi", "request", "card", stability) == level
