"""Specs split across files as users write them: `$ref`s followed wherever bundlers follow them, on disk and at
git revisions, and a file that differs where nothing was reported is said, never "No changes found"."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from specdiff.cli import main
from specdiff.diff.operations import OperationDiffer
from specdiff.graph.model import Operation
from specdiff.graph.refs import unchanged_files
from specdiff.load import load
from specdiff.pipeline import graphed

ROOT = """\
openapi: 3.0.3
info: {title: sizes, version: "1"}
paths:
  /v2/sizes:
    get:
      $ref: resources/sizes/sizes_list.yml
"""
OPERATION = """\
operationId: sizes_list
responses:
  '200':
    description: The sizes
    content:
      application/json:
        schema:
          type: object
          properties:
            disk:
              $ref: models/disk_info.yml
"""
DISK = """\
type: object
properties:
  type:
    type: string
    description: The type of disk.
    enum: [local, {member}, scratch]
"""
#: the three files of one version: the root, the operation it refers to, the schema the operation refers to
FILES = ("root.yaml", "resources/sizes/sizes_list.yml", "resources/sizes/models/disk_info.yml")

ADDED = ("schema.enum.value-added", "breaking", "/properties/type/enum/1")
REMOVED = ("schema.enum.value-removed", "dangerous", "/properties/type/enum")


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")


def version(member: str, operation: str = OPERATION, description: str = "The type of disk.") -> dict[str, str]:
    return dict(zip(FILES, (ROOT, operation, DISK.replace("{member}", member).replace("The type of disk.",
                                                                                       description)), strict=True))


def cli(*args: str) -> tuple[int, dict[str, object], str]:
    result = CliRunner().invoke(main, ["compare", "--format", "json", "--no-config", "--", *args])
    return result.exit_code, json.loads(result.stdout) if result.stdout else {}, result.stderr


def findings(report: dict[str, object]) -> list[tuple[str, str, str]]:
    return [(f["rule"], f["level"], f["pointer"]) for f in report["findings"]]  # type: ignore[attr-defined]


def test_an_enum_member_replaced_behind_an_operation_ref_is_found(tmp_path: Path) -> None:
    """`get: {$ref: resources/sizes/sizes_list.yml}` is the operation, as Redocly and swagger-cli bundle it."""
    write(tmp_path / "old", version("remote"))
    write(tmp_path / "new", version("boot"))
    code, report, err = cli(str(tmp_path / "old/root.yaml"), str(tmp_path / "new/root.yaml"))
    assert (code, err) == (1, "")
    assert findings(report) == [ADDED, REMOVED]
    assert [f["location"]["label"] for f in report["findings"]] == [  # type: ignore[attr-defined]
        "GET /v2/sizes response 200: disk.type"] * 2


def two_files_away(tmp_path: Path) -> None:
    """The sizes operation's file and size.yml are the same on both sides, disk_info.yml behind them is not; the
    regions operation's files reach none of it."""
    size = "type: object\nproperties:\n  disk:\n    $ref: disk_info.yml\n"
    region = "type: object\nproperties: {slug: {type: string}}\n"
    regions = OPERATION.replace("sizes_list", "regions_list").replace("disk_info.yml", "region.yml")
    through_size = OPERATION.replace("disk_info.yml", "size.yml")
    root = ROOT + "  /v2/regions:\n    get:\n      $ref: resources/regions/regions_list.yml\n"
    for side, member in (("old", "remote"), ("new", "boot")):
        write(tmp_path / side, {**version(member, through_size), "root.yaml": root,
                                "resources/sizes/models/size.yml": size,
                                "resources/regions/regions_list.yml": regions,
                                "resources/regions/models/region.yml": region})


def test_a_change_two_files_away_is_found_through_files_that_did_not_change(tmp_path: Path) -> None:
    """Equal text in a file that did not change is taken as unchanged only when no file it leads to changed."""
    two_files_away(tmp_path)
    code, report, _ = cli(str(tmp_path / "old/root.yaml"), str(tmp_path / "new/root.yaml"))
    assert (code, findings(report)) == (1, [ADDED, REMOVED])
    assert [f["location"]["label"] for f in report["findings"]] == [  # type: ignore[attr-defined]
        "GET /v2/sizes response 200: disk.disk.type"] * 2


