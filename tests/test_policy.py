"""The policy stage: level overrides, select/ignore, scoped ignores with expiry, baselines, and their notes."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from specdiff.config import BaselineEntry, Config, ScopedIgnore
from specdiff.load import load
from specdiff.pipeline import run
from specdiff.policy import apply, selected
from specdiff.records import Finding

SPECS = Path(__file__).parent / "specs"
TODAY = dt.date(2026, 6, 1)

ENUM = ("schema.enum.value-added", "breaking", "/components/schemas/Frobber/properties/mode/enum/2")
SIZE = ("schema.property.removed", "breaking", "/components/schemas/Frobber/properties/size")
OLD_OP = ("operation.removed", "breaking", "/paths/~1old/get")
NEW_OP = ("operation.added", "safe", "/paths/~1new/get")


@pytest.fixture(scope="module")
def findings() -> tuple[Finding, ...]:
    return run(load(str(SPECS / "frob-old.yaml")), load(str(SPECS / "frob-new.yaml")), "openapi").findings


def rows(found: tuple[Finding, ...]) -> list[tuple[str, str, str]]:
    return [(f.rule, f.level.value, f.change.pointer) for f in found]


def test_no_config_changes_nothing(findings: tuple[Finding, ...]) -> None:
    outcome = apply(findings, Config(), TODAY)
    assert rows(outcome.findings) == [OLD_OP, ENUM, SIZE, NEW_OP]
    assert outcome.notes == ()
    assert [f.fingerprint for f in findings] == ["b185485668643839", "e00f2dd944a06fa5", "29a69604336005d1",
                                                "0205d04225ada6af"]


def test_level_override_and_off(findings: tuple[Finding, ...]) -> None:
    config = Config(levels={"schema.enum.value-added": "dangerous", "operation.added": "off"})
    outcome = apply(findings, config, TODAY)
    assert rows(outcome.findings) == [OLD_OP, SIZE, ("schema.enum.value-added", "dangerous", ENUM[2])]


def test_level_override_by_prefix_most_specific_wins(findings: tuple[Finding, ...]) -> None:
    config = Config(levels={"schema": "safe", "schema.property.removed": "dangerous"})
    outcome = apply(findings, config, TODAY)
    assert rows(outcome.findings) == [OLD_OP, ("schema.property.removed", "dangerous", SIZE[2]), NEW_OP,
                                      ("schema.enum.value-added", "safe", ENUM[2])]


@pytest.mark.parametrize(("select", "ignore", "expected"), [
    ((), (), [OLD_OP, ENUM, SIZE, NEW_OP]),
    (("schema",), (), [ENUM, SIZE]),
    (("schema",), ("schema.property",), [ENUM]),
    (("schema.property.removed",), ("schema",), [SIZE]),  # the more specific selector wins
    ((), ("operation",), [ENUM, SIZE]),
    (("operation.added", "schema.enum"), (), [ENUM, NEW_OP]),
    (("schema",), ("schema",), []),  # a tie goes to ignore
])
def test_select_and_ignore(findings: tuple[Finding, ...], select: tuple[str, ...], ignore: tuple[str, ...],
                           expected: list[tuple[str, str, str]]) -> None:
    assert rows(apply(findings, Config(select=select, ignore=ignore), TODAY).findings) == expected


def test_prefix_must_stop_at_a_dot() -> None:
    assert selected("schema.enum.value-added", ("schema.en",), ()) is False
    assert selected("schema.enum.value-added", ("schema.enum",), ()) is True


def test_scoped_ignores_by_rule_and_location(findings: tuple[Finding, ...]) -> None:
    ignores = (
        ScopedIgnore("schema", "Frobber .size", "size moved to the status", None, "cfg.yaml:3"),
        ScopedIgnore(None, "/paths/~1old/*", "retired in v2", dt.date(2026, 6, 1), "cfg.yaml:6"),
        ScopedIgnore("operation.removed", "GET /other", "never shipped", None, "cfg.yaml:9"),
    )
    outcome = apply(findings, Config(ignores=ignores), TODAY)
    assert rows(outcome.findings) == [ENUM, NEW_OP]
    assert outcome.notes == (
        "unused ignore (cfg.yaml:9): rule operation.removed at location 'GET /other' matched no finding; remove it",
    )


def test_a_location_matches_as_reports_write_it_and_as_earlier_versions_did(findings: tuple[Finding, ...]) -> None:
    for written in ("Frobber.size", "Frobber .size"):
        outcome = apply(findings, Config(ignores=(ScopedIgnore("schema", written, "moved", None, "cfg.yaml:3"),)),
                        TODAY)
        assert rows(outcome.findings) == [OLD_OP, ENUM, NEW_OP] and outcome.notes == ()


def test_location_glob_treats_brackets_literally() -> None:
    from specdiff.config import ScopedIgnore as Entry
    from specdiff.policy import Glob

    assert Glob.of("Pod .spec.containers[].name").fullmatch("Pod .spec.containers[].name")
    assert not Glob.of("Pod .spec.containers[].name").fullmatch("Pod .spec.containers.name")
    assert Glob.of("GET /api/v1/pods/{}*").fullmatch("GET /api/v1/pods/{} .status")
    assert Entry(None, "x", "r").describe() == "any rule at location 'x'"


def test_expired_ignore_stops_applying_and_says_so(findings: tuple[Finding, ...]) -> None:
    entry = ScopedIgnore("schema.enum.value-added", None, "clients updated", dt.date(2026, 5, 31), "cfg.yaml:4")
    outcome = apply(findings, Config(ignores=(entry,)), TODAY)
    assert rows(outcome.findings) == [OLD_OP, ENUM, SIZE, NEW_OP]
    assert outcome.notes == ("expired ignore (cfg.yaml:4): rule schema.enum.value-added expired on 2026-05-31 and "
                             "no longer applies (clients updated)",)


def test_baseline_drops_listed_findings_and_reports_stale_entries(findings: tuple[Finding, ...]) -> None:
    baseline = (BaselineEntry("e00f2dd944a06fa5", "schema.enum.value-added Frobber .mode", "b.txt:2"),
                BaselineEntry("0123456789abcdef", "operation.removed GET /gone", "b.txt:3"))
    outcome = apply(findings, Config(baseline=baseline), TODAY)
    assert rows(outcome.findings) == [OLD_OP, SIZE, NEW_OP]
    assert outcome.notes == ("unused baseline entry (b.txt:3): 0123456789abcdef (operation.removed GET /gone) "
                             "matched no finding; remove it",)


def test_usage_is_judged_against_every_finding(findings: tuple[Finding, ...]) -> None:
    """Narrowing select does not make an ignore of a deselected rule look stale."""
    entry = ScopedIgnore("operation.removed", None, "retired", None, "cfg.yaml:2")
    outcome = apply(findings, Config(select=("schema",), ignores=(entry,)), TODAY)
    assert rows(outcome.findings) == [ENUM, SIZE]
    assert outcome.notes == ()


def test_pipeline_carries_notes_into_the_report() -> None:
    entry = ScopedIgnore("operation.removed", "GET /none", "x", None, "cfg.yaml:2")
    report = run(load(str(SPECS / "frob-old.yaml")), load(str(SPECS / "frob-new.yaml")), "openapi",
                 Config(ignores=(entry,)), TODAY)
    assert report.notes == ("unused ignore (cfg.yaml:2): rule operation.removed at location 'GET /none' matched no "
                            "finding; remove it",)
    assert rows(report.findings) == [OLD_OP, ENUM, SIZE, NEW_OP]


def test_a_glob_matches_as_the_regex_of_its_stars_did() -> None:
    """Glob replaced a regex of `.*` runs: on every short pattern and text over a small alphabet they agree."""
    import itertools
    import re

    from specdiff.policy import Glob

    texts = ["".join(t) for n in range(5) for t in itertools.product("ab.", repeat=n)]
    for n in range(5):
        for letters in itertools.product("a.*?", repeat=n):
            pattern = "".join(letters)
            regex = re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern))
            assert [t for t in texts if Glob.of(pattern).fullmatch(t)] == [t for t in texts if regex.fullmatch(t)]


def _spec(properties: list[str]) -> str:
    import json

    body = {"application/json": {"schema": {"$ref": "#/components/schemas/F"}}}
    return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                       "paths": {"/f": {"get": {"responses": {"200": {"description": "ok", "content": body}}}}},
                       "components": {"schemas": {"F": {"type": "object", "properties": {
                           name: {"type": "string"} for name in properties}}}}})


def _run(folder: Path, config: str) -> tuple[int, str]:
    import subprocess
    import sys

    (folder / ".specdiff.yaml").write_text(config)
    done = subprocess.run([sys.executable, "-m", "specdiff", "old.json", "new.json"], cwd=folder,
                          capture_output=True, text=True, timeout=120)  # a hang guard, not a timing
    return done.returncode, done.stdout + done.stderr


def test_a_backtracking_location_glob_answers(tmp_path: Path) -> None:
    """`*a*a...*b` against a long location backtracked for hours as a regex of `.*` runs."""
    (tmp_path / "old.json").write_text(_spec(["a" * 3000, "keep"]))
    (tmp_path / "new.json").write_text(_spec(["keep"]))
    never = "*a" * 25 + "*b"
    code, out = _run(tmp_path, "ignore:\n  - {rule: schema, location: 'F.*a*a*a*a*a*a*a*a*a*a', reason: gone}\n"
                               f"  - {{rule: schema, location: '{never}', reason: never}}\n")
    assert (code, out.splitlines()[1:]) == (0, [
        "0 breaking, 0 dangerous, 0 safe", "", "No changes found.",
        f"note: unused ignore (.specdiff.yaml:3): rule schema at location '{never}' matched no finding; remove it"])


def test_many_ignores_are_matched_through_an_index(tmp_path: Path) -> None:
    """Thousands of ignores against thousands of findings were tried pair by pair, each glob compiled again."""
    names = [f"p{i}" for i in range(4000)]
    (tmp_path / "old.json").write_text(_spec(names))
    (tmp_path / "new.json").write_text(_spec(names[:1]))
    entries = "".join(f"  - {{rule: schema.property, location: F.{name}, reason: r}}\n" for name in names[1:])
    # wildcard locations are tried one by one, so a few suffice; 60 unused ones make the report longer than a
    # screen (50 lines), which must end with its counts again
    entries += "".join(f"  - {{location: 'F.q{i}*', reason: r}}\n" for i in range(60))
    code, out = _run(tmp_path, "ignore:\n" + entries)
    assert (code, out.splitlines()[1:4]) == (0, ["0 breaking, 0 dangerous, 0 safe", "", "No changes found."])
    assert out.splitlines()[4:] == [*(f"note: unused ignore (.specdiff.yaml:{4001 + i}): any rule at location "
                                      f"'F.q{i}*' matched no finding; remove it" for i in range(60)),
                                    "", "0 breaking, 0 dangerous, 0 safe"]  # a long report ends with its counts


@pytest.mark.parametrize("old, new", [
    # a group whose members joined through a place they share: the group's fingerprint covers only its own key
    ("openapi/github/api.github.com-2021-05-12.json", "openapi/github/api.github.com-2021-10-10.json"),
    # groups of inlined copies in a CRD, whose fingerprints the copies decide
    ("crds/gateway-api/httproutes.standard.v0.6.0.yaml", "crds/gateway-api/httproutes.standard.v0.8.0.yaml"),
])
def test_a_baseline_just_written_accepts_every_finding_and_every_entry_is_used(old: str, new: str,
                                                                              tmp_path: Path) -> None:
    from click.testing import CliRunner
    from conftest import corpus

    from specdiff.cli import main

    pair = [str(corpus(old)), str(corpus(new)), "--no-config"]
    written = CliRunner().invoke(main, ["baseline", *pair, "-o", str(tmp_path / "baseline.txt")])
    assert (written.exit_code, written.stderr) == (0, "")
    done = CliRunner().invoke(main, ["compare", *pair, "--baseline", str(tmp_path / "baseline.txt"),
                                     "--format", "json"])
    report = json.loads(done.stdout)
    assert (done.exit_code, report["findings"], report["notes"]) == (0, [], [])
