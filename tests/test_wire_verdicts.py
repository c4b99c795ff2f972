"""Verdicts on what goes over the wire of a plain OpenAPI API: responses that may now carry what the spec excluded,
schemas nothing uses, bodies whose type was replaced; pinned under both policies and on real specs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import real_pair
from rulecases import run_case

from specdiff.config import load_config
from specdiff.errors import ConfigError
from specdiff.load import load_text
from specdiff.notation import where
from specdiff.pipeline import run
from specdiff.report import render

MUSEUM = "openapi/museum-3.1/museum-2024-{}.yaml"


def _used(schemas: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A spec whose one operation sends and returns Frob."""
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Frob"}}}}
    return {"paths": {"/frobs": {"put": {"requestBody": body, "responses": {"200": {"description": "ok", **body}}}}},
            "components": {"schemas": schemas}, **extra}


def _verdicts(old: dict[str, Any], new: dict[str, Any], policy: str = "auto",
              config: dict[str, Any] | None = None) -> list[tuple[str, str, str]]:
    report = run_case({"old": old, "new": new, "policy": policy, "config": config})
    return sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings)


LOOSENED = ({"Frob": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 10}}}},
            {"Frob": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 99}}}})
AT = "/components/schemas/Frob/properties/name/maxLength"


@pytest.mark.parametrize(("policy", "readers", "level"), [
    ("openapi", None, "breaking"), ("openapi", "tolerant", "dangerous"),
    ("kubernetes", None, "dangerous"), ("kubernetes", "validating", "breaking")])
def test_a_longer_max_length_in_what_is_returned_breaks_clients_that_validate_responses(
        policy: str, readers: str | None, level: str) -> None:
    config = {"response-readers": readers} if readers else None
    old, new = (_used(schemas) for schemas in LOOSENED)
    assert _verdicts(old, new, policy, config) == [("schema.constraint-loosened", AT, level)]


def test_a_longer_max_length_in_a_request_only_is_safe_whatever_the_readers() -> None:
    def spec(length: int) -> dict[str, Any]:
        schema = {"type": "string", "maxLength": length}
        return {"paths": {"/frobs": {"get": {"parameters": [{"name": "q", "in": "query", "schema": schema}],
                                             "responses": {"200": {"description": "ok"}}}}}}

    pointer = "/paths/~1frobs/get/parameters/0/schema/maxLength"
    for readers in ("validating", "tolerant"):
        assert _verdicts(spec(10), spec(99), "openapi", {"response-readers": readers}) == [
            ("schema.constraint-loosened", pointer, "safe")]


@pytest.mark.parametrize(("policy", "readers", "named"), [
    ("openapi", None, "validating"), ("kubernetes", None, "tolerant"),
    ("openapi", "tolerant", "tolerant (as configured)"), ("kubernetes", "validating", "validating (as configured)")])
def test_every_report_that_names_the_policy_names_the_response_readers_beside_it(
        policy: str, readers: str | None, named: str) -> None:
    """Verdicts such as a loosened response constraint key on how clients read responses: a report says which
    setting judged them, the policy's default or the configuration's."""
    config = {"response-readers": readers} if readers else None
    old, new = (_used(schemas) for schemas in LOOSENED)
    report = run_case({"old": old, "new": new, "policy": policy, "config": config, "today": "2026-01-15"})
    header = f"policy: {policy} (as configured); response readers: {named}; as of 2026-01-15"
    assert report.policy_label == f"spec: OpenAPI (no Kubernetes markers); {header}"
    for name in ("text", "markdown", "html"):
        assert header in render(report, name), name
    assert "policy" not in render(report, "release-notes")  # notes to publish leave the tool's settings out
    value = named.split()[0]
    assert json.loads(render(report, "json"))["response_readers"] == value
    assert json.loads(render(report, "sarif"))["runs"][0]["properties"]["response_readers"] == value
    assert f'<property name="response_readers" value="{value}" />' in render(report, "junit")