def test_the_files_taken_as_unchanged_are_those_that_lead_to_no_changed_file(tmp_path: Path) -> None:
    """What the differ may skip: the regions operation's two files, not the sizes files in front of the change."""
    two_files_away(tmp_path)
    old, new = (graphed(load(str(tmp_path / side / "root.yaml"))).graph.normal.resolver for side in ("old", "new"))
    assert sorted(unchanged_files(old, new, ())) == ["resources/regions/models/region.yml",
                                                    "resources/regions/regions_list.yml"]


def test_the_operation_written_in_unchanged_files_is_skipped_and_the_one_in_front_of_the_change_is_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The differ takes the regions operation as unchanged without comparing it; the sizes operation, whose files
    are equal but lead to the changed one, is compared."""
    two_files_away(tmp_path)
    asked: dict[str, bool] = {}
    real = OperationDiffer._in_unchanged_files

    def recorded(self: OperationDiffer, old: Operation, new: Operation) -> bool:
        asked[new.key] = real(self, old, new)
        return asked[new.key]

    monkeypatch.setattr(OperationDiffer, "_in_unchanged_files", recorded)
    cli(str(tmp_path / "old/root.yaml"), str(tmp_path / "new/root.yaml"))
    assert asked == {"GET /v2/regions": True, "GET /v2/sizes": False}


@pytest.mark.parametrize(("written", "label"), [("then: {$ref: M.yaml}", "<then>.a"),
                                               ("unevaluatedProperties: {$ref: M.yaml}", "{}.a"),
                                               ("dependentSchemas: {x: {$ref: M.yaml}}", "<if x>.a")])
def test_a_file_whose_ref_the_graph_does_not_follow_is_not_taken_as_unchanged(tmp_path: Path, written: str,
                                                                              label: str) -> None:
    """A.yaml is the same on both sides and refers to M.yaml, which changed, under a keyword the graph does not
    walk (the differ reads it later): A.yaml leads to a file not read while graphing, so its equal text is not
    taken as an unchanged schema. B.yaml changes too, so that not every file is equal."""
    root = ('openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n' + "".join(
        f"  /{name.lower()}:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        f"          content:\n            application/json:\n              schema: {{$ref: {name}.yaml}}\n"
        for name in ("A", "B")))
    for side, kind in (("old", "string"), ("new", "integer")):
        write(tmp_path / side, {"root.yaml": root, "A.yaml": f"type: object\n{written}\n",
                                "M.yaml": f"properties:\n  a: {{type: {kind}}}\n", "B.yaml": f"type: {kind}\n"})
    code, report, err = cli(str(tmp_path / "old/root.yaml"), str(tmp_path / "new/root.yaml"))
    assert (code, err) == (1, "")
    assert [(f["rule"], f["location"]["label"]) for f in report["findings"]] == [  # type: ignore[attr-defined]
        ("schema.type-changed", f"GET /a response 200: {label}"),
        ("schema.type-changed", "GET /b response 200")]


def test_a_description_changed_in_a_referenced_file_is_no_change(tmp_path: Path) -> None:
    write(tmp_path / "old", version("remote"))
    write(tmp_path / "new", version("remote", description="The kind of disk."))
    code, report, _ = cli(str(tmp_path / "old/root.yaml"), str(tmp_path / "new/root.yaml"))
    assert (code, findings(report), report["notes"]) == (0, [], [])


def test_an_extension_written_behind_a_ref_is_compared_through_it(tmp_path: Path) -> None:
    """A vendor extension whose value is written in a file of its own: the setting that changed is the change."""
    limited = OPERATION + "x-rate-limit:\n  $ref: limits.yml\n"
    write(tmp_path / "old", {**version("remote", limited), "resources/sizes/limits.yml": "per_minute: 60\n"})
    write(tmp_path / "new", {**version("remote", limited), "resources/sizes/limits.yml": "per_minute: 30\n"})
    code, report, _ = cli(str(tmp_path / "old/root.yaml"), str(tmp_path / "new/root.yaml"))
    assert findings(report) == [
        ("extension.changed", "safe", "/paths/~1v2~1sizes/get/x-rate-limit/per_minute")]


def test_code_samples_behind_refs_are_documentation(tmp_path: Path) -> None:
    """Redoc's code samples, each in a file of its own: compared through their refs with --include-docs only."""
    samples = OPERATION + "x-codeSamples:\n  - $ref: examples/curl.yml\n"
    write(tmp_path / "old", {**version("remote", samples), "resources/sizes/examples/curl.yml": "source: curl\n"})
    write(tmp_path / "new", {**version("remote", samples), "resources/sizes/examples/curl.yml": "source: curl -s\n"})
    old, new = str(tmp_path / "old/root.yaml"), str(tmp_path / "new/root.yaml")
    assert findings(cli(old, new)[1]) == []
    docs = CliRunner().invoke(main, ["compare", "--format", "json", "--no-config", "--include-docs", old, new])
    assert findings(json.loads(docs.stdout)) == [("docs.changed", "safe", "/paths/~1v2~1sizes/get")]


