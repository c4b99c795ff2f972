"""Terminal output for an engineer: worst first; for each finding a line with its level, rule and the group-version
it is in (the heading its message's short names leave out), then the message and the reason. A reason is printed
where it first applies (a long report repeats few distinct reasons), and a report longer than a screen ends with
its counts again, where the reader's eye is when it finishes."""

from __future__ import annotations

from specdiff.notation import finding_scope
from specdiff.records import Level, Report
from specdiff.report import RenderOptions
from specdiff.report.sections import sentence

_COLORS = {Level.BREAKING: "\033[1;31m", Level.DANGEROUS: "\033[1;33m", Level.SAFE: "\033[32m"}
_DIM, _RESET = "\033[2m", "\033[0m"
#: control characters, and the invisible ones that reorder text (bidi overrides), each as its escape: a table for
#: `str.translate`, which only text that is not all printable needs (a pattern's class of characters beyond
#: Latin-1 took 2.5 M instructions to compile at every start)
_ESCAPES = {code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
            for first, last in ((0x00, 0x08), (0x0B, 0x1F), (0x7F, 0x9F), (0x200E, 0x200F), (0x202A, 0x202E),
                                (0x2066, 0x2069))
            for code in range(first, last + 1)}
_LINE_BREAKS = ("\r\n", "\n", "\u2028", "\u2029")


def clean(text: str) -> str:
    """Show control and bidi characters as escapes (`\\x1b`, `\\u202e`) and line breaks as `\\n`, so a spec
    can neither rewrite the terminal (an ESC without its byte starts no sequence) nor start a line of its own (a
    CI log runs a line starting with `::` as a workflow command), and a reviewer still sees what it tried."""
    for line_break in _LINE_BREAKS:
        text = text.replace(line_break, "\\n")
    return text if text.isprintable() else text.translate(_ESCAPES)


def render(report: Report, options: RenderOptions) -> str:
    def paint(text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if options.color else text

    lines = [f"specdiff {clean(report.old.name)} -> {clean(report.new.name)} ({clean(report.policy_label)})"]
    lines += summary_lines(report)
    if options.summary_only:
        return "\n".join(lines) + "\n"
    lines.append("")
    if not report.findings:
        lines.append("No changes found.")
    explained: set[str] = set()
    for finding in report.findings:
        tag = paint(f"{finding.level.value:<9}", _COLORS[finding.level])
        scope = finding_scope(finding)
        places = f"({len(finding.members)} places)" if finding.members else ""
        head = " ".join(part for part in (clean(scope), places) if part)
        lines.append(f"{tag} {finding.rule:<36} {head}".rstrip())
        lines.append(f"          {clean(sentence(finding, scoped=False))}")
        if finding.reason not in explained:
            explained.add(finding.reason)
            lines.append(paint(f"          why: {clean(finding.reason)}", _DIM))
    for note in report.notes:
        lines.append(f"note: {clean(note)}")
    if len(lines) > _SCREEN:
        lines += ["", summary_lines(report)[0]]
    return "\n".join(lines) + "\n"


#: lines past which the counts are repeated at the end
_SCREEN = 50


def summary_lines(report: Report) -> list[str]:
    """Counts by level, then by level and rule (most first): what a reader wants before the details."""
    summary = report.summary()
    places = sum(len(f.members) or 1 for f in report.findings)
    total = ", ".join(f"{summary[level.value]} {level.value}" for level in Level)
    lines = [total + (f" ({places} places)" if places != len(report.findings) else "")]
    counts: dict[tuple[Level, str], int] = {}
    for finding in report.findings:
        counts[(finding.level, finding.rule)] = counts.get((finding.level, finding.rule), 0) + 1
    for (level, rule), count in sorted(counts.items(), key=lambda item: (item[0][0].rank, -item[1], item[0][1])):
        lines.append(f"  {level.value:<9} {count:>5}  {rule}")
    return lines
