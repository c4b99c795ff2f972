"""`history --trace THING`: the life of one element across the versions, in the notation reports use.

THING is a group-version (`apps/v1beta1`), an operation (`GET /pets`), or a type and a field path
(`PodSpec.workloadRef`, `HTTPRoute.spec.rules[].filters[].type`, `Pet.name`). Each version is searched for it
once, in its graph (`locate`), which gives where it is (its group-versions), how stable and whether deprecated;
the changes to it are the history's findings at it or inside it. The two together say when it appeared, each
change with its level, when it was deprecated or promoted to a more stable version, and when it was removed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from specdiff.frozen import record
from specdiff.graph.model import SpecGraph
from specdiff.graph.stability import is_version, least_stable, marked, rank
from specdiff.group import group, operations_phrase, places_phrase
from specdiff.histories import Event, History, Trace
from specdiff.load.sourcemap import at_pointer
from specdiff.notation import distinct, folded, name, type_name, where
from specdiff.records import Context, Finding, Level, field_path

#: how a Kubernetes field's description says it is on its way out
_DEPRECATED_TEXT = re.compile(r"^\s*deprecated\b", re.IGNORECASE)
#: one step of a field path: `.name`, `[]` (list items) or `{}` (map values)
_STEP = re.compile(r"\.([^.\[{]+)|\[\]|\{\}")
_METHODS = ("GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE", "QUERY")
#: how far `$ref`s and `allOf`s are followed from one place (the loader already bounds nesting)
_MOST_HOPS = 64


@record(frozen=True, slots=True)
class Presence:
    """The element in one group-version of one version ("" for an API without them)."""

    scope: str
    stability: str
    deprecated: bool
    served: bool = True  # a CRD version can be listed and no longer served


def locate(graph: SpecGraph, thing: str) -> tuple[Presence, ...]:
    """Where THING is in one version: one presence per group-version holding it, sorted; () when it is absent."""
    found: dict[str, Presence] = {}
    for presence in _found(graph, thing.strip()):
        known = found.get(presence.scope)
        if known is None or rank(presence.stability) > rank(known.stability):
            found[presence.scope] = presence
    return tuple(found[scope] for scope in sorted(found))


def _found(graph: SpecGraph, thing: str) -> Iterator[Presence]:
    method, _, path = thing.partition(" ")
    if method.upper() in _METHODS and path.startswith("/"):
        for op in graph.operations.values():
            if op.method.upper() == method.upper() and op.path == path:
                yield Presence(op.group_version or "", op.stability, op.deprecated)
        return
    if is_version(thing.rpartition("/")[2]):
        for gv, stability in _group_versions(graph):
            if gv == thing or gv == f"core/{thing}":
                yield Presence(gv, stability, *_crd_flags(graph, gv))
        return
    short = min((i for i in (thing.find("."), thing.find("["), thing.find("{")) if i > 0), default=len(thing))
    for schema_name, named in graph.schemas.items():
        ctx = Context(schema=schema_name, gvk=named.gvk, group_version=named.group_version)
        # by the short name reports use (`PodSpec.workloadRef`), or by the whole name (`io.k8s.api.core.v1.PodSpec`)
        if thing[:short] == type_name(ctx):
            steps = _steps(thing[short:])
        elif thing.startswith(schema_name) and thing[len(schema_name):][:1] in ("", ".", "[", "{"):
            steps = _steps(thing[len(schema_name):])
        else:
            continue
        node = _walk(named.document.data, named.schema, steps) if steps is not None else None
        if node is not None:
            level = least_stable(named.stability, marked(node))
            deprecated, served = _crd_flags(graph, named.group_version)
            yield Presence(named.group_version or "", level, deprecated or _deprecated(node), served)


def _group_versions(graph: SpecGraph) -> Iterator[tuple[str, str]]:
    for op in graph.operations.values():
        if op.group_version:
            yield op.group_version, op.stability
    for named in graph.schemas.values():
        if named.group_version and named.gvk:
            yield named.group_version, named.stability


def _steps(path: str) -> list[str] | None:
    """`.spec.rules[].type` -> ["spec", "rules", "[]", "type"]; None when it is no field path."""
    steps = [match.group(1) or match.group(0) for match in _STEP.finditer(path)]
    return steps if "".join(s if s in ("[]", "{}") else "." + s for s in steps) == path else None


def _walk(document: Any, schema: Any, steps: Sequence[str]) -> Any:
    """The schema at the field path, following `$ref`s inside the document and the members of `allOf`; None
    when the path leads nowhere."""
    node = _resolved(document, schema)
    for step in steps:
        if node is None:
            return None
        key = {"[]": "items", "{}": "additionalProperties"}.get(step)
        node = _resolved(document, _child(document, node, key, step))
    return node


def _child(document: Any, node: dict[str, Any], key: str | None, step: str) -> Any:
    members = node.get("allOf")
    candidates = [node] + [_resolved(document, m) for m in (members if isinstance(members, list) else [])
                           if isinstance(m, dict)][:_MOST_HOPS]
    for candidate in candidates:
        if not isinstance(candidate, dict):
            continue
        properties = candidate.get("properties")
        found = candidate.get(key) if key else properties.get(step) if isinstance(properties, dict) else None
        if isinstance(found, dict):
            return found
    return None


def _resolved(document: Any, schema: Any) -> dict[str, Any] | None:
    for _ in range(_MOST_HOPS):
        if not isinstance(schema, dict):
            return None
        ref = schema.get("$ref")
        if not (isinstance(ref, str) and ref.startswith("#/")):
            if list(schema) == ["allOf"] and isinstance(schema["allOf"], list) and len(schema["allOf"]) == 1:
                schema = schema["allOf"][0]
                continue
            return schema
        schema = at_pointer(document, ref[1:])
    return None


def _deprecated(node: dict[str, Any]) -> bool:
    return node.get("deprecated") is True or bool(_DEPRECATED_TEXT.match(str(node.get("description") or "")))


def _crd_flags(graph: SpecGraph, group_version: str | None) -> tuple[bool, bool]:
    """(deprecated, served) of the CRD version that is this group-version; (False, True) elsewhere."""
    for crd in graph.crds.values():
        for version in crd.versions.values():
            if f"{crd.group}/{version.name}" == group_version:
                return version.deprecated, version.served
    return False, True


# --- the trace from the presences and the findings ---------------------------------------------------------------


def about(finding: Finding, thing: str) -> bool:
    """Whether a finding is at THING or inside it, by any of the names reports give its place."""
    ctx = finding.change.context
    whole = (ctx.schema or "") + (field_path(ctx) or "") if not ctx.operation else ""  # io.k8s.api.core.v1.PodSpec.x
    names = (name(ctx), where(ctx), ctx.group_version or "", ctx.operation or "", whole)
    return any(label == thing or (label.startswith(thing) and label[len(thing)] in ".[{: ") for label in names
               if label)


def trace_of(thing: str, history: History, presences: dict[int, tuple[Presence, ...]]) -> Trace:
    """The events, release by release, oldest first. A version that could not be read (it has no presence)
    is `unknown`; the next readable one is weighed against the last readable one, its events saying since when
    (`removed (since v2)`), as the release that made them cannot be told."""
    events: list[Event] = []
    lines: list[Event] = []
    first = history.versions[0]
    if first.error:
        events.append(_unknown(first.label))
    elif presences.get(0):
        events.append(Event(first.label, "present", "present" + _scopes(presences[0])))
    known = 0 if 0 in presences else None  # the last version that could be read
    lines += events
    for index, step in enumerate(history.steps):
        release = step.new.label
        now: list[Event] = []
        if index + 1 not in presences:
            now.append(_unknown(release))
        elif known is None and presences[index + 1]:  # the first version read has it
            now.append(Event(release, "present", "present" + _scopes(presences[index + 1])))
        elif known is not None:
            since = "" if known == index else f" (since {history.versions[known].label})"
            now += [Event(e.release, e.kind, e.text + since) for e in
                    _lifecycle(release, presences[known], presences[index + 1])]
        known = index + 1 if index + 1 in presences else known
        changes = _changes(release, thing, step.report.findings) if step.report is not None else []
        events += now + [event for event, _ in changes]
        lines += now + _folded(release, changes)
    present_in = tuple(v.label for i, v in enumerate(history.versions) if presences.get(i))
    return Trace(thing, present_in, tuple(events), tuple(lines))


def _unknown(label: str) -> Event:
    return Event(label, "unknown", f"state unknown: {label} could not be read")


def _scopes(presences: Sequence[Presence]) -> str:
    """` in apps/v1beta1 (beta)`, ` in gateway.networking.k8s.io/v1alpha2 (alpha, deprecated, not served)`; for
    an API without group-versions only what is not plain stable (` (beta)`), else nothing."""
    def state(p: Presence) -> str:
        return ", ".join([p.stability] + ["deprecated"] * p.deprecated
                         + ["not served"] * (not p.served))

    scoped = ", ".join(f"{p.scope} ({state(p)})" for p in presences if p.scope)
    plain = [state(p) for p in presences if not p.scope and state(p) != "stable"]
    return (f" in {scoped}" if scoped else "") + (f" ({plain[0]})" if plain else "")


def _lifecycle(release: str, before: Sequence[Presence], after: Sequence[Presence]) -> list[Event]:
    old = {p.scope: p for p in before}
    new = {p.scope: p for p in after}
    events: list[Event] = []
    added = [new[s] for s in sorted(new.keys() - old.keys())]
    if added and not old:
        events.append(Event(release, "appeared", "appeared" + _scopes(added)))
    elif added:
        best = max(rank(p.stability) for p in before)
        for p in added:
            promoted = rank(p.stability) > best
            events.append(Event(release, "promoted" if promoted else "appeared",
                                f"{'promoted, now also' if promoted else 'now also'}{_scopes([p])}"))
    for scope in sorted(old.keys() & new.keys()):
        was, now = old[scope], new[scope]
        label = f" in {scope}" if scope else ""
        if rank(now.stability) > rank(was.stability):
            events.append(Event(release, "promoted", f"promoted from {was.stability} to {now.stability}{label}"))
        if now.deprecated != was.deprecated:
            events.append(Event(release, "deprecated" if now.deprecated else "undeprecated",
                                f"{'deprecated' if now.deprecated else 'no longer deprecated'}{label}"))
        if now.served != was.served:
            events.append(Event(release, "served" if now.served else "unserved",
                                f"{'served again' if now.served else 'no longer served'}{label}"))
    gone = [old[s] for s in sorted(old.keys() - new.keys())]
    if gone:
        where_from = ", ".join(p.scope for p in gone if p.scope)
        events.append(Event(release, "removed", f"removed from {where_from}" if where_from else "removed"))
    return events


def _changes(release: str, thing: str, findings: Sequence[Finding]) -> list[tuple[Event, list[Finding]]]:
    """The findings at THING, one event per message and level, its group-versions folded (`apps/{v1, v1beta1}`),
    each with the findings it tells of; in report order (most severe first, then by place)."""
    scopes: dict[tuple[Level, str], list[str]] = {}
    behind: dict[tuple[Level, str], list[Finding]] = {}
    for finding in findings:
        members = finding.members or (finding,)
        matching = [member for member in members if about(member, thing)]
        # a group wholly at THING is one change, as the report shows it; else its members there, grouped anew
        # (one change to a type inlined at several places is one group, of which THING is one place)
        for member in group(matching) if len(matching) < len(members) else [finding] * bool(matching):
            places = [m.change.context.group_version or "" for m in (member.members or (member,))]
            scopes.setdefault((member.level, member.message), []).extend(places)
            behind.setdefault((member.level, member.message), []).extend(member.members or (member,))
    events = []
    for (level, message), places in scopes.items():
        events.append((Event(release, "changed", message + _scopes_of(places, message), level),
                       behind[(level, message)]))
    return events


def _scopes_of(places: Sequence[str], message: str) -> str:
    """` (apps/{v1, v1beta1})`: the group-versions of a change its message does not name, folded."""
    listed = distinct(place for place in places if place not in message)
    fold = folded(listed) or ", ".join(listed)
    return f" ({fold})" if fold else ""


def _folded(release: str, changes: Sequence[tuple[Event, list[Finding]]]) -> list[Event]:
    """The changes of one release with those of one rule and level to several operations, or to several places
    of types, as one line each: its rule's title, how many and the first few (`request media type added in 7
    operations: deletecollection, create, replace, patch and delete of horizontalpodautoscalers`). The line
    takes the place of the first change it folds."""
    buckets: dict[tuple[Level | None, str, bool], list[tuple[Event, list[Finding]]]] = {}
    for event, findings in changes:
        kinds = {bool(f.change.context.operation) for f in findings}  # at operations, at places of types
        key = (event.level, findings[0].rule, True in kinds) if len(kinds) == 1 else (event.level, event.text, False)
        buckets.setdefault(key, []).append((event, findings))
    lines = []
    for (level, _, on_operations), members in buckets.items():
        findings = [f for _, found in members for f in found]
        contexts = [f.change.context for f in findings]
        if on_operations:
            operations = list({ctx.operation: ctx for ctx in contexts}.values())
            many, phrase = len(operations), operations_phrase(operations)
        else:
            names = distinct(name(ctx) for ctx in contexts)
            many, phrase = len(names), places_phrase(names, fields=any(field_path(ctx) for ctx in contexts))
        if len(members) < 2 or many < 2:
            lines += [event for event, _ in members]
            continue
        title = findings[0].rule_info.title or findings[0].rule
        title = title if title[1:2].isupper() else title[:1].lower() + title[1:]
        scopes = [ctx.group_version or "" for ctx in contexts]
        lines.append(Event(release, "changed", f"{title} in {phrase}{_scopes_of(scopes, phrase)}", level))
    return lines
