"""The document's own keywords: `info.version`, and what the root and `info` write beyond what the graph reads."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from specdiff.diff.kernel import presence
from specdiff.diff.residue import residue
from specdiff.diff.vocabulary import Where, change
from specdiff.graph.model import SpecGraph
from specdiff.records import Change, Context, Part

#: what the root's keywords are compared as: the graph reads paths (AutoRest's `x-ms-paths` too), components,
#: servers and security (and Swagger 2.0's spellings of them); tags and external documentation only document;
#: `info` is compared below
HANDLES = frozenset({"openapi", "swagger", "info", "servers", "paths", "components", "security", "tags", "externalDocs",
                     "webhooks", "definitions", "parameters", "responses", "securityDefinitions", "host", "basePath",
                     "schemes", "consumes", "produces", "x-ms-paths"})
#: `info.version` is compared on its own; titles and descriptions only document
INFO_HANDLES = frozenset({"version", "title", "description", "summary"})


#: what a tag says (OpenAPI 3.2 adds `summary`, `parent`, the tag it nests under, and `kind`, what it groups);
#: all of it only organises documentation, compared with --include-docs
TAG_FIELDS = ("summary", "description", "parent", "kind", "externalDocs")


def documentation_changes(old: SpecGraph, new: SpecGraph) -> Iterator[Change]:
    """With --include-docs: the document's tags by name, and the `name` of each of its servers (OpenAPI 3.2), by
    URL; both only label what readers of the documentation see."""
    o, n = old.document.data, new.document.data
    if old.document.parts or new.document.parts or not (isinstance(o, dict) and isinstance(n, dict)):
        return
    old_tags, new_tags = _by_key(o.get("tags"), "name", "/tags"), _by_key(n.get("tags"), "name", "/tags")
    for name, (pointer, tag) in new_tags.items():
        where = Where(Context(part=Part("tag", name=name)), "both")
        if name not in old_tags:
            yield change("added", "tag", new=name, where=where, new_pointer=pointer, name=name)
            continue
        before_pointer, before = old_tags[name]
        for field in TAG_FIELDS:
            if before.get(field) != tag.get(field):
                yield _value("tag", field, before, tag, before_pointer, pointer, where, name=name)
    for name, (pointer, _) in old_tags.items():
        if name not in new_tags:
            yield change("removed", "tag", old=name, where=Where(Context(part=Part("tag", name=name)), "both"),
                         old_pointer=pointer, name=name)
    old_servers = _by_key(o.get("servers"), "url", "/servers")
    new_servers = _by_key(n.get("servers"), "url", "/servers")
    for url, (pointer, server) in new_servers.items():
        if url in old_servers and old_servers[url][1].get("name") != server.get("name"):
            before_pointer, before = old_servers[url]
            yield _value("server", "name", before, server, before_pointer, pointer,
                         Where(Context(part=Part("server", name=url)), "both"), url=url)


def _value(node: str, field: str, old: dict[str, Any], new: dict[str, Any], old_pointer: str, new_pointer: str,
           where: Where, **facts: Any) -> Change:
    """One field of two objects set, changed or dropped, with pointers at the field where it is written."""
    before, after = old.get(field), new.get(field)
    return change(presence(before, after, None), node, field, old=before, new=after, where=where,
                  old_pointer=None if before is None else f"{old_pointer}/{field}",
                  new_pointer=None if after is None else f"{new_pointer}/{field}", **facts)


def _by_key(listed: Any, key: str, pointer: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """The mappings of a list (tags, servers) by the string each writes at `key`, with their pointers; the first
    of two that share one."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for i, item in enumerate(listed if isinstance(listed, list) else []):
        if isinstance(item, dict) and isinstance(item.get(key), str):
            found.setdefault(item[key], (f"{pointer}/{i}", item))
    return found


def document_changes(old: SpecGraph, new: SpecGraph) -> Iterator[Change]:
    """`info.version` changed, and the rest of the root and `info` compared as data (one document on each side:
    a per-group folder's documents are compared through what the graph reads of them). A root key that `$ref`s
    point into (`x-lib` of `#/x-lib/Foo`) is compared where it is used; called after the differ has resolved
    what it compares."""
    if old.document.parts or new.document.parts or "" not in old.written or "" not in new.written:
        return
    o, n = old.written[""].data, new.written[""].data  # (what they write beside the model, past their $refs)
    where = Where(Context(), "both")
    old_info = old.written["/info"].data if "/info" in old.written else {}
    new_info = new.written["/info"].data if "/info" in new.written else {}
    before, after = old_info.get("version"), new_info.get("version")
    if before != after:
        kind = "added" if before is None else "removed" if after is None else "modified"
        yield change(kind, "info", "version", old=before, new=after, where=where,
                     old_pointer=None if before is None else "/info/version",
                     new_pointer=None if after is None else "/info/version")
    if not (HANDLES.issuperset(o) and HANDLES.issuperset(n)):  # (else nothing is left to compare as data)
        reached = old.normal.resolver.reached_roots(old.document) | new.normal.resolver.reached_roots(new.document)
        yield from residue(o, n, HANDLES | reached, "", "", Where(Context(part=Part("document")), "both"))
    yield from residue(old_info, new_info, INFO_HANDLES, "/info", "/info", Where(Context(part=Part("info")), "both"))
