"""action.yml run end to end: its bash steps in order, as the runner would run them, against a stand-in REST API.

The steps come from action.yml itself, with `${{ }}` expressions evaluated from a context like GitHub's (the
event payload, inputs, step outputs) and the runner's variables (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
GITHUB_EVENT_PATH, GITHUB_API_URL, RUNNER_TEMP). Only `actions/setup-python` is skipped: a fresh virtualenv
stands in for it, and the action's install step installs specdiff into it from a copy of the working tree. A
small HTTP server on 127.0.0.1 answers the REST calls the comment step makes and records them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from worktree import copy_working_tree

ROOT = Path(__file__).resolve().parents[1]
SPECS = Path(__file__).parent / "specs"
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
MARKER = "<!-- specdiff: api/openapi.yaml -->"

#: one worker runs every test that builds or installs specdiff (`make test`: pytest -n auto --dist loadgroup)
pytestmark = [pytest.mark.install, pytest.mark.xdist_group(name="install")]


def test_structure() -> None:
    assert {"name", "description", "inputs", "outputs", "runs"} <= set(ACTION)
    assert ACTION["runs"]["using"] == "composite"
    assert list(ACTION["inputs"]) == ["old", "new", "base-ref", "fail-on", "policy", "config", "baseline",
                                      "annotate-level", "check-version", "include-docs", "match-path",
                                      "exclude-path", "comment", "python-version", "github-token"]
    for name, spec in ACTION["inputs"].items():
        assert spec.get("description"), name
        assert spec.get("required") is True or "default" in spec, name
    assert [n for n, s in ACTION["inputs"].items() if s.get("required")] == ["old"]
    for step in ACTION["runs"]["steps"]:
        assert ("run" in step) != ("uses" in step), step
        if "run" in step:
            assert step["shell"] == "bash", step["name"]
            assert "${{" not in step["run"], f"{step['name']}: expressions go through env:, never into the script"
    assert ACTION["runs"]["steps"][0]["uses"].startswith("actions/setup-python@")
    assert "gh " not in (ROOT / "action.yml").read_text(), "the runner need not have the gh CLI"


def test_the_documented_workflow_uses_the_action_correctly() -> None:
    page = (ROOT / "docs" / "github-action.md").read_text(encoding="utf-8")
    workflow = yaml.safe_load(re.search(r"```yaml\n(.*?)```", page, re.S).group(1))  # type: ignore[union-attr]
    job = next(iter(workflow["jobs"].values()))
    assert job["permissions"] == {"contents": "read", "pull-requests": "write"}
    step = next(s for s in job["steps"] if "specdiff" in s.get("uses", ""))
    assert set(step["with"]) <= set(ACTION["inputs"])
    assert "old" in step["with"]


# ---------------------------------------------------------------- GitHub's expressions, as far as action.yml uses them


def lookup(context: dict[str, Any], path: str) -> Any:
    value: Any = context
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def evaluate(expression: str, context: dict[str, Any]) -> Any:
    """`a.b.c`, `'literal'`, `x == 'y'`, `&&`, `||`: what action.yml's expressions use, nothing more."""
    if "||" in expression:
        return next((v for v in (evaluate(p, context) for p in expression.split("||")) if v), "")
    if "&&" in expression:
        values = [evaluate(p, context) for p in expression.split("&&")]
        return next((v for v in values if not v), values[-1])
    if "==" in expression:
        left, right = (evaluate(p, context) for p in expression.split("=="))
        return str(left) == str(right)
    expression = expression.strip()
    if re.fullmatch(r"'[^']*'", expression):
        return expression[1:-1]
    assert re.fullmatch(r"[a-z_]+(\.[A-Za-z0-9_-]+)*", expression), f"unsupported expression {expression!r}"
    return lookup(context, expression)


