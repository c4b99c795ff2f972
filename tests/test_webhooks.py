"""Webhooks (OpenAPI 3.1) and callbacks (3.0): the API sends the request and the client writes the response,
so every direction is reversed."""

from __future__ import annotations

from typing import Any

from rulecases import run_case

PET = {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
PET2 = {"type": "object", "required": ["id", "tag"],
        "properties": {"id": {"type": "string"}, "tag": {"type": "string"}}}
CALLBACK = "/paths/~1subscribe/post/callbacks/onEvent/{$request.body#~1url}/post"


def spec(pet: dict[str, Any]) -> dict[str, Any]:
    exchange = {"requestBody": {"content": {"application/json": {"schema": pet}}},
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": pet}}}}}
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/subscribe": {"post": {"responses": {"200": {"description": "ok"}},
                                              "callbacks": {"onEvent": {"{$request.body#/url}": {"post": exchange}}}}}},
            "webhooks": {"newPet": {"post": {
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
                "responses": {"200": {"description": "ok"}}}}},
            "components": {"schemas": {"Pet": pet}}}


def test_callback_and_webhook_directions_are_reversed() -> None:
    report = run_case({"old": spec(PET), "new": spec(PET2), "policy": "openapi"})
    assert sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings) == sorted([
        # the API sends these bodies: a property it stops sending breaks the clients that read it ...
        ("schema.property.removed", CALLBACK + "/requestBody/content/application~1json/schema/properties/name",
         "breaking"),
        ("schema.property.removed", "/components/schemas/Pet/properties/name", "breaking"),
        # ... and one it now always sends is only more for them
        ("schema.property.required-added",
         CALLBACK + "/requestBody/content/application~1json/schema/properties/tag", "safe"),
        ("schema.property.required-added", "/components/schemas/Pet/properties/tag", "safe"),
        # the client writes the callback's response: a new required property breaks the clients' replies
        ("schema.property.required-added",
         CALLBACK + "/responses/200/content/application~1json/schema/properties/tag", "breaking"),
        ("schema.property.removed", CALLBACK + "/responses/200/content/application~1json/schema/properties/name",
         "dangerous"),
    ])


def test_webhooks_added_and_removed_are_operations() -> None:
    old, new = spec(PET), spec(PET)
    new["webhooks"] = {"petGone": new["webhooks"].pop("newPet")}
    report = run_case({"old": old, "new": new, "policy": "openapi"})
    assert sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings) == [
        ("operation.added", "/webhooks/petGone/post", "safe"),
        ("operation.removed", "/webhooks/newPet/post", "breaking"),
    ]
