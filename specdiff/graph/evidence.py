"""What makes a spec a Kubernetes API: markers in the document itself, never the shape of its paths.

Plain APIs use `/api/v1/users` too, so a path prefix proves nothing. The evidence, strongest first: the
`x-kubernetes-group-version-kind` marker on named schemas, `io.k8s.*` definition names, and any other
`x-kubernetes-*` extension (list types, actions, validations). The first kind found is what the report
header gives as the reason for the policy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from specdiff.graph.model import NamedSchema, SpecGraph
from specdiff.graph.stability import DECLARED
from specdiff.load.document import Document

GVK = "x-kubernetes-group-version-kind"
_PREFIX = "x-kubernetes-"


def kubernetes_evidence(schemas: dict[str, NamedSchema], documents: Iterable[Document]) -> str | None:
    """One phrase saying what marks the spec as Kubernetes ("x-kubernetes-group-version-kind on 412 schemas"),
    or None when nothing does."""
    marked = sum(1 for named in schemas.values() if GVK in named.schema)
    if marked:
        return f"{GVK} on {_count(marked, 'schema')}"
    named = sum(1 for name in schemas if name.startswith("io.k8s."))
    if named:
        return f"{_count(named, 'io.k8s.* definition')}"
    found = sum(_extensions(doc) for doc in documents)
    if found:
        return f"x-kubernetes-* extensions in {_count(found, 'place')}"
    return None


def api_server(graph: SpecGraph) -> bool:
    """The spec is one a Kubernetes API server publishes for its own types (kinds marked with their
    group-version-kind, or `io.k8s.*` definitions), not a set of CRDs, whose schemas are what validation
    enforces, nor a plain spec that merely uses `x-kubernetes-*` extensions."""
    return not graph.crds and any(GVK in named.schema or name.startswith("io.k8s.")
                                  for name, named in graph.schemas.items())


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _extensions(doc: Document) -> int:
    """How many `x-kubernetes-*` keys the document holds, anywhere (one walk, no recursion). A text without
    the prefix holds none, which a substring search tells far faster than the walk over every node."""
    if doc.sourcemap is not None and _PREFIX not in doc.sourcemap.text:
        return 0
    found = 0
    stack = [doc.data]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            for key, value in node.items():
                if type(key) is str and key.startswith(_PREFIX):
                    found += 1
                if type(value) is dict or type(value) is list:
                    stack.append(value)
        elif type(node) is list:
            stack.extend(item for item in node if type(item) is dict or type(item) is list)
    return found


def plain_pair(old: SpecGraph, new: SpecGraph) -> tuple[SpecGraph, SpecGraph]:
    """When neither spec is Kubernetes, `/api/v1beta1/users` names no group-version: its operations are not
    beta, and a new `/api/v2/...` is no API version to fold. A pair where either side is Kubernetes keeps them."""
    if old.kubernetes or new.kubernetes:
        return old, new
    return _without_path_versions(old), _without_path_versions(new)


def _without_path_versions(graph: SpecGraph) -> SpecGraph:
    if not any(op.group_version for op in graph.operations.values()):
        return graph
    operations = {key: replace(op, group_version=None, stability=DECLARED.get(op.declared_stability or "",
                                                                                     "ga")) if op.group_version
                  else op
                  for key, op in graph.operations.items()}
    return SpecGraph(graph.document, operations, graph.schemas, graph.graph, graph.kubernetes, graph.crds,
                     graph.part_keys, graph.notes, graph.evidence, graph.security_schemes, _normal=graph.normal)
