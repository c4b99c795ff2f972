"""What no keyword family models, compared as data: every difference is reported, modelled or not.

Each family declares the keywords it compares (`HANDLES` in diff/schemas.py, diff/operations.py and
diff/document.py); what else a node it visits writes (`xml`, `externalDocs`, a keyword of a later JSON Schema, a
vendor extension no family knows, `x-go-name`, `x-codegen: {...}`) is compared as data: a mapping's top key by
key, a list that changed aligned on its equal items, a mapping that changed inside by deepdiff, and each place
that changed becomes one change
with both values and exact pointers: `extension` for vendor extensions, `keyword` for the rest. No card claims
them, so they come out as `specdiff.unclassified`.

The cost stays that of the typed differ: only nodes it visits are looked at, after its own shortcut (equal text
means no change), and only their keys outside the model are compared, never a whole document.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from specdiff.diff.kernel import MISSING, canonical
from specdiff.diff.vocabulary import Where, change
from specdiff.load.sourcemap import join_pointer
from specdiff.records import Change

#: a change that touches more places inside one keyword is one change of the whole keyword: a list whose items
#: moved, a structure rewritten, read better whole than as dozens of inner differences
MOST_PLACES = 5


def residue(old: Mapping[str, Any], new: Mapping[str, Any], handles: Iterable[str], old_pointer: str,
            new_pointer: str, where: Where, prefix: str = "", facts: Mapping[str, Mapping[str, Any]] | None = None
            ) -> Iterator[Change]:
    """The changes to what `handles` leaves out of two nodes written at `old_pointer` and `new_pointer`;
    keywords starting with `prefix` are another family's (`x-kubernetes-`); `facts` gives, by keyword, what the
    caller knows of the changes inside it (whether an XML body carries an `xml` object)."""
    handled = handles if isinstance(handles, frozenset) else frozenset(handles)
    if handled.issuperset(old) and handled.issuperset(new):
        return  # (most nodes: every key handled, known without reading them one by one)
    for key in dict.fromkeys([*old, *new]):
        if key in handled or (prefix and key.startswith(prefix)):
            continue
        before, after = old.get(key, MISSING), new.get(key, MISSING)
        if before is not MISSING and after is not MISSING and (
                before == after or canonical(before) == canonical(after)):
            continue
        yield from _keyword(key, before, after, old_pointer, new_pointer, where, (facts or {}).get(key, {}))


#: (the place named on the old side, the place on the new side, old value, new value): a list item that changed
#: may have moved, old index 3 being new index 6
Place = tuple[list[Any], list[Any], Any, Any]

#: a mapping that keeps fewer than this share of its keys changed as a whole, not key by key (deepdiff's rule
#: inside a value, applied to its top as well)
SHARED_KEYS = 0.33


def _keyword(key: str, before: Any, after: Any, old_pointer: str, new_pointer: str, where: Where,
             facts: Mapping[str, Any]) -> Iterator[Change]:
    places: list[Place] = [([], [], before, after)]
    if before is not MISSING and after is not MISSING:
        places = _places(before, after)
        if not places or len(places) > MOST_PLACES:
            places = [([], [], before, after)]
    for named, in_new, o, n in sorted(places, key=_reading_order):
        kind = "added" if o is MISSING else "removed" if n is MISSING else "modified"
        tokens = (key, *(str(token) for token in named))
        yield change(kind, "extension" if key.startswith("x-") else "keyword", "/".join(tokens),
                     old=None if o is MISSING else o, new=None if n is MISSING else n, where=where,
                     old_pointer=None if kind == "added" else old_pointer + join_pointer(tokens),
                     new_pointer=None if kind == "removed" else new_pointer + join_pointer((key, *map(str, in_new))),
                     name=key, **facts)


def _places(before: Any, after: Any) -> list[Place]:
    """Where two values differ. The top of a mapping is read here, key by key, so that the unchanged entries of
    a large extension (`x-github`, `encoding`) are never walked and a changed plain value needs no deepdiff; a
    changed list inside is aligned (`_aligned`), a changed mapping inside goes to deepdiff."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return _deep_places(before, after, [])
    union, shared = before.keys() | after.keys(), before.keys() & after.keys()
    if len(union) > 1 and len(shared) / len(union) < SHARED_KEYS:
        return [([], [], before, after)]
    places: list[Place] = []
    for name in union:
        old_value, new_value = before.get(name, MISSING), after.get(name, MISSING)
        if old_value is MISSING or new_value is MISSING:
            places.append(([name], [name], old_value, new_value))
        elif old_value != new_value or type(old_value) is not type(new_value):
            places.extend(_deep_places(old_value, new_value, [name]))
    return places


