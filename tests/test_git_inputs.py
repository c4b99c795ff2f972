"""`REV:path` inputs read from a throwaway git repository: files, $refs at the same revision, folders, the index."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import specdiff.load.git
from specdiff.cli import main
from specdiff.errors import InputError
from specdiff.load import Limits, load

pytestmark = pytest.mark.skipif(subprocess.run(["git", "--version"], capture_output=True).returncode != 0,
                                reason="git is not installed")


def spec(properties: dict[str, Any], ref: str | None = None) -> str:
    frobber: dict[str, Any] = {"$ref": ref} if ref else {"type": "object", "properties": properties}
    return json.dumps({
        "openapi": "3.0.3", "info": {"title": "frob", "version": "1"},
        "paths": {"/frobs": {"get": {"responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Frobber"}}}}}}}},
        "components": {"schemas": {"Frobber": frobber}},
    }, indent=1)


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True)
    return done.stdout


def put(repo: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """v1 committed (tagged v1), the working tree edited: mode gains Auto, size goes, a folder changes."""
    root = tmp_path / "repo"
    root.mkdir()
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    git(root, "init", "-q", "-b", "main")
    mode = {"type": "string", "enum": ["Fast", "Slow"]}
    put(root, {
        "api/openapi.yaml": spec({"mode": mode, "size": {"type": "integer"}}),
        "api/ref.yaml": spec({}, ref="common/frobber.yaml"),
        "api/common/frobber.yaml": json.dumps({"type": "object", "properties": {"mode": mode}}),
        "api/v3/apis__frob.io__v1_openapi.json": spec({"mode": mode}),
        "api/v3/api__v1_openapi.json": spec({"size": {"type": "integer"}}),
        "api/v3/README.md": "not a spec",
    })
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "v1")
    git(root, "tag", "v1")
    auto = {"type": "string", "enum": ["Fast", "Slow", "Auto"]}
    put(root, {
        "api/openapi.yaml": spec({"mode": auto}),
        "api/common/frobber.yaml": json.dumps({"type": "object", "properties": {"mode": auto}}),
        "api/v3/apis__frob.io__v1_openapi.json": spec({"mode": auto}),
    })
    monkeypatch.chdir(root)
    return root


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["compare", "--format", "json", "--no-config", "--", *args])
    return result.exit_code, result.stdout, result.stderr


def findings(stdout: str) -> list[tuple[str, str, str]]:
    return [(f["rule"], f["level"], f["pointer"]) for f in json.loads(stdout)["findings"]]


ENUM = ("schema.enum.value-added", "breaking", "/components/schemas/Frobber/properties/mode/enum/2")
SIZE = ("schema.property.removed", "breaking", "/components/schemas/Frobber/properties/size")


def test_file_at_a_revision_against_the_working_tree(repo: Path) -> None:
    code, out, err = cli("v1:api/openapi.yaml", "api/openapi.yaml")
    assert (code, err) == (1, "")
    assert findings(out) == [ENUM, SIZE]
    assert json.loads(out)["old"]["name"] == "v1:api/openapi.yaml"
    code, out, _ = cli("HEAD:api/openapi.yaml", "main:api/openapi.yaml")
    assert (code, findings(out)) == (0, [])


def test_refs_to_other_files_are_read_at_the_same_revision(repo: Path) -> None:
    """The old side's common/frobber.yaml must come from v1, not from the edited working tree."""
    code, out, _ = cli("v1:api/ref.yaml", "api/ref.yaml")
    assert code == 1
    assert [(rule, level) for rule, level, _ in findings(out)] == [("schema.enum.value-added", "breaking")]
    doc = load("v1:api/ref.yaml")
    assert doc.reader is not None
    text = doc.reader(repo.resolve() / "api" / "common" / "frobber.yaml", "v1:api/common/frobber.yaml")
    assert json.loads(text)["properties"]["mode"]["enum"] == ["Fast", "Slow"]