def substitute(text: str, context: dict[str, Any]) -> str:
    def one(match: re.Match[str]) -> str:
        value = evaluate(match.group(1), context)
        return "" if value is None else json.dumps(value) if isinstance(value, dict) else str(value)

    return EXPRESSION.sub(one, text)


def test_every_expression_in_action_yml_is_understood() -> None:
    text = (ROOT / "action.yml").read_text(encoding="utf-8")
    context = {"inputs": {"old": "a.yaml", "new": ""}, "github": {"event": {}}}
    for expression in EXPRESSION.findall(text):
        evaluate(expression, context)
    for step in ACTION["runs"]["steps"]:
        if "if" in step:
            evaluate(step["if"], context)


# ---------------------------------------------------------------- the REST API on 127.0.0.1


@dataclass
class FakeGitHub:
    """Issue comments of one pull request; GET /user says who the token is (or 403, like the Actions token)."""

    user: str | None = "specdiff-bot"
    comments: list[dict[str, Any]] = field(default_factory=list)
    calls: list[tuple[str, str]] = field(default_factory=list)
    page_size: int = 2
    read_only: bool = False  # a pull request from a fork: GET works, POST and PATCH answer 403
    next_id: int = 100
    url: str = ""

    def answer(self, method: str, path: str, body: Any) -> tuple[int, Any, dict[str, str]]:
        address = urlsplit(path)
        self.calls.append((method, address.path))
        if self.read_only and method != "GET":
            return 403, {"message": "Resource not accessible by integration"}, {}
        if (method, address.path) == ("GET", "/user"):
            return (200, {"login": self.user}, {}) if self.user else (403, {"message": "Resource not accessible"}, {})
        if address.path == "/repos/acme/frob/issues/7/comments":
            if method == "GET":
                page = int(parse_qs(address.query).get("page", ["1"])[0])
                chunk = self.comments[(page - 1) * self.page_size:page * self.page_size]
                more = len(self.comments) > page * self.page_size
                link = {"Link": f'<{self.url}/repos/acme/frob/issues/7/comments?per_page=100&page={page + 1}>; '
                                'rel="next"'} if more else {}
                return 200, chunk, link
            if method == "POST":
                self.next_id += 1
                comment = {"id": self.next_id, "body": body["body"], "user": {"login": self.user or
                                                                             "github-actions[bot]"}}
                self.comments.append(comment)
                return 201, comment, {}
        found = re.fullmatch(r"/repos/acme/frob/issues/comments/(\d+)", address.path)
        if found and method == "PATCH":
            comment = next(c for c in self.comments if c["id"] == int(found.group(1)))
            comment["body"] = body["body"]
            return 200, comment, {}
        return 404, {"message": "Not Found"}, {}

    def bodies(self) -> dict[int, str]:
        return {c["id"]: c["body"] for c in self.comments}


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    state = FakeGitHub()

    class Handler(BaseHTTPRequestHandler):
        def handle_one(self, method: str) -> None:
            assert self.headers["Authorization"] == "Bearer t0k"
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            status, answer, headers = state.answer(method, self.path, body)
            data = json.dumps(answer).encode()
            self.send_response(status)
            for key, value in {**headers, "Content-Type": "application/json",
                               "Content-Length": str(len(data))}.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 - the handler's protocol
            self.handle_one("GET")

        def do_POST(self) -> None:  # noqa: N802
            self.handle_one("POST")

        def do_PATCH(self) -> None:  # noqa: N802
            self.handle_one("PATCH")

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    # polled every 0.05 s, not the default 0.5 s: `shutdown` waits for the next poll, after every test
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


