"""classify: [Change] -> [Finding]. The rule cards give the verdict, the reason and the message."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from specdiff.classify.calendar import Calendar
from specdiff.classify.cards import (
    UNCLASSIFIED,
    Card,
    card,
    catalogue,
    level_summary,
    most_specific_first,
    pick,
    reason_for,
    resolve_level,
)
from specdiff.classify.predicates import PREDICATES
from specdiff.notation import kinds, name
from specdiff.records import (
    CUT_OFF,
    DEFAULT_READERS,
    FIRST_USED,
    FLAT_TYPES,
    UNUSED,
    Change,
    Finding,
    Level,
    RuleInfo,
    field_path,
    judged_direction,
    spaced_text,
)

__all__ = ["classify", "catalogue", "card", "Calendar", "Card", "UNCLASSIFIED"]

#: an alpha change that breaks, or may: the policy allows it, but its clients are still affected, so a reviewer is
#: told (dangerous) rather than reassured (safe)
ALPHA_REASON = ("allowed in alpha, not compatible: alpha API versions and alpha fields may change incompatibly, "
                "but clients of this one {outcome} ({reason})")
#: a change to a schema that no operation, webhook or callback of the new spec uses (one kept in components for
#: a later use, describing messages another protocol carries, or whose users went): nothing an existing client
#: sends or receives changes through it, so it can break none
#: a change inside a schema whose every use went (operations removed, properties removed, references that now name
#: another schema), each reported where it went: no client meets the schema any more
CUT_OFF_REASON = ("no operation of the new spec uses it: each use the old spec made of it went and is reported where "
                  "it was, so no client meets this change ({reason})")
#: a change to a schema that only the new spec's operations use: documented now, met by no client of the old spec
FIRST_USED_REASON = ("no operation of the old spec used it: the new spec is the first to send or accept it, so no "
                     "client written against the old one meets the change ({reason})")
UNUSED_REASON = ("nothing in the spec uses it: no operation, webhook or callback sends or returns this schema (a "
                 "use that went is reported where it was), so no client of the API meets the change ({reason})")


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
        chosen = next((c for c in index.fitting(change) if c.predicate is None
                       or PREDICATES[c.predicate](change, calendar)), None)  # (the loader knows each name)
        chosen = chosen or card(UNCLASSIFIED)
        assert chosen is not None, "rules/ must ship specdiff.unclassified"
        findings.append(_finding(chosen, change, policy, change.context.operations, readers, calendar))
    return findings


class _Index:
    """The cards by (node, change kind), most specific first, so the first claim wins; and the cards whose
    shape fits each (node, change kind, attribute, direction) a run meets, matched once: thousands of changes
    come in a few dozen shapes."""

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = cards
        buckets: dict[tuple[str, str], list[Card]] = {}
        # sorted once, then shared out: each bucket keeps that order, so no card's key is worked out per bucket
        for item in sorted(cards, key=most_specific_first):
            nodes = item.match.get("node")
            kinds = item.match.get("change")
            if nodes is None or kinds is None:
                continue
            for node in nodes if isinstance(nodes, list) else [nodes]:
                for kind in kinds if isinstance(kinds, list) else [kinds]:
                    buckets.setdefault((node, kind), []).append(item)
        self._by_kind = {key: tuple(items) for key, items in buckets.items()}
        self._by_shape: dict[tuple[str, str, str, str], tuple[Card, ...]] = {}

    def fitting(self, change: Change) -> tuple[Card, ...]:
        shape = (change.node, change.kind, change.attribute, change.direction)
        found = self._by_shape.get(shape)
        if found is None:
            kind = self._by_kind.get(shape[:2], ())
            found = self._by_shape[shape] = tuple(item for item in kind if item.matches_shape(*shape))
        return found


_indexed = _Index(())


def _index() -> _Index:
    """The index of the catalogue in use, made again only when the catalogue itself is another one (a run reads
    it here first, unless a configuration names rules)."""
    global _indexed
    cards = catalogue()
    if _indexed.cards is not cards:
        _indexed = _Index(cards)
    return _indexed


def _verdict(chosen: Card, change: Change, policy: str, direction: str, readers: str, calendar: Calendar
             ) -> tuple[Any, str, str]:
    """The card's level, reason and release-note section, or those of its first `when` exception that holds for
    the change."""
    default = reason_for(chosen, policy, direction, readers)
    for exception in chosen.when:
        if PREDICATES[exception["predicate"]](change, calendar):
            return (exception["level"], str(pick(exception.get("reason", default), policy, direction, readers=readers)),
                    exception.get("section", chosen.section))
    return chosen.level, default, chosen.section


def _finding(chosen: Card, change: Change, policy: str, operations: tuple[str, ...], readers: str,
             calendar: Calendar) -> Finding:
    direction = judged_direction(change.direction)
    level_spec, reason_template, section = _verdict(chosen, change, policy, direction, readers, calendar)
    level = _LEVELS[resolve_level(level_spec, policy, direction, chosen.id, change.context.stability, readers)]
    place = name(change.context)
    values = message_values(change, place)
    reason = (render(reason_template, {**values, **calendar.values(change.fact("sunset"), change.context.stability)})
              if _has_placeholders(reason_template) else reason_template.strip())
    stable_reason = ""
    if change.context.stability == "alpha" and level is not Level.SAFE and not chosen.keep_in_alpha:
        stable_reason = _capped_when_unreached(change, level, reason)[1]
        outcome = "still fail" if level is Level.BREAKING else "may still be affected"
        level = Level.DANGEROUS
        reason = ALPHA_REASON.format(outcome=outcome, reason=_within(reason))
    level, reason = _capped_when_unreached(change, level, reason)
    return Finding(chosen.id, level, render(chosen.message, values), reason, change, operations,
                   first_id=chosen.aliases[0] if chosen.aliases else "", rule_info=rule_info(chosen, section),
                   stable_reason=stable_reason, values=values, place=place)


#: each level by its name, as the cards write it (`Level(name)` goes through the enum's machinery every call)
_LEVELS = {level.value: level for level in Level}


def _has_placeholders(template: str) -> bool:
    """Whether rendering `template` can change it beyond stripping: most reasons are plain sentences, and their
    values (the calendar's among them) need not be gathered."""
    return "{" in template or "}" in template


def _capped_when_unreached(change: Change, level: Level, reason: str) -> tuple[Level, str]:
    """The level and reason of a change to a plain OpenAPI schema that operations on one side do not reach (its
    direction says which): no client met it, so the verdict is capped."""
    first_used = change.direction.startswith(FIRST_USED)
    if (change.direction == UNUSED or first_used) and level is Level.BREAKING:
        level = Level.DANGEROUS
        why = FIRST_USED_REASON if first_used else UNUSED_REASON
        reason = why.format(reason=_within(reason))
    if change.direction == CUT_OFF and level is not Level.SAFE:
        level = Level.SAFE
        reason = CUT_OFF_REASON.format(reason=_within(reason))
    return level, reason


def _within(reason: str) -> str:
    """A reason as another reason's parenthesis holds it: lower case first, no closing full stop."""
    return reason[:1].lower() + reason[1:].rstrip(".")


_RULE_INFO: dict[tuple[str, str], RuleInfo] = {}


def rule_info(chosen: Card, section: str | None = None) -> RuleInfo:
    """What the stages after classify read about a card (with the release-note section its verdict chose), made
    once per card and section."""
    key = (chosen.id, section or chosen.section)
    found = _RULE_INFO.get(key)
    if found is None:
        docs = tuple((name, str(chosen.docs.get(name, "")).strip()) for name in ("what", "why", "example"))
        found = _RULE_INFO[key] = RuleInfo(chosen.title, key[1], chosen.group, chosen.message, chosen.group_message,
                                           chosen.reason, level_summary(chosen), docs)
    return found


def show(value: Any, limit: int = 80) -> str:
    """A one-line rendering of a spec value for messages. Names, strings and lists of them are shown whole (a
    report never cuts a name short); a structure longer than `limit` is named by its shape instead, and a
    shorter one is quoted as code (`` `{"mountName": "fetch"}` ``), so its JSON reads as a value, not as words."""
    if type(value) in FLAT_TYPES:  # (most of a run's values, met again and again: remembered)
        return _shown_scalar(value)
    if isinstance(value, str):
        text = value
    elif isinstance(value, dict) and "$ref" in value and len(value) == 1:
        text = str(value["$ref"]).rsplit("/", 1)[-1]
    elif isinstance(value, dict) and "type" in value and isinstance(value["type"], str):
        text = value["type"] + (f" ({value['format']})" if "format" in value else "")
    else:
        text = spaced_text(value)
        if _too_long(value, text, limit):
            text = _shape(value)
        elif isinstance(value, dict) or isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
            text = f"`{text}`"
    return " ".join(text.split())


@lru_cache(maxsize=4096, typed=True)  # (typed: True and 1 are equal keys, shown apart)
def _shown_scalar(value: str | bool | int | None) -> str:
    return " ".join((value if isinstance(value, str) else spaced_text(value)).split())


def literal(value: Any) -> str:
    """A value the spec holds (an enum value, a default, a const) as a message shows it: quoted as code
    (`` `name` ``), as structures already are, so `name` reads as the value and never as a word of the sentence;
    the markdown formats render it as a code span."""
    return _as_code(show(value), value)


def _as_code(text: str, value: Any) -> str:
    """`text`, showing `value`, quoted as code; not a structure named by its shape ("an object with 3 keys"),
    which is words, nor text with a backtick of its own (a structure `show` already quoted)."""
    shape = isinstance(value, dict | list) and text == _shape(value)
    return text if shape or "`" in text else f"`{text}`"


def _too_long(value: Any, text: str, limit: int) -> bool:
    """A structure whose JSON runs past `limit` (a list of plain names is never cut short)."""
    plain_list = isinstance(value, list) and all(not isinstance(v, dict | list) for v in value)
    return isinstance(value, dict | list) and len(text) > limit and not plain_list


def _shape(value: dict[str, Any] | list[Any]) -> str:
    count = len(value)
    if isinstance(value, list):
        return f"a list of {count} item{'' if count == 1 else 's'}"
    return f"an object with {count} key{'' if count == 1 else 's'}"


def shown_pair(old: Any, new: Any) -> tuple[str, str]:
    """Two sides of a change for a message. Two structures too long to show whole are shown by the first place
    where they differ (`{.conditions[0].type: Scheduled, ...}`), which their shapes alone often do not tell
    apart ("an object with 1 key" both)."""
    old_text, new_text = show(old), show(new)
    shapes = type(old) is type(new) and isinstance(old, dict | list) and (old_text, new_text) == (_shape(old),
                                                                                                 _shape(new))
    if not shapes:  # a side shown whole (or by its type or reference): it says what changed
        return old_text, new_text
    found = first_difference(old, new)
    if found is None:
        return old_text, new_text
    steps, old_part, new_part = found

    def there(part: Any) -> str:
        return f"{{{steps}: {NOT_WRITTEN if part is _ABSENT else show(part, 40)}, ...}}"

    return there(old_part), there(new_part)


_ABSENT = object()


def first_difference(old: Any, new: Any, steps: str = "") -> tuple[str, Any, Any] | None:
    """The first place (keys in order, then list positions) where two values differ, with each side there."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(old.keys() | new.keys(), key=str):
            found = first_difference(old.get(key, _ABSENT), new.get(key, _ABSENT), f"{steps}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list):
        for index in range(max(len(old), len(new))):
            found = first_difference(old[index] if index < len(old) else _ABSENT,
                                     new[index] if index < len(new) else _ABSENT, f"{steps}[{index}]")
            if found is not None:
                return found
        return None
    same = old is not _ABSENT and new is not _ABSENT and type(old) is type(new) and old == new
    return None if same else (steps, old, new)


#: how a message shows a side of a change that the spec does not write (an absent keyword or extension): plain
#: words, never `null`, which reads as a value someone wrote
NOT_WRITTEN = "not written"


def message_values(change: Change, place: str | None = None) -> dict[str, str]:
    """The values a card's message and reason are written from; `place` is the change's place as the notation
    names it, when the caller has worked it out already."""
    ctx = change.context
    values = {
        "attribute": change.attribute,
        "operation": ctx.operation or "", "schema": ctx.schema or "", "path": (field_path(ctx) or "").strip(),
        "location": name(ctx) if place is None else place, "document": ctx.document or "",
        "direction": change.direction, "stability": ctx.stability, "group_version": ctx.group_version or "",
    }
    if change.old is not None and change.new is not None:
        old_text, new_text = shown_pair(change.old, change.new)
    else:
        as_data = change.node in _WRITTEN_AS_DATA and change.fact("name") is not None
        unwritten = _UNWRITTEN.get(change.attribute, NOT_WRITTEN) if change.node == "schema" else NOT_WRITTEN
        old_text = show(change.old) if change.old is not None else (
            "null" if as_data and change.kind != "added" else unwritten)
        new_text = show(change.new) if change.new is not None else (
            "null" if as_data and change.kind != "removed" else unwritten)
    if change.attribute in _VALUE_ATTRIBUTES:
        old_text, new_text = (_as_code(text, side) if side is not None else text
                              for side, text in ((change.old, old_text), (change.new, new_text)))
    values["old"], values["new"] = kinds(old_text, new_text)
    for key, value in change.detail:
        if key in _NULLABLE_FACTS:
            values[key] = literal(value)
        else:
            values[key] = NOT_WRITTEN if value is None else show(value)
    return values


#: nodes whose changes, when the residue compared them as data (they carry the keyword's `name`), say by their
#: kind which side is written, so a None on a written side is a `null` someone wrote, never an absence
_WRITTEN_AS_DATA = frozenset({"extension", "keyword"})
#: what a schema keyword that is not written means, where saying so reads better than "not written": a bound
#: or a pattern that is absent allows anything (`maxLength of name tightened (no limit -> 40)`), a type that is
#: absent takes any JSON value (`type of tool_choice changed from string to any type`)
_UNWRITTEN = {**dict.fromkeys(("maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties",
                               "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"), "no limit"),
              "pattern": "no pattern", "type": "any type", "items": "any items", "uniqueItems": "false"}
#: facts that hold a value of the spec (an enum value, a union's discriminator value), where None is `null`
_NULLABLE_FACTS = frozenset({"value"})
#: attributes whose sides are values the spec holds, or CEL rules it writes, shown as code (`literal`): a rule read
#: as words runs into the sentence (`... changes from self.a > 0 to self.a > 0 || has(self.b)`), and markdown
#: escaped its operators one by one
_VALUE_ATTRIBUTES = frozenset({"default", "const", "enum", "rule"})


class _Blank(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


def render(template: str, values: Mapping[str, str]) -> str:
    return template.format_map(_Blank(values)).strip()
