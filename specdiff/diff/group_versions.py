"""Group-versions that appear or disappear as a whole: one change each, holding what went with them.

A graph's group-versions are those of its operations (`/apis/GROUP/VERSION/...`; `/api/VERSION/...` is
`core/VERSION`) and, for a per-group directory, the keys of its documents that end in a version. When one is on
one side only, the operation and definition additions or removals inside it are folded into a single
`group-version` change whose detail lists them, so a removed beta API is one finding instead of one per route.
Definitions belong to a group-version as `graph.build.attribute_group_versions` decides (their kind, else the
kinds of their package); shared types (meta/v1, runtime) never fold.
"""

from __future__ import annotations

from specdiff.diff.vocabulary import Where, change
from specdiff.graph.model import SpecGraph
from specdiff.graph.stability import is_version, of_version
from specdiff.records import Change, Context

#: where a group-version is: its document's key (directories) and a pointer into that document
Place = tuple[str | None, str]


def group_versions(graph: SpecGraph) -> set[str]:
    """Each group-version of a graph: its documents' keys that end in a version, and its operations'."""
    found = {key for key in graph.part_keys.values() if "/" in key and is_version(key.rpartition("/")[2])}
    found.update({op.group_version for op in graph.operations.values() if op.group_version})
    return found


def _place(graph: SpecGraph, group_version: str) -> Place:
    """Where a group-version is: its whole document, else the path item of its first operation by route and
    method (asked only of those on one side: most comparisons have none)."""
    if group_version in graph.part_keys.values():
        return group_version, ""
    first = min((op for op in graph.operations.values() if op.group_version == group_version),
                key=lambda op: (op.path, op.method))
    return graph.part_of(graph.document_of(first)), first.pointer.rpartition("/")[0]


def _group_discovery(places: dict[tuple[str, str], Place], before: set[str],
                     after: set[str]) -> dict[tuple[str, str], tuple[str, str]]:
    """(kind, `GET /apis/GROUP/`) -> the (kind, group-version) that takes it: an API group's discovery document
    comes (or goes) with the group when every version of the group does, so it goes with its first version."""
    taken: dict[tuple[str, str], tuple[str, str]] = {}
    for kind, gv in sorted(places):
        api_group = gv.rpartition("/")[0]
        other = after if kind == "removed" else before
        if api_group != "core" and not any(v.rpartition("/")[0] == api_group for v in other):
            taken.setdefault((kind, f"GET /apis/{api_group}/"), (kind, gv))
    return taken


def fold_group_versions(old: SpecGraph, new: SpecGraph, changes: list[Change]) -> list[Change]:
    before, after = group_versions(old), group_versions(new)
    if before == after:
        return changes
    places = {("removed", gv): _place(old, gv) for gv in before - after}
    places.update({("added", gv): _place(new, gv) for gv in after - before})
    members: dict[tuple[str, str], list[Change]] = {key: [] for key in places}
    discovery = _group_discovery(places, before, after)
    kept: list[Change] = []
    for item in changes:
        whole = item.node in ("operation", "schema") and not item.attribute and item.context.group_version
        bucket = members.get((item.kind, item.context.group_version or "")) if whole else None
        if item.node == "operation" and not item.attribute and not item.context.group_version:
            bucket = members.get(discovery.get((item.kind, str(item.old or item.new)), ("", "")))
        (kept if bucket is None else bucket).append(item)
    for (kind, gv), folded in sorted(members.items()):
        document, pointer = places[(kind, gv)]
        operations = sorted(str(c.old if kind == "removed" else c.new) for c in folded if c.node == "operation")
        definitions = sorted(str(c.old if kind == "removed" else c.new) for c in folded if c.node == "schema")
        side = old if kind == "removed" else new
        found = {gvk.rpartition("/")[2] for name in definitions
                 if (gvk := getattr(side.schemas.get(name), "gvk", None))}
        kinds = sorted(k for k in found if not (k.endswith("List") and k[:-4] in found))  # FooList goes with Foo
        context = Context(group_version=gv, document=document, stability=of_version(gv.rpartition("/")[2]))
        removed = kind == "removed"
        kept.append(change(kind, "group-version", where=Where(context, "both"), old=gv if removed else None,
                           new=None if removed else gv, old_pointer=pointer if removed else None,
                           new_pointer=None if removed else pointer, definition_count=len(definitions),
                           definitions=tuple(definitions), kinds=", ".join(kinds) or "no kinds",
                           operation_count=len(operations), operations=tuple(operations)))
    return kept
