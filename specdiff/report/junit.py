"""JUnit XML for CI test views: one test case per rule that fired, failing when any of its findings is breaking.

The failure text (or, for a passing rule, the test case's output) lists the rule's findings, one per line.
No timestamps, host names or durations, so the same inputs give the same bytes.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from specdiff.records import Finding, Level, Report
from specdiff.report import RenderOptions
from specdiff.report.sections import reason, sentence

#: characters XML 1.0 cannot hold at all, even escaped; they are replaced with U+FFFD
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def render(report: Report, options: RenderOptions) -> str:
    by_rule: dict[str, list[Finding]] = {}
    for finding in report.findings:
        by_rule.setdefault(finding.rule, []).append(finding)
    failed = sum(1 for findings in by_rule.values() if any(f.level is Level.BREAKING for f in findings))
    counts = {"tests": str(len(by_rule)), "failures": str(failed), "errors": "0", "skipped": "0"}
    suites = ET.Element("testsuites", {"name": "specdiff", **counts})
    suite = ET.SubElement(suites, "testsuite", {"name": clean(f"specdiff {report.old.name} -> {report.new.name}"),
                                                **counts})
    properties = ET.SubElement(suite, "properties")
    for name, value in (("policy", report.policy), ("policy_reason", report.policy_reason), ("old", report.old.name),
                        ("new", report.new.name)):
        ET.SubElement(properties, "property", {"name": name, "value": clean(value)})
    for rule_id in sorted(by_rule):
        findings = by_rule[rule_id]
        case = ET.SubElement(suite, "testcase", {"classname": f"specdiff.{rule_id.rsplit('.', 1)[0]}",
                                                 "name": rule_id})
        text = clean("".join(_line(f) for f in findings))
        breaking = sum(1 for f in findings if f.level is Level.BREAKING)
        if breaking:
            failure = ET.SubElement(case, "failure", {
                "message": f"{breaking} breaking finding{'s' if breaking != 1 else ''} of {len(findings)}",
                "type": "breaking"})
            failure.text = text
        else:
            ET.SubElement(case, "system-out").text = text
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _line(finding: Finding) -> str:
    return f"[{finding.level.value}] {sentence(finding)}. Why: {reason(finding)} (at {finding.change.pointer})\n"
