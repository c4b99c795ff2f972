"""A version's graph built knowing the version before: a path item both documents write alike reads into the
records the earlier graph holds, so the builder takes those with their edges instead of reading the item again.
Between real versions most path items are unchanged (Stripe's day-to-day pair: 238 of 259), and a history graphs
each version knowing the one before.

An item reads alike when it is equal (as the differ's own shortcuts take equal) and so is everything the builder
reads through a `$ref`: the places the earlier graph's builder read through one (`SpecGraph.read_through`: shared
parameters and responses, data it compared as data, places inside named schemas) are all equal in both documents,
and every named schema its operations refer to is one the new graph holds already (else the builder would add it
as it reads the item). What a schema names is compared where the named schema is, not here.

Finer grains serve the items that differ. An operation written alike but for its `parameters` and `requestBody` (a
Kubernetes release adds `shardSelector` to every list operation, or a media type to every body) takes the earlier
record's reading of its responses, security and data, and of its request body where that is written alike too, and
reads the rest again; where its parameters name the schemas the earlier ones did, in their order, and its body reads
alike, it takes the earlier operation's edges too. A list of parameters, or an item of one, written alike at its
place takes the earlier records (`Earlier.parameters`). A named schema written alike takes the named schemas the
earlier graph found it refers to, instead of walking it for its `$ref`s, when each of them is named in the new
document too.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import ne
from typing import Any

from specdiff.graph.model import NamedSchema, Operation, ReadList, Schema, SpecGraph
from specdiff.graph.refs import Resolver
from specdiff.load.document import Document
from specdiff.load.sourcemap import at_pointer

#: the top-level keys of a document the builder reads itself and compares at the root whatever refers into them,
#: so that a `$ref` a reused item does not read again changes nothing there (Resolver.reached_roots)
_ROOTS = frozenset({"paths", "components", "definitions", "parameters", "responses"})
_MISSING = object()  # (a key the old path item does not write: unequal to anything, `Earlier.differing`)
#: what a document says for each of its operations that does not say it itself
_CONTEXT = ("host", "basePath", "schemes", "servers", "consumes", "produces", "security", "securityDefinitions")


class Earlier:
    """The graph of the version before, when what it read through `$ref`s reads alike in the new document."""

    def __init__(self, graph: SpecGraph, held: dict[str, NamedSchema], named: Any) -> None:
        self.graph = graph
        self.old = graph.document.data
        self.held = held  # the new graph's named schemas, as its builder reads them
        self.named = named if isinstance(named, dict) else {}  # the new document's, as written

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
        named = doc.data.get("definitions") if doc.dialect == "swagger-2.0" else (
            doc.data.get("components") or {}).get("schemas")
        return cls(graph, held, named)

    def item(self, container: str, path: str) -> Any:
        """The old document's path item of a route, under `container` (`paths`, or AutoRest's `x-ms-paths`); None
        where it has none (a path item is a mapping)."""
        items = self.old.get(container)
        return items.get(path) if isinstance(items, dict) else None

    @staticmethod
    def differing(before: Any, item: Any) -> list[str] | None:
        """The keys of a path item that `before`, the old document's item of the route, and the new document's
        `item` do not write alike (each written by one of them only among them), compared in C key by key, so that
        an operation found equal here is not compared again (`written_alike`); None unless both are mappings and
        the new one is no `$ref` (it reads elsewhere)."""
        if not isinstance(before, dict) or not isinstance(item, dict) or "$ref" in item:
            return None
        return [*compress(item, map(ne, map(before.get, item, repeat(_MISSING)), item.values())),
                *(key for key in before if key not in item)]

    def holds(self, operations: list[Operation]) -> bool:
        """Whether the new graph holds the named schemas the earlier graph's `operations` refer to, as the
        operations of a path item written alike (`differing`) then do."""
        edges = self.graph.graph.succ
        return all(name in self.held for op in operations for _, name in edges[("op", op.key)])

    def schema_refs(self, name: str, schema: Schema, pointer: str) -> list[str] | None:
        """The named schemas the earlier graph found the named schema `name` refers to, when it read it at
        `pointer` of its own document written alike, and each of them is named in the new document too, where the
        same `$ref`s then lead."""
        kept = self.graph.schemas.get(name)
        if kept is None or kept.pointer != pointer or kept.document is not self.graph.document or kept.schema != schema:
            return None
        targets = [target for _, target in self.graph.graph.succ[("schema", name)]]
        return targets if all(target in self.named for target in targets) else None

    def parameters(self, pointer: str, path_names: tuple[str, ...]) -> ReadList | None:
        """The earlier graph's reading of the list of parameters at `pointer` of its own document, for a path with
        these parameter names: where the new document writes the list, or an item of it, alike there, its records
        are what reading it again would give, whatever else the operation or its path item changed, since what a
        parameter reads through `$ref`s reads alike (`of`). Kubernetes changes the words of one parameter of a
        path item (`pretty`) and leaves the dozen beside it as they were."""
        return self.graph.parameter_lists.get((pointer, path_names))

    def written_alike(self, key: str, before: Any, item_pointer: str, tokens: str, raw: dict[str, Any],
                      equal: bool) -> tuple[Operation, bool] | None:
        """The earlier graph's operation named at `tokens` below the path item at `item_pointer` when its object
        in `before`, the old document's item of the route (`item`), is written as `raw` is, its parameters and
        request body aside (`equal`: the item's key that holds it is written alike, `differing`), and whether its
        request body is written alike too: the builder takes its reading of everything else (responses, security,
        data) and of such a body, and reads the parameters, which a version often adds one to in every list
        operation (of the path item's, when the operation is equal)."""
        op = self.graph.operations.get(key)
        if op is None or op.pointer != item_pointer + tokens or op.callbacks or op.reversed:
            return None
        if equal:
            return op, True
        old = at_pointer(before, tokens)
        if not isinstance(old, dict) or _read_apart(old) != _read_apart(raw):
            return None
        return op, old.get("requestBody") == raw.get("requestBody")


def _read_apart(operation: dict[str, Any]) -> dict[str, Any]:
    """An operation object with its `parameters` and `requestBody`, the parts read apart from the rest
    (`Earlier.written_alike`), set aside: copied and compared in C, where a test of each key would run a step of
    Python for each."""
    return {**operation, "parameters": None, "requestBody": None}


def _context(data: dict[str, Any]) -> list[Any]:
    components = data.get("components")
    return [data.get(key) for key in _CONTEXT] + [
        components.get("securitySchemes") if isinstance(components, dict) else None]
