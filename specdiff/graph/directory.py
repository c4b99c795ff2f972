"""Per-group OpenAPI v3 directories (`api/openapi-spec/v3`) as one merged SpecGraph.

Kubernetes publishes one document per group-version, and every one of them repeats the shared schemas
(ObjectMeta, Status, ListMeta, ...). Comparing the documents pairwise would compare ObjectMeta once per
document and report one change to it 36 times. So each side becomes one graph: the union of its documents'
operations (their paths never overlap) and named schemas, each remembering the document it came from, so
`$ref`s resolve and pointers and source lines stay right. The two graphs are then compared once, like two
single documents; `diff.group_versions` reports the documents (group-versions) added and removed.

When two documents of one side disagree on a same-named schema (release-1.23 and 1.24 folders carry a 1.27
apiregistration document with a newer ObjectMeta), the version most documents hold is the one compared, and the
report's notes name the documents that were outvoted.
"""

from __future__ import annotations

from specdiff.errors import InputError
from specdiff.graph.build import Builder
from specdiff.graph.model import SpecGraph
from specdiff.graph.refs import Resolver
from specdiff.load.document import Document

OPENAPI_DIALECTS = ("swagger-2.0", "openapi-3.0", "openapi-3.1", "openapi-3.2")


def build_directory_graph(doc: Document, resolver: Resolver) -> SpecGraph:
    builder = Builder(resolver)
    part_keys: dict[Document, str] = {}
    seen: dict[str, str] = {}
    for key, part in doc.parts:
        if part.dialect not in OPENAPI_DIALECTS:
            raise InputError(f"a per-group directory holds OpenAPI documents, not {part.dialect}", file=part.name)
        if key in seen:
            raise InputError(f"a second document for {key} (the first is {seen[key]})", file=part.name)
        seen[key] = part.name
        part_keys[part] = key
        builder.add(part)
    return builder.result(doc, part_keys)
