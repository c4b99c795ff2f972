"""A history as a timeline: a summary table of steps x levels, the life of a traced element (`--trace`), the
Kubernetes API versions each release introduced, deprecated, stopped serving and removed, then one section per
step written by the formatter of that format for a single report (text, markdown, html, json), so a step reads
exactly as `specdiff OLD NEW` (`--summary` leaves the steps out). As release notes, one section per release, newest
first, as changelogs are written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from specdiff.frozen import record
from specdiff.histories import Event, History, Step
from specdiff.records import Finding, Level
from specdiff.report import RenderOptions, json_text
from specdiff.version import __version__

TIMELINE_FORMATS = ("text", "markdown", "json", "html", "release-notes")
#: raised when a field is removed or renamed or a value written differently (docs/architecture.md)
SCHEMA_VERSION = 2

#: what a rule's finding says about the life of an API version, read from the findings the pipeline made
_LIFECYCLE: dict[str, str] = {
    "group-version.added": "introduced", "crd.version.added": "introduced",
    "crd.version.deprecated": "deprecated",
    "crd.version.unserved": "unserved",
    "group-version.removed": "removed", "crd.version.removed": "removed",
}
LIFECYCLE_COLUMNS = ("introduced", "deprecated", "unserved", "removed")
_COLUMN_TITLES = {"introduced": "introduced", "deprecated": "deprecated", "unserved": "no longer served",
                  "removed": "removed"}


@record(frozen=True, slots=True)
class Release:
    """What one release (the newer version of a step) did to API versions: `apps/v1beta1`, or a CRD's
    `gateway.networking.k8s.io/v1alpha2 HTTPRoute`."""

    label: str
    introduced: tuple[str, ...] = ()
    deprecated: tuple[str, ...] = ()
    unserved: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()

    def column(self, name: str) -> tuple[str, ...]:
        values: tuple[str, ...] = getattr(self, name)
        return values


def api_versions(history: History) -> list[Release]:
    """The table Kubernetes' deprecation guide keeps by hand, per release; empty for a plain OpenAPI history
    (no finding there is about an API version). A CRD version counts as deprecated when its `deprecated` flag
    is set; a Kubernetes API server's documents do not mark deprecated group-versions, so only CRDs fill that."""
    releases = []
    for step in history.steps:
        found: dict[str, set[str]] = {name: set() for name in LIFECYCLE_COLUMNS}
        for finding in step.report.findings if step.report is not None else ():
            for member in finding.members or (finding,):
                column = _LIFECYCLE.get(member.rule)
                if column == "deprecated" and not (member.change.attribute == "deprecated" and member.change.new):
                    continue
                if column is not None:
                    found[column].add(_api_version(member))
        if any(found.values()):
            releases.append(Release(step.new.label, *(tuple(sorted(found[name])) for name in LIFECYCLE_COLUMNS)))
    return releases


def _api_version(finding: Finding) -> str:
    ctx = finding.change.context
    if ctx.gvk and ctx.gvk.count("/") >= 1:
        group_version, _, kind = ctx.gvk.rpartition("/")
        return f"{group_version} {kind}"
    kinds = finding.change.fact("kinds")
    group_version = ctx.group_version or finding.change.fact("group_version") or ""
    return f"{group_version} ({kinds})" if kinds else group_version


def event_text(event: Event) -> str:
    """A trace event as a line reads it: a change leads with its level (`breaking: property ... removed`)."""
    return f"{event.level.value}: {event.text}" if event.level is not None else event.text


def step_title(step: Step) -> str:
    return f"{step.old.label} → {step.new.label}"


def _policy(history: History) -> str:
    labels = sorted({step.report.policy_label for step in history.steps if step.report is not None})
    return "; ".join(labels) if len(labels) == 1 else " | ".join(labels)


# --- text -------------------------------------------------------------------------------------------------------


def _text(history: History, steps: bool = True) -> str:
    from specdiff.report.text import clean, render

    lines = [f"specdiff history: {_span(history)} "
             f"({clean(_policy(history))})"]
    lines += [f"unreadable: {clean(v.label)}: {clean(v.error)}" for v in history.versions if v.error]
    lines += [f"note: {clean(note)}" for note in history.notes]
    lines.append("")
    width = max([len("step"), *(len(clean(step_title(s))) for s in history.steps)])
    lines.append(f"{'step':<{width}}  " + "  ".join(f"{level.value:>9}" for level in Level))
    for step in history.steps:
        counts = step.summary()
        cells = "  ".join(f"{counts[level.value]:>9}" for level in Level) if step.report is not None else \
            f"not compared: {clean(step.error or '')}"
        lines.append(f"{clean(step_title(step)):<{width}}  {cells}")
    total = history.summary()
    lines.append(f"{'total':<{width}}  " + "  ".join(f"{total[level.value]:>9}" for level in Level))
    if history.trace is not None:
        lines += ["", f"Trace of {clean(history.trace.thing)}"]
        lines += [f"  {clean(event.release)}: {clean(event_text(event))}" for event in history.trace.lines]
        if not history.trace.events:
            lines.append("  no change in any step")
    releases = api_versions(history)
    if releases:
        lines += ["", "API versions by release"]
        for release in releases:
            lines.append(f"  {clean(release.label)}")
            for name in LIFECYCLE_COLUMNS:
                if release.column(name):
                    lines.append(f"    {_COLUMN_TITLES[name]}: {clean(', '.join(release.column(name)))}")
    for number, step in enumerate(history.steps if steps else (), 1):
        lines += ["", f"== step {number}: {clean(step_title(step))} =="]
        if step.report is None:
            lines.append(f"not compared: {clean(step.error or '')}")
        else:
            lines.append(render(step.report, RenderOptions()).rstrip("\n"))
    return "\n".join(lines) + "\n"


