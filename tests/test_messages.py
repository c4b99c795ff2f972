"""Messages a reviewer can read: which union member came or went when several share a type, which media type of a
body changed, a type that is no longer written, JSON quoted as code, and a list of objects that lost items read
as removals, not as every later item replaced."""

from __future__ import annotations

import json
from typing import Any

from specdiff.classify import show
from specdiff.load import load_text
from specdiff.pipeline import run


def _messages(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, str]]:
    def document(parts: dict[str, Any]) -> str:
        return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, **parts})

    report = run(load_text(document(old), "old.json", None), load_text(document(new), "new.json", None))
    return sorted((f.rule, f.change.pointer, f.message) for f in report.findings)


def _body(content: dict[str, Any]) -> dict[str, Any]:
    return {"paths": {"/labels": {"put": {"requestBody": {"content": content},
                                          "responses": {"204": {"description": "ok"}}}}}}


NAMES = {"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "string"}}}}
STRINGS = {"type": "array", "items": {"type": "string"}}


def test_a_member_whose_type_another_member_shares_is_named_by_what_it_holds() -> None:
    """GitHub's labels body: `object` and `array` each name two of the new members, so they say which one."""
    old = _body({"application/json": {"schema": NAMES}})
    new = _body({"application/json": {"schema": {"anyOf": [
        NAMES, STRINGS, {"type": "object", "properties": {"names": {"type": "array"}}},
        {"type": "array", "items": {"$ref": "#/components/schemas/Label"}}, {"type": "string"}]}}})
    new["components"] = {"schemas": {"Label": {"type": "object"}}}
    pointer = "/paths/~1labels/put/requestBody/content/application~1json/schema/anyOf/"
    assert _messages(old, new) == [
        ("schema.added", "/components/schemas/Label", "schema Label added"),
        ("schema.any-of.member-added", pointer + "1", "PUT /labels request body may now also be array of string, "
                                                      "object {names}, array of Label and string")]


def test_near_miss_a_member_of_a_type_no_other_member_has_is_named_by_its_type() -> None:
    old = _body({"application/json": {"schema": {"anyOf": [{"type": "integer"}]}}})
    new = _body({"application/json": {"schema": {"anyOf": [{"type": "integer"}, NAMES]}}})
    assert _messages(old, new) == [
        ("schema.any-of.member-added", "/paths/~1labels/put/requestBody/content/application~1json/schema/anyOf/1",
         "PUT /labels request body may now also be object")]


def test_each_media_type_of_a_body_is_named_where_their_schemas_differ() -> None:
    old = _body({"application/json": {"schema": {"anyOf": [{"type": "integer"}]}},
                 "application/xml": {"schema": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}})
    new = _body({"application/json": {"schema": {"anyOf": [{"type": "integer"}, {"type": "string"}]}},
                 "application/xml": {"schema": {"anyOf": [{"type": "integer"}]}}})
    at = "/paths/~1labels/put/requestBody/content/"
    assert _messages(old, new) == [
        ("schema.any-of.member-added", at + "application~1json/schema/anyOf/1",
         "PUT /labels request body (application/json) may now also be string"),
        ("schema.any-of.member-removed", at + "application~1xml/schema/anyOf/1",
         "PUT /labels request body (application/xml) may no longer be string")]


def test_near_miss_media_types_that_share_one_schema_are_one_body() -> None:
    """Kubernetes' v3 documents write the same `$ref` under JSON, YAML and protobuf: one change, one place."""
    def body(kind: str) -> dict[str, Any]:
        return _body({name: {"schema": {"type": kind}} for name in ("application/json", "application/yaml")})

    [(rule, _, message)] = _messages(body("string"), body("integer"))
    assert (rule, message) == ("schema.type-changed", "type of PUT /labels request body changed from string to integer")


def test_a_type_no_longer_written_takes_any_type() -> None:
    def spec(schema: dict[str, Any]) -> dict[str, Any]:
        return {"paths": {}, "components": {"schemas": {"Run": {"type": "object", "properties": {"choice": schema}}}}}

    assert [message for *_, message in _messages(spec({"type": "string"}), spec({"description": "any"}))] == [
        "type of Run.choice changed from string to any type"]


def test_json_in_a_message_is_quoted_as_code() -> None:
    old = {"paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}}}
    new = {"paths": {"/a": {"get": {"x-twilio": {"mountName": "fetch"}, "responses": {"200": {"description": "ok"}}}}}}
    assert [message for *_, message in _messages(old, new)] == ['x-twilio added to GET /a: `{"mountName": "fetch"}`']


def test_a_list_of_objects_that_loses_two_items_reads_as_two_removals() -> None:
    def spec(names: str) -> dict[str, Any]:
        return {"components": {"schemas": {"S": {"type": "object", "x-fields": [{"name": n} for n in names]}}}}

    report = run(*(load_text(json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
                                         **spec(names)}), f"{names}.json", None) for names in ("abcdefg", "adefg")))
    [finding] = report.findings
    assert [(m.change.kind, m.change.pointer, m.change.old) for m in finding.members] == [
        ("removed", "/components/schemas/S/x-fields/1", {"name": "b"}),
        ("removed", "/components/schemas/S/x-fields/2", {"name": "c"})]


