"""github, sarif, junit, yaml, jsonpatch and release-notes output, and the command line's --output options."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonpatch
import jsonschema
import pytest
import yaml
from click.testing import CliRunner
from report_helpers import HOSTILE_NEW, HOSTILE_OLD, TODAY, as_json, card_info, compare, rendered

from specdiff.cli import main
from specdiff.records import Change, Context, Finding, Level
from specdiff.report import render
from specdiff.report.github import escape_data, escape_property
from specdiff.report.sections import section_of

ROOT = Path(__file__).resolve().parents[1]
OLD, NEW = "tests/specs/frob-old.yaml", "tests/specs/frob-new.yaml"
SARIF_SCHEMA = json.loads((ROOT / "tests" / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def _token_at(file: str, line: int, column: int) -> str:
    text = Path(file).read_text(encoding="utf-8").splitlines()[line - 1][column - 1:]
    return re.match(r"\"?[\w/{}]+\"?", text).group(0).strip('"')  # type: ignore[union-attr]


# --- github -------------------------------------------------------------------------------------------------

def _annotations(text: str) -> list[tuple[str, dict[str, str], str]]:
    found = []
    for line in text.splitlines():
        match = re.fullmatch(r"::(\w+) ([^:]*)::(.*)", line)
        assert match, line
        properties = dict(item.split("=", 1) for item in match.group(2).split(","))
        found.append((match.group(1), properties, match.group(3)))
    return found


@pytest.mark.parametrize("as_json_input", [False, True])
def test_github_annotations_point_at_the_line_in_yaml_and_json(as_json_input: bool, tmp_path: Path) -> None:
    old, new = (OLD, NEW) if not as_json_input else (
        str(as_json(ROOT / OLD, tmp_path / "old.json")), str(as_json(ROOT / NEW, tmp_path / "new.json")))
    found = _annotations(rendered("github", old, new))
    assert [(command, p["title"], p["file"], _token_at(p["file"], int(p["line"]), int(p["col"])))
            for command, p, _ in found] == [
        # a removal: the nearest enclosing element the new file still has (the paths, the schema's properties)
        ("error", "operation.removed (breaking)", new, "paths"),
        ("error", "schema.enum.value-added (breaking)", new, "Auto"),
        ("error", "schema.property.removed (breaking)", new, "properties"),
    ]  # operation.added is safe, below the default --annotate-level
    line = 25 if as_json_input else 13
    assert found[0][2] == ("Operation GET /old removed%0AWhy: Clients that call a removed operation get 404 or 405 "
                           f"instead of a response.%0ARemoved: /paths/~1old/get (line {line} of {old})")


def test_github_levels_and_escaping() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    report, options = compare(HOSTILE_OLD, HOSTILE_NEW)
    text = render(report, "github", options)
    assert len(text.splitlines()) == len(report.findings) - 1  # nothing a spec wrote starts a line of its own
    found = _annotations(text)
    assert [command for command, _, _ in found] == ["error", "error", "error"]  # the safe one is left out
    assert found[1][1]["file"] == HOSTILE_NEW
    assert "and Pet.name\\n::error::injected\\n# heading | cell removed%0AWhy: " in found[1][2]  # as text does


def test_github_without_documents_has_no_places() -> None:
    report, _ = compare(OLD, NEW)
    first = render(report, "github").splitlines()[0]
    assert first.startswith("::error title=operation.removed (breaking)::Operation GET /old removed")


# --- sarif --------------------------------------------------------------------------------------------------

def _validate_sarif(text: str) -> dict[str, Any]:
    log: dict[str, Any] = json.loads(text)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    return log


def test_sarif_is_valid_with_rules_results_and_places() -> None:
    log = _validate_sarif(rendered("sarif", OLD, NEW))
    run = log["runs"][0]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == [
        "operation.removed", "schema.enum.value-added", "schema.property.removed"]  # operation.added is safe
    removed = run["tool"]["driver"]["rules"][0]
    assert removed["name"] == "OperationRemoved"
    assert removed["fullDescription"]["text"] == (
        "A method and path that the old spec served is missing from the new spec.")
    assert removed["help"]["markdown"].startswith("**What it does**\n\nA method and path")
    results = [(r["ruleId"], r["ruleIndex"], r["level"],
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"],
                r["locations"][0]["physicalLocation"]["region"]["startColumn"]) for r in run["results"]]
    assert results == [("operation.removed", 0, "error", NEW, 3, 1),
                       ("schema.enum.value-added", 1, "error", NEW, 20, 49),
                       ("schema.property.removed", 2, "error", NEW, 19, 7)]
    report, _ = compare(OLD, NEW)
    assert [r["partialFingerprints"]["specdiff/v1"] for r in run["results"]] == [
        f.fingerprint for f in report.findings if f.level.value != "safe"]
    assert run["results"][0]["message"]["text"] == (
        "Operation GET /old removed. Clients that call a removed operation get 404 or 405 instead of a response. "
        f"Removed: /paths/~1old/get (line 13 of {OLD}).")


def test_sarif_of_hostile_and_absolute_inputs_is_valid_and_machine_free(tmp_path: Path) -> None:
    _validate_sarif(rendered("sarif", HOSTILE_OLD, HOSTILE_NEW))
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_bytes((ROOT / OLD).read_bytes())
    new.write_bytes((ROOT / NEW).read_bytes())
    text = rendered("sarif", OLD, NEW)
    assert "Utc" not in text and "invocations" not in text and str(ROOT) not in text
    log = _validate_sarif(rendered("sarif", str(old), str(new)))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris == {new.as_uri()}  # given as absolute paths, kept absolute (as file: URIs); removals too


# --- junit --------------------------------------------------------------------------------------------------

def test_junit_one_case_per_rule_failing_on_breaking() -> None:
    suites = ET.fromstring(rendered("junit", OLD, NEW))
    suite = suites.find("testsuite")
    assert suite is not None
    assert (suites.get("tests"), suites.get("failures"), suite.get("tests"), suite.get("failures")) == (
        "4", "3", "4", "3")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert sorted(cases) == ["operation.added", "operation.removed", "schema.enum.value-added",
                             "schema.property.removed"]
    failure = cases["operation.removed"].find("failure")
    assert failure is not None and failure.get("message") == "1 finding at or above breaking of 1"
    assert failure.text == ("[breaking] Operation GET /old removed. Why: Clients that call a removed operation get "
                            "404 or 405 instead of a response. (at /paths/~1old/get)\n")
    assert cases["operation.added"].find("failure") is None
    assert (cases["operation.added"].findtext("system-out") or "").startswith("[safe] Operation GET /new added.")


def test_junit_of_hostile_strings_is_valid_xml() -> None:
    text = rendered("junit", HOSTILE_OLD, HOSTILE_NEW)
    suites = ET.fromstring(text)  # control characters replaced, markup escaped: it parses
    failures = [f.text or "" for f in suites.iter("failure")]
    assert any("Enum value `<img src=x onerror=alert(2)> [x](javascript:alert(3)) &lt;i&gt; \ufffd[31m\ufffd" in f
               for f in failures)
    assert "\x1b" not in text and "\x00" not in text


# --- yaml and jsonpatch -------------------------------------------------------------------------------------

def test_yaml_is_the_json_envelope() -> None:
    report, options = compare(HOSTILE_OLD, HOSTILE_NEW)
    assert yaml.safe_load(render(report, "yaml", options)) == json.loads(render(report, "json", options))


@pytest.mark.parametrize(("old", "new"), [(OLD, NEW), (HOSTILE_OLD, HOSTILE_NEW),
                                          ("corpora/demo/frobber-v6.yaml", "corpora/demo/frobber-v7.yaml")])
def test_jsonpatch_turns_old_into_new(old: str, new: str) -> None:
    patch = json.loads(rendered("jsonpatch", old, new))
    before = yaml.safe_load((ROOT / old).read_text(encoding="utf-8"))
    after = yaml.safe_load((ROOT / new).read_text(encoding="utf-8"))
    assert jsonpatch.apply_patch(before, patch) == after


def test_jsonpatch_of_a_small_change() -> None:
    patch = json.loads(rendered("jsonpatch", OLD, NEW))
    assert patch[:1] == [{"op": "move", "from": "/paths/~1old", "path": "/paths/~1new"}]


# --- release notes ------------------------------------------------------------------------------------------

def test_release_notes_of_an_openapi_spec() -> None:
    assert rendered("release-notes", OLD, NEW) == """# Release notes: Frob