def test_response_readers_must_be_one_of_the_two(tmp_path: Path) -> None:
    (tmp_path / ".specdiff.yaml").write_text("policy: openapi\nresponse-readers: lenient\n")
    with pytest.raises(ConfigError) as raised:
        load_config(tmp_path / ".specdiff.yaml")
    assert str(raised.value).endswith(
        ".specdiff.yaml:2: response-readers must be one of validating, tolerant, not 'lenient'")


def test_a_schema_nothing_uses_is_at_most_dangerous_and_says_why() -> None:
    old, new = ({"components": {"schemas": {"Event": {"type": "object", "required": [name], "properties": {
        "type": {"type": "string"}, "id": {"type": "string"}}}}}} for name in ("type", "id"))
    report = run_case({"old": old, "new": new, "policy": "openapi"})
    assert sorted((f.rule, f.change.pointer, f.level.value, f.change.direction) for f in report.findings) == [
        ("schema.property.became-optional", "/components/schemas/Event/required", "dangerous", "unused"),
        ("schema.property.became-required", "/components/schemas/Event/required", "dangerous", "unused")]
    assert all(f.reason.startswith("nothing in the spec uses it: no operation, webhook or callback sends or "
                                   "returns this schema (a use that went is reported where it was)")
               for f in report.findings)


def test_a_kubernetes_definition_no_operation_reaches_keeps_its_verdict() -> None:
    def spec(required: list[str]) -> dict[str, Any]:
        frob = {"type": "object", "required": required, "properties": {"a": {"type": "string"}},
                "x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "Frob"}]}
        return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
                "components": {"schemas": {"io.k8s.api.core.v1.Frob": frob}}}

    report = run(load_text(json.dumps(spec([])), "old.json", None),
                 load_text(json.dumps(spec(["a"])), "new.json", None))
    assert [(f.rule, f.level.value, f.change.direction) for f in report.findings] == [
        ("schema.property.became-required", "breaking", "both")]


def test_a_required_property_that_stops_being_read_only_must_now_be_sent() -> None:
    def spec(read_only: bool) -> dict[str, Any]:
        return _used({"Frob": {"type": "object", "required": ["id"], "properties": {
            "id": {"type": "string", **({"readOnly": True} if read_only else {})}}}})

    report = run_case({"old": spec(True), "new": spec(False)})
    [found] = report.findings
    assert (found.rule, found.change.pointer, found.level.value, found.change.direction) == (
        "schema.property.became-required", "/components/schemas/Frob/required", "breaking", "request")
    assert found.reason.startswith("The property was read-only, so writers never sent it")
    assert _verdicts(spec(False), spec(True)) == [  # and back: writers that send it now meet a read-only field
        ("schema.read-only-added", "/components/schemas/Frob/properties/id/readOnly", "breaking")]


def test_a_field_beside_one_named_read_only_is_still_sent() -> None:
    """A type may have a field named `readOnly` (Kubernetes' VolumeMount does): its schema, under `properties`, is
    no marker, and a tighter limit on the field beside it still refuses requests that worked."""
    def spec(length: int | None) -> dict[str, Any]:
        path = {"type": "string", **({"maxLength": length} if length else {})}
        return _used({"Frob": {"type": "object", "properties": {"readOnly": {"type": "boolean"}, "path": path}}})

    assert _verdicts(spec(None), spec(10), "openapi") == [
        ("schema.constraint-tightened", "/components/schemas/Frob/properties/path/maxLength", "breaking")]
    assert _verdicts(spec(None), spec(10), "kubernetes") == [
        ("schema.constraint-tightened", "/components/schemas/Frob/properties/path/maxLength", "breaking")]