def test_a_file_both_sides_hold_is_parsed_once(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A commit of a split spec changes few of the files its root reaches: one both sides hold (the same blob) is
    parsed once, and each side still gets data of its own, since the graph keys state by object identity."""
    git(repo, "commit", "-qam", "v2")  # common/frobber.yaml changes; ref.yaml, the root, does not
    monkeypatch.setattr(specdiff.load.git._Blobs, "_latest", None)  # no input read before (by an earlier test)
    parsed: list[str] = []
    parse = specdiff.load.git.parse_text
    monkeypatch.setattr(specdiff.load.git, "parse_text",
                        lambda text, name, limits: parsed.append(name) or parse(text, name, limits))
    code, out, _ = cli("v1:api/ref.yaml", "HEAD:api/ref.yaml")
    assert (code, findings(out)) == (1, [("schema.enum.value-added", "breaking", "/properties/mode/enum/2")])
    assert parsed == ["v1:api/ref.yaml", "v1:api/common/frobber.yaml", "HEAD:api/common/frobber.yaml"]
    old, new = load("v1:api/ref.yaml"), load("HEAD:api/ref.yaml")
    assert old.data == new.data and old.data is not new.data
    assert old.data["paths"] is not new.data["paths"]


def test_a_file_both_sides_hold_is_read_from_git_once(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A side that has read fewer files than the other looks its files up in their folders' listings: one
    request a folder, and the contents of only the files the other did not read (the same blob, the same text).
    Both roots are read first, then each side's files."""
    git(repo, "commit", "-qam", "v2")  # common/frobber.yaml changes; ref.yaml, the root, does not
    monkeypatch.setattr(specdiff.load.git._Blobs, "_latest", None)
    asked: list[str] = []
    ask = specdiff.load.git._Objects._ask
    monkeypatch.setattr(specdiff.load.git._Objects, "_ask",
                        lambda objects, command, name: asked.append(name) or ask(objects, command, name))
    code, out, _ = cli("v1:api/ref.yaml", "HEAD:api/ref.yaml")
    assert (code, findings(out)) == (1, [("schema.enum.value-added", "breaking", "/properties/mode/enum/2")])
    assert asked == ["v1:api/ref.yaml", "HEAD:api", "v1:api/common/frobber.yaml", "HEAD:api/common",
                     "HEAD:api/common/frobber.yaml"]


def test_directory_at_a_revision(repo: Path) -> None:
    doc = load("v1:api/v3")
    assert (doc.dialect, [gv for gv, _ in doc.parts]) == ("openapi-dir", ["core/v1", "frob.io/v1"])
    assert [part.name for _, part in doc.parts] == ["v1:api/v3/api__v1_openapi.json",
                                                    "v1:api/v3/apis__frob.io__v1_openapi.json"]
    old, new = dict(doc.parts)["frob.io/v1"], dict(load("api/v3").parts)["frob.io/v1"]
    enum = "/components/schemas/Frobber/properties/mode/enum"
    assert (old.dialect, old.format, old.locate(enum)) == ("openapi-3.0", "json", (32, 7))
    assert [d.data["components"]["schemas"]["Frobber"]["properties"]["mode"]["enum"] for d in (old, new)] == [
        ["Fast", "Slow"], ["Fast", "Slow", "Auto"]]


def test_the_index_is_the_empty_revision(repo: Path) -> None:
    assert cli("HEAD:api/openapi.yaml", ":api/openapi.yaml")[0] == 0  # nothing staged yet
    git(repo, "add", "api/openapi.yaml")
    code, out, _ = cli("HEAD:api/openapi.yaml", ":api/openapi.yaml")
    assert (code, findings(out)) == (1, [ENUM, SIZE])
    assert [gv for gv, _ in load(":api/v3").parts] == ["core/v1", "frob.io/v1"]
    assert [part.name for _, part in load(":api").parts] == [":api/openapi.yaml", ":api/ref.yaml"]  # not below


def test_paths_follow_git_from_a_subdirectory(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo / "api")
    code, out, _ = cli("v1:./openapi.yaml", "openapi.yaml")
    assert (code, findings(out)) == (1, [ENUM, SIZE])
    code, out, _ = cli("v1:api/openapi.yaml", "openapi.yaml")  # without ./ it is from the top, as in git
    assert (code, findings(out)) == (1, [ENUM, SIZE])


@pytest.mark.parametrize(("old", "message"), [
    ("nosuch:api/openapi.yaml",
     "specdiff: error: nosuch:api/openapi.yaml: no such file, and 'nosuch' is not a revision of the git "
     "repository here\n"),
    ("v1:api/missing.yaml", "specdiff: error: v1:api/missing.yaml: 'api/missing.yaml' does not exist at revision "
                            "'v1'\n"),
    (":api/untracked.yaml", "specdiff: error: :api/untracked.yaml: 'api/untracked.yaml' does not exist at the "
                            "index (nothing staged there)\n"),
    ("v1:api/v3/README.md", "specdiff: error: v1:api/v3/README.md:1:1: the document is a str, not a mapping\n"),
    ("v1:../outside.yaml", "specdiff: error: v1:../outside.yaml: path leaves the repository\n"),
    ("C:missing.yaml", "specdiff: error: C:missing.yaml: no such file\n"),
    ("--upload-pack=x:api/openapi.yaml", "specdiff: error: --upload-pack=x:api/openapi.yaml: no such file\n"),
])
def test_errors_are_one_line_exit_2(repo: Path, old: str, message: str) -> None:
    code, out, err = cli(old, "api/openapi.yaml")
    assert (code, out, err) == (2, "", message)


def test_a_ref_missing_at_the_revision(repo: Path) -> None:
    put(repo, {"api/ref2.yaml": spec({}, ref="common/new.yaml"), "api/common/new.yaml": "{}"})
    git(repo, "add", "api/ref2.yaml")
    git(repo, "commit", "-q", "-m", "ref2 without its target")
    code, _, err = cli("HEAD:api/ref2.yaml", "api/ref2.yaml")
    assert (code, err) == (2, "specdiff: error: HEAD:api/ref2.yaml:28:5: $ref 'common/new.yaml': "
                              "'api/common/new.yaml' does not exist at revision 'HEAD'\n")


def test_a_file_with_a_colon_in_its_name_is_written_dot_slash(repo: Path) -> None:
    """Revision syntax means git: `odd:name.yaml` is not guessed to be the file when `odd` is no revision."""
    put(repo, {"odd:name.yaml": spec({"mode": {"type": "string"}})})
    doc = load("./odd:name.yaml")
    assert (doc.name, doc.dialect, doc.notes) == ("./odd:name.yaml", "openapi-3.0", ())
    code, out, err = cli("odd:name.yaml", "api/openapi.yaml")
    assert (code, out, err) == (2, "", "specdiff: error: odd:name.yaml: 'odd' is not a revision of the git "
                                       "repository here; to read the file of that name, write ./odd:name.yaml\n")


def test_a_working_tree_file_named_like_a_revision_cannot_shadow_it(repo: Path) -> None:
    """A pull request adding `<base sha>:api/openapi.yaml`, a copy of its own spec, must not make the action's
    `"$BASE_SHA:$OLD_PATH"` compare the new spec with itself: git is read, and the report says a file was
    passed over."""
    sha = git(repo, "rev-parse", "HEAD").strip()
    for rev in (sha, "v1"):
        put(repo, {f"{rev}:api/openapi.yaml": (repo / "api/openapi.yaml").read_text(encoding="utf-8")})
        code, out, err = cli(f"{rev}:api/openapi.yaml", "api/openapi.yaml")
        assert (code, err, findings(out)) == (1, "", [ENUM, SIZE])
        assert json.loads(out)["notes"] == [
            f"old: {rev}:api/openapi.yaml is read from git ({rev}); the working-tree file of the same name is not "
            f"read: write ./{rev}:api/openapi.yaml to compare that file"]
        code, out, _ = cli(f"./{rev}:api/openapi.yaml", "api/openapi.yaml")
        assert (code, findings(out)) == (0, [])


def test_outside_a_repository_nothing_is_a_revision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError) as caught:
        load("HEAD:api/openapi.yaml")
    assert caught.value.one_line() == "HEAD:api/openapi.yaml: no such file"