Changes from `frob-old.yaml` to `frob-new.yaml`: 3 breaking, 0 dangerous, 1 safe.

## Breaking changes (action required)

### /frobs
- Enum value `Auto` added to `Frobber.mode`. Readers that switch over the known values meet one they do not know.
- Property `Frobber.size` removed. Clients that read or write the property lose it.
### /old
- Operation `GET /old` removed. Clients that call a removed operation get 404 or 405 instead of a response.

## New features

### /new
- Operation `GET /new` added.
"""


WIDGETS = """
openapi: 3.0.3
info: {title: Widgets, version: "%(version)s"}
paths:
  /apis/widgets.example.com/v1/namespaces/{namespace}/widgets:
    get:
      x-kubernetes-group-version-kind: {group: widgets.example.com, version: v1, kind: Widget}
      responses:
        "200":
          description: ok
          content:
            application/json: {schema: {$ref: "#/components/schemas/com.example.v1.WidgetList"}}
  /apis/widgets.example.com/v1/namespaces/{namespace}/widgets/{name}/%(subresource)s:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json: {schema: {$ref: "#/components/schemas/com.example.v1.Widget"}}
  /apis/gadgets.example.com/v1beta1/gadgets:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json: {schema: {$ref: "#/components/schemas/com.example.v1beta1.GadgetList"}}
