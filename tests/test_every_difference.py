"""Every difference is accounted for: an edit anywhere a small spec can be edited (a vendor extension's value, a
keyword specdiff does not model, a server URL, `info.version`) gives a finding at the place edited, and the
same spec spelled otherwise (keys reordered) gives none."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_properties import PROFILE

from specdiff.load import load_text
from specdiff.load.sourcemap import join_pointer, split_pointer
from specdiff.pipeline import run

BASE: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "frobs", "version": "1.0.0", "x-audience": "public"},
    "servers": [{"url": "https://api.example.com/v1"}],
    "paths": {
        "/frobs": {
            "get": {"operationId": "listFrobs", "x-codegen": {"async": False},
                    "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}},
                                   {"$ref": "#/components/parameters/Cursor"}],
                    "responses": {"200": {"description": "ok", "content": {"application/json": {
                        "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Frob"}}}},
                        "headers": {"X-Total": {"schema": {"type": "integer"}}}}}},
            "post": {"requestBody": {"content": {"application/json": {
                        "schema": {"$ref": "#/components/schemas/Frob"}}}},
                     "responses": {"201": {"description": "created"}}},
        },
    },
    "components": {"parameters": {"Cursor": {"name": "cursor", "in": "query", "schema": {"type": "string"}}},
                   "schemas": {
        "Frob": {"type": "object", "x-go-name": "Frob", "required": ["name"],
                 "properties": {"name": {"type": "string", "maxLength": 10},
                                "size": {"type": "integer", "xml": {"attribute": True}},
                                "tags": {"type": "array", "items": {"type": "string"}}}},
    }},
}
#: objects an edit may touch, each compared by the typed differ
PLACES = ("", "/info", "/paths/~1frobs", "/paths/~1frobs/get", "/paths/~1frobs/post",
          "/paths/~1frobs/get/parameters/0", "/components/parameters/Cursor", "/paths/~1frobs/get/responses/200",
          "/paths/~1frobs/get/responses/200/content/application~1json",
          "/paths/~1frobs/get/responses/200/headers/X-Total", "/paths/~1frobs/post/requestBody",
          "/components/schemas/Frob",
          "/components/schemas/Frob/properties/name", "/components/schemas/Frob/properties/size",
          "/components/schemas/Frob/properties/tags/items")
KEYWORDS = ("x-go-name", "x-codegen", "x-internal", "xml", "$comment", "x-order")
VALUES = st.one_of(st.booleans(), st.integers(-3, 3), st.text("abc", min_size=1, max_size=3),
                   st.dictionaries(st.sampled_from(["name", "flag"]), st.integers(0, 3), min_size=1, max_size=2))


def _at(document: dict[str, Any], pointer: str) -> dict[str, Any]:
    node: Any = document
    for token in split_pointer(pointer):
        node = node[int(token)] if isinstance(node, list) else node[token]
    assert isinstance(node, dict)
    return node


def _pointers(old: dict[str, Any], new: dict[str, Any]) -> set[str]:
    report = run(load_text(json.dumps(old), "old.json", None), load_text(json.dumps(new), "new.json", None),
                 "auto", None, grouped=False)
    return {f.change.pointer for f in report.findings}


@given(st.sampled_from(PLACES), st.sampled_from(KEYWORDS), VALUES)
@PROFILE
def test_a_keyword_written_changed_or_dropped_anywhere_is_found_where_it_is(place: str, keyword: str,
                                                                            value: Any) -> None:
    new = copy.deepcopy(BASE)
    node = _at(new, place)
    before = node.get(keyword)
    if before == value:
        return
    node[keyword] = value
    at = place + join_pointer((keyword,))
    found = _pointers(BASE, new)
    assert any(p == at or p.startswith(at + "/") for p in found), (at, before, value, found)
    assert _pointers(new, BASE) & ({at} | {p for p in found if p.startswith(at)}), "and back again"


@given(st.sampled_from(["https://api.example.com/v2", "https://api.example.org/v1", "/v1",
                        "https://{region}.example.com/v1"]),
       st.sampled_from(["", "/paths/~1frobs", "/paths/~1frobs/get"]))
@PROFILE
def test_a_server_changed_at_any_level_is_found(url: str, level: str) -> None:
    new = copy.deepcopy(BASE)
    _at(new, level)["servers"] = [{"url": url, "variables": {"region": {"default": "eu"}}}]
    assert f"{level}/servers/0/url" in _pointers(BASE, new)


@given(st.text("0123456789.", min_size=1, max_size=6))
@PROFILE
def test_a_new_version_is_found(version: str) -> None:
    new = copy.deepcopy(BASE)
    new["info"]["version"] = version
    assert _pointers(BASE, new) == (set() if version == "1.0.0" else {"/info/version"})


def _reversed(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _reversed(value[key]) for key in reversed(value)}
    return [_reversed(item) for item in value] if isinstance(value, list) else value


def test_the_same_spec_with_every_key_reversed_has_no_finding() -> None:
    assert _pointers(BASE, _reversed(BASE)) == set()


@pytest.mark.parametrize(("place", "key", "value", "pointer", "old", "new"), [
    ("/components/parameters/Cursor", "x-codegen", {"async": True}, "/components/parameters/Cursor/x-codegen/async",
     False, True),
    ("/paths/~1frobs/get/parameters/0", "x-go-name", "Limit", "/paths/~1frobs/get/parameters/0/x-go-name",
     "limit", "Limit"),
    ("/paths/~1frobs/get/responses/200/headers/X-Total", "x-order", 2,
     "/paths/~1frobs/get/responses/200/headers/X-Total/x-order", 1, 2),
    ("/paths/~1frobs/get/responses/200", "links", {"next": {"operationId": "getFrob"}},
     "/paths/~1frobs/get/responses/200/links/next/operationId", "listFrobs", "getFrob"),
    ("/paths/~1frobs/get/responses/200/content/application~1json", "encoding", {"a": {"contentType": "text/csv"}},
     "/paths/~1frobs/get/responses/200/content/application~1json/encoding/a/contentType", "text/plain", "text/csv"),
    ("/paths/~1frobs/post/requestBody", "x-codegen", {"name": "frob"},
     "/paths/~1frobs/post/requestBody/x-codegen/name", "thing", "frob"),
    ("/paths/~1frobs", "x-internal", False, "/paths/~1frobs/x-internal", True, False),
])
def test_what_no_family_models_inside_an_operation_is_found_with_both_values(
        place: str, key: str, value: Any, pointer: str, old: Any, new: Any) -> None:
    """Parameters (shared ones too), headers, responses, media types, request bodies and path items: every key the
    differ does not model is compared as data, down to the inner place that changed (a media type's encoding has
    a card of its own)."""
    before, after = copy.deepcopy(BASE), copy.deepcopy(BASE)
    written = {"x-codegen": {"async": False}, "x-go-name": "limit", "x-order": 1,
               "links": {"next": {"operationId": "listFrobs"}}, "encoding": {"a": {"contentType": "text/plain"}},
               "x-internal": True}
    _at(before, place)[key] = {"name": "thing"} if place.endswith("requestBody") else written[key]
    _at(after, place)[key] = value
    report = run(load_text(json.dumps(before), "old.json", None), load_text(json.dumps(after), "new.json", None),
                 "auto", None, grouped=False)
    rule = ("media-type.encoding-changed" if key == "encoding" else "extension.changed" if key.startswith("x-")
            else "specdiff.unclassified")  # a card of its own, metadata, or unknown
    assert [(f.rule, f.change.pointer, f.change.old, f.change.new) for f in report.findings] == [
        (rule, pointer, old, new)]


def _extension_changes(old: Any, new: Any) -> list[tuple[str, str, str | None, str | None, Any, Any]]:
    before, after = copy.deepcopy(BASE), copy.deepcopy(BASE)
    _at(before, "/paths/~1frobs/get")["x-codegen"] = old
    _at(after, "/paths/~1frobs/get")["x-codegen"] = new
    report = run(load_text(json.dumps(before), "old.json", None), load_text(json.dumps(after), "new.json", None),
                 "auto", None, grouped=False)
    return [(f.change.kind, f.change.attribute, f.change.old_pointer, f.change.new_pointer, f.change.old,
             f.change.new) for f in report.findings]


AT = "/paths/~1frobs/get/x-codegen"
MANY = {"async": False, "name": "frob", "tags": ["a", "b"], "retries": 3, "paging": {"size": 10}}


@pytest.mark.parametrize(("new", "expected"), [
    # one plain entry of many changed: that entry, with both values
    ({**MANY, "retries": 4}, [("modified", "x-codegen/retries", AT + "/retries", AT + "/retries", 3, 4)]),
    # an entry added and one removed
    ({**{k: v for k, v in MANY.items() if k != "name"}, "label": "x"},
     [("added", "x-codegen/label", None, AT + "/label", None, "x"),
      ("removed", "x-codegen/name", AT + "/name", None, "frob", None)]),
    # inside an entry: an item inserted in its list is found at its own index, not as every later one changed
    ({**MANY, "tags": ["a", "z", "b"]}, [("added", "x-codegen/tags/1", None, AT + "/tags/1", None, "z")]),
    # one item of a list replaced by two: a removal and two additions, not the item changed into the first
    ({**MANY, "tags": ["a", "y", "z"]}, [("added", "x-codegen/tags/1", None, AT + "/tags/1", None, "y"),
                                         ("removed", "x-codegen/tags/1", AT + "/tags/1", None, "b", None),
                                         ("added", "x-codegen/tags/2", None, AT + "/tags/2", None, "z")]),
    # near miss: one item replaced by one is that item changed
    ({**MANY, "tags": ["a", "y"]}, [("modified", "x-codegen/tags/1", AT + "/tags/1", AT + "/tags/1", "b", "y")]),
    ({**MANY, "paging": {"size": 20}}, [("modified", "x-codegen/paging/size", AT + "/paging/size",
                                          AT + "/paging/size", 10, 20)]),
    # an entry that became another type is one change of that entry
    ({**MANY, "retries": "3"}, [("modified", "x-codegen/retries", AT + "/retries", AT + "/retries", 3, "3")]),
    # a mapping keeping fewer than a third of its keys is one change of the whole keyword
    ({"async": False, "mode": "x", "level": 1, "owner": "y"},
     [("modified", "x-codegen", AT, AT, MANY, {"async": False, "mode": "x", "level": 1, "owner": "y"})]),
    # more than five places: the whole keyword
    ({"async": True, "name": "f", "tags": [], "retries": 0, "paging": {}},
     [("modified", "x-codegen", AT, AT, MANY, {"async": True, "name": "f", "tags": [], "retries": 0,
                                                "paging": {}})]),
])
def test_a_changed_mapping_no_family_models_is_read_key_by_key(new: Any, expected: list[Any]) -> None:
    """The top of an unmodelled mapping is read key by key (its unchanged entries are never walked); a list
    inside it that changed is aligned on its equal items, whatever they hold, and a mapping compared as deepdiff
    compares it."""
    assert _extension_changes(MANY, new) == expected
