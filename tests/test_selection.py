"""Choosing what is compared: operations by path pattern, tag or extension, from flags and `operations:`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from specdiff.cli import main
from specdiff.graph.selection import check_pattern


def api(old: bool) -> str:
    """/pets (tag pets) returns Pet, /admin/users (tag admin, x-internal) returns Admin and takes `q`,
    /admin/pets (admin) and /pets/shared (pets) return Shared. The new version removes a property from each
    schema and the query parameter `q`."""
    def schema(*names: str) -> dict[str, Any]:
        return {"type": "object", "properties": {name: {"type": "string"} for name in names}}

    def get(ref: str, tag: str, **more: Any) -> dict[str, Any]:
        return {"get": {"tags": [tag], **more, "responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}}}}}

    query = [{"name": "q", "in": "query", "schema": {"type": "string"}}] if old else []
    return json.dumps({
        "openapi": "3.0.3", "info": {"title": "zoo", "version": "1.0.0"},
        "paths": {"/pets": get("Pet", "pets"), "/admin/users": get("Admin", "admin", parameters=query),
                  "/admin/pets": get("Shared", "admin"), "/pets/shared": get("Shared", "pets")},
        "components": {"schemas": {"Pet": schema("name", *["tag"] * old), "Admin": schema("name", *["role"] * old),
                                   "Shared": schema("id", *["note"] * old)}}})


@pytest.fixture
def zoo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "old.json").write_text(api(True), encoding="utf-8")
    new = json.loads(api(False))
    new["paths"]["/admin/users"]["x-internal"] = True  # on the path item: every method under it
    (tmp_path / "new.json").write_text(json.dumps(new), encoding="utf-8")
    old = json.loads(api(True))
    old["paths"]["/admin/users"]["x-internal"] = True
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def findings(*args: str, config: bool = False) -> list[tuple[str, str]]:
    done = CliRunner().invoke(main, ["old.json", "new.json", "--format", "json", *([] if config else ["--no-config"]),
                                     *args])
    assert done.exit_code in (0, 1), done.stderr
    return [(f["rule"], f["location"]["label"]) for f in json.loads(done.stdout)["findings"]]


EVERYTHING = [("parameter.removed", "GET /admin/users query parameter q"),
              ("schema.property.removed", "Admin.role"), ("schema.property.removed", "Pet.tag"),
              ("schema.property.removed", "Shared.note")]
PUBLIC = [("schema.property.removed", "Pet.tag"), ("schema.property.removed", "Shared.note")]


def test_everything_is_compared_by_default(zoo: Path) -> None:
    assert sorted(findings()) == EVERYTHING


@pytest.mark.parametrize("args", [
    ["--exclude-extension", "x-internal"], ["--exclude-tag", "admin"], ["--match-path", "^/pets"],
    ["--exclude-path", "/admin/*"], ["--exclude-path", "glob:/admin/*"], ["--exclude-path", "re:^/admin/"],
    ["--tag", "pets"]])
def test_left_out_operations_and_the_schemas_only_they_reach_have_no_findings(zoo: Path, args: list[str]) -> None:
    """Shared is also reached by /pets/shared, so its change stays; Admin is reached by /admin/users alone."""
    assert sorted(findings(*args)) == PUBLIC


def test_a_tag_keeps_its_operations_and_what_they_reach(zoo: Path) -> None:
    assert sorted(findings("--tag", "admin")) == [
        ("parameter.removed", "GET /admin/users query parameter q"), ("schema.property.removed", "Admin.role"),
        ("schema.property.removed", "Shared.note")]


def test_the_configuration_chooses_and_the_flags_add_to_it(zoo: Path) -> None:
    (zoo / ".specdiff.yaml").write_text("operations:\n  exclude-extensions: [x-internal]\n", encoding="utf-8")
    assert sorted(findings(config=True)) == PUBLIC
    assert findings("--exclude-path", "^/pets$", config=True) == [("schema.property.removed", "Shared.note")]


def test_history_compares_only_what_is_chosen(zoo: Path) -> None:
    done = CliRunner().invoke(main, ["history", "old.json", "new.json", "--no-config", "--format", "json",
                                     "--exclude-tag", "admin"])
    assert [(f["rule"], f["location"]["label"]) for f in json.loads(done.stdout)["steps"][0]["findings"]] == PUBLIC


@pytest.mark.parametrize(("text", "message"), [
    ("operations: [x]\n", ".specdiff.yaml:1: operations must map match-path, exclude-path, tags, exclude-tags, "
                          "exclude-extensions to lists"),
    ("operations:\n  exclude-path: ['/a', '/(?=x)']\n", ".specdiff.yaml:2: '/(?=x)' is no regular expression RE2 "
                                                         "matches in linear time: invalid perl operator: (?="),
    ("operations:\n  match-path:\n    - '['\n", ".specdiff.yaml:3: '[' is no regular expression: unterminated "
                                                 "character set at position 0"),
    ("operations:\n  match-path: ['re:a{4294967296}']\n", ".specdiff.yaml:2: 'a{4294967296}' is no regular "
                                                           "expression: the repetition number is too large"),
    ("operations:\n  match-path: ['re:(a){1001}']\n", ".specdiff.yaml:2: '(a){1001}' is no regular expression RE2 "
                                                       "matches in linear time: invalid repetition size: {1001}"),
    ("operations:\n  exclude-tag: [admin]\n", ".specdiff.yaml:2: unknown key 'exclude-tag' in operations (did you "
                                              "mean 'exclude-tags'?)"),
    ("operations:\n  tags: [1]\n", ".specdiff.yaml:2: a tag or extension name must be a string of 1 to 200 "
                                   "characters, not '1'"),
    ("operations:\n  exclude-path: [" + ", ".join(["/a"] * 101) + "]\n",
     ".specdiff.yaml:2: operations exclude-path must be a list of at most 100 strings"),
])
def test_configuration_mistakes_are_one_line_errors_naming_the_line(zoo: Path, text: str, message: str) -> None:
    (zoo / ".specdiff.yaml").write_text(text, encoding="utf-8")
    done = CliRunner().invoke(main, ["old.json", "new.json"])
    assert (done.exit_code, done.stderr) == (2, f"specdiff: error: {message}\n")


def test_a_bad_pattern_on_the_command_line_is_a_usage_error(zoo: Path) -> None:
    done = CliRunner().invoke(main, ["old.json", "new.json", "--no-config", "--match-path", "x" * 501])
    assert done.exit_code == 2
    assert done.stderr.splitlines()[-1] == "Error: --match-path: a path pattern may be at most 500 characters"


def test_a_pattern_only_backtracking_could_match_is_a_one_line_usage_error(zoo: Path) -> None:
    """A backreference has no linear-time matcher: refused by name, and RE2's own log stays off stderr."""
    done = CliRunner().invoke(main, ["old.json", "new.json", "--no-config", "--exclude-path", r"re:/(a)\1"])
    assert done.exit_code == 2
    assert done.stderr.splitlines()[-1] == ("Error: --exclude-path: '/(a)\\\\1' is no regular expression RE2 "
                                            "matches in linear time: invalid escape sequence: \\1")


