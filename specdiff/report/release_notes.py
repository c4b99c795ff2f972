"""Release notes in the style of Kubernetes' "API Change" notes: breaking changes first (what breaks, why, and the
rule to look up), then deprecations, new features and other changes; grouped by API group/version and kind (by tag
or path for other APIs), one bullet per logical change.

A group of findings (one change at many places) is one bullet. Within a kind, the operations a release adds are
one bullet ("operations added: create, list, ... of `frobbers`"), and so are the types it adds: a new resource
reads as a line, not as twenty. Kubernetes names are written the way its own notes write them: `PodSpec.field`
under a `core/v1` heading. Spec strings are escaped like the PR comment's; nothing is cut short.
"""

from __future__ import annotations

import re

from specdiff.group import operations_phrase
from specdiff.records import Finding, Report
from specdiff.report import RenderOptions
from specdiff.report.markdown import code_span, escape
from specdiff.report.sections import grouped, is_unclassified, reason, sentence

#: a Kubernetes definition name: io.k8s.api.core.v1.PodSpec, io.k8s.api.resource.{v1,v1beta2}.Device
_DEFINITION = re.compile(r"\bio\.k8s\.[\w.]*?\.(v\d+(?:(?:alpha|beta)\d+)?|\{[\w,]+\})\.(\w+)((?: ?\.[\w\[\]]+)*)")
#: rules whose findings a kind lists in one bullet
_FOLDED = {"operation.added": "operations added", "schema.added": "types added"}


def render(report: Report, options: RenderOptions) -> str:
    why = f", {escape(report.policy_reason)}" if report.policy_reason else ""
    lines = [f"# Release notes: {_title(report)}", "",
             f"Changes from {escape(report.old.name)} to {escape(report.new.name)} "
             f"(policy `{report.policy}`{why}): " + ", ".join(f"{n} {level}" for level, n in report.summary().items())
             + ".", ""]
    sections = grouped(report)
    if not sections:
        lines += ["No API changes.", ""]
    for key, title, subjects in sections:
        lines += [f"## {title}", ""]
        for subject, findings in subjects:
            lines.append(f"### {escape(subject.title())}")
            lines += _bullets(findings, with_reason=key != "features", with_rule=key == "breaking")
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _bullets(findings: list[Finding], with_reason: bool, with_rule: bool) -> list[str]:
    """One bullet per logical change: a kind's added operations, and its added types, are one bullet each; the
    findings of one rule with one reason (four fields of a status that became optional) share a bullet that
    gives the reason once."""
    order: list[tuple[str, ...]] = []
    together: dict[tuple[str, ...], list[Finding]] = {}
    for finding in findings:
        key = (finding.rule,) if finding.rule in _FOLDED and not finding.members else (
            finding.rule, finding.level.value, finding.reason)
        if key not in together:
            order.append(key)
            together[key] = []
        together[key].append(finding)
    return [_folded(key[0], together[key]) if len(key) == 1 else _line(together[key], with_reason, with_rule)
            for key in order]


def _folded(rule: str, findings: list[Finding]) -> str:
    if len(findings) == 1:
        return _line(findings, with_reason=False, with_rule=False)
    if rule == "operation.added":
        what = escape(operations_phrase([f.change.context for f in findings]))
    else:
        what = ", ".join(_named(str(f.change.new)) for f in findings)
    return f"- {_FOLDED[rule][:1].upper()}{_FOLDED[rule][1:]}: {what}."


def _line(findings: list[Finding], with_reason: bool, with_rule: bool) -> str:
    first = findings[0]
    parts = [sentence(finding, _named).rstrip(".") for finding in findings]
    text = "; ".join([parts[0]] + [p[:1].lower() + p[1:] if p[1:2].islower() else p for p in parts[1:]])
    if is_unclassified(first):
        text += ". Not classified yet: review it by hand."
    elif with_reason:
        text += ". " + escape(reason(first))
    return f"- {text.rstrip('.')}." + (f" (`{first.rule}`)" if with_rule else "")


def _named(text: str) -> str:
    """`text` escaped, with Kubernetes definition names written as its notes write them:
    `io.k8s.api.core.v1.PodSpec .workloadRef` -> `PodSpec.workloadRef` (the heading names the group and
    version); the versions a group of findings spans stay beside the name: `Device` (v1, v1beta2)."""
    out, at = [], 0
    for found in _DEFINITION.finditer(text):
        version, kind, path = found.group(1), found.group(2), found.group(3).replace(" ", "")
        spans = f" ({version.strip('{}').replace(',', ', ')})" if version.startswith("{") else ""
        out += [_escaped(text[at:found.start()]), code_span(kind + path) + spans]
        at = found.end()
    out.append(_escaped(text[at:]))
    return "".join(out)


def _escaped(part: str) -> str:
    """`escape` that keeps the spaces at the ends, which separate the part from a code span beside it."""
    inner = escape(part)
    if not inner:
        return " " if part[:1].isspace() else ""
    return (" " if part[:1].isspace() else "") + inner + (" " if part[-1:].isspace() else "")


def _title(report: Report) -> str:
    old, new = report.old, report.new
    name = escape(new.title or old.title or new.name)
    if old.version and new.version and old.version != new.version:
        return f"{name} {escape(old.version)} → {escape(new.version)}"
    return name