#: the most values, and the deepest nesting, of a changed value that deepdiff reads: past either it is one
#: change of the whole, as a list whose items all moved is (deepdiff pairs list items in time that grows with
#: the square of their number, and recurses once per level)
MOST_VALUES = 10_000
DEEPEST = 64


def _within_bounds(value: Any) -> bool:
    """Whether a value holds at most MOST_VALUES values, nested at most DEEPEST deep: a walk without recursion
    that stops at the first bound it passes."""
    waiting, seen = [(value, 0)], 0
    while waiting:
        node, depth = waiting.pop()
        seen += 1
        if seen > MOST_VALUES or depth > DEEPEST:
            return False
        if isinstance(node, dict):
            waiting.extend((inner, depth + 1) for inner in node.values())
        elif isinstance(node, list):
            waiting.extend((inner, depth + 1) for inner in node)
    return True


def _deep_places(before: Any, after: Any, inside: list[Any], inside_new: list[Any] | None = None) -> list[Place]:
    inside_new = inside if inside_new is None else inside_new
    containers = (dict, list)
    if not (isinstance(before, containers) and type(before) is type(after)):
        return [(inside, inside_new, before, after)]  # a plain value, or one of another type: one place
    if not (_within_bounds(before) and _within_bounds(after)):
        return [(inside, inside_new, before, after)]
    if isinstance(before, list) and isinstance(after, list):
        return _aligned(before, after, inside, inside_new)
    from deepdiff import DeepDiff  # loaded only when a mapping no family models differs inside
    from deepdiff.helper import notpresent

    found = DeepDiff(before, after, view="tree", threshold_to_diff_deeper=SHARED_KEYS)
    return [([*inside, *level.path(output_format="list")],
             [*inside_new, *level.path(output_format="list", use_t2=True)],
             MISSING if level.t1 is notpresent else level.t1, MISSING if level.t2 is notpresent else level.t2)
            for levels in found.values() for level in levels]


def _aligned(before: list[Any], after: list[Any], inside: list[Any], inside_new: list[Any]) -> list[Place]:
    """Where two lists differ, their equal items aligned first: two of seven items removed are two removals, not
    four items changed and two removed. Items left in a run of as many on each side are the same items changed,
    compared inside; one name of a list replaced by two is a removal and two additions."""
    from difflib import SequenceMatcher  # loaded only when such a list differs

    old_texts, new_texts = [canonical(item) for item in before], [canonical(item) for item in after]
    places: list[Place] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old_texts, new_texts, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        paired = i2 - i1 if tag == "replace" and i2 - i1 == j2 - j1 else 0
        for k in range(paired):
            places.extend(_deep_places(before[i1 + k], after[j1 + k], [*inside, i1 + k], [*inside_new, j1 + k]))
        places.extend(([*inside, i], [*inside, i], before[i], MISSING) for i in range(i1 + paired, i2))
        places.extend(([*inside_new, j], [*inside_new, j], MISSING, after[j]) for j in range(j1 + paired, j2))
    return places


def _reading_order(place: Place) -> tuple[Any, ...]:
    """Places in document order (list indexes as numbers, 2 before 10); at one place, an item removed, then
    changed, then added. deepdiff reports its kinds of difference in an order that varies from run to run."""
    named, _, o, n = place
    tokens = tuple((0, token, "") if isinstance(token, int) else (1, 0, str(token)) for token in named)
    return tokens, 0 if n is MISSING else 1 if o is not MISSING else 2
