"""Generated files stay in step with the code: reports/ (every format for the demo pair) and docs/rules.md;
`specdiff explain` documents every rule card."""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from excerpts import excerpts, refreshed
from runtime_lock import RUNTIME_LOCK, runtime_lock

from specdiff.classify.cards import COMPILED, catalogue, compile_catalogue, level_text, rules_root
from specdiff.classify.catalogue_docs import explain_card, render_catalogue
from specdiff.cli import EXTENSIONS, main
from specdiff.report import FORMATS

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "reports"


def _demo() -> dict[str, str]:
    """DEMO_OLD, DEMO_NEW and DEMO_TODAY from the Makefile, which `make reports` renders."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    return dict(re.findall(r"^(DEMO_OLD|DEMO_NEW|DEMO_TODAY) := (\S+)$", makefile, re.M))


def _fresh_reports(hash_seed: str, folder: Path) -> dict[str, bytes]:
    """Every format rendered as `make reports` does, in a new process with the given hash seed."""
    demo = _demo()
    args = [sys.executable, "-m", "specdiff", demo["DEMO_OLD"], demo["DEMO_NEW"], "--no-config",
            "--today", demo["DEMO_TODAY"], "--output-dir", str(folder)]
    for name in FORMATS:
        args += ["--format", name]
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "NO_COLOR": "1"}
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    return _fresh_reports("1", tmp_path_factory.mktemp("reports"))


def test_every_format_has_a_golden_report() -> None:
    files = sorted(p.name for p in REPORTS.iterdir() if p.is_file())  # reports/examples/ holds real releases
    assert files == sorted(f"specdiff.{EXTENSIONS[name]}" for name in FORMATS)


def test_golden_reports_match_the_code(fresh: dict[str, bytes]) -> None:
    stale = [name for name, data in fresh.items() if not (REPORTS / name).is_file()
             or (REPORTS / name).read_bytes() != data]
    assert not stale, f"reports/ is out of date ({', '.join(stale)}): run `make reports` and review the diff"


def test_reports_do_not_depend_on_the_process(fresh: dict[str, bytes], tmp_path: Path) -> None:
    assert _fresh_reports("2", tmp_path) == fresh  # another hash seed: no set or dict order leaks out
    for name, data in fresh.items():
        text = data.decode("utf-8")
        for machine in (str(ROOT), os.path.expanduser("~"), sys.prefix):
            assert machine not in text, f"{name} names {machine}"
        assert not re.search(r"20\d\d-\d\d-\d\d", text.replace(_demo()["DEMO_TODAY"], "")), f"{name} has a date"


def test_readme_excerpts_are_current() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert excerpts(readme) == ["reports/specdiff.release-notes.md", "reports/specdiff.txt", "reports/specdiff.md",
                                "reports/specdiff.github.txt"]
    first_screen = readme.split("\n## ", 1)[0]  # the release notes come right after `make demo` and `make test`
    assert first_screen.index("make demo") < first_screen.index("make test") < first_screen.index(
        "# Release notes: Frobber API v6 → v7")
    assert readme == refreshed(readme), "README.md quotes reports/ as it was: run `make reports`"


def test_docs_rules_md_is_generated_from_the_cards() -> None:
    on_disk = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert on_disk == render_catalogue("markdown"), "docs/rules.md is stale: run `make docs`"
    done = CliRunner().invoke(main, ["rules", "--format", "markdown"])
    assert (done.exit_code, done.output) == (0, on_disk)


def test_the_compiled_catalogue_is_made_from_the_cards_as_they_are() -> None:
    """A stale rules/catalogue.json is still correct (the YAML is read instead) but loses its speed."""
    on_disk = (Path(rules_root()) / COMPILED).read_text(encoding="utf-8")
    assert on_disk == compile_catalogue(rules_root()), "rules/catalogue.json is stale: run `make docs`"


@pytest.mark.parametrize("rule_id", sorted(c.id for c in catalogue()))
def test_explain_documents_every_card(rule_id: str) -> None:
    done = CliRunner().invoke(main, ["explain", rule_id])
    assert done.exit_code == 0
    assert done.output == explain_card(rule_id)
    item = next(c for c in catalogue() if c.id == rule_id)
    lines = done.output.splitlines()
    assert lines[0] == f"{rule_id}: {item.title}"
    assert [line.split(":")[0] for line in lines[1:5]] == ["level", "matches", "message", "reason"]
    for heading in ("What it does", "Why it matters", "Example", "Configure"):
        assert heading in lines, f"{rule_id}: no {heading!r} section"
        assert lines[lines.index(heading) + 1].startswith("  "), f"{rule_id}: empty {heading!r} section"
    if item.when:  # each exception with the level it gives and why, not only the predicate's name
        at = lines.index("When the level differs")
        assert [line.split(":")[0].strip() for line in lines[at + 1:at + 1 + len(item.when)]] == [
            f"{level_text(e['level'])} when {e['predicate']}" for e in item.when]
    if rule_id != "specdiff.unclassified":  # the fallback has no case of its own: it fires on what nothing claims
        assert any(line.startswith("Test case: ") for line in lines), f"{rule_id}: no case that fires"


def test_the_actions_lock_is_cut_from_the_projects_lock() -> None:
    """requirements.txt (what action.yml installs) pins exactly the lock's versions and hashes."""
    text = RUNTIME_LOCK.read_text(encoding="utf-8")
    assert text == runtime_lock(), "requirements.txt is out of date: run `python tests/runtime_lock.py` (make lock)"
    assert re.findall(r"^(click|pyyaml|setuptools)==", text, re.M) == ["click", "pyyaml", "setuptools"]
    assert not re.search(r"^(pytest|mypy|ruff)==", text, re.M)


