"""Named predicates: the logic a rule card's match table cannot say, one small function each."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from specdiff.records import Change

Predicate = Callable[[Change], bool]
PREDICATES: dict[str, Predicate] = {}


def predicate(func: Predicate) -> Predicate:
    PREDICATES[func.__name__] = func
    return func


@predicate
def required(change: Change) -> bool:
    """The added or removed thing is required."""
    return bool(change.fact("required"))


@predicate
def optional(change: Change) -> bool:
    return not change.fact("required")


@predicate
def became_true(change: Change) -> bool:
    return change.old is not True and change.new is True


@predicate
def became_false(change: Change) -> bool:
    return change.old is True and change.new is not True


@predicate
def unserved_and_deprecated(change: Change) -> bool:
    """A CRD version that was already out of service, with notice given, before it went."""
    return change.fact("served") is False and change.fact("deprecated") is True


@predicate
def single_version(change: Change) -> bool:
    """The new CRD has one version only, so nothing is ever converted."""
    return bool(change.fact("versions") == 1)


#: for each constraint, whether a larger value accepts more (True) or fewer (False) values
_UPPER_BOUNDS = {"maximum": True, "maxLength": True, "maxItems": True, "maxProperties": True,
                 "minimum": False, "minLength": False, "minItems": False, "minProperties": False}


def _narrows(change: Change) -> bool | None:
    """True if the change accepts fewer values than before, False if more, None if it cannot tell."""
    attribute, old, new = change.attribute, change.old, change.new
    if change.kind == "added":
        return True
    if change.kind == "removed":
        return False
    if attribute in _UPPER_BOUNDS and _number(old) and _number(new):
        grows = new > old
        return not grows if _UPPER_BOUNDS[attribute] else grows
    if attribute in ("exclusiveMinimum", "exclusiveMaximum"):
        if isinstance(old, bool) and isinstance(new, bool):
            return new and not old
        if _number(old) and _number(new):
            return bool(new > old) if attribute == "exclusiveMinimum" else bool(new < old)
    if attribute == "uniqueItems":
        return bool(new) and not bool(old)
    if attribute == "additionalProperties":
        return old is True and new is False
    if attribute == "multipleOf" and _number(old) and _number(new):
        return bool(new != old and (new % old == 0 if old else True)) if new > old else False
    if attribute == "nullable":
        return old is True and new is False
    return None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@predicate
def tightened(change: Change) -> bool:
    return _narrows(change) is not False


@predicate
def loosened(change: Change) -> bool:
    return _narrows(change) is False


@predicate
def success_status(change: Change) -> bool:
    status = str(change.fact("status") or change.old or change.new)
    return status.startswith("2") or status.lower() == "default"


@predicate
def was_deprecated(change: Change) -> bool:
    return bool(change.fact("deprecated"))
