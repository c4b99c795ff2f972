"""The formats of `specdiff manifests`: each finding names the file and line, the object, what breaks, why and the
fix. Text from the manifests and the specs is escaped as in the comparison's formats: terminals and CI logs get
no control characters (`clean`), markdown no live links, mentions or markup (`escape`, `code_span`), workflow
commands no line of their own (`escape_data`)."""

from __future__ import annotations

from typing import Any

from specdiff.manifests import RULES, ManifestReport, ObjectFinding
from specdiff.records import Level, hashed
from specdiff.report import json_text
from specdiff.report.github import COMMANDS, escape_data, escape_property
from specdiff.report.markdown import code_span, escape
from specdiff.report.sarif import FINGERPRINT, LEVELS, SCHEMA, _artifact
from specdiff.report.text import clean
from specdiff.version import __version__

FORMATS = ("text", "json", "markdown", "sarif", "github")
MARKER = "<!-- specdiff manifests -->"


def fingerprint(finding: ObjectFinding) -> str:
    """Stable across runs and line moves: the file, the object's identity, the rule and the field."""
    obj = finding.object
    return hashed(["manifest", obj.file, obj.api_version, obj.kind, obj.namespace or "", obj.name or "",
                   finding.rule, finding.field])


def summary(report: ManifestReport) -> str:
    counts = {level: sum(1 for f in report.findings if f.level is level) for level in Level}
    objects = len({(f.object.file, f.object.pointer) for f in report.findings})
    unchecked = f"; {len(report.skipped)} of kinds neither side describes, not checked" if report.skipped else ""
    return (f"{_count(report.checked, 'object')} checked in {_count(report.files, 'file')}{unchecked}: {objects} "
            f"would break or need a look ({counts[Level.BREAKING]} breaking, {counts[Level.DANGEROUS]} dangerous)")


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" + ("" if number == 1 else "s")


def _where(finding: ObjectFinding) -> str:
    line = finding.at_line
    return f"{finding.object.file}:{line}" if line is not None else finding.object.file


def render(report: ManifestReport, name: str, annotate_level: str = "dangerous") -> str:
    if name == "text":
        return _text(report)
    if name == "json":
        return _json(report)
    if name == "markdown":
        return _markdown(report)
    annotated = [f for f in report.findings if f.level.rank <= Level(annotate_level).rank]
    annotated.sort(key=lambda f: f.level.rank)
    if name == "sarif":
        return _sarif(report, annotated)
    return "".join(_annotation(f) + "\n" for f in annotated)


def _text(report: ManifestReport) -> str:
    lines = [f"specdiff manifests {clean(report.old)} -> {clean(report.new)}", summary(report)]
    for finding in report.findings:
        lines += ["", f"{finding.level.value:<10} {finding.rule}  {clean(_where(finding))}  "
                      f"{clean(finding.object.label)}",
                  f"    {clean(finding.message)}", f"    Why: {clean(finding.reason)}",
                  f"    Fix: {clean(finding.fix)}"]
    for obj in report.skipped:
        lines += ["", f"{'unchecked':<10} {clean(obj.file)}:{obj.line or 1}  {clean(obj.label)}: neither side "
                      "describes this kind"]
    return "\n".join(lines) + "\n"


def _json(report: ManifestReport) -> str:
    def one(finding: ObjectFinding) -> dict[str, Any]:
        obj = finding.object
        return {"rule": finding.rule, "level": finding.level.value, "message": finding.message,
                "reason": finding.reason, "fix": finding.fix,
                "object": {"apiVersion": obj.api_version, "kind": obj.kind, "namespace": obj.namespace,
                           "name": obj.name},
                "file": obj.file, "line": finding.at_line, "field": finding.field or None,
                "replacement": finding.replacement, "changes": list(finding.changes),
                "fingerprint": fingerprint(finding)}

    envelope = {
        "schema_version": 1, "specdiff_version": __version__, "old": report.old, "new": report.new,
        "summary": {"objects": report.checked + len(report.skipped), "checked": report.checked,
                    "files": report.files, **{level.value: sum(1 for f in report.findings if f.level is level)
                                              for level in Level}},
        "findings": [one(f) for f in report.findings],
        "unchecked": [{"apiVersion": o.api_version, "kind": o.kind, "namespace": o.namespace, "name": o.name,
                       "file": o.file, "line": o.line, "reason": "neither side describes this kind"}
                      for o in report.skipped],
    }
    return json_text(envelope)


_ICONS = {Level.BREAKING: "🔴", Level.DANGEROUS: "🟠", Level.SAFE: "🟢"}


def _markdown(report: ManifestReport) -> str:
    lines = [MARKER, "### specdiff: Kubernetes objects on the upgrade", "",
             f"{code_span(report.old)} → {code_span(report.new)}: {escape(summary(report))}", ""]
    if report.findings:
        lines += ["| | object | where | what breaks | fix |", "|---|---|---|---|---|"]
        for finding in report.findings:
            lines.append(f"| {_ICONS[finding.level]} {finding.level.value} | {escape(finding.object.label, True)} | "
                         f"{code_span(_where(finding)).replace('|', chr(92) + '|')} | "
                         f"{escape(finding.message, True)} | {escape(finding.fix, True)} |")
        lines += ["", "<details><summary>Why each matters</summary>", ""]
        for rule in sorted({f.rule for f in report.findings}):
            lines.append(f"- {code_span(rule)}: {escape(RULES[rule].reason)}")
        lines += ["", "</details>"]
    else:
        lines.append("No object breaks.")
    return "\n".join(lines) + "\n"


def _sarif(report: ManifestReport, findings: list[ObjectFinding]) -> str:
    rule_ids = sorted(RULES)
    results = []
    for finding in findings:
        region = {"startLine": finding.at_line} if finding.at_line is not None else None
        physical: dict[str, Any] = {"artifactLocation": _artifact(finding.object.file)}
        if region:
            physical["region"] = region
        results.append({
            "ruleId": finding.rule, "ruleIndex": rule_ids.index(finding.rule), "level": LEVELS[finding.level],
            "message": {"text": f"{finding.object.label}: {finding.message}. {finding.reason} Fix: {finding.fix}"},
            "locations": [{"physicalLocation": physical,
                           "logicalLocations": [{"fullyQualifiedName": finding.object.label, "kind": "object"}]}],
            "partialFingerprints": {FINGERPRINT: fingerprint(finding)},
            "properties": {"level": finding.level.value, "field": finding.field}})
    rules = [{"id": rule_id, "shortDescription": {"text": RULES[rule_id].title},
              "fullDescription": {"text": RULES[rule_id].reason},
              "properties": {"level": RULES[rule_id].level.value, "tags": ["kubernetes-upgrade"]}}
             for rule_id in rule_ids]
    run = {"tool": {"driver": {"name": "specdiff", "version": __version__, "semanticVersion": __version__,
                               "rules": rules}},
           "columnKind": "unicodeCodePoints", "results": results,
           "properties": {"old": report.old, "new": report.new}}
    return json_text({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]})


def _annotation(finding: ObjectFinding) -> str:
    properties = [("file", clean(finding.object.file))]
    if finding.at_line is not None:
        properties.append(("line", str(finding.at_line)))
    properties.append(("title", f"{finding.rule} ({finding.level.value})"))
    head = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    message = f"{clean(finding.object.label)}: {clean(finding.message)}\nWhy: {clean(finding.reason)}\n" \
              f"Fix: {clean(finding.fix)}"
    return f"::{COMMANDS[finding.level]} {head}::{escape_data(message)}"