# ---------------------------------------------------------------- the runner


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="session")
def action_bin(tmp_path_factory: pytest.TempPathFactory, pip_settings: dict[str, str]) -> Path:
    """The Python that setup-python would provide, with specdiff installed by the action's own install step.

    setup-python's Python comes with pip and, from 3.12, without setuptools: a virtualenv seeded with pip alone
    (virtualenv links its bundled pip in, where `venv` runs ensurepip, an install of pip, for 4-6 s of CPU). The
    step's commands run as written, with the settings of `pip_settings` (tests/conftest.py)."""
    venv = tmp_path_factory.mktemp("runner-python")
    subprocess.run([sys.executable, "-m", "virtualenv", "--quiet", "--no-setuptools", "--no-periodic-update",
                    str(venv)], check=True)
    action_path = copy_working_tree(tmp_path_factory.mktemp("action"))
    step = next(s for s in ACTION["runs"]["steps"] if s.get("name") == "Install specdiff")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(PATH=f"{venv / 'bin'}{os.pathsep}{env['PATH']}", **pip_settings,
               **{k: substitute(str(v), {"github": {"action_path": str(action_path)}}) for k, v in step["env"].items()})
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], env=env,
                          cwd=tmp_path_factory.mktemp("elsewhere"), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("specdiff, version ")
    return venv / "bin"


@dataclass
class Run:
    steps: dict[str, subprocess.CompletedProcess[str] | None]  # None: skipped
    outputs: dict[str, str]
    summary: str

    def log(self, step: str) -> str:
        done = self.steps[step]
        assert done is not None, f"{step} was skipped"
        return done.stdout


def run_action(work: Path, temp: Path, bin_dir: Path, inputs: dict[str, str], payload: dict[str, Any],
               api: FakeGitHub | None = None) -> Run:
    """Every step of the composite action in order; a step runs when the ones before succeeded and its `if:`
    holds, as GitHub decides; setup-python is the venv in `bin_dir`."""
    temp.mkdir(parents=True, exist_ok=True)
    event_path = temp / "event.json"
    event_path.write_text(json.dumps(payload))
    summary = temp / "step_summary.md"
    summary.write_text("")
    context: dict[str, Any] = {
        "inputs": {k: v.get("default", "") for k, v in ACTION["inputs"].items()} | inputs,
        "github": {"event": payload, "repository": "acme/frob", "token": "t0k", "action_path": str(ROOT)},
        "runner": {"temp": str(temp)}, "steps": {}}
    context["inputs"] = {k: substitute(str(v), context) for k, v in context["inputs"].items()}
    runner_env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "GITHUB_"))}
    runner_env.update(PATH=f"{bin_dir}{os.pathsep}{runner_env['PATH']}", RUNNER_TEMP=str(temp),
                      GITHUB_EVENT_PATH=str(event_path), GITHUB_EVENT_NAME="pull_request",
                      GITHUB_REPOSITORY="acme/frob", GITHUB_WORKSPACE=str(work), GITHUB_STEP_SUMMARY=str(summary),
                      GITHUB_API_URL=api.url if api else "http://127.0.0.1:9", GIT_CONFIG_NOSYSTEM="1")
    results: dict[str, subprocess.CompletedProcess[str] | None] = {}
    failed = False
    for step in ACTION["runs"]["steps"]:
        if "uses" in step or step["name"] == "Install specdiff":
            continue  # setup-python, and the install the module's venv already went through
        if failed or ("if" in step and not evaluate(step["if"], context)):
            results[step["name"]] = None
            continue
        output = temp / f"output-{len(results)}"
        output.write_text("")
        env = {**runner_env, "GITHUB_OUTPUT": str(output)}
        env.update({k: substitute(str(v), context) for k, v in (step.get("env") or {}).items()})
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=work,
                              env=env, capture_output=True, text=True, timeout=120)
        results[step["name"]] = done
        if "id" in step:
            context["steps"][step["id"]] = {"outputs": dict(line.partition("=")[::2]
                                                            for line in output.read_text().splitlines())}
        failed = done.returncode != 0
    outputs = {name: substitute(str(spec["value"]), context) for name, spec in ACTION["outputs"].items()}
    return Run(results, outputs, summary.read_text())


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, str]:
    """origin holds v1 on main and v2 on feature (two specs); the workspace is a shallow clone of feature only."""
    seed = tmp_path / "seed"
    seed.mkdir()
    git(seed, "init", "-q", "-b", "main")
    (seed / "api").mkdir()
    shutil.copy(SPECS / "frob-old.yaml", seed / "api" / "openapi.yaml")
    shutil.copy(SPECS / "frob-old.yaml", seed / "api" / "admin.yaml")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "v1")
    base = git(seed, "rev-parse", "HEAD").strip()
    git(seed, "checkout", "-q", "-b", "feature")
    shutil.copy(SPECS / "frob-new.yaml", seed / "api" / "openapi.yaml")
    git(seed, "commit", "-q", "-am", "v2")
    git(tmp_path, "clone", "-q", "--bare", str(seed), "origin.git")
    git(tmp_path, "clone", "-q", "--depth=1", "--branch=feature", f"file://{tmp_path / 'origin.git'}", "work")
    return tmp_path / "work", base


