"""The pre-commit hook run by the real `pre-commit` tool, which installs specdiff from the repository itself.

pre-commit clones the repository at the revision a user's `.pre-commit-config.yaml` pins, so the hook comes from a
throwaway repository whose one commit holds the working tree as it is now: the code under test, not the last
commit. The user's side is real too: `pre-commit install`, then `git commit`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from worktree import copy_working_tree

SPECS = Path(__file__).parent / "specs"

#: one worker runs every test that builds or installs specdiff (`make test`: pytest -n auto --dist loadgroup)
pytestmark = [pytest.mark.install, pytest.mark.xdist_group(name="install")]


class Hook(NamedTuple):
    """The repository the hook is installed from, at `head`; pre-commit's store (`home`), shared by the tests so
    the hook's environment is built once for that revision; and the pip settings it is built with."""
    repo: Path
    home: Path
    head: str
    pip: dict[str, str]


def env(home: Path) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "GIT_", "PRE_COMMIT"))}
    bin_dir = str(Path(sys.executable).parent)
    return {**base, "PATH": f"{bin_dir}{os.pathsep}{base.get('PATH', '')}", "PRE_COMMIT_HOME": str(home),
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}


def git(cwd: Path, home: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env(home))


@pytest.fixture(scope="session")
def hook_repo(tmp_path_factory: pytest.TempPathFactory, pip_settings: dict[str, str]) -> Hook:
    """A repository whose HEAD is the working tree (tracked and new files, not ignored ones). pre-commit builds
    the hook's environment itself (a virtualenv, then `pip install .` of its clone), its pip with the settings of
    `pip_settings` (tests/conftest.py)."""
    home = tmp_path_factory.mktemp("pre-commit-home")
    repo = tmp_path_factory.mktemp("specdiff-under-test")
    copy_working_tree(repo)
    git(repo, home, "init", "-q", "-b", "main")
    git(repo, home, "add", "-A")
    git(repo, home, "commit", "-q", "-m", "working tree under test")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True,
                          env=env(home)).stdout.strip()
    return Hook(repo, home, head, pip_settings)


@pytest.fixture
def project(tmp_path: Path, hook_repo: Hook) -> Path:
    """A user's repository with api/openapi.yaml committed at v1 and the hook installed, configured as the docs
    say (a repo and the revision to pin)."""
    repo, home, head, _ = hook_repo
    git(tmp_path, home, "init", "-q", "-b", "main")
    (tmp_path / "api").mkdir()
    shutil.copy(SPECS / "frob-old.yaml", tmp_path / "api" / "openapi.yaml")
    (tmp_path / ".pre-commit-config.yaml").write_text(f"repos:\n  - repo: {repo}\n    rev: {head}\n"
                                                      "    hooks:\n      - id: specdiff\n")
    git(tmp_path, home, "add", "-A")
    git(tmp_path, home, "commit", "-q", "-m", "v1")
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=tmp_path, check=True, capture_output=True,
                   env=env(home))
    return tmp_path


def commit(project: Path, hook: Hook, **extra: str) -> subprocess.CompletedProcess[str]:
    """`git commit` as the user types it, the installed pre-commit hook running specdiff."""
    return subprocess.run(["git", "commit", "-q", "-m", "v2"], cwd=project, capture_output=True, text=True,
                          env={**env(hook.home), **hook.pip, **extra}, timeout=300)


def hook_output(done: subprocess.CompletedProcess[str]) -> str:
    """What the user sees of the hook: git shows it on stderr."""
    return (done.stdout + done.stderr).rstrip("\n")


