"""The records every stage shares."""

from __future__ import annotations

import dataclasses

from specdiff.records import Context


def test_context_at_extends_the_path_and_keeps_every_other_field() -> None:
    values = {f.name: f"value of {f.name}" for f in dataclasses.fields(Context)}
    values["field"] = (".status",)
    context = Context(**values)
    assert context.at(".spec") == dataclasses.replace(context, path=values["path"] + ".spec",
                                                      field=(".status", ".spec"))
    assert Context().at(".spec").path == ".spec"
