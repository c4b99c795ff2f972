"""The completeness guard: a file the spec reaches through `$ref` that differs where no change points.

Every file both versions reach (`Resolver.externals`, by its path inside the spec's folder) is compared as data
once the differ is done, at the places a `$ref` of each side reaches: what nothing uses in a shared file is no
part of the API, and what only one side reaches (a schema added to a shared file for a new operation) is new or
gone with what reaches it, reported there. A place that differs counts as reported when a change points at it,
inside it or around it (the pointers of a change reached through a file are pointers into that file), inside
the object holding it (the differ compares an object it reports in whole), through a `$ref` written there or
leading there, or when it was written into data the differ compares as data
(`Resolver.inline`: a code sample's file); documentation (descriptions, summaries, titles, examples) is left to
`--include-docs`. Each file left with an unreported difference becomes one `file` change, so a comparison never
says "No changes found" while a file it reached changed. A file only one side reaches is the change of the
`$ref` that reaches it, reported where it is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from specdiff.diff.kernel import canonical
from specdiff.diff.vocabulary import CODE_SAMPLES, DOC_ATTRIBUTES, Where, change
from specdiff.graph.model import SpecGraph
from specdiff.load.sourcemap import join_pointer, split_pointer
from specdiff.records import Change, Context, Part

#: keys under which a difference only documents
DOCUMENTATION = frozenset({*DOC_ATTRIBUTES, *CODE_SAMPLES})
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

    def reported(pointer: str) -> bool:
        """Whether a change points at the place, inside it or around it."""
        return pointer in around or any(ancestor in pointed for ancestor in _ancestors(pointer))

    for key in differing:
        sides = [(graph.normal.resolver, files[key]) for graph, files in ((old, old_files), (new, new_files))]
        used = [resolver.reached(doc) for resolver, doc in sides]
        compared = set().union(*(resolver.inlined.get(id(doc), set()) for resolver, doc in sides))
        #: the refs written in the file (where, target) and those that reach into it (target, from where)
        outgoing = [(at, target) for resolver, doc in sides
                    for source, at, _, target in resolver.links if source == id(doc)]
        incoming = [(target, at) for resolver, doc in sides
                    for _, at, home, target in resolver.links if home == id(doc)]
        unreported = []
        for place in _differences(old_files[key].data, new_files[key].data, ()):
            pointer = join_pointer(place)
            above = set(_ancestors(pointer))
            if _documents(place) or not all(above & reached for reached in used) or above & compared or \
                    reported(pointer):
                continue
            if len(place) > 1 and join_pointer(place[:-1]) in around:
                continue  # a change points in the object holding it: the differ compared that object whole
            if any(reported(target) for at, target in outgoing if pointer in _ancestors(at)):
                continue  # a $ref written there leads to what a change points at
            if any(reported(at) for target, at in incoming if target in above):
                continue  # a change points at the $ref that leads here
            unreported.append(pointer)
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
    elif isinstance(before, list) and isinstance(after, list):
        # items added or removed: each one that the other side does not hold (new indexes, then old ones)
        old_items, new_items = {canonical(item) for item in before}, {canonical(item) for item in after}
        alone = [(*at, str(i)) for i, item in enumerate(after) if canonical(item) not in old_items] + [
            (*at, str(i)) for i, item in enumerate(before) if canonical(item) not in new_items]
        yield from alone or [at]
    elif before != after or type(before) is not type(after):
        yield at
