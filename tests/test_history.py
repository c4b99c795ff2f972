"""`specdiff history`: each version read once, each consecutive pair compared, the timeline in every format."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

import specdiff
from specdiff import trace as tracing
from specdiff.cli import main
from specdiff.errors import InputError, UsageError
from specdiff.histories import History, Step, Trace
from specdiff.records import Level
from specdiff.release_train import given, runs, version_key
from specdiff.report.timeline import api_versions, render_history
from tests.conftest import CORPORA, ROOT, corpus, real_graphed, real_pair

SCHEMA = json.loads((ROOT / "tests" / "schemas" / "history.schema.json").read_text(encoding="utf-8"))
MODE = {"type": "string", "enum": ["Fast", "Slow"]}


def spec(properties: dict[str, Any]) -> str:
    return json.dumps({
        "openapi": "3.0.3", "info": {"title": "frob", "version": "1"},
        "paths": {"/frobs": {"get": {"responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Frobber"}}}}}}}},
        "components": {"schemas": {"Frobber": {"type": "object", "properties": properties}}},
    }, indent=1)


#: v1 -> v2 adds a property (safe), v2 -> v3 removes one that clients read (breaking), v3 -> v4 changes nothing
SERIES = {
    "frob-v1.json": spec({"mode": MODE, "size": {"type": "integer"}}),
    "frob-v2.json": spec({"mode": MODE, "size": {"type": "integer"}, "colour": {"type": "string"}}),
    "frob-v3.json": spec({"mode": MODE, "colour": {"type": "string"}}),
    "frob-v4.json": spec({"mode": MODE, "colour": {"type": "string"}}),
}
EXPECTED_STEPS = [
    ("v1", "v2", [("schema.property.added", "/components/schemas/Frobber/properties/colour")]),
    ("v2", "v3", [("schema.property.removed", "/components/schemas/Frobber/properties/size")]),
    ("v3", "v4", []),
]


@pytest.fixture
def series(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    for name, text in SERIES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return list(SERIES)


def history_cli(*args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(main, ["history", "--no-config", *args])
    return done.exit_code, done.stdout, done.stderr


def steps_of(envelope: dict[str, Any]) -> list[tuple[str, str, list[tuple[str, str]]]]:
    return [(step["old"], step["new"], [(f["rule"], f["pointer"]) for f in step["findings"]])
            for step in envelope["steps"]]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_each_step_has_exactly_its_findings(series: list[str], jobs: str) -> None:
    code, stdout, stderr = history_cli(*series, "--format", "json", "--jobs", jobs)
    assert (code, stderr) == (1, "")
    envelope = json.loads(stdout)
    jsonschema.validate(envelope, SCHEMA)
    assert steps_of(envelope) == EXPECTED_STEPS
    assert envelope["summary"] == {"breaking": 1, "dangerous": 0, "safe": 1, "versions": 4, "steps": 3,
                                   "unreadable": 0}
    assert [step["summary"] for step in envelope["steps"]] == [
        {"breaking": 0, "dangerous": 0, "safe": 1}, {"breaking": 1, "dangerous": 0, "safe": 0},
        {"breaking": 0, "dangerous": 0, "safe": 0}]


def test_a_step_reads_as_compare_reads_its_pair(series: list[str]) -> None:
    """The text format's step sections are the `specdiff OLD NEW` report of each pair, word for word."""
    code, stdout, _ = history_cli(*series)
    assert code == 1
    for old, new in zip(series, series[1:], strict=False):
        single = CliRunner().invoke(main, [old, new, "--no-config", "--color", "never"]).stdout
        assert single in stdout


def test_exit_codes_follow_fail_on(series: list[str]) -> None:
    assert history_cli(*series, "--format", "json")[0] == 1
    assert history_cli(*series, "--format", "json", "--fail-on", "never")[0] == 0
    assert history_cli(*series, "--format", "json", "--fail-on", "safe")[0] == 1
    assert history_cli(*series[:2], "--format", "json")[0] == 0  # only a safe step
    assert history_cli(*series[:2], "--format", "json", "--fail-on", "safe")[0] == 1


def test_same_inputs_same_bytes_whatever_the_jobs(series: list[str]) -> None:
    outputs = {name: {history_cli(*series, "--format", name, "--jobs", jobs)[1] for jobs in ("1", "2", "3")}
               for name in ("text", "markdown", "json", "html")}
    assert all(len(texts) == 1 for texts in outputs.values())


def test_an_unreadable_version_stops_the_history_naming_it(series: list[str], tmp_path: Path) -> None:
    (tmp_path / "frob-v2.json").write_text('{"openapi": "3.0.3", "paths": ', encoding="utf-8")
    code, stdout, stderr = history_cli(*series)
    assert (code, stdout) == (2, "")
    assert stderr.startswith("specdiff: error: frob-v2.json:") and stderr.count("\n") == 1


def test_keep_going_compares_the_other_steps_and_marks_the_version(series: list[str], tmp_path: Path) -> None:
    (tmp_path / "frob-v3.json").write_text("not: [a spec", encoding="utf-8")
    code, stdout, stderr = history_cli(*series, "--keep-going", "--format", "json", "--fail-on", "safe")
    assert (code, stderr) == (1, "")
    envelope = json.loads(stdout)
    jsonschema.validate(envelope, SCHEMA)
    assert steps_of(envelope) == [EXPECTED_STEPS[0], ("v2", "v3", []), ("v3", "v4", [])]
    assert [v["error"] is not None for v in envelope["versions"]] == [False, False, True, False]
    assert envelope["versions"][2]["error"].startswith("frob-v3.json:")
    assert [step["error"] for step in envelope["steps"]] == [
        None, "frob-v3.json could not be read", "frob-v3.json could not be read"]
    assert envelope["summary"]["unreadable"] == 1
    error = envelope["versions"][2]["error"]
    for name in ("text", "markdown", "html"):
        text = history_cli(*series, "--keep-going", "--format", name)[1]
        assert "unreadable" in text and "not compared" in text and "not compared: not" not in text.lower(), name
        assert (error.replace("'", "&#x27;") if name == "html" else error).split(":")[0] in text
    # without a breaking step left, the unreadable version alone does not fail the run
    assert history_cli(*series, "--keep-going", "--format", "json")[0] == 0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_stdin_is_read_once_for_every_job(series: list[str], jobs: str) -> None:
    """`-` is read by the command, not by the pool's workers, which have no stdin: run as users run it."""
    first, *rest = series
    done = subprocess.run([sys.executable, "-m", "specdiff", "history", "-", *rest, "--no-config", "--format", "json",
                           "--jobs", jobs], input=SERIES[first].encode(), capture_output=True, check=False)
    assert (done.returncode, done.stderr) == (1, b"")
    labels = ["-", *rest]  # the labels are the names given, as `-` has no part in common with the others
    assert steps_of(json.loads(done.stdout)) == [(old, new, rules) for old, new, (_, _, rules)
                                                 in zip(labels, labels[1:], EXPECTED_STEPS, strict=False)]


