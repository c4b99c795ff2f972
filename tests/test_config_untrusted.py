"""The configuration arrives with the pull request it checks: hostile or broken, it gets one line naming the file
and the place, exit 2; the files it names stay inside the repository and their content is never echoed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from specdiff.cli import main

SPECS = Path(__file__).parent / "specs"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder outside any git repository (so the configuration's folder is the repository), with a spec pair."""
    root = tmp_path / "repo"
    root.mkdir()
    shutil.copy(SPECS / "frob-old.yaml", root / "old.yaml")
    shutil.copy(SPECS / "frob-new.yaml", root / "new.yaml")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.chdir(root)
    return root


def run(*args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(main, ["old.yaml", "new.yaml", *args])
    return done.exit_code, done.stdout, done.stderr


@pytest.mark.parametrize(("text", "message"), [
    ("? [a]\n: 1\n", ".specdiff.yaml:1: a key must be a plain string, not a list"),
    ("policy: openapi\n? {a: 1}\n: 1\n", ".specdiff.yaml:2: a key must be a plain string, not a mapping"),
    ("policy: !!python/object/apply:os.system [echo hi]\n",
     ".specdiff.yaml:1: a configuration holds plain strings, numbers, lists and mappings; YAML tags such as "
     "'!!python/object/apply:os.system' are refused"),
    ("rules: !!set {a}\n", ".specdiff.yaml:1: a configuration holds plain strings, numbers, lists and mappings; "
                           "YAML tags such as '!!set' are refused"),
    ("ignore:\n  - rule: operation\n    reason: r\n    expires: 2026-02-30\n",
     ".specdiff.yaml:4: expires must be a date like 2026-12-31, not '2026-02-30'"),
    ("ignore:\n  - rule: operation\n    reason: r\n    expires: 2026-13-01\n",
     ".specdiff.yaml:4: expires must be a date like 2026-12-31, not '2026-13-01'"),
])
def test_yaml_crash_families_are_one_line(project: Path, text: str, message: str) -> None:
    (project / ".specdiff.yaml").write_text(text)
    assert run() == (2, "", f"specdiff: error: {message}\n")


def test_a_good_date_still_works_and_a_datetime_gives_its_day(project: Path) -> None:
    (project / ".specdiff.yaml").write_text("ignore:\n  - rule: operation\n    reason: r\n    expires: 2999-01-02\n"
                                            "  - rule: schema\n    reason: r\n    expires: 2999-01-02T10:00:00Z\n")
    code, out, _ = run()
    assert code == 0 and "No changes found." in out


def test_an_impossible_date_in_toml_names_line_and_column(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.specdiff]\n[[tool.specdiff.ignore]]\nrule = "operation"\n'
                                            'reason = "r"\nexpires = 2026-02-30\n')
    assert run() == (2, "", "specdiff: error: pyproject.toml: invalid TOML: Invalid date or datetime (at line 5, "
                            "column 11); fix it, or pass --config FILE or --no-config\n")


def test_a_broken_pyproject_is_reported_only_when_it_mentions_specdiff(project: Path) -> None:
    (project / "pyproject.toml").write_text("[project\nname = 'x'\n")
    assert run("--select", "operation.added")[0] == 0  # someone else's broken file; no [tool.specdiff] in it
    (project / "pyproject.toml").write_text("[tool.specdiff\nfail-on = 'safe'\n")
    assert run() == (2, "", "specdiff: error: pyproject.toml: invalid TOML: Expected ']' at the end of a table "
                            "declaration (at line 1, column 15); fix it, or pass --config FILE or --no-config\n")
    assert run("--no-config")[0] == 1


def test_a_pyproject_that_spells_specdiff_with_escapes_still_configures_it(project: Path) -> None:
    """A pyproject.toml that never names specdiff is not parsed at all; one whose key escapes the name is."""
    (project / "pyproject.toml").write_text('[tool."spec\\u0064iff"]\nfail-on = "never"\n')
    assert run()[0] == 0
    (project / "pyproject.toml").write_text('[tool.other]\nfail-on = "never"\n')
    assert run()[0] == 1


@pytest.mark.parametrize("name", [".specdiff.yaml", "pyproject.toml"])
def test_a_found_configuration_that_links_out_of_the_repository_is_refused_unread(project: Path, tmp_path: Path,
                                                                                name: str) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text("[tool.specdiff]\npolicy = 'TOKEN=hunter2'\n")
    os.symlink(secret, project / name)
    assert run() == (2, "", f"specdiff: error: {name}: the configuration file is a symlink out of the repository "
                            "(refused); pass --config FILE to use the file it points to, or --no-config\n")
    assert run("--no-config")[0] == 1
    os.unlink(project / name)
    (project / "inside.yaml").write_text("fail-on: never\n")
    os.symlink("inside.yaml", project / ".specdiff.yaml")  # a link within the repository is the repository's
    assert run()[0] == 0


BIG = "9" * 5000  # past the 4,300 digits Python turns into an int


def test_a_huge_integer_in_a_pyproject_stops_specdiff_only_when_it_configures_specdiff(project: Path) -> None:
    """tomllib raises a bare ValueError on it, which used to surface as an internal error."""
    (project / "pyproject.toml").write_text(f"[tool.other]\nx = {BIG}\n")
    assert run("--select", "operation.added")[0] == 0  # another tool's section is no concern of specdiff's
    (project / "pyproject.toml").write_text(f"[tool.specdiff]\nfail-on = 'safe'\n[tool.other]\nx = {BIG}\n")
    assert run() == (2, "", "specdiff: error: pyproject.toml: invalid TOML: an integer with too many digits; fix "
                            "it, or pass --config FILE or --no-config\n")
    assert run("--no-config")[0] == 1


