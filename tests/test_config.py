"""Configuration files: discovery, validation with file:line (YAML) or key (TOML), and the CLI that uses them."""

from __future__ import annotations

import datetime as dt
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from specdiff.cli import main
from specdiff.config import BaselineEntry, Config, ScopedIgnore, find_config, for_command, load_config
from specdiff.errors import ConfigError, UsageError


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def error_of(path: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        load_config(path, display=path.name)
    return caught.value.one_line()


FULL = """\
    policy: kubernetes
    fail-on: dangerous
    rules:
      schema.enum.value-added: dangerous
      operation.added: off
    select: [schema, operation]
    ignore:
      - parameter
      - rule: schema.property.removed
        location: "Frobber .*"
        reason: size moved to the status
        expires: 2026-12-31
      - location: /paths/~1old/*
        reason: "retired; see the changelog"
    baseline: accepted.txt
"""


def test_full_yaml_configuration(tmp_path: Path) -> None:
    write(tmp_path, "accepted.txt", "# accepted\ne00f2dd944a06fa5  # schema.enum.value-added Frobber .mode\n")
    path = write(tmp_path, ".specdiff.yaml", FULL)
    config = load_config(path, display=".specdiff.yaml")
    assert config == Config(
        path=".specdiff.yaml", policy="kubernetes", fail_on="dangerous",
        levels={"schema.enum.value-added": "dangerous", "operation.added": "off"},
        select=("schema", "operation"), ignore=("parameter",),
        ignores=(ScopedIgnore("schema.property.removed", "Frobber .*", "size moved to the status",
                              dt.date(2026, 12, 31), ".specdiff.yaml:9"),
                 ScopedIgnore(None, "/paths/~1old/*", "retired; see the changelog", None, ".specdiff.yaml:13")),
        baseline=(BaselineEntry("e00f2dd944a06fa5", "schema.enum.value-added Frobber .mode",
                                f"{tmp_path / 'accepted.txt'}:2"),),
        baseline_path=str(tmp_path / "accepted.txt"))


def test_pyproject_table(tmp_path: Path) -> None:
    path = write(tmp_path, "pyproject.toml", """\
        [project]
        name = "x"

        [tool.specdiff]
        fail-on = "safe"
        select = ["schema.enum"]
        rules = { "operation.added" = "off" }

        [[tool.specdiff.ignore]]
        rule = "schema"
        reason = "legacy"
        expires = 2026-01-02
    """)
    config = load_config(path, display="pyproject.toml")
    assert (config.fail_on, config.select) == ("safe", ("schema.enum",))
    assert dict(config.levels) == {"operation.added": "off"}
    assert config.ignores == (ScopedIgnore("schema", None, "legacy", dt.date(2026, 1, 2),
                                           "pyproject.toml:tool.specdiff.ignore[0]"),)


@pytest.mark.parametrize(("text", "message"), [
    ("fail_on: safe\n", ".specdiff.yaml:1: unknown key 'fail_on' (did you mean 'fail-on'?)"),
    ("policy: openapi\nrules:\n  schema.enum.value-addded: safe\n",
     ".specdiff.yaml:3: unknown rule 'schema.enum.value-addded' in rules (did you mean 'schema.enum.value-added'?)"),
    ("rules:\n  schema.enum.value-added: fatal\n",
     ".specdiff.yaml:2: level of schema.enum.value-added must be one of breaking, dangerous, safe, off, not 'fatal'"),
    ("rules:\n  schema.enum.value-added: on\n",
     ".specdiff.yaml:2: level of schema.enum.value-added must be one of breaking, dangerous, safe, off, not True"),
    ("select:\n  - schema\n  - operations\n",
     ".specdiff.yaml:3: unknown rule 'operations' in select (did you mean 'operation'?)"),
    ("policy: k8s\n", ".specdiff.yaml:1: policy must be one of auto, kubernetes, openapi, not 'k8s'"),
    ("ignore:\n  - rule: schema\n    location: X\n",
     ".specdiff.yaml:2: an ignore entry needs a reason: say why the finding is accepted"),
    ("ignore:\n  - reason: r\n", ".specdiff.yaml:2: an ignore entry needs a rule, a location, or both"),
    ("ignore:\n  - rule: schema\n    reason: r\n    expire: 2026-01-01\n",
     ".specdiff.yaml:4: unknown key 'expire' in an ignore entry (did you mean 'expires'?)"),
    ("ignore:\n  - rule: schema\n    reason: r\n    expires: next year\n",
     ".specdiff.yaml:4: expires must be a date like 2026-12-31, not 'next year'"),
    ("policy: openapi\npolicy: kubernetes\n", ".specdiff.yaml:2: duplicate key 'policy'"),
    ("rules: [a\n", ".specdiff.yaml:2: invalid YAML: expected ',' or ']', but got '<stream end>'"),
    ("- policy\n", ".specdiff.yaml:1: configuration must be a mapping, not list"),
    ("baseline: missing.txt\n", ".specdiff.yaml:1: baseline file 'missing.txt' does not exist"),
    ("deprecation-days:\n  stable: -3\n",
     ".specdiff.yaml:2: deprecation-days of stable must be a whole number of days"),
    ("deprecation-days:\n  gamma: 3\n",
     ".specdiff.yaml:2: deprecation-days level must be one of draft, alpha, beta, stable, ga, not 'gamma'"),
    ("deprecation-days: 90\n", ".specdiff.yaml:1: deprecation-days must map a stability level to a number of days"),
    ("extensions:\n  x-codegen: off\n",
     ".specdiff.yaml:2: extensions set a level, never off: set x-codegen to safe to keep it quiet"),
    ("extensions:\n  x-codegen: loud\n",
     ".specdiff.yaml:2: level of x-codegen must be one of breaking, dangerous, safe, not 'loud'"),
    ("extensions:\n  codegen: breaking\n",
     ".specdiff.yaml:2: extensions names vendor extensions, which start with x-, not 'codegen'"),
    ("extensions: [x-codegen]\n",
     ".specdiff.yaml:1: extensions must map at most 100 extension names to a level"),
])
def test_yaml_errors_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    assert error_of(write(tmp_path, ".specdiff.yaml", text)) == message


def test_empty_values_mean_nothing_set(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, ".specdiff.yaml", "select:\nignore:\nrules:\n")) == Config(
        path=str(tmp_path / ".specdiff.yaml"))
    assert load_config(write(tmp_path, ".specdiff.yaml", "# nothing yet\n")) == Config(
        path=str(tmp_path / ".specdiff.yaml"))