components:
  schemas:
    com.example.v1.Widget:
      type: object
      properties:
        spec: {$ref: "#/components/schemas/com.example.v1.WidgetSpec"}
      x-kubernetes-group-version-kind: [{group: widgets.example.com, version: v1, kind: Widget}]
    com.example.v1.WidgetList:
      type: object
      properties:
        items: {type: array, items: {$ref: "#/components/schemas/com.example.v1.Widget"}}
      x-kubernetes-group-version-kind: [{group: widgets.example.com, version: v1, kind: WidgetList}]
    com.example.v1.WidgetSpec:
      type: object
      properties:
        mode: {type: string, enum: %(modes)s}
    com.example.v1beta1.GadgetList:
      type: object
      properties:
        items: {type: array, items: {type: object, properties: {size: {type: string, enum: %(sizes)s}}}}
      x-kubernetes-group-version-kind: [{group: gadgets.example.com, version: v1beta1, kind: GadgetList}]
"""


def test_release_notes_group_kubernetes_changes_by_group_version_and_kind(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text(WIDGETS % {"version": "1", "subresource": "status", "modes": "[A]",
                                                  "sizes": "[S]"})
    (tmp_path / "new.yaml").write_text(WIDGETS % {"version": "2", "subresource": "scale", "modes": "[A, B]",
                                                  "sizes": "[S, M]"})
    text = rendered("release-notes", tmp_path / "old.yaml", tmp_path / "new.yaml", policy="kubernetes")
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert headings == ["# Release notes: Widgets 1 → 2",
                        "## Breaking changes (action required)",
                        "### gadgets.example.com/v1beta1 Gadget",  # a list's kind names its items' kind
                        "### widgets.example.com/v1 Widget",  # WidgetSpec is only used by Widget's operations
                        "## New features",
                        "### widgets.example.com/v1 Widget"]  # a subresource belongs to its resource's kind
    # info.version 1 -> 2 is the title's: no "Other changes" bullet says it again
    assert ("- Operation `GET /apis/widgets.example.com/v1/namespaces/{namespace}/widgets/{name}/status` removed."
            in text)


def _finding(rule: str, level: Level) -> Finding:
    return Finding(rule, level, "m", "r", Change("modified", "operation", "", None, None, "both", Context()),
                   rule_info=card_info(rule))


@pytest.mark.parametrize(("rule", "level", "section"), [
    ("operation.removed", Level.BREAKING, "breaking"),
    ("operation.deprecated", Level.BREAKING, "breaking"),  # action required wins
    ("operation.deprecated", Level.SAFE, "deprecations"),
    ("crd.version.deprecated", Level.DANGEROUS, "deprecations"),
    ("lifecycle.deprecated", Level.SAFE, "deprecations"),
    ("operation.added", Level.SAFE, "features"),
    ("schema.enum.value-added", Level.SAFE, "features"),
    ("schema.enum.value-added", Level.DANGEROUS, "other"),  # an addition that may hurt is not a feature
    ("schema.added-ness", Level.SAFE, "other"),
    ("specdiff.unclassified", Level.DANGEROUS, "other"),
])
def test_release_note_sections(rule: str, level: Level, section: str) -> None:
    assert section_of(_finding(rule, level))[0] == section


# --- the command line ---------------------------------------------------------------------------------------

def test_output_file_and_several_formats_in_one_run(tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(main, [OLD, NEW, "--no-config", "--format", "sarif", "--output", str(tmp_path / "r.sarif")])
    assert (done.exit_code, done.output) == (1, "")
    _validate_sarif((tmp_path / "r.sarif").read_text(encoding="utf-8"))
    done = runner.invoke(main, [OLD, NEW, "--no-config", "--today", TODAY.isoformat(), "--format", "markdown",
                                "--format", "sarif", "--format", "release-notes",
                                "--output-dir", str(tmp_path / "out")])
    assert (done.exit_code, done.output) == (1, "")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "specdiff.md", "specdiff.release-notes.md", "specdiff.sarif"]
    report, options = compare(OLD, NEW)
    assert (tmp_path / "out" / "specdiff.md").read_text(encoding="utf-8") == render(report, "markdown", options)


@pytest.mark.parametrize(("args", "message"), [
    (["--format", "pdf"], "unknown --format 'pdf'; choose from github, html, job-summary, json, jsonpatch, junit, "
                          "markdown, release-notes, sarif, text, yaml"),
    (["--format", "json", "--format", "sarif"], "several --format values need --output-dir"),
    (["--output", "a.txt", "--output-dir", "d"], "--output writes one file and --output-dir one per format"),
])
def test_format_usage_errors(args: list[str], message: str) -> None:
    done = CliRunner().invoke(main, [OLD, NEW, "--no-config", *args])
    assert done.exit_code == 2
    assert message in done.output


def test_the_help_names_every_format() -> None:
    from specdiff.report import FORMATS

    text = " ".join(CliRunner().invoke(main, ["compare", "--help"]).output.split())
    assert all(re.search(rf"\b{re.escape(name)}\b", text) for name in FORMATS)


def test_an_unwritable_output_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    done = CliRunner().invoke(main, [OLD, NEW, "--no-config", "--output", str(tmp_path / "file" / "r.txt")])
    assert done.exit_code == 2
    assert done.output.startswith(f"specdiff: error: {tmp_path / 'file' / 'r.txt'}: cannot write the report: ")
    assert len(done.output.splitlines()) == 1


def test_every_format_renders_the_hostile_pair() -> None:
    from specdiff.report import FORMATS

    report, options = compare(HOSTILE_OLD, HOSTILE_NEW)
    for name in FORMATS:
        assert render(report, name, options).endswith("\n"), name
    text = render(report, "text", options)
    assert not any(line.startswith("::") for line in text.splitlines())  # a CI log would run it as a command


def test_formats_on_two_real_kubernetes_releases() -> None:
    """1.35 -> 1.36: every breaking and dangerous finding is a placed SARIF result; the comment fits whole."""
    from conftest import corpus

    report, options = compare(corpus("kubernetes/v2/swagger-v1.35.json"), corpus("kubernetes/v2/swagger-v1.36.json"))
    log = _validate_sarif(render(report, "sarif", options))
    results = log["runs"][0]["results"]
    assert len(results) == len([f for f in report.findings if f.level.value != "safe"]) == 10  # WorkloadReference
    # removed is a member of PodSpec.workloadRef removed
    every = json.loads(render(report, "sarif", replace(options, annotate_level="safe")))["runs"][0]["results"]
    assert sorted(r["ruleId"] for r in every) == sorted(f.rule for f in report.findings)  # --annotate-level safe
    assert all(r["locations"][0]["physicalLocation"]["region"]["startLine"] > 1 for r in results)
    comment = render(report, "markdown", options)
    assert len(comment.encode("utf-16-le")) // 2 <= 65536 and "**Truncated:**" not in comment
    notes = render(report, "release-notes", options)
    assert "### General\n- Optional query parameter shardSelector added to 402 operations" in notes
    assert "### scheduling.k8s.io/v1alpha2\n" in notes
    assert "Group-version `scheduling.k8s.io/v1alpha2` added (PodGroup, Workload), with 26 operations" in notes
    ET.fromstring(render(report, "junit", options))


def _many_removed_properties(tmp_path: Path, count: int) -> tuple[str, str]:
    """A spec whose `count` schemas each lose a property: `count` findings that share one reason."""
    def spec(with_size: bool) -> dict[str, Any]:
        schemas = {f"S{i}": {"type": "object", "properties": {
            "name": {"type": "string"}, **({"size": {"type": "integer"}} if with_size else {})}}
            for i in range(count)}
        paths = {f"/s{i}": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/S{i}"}}}}}}} for i in range(count)}
        return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths,
                "components": {"schemas": schemas}}
    (tmp_path / "old.json").write_text(json.dumps(spec(True)))
    (tmp_path / "new.json").write_text(json.dumps(spec(False)))
    return str(tmp_path / "old.json"), str(tmp_path / "new.json")


def test_the_text_report_gives_each_reason_once_and_ends_a_long_report_with_its_counts(tmp_path: Path) -> None:
    old, new = _many_removed_properties(tmp_path, 3)
    result = CliRunner().invoke(main, [old, new, "--no-config"])
    lines = result.stdout.splitlines()
    assert [line.strip() for line in lines if "why:" in line] == [
        "why: Clients that read or write the property lose it."]
    assert [line.split()[-1] for line in lines if line.startswith("breaking  schema")] == [
        "schema.property.removed"] * 3
    assert lines[-1] != lines[1]  # short: the counts only at the top
    old, new = _many_removed_properties(tmp_path, 30)
    lines = CliRunner().invoke(main, [old, new, "--no-config"]).stdout.splitlines()
    assert len(lines) > 50 and lines[-2:] == ["", "30 breaking, 0 dangerous, 0 safe"] and lines[1] == lines[-1]


@pytest.mark.parametrize(("color", "env", "painted"), [("always", {}, True), ("auto", {}, False),
                                                       ("never", {}, False), ("always", {"NO_COLOR": "1"}, True)])
def test_color_always_paints_through_a_pipe(color: str, env: dict[str, str], painted: bool) -> None:
    """`--color always` is for pipes into `less -R` and CI logs that render colour; `auto` paints only a
    terminal (a pipe here), `never` nothing."""
    done = subprocess.run([sys.executable, "-m", "specdiff", OLD, NEW, "--no-config", "--color", color],
                          capture_output=True, text=True, env={**os.environ, **env}, timeout=120)
    assert done.returncode == 1
    assert ("\x1b[1;31mbreaking" in done.stdout) is painted and ("\x1b[" in done.stdout) is painted


def test_release_notes_of_an_openapi_spec_go_by_resource_one_change_a_bullet_long_lists_folded(
        tmp_path: Path) -> None:
    """A versioned plain API (`/v1/...`) is headed by resource, not all under `/v1`; the operations one resource
    loses are one change; many changes with one reason give the reason once and a bullet each, the first 20 of
    them and a count of the rest."""
    ok = {"200": {"description": "ok"}}
    account = {"type": "object", "properties": {f"f{i:02}": {"$ref": f"#/components/schemas/Feature{i:02}"}
                                                for i in range(25)}}  # 25 types each losing a field: 25 changes
    answer = {"200": {"description": "ok", "content": {"application/json": {"schema": {
        "$ref": "#/components/schemas/Account"}}}}}
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}}
    old = {**spec, "paths": {"/v1/accounts": {"get": {"responses": answer}},
                             **{f"/v1/charges/c{i}": {"get": {"responses": ok}} for i in range(3)}},
           "components": {"schemas": {"Account": account, **{
               f"Feature{i:02}": {"type": "object", "properties": {f"v{i:02}": {"type": "string"}}}
               for i in range(25)}}}}
    new = {**spec, "paths": {"/v1/accounts": {"get": {"responses": answer}}},
           "components": {"schemas": {"Account": account, **{f"Feature{i:02}": {"type": "object"} for i in range(25)}}}}
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    notes = CliRunner().invoke(main, [str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--no-config",
                                      "--format", "release-notes"]).stdout
    body = notes.split("## Breaking changes (action required)\n\n", 1)[1].split("\n\n## ", 1)[0].splitlines()
    assert body == [
        "### /v1/accounts", "- Clients that read or write the property lose it:",
        *(f"  - Property `Feature{i:02}.v{i:02}` removed." for i in range(20)),
        "  - … and 5 more (`--format json` lists every one).",
        "### /v1/charges",  # a heading needs no blank line before it: the list ends there all the same
        "- 3 operations removed: `GET /v1/charges/c0`, `GET /v1/charges/c1` and `GET /v1/charges/c2`. "
        "Clients that call a removed operation get 404 or 405 instead of a response."]  # the resource named once


def test_release_notes_give_a_reason_several_headings_share_once_at_the_section_end(tmp_path: Path) -> None:
    """Three resources each lose a property for one reason: each bullet names the rule's title, the reason is
    said once."""
    old, new = _many_removed_properties(tmp_path, 3)
    notes = CliRunner().invoke(main, [old, new, "--no-config", "--format", "release-notes"]).stdout
    body = notes.split("## Breaking changes (action required)\n\n", 1)[1].splitlines()
    assert body == ["### /s0", "- Property `S0.size` removed. (*Property removed*, below)",
                    "### /s1", "- Property `S1.size` removed. (*Property removed*, below)",
                    "### /s2", "- Property `S2.size` removed. (*Property removed*, below)", "",
                    "Why:", "- *Property removed*: Clients that read or write the property lose it."]
    assert "schema.property.removed" not in notes  # rule ids are the tool's words, not the release's


def _paragraphs(markdown: str) -> str:
    """The HTML cmarkgfm makes of `markdown`, with soft line breaks read as the spaces they render as."""
    import cmarkgfm
    return " ".join(cmarkgfm.github_flavored_markdown_to_html(markdown).split())


def test_a_long_bullet_goes_on_at_the_next_line_and_renders_as_the_same_paragraph() -> None:
    """No line over 200 characters; no break inside a code span, nor before a word that would start a list, a
    heading, a quote or an underline on the next line."""
    from specdiff.report.release_notes import _wrapped

    bullet = "- " + " ".join(["word"] * 36 + ["`a code span with spaces in it`", "- 1. # > = + *"] * 8)
    lines = _wrapped(bullet).splitlines()
    assert len(bullet) > 400 and len(lines) > 2 and all(len(line) <= 200 for line in lines)
    assert all(line.startswith("  ") and not line[2:].startswith(("-", "1.", "#", ">", "=", "+", "*"))
               for line in lines[1:])
    assert _paragraphs("\n".join(lines)) == _paragraphs(bullet)
    assert _wrapped("- short") == "- short"


@pytest.mark.parametrize("line, spans", [
    ("a `b c` d", ["`b c`"]),
    ("`` a` `` and `x y`", ["`` a` ``", "`x y`"]),  # a longer fence holds a backtick
    ("`a\\` b `c`", ["`a\\`", "`c`"]),  # a backslash inside a span is literal: it ends there
    ("\\`a `b` c`", ["`b`"]),  # an escaped backtick opens nothing
    ("\\\\`a` b", ["`a`"]),  # an escaped backslash escapes no backtick
    ("``a` b", []),  # no closer of the same length: literal backticks
    ("\\``a` b`", ["`a`"]),  # the escaped first backtick leaves a run of one
])
def test_code_spans_are_found_as_commonmark_reads_them(line: str, spans: list[str]) -> None:
    from specdiff.report.markdown import code_spans

    assert [line[start:end] for start, end in code_spans(line)] == spans


def test_changes_that_say_the_same_of_several_places_read_as_one_sentence() -> None:
    from specdiff.report.release_notes import _one_sentence

    assert _one_sentence(["`A.x` became optional", "`B.y` became optional"]) == "`A.x` and `B.y` became optional"
    assert _one_sentence(["Optional property `A.x` added", "optional property `B.y` added",
                          "optional property `C.z` added"]) == "Optional properties `A.x`, `B.y` and `C.z` added"
    assert _one_sentence(["Schema `A` added", "schema `B` added"]) == "Schemas `A` and `B` added"
    assert _one_sentence(["Response status `404` removed", "response status `410` removed"]) == \
        "Response statuses `404` and `410` removed"
    # near misses: different nouns, or different endings, stay apart
    assert _one_sentence(["Optional property `A.x` added", "required property `B.y` added"]) == \
        "Optional property `A.x` added; required property `B.y` added"
    assert _one_sentence(["Schema `A` added", "schema `B` removed"]) == "Schema `A` added; schema `B` removed"
    # a place after a preposition: no plural made of the preposition ("Description ofs")
    assert _one_sentence(["Description of `A` changed", "description of `B` changed"]) == \
        "Description of `A` and `B` changed"


def test_kubernetes_release_notes_head_each_kind_once_and_fit_a_page() -> None:
    """1.35 -> 1.36: ResourceSlice is one heading whose bullets name the versions they hold in, folded where
    one change holds in several; types several kinds use go under their group-version; nothing is dropped."""
    from conftest import corpus

    report, options = compare(corpus("kubernetes/v2/swagger-v1.35.json"), corpus("kubernetes/v2/swagger-v1.36.json"))
    notes = render(report, "release-notes", options)
    lines = notes.splitlines()
    assert len(lines) <= 93 and all(len(line) <= 200 for line in lines)
    start = lines.index("### resource.k8s.io ResourceSlice")
    assert lines[start:start + 4] == [
        "### resource.k8s.io ResourceSlice",
        "- `resource.k8s.io/{v1, v1beta2}`: Optional property "
        "`ResourceSlice.spec.devices[].nodeAllocatableResourceMappings` added.",
        "- `resource.k8s.io/v1beta1`: Optional property "
        "`ResourceSlice.spec.devices[].basic.nodeAllocatableResourceMappings` added.",
        "- `resource.k8s.io/{v1, v1beta1, v1beta2}`: Optional properties `DeviceAttribute.bools`, "
        "`DeviceAttribute.ints`, `DeviceAttribute.strings` and `DeviceAttribute.versions` added."]
    assert not any(re.match(r"### resource\.k8s\.io/\S+ ResourceSlice", line) for line in lines)
    assert "### meta/v1 types\n- Optional property `ListMeta.shardInfo` (used by 69 kinds: APIServiceList, " \
           "CSIDriverList, CSINodeList, ...) added.\n### " in notes  # not its new type ShardInfo: the field says it
    assert "### policy/v1 PodDisruptionBudget\n- `PodDisruptionBudget.status.currentHealthy`, " \
           "`PodDisruptionBudget.status.desiredHealthy`, `PodDisruptionBudget.status.disruptionsAllowed` and " \
           "`PodDisruptionBudget.status.expectedPods` became\n  optional. (*Property became optional*, below)" in notes
    assert "Why:\n- *Property became optional*: Clients decoding into Go structs read an absent " \
           "field as its zero value" in notes
    # markers the old text already stated: one line, no headings, after the features
    corrections = notes.split("## Documentation corrections\n\n", 1)[1].split("\n\n## ", 1)[0]
    assert corrections.split("\n\n")[1] == (
        "- `ValidatingAdmissionPolicyBinding.spec`, `ValidatingAdmissionPolicyBinding.spec.policyName`, "
        "`ValidatingAdmissionPolicyBinding.spec.validationActions`, `HorizontalPodAutoscaler.spec`,\n  `CronJob.spec`, "
        "`LeaseCandidate.spec`, `StorageVersion.status.storageVersions[].apiServerID` and `IPAddress.spec` became "
        "required.")
    assert notes.index("## New features") < notes.index("## Documentation corrections") < notes.index("## Other")
    assert not re.search(r"\(`[\w.-]+`\)$", notes, re.M)  # no rule ids: they are the tool's words


PETS_OLD = """openapi: 3.0.3
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    post:
      tags: [pets]
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Pet"}
      responses: {"202": {description: accepted}}
  /v1/stores/{id}:
    get:
      responses: {"200": {description: ok}}
