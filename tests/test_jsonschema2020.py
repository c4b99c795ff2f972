"""JSON Schema 2020-12 (OpenAPI 3.1): changes inside the newer subschema keywords are found where they are."""

from __future__ import annotations

from typing import Any

import pytest
from rulecases import run_case


def findings(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, str]]:
    def spec(schema: dict[str, Any]) -> dict[str, Any]:
        body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/F"}}}}  # sent, returned
        return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
                "paths": {"/f": {"put": {"requestBody": body, "responses": {"200": {"description": "ok", **body}}}}},
                "components": {"schemas": {"F": schema}}}

    report = run_case({"old": spec(old), "new": spec(new), "policy": "openapi"})
    return sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings)


F = "/components/schemas/F"


@pytest.mark.parametrize(("old", "new", "expected"), [
    ({"type": "array", "prefixItems": [{"type": "string"}]}, {"type": "array", "prefixItems": [{"type": "integer"}]},
     [("schema.type-changed", F + "/prefixItems/0", "breaking")]),
    ({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
     {"type": "array", "prefixItems": [{"type": "string"}]},
     [("schema.constraint-loosened", F + "/prefixItems/1", "breaking")]),
    ({"type": "array", "items": {"type": "string"}}, {"type": "array", "items": {"type": "string", "maxLength": 3}},
     [("schema.constraint-tightened", F + "/items/maxLength", "breaking")]),
    ({"type": "array", "contains": {"type": "string"}}, {"type": "array", "contains": {"type": "integer"}},
     [("schema.type-changed", F + "/contains", "breaking")]),
    ({"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}},
     {"type": "object", "dependentSchemas": {"a": {"required": ["b", "c"]}}},
     [("schema.property.became-required", F + "/dependentSchemas/a/required", "breaking")]),
    ({"type": "object", "patternProperties": {"^x-": {"type": "string"}}},
     {"type": "object", "patternProperties": {"^x-": {"type": "integer"}}},
     [("schema.type-changed", F + "/patternProperties/^x-", "breaking")]),
    ({"type": "object", "unevaluatedProperties": {"type": "string"}},
     {"type": "object", "unevaluatedProperties": {"type": "integer"}},
     [("schema.type-changed", F + "/unevaluatedProperties", "breaking")]),
    ({"type": "array", "unevaluatedItems": False}, {"type": "array"},
     [("schema.constraint-loosened", F, "breaking")]),  # the new schema, where the keyword is gone
    ({"type": "string", "contentMediaType": "application/json", "contentSchema": {"type": "object"}},
     {"type": "string", "contentMediaType": "application/json",
      "contentSchema": {"type": "object", "required": ["a"], "properties": {"a": {}}}},
     [("schema.property.required-added", F + "/contentSchema/properties/a", "breaking")]),
    ({"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]}},
     {"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c", "d"]}},
     [("schema.property.became-required", F + "/else/required", "breaking")]),
    ({"type": "object", "properties": {"a": {"$ref": "#/components/schemas/F/$defs/A"}},
      "$defs": {"A": {"type": "string"}}},
     {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/F/$defs/A"}},
      "$defs": {"A": {"type": "integer"}}},
     [("schema.type-changed", F + "/$defs/A", "breaking")]),
    ({"type": "string"}, {"type": ["string", "null"]}, [("schema.nullable-added", F, "breaking")]),
    ({"type": ["string", "null"]}, {"type": ["string", "integer", "null"]}, [("schema.type-changed", F, "breaking")]),
    ({"type": "object", "$defs": {"A": {"type": "string"}}}, {"type": "object", "$defs": {"B": {"type": "string"}}},
     []),
], ids=["prefixItems-inside", "prefixItems-removed", "items", "contains", "dependentSchemas", "patternProperties",
        "unevaluatedProperties", "unevaluatedItems", "contentSchema", "else", "defs", "null-type", "type-array",
        "defs-unreferenced"])
def test_changes_inside_2020_12_keywords(old: dict[str, Any], new: dict[str, Any],
                                         expected: list[tuple[str, str, str]]) -> None:
    assert findings(old, new) == expected