def pull_request(base: str) -> dict[str, Any]:
    return {"pull_request": {"number": 7, "base": {"sha": base}}}


def test_first_run_comments_and_the_next_run_updates_that_comment(
        workspace: tuple[Path, str], tmp_path: Path, action_bin: Path, github: FakeGitHub) -> None:
    work, base = workspace
    github.comments = [{"id": 1, "body": "LGTM", "user": {"login": "alice"}},
                       {"id": 2, "body": f"{MARKER}\nforged by someone else", "user": {"login": "mallory"}},
                       {"id": 3, "body": "<!-- specdiff: api/admin.yaml -->\nanother spec", "user": {"login":
                                                                                                     "specdiff-bot"}}]
    with pytest.raises(subprocess.CalledProcessError):  # the shallow clone does not have the base yet
        git(work, "cat-file", "-e", f"{base}^{{commit}}")
    first = run_action(work, tmp_path / "run1", action_bin, {"old": "api/openapi.yaml"}, pull_request(base), github)

    assert first.outputs == {"breaking": "3", "dangerous": "0", "safe": "1", "exit-code": "1",
                             "report-dir": str(tmp_path / "run1" / "specdiff")}
    log = first.log("Compare with the base")
    assert (f"specdiff {base}:api/openapi.yaml -> api/openapi.yaml (spec: OpenAPI (no Kubernetes markers); "
            "policy: openapi; response readers: validating; as of ") in log  # the runner's date in UTC
    assert "\n::error file=api/openapi.yaml,line=" in log  # annotations on the spec's lines
    assert first.summary.startswith("<!-- specdiff -->\n### specdiff: API compatibility\n")
    assert "`schema.property.removed`" in first.summary
    report = tmp_path / "run1" / "specdiff" / "specdiff.md"
    assert first.log("Comment on the pull request") == "posted comment 101\n"
    listing = ("GET", "/repos/acme/frob/issues/7/comments")  # two pages of two and one
    assert github.calls == [("GET", "/user"), listing, listing, ("POST", "/repos/acme/frob/issues/7/comments")]
    preview = subprocess.run([action_bin / "specdiff", "github-comment", "--spec", "api/openapi.yaml", "--report",
                              str(report), "--print"], capture_output=True, text=True, check=True).stdout
    assert github.bodies()[101] == preview  # what --print shows is what the pull request got, byte for byte
    assert preview.startswith(f"{MARKER}\n### specdiff: API compatibility\n")
    assert preview.count("<!--") == 1
    verdict = first.steps["Verdict"]
    assert verdict is not None and verdict.returncode == 1
    assert verdict.stdout == "::error title=specdiff::findings at or above 'breaking'; see the job summary\n"

    github.calls.clear()
    second = run_action(work, tmp_path / "run2", action_bin, {"old": "api/openapi.yaml"}, pull_request(base), github)
    assert second.log("Comment on the pull request") == "updated comment 101\n"
    assert github.calls[-1] == ("PATCH", "/repos/acme/frob/issues/comments/101")
    assert [c["id"] for c in github.comments] == [1, 2, 3, 101]
    assert github.bodies()[2] == f"{MARKER}\nforged by someone else"  # not the token's user's: never touched
    assert github.bodies()[3] == "<!-- specdiff: api/admin.yaml -->\nanother spec"


