"""The whole job as one pure function over loaded documents: graph -> diff -> classify -> sort."""

from __future__ import annotations

import sys
from datetime import date

from specdiff.classify import classify
from specdiff.collector import collector_paused
from specdiff.config import Config
from specdiff.diff import TooManyChanges, diff
from specdiff.diff.openapi_extensions import with_dates
from specdiff.errors import InputError
from specdiff.graph import graph_of
from specdiff.graph.ecosystem import as_served, decide, described_alike
from specdiff.graph.model import SpecGraph
from specdiff.group import group
from specdiff.load.document import Document
from specdiff.records import Change, Finding, Report, SourceInfo


def run(old: Document, new: Document, policy: str = "auto", config: Config | None = None,
        today: date | None = None, grouped: bool = True, include_docs: bool = False) -> Report:
    """`config` (levels, select/ignore, ignores, baseline) is the policy stage; `today` decides expiry and
    how far away sunset dates are; `grouped` folds the findings of one logical change into one
    (specdiff/group.py); `include_docs` adds documentation changes.

    The differ walks nested schemas by recursion, a few frames per level: the interpreter's limit is raised
    to what --max-depth allows, and nesting that `$ref`s between files stack beyond even that is an input
    error naming both files.
    """
    depth = max(old.limits.max_depth, new.limits.max_depth)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _FRAMES_PER_LEVEL * depth + 1000))
    try:
        with collector_paused():
            return _run(old, new, policy, config, today, grouped, include_docs)
    except RecursionError:
        raise InputError(f"schemas nest too deeply to compare (more than {depth} levels through $refs, "
                         "--max-depth)", file=f"{old.name} and {new.name}") from None
    finally:
        sys.setrecursionlimit(limit)


#: Python frames the differ spends per level of nesting in a document
_FRAMES_PER_LEVEL = 6


def _run(old: Document, new: Document, policy: str, config: Config | None, today: date | None,
         grouped: bool, include_docs: bool = False) -> Report:
    old_graph, new_graph = graph_of(old), graph_of(new)
    ecosystem = decide(old_graph, new_graph, policy)
    old_graph, new_graph = described_alike(as_served(old_graph, ecosystem), as_served(new_graph, ecosystem))
    most = min(old.limits.max_changes, new.limits.max_changes)
    try:
        found = diff(old_graph, new_graph, ecosystem, include_docs, most)
    except TooManyChanges:
        raise InputError(f"more than {most} changes found (--max-changes)", file=f"{old.name} and {new.name}") from None
    changes = with_dates(found, today or date.today(), config.deprecation_days if config is not None else {})

    def reach(change: Change) -> tuple[str, ...]:
        return operations_reached(change, old_graph, new_graph)

    findings = sorted(classify(changes, ecosystem.policy, reach), key=Finding.sort_key)
    notes = tuple(f"old: {note}" for note in old_graph.notes) + tuple(f"new: {note}" for note in new_graph.notes)
    if config is not None:
        from specdiff.policy import apply

        outcome = apply(findings, config, today)
        findings, notes = list(outcome.findings), notes + outcome.notes
    if grouped:
        findings = group(findings)
    return Report(source_info(old, old_graph), source_info(new, new_graph), ecosystem.policy, tuple(findings),
                  notes, policy_reason=ecosystem.policy_reason, spec=ecosystem.spec_label)


def operations_reached(change: Change, old: SpecGraph, new: SpecGraph) -> tuple[str, ...]:
    ctx = change.context
    listed = change.fact("operations")  # a whole group-version lists the operations that went with it
    if listed is not None:
        return tuple(listed)
    if ctx.operation:
        return (ctx.operation,)
    if ctx.schema:
        graph = new if ctx.schema in new.schemas else old
        return graph.operations_reaching(ctx.schema)
    return ()


def source_info(doc: Document, graph: SpecGraph) -> SourceInfo:
    info = doc.data.get("info") if isinstance(doc.data, dict) else None
    info = info if isinstance(info, dict) else {}
    title, version = info.get("title"), info.get("version")
    return SourceInfo(doc.name, doc.dialect, str(title) if title is not None else None,
                      str(version) if version is not None else None)
