"""The documented Python API: docs/python-api.md's example runs and prints what the page says; python -m works."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
from pathlib import Path

import pytest

import specdiff
from specdiff.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
SPECS = Path(__file__).parent / "specs"


def test_the_documented_example_prints_the_documented_output(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", page, re.S)
    output = re.search(r"Output:\n\n```text\n(.*?)```", page, re.S)
    assert code and output
    done = subprocess.run([sys.executable, "-c", code.group(1)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == output.group(1)


def test_compare_takes_paths_mappings_files_and_baselines(tmp_path: Path) -> None:
    old, new = SPECS / "frob-old.yaml", SPECS / "frob-new.yaml"
    report = specdiff.compare(old, new, config={"select": ["operation"]})
    assert [(f.rule, f.level.value, f.fingerprint) for f in report.findings] == [
        ("operation.removed", "breaking", "b185485668643839"), ("operation.added", "safe", "0205d04225ada6af")]
    (tmp_path / "cfg.yaml").write_text("policy: kubernetes\nselect: [schema.enum]\n")
    report = specdiff.compare(old, new, config=tmp_path / "cfg.yaml")
    assert (report.policy, [f.rule for f in report.findings]) == ("kubernetes", ["schema.enum.value-added"])
    (tmp_path / "b.txt").write_text("b185485668643839\nffffffffffffffff  # gone\n")
    report = specdiff.compare(old, new, config=specdiff.Config(select=("operation",)), baseline=tmp_path / "b.txt")
    assert [f.rule for f in report.findings] == ["operation.added"]
    assert report.notes == (f"unused baseline entry ({tmp_path / 'b.txt'}:2): ffffffffffffffff (gone) matched no "
                            "finding; remove it",)


def test_compare_raises_one_line_errors() -> None:
    with pytest.raises(ConfigError) as caught:
        specdiff.compare(SPECS / "frob-old.yaml", SPECS / "frob-new.yaml", config={"fail-on": "sometimes"})
    assert str(caught.value) == ("<config>:fail-on: fail-on must be one of breaking, dangerous, safe, never, "
                                 "not 'sometimes'")


def test_compare_applies_the_given_limits() -> None:
    from specdiff.errors import InputError
    from specdiff.load.parse import Limits

    with pytest.raises(InputError) as caught:
        specdiff.compare(SPECS / "frob-old.yaml", SPECS / "frob-new.yaml", limits=Limits(max_bytes=100))
    assert str(caught.value) == f"{SPECS / 'frob-old.yaml'}: file is 456 bytes, over the 100-byte limit (--max-bytes)"


def test_python_dash_m(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "specdiff", "--version"], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, f"specdiff, version {specdiff.__version__}\n")
    done = subprocess.run([sys.executable, "-m", "specdiff", str(SPECS / "frob-old.yaml"),
                           str(SPECS / "frob-new.yaml"), "--no-config", "--select", "operation.removed"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 1
    assert [" ".join(line.split()) for line in done.stdout.splitlines()[4:6]] == [
        "breaking operation.removed", "Operation GET /old removed"]


def test_render_writes_a_report_and_a_history_as_the_command_line_does(tmp_path: Path) -> None:
    """specdiff.render(report, FORMAT) is `--format FORMAT`, byte for byte, for the formats that need no documents."""
    from click.testing import CliRunner

    from specdiff.cli import main
    from specdiff.errors import UsageError

    old, new = SPECS / "frob-old.yaml", SPECS / "frob-new.yaml"
    report = specdiff.compare(old, new, today=dt.date(2026, 1, 15))
    for name in ("text", "json", "markdown", "release-notes", "html", "junit"):
        done = CliRunner().invoke(main, [str(old), str(new), "--no-config", "--today", "2026-01-15",
                                         "--color", "never", "--format", name])
        assert specdiff.render(report, name) == done.stdout, name
    assert specdiff.render(report, "markdown").startswith("<!-- specdiff -->\n### specdiff: API compatibility\n")
    history = specdiff.history([old, new], jobs=1)
    assert specdiff.render(history, "release-notes").startswith("# Release notes: Frob\n\n## new (from old)\n")
    with pytest.raises(UsageError) as caught:
        specdiff.render(report, "pdf")
    assert str(caught.value).startswith("no 'pdf' format for a report; choose from text, json, ")
    with pytest.raises(UsageError):
        specdiff.render(history, "sarif")
