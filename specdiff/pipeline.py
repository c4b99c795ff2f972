"""The whole job as one pure function over loaded documents: graph -> diff -> classify -> sort; split at the
graph so that a history graphs each version once (`graphed`, then `compare_graphed` for each pair)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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
from specdiff.group import InlinedCopies, group
from specdiff.load.document import Document
from specdiff.records import Change, Finding, Report, SourceInfo


def run(old: Document, new: Document, policy: str = "auto", config: Config | None = None,
        today: date | None = None, grouped: bool = True, include_docs: bool = False) -> Report:
    """`config` (levels, select/ignore, ignores, baseline) is the policy stage; `today` decides expiry and
    how far away sunset dates are; `grouped` folds the findings of one logical change into one
    (specdiff/group.py); `include_docs` adds documentation changes."""
    with deep_enough(old, new):
        return _compare(Graphed(old, graph_of(old)), Graphed(new, graph_of(new)), policy, config, today, grouped,
                        include_docs)


@dataclass(frozen=True, eq=False)
class Graphed:
    """One version read and graphed: `history` builds each once and compares it with both its neighbours."""

    document: Document
    graph: SpecGraph


def graphed(doc: Document) -> Graphed:
    """The graph of one version, built under the recursion limit its document's --max-depth needs."""
    with deep_enough(doc, doc):
        return Graphed(doc, graph_of(doc))


@contextmanager
def deep_enough(old: Document, new: Document) -> Iterator[None]:
    """The graph and the differ walk nested schemas by recursion, a few frames per level: the interpreter's
    limit is raised to what --max-depth allows, and nesting that `$ref`s between files stack beyond even that is
    an input error naming both files."""
    depth = max(old.limits.max_depth, new.limits.max_depth)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _FRAMES_PER_LEVEL * depth + 1000))
    try:
        with collector_paused():
            yield
    except RecursionError:
        names = old.name if old is new else f"{old.name} and {new.name}"
        raise InputError(f"schemas nest too deeply to compare (more than {depth} levels through $refs, "
                         "--max-depth)", file=names) from None
    finally:
        sys.setrecursionlimit(limit)


#: Python frames the differ spends per level of nesting in a document
_FRAMES_PER_LEVEL = 6


def compare_graphed(old_version: Graphed, new_version: Graphed, policy: str = "auto", config: Config | None = None,
                    today: date | None = None, grouped: bool = True, include_docs: bool = False) -> Report:
    """`run` for two versions already graphed: the graphs are only read, so one version serves both its pairs."""
    old, new = old_version.document, new_version.document
    with deep_enough(old, new):
        return _compare(old_version, new_version, policy, config, today, grouped, include_docs)


def _compare(old_version: Graphed, new_version: Graphed, policy: str, config: Config | None, today: date | None,
             grouped: bool, include_docs: bool) -> Report:
    old, new = old_version.document, new_version.document
    old_graph, new_graph = old_version.graph, new_version.graph
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
        # CRDs inline each Go type at every field using it; an API server's spec names its types instead
        findings = group(findings, InlinedCopies(old.data, new.data) if ecosystem.spec == "crd" else None)
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
