"""JSON Schema 2020-12 keywords (OpenAPI 3.1) that the 3.0 subset lacks: tuples, `contains`, dependencies,
conditionals, pattern-named properties, unevaluated members and encoded content.

Each keyword gives the same neutral facts as the older ones: a subschema on both sides is compared inside
(its changes are reported where they are), a keyword that appears or goes is `added`/`removed`, and a plain
value that differs is `modified`. The constraint cards say which way each one moves.
"""

from __future__ import annotations

from typing import Any

from specdiff.diff.kernel import MISSING, Differ, Side, canonical, presence
from specdiff.diff.vocabulary import Where, change
from specdiff.load.sourcemap import join_pointer

#: keywords holding one subschema, and how the field path shows the place inside them
SUBSCHEMAS = {"contains": "<contains>", "propertyNames": "<propertyNames>", "contentSchema": "<content>",
              "then": "<then>", "else": "<else>"}
#: keywords holding one subschema or a boolean: false refuses every further member, true or absent allows any
OPEN_ENDED = {"unevaluatedProperties": "{}", "unevaluatedItems": "[]"}
#: keywords compared as plain values
VALUES = ("minContains", "maxContains", "contentMediaType", "contentEncoding")
#: what leaving a keyword out means
DEFAULTS: dict[str, Any] = {"minContains": 1}


def compare_2020(differ: Differ, old: Side, new: Side, where: Where) -> None:
    """Every 2020-12 keyword of one pair of schemas (both sides already past their `$ref`s)."""
    o, n = old.schema, new.schema
    if not (_written(o) or _written(n)):
        return
    for keyword in VALUES:
        differ.value(keyword, _given(o, keyword), _given(n, keyword), old, new, where)
    for keyword, suffix in SUBSCHEMAS.items():
        differ.single(keyword, suffix, old, new, where)
    _condition(differ, old, new, where)
    for keyword, suffix in OPEN_ENDED.items():
        _open_ended(differ, keyword, suffix, old, new, where)
    _boolean_items(differ, old, new, where)
    _tuple(differ, old, new, where)
    _named_subschemas(differ, "patternProperties", old, new, where,
                      closed=o.get("additionalProperties") is False or n.get("additionalProperties") is False)
    _named_subschemas(differ, "dependentSchemas", old, new, where)
    _named_subschemas(differ, "$defs", old, new, where, presence=False)
    _dependent_required(differ, old, new, where)


_ALL = frozenset({*SUBSCHEMAS, *OPEN_ENDED, *VALUES, "if", "prefixItems", "patternProperties", "dependentSchemas",
                  "dependentRequired", "items", "additionalItems", "$defs"})
#: the keywords this family compares (specdiff.diff.residue compares the rest as data)
HANDLES = _ALL
#: those but `items`, which holds the older code's subschema too: what says a schema is 2020-12's to compare
HANDLES_BUT_ITEMS = _ALL - {"items"}


def _written(schema: dict[str, Any]) -> bool:
    """Whether a schema writes anything this family reads: an `items` that holds a subschema (most arrays) is
    the older code's alone, so only one of a tuple's list or a boolean counts (checked for every pair compared)."""
    return not HANDLES_BUT_ITEMS.isdisjoint(schema) or isinstance(schema.get("items"), (list, bool))
#: how the field path shows a place inside a keyword that maps names to subschemas
_LABELS = {"patternProperties": "{{{key}}}", "dependentSchemas": "<if {key}>", "$defs": "<$defs {key}>"}


def _given(schema: dict[str, Any], keyword: str) -> Any:
    """A keyword's value, MISSING when it is absent or says what its absence says."""
    value = schema.get(keyword, MISSING)
    return MISSING if keyword in DEFAULTS and value == DEFAULTS[keyword] else value


def _condition(differ: Differ, old: Side, new: Side, where: Where) -> None:
    """`if` decides which of `then`/`else` applies; a changed condition moves values between them, which
    cannot be ordered, so it is one `modified` fact. `then`/`else` are compared as subschemas."""
    o, n = _given(old.schema, "if"), _given(new.schema, "if")
    if "if" in old.schema and "if" in new.schema and canonical(o) == canonical(n):
        return
    differ.value("if", o, n, old, new, where)


def _open_ended(differ: Differ, keyword: str, suffix: str, old: Side, new: Side, where: Where) -> None:
    o, n = old.schema.get(keyword), new.schema.get(keyword)
    if isinstance(o, dict) and isinstance(n, dict):
        differ.single(keyword, suffix, old, new, where)
        return
    allowed_old = o if isinstance(o, dict) else o is not False
    allowed_new = n if isinstance(n, dict) else n is not False
    if allowed_old != allowed_new:
        differ.emit(change("modified", "schema", keyword, old=allowed_old, new=allowed_new, where=where,
                           old_pointer=old.pointer + "/" + keyword if keyword in old.schema else old.pointer,
                           new_pointer=new.pointer + "/" + keyword if keyword in new.schema else new.pointer))


def _boolean_items(differ: Differ, old: Side, new: Side, where: Where) -> None:
    """`items: false` (no members past `prefixItems`): subschema `items` are compared by the older code, and
    the array form of older drafts by `_tuple`."""
    o, n = old.schema.get("items"), new.schema.get("items")
    if isinstance(o, list) or isinstance(n, list):
        return
    if isinstance(o, bool) or isinstance(n, bool):
        if not (isinstance(o, dict) and isinstance(n, dict)) and o != n:
            _open_ended(differ, "items", "[]", old, new, where)


