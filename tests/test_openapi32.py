"""OpenAPI 3.2 documents and the places the specification allows extensions, run as users run specdiff: two
files on the command line, the JSON report read back; and every rule's cases written again as 3.2 documents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from rulecases import expand, expected, observed, run_case

from specdiff.classify.cards import cases, catalogue
from specdiff.cli import main

HEAD = {"openapi": "3.2.0", "info": {"title": "t", "version": "1"}}
OK = {"200": {"description": "ok"}}


def compare(tmp_path: Path, old: dict[str, Any], new: dict[str, Any], *options: str) -> tuple[int, list[Any]]:
    """Exit code and (rule, pointer, level) of every finding of `specdiff old.yaml new.yaml --format json`, each
    member of a group at its own place."""
    (tmp_path / "old.yaml").write_text(yaml.safe_dump({**HEAD, **old}))
    (tmp_path / "new.yaml").write_text(yaml.safe_dump({**HEAD, **new}))
    result = CliRunner().invoke(main, [str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"), "--format", "json",
                                       *options])
    assert result.exit_code in (0, 1), result.output
    report = json.loads(result.output)
    return result.exit_code, sorted((f["rule"], m["pointer"], f["level"]) for f in report["findings"]
                                    for m in f.get("members") or [f])


def test_a_32_document_is_read_and_its_schemas_compared_as_31(tmp_path: Path) -> None:
    """3.2 schemas are JSON Schema 2020-12: a type list with null and a tuple are read as in 3.1."""
    def spec(last: dict[str, Any]) -> dict[str, Any]:
        pair = {"type": "array", "prefixItems": [{"type": "string"}, last]}
        return {"paths": {"/pets": {"get": {"responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"type": "object", "properties": {
                "name": {"type": ["string", "null"]}, "pair": pair}}}}}}}}}}
    code, findings = compare(tmp_path, spec({"type": "integer"}), spec({"type": "string"}))
    body = "/paths/~1pets/get/responses/200/content/application~1json/schema/properties"
    assert (code, findings) == (1, [("schema.type-changed", f"{body}/pair/prefixItems/1", "breaking")])


def test_extensions_inside_paths_and_callbacks_are_read_as_extensions(tmp_path: Path) -> None:
    """The Paths and Callback objects may carry `x-` keys (pb33f's burgershop writes both): they are no path
    items, and a change to one inside Paths is reported as the extension it is."""
    def spec(milk: str) -> dict[str, Any]:
        return {"paths": {"x-milky-milk": milk, "/burgers/{id}": {"x-burger-meta": "meaty", "get": {
                    "responses": OK, "callbacks": {"burgerCallback": {"$ref": "#/components/callbacks/Cb"}}}}},
                "components": {"callbacks": {"Cb": {"x-break-everything": "please", "{$request.query.url}": {
                    "post": {"responses": OK}}}}}}
    assert compare(tmp_path, spec("milky"), spec("milky")) == (0, [])
    assert compare(tmp_path, spec("milky"), spec("oat")) == (
        0, [("extension.changed", "/paths/x-milky-milk", "safe")])
    changed = spec("milky")
    changed["components"]["callbacks"]["Cb"]["x-break-everything"] = "gently"
    assert compare(tmp_path, spec("milky"), changed) == (
        0, [("extension.changed", "/components/callbacks/Cb/x-break-everything", "safe")])


def test_query_and_additional_operations_are_operations(tmp_path: Path) -> None:
    """A QUERY operation's body is a request like POST's; an operation under another method is compared as any."""
    def spec(required: list[str]) -> dict[str, Any]:
        body = {"content": {"application/json": {"schema": {
            "type": "object", "required": required, "properties": {"q": {"type": "string"},
                                                                   "limit": {"type": "integer"}}}}}}
        return {"paths": {"/frobs": {"query": {"requestBody": body, "responses": OK},
                                     "additionalOperations": {"COPY": {"requestBody": body, "responses": OK}}}}}
    code, findings = compare(tmp_path, spec(["q"]), spec(["q", "limit"]))
    schema = "requestBody/content/application~1json/schema/required"
    assert (code, findings) == (1, [
        ("schema.property.became-required", f"/paths/~1frobs/additionalOperations/COPY/{schema}", "breaking"),
        ("schema.property.became-required", f"/paths/~1frobs/query/{schema}", "breaking")])


def test_additional_operations_may_not_hold_a_fixed_method(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text(yaml.safe_dump({**HEAD, "paths": {}}))
    (tmp_path / "new.yaml").write_text(yaml.safe_dump(
        {**HEAD, "paths": {"/frobs": {"additionalOperations": {"POST": {"responses": OK}}}}}))
    result = CliRunner().invoke(main, [str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml")])
    assert (result.exit_code, result.output.strip()) == (
        2, f"specdiff: error: {tmp_path / 'new.yaml'}:/paths/~1frobs/additionalOperations/POST: "
           "'additionalOperations' may not hold POST: write it as the path item's 'post'")


def test_a_media_type_kept_in_components_is_compared_where_it_is_used(tmp_path: Path) -> None:
    """OpenAPI 3.2 `components/mediaTypes`: a `$ref` to a reusable media type is followed, so a property its
    streamed items lose is a response field removed, placed where the media type is written."""
    def spec(properties: list[str]) -> dict[str, Any]:
        events = {"itemSchema": {"type": "object", "properties": {p: {"type": "string"} for p in properties}}}
        return {"paths": {"/events": {"get": {"responses": {"200": {"description": "ok", "content": {
                    "text/event-stream": {"$ref": "#/components/mediaTypes/Events"}}}}}}},
                "components": {"mediaTypes": {"Events": events}}}
    assert compare(tmp_path, spec(["data", "id"]), spec(["data"])) == (
        1, [("schema.property.removed", "/components/mediaTypes/Events/itemSchema/properties/id", "breaking")])
    assert compare(tmp_path, spec(["data"]), spec(["data"])) == (0, [])


def _written_for_30(case: dict[str, Any]) -> bool:
    return all(isinstance(d, dict) and not {"openapi", "swagger", "kind"} & set(d) for d in (case["old"], case["new"]))


#: every card case written as a plain OpenAPI 3.0 pair (the documents name no version)
CASES_30 = [(card.id, i, case) for card in catalogue() for i, case in enumerate(cases(card)) if _written_for_30(case)]


@pytest.mark.parametrize(("card", "index", "case"), CASES_30, ids=[f"{c}[{i}]" for c, i, _ in CASES_30])
def test_every_30_rule_case_gives_the_same_findings_on_32(card: str, index: int, case: dict[str, Any]) -> None:
    """The cards' cases are written for OpenAPI 3.0; written as 3.2 documents they fire and miss alike."""
    as_32 = {**case, "old": {**expand(case["old"]), "openapi": "3.2.0"},
             "new": {**expand(case["new"]), "openapi": "3.2.0"}}
    with_level = all("level" in e for e in case.get("expect") or [])
    assert observed(run_case(as_32), with_level) == expected(case, with_level), case.get("name")


def test_before_32_query_and_additional_operations_are_compared_as_data(tmp_path: Path) -> None:
    """A 3.1 path item's `query` is no operation: a change to it is reported as data, never dropped."""
    def spec(summary: str) -> dict[str, Any]:
        return {"openapi": "3.1.0", "paths": {"/frobs": {"get": {"responses": OK},
                                                         "query": {"summary": summary, "responses": OK}}}}
    assert compare(tmp_path, spec("a"), spec("b")) == (
        0, [("specdiff.unclassified", "/paths/~1frobs/query/summary", "dangerous")])
