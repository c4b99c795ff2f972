"""The versioned JSON envelope: the contract other tools and the yaml format build on."""

from __future__ import annotations

from typing import Any

from specdiff.group import holds
from specdiff.notation import where
from specdiff.records import Finding, Report, SourceInfo, field_path
from specdiff.report import RenderOptions, json_text
from specdiff.version import __version__

#: raised when a field is removed or renamed or a value written differently (docs/architecture.md)
SCHEMA_VERSION = 2


def envelope(report: Report) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "specdiff_version": __version__,
        "spec": report.spec,
        "policy": report.policy,
        "policy_reason": report.policy_reason,
        "response_readers": report.readers,
        "today": report.today,
        "old": _source(report.old),
        "new": _source(report.new),
        "summary": report.summary(),
        "findings": [finding_record(f) for f in report.findings],
        "notes": list(report.notes),
    }


def _source(info: SourceInfo) -> dict[str, Any]:
    return {"name": info.name, "dialect": info.dialect, "title": info.title, "version": info.version}


def finding_record(finding: Finding) -> dict[str, Any]:
    """One finding; a group (one logical change) adds its `count`, what its members are (`holds`: kind -> how
    many, `group.holds`) and its `members`, each with its own location, pointers, values, operations and
    fingerprint, and its own rule, level, message and reason where they are not the group's (`_member`)."""
    record = _place(finding)
    if finding.members:
        record["count"] = len(finding.members)
        record["holds"] = holds(finding)
        record["members"] = [_member(member, finding) for member in finding.members]
    return record


def _member(member: Finding, group: Finding) -> dict[str, Any]:
    """A member's place; its own rule, level, message and reason too when its group's differ (a type added with
    the field that uses it, a version judged alpha where another is stable)."""
    own = member.rule != group.rule or member.level != group.level or member.reason != group.reason
    keys = _MEMBER_KEYS + _OWN_KEYS if own else _MEMBER_KEYS
    return {key: value for key, value in _place(member).items() if key in keys}


_MEMBER_KEYS = ("location", "stability", "pointer", "old_pointer", "new_pointer", "old", "new", "operations",
                "fingerprint")
#: what a member whose rule, level or reason is not its group's says of itself
_OWN_KEYS = ("rule", "level", "message", "reason")


def _place(finding: Finding) -> dict[str, Any]:
    change, ctx = finding.change, finding.change.context
    location = {key: value for key, value in (
        ("label", where(ctx)), ("document", ctx.document), ("operation", ctx.operation), ("schema", ctx.schema),
        ("path", field_path(ctx)), ("group_version", ctx.group_version), ("gvk", ctx.gvk)) if value}
    return {
        "rule": finding.rule,
        "level": finding.level.value,
        "message": finding.message,
        "reason": finding.reason,
        "change": change.kind,
        "location": location,
        "stability": ctx.stability,
        "direction": change.direction,
        "pointer": change.pointer,
        "old_pointer": change.old_pointer,
        "new_pointer": change.new_pointer,
        "old": change.old,
        "new": change.new,
        "operations": list(finding.operations),
        "fingerprint": finding.fingerprint,
    }


def render(report: Report, options: RenderOptions) -> str:
    return json_text(envelope(report))