def test_two_specs_keep_two_comments(workspace: tuple[Path, str], tmp_path: Path, action_bin: Path,
                                     github: FakeGitHub) -> None:
    work, base = workspace
    for number, spec in enumerate(["api/openapi.yaml", "api/admin.yaml", "api/openapi.yaml"]):
        run = run_action(work, tmp_path / f"run{number}", action_bin, {"old": spec}, pull_request(base), github)
        assert run.steps["Comment on the pull request"] is not None
    assert [(c["id"], c["body"].split("\n")[0]) for c in github.comments] == [
        (101, MARKER), (102, "<!-- specdiff: api/admin.yaml -->")]
    assert "No changes found." in github.bodies()[102]
    assert [call for call in github.calls if call[0] != "GET"] == [
        ("POST", "/repos/acme/frob/issues/7/comments"), ("POST", "/repos/acme/frob/issues/7/comments"),
        ("PATCH", "/repos/acme/frob/issues/comments/101")]


def test_the_actions_token_has_no_user_so_its_bot_is_the_author(
        workspace: tuple[Path, str], tmp_path: Path, action_bin: Path, github: FakeGitHub) -> None:
    work, base = workspace
    github.user = None  # GET /user answers 403, as it does for the job's GITHUB_TOKEN
    github.comments = [{"id": 5, "body": f"{MARKER}\nold", "user": {"login": "github-actions[bot]"}}]
    run = run_action(work, tmp_path / "run", action_bin, {"old": "api/openapi.yaml"}, pull_request(base), github)
    assert run.log("Comment on the pull request") == "updated comment 5\n"


def test_a_read_only_token_warns_and_the_summary_keeps_the_report(
        workspace: tuple[Path, str], tmp_path: Path, action_bin: Path, github: FakeGitHub) -> None:
    work, base = workspace
    github.read_only = True
    run = run_action(work, tmp_path / "run", action_bin, {"old": "api/openapi.yaml"}, pull_request(base), github)
    assert run.log("Comment on the pull request") == (
        "::warning title=specdiff::could not comment on the pull request (POST repos/acme/frob/issues/7/comments: "
        "HTTP 403; a pull request from a fork gets a read-only token); the job summary has the report\n")
    assert "`schema.property.removed`" in run.summary and github.comments == []
    assert run.steps["Verdict"] is not None and run.steps["Verdict"].returncode == 1


def test_a_failed_comparison_replaces_the_earlier_verdict(
        workspace: tuple[Path, str], tmp_path: Path, action_bin: Path, github: FakeGitHub) -> None:
    work, base = workspace
    shutil.copy(SPECS / "frob-old.yaml", work / "api" / "openapi.yaml")  # the pull request changes nothing yet
    first = run_action(work, tmp_path / "run1", action_bin, {"old": "api/openapi.yaml"}, pull_request(base), github)
    assert first.outputs["exit-code"] == "0"
    assert "No changes found." in github.bodies()[101]

    (work / "api" / "openapi.yaml").write_text("openapi: 3.0.3\npaths: {/a: [\n")
    second = run_action(work, tmp_path / "run2", action_bin, {"old": "api/openapi.yaml"}, pull_request(base), github)
    assert second.outputs["exit-code"] == "2"
    error = (tmp_path / "run2" / "specdiff.err").read_text().strip()
    assert error.startswith("specdiff: error: api/openapi.yaml:3")
    assert second.log("Compare with the base") == f"::error title=specdiff::{error}\n"
    assert second.log("Comment on the pull request") == "updated comment 101\n"
    body = github.bodies()[101]
    assert body.startswith(f"{MARKER}\n### specdiff: API compatibility\n\n**The comparison failed**, so this pull "
                           "request was not checked: `specdiff: error: api/openapi.yaml:3")
    assert "No changes found." not in body
    assert second.summary == body  # the job summary got `github-comment --print`: the very comment
    verdict = second.steps["Verdict"]
    assert verdict is not None and verdict.returncode == 2