def test_keep_going_with_nothing_compared_is_an_error_not_a_pass(series: list[str], tmp_path: Path) -> None:
    """Every version unreadable: the history compared nothing, so it cannot pass a gate."""
    for name in series:
        (tmp_path / name).write_text("[1, 2", encoding="utf-8")
    code, stdout, stderr = history_cli(*series, "--keep-going")
    assert (code, stdout) == (2, "")
    assert stderr.startswith("specdiff: error: no two versions could be compared: frob-v1.json:1:")
    assert stderr.count("\n") == 1
    with pytest.raises(InputError, match=r"^no two versions could be compared: frob-v1\.json:"):
        specdiff.history(series, jobs=1, keep_going=True)


@pytest.mark.parametrize("jobs", [-1, 0, True, 1.5])
def test_the_api_refuses_a_count_of_jobs_that_is_none(series: list[str], jobs: Any) -> None:
    with pytest.raises(UsageError, match=f"^jobs must be a whole number of at least 1, not {jobs!r}$"):
        specdiff.history(series, jobs=jobs)


def test_every_format_renders_the_timeline(series: list[str]) -> None:
    history = specdiff.history(series, jobs=1, today=dt.date(2026, 1, 15))
    text = render_history(history, "text")
    assert text.splitlines()[:7] == [
        "specdiff history: 4 versions, 3 steps (spec: OpenAPI (no Kubernetes markers); policy: openapi; "
        "response readers: validating; as of 2026-01-15)", "",
        "step      breaking  dangerous       safe",
        "v1 → v2          0          0          1",
        "v2 → v3          1          0          0",
        "v3 → v4          0          0          0",
        "total            1          0          1"]
    assert "== step 2: v2 → v3 ==" in text
    markdown = render_history(history, "markdown")
    assert "| v2 → v3 | 1 | 0 | 0 |" in markdown and "### Step 2: v2 → v3" in markdown
    assert "#### Breaking changes" in markdown and "specdiff -->" not in markdown
    html = render_history(history, "html")
    assert html.startswith("<!DOCTYPE html>") and html.count('<section class="step"') == 3
    assert '<a href="#step-2">v2 → v3</a></td><td>1</td><td>0</td><td>0</td>' in html
    ids = [part.split('"')[0] for part in html.split(' id="')[1:]]
    assert len(ids) == len(set(ids))  # each step's parts keep ids of their own
    jsonschema.validate(json.loads(render_history(history, "json")), SCHEMA)


def crd(versions: list[dict[str, Any]]) -> str:
    schema = {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "size": {"type": "integer"}}}}}}
    return json.dumps({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "frobbers.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"kind": "Frobber", "plural": "frobbers", "singular": "frobber", "listKind": "FrobberList"},
                 "versions": [{**version, "schema": schema} for version in versions]}})