components:
  schemas:
    Pet:
      type: object
      properties:
        x: {oneOf: [{type: string}, {type: integer}]}
"""
PETS_NEW = (PETS_OLD.replace('"202": {description: accepted}', '"200": {description: ok}')
            .replace("version: 1.0.0", "version: 1.1.0").replace("{type: integer}]", "{type: integer}, {type: number}]")
            .replace("components:", "    delete:\n      responses: {\"204\": {description: gone}}\ncomponents:")
            .replace("  schemas:\n", "  schemas:\n    Store: {type: object}\n"))


def test_release_notes_read_as_a_changelog_once_rendered(tmp_path: Path) -> None:
    """What a reader of the published notes sees (cmark-gfm's HTML): which API between which versions, nothing of
    the tool (policy, response readers, rule ids), changes under their tag or else their path, a success status
    that changed as one change, and the code a rule card's words mark (`oneOf`) as code, not as backticks."""
    import cmarkgfm

    (tmp_path / "old.yaml").write_text(PETS_OLD)
    (tmp_path / "new.yaml").write_text(PETS_NEW)
    done = CliRunner().invoke(main, [str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"), "--no-config",
                                     "--format", "release-notes"])
    assert done.exit_code == 1, done.output
    assert done.stdout.splitlines()[:8] == [
        "# Release notes: Pets 1.0.0 → 1.1.0", "",
        "Changes from 1.0.0 to 1.1.0: 2 breaking, 0 dangerous, 1 safe.", "",
        "## Breaking changes (action required)", "", "### pets",
        "- Success status of `POST /pets` changed from 202 to 200. Clients that check for the old status take their "
        "failure path when the new one comes, and code generated from the spec has no reader for the"]
    html = cmarkgfm.github_flavored_markdown_to_html(done.stdout)
    assert "<h3>pets</h3>" in html and "<h3>/v1/stores</h3>" in html
    assert "and <code>oneOf</code> refuses a value" in html and "`" not in re.sub(r"<code>.*?</code>", "", html)
    assert "<li>Operation <code>DELETE /v1/stores/{id}</code> added.</li>" in html
    for word in ("policy", "response readers", "as of", "schema.", "response.", "Types added", "Schema <code>"):
        assert word not in html, word


def test_release_notes_name_a_git_source_by_its_path_at_the_revision() -> None:
    """Specs without versions are named as a reader knows them: the file, or its path in the repository at a
    revision, never `3d6c3c4:./reference/...`."""
    from specdiff.records import Report, SourceInfo

    report = Report(SourceInfo("3d6c3c4:./reference/openapi.json", "openapi-3.0"),
                    SourceInfo("../api/reference/openapi.json", "openapi-3.0"), "openapi", ())
    assert render(report, "release-notes").splitlines()[2] == (
        "Changes from `reference/openapi.json` at `3d6c3c4` to `openapi.json`: 0 breaking, 0 dangerous, 0 safe.")


def test_a_rule_cards_code_reads_as_code_and_a_stray_backtick_as_text() -> None:
    """Card titles and reasons mark code with backticks (`oneOf`): rendered, it is code, never a backtick."""
    import cmarkgfm

    from specdiff.report.markdown import coded, escape

    assert coded("`anyOf` alternative added") == "`anyOf` alternative added"
    html = cmarkgfm.github_flavored_markdown_to_html(f"- *{coded('`anyOf` alternative added')}*, below")
    assert "<em><code>anyOf</code> alternative added</em>" in html
    assert coded("a ` b <i>") == escape("a ` b <i>")  # unpaired: all text
    assert coded("x `<b>` y") == "x `<b>` y" and "<b>" not in cmarkgfm.github_flavored_markdown_to_html("x `<b>` y")


def test_release_notes_leave_out_what_no_client_can_notice_and_say_how_much(tmp_path: Path) -> None:
    """A form body gains a field with its encoding entry, a schema only a removed operation used goes with it,
    and a vendor extension is written: release notes list the field and the operation, count the other two as
    left out, and every other format still lists them."""
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}}
    form = {"type": "object", "properties": {"name": {"type": "string"}}}
    body = {"requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": form}}},
            "responses": {"200": {"description": "ok"}}}
    old = {**spec, "paths": {"/v1/orders": {"get": {"responses": {"200": {"description": "ok", "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/Order"}}}}}}},
        "/v1/charges": {"post": body}}, "components": {"schemas": {"Order": {"type": "object"}}}}
    grown = {"type": "object", "x-docs-group": "billing",
             "properties": {"name": {"type": "string"}, "shipping": {"type": "object", "properties": {
                 "city": {"type": "string"}}}}}
    new = {**spec, "paths": {"/v1/charges": {"post": {**body, "requestBody": {"content": {
        "application/x-www-form-urlencoded": {"schema": grown, "encoding": {
            "shipping": {"style": "deepObject", "explode": True}}}}}}}}}
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    args = [str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--no-config"]
    notes = CliRunner().invoke(main, [*args, "--format", "release-notes"]).stdout
    assert ": 1 breaking, 0 dangerous, 1 safe; 3 more that no client can notice" in notes
    assert "Optional property `POST /v1/charges request body: shipping` added." in notes
    for unnoticed in ("x-docs-group", "of the new field", "Order` removed"):
        assert unnoticed not in notes
    listed = {finding["rule"] for finding in json.loads(
        CliRunner().invoke(main, [*args, "--format", "json"]).stdout)["findings"]}
    assert {"extension.added", "media-type.field-encoding-added", "schema.removed"} <= listed