def test_the_job_summary_holds_the_whole_report_and_the_comment_is_cut(
        workspace: tuple[Path, str], tmp_path: Path, action_bin: Path, github: FakeGitHub) -> None:
    work, base = workspace
    spec = yaml.safe_load((SPECS / "frob-new.yaml").read_text())
    for i in range(600):
        spec["paths"][f"/frobs-{i:04d}/" + "long-path-segment/" * 8] = {"get": {"responses": {"200": {
            "description": "ok"}}}}
    (work / "api" / "openapi.yaml").write_text(yaml.safe_dump(spec))
    run = run_action(work, tmp_path / "run", action_bin, {"old": "api/openapi.yaml"}, pull_request(base), github)
    assert run.outputs["safe"] == "601"
    comment = github.bodies()[101]
    assert len(comment.encode("utf-16-le")) // 2 <= 65536
    assert "**Truncated:**" in comment
    assert "**Truncated:**" not in run.summary
    assert 65536 < len(run.summary.encode()) <= 1024 * 1024
    assert sum(line.startswith("| `operation.added`") for line in run.summary.splitlines()) == 601


def test_fail_on_never_and_a_configured_select(workspace: tuple[Path, str], tmp_path: Path, action_bin: Path,
                                               github: FakeGitHub) -> None:
    work, base = workspace
    (work / "specdiff.yaml").write_text("select: [operation]\n")
    run = run_action(work, tmp_path / "run", action_bin, {"old": "api/openapi.yaml", "fail-on": "never",
                                                           "config": "specdiff.yaml"}, pull_request(base), github)
    assert (run.outputs["exit-code"], run.outputs["breaking"], run.outputs["safe"]) == ("0", "1", "1")
    assert run.log("Verdict") == "no findings at or above 'never'\n"


def test_comment_false_and_pushes_post_nothing(workspace: tuple[Path, str], tmp_path: Path, action_bin: Path,
                                               github: FakeGitHub) -> None:
    work, base = workspace
    run = run_action(work, tmp_path / "off", action_bin, {"old": "api/openapi.yaml", "comment": "false"},
                     pull_request(base), github)
    assert run.steps["Comment on the pull request"] is None
    run = run_action(work, tmp_path / "push", action_bin, {"old": "api/openapi.yaml"}, {"before": base}, github)
    assert run.outputs["exit-code"] == "1" and run.steps["Comment on the pull request"] is None
    assert github.calls == []


def test_no_base_revision_is_an_error(workspace: tuple[Path, str], tmp_path: Path, action_bin: Path) -> None:
    work, _ = workspace
    run = run_action(work, tmp_path / "run", action_bin, {"old": "api/openapi.yaml"}, {})
    assert run.steps["Fetch the base revision"] is not None and run.steps["Fetch the base revision"].returncode == 2
    assert "no base revision" in run.log("Fetch the base revision")
    assert run.steps["Compare with the base"] is None


def test_a_pull_request_cannot_shadow_the_base_revision_with_a_file(
        workspace: tuple[Path, str], tmp_path: Path, action_bin: Path, github: FakeGitHub) -> None:
    """The PR adds a folder named `<base sha>:api` holding its own spec: the action still reads the base from git,
    so the breaking changes are found and the gate fails."""
    work, base = workspace
    (work / f"{base}:api").mkdir()
    shutil.copy(work / "api" / "openapi.yaml", work / f"{base}:api" / "openapi.yaml")
    run = run_action(work, tmp_path / "run", action_bin, {"old": "api/openapi.yaml"}, pull_request(base), github)
    assert (run.outputs["breaking"], run.outputs["exit-code"]) == ("3", "1")
    verdict = run.steps["Verdict"]
    assert verdict is not None and verdict.returncode == 1