def test_a_ref_that_cannot_be_followed_is_said_in_a_note(tmp_path: Path) -> None:
    samples = OPERATION + "x-codeSamples:\n  - $ref: examples/missing.yml\n"
    write(tmp_path / "old", version("remote", samples))
    write(tmp_path / "new", version("remote", samples))
    code, report, _ = cli(str(tmp_path / "old/root.yaml"), str(tmp_path / "new/root.yaml"))
    where = "resources/sizes/sizes_list.yml:13:5: $ref 'examples/missing.yml': no such file: not followed, so " \
            "what it points at is not compared"
    assert (code, findings(report)) == (0, [])
    assert report["notes"] == [f"old: {tmp_path}/old/{where}", f"new: {tmp_path}/new/{where}"]


def test_a_path_items_own_extension_behind_its_ref_is_compared(tmp_path: Path) -> None:
    item = "x-rate-limit: {limit}\nget:\n  $ref: sizes_list.yml\n"
    root = ROOT.replace("    get:\n      $ref: resources/sizes/sizes_list.yml", "    $ref: resources/sizes/item.yml")
    for side, limit in (("old", "5"), ("new", "10")):
        write(tmp_path / side, {**version("remote"), "root.yaml": root,
                                "resources/sizes/item.yml": item.replace("{limit}", limit)})
    code, report, _ = cli(str(tmp_path / "old/root.yaml"), str(tmp_path / "new/root.yaml"))
    assert (code, findings(report)) == (0, [("extension.changed", "safe", "/x-rate-limit")])


def test_a_file_that_differs_where_no_rule_looks_is_reported_not_passed(tmp_path: Path) -> None:
    """A webhook's own extension, written in its file, is nothing the comparison reads: the guard says so, and
    the text report never says "No changes found"."""
    hook = "x-rate-limit: {limit}\npost:\n  responses: {'200': {description: ok}}\n"
    root = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\nwebhooks:\n  sized: {$ref: hooks/sized.yml}\n"
    for side, limit in (("old", "5"), ("new", "10")):
        write(tmp_path / side, {"root.yaml": root, "hooks/sized.yml": hook.replace("{limit}", limit)})
    code, report, _ = cli(str(tmp_path / "old/root.yaml"), str(tmp_path / "new/root.yaml"))
    assert (code, findings(report)) == (0, [("reference.file-unreported", "dangerous", "/x-rate-limit")])
    assert report["findings"][0]["message"] == (  # type: ignore[index]
        "hooks/sized.yml changed at /x-rate-limit, where no rule reports what the change does")
    text = CliRunner().invoke(main, ["--no-config", str(tmp_path / "old/root.yaml"),
                                     str(tmp_path / "new/root.yaml")]).stdout
    assert "No changes found" not in text and "reference.file-unreported" in text


def test_the_documents_own_extension_behind_a_ref_is_compared(tmp_path: Path) -> None:
    """Redocly's tag groups written in a file of their own, referred to from the root."""
    root = ROOT + "x-tagGroups:\n  $ref: tag_groups.yml\n"
    for side, tags in (("old", "[Sizes]"), ("new", "[Sizes, Droplets]")):
        write(tmp_path / side, {**version("remote"), "root.yaml": root,
                                "tag_groups.yml": f"- name: Compute\n  tags: {tags}\n"})
    code, report, _ = cli(str(tmp_path / "old/root.yaml"), str(tmp_path / "new/root.yaml"))
    assert (code, findings(report)) == (0, [("extension.changed", "safe", "/x-tagGroups/0/tags/1")])