def test_api_versions_by_release_come_from_the_findings(tmp_path: Path) -> None:
    files = {
        "frob-v1.json": crd([{"name": "v1alpha1", "served": True, "storage": True}]),
        "frob-v2.json": crd([{"name": "v1alpha1", "served": True, "storage": False, "deprecated": True},
                             {"name": "v1beta1", "served": True, "storage": True}]),
        "frob-v3.json": crd([{"name": "v1alpha1", "served": False, "storage": False, "deprecated": True},
                             {"name": "v1beta1", "served": True, "storage": True}]),
        "frob-v4.json": crd([{"name": "v1beta1", "served": True, "storage": True}]),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    history = specdiff.history([tmp_path / name for name in files], jobs=1)
    assert [(r.label, r.introduced, r.deprecated, r.unserved, r.removed) for r in api_versions(history)] == [
        ("v2", ("example.com/v1beta1 Frobber",), ("example.com/v1alpha1 Frobber",), (), ()),
        ("v3", (), (), ("example.com/v1alpha1 Frobber",), ()),
        ("v4", (), (), (), ("example.com/v1alpha1 Frobber",))]
    envelope = json.loads(render_history(history, "json"))
    jsonschema.validate(envelope, SCHEMA)
    assert envelope["api_versions"][2] == {"release": "v4", "introduced": [], "deprecated": [], "unserved": [],
                                           "removed": ["example.com/v1alpha1 Frobber"]}
    assert "| v3 |  |  | example.com/v1alpha1 Frobber |  |" in render_history(history, "markdown")
    assert "    no longer served: example.com/v1alpha1 Frobber" in render_history(history, "text")


def test_an_openapi_history_has_no_api_version_table(series: list[str]) -> None:
    history = specdiff.history(series, jobs=1)
    assert api_versions(history) == []
    assert "API versions" not in render_history(history, "text") + render_history(history, "html")


def test_the_api_runs_the_pairs_on_any_executor(series: list[str]) -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        threaded = specdiff.history(series, executor=pool, jobs=2)
    pooled = specdiff.history(series, jobs=2)  # the default: a process pool
    assert threaded == pooled
    assert [(s.old.label, s.new.label, [(f.rule, f.change.pointer) for f in s.report.findings if s.report])
            for s in pooled.steps if s.report is not None] == EXPECTED_STEPS


def test_the_api_raises_the_one_line_error(series: list[str], tmp_path: Path) -> None:
    (tmp_path / "frob-v4.json").write_text("[1, 2", encoding="utf-8")
    with pytest.raises(InputError, match=r"^frob-v4\.json:"):
        specdiff.history(series, jobs=1)
    marked = specdiff.history(series, jobs=1, keep_going=True)
    assert [v.error is not None for v in marked.versions] == [False, False, False, True]


def test_runs_are_contiguous_cover_every_pair_and_balance_the_cost() -> None:
    assert runs([1.0] * 6, 2) == [range(0, 3), range(3, 5)]
    assert runs([1.0] * 3, 8) == [range(0, 1), range(1, 2)]
    assert runs([1.0] * 8, 3) == [range(0, 3), range(3, 6), range(6, 7)]
    assert runs([1.0] * 2, 1) == [range(0, 1)]
    # Kubernetes 1.11, 1.28, 1.30, 1.32, 1.35, 1.36 in MB: the first pair changes a quarter of the spec, so its
    # run takes one pair less
    assert runs([3.99, 2.95, 3.25, 3.35, 3.85, 4.11], 2) == [range(0, 2), range(2, 5)]


def test_tags_sort_as_versions() -> None:
    tags = ["v1.10.0", "v1.9.0", "v1.2.0", "v1.10.0-rc.1", "v1.10.1", "v2.0.0-beta.2", "v2.0.0-beta.10"]
    assert sorted(tags, key=version_key) == ["v1.2.0", "v1.9.0", "v1.10.0-rc.1", "v1.10.0", "v1.10.1",
                                             "v2.0.0-beta.2", "v2.0.0-beta.10"]


def test_versions_are_labelled_by_what_tells_them_apart() -> None:
    assert [v.label for v in given(["k8s/swagger-v1.11.json", "k8s/swagger-v1.28.json"])] == ["v1.11", "v1.28"]
    assert [v.label for v in given(["a/httproutes.v0.5.0.yaml", "a/httproutes.v1.0.0.yaml"])] == [
        "v0.5.0", "v1.0.0"]
    assert [v.label for v in given(["old.json", "new.yaml"])] == ["old.json", "new.yaml"]
    assert [v.label for v in given(["a/api.yaml", "a/api.yaml"])] == ["a/api.yaml", "a/api.yaml"]


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True).stdout