def test_the_new_inputs_reach_the_command(workspace: tuple[Path, str], tmp_path: Path, action_bin: Path) -> None:
    work, base = workspace
    inputs = {"old": "api/openapi.yaml", "annotate-level": "breaking", "match-path": "/frobs\n/new\n",
              "exclude-path": "^/new$", "include-docs": "true"}
    run = run_action(work, tmp_path / "run", action_bin, inputs, {"before": base})
    assert (run.outputs["breaking"], run.outputs["dangerous"], run.outputs["safe"]) == ("2", "0", "0")
    annotations = [line for line in run.log("Compare with the base").splitlines() if line.startswith("::")]
    assert annotations and all(line.startswith("::error ") for line in annotations)  # no notice for the safe ones
    sarif = json.loads((tmp_path / "run" / "specdiff" / "specdiff.sarif").read_text())
    assert {r["level"] for r in sarif["runs"][0]["results"]} == {"error"}

    gate = run_action(work, tmp_path / "gate", action_bin, {"old": "api/openapi.yaml", "check-version": "true"},
                      {"before": base})
    assert (gate.outputs["exit-code"], gate.outputs["breaking"]) == ("0", "3")  # only the gate's findings fail
    assert "`release.version-unparsable`" in gate.summary  # info.version "1" is no semantic version


# ---------------------------------------------------------------- the workflows docs/github-action.md documents


def documented_workflows() -> list[dict[str, Any]]:
    page = (ROOT / "docs" / "github-action.md").read_text(encoding="utf-8")
    blocks = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", page, re.S)]
    return [block for block in blocks if isinstance(block, dict) and "jobs" in block]


@dataclass
class Job:
    conclusion: str  # success | failure
    outcomes: list[tuple[str, str]]  # (step, success | failure | skipped), in order
    uploads: list[dict[str, Any]]  # the SARIF documents upload-sarif was given


def run_workflow(workflow: dict[str, Any], work: Path, temp: Path, bin_dir: Path, payload: dict[str, Any],
                 api: FakeGitHub) -> Job:
    """A documented workflow's one job, step by step as GitHub runs it: a step runs while no step before it failed
    (`if:` adds to that), `continue-on-error` records the failure as the step's outcome without failing the job.
    The action is action.yml run by `run_action`; checkout is the workspace; upload-sarif reads the file."""
    (job,) = workflow["jobs"].values()
    context: dict[str, Any] = {"github": {"event": payload}, "steps": {}}
    failed = False
    outcomes: list[tuple[str, str]] = []
    uploads: list[dict[str, Any]] = []
    for number, step in enumerate(job["steps"]):
        name, uses = step.get("name") or step["uses"], step.get("uses", "")
        if failed or ("if" in step and not evaluate(step["if"], context)):
            outcomes.append((name, "skipped"))
            continue
        outputs: dict[str, str] = {}
        if uses.startswith("actions/checkout@"):
            ok = True
        elif uses.startswith("acme/specdiff@"):
            inputs = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in step["with"].items()}
            run = run_action(work, temp / f"step-{number}", bin_dir, inputs, payload, api)
            ok = all(done is None or done.returncode == 0 for done in run.steps.values())
            outputs = run.outputs
        elif uses.startswith("github/codeql-action/upload-sarif@"):
            sarif = Path(substitute(step["with"]["sarif_file"], context))
            ok = sarif.is_file()
            if ok:
                uploads.append(json.loads(sarif.read_text(encoding="utf-8")))
        else:
            assert not uses and "${{" not in step["run"], f"{name}: unknown action, or an expression in a script"
            env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "GITHUB_"))}
            env.update({k: substitute(str(v), context) for k, v in (step.get("env") or {}).items()})
            done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=work,
                                  env=env, capture_output=True, text=True, timeout=60)
            ok = done.returncode == 0
        outcome = "success" if ok else "failure"
        if "id" in step:
            context["steps"][step["id"]] = {"outputs": outputs, "outcome": outcome}
        outcomes.append((name, outcome))
        failed = failed or (not ok and not step.get("continue-on-error"))
    return Job("failure" if failed else "success", outcomes, uploads)