def test_a_baseline_name_over_the_file_system_limit_is_one_line(project: Path) -> None:
    name = "b" * 300
    (project / ".specdiff.yaml").write_text(f"baseline: {name}\n")
    assert run() == (2, "", f"specdiff: error: .specdiff.yaml:1: baseline file {name[:200]!r} does not exist\n")
    assert run("--no-config", "--baseline", name) == (
        2, "", f"specdiff: error: {name}: baseline file cannot be read: File name too long\n")


def test_the_baseline_may_not_leave_the_repository_and_is_never_echoed(project: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOKEN=hunter2\n")
    for value in ("/proc/self/environ", str(secret), "../secret.txt"):
        (project / ".specdiff.yaml").write_text(f"baseline: {value}\n")
        assert run() == (2, "", f"specdiff: error: .specdiff.yaml:1: baseline {value!r} is outside the repository; "
                                "name a file inside it\n")
    os.symlink(secret, project / "link.txt")
    (project / ".specdiff.yaml").write_text("baseline: link.txt\n")
    assert run() == (2, "", "specdiff: error: .specdiff.yaml:1: baseline 'link.txt' is outside the repository; "
                            "name a file inside it\n")
    (project / "not-a-baseline.txt").write_text("# a comment\nTOKEN=hunter2\n")
    (project / ".specdiff.yaml").write_text("baseline: not-a-baseline.txt\n")
    code, _, err = run()
    assert (code, err) == (2, f"specdiff: error: {project / 'not-a-baseline.txt'}:2: not a fingerprint (16 "
                              "lowercase hex digits expected); is this a baseline file?\n")


@pytest.mark.parametrize("kind", ["fifo", "folder", "huge"])
def test_the_baseline_and_the_configuration_must_be_small_regular_files(project: Path, kind: str) -> None:
    target = project / "b.txt"
    if kind == "fifo":
        os.mkfifo(target)  # would block a plain open for ever
    elif kind == "folder":
        target.mkdir()
    else:
        target.write_text("0123456789abcdef\n" * 600_000)
    expected = {"fifo": "is not a regular file", "folder": "is not a regular file",
                "huge": "is larger than 8388608 bytes"}[kind]
    (project / ".specdiff.yaml").write_text("baseline: b.txt\n")
    assert run() == (2, "", f"specdiff: error: {target}: baseline file {expected}\n")
    assert run("--no-config", "--config", "b.txt")[0] == 2
    assert run("--config", "b.txt") == (2, "", f"specdiff: error: b.txt: configuration file {expected}\n")


@pytest.mark.parametrize(("name", "text", "expected"), [
    (".specdiff.yaml", "ignore: " + "[" * 100_000 + "]" * 100_000 + "\n", ".specdiff.yaml:1: "),
    (".specdiff.yaml", "ignore:\n" + "".join(" " * i + "-\n" for i in range(1, 2000)), ".specdiff.yaml:65: "),
    ("pyproject.toml", "[tool.specdiff]\nignore = " + "[" * 3000 + "]" * 3000 + "\n", "pyproject.toml: "),
    ("pyproject.toml", "[tool.specdiff]\nignore = " + "[" * 100 + "]" * 100 + "\n", "pyproject.toml: "),
])
def test_a_configuration_nested_too_deep_names_its_file(name: str, text: str, expected: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Found upwards or given with --config, a deep configuration is refused by name (and line, in YAML)."""
    (tmp_path / name).write_text(text)
    (tmp_path / "spec.yaml").write_text('openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\n')
    monkeypatch.chdir(tmp_path)
    message = f"specdiff: error: {expected}nested deeper than a configuration can be (at most 64 levels)"
    for extra in ([], ["--config", name]):
        result = CliRunner().invoke(main, ["spec.yaml", "spec.yaml", *extra])
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr


def _nested_aliases(levels: int) -> str:
    """Ten aliases of the level below, `levels` deep: a 400-byte file that expands to 10^levels values."""
    lines = ["  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"]
    lines += [f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, levels + 1)]
    return "x-anchors:\n" + "".join(lines) + f"ignore: *a{levels}\n"


@pytest.mark.parametrize(("text", "message"), [
    (_nested_aliases(8), "YAML aliases expand to more than 100000 nodes, past a configuration's bound"),
    ("x-anchors: [&s '" + "x" * 100_000 + "']\nselect: [" + ", ".join(["*s"] * 100) + "]\n",
     "YAML aliases expand to more than 8388608 bytes of text, past a configuration's bound")])
def test_a_configuration_alias_bomb_is_refused_before_it_expands(project: Path, text: str, message: str) -> None:
    """The whole command, in a fresh interpreter under a hang guard: the configuration's lines were marked and
    its values checked through every expansion of every alias (a MemoryError, shown as an internal error)."""
    import subprocess
    import sys

    (project / ".specdiff.yaml").write_text(text)
    done = subprocess.run([sys.executable, "-m", "specdiff", "old.yaml", "new.yaml"], capture_output=True,
                          text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"specdiff: error: .specdiff.yaml: {message}\n")


def test_aliases_within_a_configuration_bound_are_read(project: Path) -> None:
    """The near miss: an anchor used again reads as the value written out."""
    (project / ".specdiff.yaml").write_text("select: [schema, operation]\n")
    selected = run("--format", "json")
    (project / ".specdiff.yaml").write_text("select: [schema, operation]\nignore: [schema, operation]\n")
    written_out = run("--format", "json")
    (project / ".specdiff.yaml").write_text("select: &rules [schema, operation]\nignore: *rules\n")
    assert run("--format", "json") == written_out != selected
