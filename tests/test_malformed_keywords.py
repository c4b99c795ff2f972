"""Schema keywords holding a value of the wrong JSON type are compared, never crash the classifier."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import specdiff
from specdiff.cli import main


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


BIG = "9" * 5000  # past the 4,300 digits Python turns into an int
HEAD = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}}
GET = {"responses": {"200": {"description": "ok"}}}
#: the schema A under a request body, then the same A with one value a crafted spec makes huge or of the wrong type
SEND = {"/a": {"post": {"requestBody": {"content": {"application/json": {"schema": {
    "$ref": "#/components/schemas/A"}}}}, **GET}}}


def _lifecycle(version: str) -> dict[str, object]:
    marker = {"kubernetes": {"minVersion": version, "status": "alpha", "featureGate": "G"}}
    return {"A": {"type": "object", "properties": {"f": {"type": "string", "x-kubernetes-api-lifecycle": marker}}}}


def _cel(literal: str) -> dict[str, object]:
    return {"A": {"type": "object", "properties": {"x": {"type": "integer"}},
                  "x-kubernetes-validations": [{"rule": f"self.x == {literal}"}]}}


def _required(*names: object) -> dict[str, object]:
    return {"A": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": list(names)}],
                  "required": ["a"]}}


DEPRECATED = {"/a": {"get": {**GET, "deprecated": True, "x-sunset": f"Sun, 01 Jan {'9' * 20} 00:00:00 GMT"}}}


@pytest.mark.parametrize("old, new, found", [
    (({}, _lifecycle("v1.30")), ({}, _lifecycle("v1." + BIG)), [
        ("lifecycle.invalid", "/components/schemas/A/properties/f/x-kubernetes-api-lifecycle")]),
    (({}, _cel("1")), ({}, _cel(BIG)), [
        ("kubernetes.validation.rule-changed", "/components/schemas/A/x-kubernetes-validations/0")]),
    ((SEND, _required()), (SEND, _required({"a": 1})), [
        ("schema.property.became-required", "/components/schemas/A/allOf/0/required")]),
    (({"/a": {"get": GET}}, {}), (DEPRECATED, {}), [("deprecation.sunset-invalid", "/paths/~1a/get"),
                                                    ("operation.deprecated", "/paths/~1a/get")]),
], ids=["minVersion of 5,000 digits", "CEL literal of 5,000 digits", "required holding a mapping",
        "x-sunset year of 20 digits"])
def test_huge_numbers_and_odd_entries_are_compared_not_a_crash(
        tmp_path: Path, old: tuple[dict[str, object], dict[str, object]],
        new: tuple[dict[str, object], dict[str, object]], found: list[tuple[str, str]]) -> None:
    """A minVersion or CEL literal past Python's int limit, an x-sunset year that overflows a date, a `required`
    entry that is a mapping: each used to be an internal error. Each side is (paths, schemas)."""
    for name, (paths, schemas) in (("old.json", old), ("new.json", new)):
        (tmp_path / name).write_text(json.dumps({**HEAD, "paths": paths, "components": {"schemas": schemas}}))
    report = specdiff.compare(tmp_path / "old.json", tmp_path / "new.json")
    assert [(f.rule, f.change.pointer) for f in report.findings] == found


def test_a_discriminator_beside_a_oneof_that_is_no_list_is_compared(tmp_path: Path) -> None:
    """`oneOf: 5` names no member for the discriminator to select: the discriminator is compared with none."""
    def pets(pet: dict[str, object]) -> dict[str, object]:
        return {**HEAD, "paths": {"/p": {"get": {"responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}},
            "components": {"schemas": {"Pet": pet}}}

    for name, pet in (("old.json", {"discriminator": {"propertyName": "type"}, "oneOf": 5}),
                      ("new.json", {"discriminator": {"propertyName": "kind"}, "oneOf": 5})):
        (tmp_path / name).write_text(json.dumps(pets(pet)))
    done = CliRunner().invoke(main, [str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--no-config",
                                     "--format", "json"])
    assert (done.exit_code, done.stderr) == (1, "")
    assert [(f["rule"], f["pointer"]) for f in json.loads(done.stdout)["findings"]] == [
        ("schema.discriminator-changed", "/components/schemas/Pet/discriminator")]
