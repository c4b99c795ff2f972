"""Release notes in the style of Kubernetes' "API Change" notes: breaking changes first (what breaks, why, and the
rule to look up), then deprecations, new features and other changes; grouped by API group/version and kind (by tag
or path for other APIs), one bullet per logical change.

A group of findings (one change at many places) is one bullet. Within a kind, the operations a release adds are
one bullet ("operations added: create, list, ... of `frobbers`"), and so are the types it adds: a new resource
reads as a line, not as twenty. Places are written the way Kubernetes' own notes write them: `PodSpec.field`
under a `core/v1` heading (specdiff/notation.py). Spec strings are escaped like the PR comment's; nothing is cut
short.
"""

from __future__ import annotations

import re
from functools import partial

from specdiff.group import operations_phrase
from specdiff.notation import bare, by_type, type_name, used_by
from specdiff.records import Finding, Report
from specdiff.report import RenderOptions
from specdiff.report.markdown import code_span, escape
from specdiff.report.sections import grouped, headed, is_unclassified, reason, sentence

#: rules whose findings a kind lists in one bullet
_FOLDED = {"operation.added": "operations added", "schema.added": "types added"}


def render(report: Report, options: RenderOptions) -> str:
    lines = [f"# Release notes: {_title(report)}", "",
             f"Changes from {escape(report.old.name)} to {escape(report.new.name)} "
             f"({escape(report.policy_label)}): " + ", ".join(f"{n} {level}" for level, n in report.summary().items())
             + ".", ""]
    sections = grouped(report)
    if not sections:
        lines += ["No API changes.", ""]
    for key, title, subjects in sections:
        lines += [f"## {title}", ""]
        for subject, findings in subjects:
            lines.append(f"### {escape(subject.title())}")
            lines += _bullets(findings, with_reason=key != "features", with_rule=key == "breaking",
                              scoped=not headed(subject))
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _bullets(findings: list[Finding], with_reason: bool, with_rule: bool, scoped: bool) -> list[str]:
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
    return [_folded(key[0], together[key], scoped) if len(key) == 1
            else _line(together[key], with_reason, with_rule, scoped) for key in order]


def _folded(rule: str, findings: list[Finding], scoped: bool) -> str:
    if len(findings) == 1:
        return _line(findings, with_reason=False, with_rule=False, scoped=scoped)
    if rule == "operation.added":
        what = escape(operations_phrase([f.change.context for f in findings]))
    else:
        names = [code_span(bare(f.change.context)) + escape(used_by(f.change.context)) for f in findings]
        what = ", ".join(names[:_LISTED]) + (f" and {len(names) - _LISTED} more" if len(names) > _LISTED else "")
    return f"- {_FOLDED[rule][:1].upper()}{_FOLDED[rule][1:]}: {what}."


#: changes one bullet lists under its shared reason before the rest are folded into a count
_LISTED = 20
#: characters of changes one line may join (`a; b; c`) before each gets a line of its own
_SCANNED = 300


def _line(findings: list[Finding], with_reason: bool, with_rule: bool, scoped: bool) -> str:
    """Changes of one rule and reason: on one line with the reason when they fit a glance (_SCANNED), else the
    reason once and one nested bullet each, the first _LISTED of them (the JSON report lists every one)."""
    first = findings[0]
    rule = f" (`{first.rule}`)" if with_rule else ""
    parts = [sentence(f, partial(_spans, names=_names(f)), scoped).rstrip(".") for f in findings]
    why = "Not classified yet: review it by hand." if is_unclassified(first) else \
        escape(reason(first)) if with_reason else ""
    joined = "; ".join([parts[0]] + [p[:1].lower() + p[1:] if p[1:2].islower() else p for p in parts[1:]])
    if len(joined) <= _SCANNED:
        return f"- {f'{joined}. {why}'.strip().rstrip('.')}." + rule
    listed = [f"  - {part}." for part in parts[:_LISTED]]
    if len(parts) > _LISTED:
        listed.append(f"  - … and {len(parts) - _LISTED} more (`--format json` lists every one).")
    lead = f"- {why.rstrip('.')}{rule}:" if why else f"- {len(parts)} changes:"
    return "\n".join([lead, *listed])


def _spans(text: str, names: list[str]) -> str:
    """`text` escaped, with the places it names as code spans (`PodSpec.workloadRef`), as Kubernetes' notes
    write fields."""
    names = sorted({n for n in names if n}, key=lambda n: (-len(n), n))  # longest first: the whole name wins
    if not names:
        return escape(text)
    pattern = re.compile(r"(?<![\w./])(?:" + "|".join(re.escape(n) for n in names) + r")(?!\w)")
    out, at = [], 0
    for found in pattern.finditer(text):
        out += [_escaped(text[at:found.start()]), code_span(found.group(0))]
        at = found.end()
    out.append(_escaped(text[at:]))
    return "".join(out).strip()


def _names(finding: Finding) -> list[str]:
    """The places a finding's message may name: each member's operation or field (by its kind's path and by its
    type), and its type."""
    contexts = [m.change.context for m in finding.members] or [finding.change.context]
    return [text for ctx in contexts for text in (ctx.operation or bare(ctx), by_type(ctx), type_name(ctx)) if text]


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
