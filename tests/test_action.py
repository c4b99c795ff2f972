"""action.yml: its structure, and its shell steps run for real against a throwaway repository and a fake `gh`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def test_structure() -> None:
    assert {"name", "description", "inputs", "outputs", "runs"} <= set(ACTION)
    assert ACTION["runs"]["using"] == "composite"
    assert list(ACTION["inputs"]) == ["old", "new", "base-ref", "fail-on", "policy", "config", "baseline", "comment",
                                      "python-version", "github-token"]
    for name, spec in ACTION["inputs"].items():
        assert spec.get("description"), name
        assert spec.get("required") is True or "default" in spec, name
    assert [n for n, s in ACTION["inputs"].items() if s.get("required")] == ["old"]
    ids = set()
    for step in ACTION["runs"]["steps"]:
        assert ("run" in step) != ("uses" in step), step
        if "run" in step:
            assert step["shell"] == "bash", step["name"]
            assert "${{" not in step["run"], f"{step['name']}: expressions go through env:, never into the script"
        ids.add(step.get("id"))
    for text in re.findall(r"\$\{\{.*?\}\}", (ROOT / "action.yml").read_text()):
        for used in re.findall(r"inputs\.([\w-]+)", text):
            assert used in ACTION["inputs"], used
        for used in re.findall(r"steps\.([\w-]+)\.outputs", text):
            assert used in ids, used
    assert ACTION["runs"]["steps"][0]["uses"].startswith("actions/setup-python@")


def test_the_documented_workflow_uses_the_action_correctly() -> None:
    page = (ROOT / "docs" / "github-action.md").read_text(encoding="utf-8")
    workflow = yaml.safe_load(re.search(r"```yaml\n(.*?)```", page, re.S).group(1))  # type: ignore[union-attr]
    job = next(iter(workflow["jobs"].values()))
    assert job["permissions"] == {"contents": "read", "pull-requests": "write"}
    step = next(s for s in job["steps"] if "specdiff" in s.get("uses", ""))
    assert set(step["with"]) <= set(ACTION["inputs"])
    assert "old" in step["with"]


# ---------------------------------------------------------------- running the steps


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True).stdout


def evaluate(text: str, context: dict[str, Any]) -> str:
    return EXPRESSION.sub(lambda m: str(context.get(m.group(1), "")), text)


class Runner:
    """Enough of the Actions runner to run the composite action's bash steps."""

    def __init__(self, workspace: Path, temp: Path, inputs: dict[str, str], event: dict[str, str]) -> None:
        self.workspace, self.temp = workspace, temp
        self.summary = temp / "summary.md"
        self.context: dict[str, Any] = {f"inputs.{k}": v.get("default", "") for k, v in ACTION["inputs"].items()}
        self.context.update({f"inputs.{k}": v for k, v in inputs.items()})
        self.context.update({"github.action_path": str(ROOT), "runner.temp": str(temp), **event})
        bin_dir = Path(sys.executable).parent
        self.path = f"{temp / 'bin'}{os.pathsep}{bin_dir}{os.pathsep}{os.environ['PATH']}"

    def run(self, step_id: str) -> subprocess.CompletedProcess[str]:
        step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == step_id or s.get("name") == step_id)
        output = self.temp / f"{step_id}.out"
        output.write_text("")
        env = {**os.environ, "PATH": self.path, "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(self.summary),
               "RUNNER_TEMP": str(self.temp), "GIT_CONFIG_NOSYSTEM": "1"}
        env.update({k: evaluate(str(v), self.context) for k, v in (step.get("env") or {}).items()})
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                              cwd=self.workspace, env=env, capture_output=True, text=True, timeout=120)
        for line in output.read_text().splitlines():
            key, _, value = line.partition("=")
            if "id" in step:
                self.context[f"steps.{step['id']}.outputs.{key}"] = value
        return done


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, str]:
    """origin holds v1 on main and v2 on feature; the workspace is a shallow clone of feature only."""
    specs = Path(__file__).parent / "specs"
    seed = tmp_path / "seed"
    seed.mkdir()
    git(seed, "init", "-q", "-b", "main")
    (seed / "api").mkdir()
    shutil.copy(specs / "frob-old.yaml", seed / "api" / "openapi.yaml")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "v1")
    base = git(seed, "rev-parse", "HEAD").strip()
    git(seed, "checkout", "-q", "-b", "feature")
    shutil.copy(specs / "frob-new.yaml", seed / "api" / "openapi.yaml")
    git(seed, "commit", "-q", "-am", "v2")
    git(tmp_path, "clone", "-q", "--bare", str(seed), "origin.git")
    git(tmp_path, "clone", "-q", "--depth=1", "--branch=feature", f"file://{tmp_path / 'origin.git'}", "work")
    work = tmp_path / "work"
    (tmp_path / "temp" / "bin").mkdir(parents=True)
    return work, base


