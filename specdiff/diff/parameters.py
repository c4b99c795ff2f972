"""Parameter changes that read the same on the wire although the schemas differ."""

from __future__ import annotations

from typing import Any

from specdiff.graph.schemas import type_set

#: where a form-exploded list is sent as the same key repeated: `?id=1&id=2`, so `?id=1` is a list of one
_REPEATED_KEY = ("query", "cookie")


def scalar_became_list(location: str, old: Any, new: Any, style: str, explode: bool) -> bool:
    """A scalar parameter that became a form-exploded array of the same type: `?id=1` is still valid and still
    means the one value it meant, so every request that worked still does."""
    if location not in _REPEATED_KEY or style != "form" or not explode:
        return False
    if not isinstance(old, dict) or not isinstance(new, dict) or not isinstance(new.get("items"), dict):
        return False
    old_types, new_types = type_set(old, ""), type_set(new, "")
    item_types = type_set(new["items"], "")
    return (bool(old_types) and not old_types & {"array", "object"} and new_types == {"array"}
            and item_types == old_types)
