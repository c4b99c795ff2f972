"""CustomResourceDefinitions as a SpecGraph."""

from __future__ import annotations

from specdiff.errors import UsageError
from specdiff.graph.model import SpecGraph
from specdiff.load.document import Document


def build_crd_graph(doc: Document) -> SpecGraph:
    raise UsageError("CustomResourceDefinition input is not supported yet", file=doc.name)