class _Tuple:
    """An array schema as positions and the rest: 2020-12 `prefixItems` and `items`, or the older drafts' array
    form of `items` and `additionalItems`; each a (pointer, value), MISSING where nothing is written."""

    def __init__(self, side: Side) -> None:
        items = side.schema.get("items", MISSING)
        # only a 3.1 or 3.2 document may name an older draft for its schemas; OpenAPI 3.0 and Swagger 2.0 have no
        # tuples
        self.older = isinstance(items, list) and side.document.dialect in ("openapi-3.1", "openapi-3.2")
        positions, rest = (items, "additionalItems") if self.older else (side.schema.get("prefixItems"), "items")
        keyword = "items" if self.older else "prefixItems"
        self.positions = [(f"{side.pointer}/{keyword}/{i}", item)
                          for i, item in enumerate(positions if isinstance(positions, list) else [])]
        value = side.schema.get(rest, MISSING)
        self.rest = (f"{side.pointer}/{rest}", MISSING if isinstance(value, list) else value)

    def at(self, index: int) -> tuple[tuple[str, Any], bool]:
        """What governs the element at `index`, and whether that is a position."""
        return (self.positions[index], True) if index < len(self.positions) else (self.rest, False)


def _tuple(differ: Differ, old: Side, new: Side, where: Where) -> None:
    """Tuple positions compared pairwise, each with what governs it on the other side: a position, else the
    rest (`items`, `additionalItems`). Dropping `prefixItems` while `items` stays makes `items` govern element 0,
    a tightening when it is narrower; a position past a closed rest (`items: false`) admits more."""
    o, n = _Tuple(old), _Tuple(new)
    for i in range(max(len(o.positions), len(n.positions))):
        ((old_at, old_item), old_position), ((new_at, new_item), new_position) = o.at(i), n.at(i)
        at = where.at(f"[{i}]")
        if isinstance(old_item, dict) and isinstance(new_item, dict):
            differ.compare(Side(old_item, old_at, old.document), Side(new_item, new_at, new.document), at)
        elif old_item is False or new_item is False:
            differ.emit(change("modified", "schema", "items", old=old_item, new=new_item, where=at,
                               old_pointer=old_at, new_pointer=new_at))
        elif not old_position:
            differ.emit(change("added", "schema", "prefixItems", new=new_item, where=at, new_pointer=new_at,
                               position=i))
        elif not new_position:
            differ.emit(change("removed", "schema", "prefixItems", old=old_item, where=at, old_pointer=old_at,
                               position=i))
    if o.older or n.older:  # the rest past the positions, which `items` holds in 2020-12 alone
        (old_at, old_rest), (new_at, new_rest) = o.rest, n.rest
        if isinstance(old_rest, dict) and isinstance(new_rest, dict):
            differ.compare(Side(old_rest, old_at, old.document), Side(new_rest, new_at, new.document), where.at("[]"))
        elif _allowed(old_rest) != _allowed(new_rest):
            differ.emit(change("modified", "schema", "items", old=_allowed(old_rest), new=_allowed(new_rest),
                               where=where, old_pointer=old_at if old_rest is not MISSING else old.pointer,
                               new_pointer=new_at if new_rest is not MISSING else new.pointer))


def _allowed(rest: Any) -> Any:
    """What the members past a tuple may be: those a schema accepts, none (false) or any (true, or unwritten)."""
    return rest if isinstance(rest, dict) else rest is not False


def _named_subschemas(differ: Differ, keyword: str, old: Side, new: Side, where: Where,
                      closed: bool = False, presence: bool = True) -> None:
    """`patternProperties` (by regular expression), `dependentSchemas` (by property name) and `$defs` (by name;
    a definition added or removed changes nothing until something refers to it, so only pairs are compared:
    a `$ref` into `$defs` reads the same text on both sides, so its target's changes are reported here)."""

    o, n = old.schema.get(keyword), new.schema.get(keyword)
    o_map, n_map = (o if isinstance(o, dict) else {}), (n if isinstance(n, dict) else {})

    def label(key: str) -> str:
        return _LABELS[keyword].format(key=key)

    for key, schema in n_map.items():
        at = where.at(label(key))
        new_at = new.pointer + join_pointer((keyword, key))
        if key in o_map and isinstance(o_map[key], dict) and isinstance(schema, dict):
            differ.compare(Side(o_map[key], old.pointer + join_pointer((keyword, key)), old.document),
                           Side(schema, new_at, new.document), at)
        elif key not in o_map and presence:
            differ.emit(change("added", "schema", keyword, new=key, where=at, new_pointer=new_at, key=key,
                               closed=closed))
    for key in o_map:
        if key not in n_map and presence:
            differ.emit(change("removed", "schema", keyword, old=key, where=where.at(label(key)),
                               old_pointer=old.pointer + join_pointer((keyword, key)), key=key, closed=closed))


def _dependent_required(differ: Differ, old: Side, new: Side, where: Where) -> None:
    """`dependentRequired: {a: [b, c]}`: when `a` is present, `b` and `c` must be too."""
    o, n = old.schema.get("dependentRequired"), new.schema.get("dependentRequired")
    o_map, n_map = (o if isinstance(o, dict) else {}), (n if isinstance(n, dict) else {})
    for key in sorted(set(o_map) | set(n_map)):
        before, after = o_map.get(key, MISSING), n_map.get(key, MISSING)
        if before is not MISSING and after is not MISSING and sorted(map(str, before)) == sorted(map(str, after)):
            continue
        kind = presence(before, after)
        at = join_pointer(("dependentRequired", key))
        differ.emit(change(kind, "schema", "dependentRequired", old=None if before is MISSING else before,
                           new=None if after is MISSING else after, where=where.at(f"<if {key}>"),
                           old_pointer=None if kind == "added" else old.pointer + at,
                           new_pointer=None if kind == "removed" else new.pointer + at, key=key))
