"""The Document record: one parsed input with its dialect and a lazy source map."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from specdiff.errors import InputError
from specdiff.frozen import record
from specdiff.load.parse import DEFAULT_LIMITS, Limits
from specdiff.load.sourcemap import SourceMap

DIALECTS = ("swagger-2.0", "openapi-3.0", "openapi-3.1", "openapi-3.2", "crd", "openapi-dir")
#: the URL schemes of documents read from the network (a `$ref`, with --allow-remote-refs), and of their redirects
REMOTE_SCHEMES = ("http", "https")


@record(frozen=True, eq=False)
class Document:
    """A parsed spec. `parts` holds the documents of a directory input, keyed by their group-version."""

    name: str  # what the user typed: a path, "-", or "REV:path"
    data: Any
    dialect: str
    format: str  # json | yaml | dir
    base: str | None = None  # folder that relative $refs resolve against (None: refs to files refused)
    sourcemap: SourceMap | None = None
    parts: tuple[tuple[str, Document], ...] = ()
    #: callable(resolved path, name) -> text, for files beside this one (git revisions use their own, which also
    #: offers `parse(text, name, limits)`: a file both sides hold is parsed once, `graph.refs.load_text_any`)
    reader: Any = None
    limits: Limits = DEFAULT_LIMITS  # what it was read under; files and URLs it refers to are read under the same
    notes: tuple[str, ...] = ()  # remarks on how the input was read, carried into the report's notes

    def __post_init__(self) -> None:
        """Every report prints the name, and JSON, SARIF, HTML and GitHub's UTF-16 count need it to be text:
        a name that is not UTF-8 (from the command line or a folder listing) is refused here, for every input."""
        try:
            self.name.encode("utf-8")  # fails on the surrogate escapes Python makes of bytes that are not UTF-8
        except UnicodeEncodeError:
            raise InputError("the file name is not UTF-8, so no report could name it; rename the file",
                             file=self.name.encode("utf-8", "backslashreplace").decode("utf-8")) from None

    def locate(self, pointer: str) -> tuple[int, int] | None:
        """1-based (line, column) of the node at `pointer`, if the source map can find it."""
        return self.sourcemap.locate(pointer) if self.sourcemap else None


def mappings(data: Any) -> Iterator[dict[str, Any]]:
    """Every mapping in a document's data, depth first, without recursion (its nesting is bounded by --max-depth,
    not by the interpreter's stack)."""
    pending = [data]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            yield node
            pending.extend(value for value in node.values() if isinstance(value, (dict, list)))
        elif isinstance(node, list):
            pending.extend(value for value in node if isinstance(value, (dict, list)))
