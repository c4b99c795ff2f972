"""SARIF 2.1.0 for code-scanning tools (GitHub code scanning, IDEs): rules with their documentation, results
with their file, line and column, and the finding's fingerprint so a tool can follow a result across runs.
Only findings at or above `--annotate-level` (default dangerous) become results, breaking first: each result is
a code-scanning alert, and 500 safe notes must not become 500 alerts.

Nothing machine-specific goes in: no timestamps, no invocation, no absolute paths the user did not type.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

from specdiff.notation import where
from specdiff.records import Finding, Level, Report, RuleInfo
from specdiff.report import RenderOptions, annotated, json_text
from specdiff.report.sections import reason, sentence
from specdiff.report.sources import source_location
from specdiff.version import __version__

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {Level.BREAKING: "error", Level.DANGEROUS: "warning", Level.SAFE: "note"}
FINGERPRINT = "specdiff/v1"  # partialFingerprints key: the finding fingerprint that baselines use too


def render(report: Report, options: RenderOptions) -> str:
    findings = annotated(report, options)
    rules = {f.rule: f.rule_info for f in findings}  # what each rule's card told its findings
    rule_ids = sorted(rules)
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "specdiff", "version": __version__, "semanticVersion": __version__,
                            "rules": [_rule(rule_id, rules[rule_id]) for rule_id in rule_ids]}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, rule_ids.index(f.rule), options) for f in findings],
        "properties": {"spec": report.spec, "policy": report.policy, "policy_reason": report.policy_reason,
                       "response_readers": report.readers, "today": report.today, "old": report.old.name,
                       "new": report.new.name},
    }
    log = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return json_text(log)


def _rule(rule_id: str, item: RuleInfo) -> dict[str, Any]:
    """The rule as code-scanning tools list it, from what its card told its findings."""
    if not item.title:  # a finding made by hand, not by classify: nothing is known of its rule
        return {"id": rule_id}
    docs = {"what": "", "why": "", "example": ""} | dict(item.docs)
    help_text = "\n\n".join(text for text in (docs["what"], docs["why"], docs["example"] and
                                              f"Example: {docs['example']}") if text)
    help_markdown = "\n\n".join(f"**{heading}**\n\n{docs[key]}" for heading, key in (
        ("What it does", "what"), ("Why it matters", "why"), ("Example", "example")) if docs[key])
    return {
        "id": rule_id,
        "name": "".join(word[:1].upper() + word[1:] for word in re.split(r"[^A-Za-z0-9]+", item.title)),
        "shortDescription": {"text": item.title},
        "fullDescription": {"text": docs["what"] or item.title},
        "help": {"text": help_text or item.reason, "markdown": help_markdown or item.reason},
        "properties": {"level": item.levels, "reason": item.reason, "tags": ["api-compatibility"]},
    }


def _result(finding: Finding, index: int, options: RenderOptions) -> dict[str, Any]:
    change = finding.change
    location: dict[str, Any] = {}
    source = source_location(finding, options)
    if source is not None:
        physical: dict[str, Any] = {"artifactLocation": _artifact(source.file)}
        if source.line is not None:
            physical["region"] = {"startLine": source.line, "startColumn": source.column}
        location["physicalLocation"] = physical
    label = where(change.context)
    if label:
        location["logicalLocations"] = [{"fullyQualifiedName": label, "kind": "resource" if change.context.operation
                                         else "type"}]
    result: dict[str, Any] = {
        "ruleId": finding.rule,
        "ruleIndex": index,
        "level": LEVELS[finding.level],
        "message": {"text": f"{sentence(finding)}. {reason(finding)}" + (
            f" Removed: {source.removed}." if source is not None and source.removed else "")},
        "locations": [location] if location else [],
        "partialFingerprints": {FINGERPRINT: finding.fingerprint},
        "properties": {"level": finding.level.value, "change": change.kind, "pointer": change.pointer,
                       "direction": change.direction, "stability": change.context.stability,
                       "operations": list(finding.operations)},
    }
    return result


def _artifact(file: str) -> dict[str, Any]:
    """A relative path is relative to the repository (%SRCROOT%); an absolute one becomes a file: URI."""
    path = PurePath(file)
    if path.is_absolute():
        return {"uri": path.as_uri()}
    return {"uri": quote(path.as_posix()), "uriBaseId": "%SRCROOT%"}
