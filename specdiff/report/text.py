"""Terminal output for an engineer: worst first, one line per finding, its reason beneath."""

from __future__ import annotations

import re

from specdiff.records import Level, Report
from specdiff.report import RenderOptions

_COLORS = {Level.BREAKING: "\033[1;31m", Level.DANGEROUS: "\033[1;33m", Level.SAFE: "\033[32m"}
_DIM, _RESET = "\033[2m", "\033[0m"
_CONTROL = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """Strip control characters and ANSI escapes that a spec could use to rewrite the terminal, and show line
    breaks as `\\n`: a name with a line break must not start a line of its own (a CI log would run a line
    starting with `::` as a workflow command)."""
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\n", "\\n").replace("\u2028", "\\n")
                        .replace("\u2029", "\\n"))


def render(report: Report, options: RenderOptions) -> str:
    def paint(text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if options.color else text

    lines = [f"specdiff {clean(report.old.name)} -> {clean(report.new.name)} (policy: {report.policy})"]
    if not report.findings:
        lines.append("No changes found.")
    for finding in report.findings:
        tag = paint(f"{finding.level.value:<9}", _COLORS[finding.level])
        location = clean(finding.change.context.label())
        lines.append(f"{tag} {finding.rule:<36} {location}")
        lines.append(f"          {clean(finding.message)}")
        lines.append(paint(f"          why: {clean(finding.reason)}", _DIM))
    summary = report.summary()
    lines.append("")
    lines.append(", ".join(f"{summary[level.value]} {level.value}" for level in Level))
    for note in report.notes:
        lines.append(f"note: {clean(note)}")
    return "\n".join(lines) + "\n"
