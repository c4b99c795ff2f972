"""A pull-request comment: counts, breaking changes in a table, the rest folded away.

Everything taken from a spec is escaped, so a spec cannot inject markup, links, mentions or HTML.
"""

from __future__ import annotations

import re

from specdiff.records import Finding, Level, Report
from specdiff.report import RenderOptions
from specdiff.report.text import clean

MARKER = "<!-- specdiff -->"
GITHUB_LIMIT = 65536
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~&@:])")
_ICONS = {Level.BREAKING: "🔴", Level.DANGEROUS: "🟠", Level.SAFE: "🟢"}


def escape(text: str) -> str:
    """Neutralise Markdown, HTML, autolinks and @mentions in text that came from a spec."""
    text = " ".join(clean(text).split())
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    return text.replace("\\@", "@\u200b").replace("\\:", ":\u200b")


def _row(finding: Finding) -> str:
    location = escape(finding.change.context.label())
    return (f"| `{finding.rule}` | {location} | {escape(finding.message)} | {escape(finding.reason)} |")


def _table(findings: list[Finding]) -> list[str]:
    return ["| rule | where | change | why |", "|---|---|---|---|", *(_row(f) for f in findings)]


def render(report: Report, options: RenderOptions) -> str:
    summary = report.summary()
    head = [MARKER, "### specdiff: API compatibility",
            f"{escape(report.old.name)} → {escape(report.new.name)} · policy `{report.policy}` · "
            + " · ".join(f"{_ICONS[level]} **{summary[level.value]}** {level.value}" for level in Level), ""]
    notes = ["#### Notes", *(f"- {escape(note)}" for note in report.notes), ""] if report.notes else []
    if not report.findings:
        return "\n".join(head + ["No changes found.", ""] + notes)
    body: list[str] = []
    breaking = [f for f in report.findings if f.level is Level.BREAKING]
    if breaking:
        body += ["#### Breaking changes", *_table(breaking), ""]
    for level in (Level.DANGEROUS, Level.SAFE):
        chosen = [f for f in report.findings if f.level is level]
        if chosen:
            body += [f"<details><summary>{_ICONS[level]} {len(chosen)} {level.value} change"
                     f"{'s' if len(chosen) != 1 else ''}</summary>", "", *_table(chosen), "", "</details>", ""]
    return _fit(head, body + notes)


def _fit(head: list[str], body: list[str]) -> str:
    """Keep the comment under GitHub's limit, cutting whole lines and saying so."""
    text = "\n".join(head + body) + "\n"
    if len(text) <= GITHUB_LIMIT:
        return text
    kept: list[str] = []
    budget = GITHUB_LIMIT - len("\n".join(head)) - 400
    for line in body:
        if len(line) + 1 > budget:
            break
        kept.append(line)
        budget -= len(line) + 1
    if any(line.startswith("<details>") for line in kept) and kept.count("</details>") < sum(
            1 for line in kept if line.startswith("<details>")):
        kept += ["", "</details>"]
    note = (f"\n**Truncated:** {len(body) - len(kept)} more lines did not fit in one comment; "
            "run specdiff locally or see the job summary for the full report.")
    return "\n".join(head + kept) + "\n" + note + "\n"
