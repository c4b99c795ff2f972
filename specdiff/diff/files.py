"""The completeness guard: a file the spec reaches through `$ref` that differs where no change points.

Every file both versions reach (`Resolver.externals`, by its path inside the spec's folder) is compared as data
once the differ is done, at the places a `$ref` of either side reaches (what nothing uses in a shared file is no
part of the API). A place that differs counts as reported when a change points at it, inside it or around it
(the pointers of a change reached through a file are pointers into that file), or when it was written into data
the differ compares as data (`Resolver.inline`: a code sample's file); documentation (descriptions, summaries,
titles, examples) is left to `--include-docs`. Each file left with an unreported
difference becomes one `file` change, so a comparison never says "No changes found" while a file it reached
changed. A file only one side reaches is the change of the `$ref` that reaches it, reported where it is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from specdiff.diff.vocabulary import Where, change
from specdiff.graph.model import SpecGraph
from specdiff.load.sourcemap import join_pointer, split_pointer
from specdiff.records import Change, Context, Part

#: keys under which a difference only documents
DOCUMENTATION = frozenset({"description", "summary", "title", "example", "examples", "externalDocs"})
#: how many places of one file a finding shows
SHOWN = 3


def unreported_files(old: SpecGraph, new: SpecGraph, changes: Iterable[Change]) -> Iterator[Change]:
    """One `file` change for each file both specs reach that differs at a place no change points at."""
    old_files, new_files = old.normal.resolver.externals, new.normal.resolver.externals
    shared = sorted(old_files.keys() & new_files.keys())
    differing = [key for key in shared if old_files[key].data != new_files[key].data]
    if not differing:
        return
    pointed = {pointer for found in changes for pointer in (found.old_pointer, found.new_pointer)
               if pointer is not None}
    around = {ancestor for pointer in pointed for ancestor in _ancestors(pointer)}
    for key in differing:
        used = old.normal.resolver.reached(old_files[key]) | new.normal.resolver.reached(new_files[key])
        compared = (old.normal.resolver.inlined.get(id(old_files[key]), set())
                    | new.normal.resolver.inlined.get(id(new_files[key]), set()))
        places = [place for place in _differences(old_files[key].data, new_files[key].data, ())
                  if not _documents(place) and any(a in used for a in _ancestors(join_pointer(place)))
                  and not any(a in compared for a in _ancestors(join_pointer(place)))]
        unreported = [join_pointer(place) for place in places
                      if join_pointer(place) not in around
                      and not any(ancestor in pointed for ancestor in _ancestors(join_pointer(place)))]
        if not unreported:
            continue
        shown = ", ".join(pointer or "/" for pointer in unreported[:SHOWN])
        more = f" and {len(unreported) - SHOWN} more" if len(unreported) > SHOWN else ""
        yield change("modified", "file", where=Where(Context(part=Part("document")), "both"),
                     old=key, new=key, old_pointer=unreported[0], new_pointer=unreported[0], file=key,
                     places=f"{shown}{more}")


def _documents(place: tuple[str, ...]) -> bool:
    """Whether a place is inside documentation (a `description`, but not a property named `description`)."""
    return any(token in DOCUMENTATION and (i == 0 or place[i - 1] not in _NAMES) for i, token in enumerate(place))


#: keys whose own keys are names (of properties), not keywords
_NAMES = frozenset({"properties", "patternProperties"})


def _ancestors(pointer: str) -> Iterator[str]:
    """The pointer and every pointer above it, up to the root ("")."""
    tokens = split_pointer(pointer)
    for end in range(len(tokens), -1, -1):
        yield join_pointer(tokens[:end])


def _differences(before: Any, after: Any, at: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """The places where two parsed files differ: the deepest mapping key or list item that differs."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in dict.fromkeys([*before, *after]):
            if key not in before or key not in after:
                yield (*at, str(key))
            elif before[key] != after[key]:
                yield from _differences(before[key], after[key], (*at, str(key)))
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (old_item, new_item) in enumerate(zip(before, after, strict=True)):
            if old_item != new_item:
                yield from _differences(old_item, new_item, (*at, str(index)))
    elif before != after or type(before) is not type(after):
        yield at
