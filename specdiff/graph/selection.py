"""Choosing what is compared: operations kept or left out by path pattern, by tag, or by an extension such as
`x-internal: true`, from the command line or the configuration (`operations:`).

A left-out operation is taken out of the graph on both sides before the differ runs, so it is neither compared
nor reachable: the schemas only it reaches are left out with it (specdiff/pipeline.py drops their findings),
while a schema that a kept operation also reaches is compared as always.

A path pattern is a glob (`/internal/*`, `*` matching any characters, `/` included) when it holds a `*` that
no regular expression would write there (not after `.`, `)`, `]`, `}` or `\\`); otherwise it is a regular
expression searched in the path, as oasdiff's `--match-path` reads it (`^/api/v1/`, `/admin`). `glob:` and `re:`
say which explicitly. Patterns come from untrusted configuration, so their size is bounded and a regular
expression is matched by RE2, in time linear in the path whatever the pattern (`(a|a)*b` backtracks
exponentially in Python's engine); what RE2 cannot match that way (backreferences, lookarounds) is refused.
"""

from __future__ import annotations

import fnmatch
import re
from functools import cache
from typing import Any

from specdiff.frozen import record
from specdiff.graph.model import Operation, SpecGraph
from specdiff.load.sourcemap import at_pointer, split_pointer

MAX_PATTERNS = 100  # per list
MAX_PATTERN_LENGTH = 500
_GLOB_STAR = re.compile(r"(?<![.)\]}\\])\*")



@record(frozen=True, slots=True)
class Selection:
    """What is compared; the empty selection keeps every operation."""

    match_paths: tuple[str, ...] = ()  # keep only operations whose path matches one of these
    exclude_paths: tuple[str, ...] = ()  # leave out operations whose path matches one of these
    tags: tuple[str, ...] = ()  # keep only operations with one of these tags
    exclude_tags: tuple[str, ...] = ()  # leave out operations with one of these tags
    exclude_extensions: tuple[str, ...] = ()  # leave out operations (or path items) where one of these is true

    def __bool__(self) -> bool:
        return any((self.match_paths, self.exclude_paths, self.tags, self.exclude_tags, self.exclude_extensions))

    def keeps(self, op: Operation, path_item: Any) -> bool:
        if self.match_paths and not any(_matcher(p)(op.path) for p in self.match_paths):
            return False
        if any(_matcher(p)(op.path) for p in self.exclude_paths):
            return False
        if self.tags and not set(self.tags) & set(op.tags):
            return False
        if set(self.exclude_tags) & set(op.tags):
            return False
        holders = (op.raw, path_item if isinstance(path_item, dict) else {})
        return not any(holder.get(name) is True for name in self.exclude_extensions for holder in holders)


def check_pattern(pattern: Any) -> str:
    """A path pattern as given, or ValueError saying why it is refused (the caller names the place)."""
    if not isinstance(pattern, str) or not pattern:
        raise ValueError(f"a path pattern must be a non-empty string, not {str(pattern)[:40]!r}")
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise ValueError(f"a path pattern may be at most {MAX_PATTERN_LENGTH} characters")
    kind, text = _kind(pattern)
    if kind == "re":
        _regular_expression(text)
    return pattern


@cache
def _regular_expression(text: str) -> Any:
    """A pattern compiled by RE2, quietly (RE2 logs what it refuses to stderr unless told not to), or
    ValueError saying why it is refused. It must read as a regular expression the way Python reads one too
    (compiled, never run): RE2 takes a repeat it cannot count, `a{4294967296}`, as the text itself."""
    import re2  # type: ignore[import-untyped]  # only for a regular expression

    try:
        re.compile(text)
    except (re.error, OverflowError) as err:  # OverflowError: a repeat count past what `re` can count
        raise ValueError(f"{text[:60]!r} is no regular expression: {err}") from None
    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(text, options)
    except re2.error as err:
        reason = err.args[0].decode(errors="replace") if err.args and isinstance(err.args[0], bytes) else err
        raise ValueError(f"{text[:60]!r} is no regular expression RE2 matches in linear time: {reason}") from None


def _kind(pattern: str) -> tuple[str, str]:
    for prefix in ("glob:", "re:"):
        if pattern.startswith(prefix):
            return prefix[:-1], pattern[len(prefix):]
    return ("glob" if _GLOB_STAR.search(pattern) else "re"), pattern


_MATCHERS: dict[str, Any] = {}


def _matcher(pattern: str) -> Any:
    found = _MATCHERS.get(pattern)
    if found is None:
        kind, text = _kind(pattern)
        found = _MATCHERS[pattern] = (re.compile(fnmatch.translate(text)).match if kind == "glob"
                                      else _regular_expression(text).search)
    return found


def selected(graph: SpecGraph, selection: Selection) -> SpecGraph:
    """The graph without the operations the selection leaves out, nor their edges to the schemas they use."""
    if not selection or not graph.operations:
        return graph
    kept = {key: op for key, op in graph.operations.items() if selection.keeps(op, _path_item(graph, op))}
    if len(kept) == len(graph.operations):
        return graph
    references = graph.graph.copy()
    references.remove_nodes_from(("op", key) for key in graph.operations if key not in kept)
    from dataclasses import replace

    return replace(graph.with_operations(kept), graph=references)


def _path_item(graph: SpecGraph, op: Operation) -> Any:
    """The path item that holds an operation (its extensions apply to every method under it)."""
    return at_pointer(graph.document_of(op).data, split_pointer(op.pointer)[:-1])
