"""The whole job as one pure function over loaded documents: graph -> diff -> classify -> sort; split at the
graph so that a history graphs each version once (`graphed`, then `compare_graphed` for each pair)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import TYPE_CHECKING, Any

from specdiff.classify import Calendar, classify
from specdiff.classify.calendar import utc_today
from specdiff.collector import collector_paused
from specdiff.diff import TooManyChanges, diff
from specdiff.errors import InputError
from specdiff.frozen import record
from specdiff.graph import graph_of
from specdiff.graph.ecosystem import as_served, decide, described_alike
from specdiff.graph.kind_paths import Holders, held_by_each
from specdiff.graph.model import SpecGraph
from specdiff.group import InlinedCopies, TypeUses, group_by_ecosystem
from specdiff.load.document import Document
from specdiff.load.limits import recursion_limit
from specdiff.records import DEFAULT_READERS, Change, Finding, Report, SourceInfo

if TYPE_CHECKING:
    from specdiff.config import Config


def run(old: Document, new: Document, policy: str = "auto", config: Config | None = None,
        today: date | None = None, grouped: bool = True, include_docs: bool = False) -> Report:
    """`config` (levels, select/ignore, ignores, baseline) is the policy stage; `today` is the reference date
    (default: the system date in UTC) that decides how far away sunset dates are and whether ignores have
    expired, and the report names it; `grouped` folds the findings of one logical change into one
    (specdiff/group.py); `include_docs` adds documentation changes."""
    with deep_enough(old, new):
        old_graph = graph_of(old)
        return _compare(Graphed(old, old_graph), Graphed(new, graph_of(new, old_graph)), policy, config, today,
                        grouped, include_docs)


@record(frozen=True, eq=False)
class Graphed:
    """One version read and graphed: `history` builds each once and compares it with both its neighbours."""

    document: Document
    graph: SpecGraph


def graphed(doc: Document, earlier: Graphed | None = None) -> Graphed:
    """The graph of one version, built under the recursion limit its document's --max-depth needs; knowing the
    version before, it takes what that graph read of the path items both write alike (graph.reuse)."""
    with deep_enough(doc, doc):
        return Graphed(doc, graph_of(doc, earlier.graph if earlier is not None else None))


@contextmanager
def deep_enough(old: Document, new: Document) -> Iterator[None]:
    """The graph and the differ walk nested schemas by recursion, a few frames per level: the interpreter's
    limit is raised to what --max-depth allows, and nesting that `$ref`s between files stack beyond even that is
    an input error naming both files."""
    depth = max(old.limits.max_depth, new.limits.max_depth)
    try:
        with recursion_limit(max(sys.getrecursionlimit(), _FRAMES_PER_LEVEL * depth + 1000)), collector_paused():
            yield
    except RecursionError:
        names = old.name if old is new else f"{old.name} and {new.name}"
        raise InputError(f"schemas nest too deeply to compare (more than {depth} levels through $refs, "
                         "--max-depth)", file=names) from None


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
    whole = old_graph, new_graph
    if config is not None and config.selection:
        from specdiff.graph.selection import selected  # (a run with no configuration never imports it)

        old_graph, new_graph = selected(old_graph, config.selection), selected(new_graph, config.selection)
    most = min(old.limits.max_changes, new.limits.max_changes)
    try:
        found = diff(old_graph, new_graph, ecosystem, include_docs, most)
    except TooManyChanges:
        raise InputError(f"more than {most} changes found (--max-changes)", file=f"{old.name} and {new.name}") from None
    today = today or utc_today()
    calendar = Calendar(today, config.deprecation_days if config is not None else {})
    configured_readers = config.response_readers if config is not None else None
    readers = configured_readers or DEFAULT_READERS[ecosystem.policy]
    findings = sorted(classify(placed(found, old_graph, new_graph), ecosystem.policy, readers, calendar),
                      key=Finding.sort_key)
    if whole != (old_graph, new_graph):  # a schema only left-out operations reach is left out with them
        findings = [f for f in findings if not _left_out(f.change, f.operations, whole)]
    notes = tuple(f"old: {note}" for note in old_graph.notes) + tuple(f"new: {note}" for note in new_graph.notes)
    # CRDs inline each Go type at every field using it; an API server's spec names its types instead
    copies = InlinedCopies(old.data, new.data) if ecosystem.spec == "crd" else None
    if config is not None:
        if config.filters:  # (the empty policy keeps every finding as it is, in the same order)
            from specdiff.policy import apply

            outcome = apply(findings, config, today, copies)
            findings, notes = list(outcome.findings), notes + outcome.notes
        if config.check_version:
            versions = source_info(old, old_graph).version, source_info(new, new_graph).version
            findings = sorted(findings + release_gate(findings, ecosystem.policy, versions, old_graph, new_graph),
                              key=Finding.sort_key)
    if grouped:
        uses = _type_uses(old_graph, new_graph) if ecosystem.api_server else None
        findings = group_by_ecosystem(findings, ecosystem, copies, uses)
    return Report(source_info(old, old_graph), source_info(new, new_graph), ecosystem.policy, tuple(findings),
                  notes, policy_reason=ecosystem.policy_reason, spec=ecosystem.spec_label, today=today.isoformat(),
                  readers=readers, readers_configured=configured_readers is not None)


def _type_uses(old: SpecGraph, new: SpecGraph) -> TypeUses:
    """Where each side's documents define and refer to their named schemas: an API server's type added or removed
    is a member of what added or removed its use (`group.with_types`)."""
    def documents(graph: SpecGraph) -> list[tuple[str | None, Any]]:
        return [(key, doc.data) for doc, key in graph.part_keys.items()] or [(None, graph.document.data)]

    return TypeUses(documents(old), documents(new))


def _left_out(change: Change, reached: tuple[str, ...], whole: tuple[SpecGraph, SpecGraph]) -> bool:
    """Whether a change is in a schema that no kept operation reaches and a left-out one does."""
    ctx = change.context
    return bool(ctx.schema and not ctx.operation and not reached and operations_reached(change, *whole))


def release_gate(findings: list[Finding], policy: str, versions: tuple[str | None, str | None], old_graph: SpecGraph,
                 new_graph: SpecGraph) -> list[Finding]:
    """--check-version: the findings of the release gate (classify/release_gate.py), from the findings the
    policy kept (an accepted breaking change needs no major bump) and the group-versions the old spec serves."""
    from specdiff.classify.release_gate import gate

    unserved = {f"{crd.group}/{version.name}" for crd in old_graph.crds.values() for version in crd.versions.values()
                if not version.served}
    served = ({op.group_version for op in old_graph.operations.values() if op.group_version}
              | {s.group_version for s in old_graph.schemas.values() if s.group_version}) - unserved
    return classify(placed(gate(findings, policy, *versions, served.__contains__), old_graph, new_graph), policy)


def placed(changes: Iterable[Change], old: SpecGraph, new: SpecGraph) -> list[Change]:
    """The changes with the operations each reaches, and the kinds that hold its schema, on their context: facts
    of the graphs, decided here so classify and the reports never call back into them."""
    changes = list(changes)
    holders = _holders(changes, old, new)
    return [change.with_context(change.context.reaching(operations_reached(change, old, new),
                                                        holders.get(change.context.schema or "", ())))
            for change in changes]


def _holders(changes: list[Change], old: SpecGraph, new: SpecGraph) -> dict[str, Holders]:
    """The kinds whose fields reach each named schema the changes are in (graph/kind_paths.py): how a reader's
    notation names the place. Asked for all of a side's schemas at once, so its walks go only through the types
    above them."""
    by_side: dict[int, tuple[SpecGraph, list[str]]] = {id(new): (new, []), id(old): (old, [])}
    for schema in dict.fromkeys(change.context.schema for change in changes if change.context.schema):
        by_side[id(_holding(schema, old, new))][1].append(schema)
    return {schema: holders for graph, schemas in by_side.values()
            for schema, holders in held_by_each(graph, schemas).items()}


def operations_reached(change: Change, old: SpecGraph, new: SpecGraph) -> tuple[str, ...]:
    ctx = change.context
    listed = change.fact("operations")  # a whole group-version lists the operations that went with it
    if listed is not None:
        return tuple(listed)
    if ctx.operation:
        return (ctx.operation,)
    if ctx.schema:
        return _holding(ctx.schema, old, new).operations_reaching(ctx.schema)
    return ()


def _holding(schema: str, old: SpecGraph, new: SpecGraph) -> SpecGraph:
    """The version a change to a named schema is judged in: the new one, unless the schema went with the old."""
    return new if schema in new.schemas else old


def source_info(doc: Document, graph: SpecGraph) -> SourceInfo:
    info = doc.data.get("info") if isinstance(doc.data, dict) else None
    info = info if isinstance(info, dict) else {}
    title, version = info.get("title"), info.get("version")
    return SourceInfo(doc.name, doc.dialect, str(title) if title is not None else None,
                      str(version) if version is not None else None)