@pytest.fixture
def tagged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose api.json is committed three times (the first three of SERIES), tagged v1.9.0, v1.10.0
    and v1.11.0-rc.1; v1.2.0 tags a commit from before api.json existed."""
    if subprocess.run(["git", "--version"], capture_output=True).returncode != 0:
        pytest.skip("git is not installed")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "README").write_text("frob\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "start")
    git(repo, "tag", "v1.2.0")
    for name, tag in zip(list(SERIES)[:3], ("v1.9.0", "v1.10.0", "v1.11.0-rc.1"), strict=True):
        (repo / "api.json").write_text(SERIES[name], encoding="utf-8")
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", name)
        git(repo, "tag", tag)
    monkeypatch.chdir(repo)
    return repo


def test_tags_give_the_versions_sorted_as_versions(tagged: Path) -> None:
    code, stdout, stderr = history_cli("api.json", "--tags", "v1.*", "--format", "json")
    assert (code, stderr) == (1, "")
    envelope = json.loads(stdout)
    assert [v["label"] for v in envelope["versions"]] == ["v1.9.0", "v1.10.0", "v1.11.0-rc.1"]
    assert steps_of(envelope) == [("v1.9.0", "v1.10.0", EXPECTED_STEPS[0][2]),
                                  ("v1.10.0", "v1.11.0-rc.1", EXPECTED_STEPS[1][2])]


def test_a_working_tree_file_named_like_a_tag_cannot_shadow_it(tagged: Path) -> None:
    """`--tags` reads `TAG:./api.json` from git even when a folder named `v1.10.0:.` holds another api.json."""
    (tagged / "v1.10.0:.").mkdir()
    (tagged / "v1.10.0:." / "api.json").write_text(SERIES["frob-v1.json"], encoding="utf-8")
    code, stdout, stderr = history_cli("api.json", "--tags", "v1.*", "--format", "json")
    assert (code, stderr) == (1, "")
    envelope = json.loads(stdout)
    assert steps_of(envelope) == [("v1.9.0", "v1.10.0", EXPECTED_STEPS[0][2]),
                                  ("v1.10.0", "v1.11.0-rc.1", EXPECTED_STEPS[1][2])]


def test_revs_give_the_commits_that_changed_the_spec(tagged: Path) -> None:
    code, stdout, _ = history_cli("api.json", "--revs", "v1.9.0..main", "--format", "json")
    assert code == 1
    envelope = json.loads(stdout)
    assert envelope["versions"][0]["label"] == "v1.9.0"
    assert [rules for _, _, rules in steps_of(envelope)] == [rules for _, _, rules in EXPECTED_STEPS[:2]]
    assert history_cli("api.json", "--revs", "v1.9.0..main", "--tags", "v*")[0] == 2
    code, _, stderr = history_cli("api.json", "--tags", "v9.*")
    assert code == 2 and "--tags 'v9.*' gives 0 tag(s) holding api.json; a history needs two" in stderr


def test_tags_with_odd_numbers_sort_without_a_crash(tagged: Path) -> None:
    """`v1²` holds no ASCII digit after the 1, and a 5,000-digit number is past what Python turns into an int:
    both sort as tags like any other (`²` after `.`); git itself cannot resolve a name that long, so it holds no
    version of the file."""
    big = "v1." + "9" * 5000
    git(tagged, "tag", "v1²")
    head = git(tagged, "rev-parse", "HEAD").strip()
    with (tagged / ".git" / "packed-refs").open("a", encoding="utf-8") as refs:  # too long a name for a file
        refs.write(f"{head} refs/tags/{big}\n")
    code, stdout, stderr = history_cli("api.json", "--tags", "v1*", "--format", "json")
    assert (code, stderr) == (1, "")
    assert [v["label"] for v in json.loads(stdout)["versions"]] == ["v1.9.0", "v1.10.0", "v1.11.0-rc.1", "v1²"]


def test_gateway_api_steps_equal_the_pairwise_comparisons() -> None:
    """Every HTTPRoute standard-channel release, read once each and compared on a process pool: each step has
    exactly the findings `specdiff OLD NEW` gives for that pair."""
    folder = corpus("crds/gateway-api")
    files = sorted((p for p in folder.glob("httproutes.standard.*.yaml")), key=lambda p: version_key(p.name))
    assert len(files) >= 3, f"expected the httproutes.standard releases in {CORPORA}"
    code, stdout, stderr = history_cli(*map(str, files), "--format", "json", "--jobs", "2")
    assert (code, stderr) == (1, "")
    envelope = json.loads(stdout)
    jsonschema.validate(envelope, SCHEMA)
    for step, old, new in zip(envelope["steps"], files, files[1:], strict=False):
        single = json.loads(CliRunner().invoke(main, [str(old), str(new), "--no-config", "--format", "json"]).stdout)
        assert step["findings"] == single["findings"], (old.name, new.name)
    assert envelope["api_versions"] == [
        {"release": "v0.6.0", "introduced": [], "deprecated": ["gateway.networking.k8s.io/v1alpha2 HTTPRoute"],
         "unserved": [], "removed": []},
        {"release": "v0.8.0", "introduced": [], "deprecated": [],
         "unserved": ["gateway.networking.k8s.io/v1alpha2 HTTPRoute"], "removed": []},
        {"release": "v1.0.0", "introduced": ["gateway.networking.k8s.io/v1 HTTPRoute"], "deprecated": [],
         "unserved": [], "removed": ["gateway.networking.k8s.io/v1alpha2 HTTPRoute"]}]


@pytest.mark.dask
def test_a_local_dask_cluster_runs_the_history_as_the_default_executor(series: list[str]) -> None:
    distributed = pytest.importorskip("distributed", reason="the dask extra (specdiff[dask]) is not installed")
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        on_dask = specdiff.history(series, executor=client.get_executor(), jobs=2)
    assert on_dask == specdiff.history(series, jobs=2)
    assert [(s.old.label, s.new.label, [(f.rule, f.change.pointer) for f in s.report.findings])
            for s in on_dask.steps if s.report is not None] == EXPECTED_STEPS


def trace_of(envelope: dict[str, Any]) -> list[tuple[str, str, str | None, str]]:
    return [(e["release"], e["kind"], e["level"], e["text"]) for e in envelope["trace"]["events"]]


def test_trace_follows_one_field_from_the_first_version_to_its_removal(series: list[str]) -> None:
    code, stdout, _ = history_cli(*series, "--format", "json", "--trace", "Frobber.size")
    envelope = json.loads(stdout)
    jsonschema.validate(envelope, SCHEMA)
    assert envelope["trace"]["present_in"] == ["v1", "v2"]
    assert trace_of(envelope) == [("v1", "present", None, "present"), ("v3", "removed", None, "removed"),
                                  ("v3", "changed", "breaking", "property Frobber.size removed")]


def test_trace_of_a_field_added_later_and_of_an_operation(series: list[str]) -> None:
    envelope = json.loads(history_cli(*series, "--format", "json", "--trace", "Frobber.colour")[1])
    assert trace_of(envelope) == [("v2", "appeared", None, "appeared"),
                                  ("v2", "changed", "safe", "optional property Frobber.colour added")]
    envelope = json.loads(history_cli(*series, "--format", "json", "--trace", "GET /frobs")[1])
    assert (envelope["trace"]["present_in"], trace_of(envelope)) == (
        ["v1", "v2", "v3", "v4"], [("v1", "present", None, "present")])
    assert json.loads(history_cli(*series, "--format", "json")[1])["trace"] is None


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_trace_through_wrong_typed_keywords_is_no_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        jobs: str) -> None:
    """`allOf: 5` and `properties` holding a list hold no field: the trace finds Frobber.size where the keywords
    say it is, in this process and in the pool's workers alike."""
    monkeypatch.chdir(tmp_path)
    plain = json.loads(spec({"size": {"type": "integer"}}))
    odd = [json.loads(spec({"size": {"type": "integer"}})), json.loads(spec({}))]
    odd[0]["components"]["schemas"]["Frobber"]["allOf"] = 5
    odd[1]["components"]["schemas"]["Frobber"]["properties"] = [{"size": {"type": "integer"}}]
    for name, doc in (("a.json", plain), ("b.json", odd[0]), ("c.json", odd[1])):
        (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
    code, stdout, stderr = history_cli("a.json", "b.json", "c.json", "--format", "json", "--trace", "Frobber.size",
                                       "--jobs", jobs)
    assert (code, stderr) == (1, "")
    assert trace_of(json.loads(stdout)) == [
        ("a", "present", None, "present"), ("c", "removed", None, "removed"),
        ("c", "changed", "breaking", "property Frobber.size removed")]


def test_trace_follows_a_ref_through_a_list_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Frobber.size refers to the first of a list of schemas: the field is there in both versions, deprecated in
    the second, as the item the pointer names says."""
    monkeypatch.chdir(tmp_path)
    for name, deprecated in (("a.json", False), ("b.json", True)):
        doc = json.loads(spec({"size": {"$ref": "#/components/schemas/Sizes/oneOf/0"}}))
        doc["components"]["schemas"]["Sizes"] = {"oneOf": [{"type": "integer", "deprecated": deprecated},
                                                           {"type": "string"}]}
        (tmp_path / name).write_text(json.dumps(doc), encoding="utf-8")
    code, stdout, stderr = history_cli("a.json", "b.json", "--format", "json", "--trace", "Frobber.size")
    assert stderr == ""
    envelope = json.loads(stdout)
    assert envelope["trace"]["present_in"] == ["a", "b"]
    assert trace_of(envelope) == [("a", "present", None, "present"), ("b", "deprecated", None, "deprecated")]


def test_trace_is_in_every_format(series: list[str]) -> None:
    history = specdiff.history(series, jobs=1, trace="Frobber.size")
    assert "Trace of Frobber.size\n  v1: present\n  v3: removed\n  v3: breaking: property Frobber.size removed\n" \
        in render_history(history, "text")
    assert "### Trace of `Frobber.size`\n\n| release | what happened |\n|---|---|\n| v1 | present |\n" \
        "| v3 | removed |\n| v3 | breaking: property Frobber.size removed |\n" in render_history(history, "markdown")
    assert '<tr class="breaking"><td>v3</td><td>breaking: property Frobber.size removed</td></tr>' in \
        render_history(history, "html")


@pytest.mark.parametrize("thing", ["Frobber.shape", "Gadget", "GET /gadgets", "apps/v1", "Frobber.mode[]"])
def test_trace_of_what_no_version_holds_is_an_error_naming_it(series: list[str], thing: str) -> None:
    code, stdout, stderr = history_cli(*series, "--trace", thing)
    assert (code, stdout) == (2, "")
    assert stderr == (f"specdiff: error: --trace {thing!r}: no version holds it; name a group-version "
                      "(apps/v1beta1), an operation (GET /pets) or a type and field (PodSpec.workloadRef), as "
                      "reports do\n")
    assert history_cli(*series, "--trace", " ")[0] == 2


KUBERNETES_V3 = tuple(f"kubernetes/v3/v{v}" for v in ("1.23", "1.24", "1.27", "1.30", "1.35"))
KUBERNETES_V2 = tuple(f"kubernetes/v2/swagger-v{v}.json" for v in ("1.11", "1.28", "1.30", "1.32", "1.35", "1.36"))
#: the traces of one series on one worker (`--dist loadgroup`), which graphs its releases once for all of them
ON_V3_WORKER = pytest.mark.xdist_group(name="kubernetes-v3")
ON_V2_WORKER = pytest.mark.xdist_group(name="kubernetes-v2")


def kubernetes_trace(releases: tuple[str, ...], thing: str, grouped: bool = True) -> Trace:
    """The trace `history` gives over Kubernetes releases, from the graphs and reports of this run's cache: each
    release is graphed and each pair compared once for every trace of the series (and every other test that
    reads the pair), not once per trace. `test_trace_by_the_whole_name_of_a_type` checks it against `history`."""
    versions = given([str(corpus(release)) for release in releases])
    steps = tuple(Step(versions[i], versions[i + 1], real_pair(old, new, grouped))
                  for i, (old, new) in enumerate(zip(releases, releases[1:], strict=False)))
    presences = {i: tracing.locate(real_graphed(release).graph, thing) for i, release in enumerate(releases)}
    return tracing.trace_of(thing, History(tuple(versions), steps), presences)


@ON_V2_WORKER
def test_trace_of_apps_v1beta1_agrees_with_the_kubernetes_deprecation_guide() -> None:
    """apps/v1beta1 was removed in 1.16; the corpus has 1.11 and then 1.28, so the removal shows at 1.28."""
    trace = kubernetes_trace(KUBERNETES_V2, "apps/v1beta1")
    assert trace.present_in == ("v1.11",)
    assert [(e.release, e.kind, e.level, e.text) for e in trace.events] == [
        ("v1.11", "present", None, "present in apps/v1beta1 (beta)"),
        ("v1.28", "removed", None, "removed from apps/v1beta1"),
        ("v1.28", "changed", Level.BREAKING, "group-version apps/v1beta1 removed (ControllerRevision, Deployment, "
         "DeploymentRollback, Scale, StatefulSet), with 47 operations and 41 definitions")]


@ON_V2_WORKER
def test_trace_of_pod_spec_workload_ref_appears_in_1_35_and_goes_in_1_36() -> None:
    trace = kubernetes_trace(KUBERNETES_V2, "PodSpec.workloadRef")
    assert trace.present_in == ("v1.35",)
    assert [(e.release, e.kind, e.level, e.text) for e in trace.events] == [
        ("v1.35", "appeared", None, "appeared in core/v1 (stable)"),
        ("v1.35", "changed", Level.SAFE,
         "optional property PodSpec.workloadRef (used by 9 kinds: CronJob, DaemonSet, Deployment, ...) added "
         "(core/v1)"),
        ("v1.36", "removed", None, "removed from core/v1"),
        ("v1.36", "changed", Level.DANGEROUS,  # it refers to the Workload object, which only v1alpha1 serves
         "property PodSpec.workloadRef (used by 9 kinds: CronJob, DaemonSet, Deployment, ...) removed (core/v1)")]


def test_trace_of_the_httproute_filter_type_over_the_gateway_api_tags() -> None:
    """The standard channel's filter types per release notes: ResponseHeaderModifier and URLRewrite reached the
    standard channel by v0.8.0 (v0.7.0 is not in the corpus), CORS by v1.6.1; v1 (GA) came in v1.0.0."""
    folder = corpus("crds/gateway-api")
    files = sorted((str(p) for p in folder.glob("httproutes.standard.*.yaml")), key=lambda p: version_key(p))
    history = specdiff.history(files, jobs=2, trace="HTTPRoute.spec.rules[].filters[].type")
    assert history.trace is not None
    gw = "gateway.networking.k8s.io"
    assert [(e.release, e.kind, e.level, e.text) for e in history.trace.events] == [
        ("v0.5.0", "present", None, f"present in {gw}/v1alpha2 (alpha), {gw}/v1beta1 (beta)"),
        ("v0.6.0", "deprecated", None, f"deprecated in {gw}/v1alpha2"),
        ("v0.8.0", "unserved", None, f"no longer served in {gw}/v1alpha2"),
        ("v0.8.0", "changed", Level.BREAKING, "enum values `ResponseHeaderModifier` and `URLRewrite` added to "
         f"HTTPRoute.spec.rules[].filters[].type ({gw}/v1beta1)"),
        ("v1.0.0", "promoted", None, f"promoted, now also in {gw}/v1 (stable)"),
        ("v1.0.0", "removed", None, f"removed from {gw}/v1alpha2"),
        ("v1.6.1", "changed", Level.BREAKING, "enum value `CORS` added to HTTPRoute.spec.rules[].filters[].type "
         f"({gw}/{{v1, v1beta1}})")]


def test_a_run_holds_two_versions_at_a_time(series: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each version is dropped once both its pairs are compared: when a version is read, only the one before it
    is still alive, so the memory of a history does not grow with the number of versions."""
    import weakref

    from specdiff import release_train

    alive: list[weakref.ref[Any]] = []
    held: list[int] = []

    def watched(doc: Any, earlier: Any = None) -> Any:
        held.append(sum(1 for ref in alive if ref() is not None))
        version = graphed(doc, earlier)
        alive.append(weakref.ref(version))
        return version

    graphed = release_train.graphed
    monkeypatch.setattr(release_train, "graphed", watched)
    release_train.compare_run(series, 0, release_train.Settings())
    assert held == [0, 1, 1, 1]


def test_trace_across_an_unreadable_version_says_its_state_is_unknown(series: list[str], tmp_path: Path) -> None:
    """v3 cannot be read: the trace says so at v3, and whether Frobber.size went in v3 or v4 cannot be told, so
    its removal is dated since v2, the last version read; the steps beside v3 are not compared."""
    (tmp_path / "frob-v3.json").write_text("[1, 2", encoding="utf-8")
    history = specdiff.history(series, jobs=1, keep_going=True, trace="Frobber.size")
    assert history.trace is not None and history.trace.present_in == ("v1", "v2")
    assert [(e.release, e.kind, e.text) for e in history.trace.events] == [
        ("v1", "present", "present"), ("v3", "unknown", "state unknown: v3 could not be read"),
        ("v4", "removed", "removed (since v2)")]
    assert "Trace of Frobber.size\n  v1: present\n  v3: state unknown: v3 could not be read\n" \
        "  v4: removed (since v2)\n" in render_history(history, "text")
    (tmp_path / "frob-v1.json").write_text("[1, 2", encoding="utf-8")
    (tmp_path / "frob-v3.json").write_text(SERIES["frob-v3.json"], encoding="utf-8")
    first = specdiff.history(series, jobs=1, keep_going=True, trace="Frobber.size")
    assert first.trace is not None and [(e.release, e.kind, e.text) for e in first.trace.events] == [
        ("v1", "unknown", "state unknown: v1 could not be read"), ("v2", "present", "present"),
        ("v3", "removed", "removed"), ("v3", "changed", "property Frobber.size removed")]


def frob_api(statuses: dict[str, Any], properties: dict[str, Any]) -> str:
    """A Kubernetes-like API of one kind, Frob in frob.example.com/v1, with four operations answering `statuses`."""
    ok = {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Frob"}}}}
    answers = {"200": ok, **statuses}
    base = "/apis/frob.example.com/v1/frobs"
    return json.dumps({
        "openapi": "3.0.3", "info": {"title": "Kubernetes", "version": "v1"},
        "paths": {base: {"get": {"responses": answers}, "post": {"responses": answers}},
                  f"{base}/{{name}}": {"get": {"responses": answers}, "delete": {"responses": answers}}},
        "components": {"schemas": {"Frob": {
            "type": "object", "properties": properties,
            "x-kubernetes-group-version-kind": [{"group": "frob.example.com", "version": "v1", "kind": "Frob"}]}}},
    })


@pytest.fixture
def frob_api_pair(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """v1 -> v2 documents 401 and 403 on every operation and adds two optional properties to Frob."""
    size = {"size": {"type": "integer"}}
    (tmp_path / "frob-v1.json").write_text(frob_api({}, size), encoding="utf-8")
    (tmp_path / "frob-v2.json").write_text(frob_api(
        {"401": {"description": "Unauthorized"}, "403": {"description": "Forbidden"}},
        {**size, "colour": {"type": "string"}, "shape": {"type": "string"}}), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return ["frob-v1.json", "frob-v2.json"]


def test_trace_folds_a_releases_changes_of_one_rule_to_several_operations_or_places(frob_api_pair: list[str]) -> None:
    """Ungrouped, the eight new statuses (two on each of four operations) are one line, the two new properties
    another; the JSON keeps every event."""
    history = specdiff.history(frob_api_pair, jobs=1, grouped=False, trace="frob.example.com/v1")
    assert history.trace is not None
    gv = "(frob.example.com/v1)"
    assert [(e.release, e.kind, e.level, e.text) for e in history.trace.lines] == [
        ("v1", "present", None, "present in frob.example.com/v1 (stable)"),
        ("v2", "changed", Level.SAFE, "error, redirect or default status added in 4 operations: list, read, create "
         f"and delete of frobs {gv}"),
        ("v2", "changed", Level.SAFE, f"optional property added in 2 places: Frob.colour and Frob.shape {gv}")]
    assert [e.text for e in history.trace.events] == [
        "present in frob.example.com/v1 (stable)",
        *(f"status {status} documented for {op} /apis/frob.example.com/v1/frobs{item}"
          for op, item in (("GET", ""), ("POST", ""), ("DELETE", "/{name}"), ("GET", "/{name}"))
          for status in ("401", "403")),
        f"optional property Frob.colour added {gv}", f"optional property Frob.shape added {gv}"]
    assert "  v2: safe: optional property added in 2 places: Frob.colour and Frob.shape " \
        f"{gv}\n" in render_history(history, "text")
    envelope = json.loads(render_history(history, "json"))
    assert [(e["release"], e["kind"], e["level"], e["text"]) for e in envelope["trace"]["events"]] == [
        (e.release, e.kind, e.level.value if e.level else None, e.text) for e in history.trace.events]


def test_trace_of_one_operation_keeps_each_of_its_changes(frob_api_pair: list[str]) -> None:
    """Near miss: two statuses added to one operation are not several operations, so both lines stay."""
    one = "DELETE /apis/frob.example.com/v1/frobs/{name}"
    history = specdiff.history(frob_api_pair, jobs=1, grouped=False, trace=one)
    assert history.trace is not None
    assert [e.text for e in history.trace.lines] == [e.text for e in history.trace.events] == [
        "present in frob.example.com/v1 (stable)",
        "status 401 documented for DELETE /apis/frob.example.com/v1/frobs/{name}",
        "status 403 documented for DELETE /apis/frob.example.com/v1/frobs/{name}"]


@ON_V3_WORKER
def test_trace_of_autoscaling_v2beta1_folds_its_operations_at_1_24() -> None:
    """Ungrouped, 1.24 has 35 safe events at the group-version's operations; they read as one line per rule. Its
    removal in 1.26 shows at 1.27, the next release in the corpus."""
    trace = kubernetes_trace(KUBERNETES_V3, "autoscaling/v2beta1", grouped=False)
    hpa = "of horizontalpodautoscalers (autoscaling/v2beta1)"
    removed = [("v1.27", None, "removed from autoscaling/v2beta1"),
               ("v1.27", Level.BREAKING, "group-version autoscaling/v2beta1 removed (HorizontalPodAutoscaler), with "
                "15 operations and 18 definitions")]
    assert [(e.release, e.level, e.text) for e in trace.lines] == [
        ("v1.23", None, "present in autoscaling/v2beta1 (beta)"),
        ("v1.24", Level.SAFE, "error, redirect or default status added in 15 operations: list, watch, "
         "deletecollection, read, create, replace, patch and delete of horizontalpodautoscalers and 1 discovery "
         "document (autoscaling/v2beta1)"),
        ("v1.24", Level.SAFE, f"request media type added in 7 operations: deletecollection, create, replace, "
         f"patch and delete {hpa}"),
        ("v1.24", Level.SAFE, "request media type taken in by a wider range in 5 operations: deletecollection, "
         f"create, replace and delete {hpa}"),
        ("v1.24", Level.SAFE, f"PATCH lists the patch types instead of application/json in 2 operations: patch {hpa}"),
        *removed]
    gv = "/apis/autoscaling/v2beta1"
    named = f"{gv}/namespaces/{{namespace}}/horizontalpodautoscalers"
    watched = f"{gv}/watch/namespaces/{{namespace}}/horizontalpodautoscalers"

    def documented(*operations: str) -> list[str]:
        return [f"status 401 documented for {operation}" for operation in operations]

    def any_body(operation: str) -> list[str]:  # */* beside application/json, which it covers
        return [f"{operation} now also accepts */* request bodies",
                f"application/json request bodies are now accepted as part of */* by {operation}",
                *documented(operation)]

    def patch_types(operation: str) -> list[str]:  # the patch types instead of application/json
        kinds = ("apply-patch+yaml", "json-patch+json", "merge-patch+json", "strategic-merge-patch+json")
        accepts = [f"{operation} now also accepts application/{kind} request bodies" for kind in kinds]
        return [*accepts[:2], "application/json replaced by the patch types application/apply-patch+yaml, "
                "application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json "
                f"in the request bodies of {operation}", *accepts[2:], *documented(operation)]

    assert [(e.kind, e.level, e.text) for e in trace.events if e.release == "v1.24"] == [
        ("changed", Level.SAFE, text) for text in [
            *documented(f"GET {gv}/", f"GET {gv}/horizontalpodautoscalers"),
            *any_body(f"DELETE {named}"), *documented(f"GET {named}"), *any_body(f"POST {named}"),
            *any_body(f"DELETE {named}/{{name}}"), *documented(f"GET {named}/{{name}}"),
            *patch_types(f"PATCH {named}/{{name}}"), *any_body(f"PUT {named}/{{name}}"),
            *documented(f"GET {named}/{{name}}/status"), *patch_types(f"PATCH {named}/{{name}}/status"),
            *any_body(f"PUT {named}/{{name}}/status"),
            *documented(f"GET {gv}/watch/horizontalpodautoscalers", f"GET {watched}", f"GET {watched}/{{name}}")]]


@ON_V3_WORKER
def test_grouped_trace_of_autoscaling_v2beta1_folds_only_what_grouping_left_apart() -> None:
    """Grouped, a rule whose places share one message is one event already and keeps its message; the four
    media types each added to the patch operations (and */* to the others) fold into one line."""
    trace = kubernetes_trace(KUBERNETES_V3, "autoscaling/v2beta1")
    hpa = "of horizontalpodautoscalers (autoscaling/v2beta1)"
    assert [e.text for e in trace.lines if e.release == "v1.24"] == [
        "status 401 documented for 15 operations: list, watch, deletecollection, read, create, replace, patch and "
        "delete of horizontalpodautoscalers and 1 discovery document (autoscaling/v2beta1)",
        f"request media type added in 7 operations: deletecollection, create, replace, patch and delete {hpa}",
        "application/json request bodies are now accepted as part of */* by 5 operations: deletecollection, "
        f"create, replace and delete {hpa}",
        "application/json replaced by the patch types application/apply-patch+yaml, application/json-patch+json, "
        "application/merge-patch+json, application/strategic-merge-patch+json in the request bodies of 2 "
        f"operations: patch {hpa}"]
    patch = "2 operations: patch of horizontalpodautoscalers now also accept application/{} request bodies " \
        "(autoscaling/v2beta1)"
    assert [(e.kind, e.level, e.text) for e in trace.events if e.release == "v1.24"] == [
        ("changed", Level.SAFE, text) for text in [
            "status 401 documented for 15 operations: list, watch, deletecollection, read, create, replace, patch "
            "and delete of horizontalpodautoscalers and 1 discovery document (autoscaling/v2beta1)",
            "5 operations: deletecollection, create, replace and delete of horizontalpodautoscalers now also accept "
            "*/* request bodies (autoscaling/v2beta1)",
            "application/json request bodies are now accepted as part of */* by 5 operations: deletecollection, "
            f"create, replace and delete {hpa}",
            patch.format("apply-patch+yaml"), patch.format("json-patch+json"),
            "application/json replaced by the patch types application/apply-patch+yaml, application/json-patch+json, "
            "application/merge-patch+json, application/strategic-merge-patch+json in the request bodies of 2 "
            f"operations: patch {hpa}",
            patch.format("merge-patch+json"), patch.format("strategic-merge-patch+json")]]


@ON_V2_WORKER
def test_trace_by_the_whole_name_of_a_type() -> None:
    """Also the check that `kubernetes_trace` is the trace `history` gives: the one Kubernetes pair run through
    the whole command, two releases so as to cost one comparison."""
    thing = "io.k8s.api.core.v1.PodSpec.workloadRef"
    whole = specdiff.history([str(corpus(release)) for release in KUBERNETES_V2[-2:]], jobs=1, trace=thing)
    assert whole.trace is not None
    assert [(e.release, e.kind, e.level) for e in whole.trace.events] == [
        ("v1.35", "present", None), ("v1.36", "removed", None), ("v1.36", "changed", Level.DANGEROUS)]
    assert whole.trace == kubernetes_trace(KUBERNETES_V2[-2:], thing)


def test_summary_prints_the_table_and_the_trace_without_the_steps(series: list[str]) -> None:
    code, stdout, stderr = history_cli(*series, "--summary", "--trace", "Frobber.size", "--today", "2026-01-15")
    assert (code, stderr) == (1, "")
    assert stdout.splitlines()[2:] == [
        "step      breaking  dangerous       safe",
        "v1 → v2          0          0          1",
        "v2 → v3          1          0          0",
        "v3 → v4          0          0          0",
        "total            1          0          1", "",
        "Trace of Frobber.size", "  v1: present", "  v3: removed", "  v3: breaking: property Frobber.size removed"]
    code, markdown, _ = history_cli(*series, "--summary", "--format", "markdown")
    assert code == 1 and "| v2 → v3 | 1 | 0 | 0 |" in markdown and "### Step" not in markdown
    code, _, stderr = history_cli(*series, "--summary", "--format", "release-notes")
    assert code == 2 and stderr.strip().splitlines()[-1] == (
        "Error: --summary leaves out the steps, which are what --format release-notes shows")


def test_release_notes_of_a_history_give_each_release_newest_first(series: list[str]) -> None:
    """A changelog as readers know one: the API once, then a section per release, the newest on top, each
    written as `--format release-notes` writes one release, and nothing of the tool."""
    import cmarkgfm

    code, notes, stderr = history_cli(*series, "--format", "release-notes")
    assert (code, stderr) == (1, "")
    html = cmarkgfm.github_flavored_markdown_to_html(notes)
    assert re.findall(r"<h[12]>(.*?)</h[12]>", html) == [
        "Release notes: frob", "v4 (from v3)", "v3 (from v2)", "v2 (from v1)"]
    assert notes.split("## v3 (from v2)\n\n", 1)[1].split("\n\n## ", 1)[0].splitlines() == [
        "Changes from v2 to v3: 1 breaking, 0 dangerous, 0 safe.", "",
        "### Breaking changes (action required)", "", "#### /frobs",
        "- Property `Frobber.size` removed. Clients that read or write the property lose it."]
    assert "No API changes." in notes.split("## v3", 1)[0]
    assert "policy" not in notes and "schema.property" not in notes


def test_a_log_gets_a_plain_progress_line_every_few_seconds_and_quiet_silences_it(
        series: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """stderr is no terminal here (a CI log): lines, not a line rewritten in place; none from --quiet."""
    import specdiff.cli.commands

    code, _, stderr = history_cli(*series, "--jobs", "1")
    assert (code, stderr) == (1, "")  # a history shorter than the interval says nothing
    monkeypatch.setattr(specdiff.cli.commands, "PROGRESS_EVERY", 0.0)  # as often as the interpreter lets the clock run
    for jobs in ("1", "2"):  # in this process, and on a pool that reports only as each run comes back
        code, _, stderr = history_cli(*series, "--jobs", jobs)
        counts = [int(re.fullmatch(r"specdiff history: (\d)/3 steps compared", line).group(1))  # type: ignore[union-attr]
                  for line in stderr.splitlines()]
        assert code == 1 and counts and counts == sorted(counts), jobs  # lines, each saying how far it got
        assert "\r" not in stderr and "\033" not in stderr
        assert history_cli(*series, "--jobs", jobs, "--quiet")[::2] == (1, "")


def test_revs_label_a_commit_by_its_tag_else_its_date_and_subject(tagged: Path) -> None:
    (tagged / "api.json").write_text(SERIES["frob-v2.json"], encoding="utf-8")
    git(tagged, "commit", "-q", "-am", "Bring the size back")
    short = git(tagged, "rev-parse", "--short", "HEAD").strip()
    day = git(tagged, "log", "-1", "--format=%cs").strip()
    code, stdout, _ = history_cli("api.json", "--revs", "v1.9.0..main", "--format", "json")
    assert code == 1
    assert [v["label"] for v in json.loads(stdout)["versions"]] == [
        "v1.9.0", "v1.10.0", "v1.11.0-rc.1", f"{day} Bring the size back ({short})"]
    code, text, _ = history_cli("api.json", "--revs", "v1.9.0..main", "--summary")
    assert f"v1.11.0-rc.1 → {day} Bring the size back ({short})" in text