# --- markdown ---------------------------------------------------------------------------------------------------


def _markdown(history: History, steps: bool = True) -> str:
    from specdiff.report.markdown import code_span, escape, section

    out = ["## specdiff: API history", "",
           f"{_span(history)} · {escape(_policy(history))}", ""]
    out += [f"- **unreadable:** {code_span(v.label)}: {escape(v.error)}" for v in history.versions if v.error]
    out += [f"- **note:** {escape(note)}" for note in history.notes]
    if any(v.error for v in history.versions) or history.notes:
        out.append("")
    out += ["| step | " + " | ".join(level.value for level in Level) + " |", "|---|" + "---:|" * len(Level)]
    for step in history.steps:
        counts = step.summary()
        cells = " | ".join(str(counts[level.value]) for level in Level) if step.report is not None else \
            f"not compared: {escape(step.error or '', table=True)} |" + " |" * (len(Level) - 1)
        out.append(f"| {escape(step_title(step), table=True)} | {cells} |")
    total = history.summary()
    out += ["| **total** | " + " | ".join(f"**{total[level.value]}**" for level in Level) + " |", ""]
    if history.trace is not None:
        out += [f"### Trace of {code_span(history.trace.thing)}", "", "| release | what happened |", "|---|---|"]
        out += [f"| {escape(event.release, table=True)} | {escape(event_text(event), table=True)} |"
                for event in history.trace.lines] or ["| | no change in any step |"]
        out.append("")
    releases = api_versions(history)
    if releases:
        out += ["### API versions by release", "",
                "| release | " + " | ".join(_COLUMN_TITLES[name] for name in LIFECYCLE_COLUMNS) + " |",
                "|---|" + "---|" * len(LIFECYCLE_COLUMNS)]
        for release in releases:
            cells = " | ".join("<br>".join(escape(item, table=True) for item in release.column(name))
                               for name in LIFECYCLE_COLUMNS)
            out.append(f"| {escape(release.label, table=True)} | {cells} |")
        out.append("")
    for number, step in enumerate(history.steps if steps else (), 1):
        title = (f"### Step {number}: {escape(step_title(step))}",)
        if step.report is None:
            out += [*title, "", f"Not compared: {escape(step.error or '')}", ""]
        else:
            out.append(section(step.report, title).rstrip("\n"))
            out.append("")
    return "\n".join(out)


# --- html -------------------------------------------------------------------------------------------------------


def _html(history: History, steps: bool = True) -> str:
    from specdiff.report.html import escape, findings_html, page

    header = [f"<h1>API history: {_span(history)}</h1>",
              f"<p>{escape(_policy(history))}</p>", *(f"<p>note: {escape(note)}</p>" for note in history.notes)]
    main = ['<section id="summary">', "<h2>Summary</h2>", "<table>",
            "<thead><tr><th>step</th>" + "".join(f'<th class="{level.value}">{level.value}</th>' for level in Level)
            + "</tr></thead>", "<tbody>"]
    for number, step in enumerate(history.steps, 1):
        counts = step.summary()
        cells = "".join(f"<td>{counts[level.value]}</td>" for level in Level) if step.report is not None else \
            f'<td colspan="{len(Level)}" class="unreadable">not compared: {escape(step.error or "")}</td>'
        title = f'<a href="#step-{number}">{escape(step_title(step))}</a>' if steps else escape(step_title(step))
        main.append(f"<tr><td>{title}</td>{cells}</tr>")
    total = history.summary()
    main += ["</tbody>", "<tfoot><tr><th>total</th>" + "".join(f"<th>{total[level.value]}</th>" for level in Level)
             + "</tr></tfoot>", "</table>"]
    unreadable = [v for v in history.versions if v.error]
    if unreadable:
        main += ['<ul class="unreadable">'] + [f"<li><strong>unreadable:</strong> <code>{escape(v.label)}</code>: "
                                               f"{escape(v.error or '')}</li>" for v in unreadable] + ["</ul>"]
    main.append("</section>")
    if history.trace is not None:
        main += ['<section id="trace">', f"<h2>Trace of <code>{escape(history.trace.thing)}</code></h2>", "<table>",
                 "<thead><tr><th>release</th><th>what happened</th></tr></thead>", "<tbody>"]
        main += [f'<tr class="{event.level.value if event.level else event.kind}"><td>{escape(event.release)}</td>'
                 f"<td>{escape(event_text(event))}</td></tr>" for event in history.trace.lines] or [
                     '<tr><td colspan="2">no change in any step</td></tr>']
        main += ["</tbody>", "</table>", "</section>"]
    releases = api_versions(history)
    if releases:
        main += ['<section id="api-versions">', "<h2>API versions by release</h2>", "<table>",
                 "<thead><tr><th>release</th>" + "".join(f"<th>{_COLUMN_TITLES[name]}</th>"
                                                         for name in LIFECYCLE_COLUMNS) + "</tr></thead>", "<tbody>"]
        for release in releases:
            cells = "".join("<td>" + "<br>".join(f"<code>{escape(item)}</code>" for item in release.column(name))
                            + "</td>" for name in LIFECYCLE_COLUMNS)
            main.append(f"<tr><td>{escape(release.label)}</td>{cells}</tr>")
        main += ["</tbody>", "</table>", "</section>"]
    for number, step in enumerate(history.steps if steps else (), 1):
        main += [f'<section class="step" id="step-{number}">', f"<h2>Step {number}: {escape(step_title(step))}</h2>"]
        if step.report is None:
            main.append(f'<p class="unreadable">Not compared: {escape(step.error or "")}</p>')
        else:
            counts = step.report.summary()
            main.append("<p>" + escape(step.report.policy_label) + " · " +
                        ", ".join(f"{counts[level.value]} {level.value}" for level in Level) + "</p>")
            main += findings_html(step.report, depth=3, prefix=f"step-{number}-")
        main.append("</section>")
    return page(f"specdiff history: {step_title(history.steps[0])} … {history.steps[-1].new.label}", header, total,
                main)


