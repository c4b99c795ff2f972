"""The records every stage shares."""

from __future__ import annotations

import dataclasses
import json
from datetime import date
from typing import Any

import pytest

from specdiff.records import Change, Context, Part, field_path, ordering_text, spaced_text


def test_context_at_adds_a_step_and_keeps_every_other_field() -> None:
    values = {f.name: f"value of {f.name}" for f in dataclasses.fields(Context)}
    values["field"] = (".status",)
    context = Context(**values)
    assert context.at(".spec") == dataclasses.replace(context, field=(".status", ".spec"))
    within = Part("response", "200")
    assert context.within(within) == dataclasses.replace(context, part=within, field=())
    held = (("apps/v1/Deployment", (".spec",)),)
    reached = context.reaching(("GET /x",), held)
    assert reached == dataclasses.replace(context, operations=("GET /x",))
    assert (reached.held_by, reached.whole_type) == (held, context.whole_type)  # display fields, not compared


def test_a_change_with_another_context_keeps_every_other_field() -> None:
    values = {f.name: f"value of {f.name}" for f in dataclasses.fields(Change)}
    values["context"] = Context(schema="Pet")
    change = Change(**values)
    placed = Context(schema="Pet", operations=("GET /pets",))
    assert change.with_context(placed) == dataclasses.replace(change, context=placed)
    assert change.with_context(placed).context.operations == ("GET /pets",)


def test_the_field_path_is_written_from_the_part_and_the_steps() -> None:
    operation = Context(method="GET", route="/pets")
    assert (operation.operation, field_path(operation)) == ("GET /pets", None)
    assert field_path(operation.at("security")) == "security"
    assert field_path(operation.within(Part("response", "200")).at("[]").at(".id")) == "response 200[].id"
    assert field_path(operation.within(Part("parameter", name="limit", location="query"))) == "query parameter limit"
    assert field_path(Context(schema="Pet").at(".tags").at("[]")) == ".tags[]"
    assert (Context(schema="Pet").operation, field_path(Context(schema="Pet"))) == (None, None)
    assert [field_path(Context(part=part)) for part in (Part("document"), Part("info"), Part("path", name="/pets"),
                                                        Part("security scheme", name="oauth"))] == [
        "the document", "info", "path /pets", "security scheme oauth"]


def test_places_sort_by_their_structure_a_whole_before_its_parts() -> None:
    get = Context(method="GET", route="/pets", group_version="shop/v1")
    places = [
        Context(schema="Pet", group_version="shop/v1").at(".name"),
        get.within(Part("response", "200")).at(".a"),
        get.within(Part("response header", "200", "X-Rate")),
        get.within(Part("response", "200")),
        Context(schema="Pet", group_version="shop/v1"),
        get.within(Part("response", "404")),
        Context(method="POST", route="/pets", group_version="shop/v1"),
        get.within(Part("parameter", name="limit", location="query")),
        get,
        Context(group_version="shop/v1"),
        Context(method="DELETE", route="/pets/{id}", group_version="shop/v1"),
        Context(schema="Owner", group_version="shop/v2"),
        Context(part=Part("info")),
    ]
    ordered = sorted(places, key=Context.place_key)
    assert [f"{c.operation or c.schema or c.group_version or ''} {field_path(c) or ''}".strip() for c in ordered] == [
        "info",
        "shop/v1",
        "GET /pets",
        "GET /pets query parameter limit",
        "GET /pets response 200",
        "GET /pets response 200.a",
        "GET /pets response 200 header X-Rate",
        "GET /pets response 404",
        "POST /pets",
        "DELETE /pets/{id}",
        "Pet",
        "Pet .name",
        "Owner",
    ]


@pytest.mark.parametrize("value", ["näme", None, False, 0, 1.5, float("nan"), ("a", (1, True)),
                                   {"b": [1, {"z": None, "a": "x"}], "a": date(2024, 1, 2)}, {1: "one"}])
def test_values_are_written_as_json_dumps_writes_them(value: Any) -> None:
    assert spaced_text(value) == json.dumps(value, sort_keys=True, default=str)
    assert ordering_text(value) == json.dumps(value, sort_keys=True, default=str, separators=(",", ":"))


def test_a_circular_value_is_refused_and_leaves_the_next_one_written_whole() -> None:
    looped: list[Any] = []
    looped.append(looped)
    with pytest.raises(ValueError, match="Circular reference"):
        spaced_text(looped)
    looped.clear()
    assert spaced_text({"a": looped}) == '{"a": []}'
