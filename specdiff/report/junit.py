"""JUnit XML for CI test views: one test case per rule that fired, failing when any of its findings is at or
above `--fail-on` (so the test view agrees with the exit code), valid against Jenkins' junit-10.xsd.

The failure text (or, for a passing rule, the test case's output) lists the rule's findings, one per line.
No timestamps, host names or durations, so the same inputs give the same bytes.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from specdiff.records import Finding, Report
from specdiff.report import NOT_RAW, RenderOptions, at_or_above
from specdiff.report.sections import reason, sentence

#: characters XML 1.0 cannot hold at all, even escaped; they are replaced with U+FFFD
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


#: written as character references: a carriage return (which XML readers would turn into a line feed, and a
#: log would use to overwrite a line) and what no report writes raw
_REFERENCED = re.compile(f"\r|{NOT_RAW}")


def clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def render(report: Report, options: RenderOptions) -> str:
    by_rule: dict[str, list[Finding]] = {}
    for finding in report.findings:
        by_rule.setdefault(finding.rule, []).append(finding)
    failed = sum(1 for findings in by_rule.values() if any(at_or_above(f, options.fail_on) for f in findings))
    counts = {"tests": str(len(by_rule)), "failures": str(failed), "errors": "0"}
    suites = ET.Element("testsuites", {"name": "specdiff", **counts})  # no `skipped` here: junit-10.xsd refuses it
    suite = ET.SubElement(suites, "testsuite", {"name": clean(f"specdiff {report.old.name} -> {report.new.name}"),
                                                **counts, "skipped": "0"})
    properties = ET.SubElement(suite, "properties")
    for name, value in (("spec", report.spec), ("policy", report.policy), ("policy_reason", report.policy_reason),
                        ("response_readers", report.readers), ("today", report.today), ("old", report.old.name),
                        ("new", report.new.name), ("fail_on", options.fail_on)):
        ET.SubElement(properties, "property", {"name": name, "value": clean(value)})
    for rule_id in sorted(by_rule):
        findings = by_rule[rule_id]
        case = ET.SubElement(suite, "testcase", {"classname": f"specdiff.{rule_id.rsplit('.', 1)[0]}",
                                                 "name": rule_id})
        text = clean("".join(_line(f) for f in findings))
        failing = [f for f in findings if at_or_above(f, options.fail_on)]
        if failing:
            worst = min(failing, key=lambda f: f.level.rank).level
            failure = ET.SubElement(case, "failure", {
                "message": f"{len(failing)} finding{'s' if len(failing) != 1 else ''} at or above "
                           f"{options.fail_on} of {len(findings)}", "type": worst.value})
            failure.text = text
        else:
            ET.SubElement(case, "system-out").text = text
    ET.indent(suites)
    xml = _REFERENCED.sub(lambda found: f"&#x{ord(found.group()):x};", ET.tostring(suites, encoding="unicode"))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + xml + "\n"


def _line(finding: Finding) -> str:
    return f"[{finding.level.value}] {sentence(finding)}. Why: {reason(finding)} (at {finding.change.pointer})\n"