@pytest.mark.parametrize(("ref", "error"), [
    ("ops/missing.yml", "spec.yaml:5:5: $ref 'ops/missing.yml': no such file"),
    ("'#/paths/~1a/get'", "spec.yaml:5:5: $ref cycle with no schema in it: /paths/~1a/get -> /paths/~1a/get"),
    ("'#/info/title'", "spec.yaml:2:8: an operation must be a mapping"),
    ("../outside.yml", "spec.yaml:5:5: $ref '../outside.yml' leaves the spec's folder (refused)"),
])
def test_an_operation_ref_that_leads_nowhere_is_a_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   ref: str, error: str) -> None:
    (tmp_path / "outside.yml").write_text("responses: {}\n")
    (tmp_path / "api").mkdir()
    (tmp_path / "api/spec.yaml").write_text(
        f"openapi: 3.0.3\ninfo: {{title: t, version: '1'}}\npaths:\n  /a:\n    get:\n      $ref: {ref}\n")
    monkeypatch.chdir(tmp_path / "api")
    result = CliRunner().invoke(main, ["--no-config", "spec.yaml", "spec.yaml"])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"specdiff: error: {error}\n")


# -- the same three files at git revisions ---------------------------------------------------------------------


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True).stdout


def _disk_type_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose split spec is committed twice: v1, then a commit that replaces a disk type in the
    referenced schema only."""
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    git(repo, "init", "-q", "-b", "main")
    write(repo / "spec", version("remote"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "v1")
    write(repo / "spec", version("boot"))
    git(repo, "commit", "-q", "-am", "a disk type replaced")
    return repo


@pytest.mark.skipif(subprocess.run(["git", "--version"], capture_output=True).returncode != 0,
                    reason="git is not installed")
def test_the_split_spec_at_two_revisions_reads_every_file_at_its_revision(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the referenced schema changes in the commit; the working tree holds a third version that must not
    be read."""
    repo = _disk_type_replaced(tmp_path, monkeypatch)
    write(repo / "spec", version("network"))
    monkeypatch.chdir(repo / "spec")
    code, report, err = cli("HEAD^:./root.yaml", "HEAD:./root.yaml")
    assert (code, err, findings(report)) == (1, "", [ADDED, REMOVED])
    assert report["findings"][0]["new"] == "boot"  # type: ignore[index]
    git(repo, "add", "-A")  # the index: what is staged, read through one git process that sees it
    code, report, _ = cli("HEAD:./root.yaml", ":./root.yaml")
    assert report["findings"][0]["new"] == "network"  # type: ignore[index]


# -- a history over a split spec --------------------------------------------------------------------------------


@pytest.mark.skipif(subprocess.run(["git", "--version"], capture_output=True).returncode != 0,
                    reason="git is not installed")