def test_staged_command_compares_the_index_with_head(repo: Path) -> None:
    """The pre-commit hook: only what is staged counts; files HEAD lacks are new and skipped."""
    put(repo, {"api/brand-new.yaml": spec({"x": {"type": "string"}})})
    git(repo, "add", "api/brand-new.yaml")
    result = CliRunner().invoke(main, ["staged", "--no-config", "api/openapi.yaml", "api/brand-new.yaml"])
    assert (result.exit_code, result.stdout) == (0, "")  # the edit to openapi.yaml is not staged yet
    git(repo, "add", "api/openapi.yaml")
    result = CliRunner().invoke(main, ["staged", "--no-config", "--today", "2026-01-15", "api/openapi.yaml",
                                       "api/brand-new.yaml"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert [" ".join(line.split()) + (": " + lines[i + 1].strip() if line.startswith("break") else "")
            for i, line in enumerate(lines) if line.startswith(("specdiff ", "break"))
            ] == ["specdiff HEAD:./api/openapi.yaml -> :./api/openapi.yaml (spec: OpenAPI (no Kubernetes markers); "
                  "policy: openapi; response readers: validating; as of 2026-01-15)",
                  "breaking schema.enum.value-added: Enum value `Auto` added to Frobber.mode",
                  "breaking schema.property.removed: Property Frobber.size removed"]
    result = CliRunner().invoke(main, ["staged", "--no-config", "--fail-on", "never", "api/openapi.yaml"])
    assert result.exit_code == 0


def test_the_accept_hint_is_a_command_to_paste_and_accept_records_the_blocking_findings(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside pre-commit the hint names `specdiff staged --accept` with the file quoted for the shell (a file
    named `api$(touch PWNED).yaml` must not become a command); `--accept` writes a baseline the next run reads."""
    monkeypatch.delenv("PRE_COMMIT", raising=False)
    hostile = "api/v$(touch PWNED).yaml"
    put(repo, {hostile: git(repo, "show", "HEAD:api/openapi.yaml")})
    git(repo, "add", hostile)
    git(repo, "commit", "-q", "-m", "hostile name")
    (repo / hostile).write_text(spec({"mode": {"type": "string", "enum": ["Fast", "Slow"]}}))  # size removed
    git(repo, "add", "-A")
    result = CliRunner().invoke(main, ["staged", "--no-config", hostile])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == (
        "specdiff: commit blocked; to accept these findings, run `specdiff staged --accept "
        "'api/v$(touch PWNED).yaml'` again (it records them in specdiff-baseline.txt), or add an `ignore:` entry "
        "with a reason to .specdiff.yaml")
    result = CliRunner().invoke(main, ["staged", "--no-config", "--accept", hostile])
    assert (result.exit_code, result.stdout.splitlines()[-1]) == (
        1, "specdiff: recorded 1 finding in specdiff-baseline.txt; stage it (`git add specdiff-baseline.txt`) and "
           "commit again")
    assert [line.split("  # ")[1] for line in (repo / "specdiff-baseline.txt").read_text().splitlines()[1:]] == [
        "schema.property.removed Frobber.size"]
    result = CliRunner().invoke(main, ["staged", "--no-config", hostile])  # the baseline found where it was written
    assert result.exit_code == 0, result.stdout
    assert not (repo / "PWNED").exists()


def test_pre_commit_hook_definition() -> None:
    import yaml

    hooks = yaml.safe_load((Path(__file__).resolve().parents[1] / ".pre-commit-hooks.yaml").read_text())
    assert [(h["id"], h["entry"], h["language"], h["pass_filenames"]) for h in hooks] == [
        ("specdiff", "specdiff staged", "python", True)]
    import re

    assert re.search(hooks[0]["files"], "api/openapi.yaml") and re.search(hooks[0]["files"], "swagger.json")
    assert not re.search(hooks[0]["files"], "docs/index.md")


def test_a_ref_reader_goes_on_after_a_folder_and_a_file_over_the_limit(repo: Path) -> None:
    """A folder or a file over --max-bytes is refused without reading it: its reply is dropped with git's
    process, and the next file is read from a new one."""
    put(repo, {"api/common/big.yaml": "x" * 2000})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a big file")
    doc = load("HEAD:api/ref.yaml", Limits(max_bytes=1000))
    assert doc.reader is not None
    common = repo.resolve() / "api" / "common"
    with pytest.raises(InputError, match=r"'api/common' is not a file at revision 'HEAD'"):
        doc.reader(common, "common")
    with pytest.raises(InputError, match=r"file is 2000 bytes, over the 1000-byte limit \(--max-bytes\)"):
        doc.reader(common / "big.yaml", "big.yaml")
    assert json.loads(doc.reader(common / "frobber.yaml", "frobber.yaml"))["type"] == "object"
