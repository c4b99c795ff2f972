"""classify: [Change] -> [Finding]. The rule cards give the verdict, the reason and the message."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from specdiff.classify.calendar import Calendar
from specdiff.classify.cards import (
    UNCLASSIFIED,
    Card,
    card,
    catalogue,
    level_summary,
    pick,
    reason_for,
    resolve_level,
)
from specdiff.classify.predicates import PREDICATES
from specdiff.graph.stability import SAID, said
from specdiff.notation import field_path, kinds, name
from specdiff.records import DEFAULT_READERS, UNUSED, Change, Finding, Level, RuleInfo

__all__ = ["classify", "catalogue", "card", "Calendar", "Card", "UNCLASSIFIED"]

#: an alpha change that breaks: the policy allows it, but its clients still break, so a reviewer is told
#: (dangerous) rather than reassured (safe)
ALPHA_REASON = ("allowed in alpha, not compatible: alpha API versions and alpha fields may change incompatibly, "
                "but clients of this one still fail ({reason})")
#: a change to a schema that no operation, webhook or callback uses (one kept in components for a later use, or
#: describing messages another protocol carries): nothing on the wire changes, so it can break no client yet
UNUSED_REASON = ("nothing in the spec uses it: no operation, webhook or callback sends or returns this schema, so "
                 "no client of the API meets the change yet ({reason})")


def classify(changes: Iterable[Change], policy: str, readers: str | None = None, calendar: Calendar | None = None
             ) -> list[Finding]:
    """Each change becomes exactly one finding: the most specific card that claims it, else unclassified. A
    finding reaches the operations its change's context lists (the pipeline places them there); `readers` is how
    clients read responses (records.READERS; default: the policy's); `calendar` holds the reference date sunset
    dates are judged against (default: today in UTC) and `deprecation-days`."""
    readers = readers or DEFAULT_READERS[policy]
    calendar = calendar or Calendar()
    index = _index()
    findings = []
    for change in changes:
        chosen = next((c for c in index.get((change.node, change.kind), ()) if _claims(c, change, calendar)), None)
        chosen = chosen or card(UNCLASSIFIED)
        assert chosen is not None, "rules/ must ship specdiff.unclassified"
        findings.append(_finding(chosen, change, policy, change.context.operations, readers, calendar))
    return findings


def _claims(candidate: Card, change: Change, calendar: Calendar) -> bool:
    if not candidate.matches_shape(change.node, change.kind, change.attribute, change.direction):
        return False
    # the loader knows each name
    return candidate.predicate is None or PREDICATES[candidate.predicate](change, calendar)


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


def _verdict(chosen: Card, change: Change, policy: str, direction: str, readers: str, calendar: Calendar
             ) -> tuple[Any, str]:
    """The card's level and reason, or those of its first `when` exception that holds for the change."""
    default = reason_for(chosen, policy, direction, readers)
    for exception in chosen.when:
        if PREDICATES[exception["predicate"]](change, calendar):
            return exception["level"], str(pick(exception.get("reason", default), policy, direction,
                                                readers=readers))
    return chosen.level, default


def _finding(chosen: Card, change: Change, policy: str, operations: tuple[str, ...], readers: str,
             calendar: Calendar) -> Finding:
    direction = "both" if change.direction == UNUSED else change.direction  # judged as read and written
    level_spec, reason_template = _verdict(chosen, change, policy, direction, readers, calendar)
    level = Level(resolve_level(level_spec, policy, direction, chosen.id, change.context.stability, readers))
    values = message_values(change)
    reason = render(reason_template, {**values, **calendar.values(change.fact("sunset"), change.context.stability)})
    if change.context.stability == "alpha" and level is not Level.SAFE and not chosen.keep_in_alpha:
        level = Level.DANGEROUS
        reason = ALPHA_REASON.format(reason=reason[:1].lower() + reason[1:].rstrip("."))
    if change.direction == UNUSED and level is Level.BREAKING:
        level = Level.DANGEROUS
        reason = UNUSED_REASON.format(reason=reason[:1].lower() + reason[1:].rstrip("."))
    return Finding(chosen.id, level, render(chosen.message, values), reason, change, operations,
                   first_id=chosen.aliases[0] if chosen.aliases else "", rule_info=rule_info(chosen))


_RULE_INFO: dict[str, RuleInfo] = {}


def rule_info(chosen: Card) -> RuleInfo:
    """What the stages after classify read about a card, made once per card."""
    found = _RULE_INFO.get(chosen.id)
    if found is None:
        docs = tuple((key, str(chosen.docs.get(key, "")).strip()) for key in ("what", "why", "example"))
        found = _RULE_INFO[chosen.id] = RuleInfo(chosen.title, chosen.section, chosen.group, chosen.message,
                                                 chosen.group_message, chosen.reason, level_summary(chosen), docs)
    return found


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
        "operation": ctx.operation or "", "schema": ctx.schema or "", "path": (field_path(ctx) or "").strip(),
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
