"""Release notes in the Kubernetes style: breaking changes, deprecations, new features, other changes.

Each section is grouped by API group/version and kind (by tag or path for other APIs), one line per change:
the message, its location when the message does not name it, the reason where it tells the reader something
(not for new features, whose reason is always "nothing breaks"), and the rule id to look up with
`specdiff explain`. Spec strings are escaped like the PR comment's.
"""

from __future__ import annotations

from specdiff.records import Finding, Report
from specdiff.report import RenderOptions
from specdiff.report.markdown import escape
from specdiff.report.sections import Subjects, grouped, is_unclassified, reason, sentence


def render(report: Report, options: RenderOptions) -> str:
    why = f", {escape(report.policy_reason)}" if report.policy_reason else ""
    lines = [f"# Release notes: {_title(report)}", "",
             f"Changes from {escape(report.old.name)} to {escape(report.new.name)} "
             f"(policy `{report.policy}`{why}): " + ", ".join(f"{n} {level}" for level, n in report.summary().items())
             + ".", ""]
    sections = grouped(report, Subjects([options.new_doc, options.old_doc]))
    if not sections:
        lines += ["No API changes.", ""]
    for key, title, subjects in sections:
        lines += [f"## {title}", ""]
        for subject, findings in subjects:
            lines += [f"### {escape(subject.title())}", ""]
            lines += [_line(finding, with_reason=key != "features") for finding in findings]
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _title(report: Report) -> str:
    old, new = report.old, report.new
    name = escape(new.title or old.title or new.name)
    if old.version and new.version and old.version != new.version:
        return f"{name} {escape(old.version)} → {escape(new.version)}"
    return name


def _line(finding: Finding, with_reason: bool) -> str:
    text = sentence(finding, escape)
    if is_unclassified(finding):
        text += ". Not classified yet: review it by hand."
    elif with_reason:
        text += ". " + escape(reason(finding))
    return f"- {text.rstrip('.')}. (`{finding.rule}`)"
