"""What no keyword family models, compared as data: every difference is reported, modelled or not.

Each family declares the keywords it compares (`HANDLES` in diff/schemas.py, diff/operations.py and
diff/document.py); what else a node it visits writes (`xml`, `externalDocs`, a keyword of a later JSON Schema, a
vendor extension no family knows, `x-go-name`, `x-codegen: {...}`) goes to deepdiff, and each place inside it
that changed becomes one change with both values and exact pointers: `extension` for vendor extensions,
`keyword` for the rest. No card claims them, so they come out as `specdiff.unclassified`.

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
            new_pointer: str, where: Where, prefix: str = "") -> Iterator[Change]:
    """The changes to what `handles` leaves out of two nodes written at `old_pointer` and `new_pointer`;
    keywords starting with `prefix` are another family's (`x-kubernetes-`)."""
    handled = handles if isinstance(handles, frozenset) else frozenset(handles)
    for key in dict.fromkeys([*old, *new]):
        if key in handled or (prefix and key.startswith(prefix)):
            continue
        before, after = old.get(key, MISSING), new.get(key, MISSING)
        if before is not MISSING and after is not MISSING and (
                before == after or canonical(before) == canonical(after)):
            continue
        yield from _keyword(key, before, after, old_pointer, new_pointer, where)


def _keyword(key: str, before: Any, after: Any, old_pointer: str, new_pointer: str, where: Where
             ) -> Iterator[Change]:
    places: list[tuple[list[Any], list[Any], Any, Any]] = [([], [], before, after)]
    if before is not MISSING and after is not MISSING:
        from deepdiff import DeepDiff  # loaded only when a keyword no family models differs (most runs: never)
        from deepdiff.helper import notpresent

        found = DeepDiff(before, after, view="tree")
        # (the place deepdiff names, the place on the new side: a list item that changed may have moved, old index
        # 3 being new index 6; old value; new value)
        places = [(level.path(output_format="list"), level.path(output_format="list", use_t2=True),
                   MISSING if level.t1 is notpresent else level.t1, MISSING if level.t2 is notpresent else level.t2)
                  for levels in found.values() for level in levels]
        if not places or len(places) > MOST_PLACES:
            places = [([], [], before, after)]
    for named, in_new, o, n in sorted(places, key=_reading_order):
        kind = "added" if o is MISSING else "removed" if n is MISSING else "modified"
        tokens = (key, *(str(token) for token in named))
        yield change(kind, "extension" if key.startswith("x-") else "keyword", "/".join(tokens),
                     old=None if o is MISSING else o, new=None if n is MISSING else n, where=where,
                     old_pointer=None if kind == "added" else old_pointer + join_pointer(tokens),
                     new_pointer=None if kind == "removed" else new_pointer + join_pointer((key, *map(str, in_new))))


def _reading_order(place: tuple[list[Any], list[Any], Any, Any]) -> tuple[Any, ...]:
    """Places in document order (list indexes as numbers, 2 before 10); at one place, an item removed, then
    changed, then added. deepdiff reports its kinds of difference in an order that varies from run to run."""
    named, _, o, n = place
    tokens = tuple((0, token, "") if isinstance(token, int) else (1, 0, str(token)) for token in named)
    return tokens, 0 if n is MISSING else 1 if o is not MISSING else 2