def test_explain_an_unknown_rule_suggests_close_ids() -> None:
    done = CliRunner().invoke(main, ["explain", "operation.remove"])
    assert done.exit_code == 2
    assert "no rule 'operation.remove'; did you mean operation.removed? 'specdiff rules' lists them" in done.output


def test_the_kubernetes_release_notes_example_matches_the_code() -> None:
    """reports/examples/: the 1.35 -> 1.36 notes `make example-notes` writes, one bullet per logical change."""
    from conftest import corpus

    old, new = corpus("kubernetes/v2/swagger-v1.35.json"), corpus("kubernetes/v2/swagger-v1.36.json")
    relative = [os.path.relpath(path, ROOT) for path in (old, new)]
    done = subprocess.run([sys.executable, "-m", "specdiff", *relative, "--no-config", "--today", _demo()["DEMO_TODAY"],
                           "--format", "release-notes"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    golden = (REPORTS / "examples" / "kubernetes-1.35-to-1.36.release-notes.md").read_text(encoding="utf-8")
    assert done.stdout == golden, "reports/examples/ is out of date: run `make example-notes` and review the diff"
    assert len(golden.splitlines()) < 130 and golden.count("shardSelector") == 1


def test_the_openapi_release_notes_example_matches_the_code() -> None:
    """reports/examples/: the Museum API's notes from 1.0.0 to 1.2.1 that `make example-notes` writes, headed by
    the spec's tags, as the provider's own documentation is."""
    from conftest import corpus

    museum = "openapi/museum-3.1/museum-"
    old, new = corpus(f"{museum}2023-11-01-0624581.yaml"), corpus(f"{museum}2024-11-20-2770b2b.yaml")
    relative = [os.path.relpath(path, ROOT) for path in (old, new)]
    done = subprocess.run([sys.executable, "-m", "specdiff", *relative, "--no-config", "--today", _demo()["DEMO_TODAY"],
                           "--format", "release-notes"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    golden = (REPORTS / "examples" / "museum-1.0.0-to-1.2.1.release-notes.md").read_text(encoding="utf-8")
    assert done.stdout == golden, "reports/examples/ is out of date: run `make example-notes` and review the diff"
    assert [line for line in golden.splitlines() if line.startswith("### ")][:3] == [
        "### Events", "### General", "### Events"]


def test_the_kubernetes_history_release_notes_example_matches_the_code() -> None:
    """reports/examples/: the HTTPRoute CRD's notes over four releases that `make example-notes` writes, the
    newest release first."""
    from conftest import corpus

    files = [corpus(f"crds/gateway-api/httproutes.standard.{v}.yaml") for v in ("v1.0.0", "v1.1.0", "v1.2.0", "v1.4.0")]
    done = subprocess.run([sys.executable, "-m", "specdiff", "history", *(os.path.relpath(f, ROOT) for f in files),
                           "--no-config", "--today", _demo()["DEMO_TODAY"], "--format", "release-notes"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    golden = (REPORTS / "examples" / "httproute-v1.0.0-to-v1.4.0.history.release-notes.md").read_text(encoding="utf-8")
    assert done.stdout == golden, "reports/examples/ is out of date: run `make example-notes` and review the diff"
    assert re.findall(r"^## (.*)$", golden, re.M) == ["v1.4.0 (from v1.2.0)", "v1.2.0 (from v1.1.0)",
                                                      "v1.1.0 (from v1.0.0)"]


@pytest.mark.parametrize("name", ["release-notes", "html"])
def test_grouping_by_api_needs_only_the_report(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The graph stage names each change's group/version, resource and kind on its context: rendered without
    the documents, the demo's sections still say `frobs.example.com/v6 Frobber`, exactly as the golden."""
    from specdiff.load import load
    from specdiff.pipeline import run
    from specdiff.report import render

    monkeypatch.chdir(ROOT)  # the reports name the inputs as the Makefile passes them
    demo = _demo()
    old, new = load(demo["DEMO_OLD"]), load(demo["DEMO_NEW"])
    report = run(old, new, "auto", None, dt.date.fromisoformat(demo["DEMO_TODAY"]))
    assert any(f.change.context.kind == "frobs.example.com/v6/Frobber" for f in report.findings)
    suffix = {"release-notes": ".release-notes.md", "html": ".html"}[name]
    assert render(report, name) == (REPORTS / f"specdiff{suffix}").read_text(encoding="utf-8")
