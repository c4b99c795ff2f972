"""Where a finding sits in the input files, for formats that point at lines (github, sarif).

A change visible in the new spec points at the new file. A removal points at the nearest enclosing element the
new file still has (its path item, schema or parent property) and names what was removed and where it was:
annotations land on the head's lines, and a line number of the old file would point at something else there.
Only without the new document does a removal point at the old file.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

from specdiff.frozen import record
from specdiff.load.sourcemap import join_pointer, split_pointer
from specdiff.records import Finding

if TYPE_CHECKING:
    from specdiff.load.document import Document
    from specdiff.report import RenderOptions

@record(frozen=True, slots=True)
class SourceLocation:
    file: str  # the path as the repository knows it (relative when the user gave a relative path)
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based, in characters
    removed: str | None = None  # for a removal shown at an enclosing element: what was removed, and where


def source_location(finding: Finding, options: RenderOptions) -> SourceLocation | None:
    """The file, line and column of the finding's node; None when no document or file is known."""
    change = finding.change
    if change.new_pointer is not None and options.new_doc is not None:
        return _at(options.new_doc, change.context.document, change.new_pointer)
    if change.old_pointer is None:
        return None
    old = _at(options.old_doc, change.context.document, change.old_pointer) if options.old_doc else None
    new = _at(options.new_doc, change.context.document, change.old_pointer) if options.new_doc else None
    if new is None:
        return old
    where = f" (line {old.line} of {old.file})" if old and old.line else ""
    return replace(new, removed=f"{change.old_pointer}{where}")


def _at(doc: Document, part: str | None, pointer: str) -> SourceLocation | None:
    doc = _part(doc, part)
    file = repository_path(doc.name)
    if file is None:
        return None
    line_col = _nearest(doc, pointer)
    return SourceLocation(file, *line_col) if line_col else SourceLocation(file)


def repository_path(name: str) -> str | None:
    """A document's name as a file path: `REV:path` (a git input) gives `path`; stdin gives None.

    A name that is an existing file is a file, whatever it contains; otherwise a colon means `REV:path`, the
    only other form the loader reads (`:path` is the staged version, `./` relative to the working folder).
    """
    if name in ("-", "<stdin>"):
        return None
    _, colon, path = name.partition(":")
    if colon and path and not os.path.exists(name):
        return path.removeprefix("./")
    return name


def _part(doc: Document, name: str | None) -> Document:
    """The per-group document a change is in, for directory inputs."""
    for key, part in doc.parts:
        if name in (key, part.name):
            return part
    return doc


def _nearest(doc: Document, pointer: str) -> tuple[int, int] | None:
    """Line and column of the pointer's node, or of its nearest ancestor the source map can find."""
    tokens = split_pointer(pointer)
    while True:
        found = doc.locate(join_pointer(tokens))
        if found or not tokens:
            return found
        tokens.pop()