def test_toml_errors_name_the_key(tmp_path: Path) -> None:
    path = write(tmp_path, "pyproject.toml", '[tool.specdiff.rules]\n"schema.enum.value-added" = "loud"\n')
    assert error_of(path) == ('pyproject.toml:tool.specdiff.rules."schema.enum.value-added": level of '
                              "schema.enum.value-added must be one of breaking, dangerous, safe, off, not 'loud'")
    path = write(tmp_path, "pyproject.toml", '[tool.specdiff]\nselect = ["schema", "nope"]\n')
    assert error_of(path) == "pyproject.toml:tool.specdiff.select[1]: unknown rule 'nope' in select"


def test_baseline_file_errors_name_the_line(tmp_path: Path) -> None:
    write(tmp_path, "b.txt", "e00f2dd944a06fa5\nE00F2DD944A06FA5  # upper case\n")
    with pytest.raises(ConfigError) as caught:
        for_command(no_config=True, baseline=str(tmp_path / "b.txt"))
    assert caught.value.one_line() == (f"{tmp_path / 'b.txt'}:2: not a fingerprint (16 lowercase hex digits "
                                       "expected); is this a baseline file?")  # the line is named, never quoted


def test_discovery_walks_upwards_and_prefers_specdiff_yaml(tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    write(tmp_path, "pyproject.toml", "[project]\nname = 'no specdiff table'\n")
    assert find_config(deep) is None or not str(find_config(deep)).startswith(str(tmp_path))
    write(tmp_path, "a/pyproject.toml", "[tool.specdiff]\npolicy = 'openapi'\n")
    assert find_config(deep) == (tmp_path / "a" / "pyproject.toml").resolve()
    write(tmp_path, "a/.specdiff.yaml", "policy: kubernetes\n")
    assert find_config(deep) == (tmp_path / "a" / ".specdiff.yaml").resolve()
    assert for_command(start=deep).policy == "kubernetes"
    assert for_command(start=deep, no_config=True) == Config()


def test_command_line_selectors_are_checked() -> None:
    with pytest.raises(UsageError) as caught:
        for_command(no_config=True, select=("schema.enum.valu-added",))
    assert str(caught.value) == ("unknown rule 'schema.enum.valu-added' in --select "
                                 "(did you mean 'schema.enum.value-added'?)")
    config = for_command(no_config=True, select=("schema",), ignore=("schema.enum",))
    assert (config.select, config.ignore) == (("schema",), ("schema.enum",))


# ---------------------------------------------------------------- through the command line


@pytest.fixture
def project(frob_folder: Path) -> Path:
    return frob_folder


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def rule_lines(stdout: str) -> list[str]:
    """Each finding of the text report as "level rule: message" (its line, then the message beneath)."""
    lines = stdout.splitlines()
    return [" ".join(line.split()) + ": " + lines[i + 1].strip() for i, line in enumerate(lines)
            if line[:1].isalpha() and "->" not in line and not line.startswith(("note:", "No changes"))]


def test_cli_uses_the_discovered_configuration(project: Path) -> None:
    write(project, ".specdiff.yaml", """\
        fail-on: dangerous
        rules: {schema.property.removed: dangerous, operation.removed: safe, schema.enum.value-added: off}
        ignore: [operation.added]
    """)
    code, out, _ = cli("old.yaml", "new.yaml")
    assert rule_lines(out) == ["dangerous schema.property.removed: Property Frobber.size removed",
                               "safe operation.removed: Operation GET /old removed"]
    assert code == 1  # fail-on dangerous from the file
    assert cli("old.yaml", "new.yaml", "--fail-on", "breaking")[0] == 0
    code, out, _ = cli("old.yaml", "new.yaml", "--no-config", "--select", "operation")
    assert rule_lines(out) == ["breaking operation.removed: Operation GET /old removed",
                               "safe operation.added: Operation GET /new added"]


def test_cli_select_and_ignore_options(project: Path) -> None:
    code, out, _ = cli("old.yaml", "new.yaml", "--select", "schema", "--select", "operation.added",
                       "--ignore", "schema.enum")
    assert rule_lines(out) == ["breaking schema.property.removed: Property Frobber.size removed",
                               "safe operation.added: Operation GET /new added"]
    assert code == 1


def test_cli_config_errors_exit_2_with_file_and_line(project: Path) -> None:
    write(project, "cfg.yaml", "policy: openapi\nignore:\n  - rule: schema\n")
    code, out, err = cli("old.yaml", "new.yaml", "--config", "cfg.yaml")
    assert (code, out, err) == (2, "", "specdiff: error: cfg.yaml:3: an ignore entry needs a reason: say why the "
                                       "finding is accepted\n")
    code, _, err = cli("old.yaml", "new.yaml", "--select", "schemas")
    assert (code, err) == (2, "specdiff: error: unknown rule 'schemas' in --select (did you mean 'schema'?)\n")
    code, _, err = cli("old.yaml", "new.yaml", "--config", "nope.yaml")
    assert (code, err) == (2, "specdiff: error: nope.yaml: no such configuration file\n")


def test_baseline_round_trip(project: Path) -> None:
    code, out, _ = cli("baseline", "old.yaml", "new.yaml", "--no-config")
    assert (code, out) == (0, "# specdiff baseline: accepted findings, one fingerprint a line (rule and location "
                              "after #).\n"
                              "0205d04225ada6af  # operation.added GET /new\n"
                              "29a69604336005d1  # schema.property.removed Frobber.size\n"
                              "b185485668643839  # operation.removed GET /old\n"
                              "e00f2dd944a06fa5  # schema.enum.value-added Frobber.mode\n")
    assert cli("baseline", "old.yaml", "new.yaml", "-o", "accepted.txt")[0] == 0
    assert (project / "accepted.txt").read_text() == out
    code, out, _ = cli("old.yaml", "new.yaml", "--baseline", "accepted.txt")
    assert code == 0
    assert "No changes found." in out
    # the old spec compared with itself: every entry is stale and says so
    code, out, _ = cli("old.yaml", "old.yaml", "--baseline", "accepted.txt")
    assert [line for line in out.splitlines() if line.startswith("note:")] == [
        "note: unused baseline entry (accepted.txt:2): 0205d04225ada6af (operation.added GET /new) matched no "
        "finding; remove it",
        "note: unused baseline entry (accepted.txt:3): 29a69604336005d1 (schema.property.removed Frobber.size) "
        "matched no finding; remove it",
        "note: unused baseline entry (accepted.txt:4): b185485668643839 (operation.removed GET /old) matched no "
        "finding; remove it",
        "note: unused baseline entry (accepted.txt:5): e00f2dd944a06fa5 (schema.enum.value-added Frobber.mode) "
        "matched no finding; remove it",
    ]


def test_baseline_from_configuration_and_expired_ignore_note(project: Path) -> None:
    write(project, "accepted.txt", "29a69604336005d1  # schema.property.removed Frobber.size\n")
    write(project, ".specdiff.yaml", """\
        baseline: accepted.txt
        ignore:
          - rule: operation
            reason: the v2 cut
            expires: 2020-01-01
    """)
    code, out, _ = cli("old.yaml", "new.yaml", "--format", "json")
    import json

    envelope = json.loads(out)
    assert [f["rule"] for f in envelope["findings"]] == ["operation.removed", "schema.enum.value-added",
                                                         "operation.added"]
    assert envelope["notes"] == ["expired ignore (.specdiff.yaml:3): rule operation expired on "
                                 "2020-01-01 and no longer applies (the v2 cut)"]
    assert code == 1


def test_markdown_report_carries_the_notes(project: Path) -> None:
    write(project, "b.txt", "0000000000000000  # gone\n")
    code, out, _ = cli("old.yaml", "old.yaml", "--baseline", "b.txt", "--format", "markdown", "--no-config")
    assert code == 0
    assert out.endswith("No changes found.\n\n#### Notes\n"
                        "- unused baseline entry (b.txt:1): `0000000000000000` (gone) matched no "
                        "finding; remove it\n")


def test_baseline_round_trip_on_real_kubernetes_specs(tmp_path: Path) -> None:
    """Every finding between two Kubernetes releases has its own fingerprint; the baseline accepts them all."""
    from conftest import corpus, real_pair

    import specdiff
    from specdiff.config import render_baseline
    from specdiff.policy import accepted

    pair = "kubernetes/v2/swagger-v1.35.json", "kubernetes/v2/swagger-v1.36.json"
    old, new = map(corpus, pair)
    report = real_pair(*pair)  # the run's shared comparison; the last line checks it against a fresh `compare`
    text = render_baseline(accepted(report.findings))
    lines = text.splitlines()[1:]
    fingerprints = [line.split()[0] for line in lines]
    assert fingerprints == sorted(set(fingerprints))
    # each finding by its own fingerprint, and each member that joined it through another place (a type joining
    # the field that uses it, another rule of the same edit) by its own too
    listed = set(fingerprints)
    assert {f.fingerprint for f in report.findings} <= listed
    assert {m.fingerprint for f in report.findings for m in f.members if m.rule != f.rule} <= listed
    (tmp_path / "b.txt").write_text(text)
    again = specdiff.compare(old, new, baseline=tmp_path / "b.txt")
    assert (again.findings, again.notes) == ((), ())
    assert render_baseline(accepted(specdiff.compare(old, new).findings)) == text  # deterministic


#: every character Python, YAML or a text editor takes for the end of a line
LINE_ENDS = ["\r", "\r\n", "\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


def test_a_baseline_of_locations_holding_line_breaks_is_read_back(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`specdiff baseline` writes each finding on one line whatever its location holds, so `--baseline` reads
    back exactly the fingerprints written and accepts every finding."""
    import json

    ok = {"get": {"responses": {"200": {"description": "ok"}}}}
    paths = {f"/b{end}c{i}": ok for i, end in enumerate(LINE_ENDS)}
    for side, listed in (("old", {"/a": ok, **paths}), ("new", {"/a": ok})):
        (tmp_path / f"{side}.json").write_text(json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                                                           "paths": listed}))
    monkeypatch.chdir(tmp_path)
    written = CliRunner().invoke(main, ["baseline", "old.json", "new.json", "--no-config", "-o", "b.txt"])
    assert written.exit_code == 0, written.output
    text = (tmp_path / "b.txt").read_bytes().decode("utf-8")
    assert text.count("\n") == len(text.splitlines()) == len(LINE_ENDS) + 1
    accepted = CliRunner().invoke(main, ["old.json", "new.json", "--no-config", "--baseline", "b.txt",
                                         "--format", "json"])
    assert accepted.exit_code == 0, accepted.output
    assert (json.loads(accepted.stdout)["findings"], json.loads(accepted.stdout)["notes"]) == ([], [])


def test_deprecation_days_are_kept_by_the_level_specdiff_judges_by(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ".specdiff.yaml", "deprecation-days: {stable: 180, beta: 90, draft: 0}\n"))
    assert config.deprecation_days == {"stable": 180, "beta": 90, "alpha": 0}


def test_deprecation_days_take_ga_as_another_spelling_of_stable(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, ".specdiff.yaml", "deprecation-days: {GA: 120, stable: 90, beta: 30}\n"))
    assert config.deprecation_days == {"stable": 120, "beta": 30}


def test_cli_raises_the_extension_a_configuration_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Metadata extensions are safe and one finding each, until the configuration says a client depends on one;
    the raised level decides the exit code, and an extension the configuration does not name keeps its level."""
    def spec(expand: list[str], label: str) -> str:
        return f"""\
            openapi: 3.0.3
            info: {{title: shop, version: "1"}}
            paths: {{}}
            components:
              schemas:
                Charge: {{type: object, x-expandableFields: {expand}, x-label: {label}}}
                Refund: {{type: object, x-expandableFields: {expand}}}
            """
    write(tmp_path, "old.yaml", spec(["customer"], "Charge"))
    write(tmp_path, "new.yaml", spec(["customer", "invoice"], "Payment"))
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli("old.yaml", "new.yaml", "--no-config", "--fail-on", "dangerous")
    assert rule_lines(out) == [
        "safe extension.changed (2 places): x-expandableFields/1 of 2 schemas: Charge and Refund: "
        "not written -> invoice",
        "safe extension.changed: x-label of Charge: Charge -> Payment"]
    assert code == 0
    write(tmp_path, ".specdiff.yaml", "extensions: {x-expandableFields: breaking}\n")
    code, out, _ = cli("old.yaml", "new.yaml")
    assert rule_lines(out) == [
        "breaking extension.changed (2 places): x-expandableFields/1 of 2 schemas: Charge and Refund: "
        "not written -> invoice",
        "safe extension.changed: x-label of Charge: Charge -> Payment"]
    assert code == 1
