"""Per-group OpenAPI v3 directories as a SpecGraph."""

from __future__ import annotations

from specdiff.errors import UsageError
from specdiff.graph.model import SpecGraph
from specdiff.load.document import Document


def build_directory_graph(doc: Document) -> SpecGraph:
    raise UsageError("directory input is not supported yet", file=doc.name)