def fake_gh(temp: Path, existing: list[dict[str, Any]]) -> Path:
    """A `gh` that answers the comment listing from `existing` and logs every call."""
    log = temp / "gh.log"
    script = temp / "bin" / "gh"
    script.write_text(f"""#!{sys.executable}
import json, sys
args = sys.argv[1:]
entry = {{"args": args}}
if "--input" in args:
    entry["body"] = json.load(open(args[args.index("--input") + 1]))["body"]
with open({str(log)!r}, "a") as fh:
    fh.write(json.dumps(entry) + "\\n")
if "--jq" in args:
    for comment in {existing!r}:
        if comment["body"].startswith("<!-- specdiff -->"):
            print(comment["id"])
""")
    script.chmod(0o755)
    return log


def event(base: str) -> dict[str, str]:
    return {"github.event.pull_request.base.sha": base, "github.repository": "acme/frob",
            "github.event.pull_request.number": "7", "github.event.pull_request": "true", "github.token": "t0k"}


def test_steps_fetch_compare_summarise_comment_and_fail(workspace: tuple[Path, str], tmp_path: Path) -> None:
    work, base = workspace
    temp = tmp_path / "temp"
    runner = Runner(work, temp, {"old": "api/openapi.yaml"}, event(base))
    with pytest.raises(subprocess.CalledProcessError):  # the shallow clone does not have the base yet
        git(work, "cat-file", "-e", f"{base}^{{commit}}")

    done = runner.run("base")
    assert done.returncode == 0, done.stderr
    assert runner.context["steps.base.outputs.sha"] == base

    done = runner.run("compare")
    assert done.returncode == 0, done.stderr
    assert {k.rsplit(".", 1)[1]: v for k, v in runner.context.items() if k.startswith("steps.compare")} == {
        "exit-code": "1", "report-dir": str(temp / "specdiff"), "breaking": "3", "dangerous": "0", "safe": "1"}
    assert (f"specdiff {base}:api/openapi.yaml -> api/openapi.yaml (policy: openapi (no Kubernetes markers))"
            in done.stdout)
    assert "\n::error file=api/openapi.yaml,line=" in done.stdout  # annotations on the spec's lines
    assert (temp / "specdiff" / "specdiff.sarif").is_file()
    summary = runner.summary.read_text()
    assert summary.startswith("<!-- specdiff -->\n### specdiff: API compatibility\n")
    assert "`schema.property.removed`" in summary

    log = fake_gh(temp, [{"id": 11, "body": "LGTM"}])
    done = runner.run("Comment on the pull request")
    assert (done.returncode, done.stdout) == (0, "posted a comment\n")
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert [c["args"][:3] for c in calls] == [["api", "repos/acme/frob/issues/7/comments", "--paginate"],
                                              ["api", "--method", "POST"]]
    assert calls[1]["args"][3] == "repos/acme/frob/issues/7/comments"
    assert calls[1]["body"] == summary

    log.unlink()
    log = fake_gh(temp, [{"id": 11, "body": "LGTM"}, {"id": 12, "body": "<!-- specdiff -->\nold report"}])
    done = runner.run("Comment on the pull request")
    assert (done.returncode, done.stdout) == (0, "updated comment 12\n")
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert calls[1]["args"][:4] == ["api", "--method", "PATCH", "repos/acme/frob/issues/comments/12"]

    done = runner.run("Verdict")
    assert done.returncode == 1
    assert done.stdout == "::error title=specdiff::findings at or above 'breaking'; see the job summary\n"


def test_fail_on_never_and_a_configured_select(workspace: tuple[Path, str], tmp_path: Path) -> None:
    work, base = workspace
    (work / "specdiff.yaml").write_text("select: [operation]\n")
    runner = Runner(work, tmp_path / "temp", {"old": "api/openapi.yaml", "fail-on": "never",
                                              "config": "specdiff.yaml"}, event(base))
    assert runner.run("base").returncode == 0
    done = runner.run("compare")
    assert done.returncode == 0, done.stderr
    assert (runner.context["steps.compare.outputs.exit-code"], runner.context["steps.compare.outputs.breaking"],
            runner.context["steps.compare.outputs.safe"]) == ("0", "1", "1")
    assert runner.run("Verdict").stdout == "no findings at or above 'never'\n"


def test_input_errors_fail_the_step_with_the_message(workspace: tuple[Path, str], tmp_path: Path) -> None:
    work, base = workspace
    runner = Runner(work, tmp_path / "temp", {"old": "api/missing.yaml"}, event(base))
    assert runner.run("base").returncode == 0
    done = runner.run("compare")
    assert done.returncode == 2
    message = f"specdiff: error: {base}:api/missing.yaml: 'api/missing.yaml' does not exist at revision '{base}'"
    assert done.stdout == f"::error title=specdiff::{message}\n"
    assert message in runner.summary.read_text()


def test_no_base_revision_is_an_error(workspace: tuple[Path, str], tmp_path: Path) -> None:
    work, _ = workspace
    runner = Runner(work, tmp_path / "temp", {"old": "api/openapi.yaml"}, {})
    done = runner.run("base")
    assert done.returncode == 2
    assert "no base revision" in done.stdout
