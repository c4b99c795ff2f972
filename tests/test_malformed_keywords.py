"""Schema keywords holding a value of the wrong JSON type are compared, never crash the classifier."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import specdiff


def _spec(pattern: object) -> dict[str, object]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {"/frobs": {"get": {"parameters": [
                {"name": "q", "in": "query", "schema": {"type": "string", "pattern": pattern}}],
                "responses": {"200": {"description": "ok"}}}}}}


@pytest.mark.parametrize("old, new, rule", [
    ("^a+$", ["^a+$"], "schema.pattern-changed"),
    (["x"], {"y": 1}, "schema.pattern-changed"),
    (["x"], ".*", "schema.constraint-loosened"),  # whatever the list meant, `.*` constrains nothing
])
def test_a_pattern_that_is_not_a_string_is_a_change_not_a_crash(tmp_path: Path, old: object, new: object,
                                                                 rule: str) -> None:
    (tmp_path / "old.json").write_text(json.dumps(_spec(old)))
    (tmp_path / "new.json").write_text(json.dumps(_spec(new)))
    report = specdiff.compare(tmp_path / "old.json", tmp_path / "new.json")
    assert [(f.rule, f.change.pointer) for f in report.findings] == [
        (rule, "/paths/~1frobs/get/parameters/0/schema/pattern")]