LONG = "/" + "a" * 5000


@pytest.mark.parametrize(("pattern", "other", "kept"), [
    ("(a|a)*b", "/b", LONG), ("(a?){28}a{28}", "/b", "/b"), ("(a+a+)+y", "/aay", LONG),
    ("(.*a){20}z", "/" + "a" * 20 + "z", LONG), ("\\w*" * 30 + "!", "/a!", LONG)])
def test_patterns_that_backtrack_exponentially_match_a_long_path_at_once(tmp_path: Path, pattern: str, other: str,
                                                                         kept: str) -> None:
    """The whole command, on a path of 5,000 `a`s that Python's backtracking engine would take years over: RE2
    matches in time linear in the path. Run in a fresh interpreter under a hang guard, so a regression fails
    rather than hangs the suite."""
    import subprocess
    import sys

    for side, kind in (("old", "string"), ("new", "integer")):
        ok = {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": kind}}}}}
        (tmp_path / f"{side}.json").write_text(json.dumps({
            "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {LONG: {"get": {"responses": ok}}, other: {"get": {"responses": ok}}}}))
    done = subprocess.run([sys.executable, "-m", "specdiff", "old.json", "new.json", "--no-config", "--format",
                           "json", "--exclude-path", "re:" + pattern], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert [(f["rule"], f["operations"]) for f in json.loads(done.stdout)["findings"]] == [
        ("schema.type-changed", [f"GET {kept}"])]


def test_a_repeat_count_past_what_re_counts_is_refused_not_a_crash(zoo: Path) -> None:
    """`a{4294967296}` makes `re` raise OverflowError, not re.error: refused like any bad pattern, from the flag
    and from the configuration."""
    done = CliRunner().invoke(main, ["old.json", "new.json", "--no-config", "--match-path", "re:a{4294967296}"])
    assert done.exit_code == 2
    assert done.stderr.splitlines()[-1] == ("Error: --match-path: 'a{4294967296}' is no regular expression: the "
                                            "repetition number is too large")
    (zoo / ".specdiff.yaml").write_text("operations:\n  exclude-path: ['re:a{4294967296}']\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["old.json", "new.json"])
    assert (done.exit_code, done.stderr) == (2, "specdiff: error: .specdiff.yaml:2: 'a{4294967296}' is no regular "
                                                "expression: the repetition number is too large\n")


@pytest.mark.parametrize("pattern", ["/pets/*", "^/api/v1/.*$", "/a/(b|c)", "glob:/x[1]", "re:/x/*"])
def test_patterns_that_are_accepted(pattern: str) -> None:
    assert check_pattern(pattern) == pattern
