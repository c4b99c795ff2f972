"""The records every stage shares."""

from __future__ import annotations

import dataclasses

from specdiff.notation import field_path
from specdiff.records import Context, Part


def test_context_at_adds_a_step_and_keeps_every_other_field() -> None:
    values = {f.name: f"value of {f.name}" for f in dataclasses.fields(Context)}
    values["field"] = (".status",)
    context = Context(**values)
    assert context.at(".spec") == dataclasses.replace(context, field=(".status", ".spec"))
    within = Part("response", "200")
    assert context.within(within) == dataclasses.replace(context, part=within, field=())
    assert context.reaching(("GET /x",)) == dataclasses.replace(context, operations=("GET /x",))


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


