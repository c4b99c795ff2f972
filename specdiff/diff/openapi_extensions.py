"""Extensions plain OpenAPI specs use to manage change: `x-sunset`, `x-stability-level`, `x-extensible-enum`.

Operations and parameters carry the first two in the graph; this module compares them on schemas and
properties, where they are written inside the schema.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from specdiff.diff.kernel import Differ, Side, by_value, keyed_difference, keyword_pointer, presence
from specdiff.diff.vocabulary import Where, change
from specdiff.graph.stability import declared
from specdiff.graph.sunset import days_left, sunset_of
from specdiff.records import Change

EXTENSIBLE_ENUM = "x-extensible-enum"


def compare_extensions(differ: Differ, old: Side, new: Side, where: Where) -> None:
    o, n = old.schema, new.schema
    if not any(key in o or key in n for key in ("x-sunset", "x-stability-level", EXTENSIBLE_ENUM)):
        return
    old_sunset, new_sunset = sunset_of(o), sunset_of(n)
    if old_sunset != new_sunset:
        differ.emit(change(presence(old_sunset, new_sunset, None), "schema", "x-sunset", old=old_sunset,
                           new=new_sunset, where=where, old_pointer=keyword_pointer(old, "x-sunset"),
                           new_pointer=keyword_pointer(new, "x-sunset")))
    old_level, new_level = declared(o), declared(n)
    if old_level != new_level:
        differ.emit(change("modified", "schema", "x-stability-level", old=old_level, new=new_level, where=where,
                           old_pointer=keyword_pointer(old, "x-stability-level"),
                           new_pointer=keyword_pointer(new, "x-stability-level")))
    _extensible_enum(differ, old, new, where)


def _extensible_enum(differ: Differ, old: Side, new: Side, where: Where) -> None:
    """An open enum lists the values known today; clients must accept others, so only removals break."""
    o, n = old.schema.get(EXTENSIBLE_ENUM), new.schema.get(EXTENSIBLE_ENUM)
    o_list, n_list = (o if isinstance(o, list) else []), (n if isinstance(n, list) else [])
    old_keys, new_keys = by_value(o_list), by_value(n_list)
    added, removed, _ = keyed_difference(old_keys, new_keys)
    for key in added:
        i = new_keys[key]
        differ.emit(change("added", "enum-value", EXTENSIBLE_ENUM, new=n_list[i], where=where,
                           old_pointer=keyword_pointer(old, EXTENSIBLE_ENUM),
                           new_pointer=f"{new.pointer}/{EXTENSIBLE_ENUM}/{i}", value=n_list[i]))
    for key in removed:
        i = old_keys[key]
        differ.emit(change("removed", "enum-value", EXTENSIBLE_ENUM, old=o_list[i], where=where,
                           old_pointer=f"{old.pointer}/{EXTENSIBLE_ENUM}/{i}",
                           new_pointer=keyword_pointer(new, EXTENSIBLE_ENUM), value=o_list[i]))


def deprecation_facts(schema: Any) -> dict[str, Any]:
    """Whether a property the old spec had was marked deprecated, and the sunset it announced."""
    if not isinstance(schema, dict):
        return {}
    return {"deprecated": bool(schema.get("deprecated")), "sunset": sunset_of(schema)}


def with_dates(changes: list[Change], today: dt.date, minimum_days: Mapping[str, int]) -> list[Change]:
    """Facts that depend on the calendar: how many days are left before a change's sunset date, and, for an
    element deprecated now, the shortest notice configured for its stability (`deprecation-days`)."""
    dated = []
    for item in changes:
        extra: dict[str, Any] = {}
        sunset = item.fact("sunset")
        if sunset:
            extra["days_to_sunset"] = days_left(sunset, today)
        if item.attribute == "deprecated" and item.new is True and item.context.stability in minimum_days:
            extra["min_days"] = minimum_days[item.context.stability]
        dated.append(replace(item, detail=tuple(sorted((*item.detail, *extra.items())))) if extra else item)
    return dated


#: schema keywords that only document: compared with `--include-docs`, for complete changelogs
DOC_KEYWORDS = ("title", "description", "example", "examples", "externalDocs")
#: the keywords this family compares (specdiff.diff.residue compares the rest as data)
HANDLES = frozenset({"x-sunset", "x-stability-level", EXTENSIBLE_ENUM, *DOC_KEYWORDS})


def compare_docs(differ: Differ, old: Side, new: Side, where: Where) -> None:
    for keyword in DOC_KEYWORDS:
        o, n = old.schema.get(keyword), new.schema.get(keyword)
        if o != n:
            differ.emit(change(presence(o, n, None), "schema", keyword, old=o, new=n, where=where,
                               old_pointer=keyword_pointer(old, keyword), new_pointer=keyword_pointer(new, keyword)))