def test_stripe_s_empty_string_alternative_is_named_so() -> None:
    """`url` was a string and becomes "a string or the empty string": saying it may now be a string tells nothing."""
    def body(url: dict[str, Any]) -> dict[str, Any]:
        return _body({"application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {"url": url}}}})

    old, new = body({"type": "string"}), body({"anyOf": [{"type": "string"}, {"type": "string", "enum": [""]}]})
    assert [message for *_, message in _messages(old, new)] == [
        "PUT /labels request body: url may now also be the empty string"]


def _two_errors(content: dict[str, Any] | None) -> dict[str, Any]:
    body = {"content": content} if content else {}
    return {"paths": {"/labels": {"put": {"responses": {
        "204": {"description": "ok"}, "404": {"description": "missing", **body},
        "409": {"description": "conflict", **body}}}}}}


def test_a_verb_after_several_bodies_is_written_for_many() -> None:
    """Two error responses that no longer document their body: one group, whose subject names both."""
    old = _two_errors({"application/json": {"schema": {"type": "object"}}})
    assert [message for _, _, message in _messages(old, _two_errors(None))] == [
        "PUT /labels response 404 and response 409 are no longer offered as application/json"]


def test_near_miss_a_verb_after_one_body_of_several_operations_is_written_for_one() -> None:
    def spec(content: dict[str, Any] | None) -> dict[str, Any]:
        body = {"content": content} if content else {}
        return {"paths": {path: {"get": {"responses": {"200": {"description": "ok"},
                                                       "404": {"description": "missing", **body}}}}
                          for path in ("/a", "/b")}}

    old = spec({"application/json": {"schema": {"type": "object"}}})
    assert [message for _, _, message in _messages(old, spec(None))] == [
        "response 404 is no longer offered as application/json in 2 operations: GET /a and GET /b"]


def test_a_verb_after_an_adverb_is_written_for_many() -> None:
    """`{location} now has format {new}` for several places: the verb after `now` agrees with them."""
    def spec(formats: bool) -> dict[str, Any]:
        field = {"type": "string", **({"format": "uri"} if formats else {})}
        return {"components": {"schemas": {"Repo": {"type": "object", "properties": {"url": field, "home": field}}}}}

    assert [message for _, _, message in _messages(spec(False), spec(True))] == [
        "2 places: Repo.home and Repo.url now have format uri"]


def test_equal_values_of_other_types_are_shown_apart_however_often_they_are_shown() -> None:
    for _ in range(2):  # (the second time from what the first remembered)
        assert [show(v) for v in (True, 1, False, 0, None, "a \n b", 0.0, -0.0)] == [
            "true", "1", "false", "0", "null", "a b", "0.0", "-0.0"]
