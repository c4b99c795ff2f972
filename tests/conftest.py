"""Shared fixtures: where the real corpora live, and a helper to write small specs."""

from __future__ import annotations

import gc
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import TypeVar

import pytest

from specdiff.collector import collector_paused
from specdiff.load import Document, load
from specdiff.pipeline import Graphed, compare_graphed, graphed
from specdiff.records import Report

Kept = TypeVar("Kept")

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"


def corpus(relative: str) -> Path:
    """A file under ../shared/corpora, or a skip that says why when the corpora are not beside the project."""
    path = CORPORA / relative
    if not path.exists():
        pytest.skip(f"real corpora not found at {CORPORA} (they live in ../shared/corpora beside the project)")
    return path


def kept(value: Kept) -> Kept:
    """A value kept for the rest of the run, frozen out of the cyclic collector's reach: the tests' own work
    starts full collections, and each would walk every real document and graph kept so far again (measured in
    docs/performance.md). Whatever else is alive at that moment is frozen with it and never collected as a
    cycle, which costs memory only."""
    gc.freeze()
    return value


@cache
def real_document(relative: str) -> Document:
    """A spec under ../shared/corpora, read once per test run (per worker) for every test that reads it; read as
    `compare` reads it, the cyclic collector paused (its passes over a parse in progress find nothing)."""
    with collector_paused():
        return kept(load(str(corpus(relative))))


@cache
def real_graphed(relative: str) -> Graphed:
    """A spec under ../shared/corpora with its graph, built once per test run (per worker): a release is compared
    with the one before and the one after it, grouped and not, and the graph is only read."""
    return kept(graphed(real_document(relative)))


@cache
def real_pair(old: str, new: str, grouped: bool = True) -> Report:
    """Two specs under ../shared/corpora compared once per test run (per worker), for every test that reads the
    report; `grouped=False` keeps one finding per place."""
    return compare_graphed(real_graphed(old), real_graphed(new), grouped=grouped)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish() -> None:
    """Everything still alive is kept until the process ends, and after this hook pytest's check for unraisable
    exceptions runs the cyclic collector five times over it, as does the interpreter's exit: collected once here
    and then frozen, it is not walked again."""
    gc.collect()
    gc.freeze()


@pytest.fixture
def frob_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working folder of a command-line test: old.yaml and new.yaml (the small Frobber pair) in it."""
    shutil.copy(ROOT / "tests" / "specs" / "frob-old.yaml", tmp_path / "old.yaml")
    shutil.copy(ROOT / "tests" / "specs" / "frob-new.yaml", tmp_path / "new.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session")
def digitalocean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone of DigitalOcean's split spec and its whole history (the git bundle under ../shared/corpora), made
    once per test session (per worker); a skip that says why when the corpora or git are not there."""
    bundle = corpus("openapi/digitalocean/digitalocean-openapi.bundle")
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the DigitalOcean spec is a git bundle")
    clone = tmp_path_factory.mktemp("digitalocean") / "openapi"
    subprocess.run(["git", "clone", "--quiet", str(bundle), str(clone)], check=True, capture_output=True)
    return clone


@pytest.fixture(scope="session")
def pip_settings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """pip's settings for the tests that install specdiff (the action's step, the wheel and sdist, pre-commit's
    hook environment), as environment variables.

    The wheels of the run-time lock (requirements.txt: specdiff's dependencies and the setuptools that builds
    it) are downloaded once per run with their hashes checked, and found there with no index: each install
    still resolves specdiff's requirements, against the locked releases instead of the index's newest, without
    fetching every project's index page four times a run, and a new release of a dependency cannot fail these
    tests. No bytecode is compiled up front (`PIP_COMPILE=0`; `PIP_NO_COMPILE=1` would turn it on), as the
    action installs: the first run compiles the modules it imports."""
    wheels = tmp_path_factory.mktemp("locked-wheels")
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                    "--require-hashes", "--requirement", str(ROOT / "requirements.txt"), "--dest", str(wheels)],
                   check=True, capture_output=True)
    return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels), "PIP_COMPILE": "0"}