# --- json -------------------------------------------------------------------------------------------------------


#: what each step's record says of its pair, as the single-report envelope says it
_STEP_KEYS = ("spec", "policy", "policy_reason", "response_readers", "findings", "notes")


def envelope(history: History) -> dict[str, Any]:
    """The versioned envelope: each step carries what the single-report envelope says of its pair."""
    from specdiff.report.json_envelope import envelope as report_envelope

    steps = []
    for step in history.steps:
        record: dict[str, Any] = {"old": step.old.label, "new": step.new.label, "error": step.error,
                                  "summary": step.summary()}
        if step.report is not None:
            single = report_envelope(step.report)
            record.update({key: single[key] for key in _STEP_KEYS})
        else:
            record.update({key: [] if key in ("findings", "notes") else None for key in _STEP_KEYS})
        steps.append(record)
    return {
        "schema_version": SCHEMA_VERSION,
        "specdiff_version": __version__,
        "kind": "history",
        "today": history.today,
        "summary": {**history.summary(), "versions": len(history.versions), "steps": len(history.steps),
                    "unreadable": sum(1 for v in history.versions if v.error)},
        "versions": [{"label": v.label, "source": v.source, "error": v.error} for v in history.versions],
        "notes": list(history.notes),
        "steps": steps,
        "api_versions": [{"release": r.label, **{name: list(r.column(name)) for name in LIFECYCLE_COLUMNS}}
                         for r in api_versions(history)],
        "trace": None if history.trace is None else {
            "thing": history.trace.thing, "present_in": list(history.trace.present_in),
            "events": [{"release": e.release, "kind": e.kind, "level": e.level.value if e.level else None,
                        "text": e.text} for e in history.trace.events]},
    }


def _json(history: History, steps: bool = True) -> str:
    """The envelope, whole: a program reading it takes what it needs (`--summary` is for readers)."""
    return json_text(envelope(history))


# --- release notes ----------------------------------------------------------------------------------------------


def _release_notes(history: History, steps: bool = True) -> str:
    """A changelog: the API's name, then each release newest first, headed by its label, written as
    `--format release-notes` writes one release (specdiff/report/release_notes.py)."""
    from specdiff.report.markdown import escape
    from specdiff.report.release_notes import api_name, notes

    reports = [step.report for step in history.steps if step.report is not None]
    lines = [f"# Release notes: {api_name(reports[-1]) if reports else 'API history'}", ""]
    for step in reversed(history.steps):
        heading = f"{escape(step.new.label)} (from {escape(step.old.label)})"
        if step.report is None:
            lines += [f"## {heading}", "", f"Not compared: {escape(step.error or '')}", ""]
        else:
            lines += notes(step.report, 2, heading, f"{escape(step.old.label)} to {escape(step.new.label)}")
    return "\n".join(lines).rstrip("\n") + "\n"


_RENDERERS: dict[str, Callable[[History, bool], str]] = {
    "text": _text, "markdown": _markdown, "json": _json, "html": _html, "release-notes": _release_notes}


def render_history(history: History, name: str, steps: bool = True) -> str:
    """The timeline in one of TIMELINE_FORMATS; without `steps`, its summary alone (no section per step)."""
    return _RENDERERS[name](history, steps)


def _span(history: History) -> str:
    """`6 versions, 5 steps`; `1 step` for a history of two versions."""
    steps = len(history.steps)
    return f"{len(history.versions)} versions, {steps} step{'' if steps == 1 else 's'}"
