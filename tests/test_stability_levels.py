"""Stability from `x-stability-level` markers, and card levels keyed on stability."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rulecases import EXAMPLE_CARD

from specdiff.classify.cards import load_catalogue, resolve_level
from specdiff.load import load_text
from specdiff.pipeline import run


def _spec(marker: str | None, kind: str) -> dict[str, Any]:
    field: dict[str, Any] = {"type": kind}
    if marker is not None:
        field["x-stability-level"] = marker
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Frob"}}}}  # sent, returned
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {"/frobs": {"put": {"requestBody": body, "responses": {"200": {"description": "ok", **body}}}}},
            "components": {"schemas": {"Frob": {"type": "object", "properties": {"size": field}}}}}


def _levels(marker: str | None) -> list[tuple[str, str, str]]:
    old, new = _spec(marker, "string"), _spec(marker, "integer")
    report = run(load_text(json.dumps(old), "old.json", None), load_text(json.dumps(new), "new.json", None))
    return [(f.rule, f.change.pointer, f.level.value) for f in report.findings]


@pytest.mark.parametrize(("marker", "level"), [("draft", "dangerous"), ("alpha", "dangerous"), ("beta", "breaking"),
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
        ("parameter.became-required", "/paths/~1a/get/parameters/0/schema", "dangerous", "alpha")]


@pytest.mark.parametrize(("stability", "level"), [("alpha", "safe"), ("beta", "dangerous"), ("stable", "breaking")])
def test_a_card_level_may_key_on_stability(stability: str, level: str) -> None:
    spec = {"alpha": "safe", "beta": "dangerous", "default": "breaking"}
    assert resolve_level(spec, "openapi", "request", "card", stability) == level
    nested = {"openapi": {"request": spec, "response": "safe"}, "kubernetes": "breaking"}
    assert resolve_level(nested, "openapi", "request", "card", stability) == level


@pytest.mark.parametrize(("level", "kept"), [
    ("level: safe", False), ("level: {alpha: safe, default: breaking}", True),
    ("level: {openapi: {request: {beta: dangerous, default: breaking}, default: safe}, kubernetes: breaking}", True),
    ("level: safe\nwhen: [{predicate: value_replaced, level: {alpha: dangerous, default: breaking}}]", True),
    ("level: safe\nkeep_in_alpha: true", True)])
def test_a_card_that_keys_its_level_on_stability_is_not_softened_again_in_alpha(
        tmp_path: Path, level: str, kept: bool) -> None:
    """Decided once when the card loads: classify softens an alpha verdict only when `keep_in_alpha` is false."""
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "card.yaml").write_text(EXAMPLE_CARD.replace("level: safe", level))
    [card] = load_catalogue(tmp_path)
    assert card.keep_in_alpha is kept
