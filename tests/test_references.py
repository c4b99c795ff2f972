"""References of every spelling reach the comparison, and each pair they reach is compared once."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

from specdiff.load import load_text
from specdiff.pipeline import run


def _spec(library: dict[str, Any], body_ref: str, where: str = "x-lib") -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "refs", "version": "1"},
            "paths": {"/a": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": body_ref}}}},
                                      "responses": {"200": {"description": "ok"}}}}},
            where: library}


def _findings(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    report = run(load_text(json.dumps(old), "old.json", None), load_text(json.dumps(new), "new.json", None))
    return sorted((f.rule, f.change.pointer) for f in report.findings)


def test_a_change_behind_a_ref_to_a_place_that_is_not_a_named_schema_is_found() -> None:
    """The operation and its `$ref` read the same on both sides; only what `#/x-lib/Foo` holds changed."""
    def foo(kind: str) -> dict[str, Any]:
        return {"Foo": {"type": "object", "properties": {"name": {"type": kind}}}}

    old, new = _spec(foo("string"), "#/x-lib/Foo"), _spec(foo("integer"), "#/x-lib/Foo")
    assert _findings(old, new) == [("schema.type-changed", "/x-lib/Foo/properties/name")]


def test_a_change_behind_a_ref_into_a_named_schema_is_found() -> None:
    """`#/components/schemas/Foo/properties/name` is a place inside a named schema, not a named schema."""
    def spec(kind: str) -> dict[str, Any]:
        return {**_spec({}, "#/components/schemas/Foo/properties/name"),
                "components": {"schemas": {"Foo": {"type": "object", "properties": {"name": {"type": kind}}}}}}

    assert _findings(spec("string"), spec("integer")) == [
        ("schema.type-changed", "/components/schemas/Foo/properties/name")]


def _fan_out(leaf: str) -> dict[str, Any]:
    """Six levels of ten properties, each referring to the next level: a million paths to the leaves."""
    library = {f"L{level}": {"type": "object", "properties": {f"p{i}": {"$ref": f"#/x-lib/L{level + 1}"}
                                                              for i in range(10)}} for level in range(1, 6)}
    library["L6"] = {"type": "object", "properties": {f"p{i}": {"type": leaf} for i in range(10)}}
    return _spec(library, "#/x-lib/L1")


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_references_that_fan_out_compare_each_pair_once(tmp_path: Path) -> None:
    """2 KB of spec whose refs fan out to a million paths: each leaf changed once, found once, in bounded memory."""
    (tmp_path / "old.json").write_text(json.dumps(_fan_out("string")))
    (tmp_path / "new.json").write_text(json.dumps(_fan_out("integer")))
    done = subprocess.run([sys.executable, "-m", "specdiff", "old.json", "new.json", "--no-config", "--format",
                           "json"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          preexec_fn=_limit_memory)
    assert done.returncode == 1, done.stderr
    found = sorted((f["rule"], f["pointer"]) for f in json.loads(done.stdout)["findings"])
    assert found == [("schema.type-changed", f"/x-lib/L6/properties/p{i}") for i in range(10)]