def test_the_page_documents_two_workflows() -> None:
    assert [sorted(w["jobs"]["specdiff"]["permissions"]) for w in documented_workflows()] == [
        ["contents", "pull-requests"], ["contents", "pull-requests", "security-events"]]


def test_every_documented_workflow_fails_a_breaking_pull_request_and_passes_a_clean_one(
        workspace: tuple[Path, str], tmp_path: Path, action_bin: Path, github: FakeGitHub) -> None:
    work, base = workspace
    breaking = [run_workflow(w, work, tmp_path / f"breaking-{i}", action_bin, pull_request(base), github)
                for i, w in enumerate(documented_workflows())]
    assert [job.conclusion for job in breaking] == ["failure", "failure"]
    assert breaking[1].outcomes == [("actions/checkout@v4", "success"), ("acme/specdiff@COMMIT", "failure"),
                                    ("github/codeql-action/upload-sarif@v3", "success"),
                                    ("Fail on specdiff's verdict", "failure")]
    (sarif,) = breaking[1].uploads
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"schema.property.removed", "operation.removed"}

    shutil.copy(SPECS / "frob-old.yaml", work / "api" / "openapi.yaml")
    clean = [run_workflow(w, work, tmp_path / f"clean-{i}", action_bin, pull_request(base), github)
             for i, w in enumerate(documented_workflows())]
    assert [job.conclusion for job in clean] == ["success", "success"]
    assert clean[1].outcomes[-1] == ("Fail on specdiff's verdict", "skipped")
    assert [sarif["runs"][0]["results"] for sarif in clean[1].uploads] == [[]]


def test_the_sarif_workflow_fails_when_the_specs_cannot_be_compared(
        workspace: tuple[Path, str], tmp_path: Path, action_bin: Path, github: FakeGitHub) -> None:
    work, base = workspace
    (work / "api" / "openapi.yaml").write_text("openapi: 3.0.3\npaths: {/a: [\n")
    job = run_workflow(documented_workflows()[1], work, tmp_path / "run", action_bin, pull_request(base), github)
    assert job.conclusion == "failure"
    assert job.outcomes[2:] == [("github/codeql-action/upload-sarif@v3", "skipped"),
                                ("Fail on specdiff's verdict", "failure")]


def test_the_recipe_for_other_ci_systems_fails_a_breaking_change(workspace: tuple[Path, str], tmp_path: Path,
                                                                 action_bin: Path) -> None:
    """The page's shell recipe, its commands run in order in a shallow clone as another CI system would run them:
    the job fails (exit 1) on a breaking change, with the report written; a clean change passes."""
    page = (ROOT / "docs" / "github-action.md").read_text(encoding="utf-8")
    (script,) = re.findall(r"```sh\n(.*?)```", page, re.S)
    work, base = workspace
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "GITHUB_"))}
    env.update(PATH=f"{action_bin}{os.pathsep}{env['PATH']}", BASE_SHA=base, GIT_CONFIG_NOSYSTEM="1")

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "--noprofile", "--norc", "-e", "-c", script], cwd=work, env=env,
                              capture_output=True, text=True, timeout=120)

    done = run()
    assert done.returncode == 1, done.stderr
    assert "`schema.property.removed`" in (work / "report.md").read_text(encoding="utf-8")
    shutil.copy(SPECS / "frob-old.yaml", work / "api" / "openapi.yaml")
    assert run().returncode == 0