def test_museum_uncoupled_from_http_is_judged_on_the_wire() -> None:
    """The Museum API's "uncouple from HTTP" change replaced 8 body types: the breaking changes are what a client
    meets on the wire, at the operations, and each replacement is reported once beside them."""
    report = real_pair(MUSEUM.format("07-19-6db4b2d"), MUSEUM.format("10-08-3bdfc57"), grouped=False)
    assert sorted((f.rule, where(f.change.context)) for f in report.findings if f.level.value == "breaking") == [
        ("schema.property.became-optional", "GET /special-events response 200: [].eventId"),
        ("schema.property.became-optional", "GET /special-events/{eventId} response 200: eventId"),
        ("schema.property.became-optional", "PATCH /special-events/{eventId} response 200: eventId"),
        ("schema.property.became-optional", "POST /special-events response 201: eventId"),
        ("schema.property.became-optional", "POST /tickets response 201: ticketId"),
        ("schema.property.removed", "POST /tickets response 201: eventName"),
    ]
    replaced = sorted(where(f.change.context) for f in report.findings if f.rule == "schema.body-type-replaced")
    assert replaced == sorted([
        "GET /museum-hours response 200", "GET /special-events response 200", "GET /special-events response 200: []",
        "GET /special-events/{eventId} response 200", "GET /tickets/{ticketId}/qr response 200",
        "PATCH /special-events/{eventId} request body", "PATCH /special-events/{eventId} response 200",
        "POST /special-events request body", "POST /special-events response 201", "POST /tickets request body",
        "POST /tickets response 201"])


def test_openai_realtime_events_nothing_uses_are_not_breaking() -> None:
    """OpenAI describes its Realtime WebSocket events only as components: no operation sends them."""
    report = real_pair("openapi/openai/openapi-2024-10-17.yaml", "openapi/openai/openapi-2025-04-29.yaml",
                       grouped=False)
    introduced = [f for f in report.findings if f.rule == "schema.enum.introduced"]
    assert [f for f in introduced if f.level.value == "breaking"] == []
    unused = [f for f in introduced if f.change.direction == "unused"]
    assert len(unused) == 83
    # an enum whose values the old description already listed (`must be "session.created"`) is a documentation
    # correction; the others, dangerous at most since nothing uses them
    corrections = {(f.change.context.schema, "".join(f.change.context.field)) for f in unused
                   if f.level.value == "safe" and f.reason.startswith("Documentation correction")}
    assert len(corrections) == 58 and ("RealtimeServerEventSessionCreated", ".type") in corrections
    assert all(f.level.value == "dangerous" for f in unused
               if (f.change.context.schema, "".join(f.change.context.field)) not in corrections)
    assert ("RealtimeClientEventSessionUpdate", ".session.turn_detection.type") not in corrections


def test_a_schema_whose_every_use_went_is_safe_and_says_why() -> None:
    def spec(paths: dict[str, Any], properties: dict[str, Any]) -> dict[str, Any]:
        return {"paths": paths, "components": {"schemas": {"Prefs": {"type": "object", "properties": properties}}}}

    uses = {"/prefs": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Prefs"}}}}}}}}
    report = run_case({"old": spec(uses, {"theme": {"type": "string"}}), "new": spec({}, {}), "policy": "openapi"})
    assert sorted((f.rule, f.change.pointer, f.level.value, f.change.direction) for f in report.findings) == [
        ("operation.removed", "/paths/~1prefs/get", "breaking", "both"),
        ("schema.property.removed", "/components/schemas/Prefs/properties/theme", "safe", "cut off")]
    [inside] = [f for f in report.findings if f.rule == "schema.property.removed"]
    assert inside.reason.startswith("no operation of the new spec uses it: each use the old spec made of it went")


def test_a_schema_only_the_new_spec_returns_is_at_most_dangerous_and_says_why() -> None:
    chunk = {"Chunk": {"type": "object", "properties": {"role": {"type": "string", "enum": ["user"]}}}}

    def spec(content: dict[str, Any], values: list[str]) -> dict[str, Any]:
        schemas = {"Chunk": {**chunk["Chunk"], "properties": {"role": {"type": "string", "enum": values}}}}
        return {"paths": {"/frobs": {"get": {"responses": {"200": {"description": "ok", "content": content}}}}},
                "components": {"schemas": schemas}}

    stream = {"text/event-stream": {"schema": {"$ref": "#/components/schemas/Chunk"}}}
    report = run_case({"old": spec({}, ["user"]), "new": spec(stream, ["user", "developer"]), "policy": "openapi"})
    [added] = [f for f in report.findings if f.rule == "schema.enum.value-added"]
    assert (added.level.value, added.change.direction) == ("dangerous", "first used: response")
    assert added.reason.startswith("no operation of the old spec used it: the new spec is the first to send or "
                                   "accept it")
