"""Parameter changes judged by what goes on the wire rather than by the schemas: one value is written the same
whatever `explode` says, and a list of one the same as the scalar it was, so long as no old value holds the
character that now separates list items."""

from __future__ import annotations

from typing import Any

from specdiff.graph.schemas import type_set

#: what a style writes before a value (a path's label `.5`, matrix `;id=5`); the others write the value alone
_PREFIXES = {"label": ".", "matrix": ";"}
#: what separates a list's items, by (style, explode); None where each item repeats the key (`id=1&id=2`)
_SEPARATORS: dict[tuple[str, bool], str | None] = {
    ("form", True): None, ("form", False): ",", ("simple", True): ",", ("simple", False): ",",
    ("label", True): ".", ("label", False): ",", ("matrix", True): None, ("matrix", False): ",",
    ("spaceDelimited", True): None, ("spaceDelimited", False): " ",
    ("pipeDelimited", True): None, ("pipeDelimited", False): "|"}


def one_value_reads_the_same(old_style: str, new_style: str) -> bool:
    """Whether one value is written alike in both styles: only a prefix (label, matrix) tells them apart."""
    return _PREFIXES.get(old_style, "") == _PREFIXES.get(new_style, "")


def scalar_became_list(old: Any, new: Any, old_style: str, new_style: str, new_explode: bool) -> bool:
    """A scalar parameter that became an array, where every value that was valid is, written as before, a list
    of one that the items accept (`?id=1`, `X-Id: 1`): every request that worked still does. Query text carries
    no type, so string items accept any old value; a string may hold the new separator (`a,b`), so it stays one
    value only where each item repeats the key."""
    if not isinstance(old, dict) or not isinstance(new, dict) or not isinstance(new.get("items"), dict):
        return False
    old_types, item_types = type_set(old, ""), type_set(new["items"], "")
    if not old_types or old_types & {"array", "object"} or type_set(new, "") != {"array"} or not item_types:
        return False
    separator = _SEPARATORS.get((new_style, new_explode), ",")
    return one_value_reads_the_same(old_style, new_style) and all(
        _reads_as(kind, item_types) and not _may_hold(kind, separator) for kind in old_types)


def _reads_as(kind: str, item_types: frozenset[str]) -> bool:
    """Whether text written for a value of `kind` is a valid item."""
    return kind in item_types or "string" in item_types or (kind == "integer" and "number" in item_types)


def _may_hold(kind: str, separator: str | None) -> bool:
    """Whether a value of `kind` may hold the separator, so that its text now splits into several items."""
    if separator is None:
        return False
    return kind == "string" or (kind == "number" and separator == ".")


def as_item(old: dict[str, Any], items: dict[str, Any]) -> dict[str, Any]:
    """The old scalar read as an item of the new list: with the items' type where it is written as text they
    accept (`[string, integer]` sent as `1` is a valid string item), so only its other keywords are compared."""
    return {**old, "type": items["type"]} if "type" in items else old