def test_a_staged_breaking_change_is_blocked_and_can_be_accepted(project: Path, hook_repo: Hook) -> None:
    home = hook_repo.home
    shutil.copy(SPECS / "frob-new.yaml", project / "api" / "openapi.yaml")
    git(project, home, "add", "api/openapi.yaml")
    done = commit(project, hook_repo)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = hook_output(done).splitlines()
    assert any(line.startswith("specdiff (API compatibility of staged specs)") and line.endswith("Failed")
               for line in lines)
    assert [" ".join(line.split()[:2] + lines[i + 1].split()[:2]) for i, line in enumerate(lines)
            if line.startswith("breaking")] == [
        "breaking operation.removed Operation GET", "breaking schema.enum.value-added Enum value",
        "breaking schema.property.removed Property Frobber.size"]
    assert lines[-1] == (
        "specdiff: commit blocked; to accept these findings, run `SPECDIFF_ACCEPT=1 git commit` again (it records "
        "them in specdiff-baseline.txt), or add an `ignore:` entry with a reason to .specdiff.yaml")

    # the hint, followed as written: specdiff is on no PATH here, only in pre-commit's environment
    done = commit(project, hook_repo, SPECDIFF_ACCEPT="1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert hook_output(done).splitlines()[-1] == (
        "specdiff: recorded 3 findings in specdiff-baseline.txt; stage it (`git add specdiff-baseline.txt`) and "
        "commit again")
    recorded = (project / "specdiff-baseline.txt").read_text().splitlines()
    assert [line.split("  # ")[1].split()[0] for line in recorded[1:]] == sorted(
        ["schema.enum.value-added", "schema.property.removed", "operation.removed"],
        key=lambda rule: next(line for line in recorded[1:] if rule in line))  # sorted by fingerprint
    git(project, home, "add", "specdiff-baseline.txt")
    done = commit(project, hook_repo)
    assert done.returncode == 0, done.stdout + done.stderr
    log = subprocess.run(["git", "log", "--format=%s", "--name-only"], cwd=project, capture_output=True, text=True,
                         env=env(home), check=True).stdout.split()
    assert log == ["v2", "api/openapi.yaml", "specdiff-baseline.txt", "v1", ".pre-commit-config.yaml",
                   "api/openapi.yaml"]


def test_a_compatible_change_passes(project: Path, hook_repo: Hook) -> None:
    spec = (project / "api" / "openapi.yaml").read_text()
    (project / "api" / "openapi.yaml").write_text(spec.replace("  /old:\n", "  /extra:\n    get:\n      responses: "
                                                               "{\"200\": {description: ok}}\n  /old:\n"))
    git(project, hook_repo.home, "add", "api/openapi.yaml")
    done = commit(project, hook_repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert any(line.startswith("specdiff (API compatibility of staged specs)") and line.endswith("Passed")
               for line in hook_output(done).splitlines())


def test_a_staged_fragment_of_a_split_spec_checks_the_spec_that_reaches_it(
        tmp_path: Path, hook_repo: Hook) -> None:
    """The hook's pattern matches every file of a split spec; only a referenced schema is staged. The root above
    it is compared in its place (docs/git-inputs.md), instead of the fragment being refused as no OpenAPI
    document."""
    repo, home, head, _ = hook_repo
    git(tmp_path, home, "init", "-q", "-b", "main")
    files = {"spec/root.yaml": "openapi: 3.0.3\ninfo: {title: frob, version: '1'}\npaths:\n  /frobs:\n"
                               "    get: {$ref: operations/list.yaml}\n",
             "spec/operations/list.yaml": "responses:\n  '200':\n    description: ok\n    content:\n"
                                          "      application/json: {schema: {$ref: ../models/frob.yaml}}\n",
             "spec/models/frob.yaml": "type: object\nproperties:\n  mode: {type: string, enum: [fast, slow]}\n"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {repo}\n    rev: {head}\n    hooks:\n      - id: specdiff\n"
        "        files: ^spec/.*\\.ya?ml$\n")
    git(tmp_path, home, "add", "-A")
    git(tmp_path, home, "commit", "-q", "-m", "v1")
    subprocess.run([sys.executable, "-m", "pre_commit", "install"], cwd=tmp_path, check=True, capture_output=True,
                   env=env(home))
    (tmp_path / "spec/models/frob.yaml").write_text(files["spec/models/frob.yaml"].replace("slow]", "slow, auto]"))
    git(tmp_path, home, "add", "spec/models/frob.yaml")
    done = commit(tmp_path, hook_repo)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = hook_output(done).splitlines()
    assert "not an OpenAPI" not in hook_output(done)
    assert [" ".join(line.split()[:2] + lines[i + 1].split()[:3]) for i, line in enumerate(lines)
            if line.startswith("breaking")] == ["breaking schema.enum.value-added Enum value `auto`"]
