"""A version's graph built knowing the version before: a path item both documents write alike reads into the
records the earlier graph holds, so the builder takes those with their edges instead of reading the item again.
Between real versions most path items are unchanged (Stripe's day-to-day pair: 238 of 259), and a history graphs
each version knowing the one before.

An item reads alike when it is equal (as the differ's own shortcuts take equal) and so is everything the builder
reads through a `$ref`: the places the earlier graph's builder read through one (`SpecGraph.read_through`: shared
parameters and responses, data it compared as data, places inside named schemas) are all equal in both documents,
and every named schema its operations refer to is one the new graph holds already (else the builder would add it
as it reads the item). What a schema names is compared where the named schema is, not here.
"""

from __future__ import annotations

from typing import Any

from specdiff.graph.model import NamedSchema, Operation, SpecGraph
from specdiff.graph.refs import Resolver
from specdiff.load.document import Document
from specdiff.load.sourcemap import at_pointer

#: the top-level keys of a document the builder reads itself and compares at the root whatever refers into them,
#: so that a `$ref` a reused item does not read again changes nothing there (Resolver.reached_roots)
_ROOTS = frozenset({"paths", "components", "definitions", "parameters", "responses"})
#: what a document says for each of its operations that does not say it itself
_CONTEXT = ("host", "basePath", "schemes", "servers", "consumes", "produces", "security", "securityDefinitions")


class Earlier:
    """The graph of the version before, when what it read through `$ref`s reads alike in the new document."""

    def __init__(self, graph: SpecGraph, held: dict[str, NamedSchema]) -> None:
        self.graph = graph
        self.old = graph.document.data
        self.held = held  # the new graph's named schemas, as its builder reads them

    @classmethod
    def of(cls, graph: SpecGraph, doc: Document, resolver: Resolver, held: dict[str, NamedSchema]
           ) -> Earlier | None:
        """None unless both are single documents of one dialect whose references resolve pointer by pointer, that
        say the same for every operation, and every place the earlier graph read through a `$ref` is equal in both;
        its builder read no other file, had no `$ref` it could not follow, and reached no schema through a `$ref` to
        a place that is not a named schema (`Normaliser.opaque`, compared on its own)."""
        old, earlier = graph.document, graph.normal.resolver
        if (old.dialect != doc.dialect or old.parts or doc.parts or graph.part_keys or graph.crds
                or not isinstance(old.data, dict) or not isinstance(doc.data, dict) or graph.normal.opaque
                or earlier.externals or earlier.unfollowed or earlier.modern(old) or resolver.modern(doc)
                or _context(old.data) != _context(doc.data)):
            return None
        for pointer in graph.read_through:
            if (not pointer.startswith("/") or pointer.split("/", 2)[1] not in _ROOTS
                    or at_pointer(old.data, pointer) != at_pointer(doc.data, pointer)):
                return None
        return cls(graph, held)

    def read_alike(self, pointer: str, item: Any, operations: list[Operation]) -> bool:
        """Whether the path item at `pointer` of the new document is written as in the old one, and the named
        schemas its operations refer to are held."""
        edges = self.graph.graph.succ
        return at_pointer(self.old, pointer) == item and all(
            name in self.held for op in operations for _, name in edges[("op", op.key)])


def _context(data: dict[str, Any]) -> list[Any]:
    components = data.get("components")
    return [data.get(key) for key in _CONTEXT] + [
        components.get("securitySchemes") if isinstance(components, dict) else None]
