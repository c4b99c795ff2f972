"""specdiff installed the way users install it: a wheel and an sdist, each into a fresh venv, run from elsewhere.

The editable checkout hides packaging mistakes (a rule catalogue read from the source tree, a module left out of
the wheel); these tests build both artefacts, install each into its own venv and run `specdiff rules`, the demo
pair and `specdiff staged` from a folder outside the checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from worktree import copy_working_tree

ROOT = Path(__file__).resolve().parents[1]
SPECS = Path(__file__).parent / "specs"

#: one worker runs every test that builds or installs specdiff (`make test`: pytest -n auto --dist loadgroup)
pytestmark = [pytest.mark.install, pytest.mark.xdist_group(name="install")]


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would let the checkout's code leak into the installed one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "GIT_"))}
    return {**env, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", **extra}


@pytest.fixture(scope="session")
def artefacts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An sdist, and a wheel built from that sdist (so the sdist must hold everything the wheel needs), built
    once from a copy of the working tree: the build writes nothing into the checkout other tests read. They are
    built with the locked setuptools, as `make setup` builds specdiff; installing the sdist below builds it again
    in isolation from pyproject.toml's build requirements, as pip does for users."""
    source = copy_working_tree(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
                          capture_output=True, text=True, env=clean_env())
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return {"wheel": next(out.glob("specdiff-*.whl")), "sdist": next(out.glob("specdiff-*.tar.gz"))}


@pytest.fixture(scope="session", params=["wheel", "sdist"])
def installed(request: pytest.FixtureRequest, artefacts: dict[str, Path], pip_settings: dict[str, str],
              tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with one artefact installed (this pip installs into it: no pip inside, faster), with the
    settings of `pip_settings` (tests/conftest.py), which the sdist's isolated build follows too."""
    venv = tmp_path_factory.mktemp(f"venv-{request.param}")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet",
                    "--disable-pip-version-check", str(artefacts[request.param])],
                   check=True, capture_output=True, env=clean_env(**pip_settings))
    return venv / "bin"


def test_the_tests_that_install_specdiff_run_on_one_worker(request: pytest.FixtureRequest) -> None:
    """`--dist loadgroup` (`make test`) keeps an `xdist_group` on one worker by ending its tests' ids with `@name`,
    as the locked pytest-xdist documents; were that lost (the pytest that pyproject.toml rules out), each worker
    would build and install specdiff again."""
    if hasattr(request.config, "workerinput") and request.config.getvalue("loadgroup"):
        assert request.node.nodeid.endswith("@install"), request.node.nodeid


def run(bin_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(bin_dir / "specdiff"), *args], cwd=cwd, capture_output=True, text=True,
                          env=clean_env(), timeout=120)


def test_the_installed_package_is_the_one_that_runs(installed: Path, tmp_path: Path) -> None:
    done = subprocess.run([str(installed / "python"), "-c", "import specdiff; print(specdiff.__file__)"],
                          cwd=tmp_path, capture_output=True, text=True, env=clean_env(), check=True)
    assert Path(done.stdout.strip()).is_relative_to(installed.parent)


def test_the_installed_package_parses_cel_from_the_tables_it_ships(installed: Path, tmp_path: Path) -> None:
    """specdiff/diff/cel_tables.py is in the artefact, current for the lark and cel-python it installs with, and
    used: a CRD comparison does not analyse the CEL grammar again."""
    code = "from specdiff.diff.cel_grammar import cel_parser; print(cel_parser().source_path)"
    done = subprocess.run([str(installed / "python"), "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          env=clean_env(), check=True)
    assert done.stdout == "<deserialized>\n"


def test_rules_lists_the_catalogue(installed: Path, tmp_path: Path) -> None:
    done = run(installed, tmp_path, "rules")
    assert (done.returncode, done.stderr) == (0, "")
    listed = {line.split()[0] for line in done.stdout.splitlines()}
    assert {"specdiff.unclassified", "schema.enum.value-added", "crd.version.unserved"} <= listed
    assert done.stdout == subprocess.run([sys.executable, "-m", "specdiff", "rules"], cwd=ROOT, capture_output=True,
                                         text=True, check=True).stdout  # every card of the checkout, no fewer


def test_the_demo_pair_gives_the_golden_report(installed: Path, tmp_path: Path) -> None:
    (tmp_path / "corpora" / "demo").mkdir(parents=True)
    for name in ("frobber-v6.yaml", "frobber-v7.yaml"):
        shutil.copy(ROOT / "corpora" / "demo" / name, tmp_path / "corpora" / "demo" / name)
    done = run(installed, tmp_path, "--no-config", "--today", "2026-01-15", "corpora/demo/frobber-v6.yaml",
               "corpora/demo/frobber-v7.yaml")
    assert (done.returncode, done.stderr) == (1, "")
    assert done.stdout == (ROOT / "reports" / "specdiff.txt").read_text(encoding="utf-8")


def test_staged_blocks_a_breaking_commit(installed: Path, tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True, env=clean_env())

    git("init", "-q", "-b", "main")
    (tmp_path / "api").mkdir()
    shutil.copy(SPECS / "frob-old.yaml", tmp_path / "api" / "openapi.yaml")
    git("add", "-A")
    git("commit", "-q", "-m", "v1")
    shutil.copy(SPECS / "frob-new.yaml", tmp_path / "api" / "openapi.yaml")
    git("add", "-A")
    done = run(installed, tmp_path, "staged", "api/openapi.yaml")
    assert (done.returncode, done.stderr) == (1, "")
    lines = done.stdout.splitlines()
    assert [" ".join(line.split()[:2] + lines[i + 1].split()[:2]) for i, line in enumerate(lines)
            if line.startswith("breaking")] == [
        "breaking operation.removed Operation GET", "breaking schema.enum.value-added Enum value",
        "breaking schema.property.removed Property Frobber.size"]
    assert done.stdout.splitlines()[-1].startswith("specdiff: commit blocked; to accept these findings")
