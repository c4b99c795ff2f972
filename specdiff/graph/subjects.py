"""What each operation is about, as a reader groups it: its Kubernetes resource and kind, else its tag.

The graph stage decides this once and the differ carries it on each change's context (`Context.resource`,
`Context.kind`), so the report layer never reads documents or parses paths. A Kubernetes operation's resource
comes from its path (`/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale` -> `deployments/scale`,
written as RBAC writes subresources); the resource's kind is the kind its own operations return
(`x-kubernetes-group-version-kind` on the operation, else on the schema of the success response; a `FooList`
names `Foo`). Other operations go under their first tag, else their path's first segment.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from specdiff.graph.kubernetes_names import group_version_kinds
from specdiff.graph.stability import is_version

if TYPE_CHECKING:
    from specdiff.graph.model import NamedSchema, Operation, SpecGraph

_PARAMETER = re.compile(r"\{[^}]*\}$")

#: (resource, kind) of an operation
Subject = tuple[str | None, str | None]


def subject(graph: SpecGraph, op: Operation) -> Subject:
    """(resource, kind) an operation is about, as a reader groups it."""
    return graph.derived(_Subjects).of(op.key)


def users_subject(graph: SpecGraph, schema: NamedSchema) -> Subject:
    """(resource, kind) a named schema without a kind of its own is about: the kind of what holds it (the
    first schemas with `x-kubernetes-group-version-kind` up the graph, and the operations reached on the
    way) when they all agree; else the resource of the operations using it, when they are one resource in
    the schema's own group-version; else (None, None)."""
    return graph.derived(_Users).subject(schema)


class _Subjects:
    """What the operations of one graph are about, worked out for a whole group-version when one of its operations
    is first asked about (the kind a resource serves is read from all its operations): a comparison asks about
    the operations that changed, often in a few group-versions only."""

    def __init__(self, graph: SpecGraph) -> None:
        self.graph = graph
        self.found: dict[str, Subject] = {}
        self.versions: dict[str, list[Operation]] = {}  # group-version -> its operations
        for op in graph.operations.values():
            if op.group_version:
                self.versions.setdefault(op.group_version, []).append(op)

    def of(self, key: str) -> Subject:
        found = self.found.get(key)
        if found is None:
            op = self.graph.operations[key]
            if op.group_version:
                self.found.update(_group_version_subjects(self.graph, op.group_version,
                                                          self.versions[op.group_version]))
            else:
                self.found[key] = (_tag_or_segment(op), None)
            found = self.found[key]
        return found


def _group_version_subjects(graph: SpecGraph, group_version: str, operations: list[Operation]
                            ) -> dict[str, Subject]:
    """Operation key -> (resource, kind) for the operations of one group-version. `resource` is the Kubernetes
    resource (None for a path that names none, such as discovery); `kind` the group/version/kind the resource
    serves ("apps/v1/Deployment"), None when it serves none or several."""
    kinds: dict[str, set[str]] = {}  # by resource
    resources: dict[str, str | None] = {}
    for op in operations:
        resource = resources[op.key] = kubernetes_resource(op.path)
        if resource and "/" not in resource:
            kind = (op.kind or next(iter(_returned_kinds(graph, op)), None))
            if kind:
                kinds.setdefault(resource, set()).add(kind.rpartition("/")[2])
    served = {resource: f"{group_version}/{kind}" for resource, names in kinds.items()
              if (kind := kind_of(names))}
    # one subject for all the operations of a resource (get, list, watch, ... on its paths)
    by_resource = {resource: (resource, served.get((resource or "").partition("/")[0]))
                   for resource in set(resources.values())}
    return {key: by_resource[resource] for key, resource in resources.items()}


@lru_cache(maxsize=4096)  # the operations of one path (get, put, patch, delete, ...) share it
def kubernetes_resource(path: str) -> str | None:
    """The resource a Kubernetes path acts on: `pods`, or `pods/status` for a subresource; None when the path
    names none (`/apis/apps/v1/`: discovery)."""
    parts = path.strip("/").split("/")
    del parts[:2 if path.startswith("/api/") else 3]  # after /api/V or /apis/G/V
    if parts and parts[0] == "watch":
        del parts[0]
    if len(parts) >= 3 and parts[0] == "namespaces":
        del parts[:2]
    if not parts or _is_parameter(parts[0]):
        return None
    rest = parts[1:]
    if not rest or (len(rest) == 1 and _is_parameter(rest[0])):
        return parts[0]
    sub = next((part for part in rest if not _is_parameter(part)), rest[-1])
    return f"{parts[0]}/{sub}"


def _is_parameter(segment: str) -> bool:
    """A path template's `{parameter}` (the pattern read only for a segment that opens with a brace: most name
    a resource)."""
    return segment[:1] == "{" and _PARAMETER.match(segment) is not None


def _returned_kinds(graph: SpecGraph, op: Operation) -> list[str]:
    """The group/version/kinds the first success response that names one returns: its schema as the
    normalisation stage reads it, through refs resolved in the document the response is written in."""

    for status, response in sorted(op.responses.items()):
        if not status.startswith("2"):
            continue
        for media in response.media.values():
            if media.schema is None:
                continue
            found = group_version_kinds(graph.normal.target(media.schema, media.pointer,
                                                             media.document or graph.document_of(op)))
            if found:
                return found
    return []


