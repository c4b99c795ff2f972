"""CI formats agree with the verdict: JUnit fails what --fail-on fails and validates against Jenkins' schema;
SARIF and github annotations carry only findings at or above --annotate-level, breaking first."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from lxml import etree

from specdiff.cli import main

ROOT = Path(__file__).resolve().parents[1]
OLD, NEW = "tests/specs/frob-old.yaml", "tests/specs/frob-new.yaml"
DEMO = ("corpora/demo/frobber-v6.yaml", "corpora/demo/frobber-v7.yaml")
JUNIT_XSD = etree.XMLSchema(etree.parse(str(ROOT / "tests" / "schemas" / "junit-10.xsd")))


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def cli(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(main, [*args, "--no-config"])
    return done.exit_code, done.stdout


def junit_cases(text: str) -> dict[str, str | None]:
    """Each test case's name and its failure type (None: it passed), after validating against junit-10.xsd."""
    tree = etree.fromstring(text.encode())
    JUNIT_XSD.assertValid(tree)
    return {case.get("name"): (case.find("failure").get("type") if case.find("failure") is not None else None)
            for case in tree.iter("testcase")}


@pytest.mark.parametrize("fail_on, exit_code, failing", [
    ("breaking", 1, {"schema.enum.value-added": "breaking", "schema.property.removed": "breaking",
                     "operation.removed": "breaking"}),
    ("safe", 1, {"schema.enum.value-added": "breaking", "schema.property.removed": "breaking",
                 "operation.removed": "breaking", "operation.added": "safe"}),
    ("never", 0, {}),
])
def test_junit_fails_exactly_what_fail_on_fails(fail_on: str, exit_code: int, failing: dict[str, str]) -> None:
    code, text = cli(OLD, NEW, "--format", "junit", "--fail-on", fail_on)
    cases = junit_cases(text)
    assert code == exit_code
    assert set(cases) == {"schema.enum.value-added", "schema.property.removed", "operation.removed",
                          "operation.added"}
    assert {name: kind for name, kind in cases.items() if kind} == failing
    suites = etree.fromstring(text.encode())
    assert suites.get("failures") == str(len(failing)) and suites.get("skipped") is None


def test_junit_of_the_demo_with_dangerous_threshold_is_valid_and_fails_dangerous_rules() -> None:
    _, findings = cli(*DEMO, "--format", "json")
    levels: dict[str, set[str]] = {}
    for finding in json.loads(findings)["findings"]:
        levels.setdefault(finding["rule"], set()).add(finding["level"])
    code, text = cli(*DEMO, "--format", "junit", "--fail-on", "dangerous")
    assert code == 1
    cases = junit_cases(text)
    assert {name for name, kind in cases.items() if kind} == {rule for rule, found in levels.items()
                                                              if found & {"breaking", "dangerous"}}
    assert {name for name, kind in cases.items() if kind == "dangerous"} == {
        rule for rule, found in levels.items() if "dangerous" in found and "breaking" not in found}
    assert any(kind == "dangerous" for kind in cases.values())


#: the rules of the demo pair's findings at each level (one finding each, sorted)
DEMO_BREAKING = ("kubernetes.list-type-made-atomic", "kubernetes.preserve-unknown-fields-disabled",
                 "kubernetes.validation.rule-added", "operation.removed", "parameter.became-required",
                 "parameter.required-added", "request.media-type-removed", "response.media-type-removed",
                 "response.status-removed", "schema.constraint-tightened", "schema.default-changed",
                 "schema.enum.value-added", "schema.enum.value-removed", "schema.property.removed",
                 "schema.property.required-added", "schema.type-changed")
DEMO_DANGEROUS = ("parameter.removed", "schema.constraint-loosened", "schema.enum.introduced",
                  "schema.property.removed")
DEMO_SAFE = ("group-version.added", "info.version-changed", "lifecycle.gated-field-added", "lifecycle.promoted",
             "operation.added", "operation.deprecated", "parameter.optional-added", "request-body.became-required",
             "response.media-type-added", "schema.enum.deprecated-value-removed")


def annotations(text: str) -> list[tuple[str, str]]:
    return [re.match(r"::(\w+) .*title=([^:]*?) \(", line).groups() for line in text.splitlines()]  # type: ignore[union-attr]


def test_annotations_keep_the_levels_asked_for_breaking_first() -> None:
    _, text = cli(*DEMO, "--format", "github")
    found = annotations(text)
    kinds = [kind for kind, _ in found]
    assert kinds == sorted(kinds, key=["error", "warning"].index) and "notice" not in kinds
    breaking, dangerous = DEMO_BREAKING, DEMO_DANGEROUS
    assert sorted(found) == sorted([("error", rule) for rule in breaking]
                                   + [("warning", rule) for rule in dangerous])
    _, text = cli(*DEMO, "--format", "github", "--annotate-level", "breaking")
    assert sorted(annotations(text)) == [("error", rule) for rule in breaking]
    _, text = cli(*DEMO, "--format", "github", "--annotate-level", "safe")
    found = annotations(text)
    assert [kind for kind, _ in found] == ["error"] * 16 + ["warning"] * 4 + ["notice"] * 10
    assert sorted(found) == sorted([("error", rule) for rule in breaking] + [("warning", rule) for rule in dangerous]
                                   + [("notice", rule) for rule in DEMO_SAFE])  # (Scale added is a member of the
    # scale operation added)


def test_sarif_results_follow_annotate_level_and_the_configuration(tmp_path: Path) -> None:
    _, text = cli(*DEMO, "--format", "sarif")
    results = json.loads(text)["runs"][0]["results"]
    assert [r["level"] for r in results] == ["error"] * 16 + ["warning"] * 4  # (breaking first)
    assert sorted((r["level"], r["ruleId"]) for r in results) == sorted(
        [("error", rule) for rule in DEMO_BREAKING] + [("warning", rule) for rule in DEMO_DANGEROUS])
    (tmp_path / "c.yaml").write_text("annotate-level: breaking\n")
    done = CliRunner().invoke(main, [*DEMO, "--format", "sarif", "--config", str(tmp_path / "c.yaml")])
    log = json.loads(done.stdout)["runs"][0]
    assert sorted((r["level"], r["ruleId"]) for r in log["results"]) == [("error", rule) for rule in DEMO_BREAKING]
    assert {rule["id"] for rule in log["tool"]["driver"]["rules"]} == {r["ruleId"] for r in log["results"]}
    (tmp_path / "c.yaml").write_text("annotate-level: loud\n")
    done = CliRunner().invoke(main, [*DEMO, "--format", "sarif", "--config", str(tmp_path / "c.yaml")])
    assert (done.exit_code, done.stderr) == (
        2, f"specdiff: error: {tmp_path / 'c.yaml'}:1: annotate-level must be one of breaking, dangerous, safe, "
           "not 'loud'\n")