def test_a_history_of_a_split_spec_has_every_commit_that_changed_a_file_it_reaches(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five commits change the API, three of them only in referenced files; a sixth changes a file outside the
    spec's folder and is left out, named in a note."""
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    git(repo, "init", "-q", "-b", "main")
    write(repo / "spec", version("remote"))
    write(repo, {"README.md": "sizes\n"})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "tag", "base")
    steps = [("spec/resources/sizes/models/disk_info.yml", "remote", "boot"),  # referenced only
             ("spec/root.yaml", "title: sizes", "title: disk sizes"),  # the root only
             ("spec/resources/sizes/sizes_list.yml", "operationId: sizes_list", "operationId: list_sizes"),
             ("README.md", "sizes", "the sizes API"),  # outside the spec's folder
             ("spec/resources/sizes/models/disk_info.yml", "scratch", "network"),  # referenced only
             ("spec/root.yaml", "  /v2/sizes:", "  /v2/disk-sizes:")]  # the root only
    for number, (name, before, after) in enumerate(steps, 1):
        text = (repo / name).read_text(encoding="utf-8")
        assert before in text
        (repo / name).write_text(text.replace(before, after), encoding="utf-8")
        git(repo, "commit", "-q", "-am", f"step {number}")
    commits = git(repo, "rev-list", "--reverse", "--abbrev-commit", "base..HEAD").split()
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(main, ["history", "--no-config", "--format", "json", "spec/root.yaml",
                                       "--revs", "base..HEAD"])
    assert result.stderr == ""
    train = json.loads(result.stdout)
    jsonschema.validate(train, json.loads((Path(__file__).parent / "schemas/history.schema.json").read_text()))
    labels = {commit: f"{git(repo, 'log', '-1', '--format=%cs', commit).strip()} step {number} ({commit})"
              for number, commit in enumerate(commits, 1)}
    assert [v["label"] for v in train["versions"]] == ["base", *(labels[c] for c in commits[:3] + commits[4:])]
    assert train["notes"] == [f"1 commit of base..HEAD left out, as it changes nothing under spec: {commits[3]}"]
    assert [[f["rule"] for f in step["findings"]] for step in train["steps"]] == [
        ["schema.enum.value-added", "schema.enum.value-removed"], [], ["operation.id-changed"],
        ["schema.enum.value-added", "schema.enum.value-removed"], ["operation.removed", "operation.added"]]
    text = CliRunner().invoke(main, ["history", "--no-config", "spec/root.yaml", "--revs", "base..HEAD",
                                     "--path-filter", "spec/root.yaml"]).stdout
    assert f"note: 4 commits of base..HEAD left out, as they change nothing under spec/root.yaml: {commits[0]}, " \
           f"{commits[2]}, {commits[3]}, {commits[4]}" in text


# -- the pre-commit hook's command on a staged fragment ---------------------------------------------------------


@pytest.mark.skipif(subprocess.run(["git", "--version"], capture_output=True).returncode != 0,
                    reason="git is not installed")
def test_a_staged_fragment_checks_the_specs_that_reach_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the referenced schema is staged: the spec above it that reaches it is compared in its place, and a
    staged file no spec reaches is said, not refused as "not an OpenAPI document"."""
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    git(repo, "init", "-q", "-b", "main")
    write(repo / "spec", {**version("remote"), "resources/unused.yml": "type: string\n"})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "v1")
    write(repo / "spec", {**version("boot"), "resources/unused.yml": "type: integer\n"})
    git(repo, "add", "-A")
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(main, ["staged", "--no-config", "spec/resources/sizes/models/disk_info.yml",
                                       "spec/resources/unused.yml"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == ("specdiff: note: spec/resources/unused.yml: not an OpenAPI document or CRD, and no staged "
                        "spec refers to it; not compared")
    assert lines[1].startswith("specdiff HEAD:./spec/root.yaml -> :./spec/root.yaml ")
    assert "Enum value `boot` added to GET /v2/sizes response 200: disk.type" in result.stdout
    assert "not an OpenAPI" not in result.stderr


# -- the Python API reads git inputs from the repository it is given ---------------------------------------------


@pytest.mark.skipif(subprocess.run(["git", "--version"], capture_output=True).returncode != 0,
                    reason="git is not installed")
def test_the_python_api_reads_git_inputs_from_the_repository_given(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from a folder outside any repository: `repo=` says where `REV:path` is read, for compare and history."""
    import specdiff
    from specdiff.errors import InputError

    repo = _disk_type_replaced(tmp_path, monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    report = specdiff.compare("HEAD^:spec/root.yaml", "HEAD:spec/root.yaml", repo=repo)
    assert [(f.rule, f.change.pointer) for f in report.findings] == [
        (ADDED[0], ADDED[2]), (REMOVED[0], REMOVED[2])]
    train = specdiff.history(["spec/root.yaml"], revs="HEAD^..HEAD", repo=repo, jobs=1)
    day = git(repo, "log", "-1", "--format=%cs").strip()
    short = [git(repo, "rev-parse", "--short", rev).strip() for rev in ("HEAD^", "HEAD")]
    assert [v.label for v in train.versions] == [f"{day} v1 ({short[0]})", f"{day} a disk type replaced ({short[1]})"]
    assert [f.rule for f in train.findings] == [ADDED[0], REMOVED[0]]
    with pytest.raises(InputError, match=r"^HEAD\^:spec/root.yaml: no such file$"):  # without it, read from here
        specdiff.compare("HEAD^:spec/root.yaml", "HEAD:spec/root.yaml")