def kind_of(kinds: set[str]) -> str | None:
    """The one kind a resource serves: lists name their items' kind (FrobberList -> Frobber)."""
    names = {k[: -len("List")] if k.endswith("List") and len(k) > 4 else k for k in kinds}
    return names.pop() if len(names) == 1 else None


def _tag_or_segment(op: Operation) -> str:
    """The operation's first tag, else its path up to the first segment that is not an API version (`/v1/customers`
    for `/v1/customers/{customer}`: under `/v1` alone, a whole API is one heading)."""
    if op.tags and op.tags[0].strip():
        return op.tags[0]
    segments = []
    for segment in op.path.strip("/").split("/"):
        segments.append(segment)
        if not is_version(segment):
            break
    return "/" + "/".join(segments)


#: what a walk up from a node finds: (what a reader files the users under, their (group-version, resource,
#: kind)), None when they are filed under more than one
_Found = tuple[frozenset[Any], frozenset[Any]] | None


class _Users:
    """The walks up one graph from its schemas to the first kinds and operations that use them."""

    def __init__(self, spec: SpecGraph) -> None:
        self.spec = spec
        #: what a finished walk found above a node: a later walk that reaches the node takes it whole instead of
        #: walking its ancestors again (Stripe: 475 walks, each through thousands of operations)
        self.found_above: dict[tuple[str, str], _Found] = {}

    def subject(self, schema: NamedSchema) -> Subject:
        start = ("schema", schema.name)
        if start not in self.found_above:
            self._settle_above(start)
        known = self.found_above[start]
        return (None, None) if known is None else _subject_from(known[1], schema)

    def _settle_above(self, start: tuple[str, str]) -> None:
        """What is found above `start`, worked out for the schemas the walk up passes through first, the
        highest first, so that each walk stops at the known schemas right above it: asked for the schemas of a
        long chain bottom first, each walked the whole chain above it. A schema on a cycle is walked as it is."""
        pred = self.spec.graph.pred
        stack, open_nodes = [start], {start}
        while stack:
            node = stack[-1]
            waiting = [parent for parent in (pred[node] if node in pred else ())
                       if parent not in self.found_above and parent not in open_nodes and self._passed(parent)]
            if waiting:
                stack.extend(waiting)
                open_nodes.update(waiting)
                continue
            stack.pop()
            open_nodes.discard(node)
            if node not in self.found_above:
                self.found_above[node] = self._found_by_users(node)

    def _passed(self, node: tuple[str, str]) -> bool:
        """Whether the walk up from a schema goes on through `node`: not an operation nor a kind."""
        holder = self.spec.schemas.get(node[1]) if node[0] == "schema" else None
        return node[0] != "op" and not (holder is not None and holder.gvk)

    def _found_by_users(self, start: tuple[str, str]) -> _Found:
        """(what a reader files the users above `start` under, their (group-version, resource, kind)), or None
        when they are filed under more than one: a walk up the graph to the first kinds and operations."""
        found: set[tuple[str | None, str | None, str | None]] = set()  # (group-version, resource, kind)
        about: set[tuple[str | None, str | None]] = set()  # what a reader files each under: one, or give up
        pred = self.spec.graph.pred
        seen, frontier = {start}, [start]
        while frontier:
            node = frontier.pop()
            for parent in pred[node] if node in pred else ():
                if parent in seen:
                    continue
                seen.add(parent)
                if parent in self.found_above:  # everything above it is known: take it, walk no further
                    known = self.found_above[parent]
                    if known is None:
                        return None
                    about.update(known[0])
                    found.update(known[1])
                    if len(about) > 1:
                        return None
                    continue
                holder = self.spec.schemas.get(parent[1]) if parent[0] == "schema" else None
                if parent[0] == "op":
                    op = self.spec.operations[parent[1]]
                    resource, kind = subject(self.spec, op)
                    resource = (resource or "").partition("/")[0] if op.group_version else resource
                    found.add((op.group_version, resource, kind))
                    about.add((op.group_version, kind or resource) if kind is None else (None, kind))
                elif holder is not None and holder.gvk:
                    owner, _, named = holder.gvk.rpartition("/")
                    kind = f"{owner}/{kind_of({named}) or named}"
                    found.add((owner, None, kind))
                    about.add((None, kind))
                else:
                    frontier.append(parent)
                if len(about) > 1:
                    return None  # held by several kinds or resources: a shared type
        return frozenset(about), frozenset(found)


def _subject_from(found: frozenset[Any], schema: NamedSchema) -> Subject:
    """One kind when the users agree on it, else one resource of the schema's own group-version."""
    kinds = {kind for _, _, kind in found}
    if len(kinds) == 1 and None not in kinds:
        return None, kinds.pop()
    places = {(gv, resource) for gv, resource, _ in found}
    if kinds == {None} and len(places) == 1:
        group_version, resource = places.pop()
        if group_version == schema.group_version and resource:
            return resource, None
    return None, None
