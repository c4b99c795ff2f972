"""The normalised model both dialects load into, and the reference graph over it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from specdiff.load.document import Document

Schema = dict[str, Any]


@dataclass(frozen=True)
class MediaType:
    name: str
    schema: Schema | None
    pointer: str  # pointer of the schema (or of the media type when it has none)


@dataclass(frozen=True)
class Parameter:
    location: str  # query | header | path | cookie
    name: str
    required: bool
    schema: Schema | None
    pointer: str
    deprecated: bool = False
    style: str | None = None
    explode: bool | None = None


@dataclass(frozen=True)
class RequestBody:
    required: bool
    media: dict[str, MediaType]
    pointer: str


@dataclass(frozen=True)
class Response:
    status: str
    media: dict[str, MediaType]
    headers: dict[str, Parameter]
    pointer: str


@dataclass(frozen=True)
class Operation:
    key: str  # "GET /pets/{}": method and path template with parameter names erased
    method: str
    path: str
    pointer: str
    parameters: dict[tuple[str, str], Parameter]  # (in, name); path parameters keyed by position
    body: RequestBody | None
    responses: dict[str, Response]
    deprecated: bool = False
    operation_id: str | None = None
    tags: tuple[str, ...] = ()
    group_version: str | None = None
    stability: str = "ga"
    lifecycle: Any = None
    document: Document | None = None  # the document `pointer` points into (a directory's part); None: the spec's

    @property
    def label(self) -> str:
        return f"{self.method.upper()} {self.path}"


@dataclass(frozen=True)
class NamedSchema:
    name: str
    schema: Schema
    pointer: str
    document: Document
    gvk: str | None = None
    group_version: str | None = None
    stability: str = "ga"


@dataclass
class SpecGraph:
    """Operations, named schemas and the networkx graph of who uses whom, in which direction.

    Nodes are ("op", key) and ("schema", name); an edge op -> schema carries the directions in which the
    operation uses it; schema -> schema edges mean "refers to".
    """

    document: Document
    operations: dict[str, Operation]
    schemas: dict[str, NamedSchema]
    graph: Any  # nx.DiGraph
    kubernetes: bool
    crds: dict[str, Any] = field(default_factory=dict)
    part_keys: dict[Document, str] = field(default_factory=dict)  # directory input: each document -> its key
    notes: tuple[str, ...] = ()  # remarks about the input itself, e.g. documents that disagree on a schema
    _reach: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _directions: dict[str, set[str]] | None = None

    def document_of(self, op: Operation) -> Document:
        return op.document or self.document

    def part_of(self, doc: Document) -> str | None:
        """The key (group-version) of a directory's document, None for a single-document spec."""
        return self.part_keys.get(doc)

    def direction(self, schema: str) -> str:
        """request, response or both: how the operations that reach a named schema use it."""
        if self._directions is None:
            self._directions = self._all_directions()
        return _direction(self._directions.get(schema, set()))

    def _all_directions(self) -> dict[str, set[str]]:
        """One breadth-first walk per direction from the operations' own schemas: linear in the graph."""
        found: dict[str, set[str]] = {}
        for direction in ("request", "response"):
            frontier = [target for op in self.operations
                        for _, target, data in self.graph.out_edges(("op", op), data=True)
                        if direction in data["directions"]]
            seen: set[Any] = set()
            while frontier:
                node = frontier.pop()
                if node in seen:
                    continue
                seen.add(node)
                found.setdefault(node[1], set()).add(direction)
                frontier.extend(self.graph.successors(node))
        return found

    def operations_reaching(self, schema: str) -> tuple[str, ...]:
        """Labels of the operations that use a named schema, directly or through other schemas."""
        if schema not in self._reach:
            node = ("schema", schema)
            users = nx.ancestors(self.graph, node) if node in self.graph else set()
            self._reach[schema] = tuple(sorted(self.operations[u[1]].label for u in users if u[0] == "op"))
        return self._reach[schema]


def _direction(directions: set[str]) -> str:
    if directions == {"request"}:
        return "request"
    if directions == {"response"}:
        return "response"
    return "both"  # read and written, or not reached by any operation (a resource or an unused type)


_VERSION = re.compile(r"^v\d+(?:(alpha|beta)\d*)?$")


def is_version(segment: str) -> bool:
    """`v1`, `v1beta2`, `v2alpha1`: a Kubernetes API version."""
    return bool(_VERSION.match(segment))


def stability_of(version: str | None) -> str:
    """`v1alpha1` -> alpha, `v2beta3` -> beta, `v1` -> ga; anything else is ga."""
    if not version:
        return "ga"
    match = _VERSION.match(version)
    return (match.group(1) or "ga") if match else "ga"


def group_version_of_name(name: str) -> str | None:
    """`io.k8s.api.apps.v1.Deployment` -> `apps/v1`; names without a version segment give None."""
    if not name.startswith("io.k8s."):
        return None
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        if _VERSION.match(parts[i]):
            return f"{parts[i - 1]}/{parts[i]}"
    return None


def group_version_of_path(path: str) -> str | None:
    """`/apis/apps/v1/...` -> `apps/v1`; `/api/v1/...` -> `core/v1`."""
    parts = path.strip("/").split("/")
    if len(parts) >= 2 and parts[0] == "api" and _VERSION.match(parts[1]):
        return f"core/{parts[1]}"
    if len(parts) >= 3 and parts[0] == "apis" and _VERSION.match(parts[2]):
        return f"{parts[1]}/{parts[2]}"
    return None
