"""The pre-commit hook run by the real `pre-commit` tool, which installs specdiff from the repository itself.

`pre-commit try-repo` clones the repository's HEAD, so the hook is tried from a throwaway repository whose one
commit holds the working tree as it is now: the code under test, not the last commit.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from worktree import copy_working_tree

SPECS = Path(__file__).parent / "specs"

pytestmark = pytest.mark.install


def env(home: Path) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "GIT_", "PRE_COMMIT"))}
    bin_dir = str(Path(sys.executable).parent)
    return {**base, "PATH": f"{bin_dir}{os.pathsep}{base.get('PATH', '')}", "PRE_COMMIT_HOME": str(home),
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}


def git(cwd: Path, home: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env(home))


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A repository whose HEAD is the working tree (tracked and new files, not ignored ones), and a pre-commit
    home shared by the tests, so the hook's environment is built once."""
    home = tmp_path_factory.mktemp("pre-commit-home")
    repo = tmp_path_factory.mktemp("specdiff-under-test")
    copy_working_tree(repo)
    git(repo, home, "init", "-q", "-b", "main")
    git(repo, home, "add", "-A")
    git(repo, home, "commit", "-q", "-m", "working tree under test")
    return repo, home


@pytest.fixture
def project(tmp_path: Path, hook_repo: tuple[Path, Path]) -> Path:
    """A user's repository with api/openapi.yaml committed at v1."""
    home = hook_repo[1]
    git(tmp_path, home, "init", "-q", "-b", "main")
    (tmp_path / "api").mkdir()
    shutil.copy(SPECS / "frob-old.yaml", tmp_path / "api" / "openapi.yaml")
    git(tmp_path, home, "add", "-A")
    git(tmp_path, home, "commit", "-q", "-m", "v1")
    return tmp_path


def try_repo(project: Path, hook_repo: tuple[Path, Path]) -> subprocess.CompletedProcess[str]:
    repo, home = hook_repo
    return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(repo), "specdiff", "--color", "never"],
                          cwd=project, capture_output=True, text=True, env=env(home), timeout=300)


def test_a_staged_breaking_change_is_blocked(project: Path, hook_repo: tuple[Path, Path]) -> None:
    shutil.copy(SPECS / "frob-new.yaml", project / "api" / "openapi.yaml")
    git(project, hook_repo[1], "add", "api/openapi.yaml")
    done = try_repo(project, hook_repo)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.rstrip("\n").splitlines()
    assert any(line.startswith("specdiff (API compatibility of staged specs)") and line.endswith("Failed")
               for line in lines)
    assert [" ".join(line.split()[:2] + lines[i + 1].split()[:2]) for i, line in enumerate(lines)
            if line.startswith("breaking")] == [
        "breaking schema.enum.value-added Enum value", "breaking schema.property.removed Property Frobber.size",
        "breaking operation.removed Operation GET"]
    assert lines[-1] == (
        "specdiff: commit blocked; to accept these findings, record them with `specdiff baseline "
        "HEAD:./api/openapi.yaml :./api/openapi.yaml >> specdiff-baseline.txt` (and `baseline: "
        "specdiff-baseline.txt` in .specdiff.yaml), or add an `ignore:` entry with a reason to .specdiff.yaml")


def test_a_compatible_change_passes(project: Path, hook_repo: tuple[Path, Path]) -> None:
    spec = (project / "api" / "openapi.yaml").read_text()
    (project / "api" / "openapi.yaml").write_text(spec.replace("  /old:\n", "  /extra:\n    get:\n      responses: "
                                                               "{\"200\": {description: ok}}\n  /old:\n"))
    git(project, hook_repo[1], "add", "api/openapi.yaml")
    done = try_repo(project, hook_repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert any(line.startswith("specdiff (API compatibility of staged specs)") and line.endswith("Passed")
               for line in done.stdout.splitlines())
