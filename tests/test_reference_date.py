"""The reference date is explicit: `--today` (default the system date in UTC) decides whether a sunset has
passed, and every report names it, so a CI run can be repeated."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import specdiff
from specdiff.classify.calendar import utc_today
from specdiff.cli import main

OK = {"200": {"description": "ok"}}
SPEC = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}}
#: a deprecated operation announced to stay until 2030-06-30, removed in the new spec
OLD = {**SPEC, "paths": {"/frobs": {"get": {"responses": OK}},
                         "/old-frobs": {"get": {"deprecated": True, "x-sunset": "2030-06-30", "responses": OK}}}}
NEW = {**SPEC, "paths": {"/frobs": {"get": {"responses": OK}}}}
REMOVED = "/paths/~1old-frobs/get"


@pytest.fixture
def pair(tmp_path: Path) -> tuple[str, str]:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(OLD))
    new.write_text(json.dumps(NEW))
    return str(old), str(new)


def _cli(*args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(main, list(args))
    return done.exit_code, done.stdout, done.stderr


def _findings(pair: tuple[str, str], *args: str) -> list[tuple[str, str, str]]:
    code, out, _ = _cli("compare", *pair, "--no-config", "--policy", "openapi", "--format", "json", *args)
    assert code in (0, 1)
    return [(f["rule"], f["pointer"], f["level"]) for f in json.loads(out)["findings"]]


def test_today_decides_whether_the_sunset_has_passed(pair: tuple[str, str]) -> None:
    assert _findings(pair, "--today", "2030-06-29") == [("operation.removed", REMOVED, "breaking")]
    assert _findings(pair, "--today", "2030-06-30") == [("operation.removed", REMOVED, "safe")]


def test_every_report_format_names_the_reference_date(pair: tuple[str, str], tmp_path: Path) -> None:
    folder = tmp_path / "out"
    formats = [arg for name in ("text", "markdown", "json", "sarif", "html", "junit") for arg in ("--format", name)]
    code, _, err = _cli("compare", *pair, "--no-config", "--today", "2030-06-29", "--output-dir", str(folder),
                        *formats)
    assert (code, err) == (1, "")
    for name in ("specdiff.txt", "specdiff.md", "specdiff.html"):
        assert "; as of 2030-06-29" in (folder / name).read_text(encoding="utf-8"), name
    assert json.loads((folder / "specdiff.json").read_text())["today"] == "2030-06-29"
    sarif = json.loads((folder / "specdiff.sarif").read_text())
    assert sarif["runs"][0]["properties"]["today"] == "2030-06-29"
    assert '<property name="today" value="2030-06-29"' in (folder / "specdiff.junit.xml").read_text()


@pytest.mark.parametrize("command", ["compare", "history", "staged"])
@pytest.mark.parametrize("value", ["2030-02-30", "30/06/2030", "2030-6-1", "today"])
def test_a_reference_date_that_is_no_date_is_a_one_line_error(pair: tuple[str, str], command: str,
                                                               value: str) -> None:
    args = {"compare": [*pair], "history": [*pair], "staged": []}[command]
    code, out, err = _cli(command, *args, "--no-config", "--today", value)
    assert (code, out) == (2, "")
    assert err == f"specdiff: error: --today: {value!r} is not a date YYYY-MM-DD\n"


def test_history_judges_every_step_on_the_reference_date(pair: tuple[str, str]) -> None:
    code, out, _ = _cli("history", *pair, "--no-config", "--policy", "openapi", "--today", "2030-07-01")
    assert code == 0
    assert out.splitlines()[0].endswith("policy: openapi (as configured); response readers: validating; "
                                        "as of 2030-07-01)")
    code, out, _ = _cli("history", *pair, "--no-config", "--today", "2030-07-01", "--format", "json")
    assert (code, json.loads(out)["today"]) == (0, "2030-07-01")


def test_the_python_api_takes_the_reference_date(pair: tuple[str, str]) -> None:
    report = specdiff.compare(*pair, policy="openapi", today=dt.date(2030, 6, 29))
    assert report.today == "2030-06-29"
    assert [(f.rule, f.change.pointer, f.level.value) for f in report.findings] == [
        ("operation.removed", REMOVED, "breaking")]


def test_without_one_the_reference_date_is_the_system_date_in_utc(pair: tuple[str, str]) -> None:
    assert specdiff.compare(*pair).today == utc_today().isoformat()


@pytest.mark.parametrize(("rules", "level"), [({}, "breaking"), ({"deprecation.notice-too-short": "dangerous"},
                                                                  "dangerous")])
def test_the_notice_finding_takes_the_level_the_configuration_gives(tmp_path: Path, rules: dict[str, Any],
                                                                     level: str) -> None:
    old = {**SPEC, "paths": {"/frobs": {"get": {"x-sunset": "2030-07-29", "responses": OK}}}}
    new = {**SPEC, "paths": {"/frobs": {"get": {"deprecated": True, "x-sunset": "2030-07-29", "responses": OK}}}}
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    config = {"deprecation-days": {"stable": 180}, "rules": rules}
    report = specdiff.compare(tmp_path / "old.json", tmp_path / "new.json", config=config, today=dt.date(2030, 6, 29))
    assert [(f.rule, f.change.pointer, f.level.value) for f in report.findings] == [
        ("deprecation.notice-too-short", "/paths/~1frobs/get", level)]
    assert "promises clients 180 days" in report.findings[0].reason


def test_an_operation_is_sunset_on_the_date_the_first_status_with_a_sunset_header_gives() -> None:
    from specdiff.graph import graph_of
    from specdiff.load import load_text

    def sunset(date: str) -> dict[str, Any]:
        return {"description": "ok", "headers": {"Sunset": {"schema": {"type": "string", "example": date}}}}

    responses = {"404": sunset("2031-01-01"), "200": {"description": "ok"}, "201": sunset("2030-06-30")}
    spec = {**SPEC, "paths": {"/frobs": {"get": {"responses": responses}}, "/other": {"get": {"responses": OK}}}}
    graph = graph_of(load_text(json.dumps(spec), "spec.json", None))
    assert (graph.operations["GET /frobs"].sunset, graph.operations["GET /other"].sunset) == ("2030-06-30", None)
