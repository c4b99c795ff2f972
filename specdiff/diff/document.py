"""The document's own keywords: `info.version`, and what the root and `info` write beyond what the graph reads."""

from __future__ import annotations

from collections.abc import Iterator

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


def document_changes(old: SpecGraph, new: SpecGraph) -> Iterator[Change]:
    """`info.version` changed, and the rest of the root and `info` compared as data (one document on each side:
    a per-group folder's documents are compared through what the graph reads of them). A root key that `$ref`s
    point into (`x-lib` of `#/x-lib/Foo`) is compared where it is used; called after the differ has resolved
    what it compares."""
    o, n = old.document.data, new.document.data
    if old.document.parts or new.document.parts or not (isinstance(o, dict) and isinstance(n, dict)):
        return
    where = Where(Context(), "both")
    old_info = o["info"] if isinstance(o.get("info"), dict) else {}
    new_info = n["info"] if isinstance(n.get("info"), dict) else {}
    before, after = old_info.get("version"), new_info.get("version")
    if before != after:
        kind = "added" if before is None else "removed" if after is None else "modified"
        yield change(kind, "info", "version", old=before, new=after, where=where,
                     old_pointer=None if before is None else "/info/version",
                     new_pointer=None if after is None else "/info/version")
    reached = old.normal.resolver.reached_roots(old.document) | new.normal.resolver.reached_roots(new.document)
    yield from residue(o, n, HANDLES | reached, "", "", Where(Context(part=Part("document")), "both"))
    yield from residue(old_info, new_info, INFO_HANDLES, "/info", "/info", Where(Context(part=Part("info")), "both"))
