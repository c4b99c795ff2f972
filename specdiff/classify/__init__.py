"""classify: [Change] -> [Finding]. The rule cards give the verdict, the reason and the message."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from specdiff.classify.cards import (
    UNCLASSIFIED,
    Card,
    card,
    catalogue,
    pick,
    reason_for,
    resolve_level,
)
from specdiff.classify.predicates import PREDICATES
from specdiff.graph.stability import SAID, said
from specdiff.notation import kinds, name
from specdiff.records import Change, Finding, Level

__all__ = ["classify", "catalogue", "card", "Card", "UNCLASSIFIED"]

#: an alpha change that breaks: the policy allows it, but its clients still break, so a reviewer is told
#: (dangerous) rather than reassured (safe)
ALPHA_REASON = ("allowed in alpha, not compatible: alpha API versions and alpha fields may change incompatibly, "
                "but clients of this one still fail ({reason})")


def classify(changes: Iterable[Change], policy: str, reach: Any = None) -> list[Finding]:
    """Each change becomes exactly one finding: the most specific card that claims it, else unclassified.

    `reach(change) -> tuple of operation labels` attributes a change to the operations it reaches.
    """
    index = _index()
    findings = []
    for change in changes:
        chosen = next((c for c in index.get((change.node, change.kind), ()) if _claims(c, change)), None)
        chosen = chosen or card(UNCLASSIFIED)
        assert chosen is not None, "rules/ must ship specdiff.unclassified"
        findings.append(_finding(chosen, change, policy, reach(change) if reach else ()))
    return findings


def _claims(candidate: Card, change: Change) -> bool:
    if not candidate.matches_shape(change.node, change.kind, change.attribute, change.direction):
        return False
    return candidate.predicate is None or PREDICATES[candidate.predicate](change)  # the loader knows each name


_INDEX: dict[tuple[str, str], tuple[Card, ...]] = {}


def _index() -> dict[tuple[str, str], tuple[Card, ...]]:
    """Cards by (node, change kind), most specific first, so the first claim wins."""
    if not _INDEX:
        buckets: dict[tuple[str, str], list[Card]] = {}
        for item in catalogue():
            nodes = item.match.get("node")
            kinds = item.match.get("change")
            if nodes is None or kinds is None:
                continue
            for node in nodes if isinstance(nodes, list) else [nodes]:
                for kind in kinds if isinstance(kinds, list) else [kinds]:
                    buckets.setdefault((node, kind), []).append(item)
        for key, items in buckets.items():
            _INDEX[key] = tuple(sorted(items, key=lambda c: (tuple(-x for x in c.specificity), c.id)))
    return _INDEX


def _verdict(chosen: Card, change: Change, policy: str) -> tuple[Any, str]:
    """The card's level and reason, or those of its first `when` exception that holds for the change."""
    default = reason_for(chosen, policy, change.direction)
    for exception in chosen.when:
        if PREDICATES[exception["predicate"]](change):
            return exception["level"], str(pick(exception.get("reason", default), policy, change.direction))
    return chosen.level, default


def _finding(chosen: Card, change: Change, policy: str, operations: tuple[str, ...]) -> Finding:
    level_spec, reason_template = _verdict(chosen, change, policy)
    level = Level(resolve_level(level_spec, policy, change.direction, chosen.id, change.context.stability))
    values = message_values(change)
    reason = render(reason_template, values)
    if change.context.stability == "alpha" and level is not Level.SAFE and not chosen.keep_in_alpha:
        level = Level.DANGEROUS
        reason = ALPHA_REASON.format(reason=reason[:1].lower() + reason[1:].rstrip("."))
    return Finding(chosen.id, level, render(chosen.message, values), reason, change, operations,
                   first_id=chosen.aliases[0] if chosen.aliases else "")


def show(value: Any, limit: int = 80) -> str:
    """A one-line rendering of a spec value for messages. Names, strings and lists of them are shown whole (a
    report never cuts a name short); a structure longer than `limit` is named by its shape instead."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, dict) and "$ref" in value and len(value) == 1:
        text = str(value["$ref"]).rsplit("/", 1)[-1]
    elif isinstance(value, dict) and "type" in value and isinstance(value["type"], str):
        text = value["type"] + (f" ({value['format']})" if "format" in value else "")
    else:
        text = json.dumps(value, sort_keys=True, default=str)
        if len(text) > limit and not (isinstance(value, list) and all(not isinstance(v, dict | list) for v in value)):
            text = f"a list of {len(value)} items" if isinstance(value, list) else (
                f"an object with {len(value)} keys" if isinstance(value, dict) else text)
    return " ".join(text.split())


#: how a message shows a side of a change that the spec does not write (an absent keyword or extension): plain
#: words, never `null`, which reads as a value someone wrote
NOT_WRITTEN = "not written"


def message_values(change: Change) -> dict[str, str]:
    ctx = change.context
    values = {
        "old": NOT_WRITTEN if change.old is None else show(change.old),
        "new": NOT_WRITTEN if change.new is None else show(change.new),
        "attribute": change.attribute,
        "operation": ctx.operation or "", "schema": ctx.schema or "", "path": (ctx.path or "").strip(),
        "location": name(ctx), "document": ctx.document or "", "direction": change.direction,
        "stability": said(ctx.stability), "group_version": ctx.group_version or "",
    }
    if change.node == "lifecycle" and change.attribute == "status":  # a field's level, in the same words
        values["old"], values["new"] = (said(level) if isinstance(level, str) and level in SAID else values[key]
                                        for key, level in (("old", change.old), ("new", change.new)))
    values["old"], values["new"] = kinds(values["old"], values["new"])
    for key, value in change.detail:
        values[key] = NOT_WRITTEN if value is None else show(value)
    return values


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


def render(template: str, values: Mapping[str, str]) -> str:
    return template.format_map(_Blank(values)).strip()
