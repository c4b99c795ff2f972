"""graph: a loaded Document -> SpecGraph, the normalised model every later stage reads (graph_of), and the
Ecosystem decided once from both graphs (graph.ecosystem)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importing graph.stability (as notation does) must not load the whole model
    from specdiff.graph.model import SpecGraph
    from specdiff.load.document import Document


def graph_of(doc: Document, earlier: SpecGraph | None = None) -> SpecGraph:
    """The graph of any input: an OpenAPI document, a folder of per-group documents, or CRDs (the modules of the
    latter two are loaded only for such inputs); `earlier`, the graph of the version before, lends an OpenAPI
    document what it read alike (graph.reuse)."""
    if doc.dialect == "crd":
        from specdiff.graph.crd import build_crd_graph

        return build_crd_graph(doc)
    if doc.dialect == "openapi-dir":
        from specdiff.graph.directory import build_directory_graph
        from specdiff.graph.refs import Resolver

        return build_directory_graph(doc, Resolver(doc))
    from specdiff.graph.build import build

    return build(doc, earlier)
