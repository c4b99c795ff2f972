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
from typing import TYPE_CHECKING

from specdiff.graph.kubernetes_names import group_version_kinds
from specdiff.graph.stability import is_version

if TYPE_CHECKING:
    from specdiff.graph.model import Operation, SpecGraph

_PARAMETER = re.compile(r"\{[^}]*\}$")

#: (resource, kind) of an operation
Subject = tuple[str | None, str | None]


def operation_subjects(graph: SpecGraph) -> dict[str, Subject]:
    """Operation key -> (resource, kind). `resource` is the Kubernetes resource (None for a path that names
    none, such as discovery), else the tag; `kind` the group/version/kind the resource serves ("apps/v1/
    Deployment"), None when it serves none or several."""
    kinds: dict[tuple[str, str], set[str]] = {}
    resources: dict[str, str | None] = {}
    for key, op in graph.operations.items():
        if not op.group_version:
            resources[key] = _tag_or_segment(op)
            continue
        resource = resources[key] = kubernetes_resource(op.path)
        if resource and "/" not in resource:
            kind = (op.kind or next(iter(_returned_kinds(graph, op)), None))
            if kind:
                kinds.setdefault((op.group_version, resource), set()).add(kind.rpartition("/")[2])
    served = {(group_version, resource): f"{group_version}/{kind}"
              for (group_version, resource), names in kinds.items() if (kind := kind_of(names))}
    return {key: (resources[key], served.get((op.group_version, (resources[key] or "").partition("/")[0]))
                  if op.group_version else None)
            for key, op in graph.operations.items()}


@lru_cache(maxsize=4096)  # the operations of one path (get, put, patch, delete, ...) share it
def kubernetes_resource(path: str) -> str | None:
    """The resource a Kubernetes path acts on: `pods`, or `pods/status` for a subresource; None when the path
    names none (`/apis/apps/v1/`: discovery)."""
    parts = path.strip("/").split("/")[2 if path.startswith("/api/") else 3:]  # after /api/V or /apis/G/V
    if parts[:1] == ["watch"]:
        parts = parts[1:]
    if parts[:1] == ["namespaces"] and len(parts) >= 3:
        parts = parts[2:]
    if not parts or _PARAMETER.match(parts[0]):
        return None
    rest = parts[1:]
    if not rest or (len(rest) == 1 and _PARAMETER.match(rest[0])):
        return parts[0]
    sub = next((part for part in rest if not _PARAMETER.match(part)), rest[-1])
    return f"{parts[0]}/{sub}"


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
