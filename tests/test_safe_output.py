"""Strings from a spec cannot inject markup into markdown, or control sequences and forged lines into terminal
text; report files are written whole or not at all."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from specdiff import cli
from specdiff.cli.common import write_atomic
from specdiff.errors import OutputError
from specdiff.load import load_text
from specdiff.pipeline import run
from specdiff.records import Report
from specdiff.report import RenderOptions, render

HOSTILE = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "[click me](http://evil.example/x)",
    "![pixel](http://evil.example/p.png)",
    "@org/team and @someone",
    "http://evil.example/autolink www.evil.example",
    "\x1b[31mRED\x1b[0m\x1b]8;;http://evil.example\x07link\x1b]8;;\x07",
    "line one\nbreaking  operation.removed  GET /forged\r\nwhy: forged",
    "cell | cell || cell",
    "`code` **bold** _em_ ~~gone~~ # heading > quote",
    "\u202eevil\u202c \u2066isolate\u2069 \u2028separator\u2029 \x00nul\x7fdel\x9bcsi",
    "&lt;entity&gt; &#60;script&#62;",
    "<!-- comment --> </details><details>",
]


def _spec(with_hostile: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {"plain": {"type": "string", "enum": ["a"]}}
    pet = {"$ref": "#/components/schemas/Pet" + HOSTILE[0].replace("~", "~0").replace("/", "~1")}
    body = {"content": {"application/json": {"schema": pet}}}  # sent and returned: every verdict is breaking
    paths: dict[str, Any] = {"/plain": {"put": {"requestBody": body,
                                                "responses": {"200": {"description": "ok", **body}}}}}
    if with_hostile:
        properties["plain"]["enum"] = ["a", *HOSTILE]
        for i, text in enumerate(HOSTILE):
            properties[text] = {"type": "string", "description": text}
            paths[f"/x{i}/{text}"] = {"get": {"responses": {"200": {"description": text}}}}
    return {"openapi": "3.0.3", "info": {"title": HOSTILE[0], "version": HOSTILE[6]}, "paths": paths,
            "components": {"schemas": {f"Pet{HOSTILE[0]}": {"type": "object", "properties": properties}}}}


@pytest.fixture(scope="module")
def report() -> Report:
    old = load_text(json.dumps(_spec(True)), "old.json", None)
    new = load_text(json.dumps(_spec(False)), "new.json", None)
    found = run(old, new, grouped=False)  # every hostile value in a finding of its own
    assert {f.rule for f in found.findings} == {"operation.removed", "schema.property.removed",
                                                "schema.enum.value-removed"}
    assert len(found.findings) == 3 * len(HOSTILE)  # each hostile path, property and enum value
    return found


def _unsafe_characters(text: str) -> set[str]:
    """Control characters (but the line break), line separators, and bidi controls that reorder text."""
    return {c for c in text if (c != "\n" and unicodedata.category(c) in ("Cc", "Zl", "Zp"))
            or unicodedata.bidirectional(c) in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI")}


@pytest.mark.parametrize("color", [False, True])
def test_terminal_text_has_no_escapes_and_no_forged_lines(report: Report, color: bool) -> None:
    text = render(report, "text", RenderOptions(color=color))
    ours = re.compile(r"\x1b\[(?:1;31|1;33|32|2|0)m")
    assert _unsafe_characters(ours.sub("", text)) == set()
    lines = text.splitlines()
    summary = 2 + len({(f.level, f.rule) for f in report.findings})  # counts by level, a line a rule, blank
    # header, summary, two lines a finding, and a reason where it first applies; a long report's counts again
    body = 1 + summary + 2 * len(report.findings) + len({f.reason for f in report.findings})
    assert len(lines) == body + (2 if body > 50 else 0)
    plain = [ours.sub("", line) for line in lines[1 + summary:body]]
    headings = [i for i, line in enumerate(plain) if line.startswith(("breaking ", "dangerous ", "safe "))]
    assert len(headings) == len(report.findings)  # no line a spec wrote passes for a finding of its own
    # and no message or reason leaves its indented line
    assert all(line.startswith("          ") for i, line in enumerate(plain) if i not in headings)
    assert "RED" in text and "<script>alert(1)</script>" in text  # shown, only neutralised
    assert "\\x1b[31mRED\\x1b[0m" in text and "\\x00nul\\x7fdel\\x9bcsi" in text  # escaped, not hidden


def test_markdown_escapes_markup_mentions_links_and_html(report: Report) -> None:
    """Rendered by GitHub's cmark-gfm: four cells a row whatever the spec says, no tags but the comment's own,
    no character reference decoded, and nothing GitHub would link (mentions, references, URLs, e-mails, math)
    outside code spans, where its filters never look."""
    import cmarkgfm
    from cmarkgfm.cmark import Options

    text = render(report, "markdown", RenderOptions())
    assert _unsafe_characters(text) == set() and "\u200b" not in text
    html = cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)
    rows = re.findall(r"<tr>\n(.*?)</tr>", html, re.S)[1:]
    assert len(rows) == len(report.findings)
    assert all(row.count("<td>") == 4 for row in rows)
    assert set(re.findall(r"<(\w+)", html)) <= {"h3", "h4", "p", "table", "thead", "tbody", "tr", "th", "td", "code",
                                                "strong", "ol", "li"}  # ol: the reasons several rows share
    assert all(bold.isdigit() for bold in re.findall(r"<strong>(.*?)</strong>", html))  # only the counts
    outside_code = re.sub(r"<code>.*?</code>", "", html, flags=re.S)
    assert re.findall(r"@\w|#\d|https?:|www\.|\$[^$\s]+\$", outside_code) == []
    assert "&amp;lt;entity&amp;gt;" in html  # `&lt;` from the spec stays the four characters it was
    # all breaking, so no section of ours folds (no `details` among the tags above), and the spec's
    # `</details><details>` is shown as the text it is, inside a code span, never as markup
    assert "<code>&lt;!-- comment --&gt; &lt;/details&gt;&lt;details&gt;</code>" in html


def test_json_keeps_the_strings_exactly(report: Report) -> None:
    envelope = json.loads(render(report, "json"))
    assert envelope["old"]["title"] == HOSTILE[0]
    removed = [f["old"] for f in envelope["findings"] if f["rule"] == "schema.enum.value-removed"]
    assert sorted(removed) == sorted(HOSTILE)


@pytest.mark.parametrize("fmt", ["json", "sarif", "junit"])
def test_data_formats_escape_del_c1_and_bidi_and_read_back_the_same(report: Report, fmt: str) -> None:
    """DEL, U+009B (a control sequence to some terminals), bidi overrides and (in XML) a carriage return are
    written as escapes, which JSON and XML read back as the characters the spec holds."""
    import xml.etree.ElementTree as ET

    text = render(report, fmt, RenderOptions(annotate_level="safe"))
    assert _unsafe_characters(text) == set()
    if fmt == "junit":
        read = "".join(ET.fromstring(text.split("\n", 1)[1]).itertext())
    else:
        read = "|".join(_strings(json.loads(text)))
    assert "\x7fdel\x9bcsi" in read and "\u202eevil" in read and "/forged\r\n" in read


def _strings(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [text for value in data.values() for text in _strings(value)]
    if isinstance(data, list):
        return [text for value in data for text in _strings(value)]
    return [data] if isinstance(data, str) else []


def test_the_history_json_escapes_them_too(hostile_crds: list[str]) -> None:
    done = CliRunner().invoke(cli.main, ["history", *hostile_crds, "--no-config", "--format", "json"])
    assert _unsafe_characters(done.stdout) == set() and "\\u007f" in done.stdout
    assert HOSTILE_VERSION in json.dumps(json.loads(done.stdout), ensure_ascii=False)


#: strings YAML reads a line break into (NEL, U+0085) where JSON keeps them as written
LINE_BREAKS = ["a\x85b", "x\x85", "\x85", "a\nb\x85c", "a\u2028b\u2029c", "a\rb"]


def test_the_yaml_report_loads_back_as_the_json_report(report: Report) -> None:
    import yaml

    spec = _spec(False)
    spec["components"]["schemas"][f"Pet{HOSTILE[0]}"]["properties"]["plain"]["enum"] += LINE_BREAKS
    breaks = run(load_text(json.dumps(spec), "old.json", None), load_text(json.dumps(_spec(False)), "new.json",
                                                                           None), grouped=False)
    assert sorted(f.change.old for f in breaks.findings) == sorted(LINE_BREAKS)
    for each in (report, breaks):
        assert yaml.safe_load(render(each, "yaml")) == json.loads(render(each, "json"))


# -- atomic report files ----------------------------------------------------------------------------------------
def test_write_atomic_replaces_the_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "out" / "report.md"
    write_atomic(str(target), "first\n")
    write_atomic(str(target), "second\n")
    assert target.read_text() == "second\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["report.md"]


def test_a_failed_write_leaves_the_old_report_and_no_temporary_file(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.md"
    target.write_text("previous report\n")

    def fail(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OutputError) as caught:
        write_atomic(str(target), "new report\n")
    assert str(caught.value) == f"{target}: cannot write the report: No space left on device"
    assert target.read_text() == "previous report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]


def test_an_interrupted_render_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The report is rendered whole before anything is written, so an interruption leaves no file behind."""
    specs = Path(__file__).parent / "specs"

    def interrupted(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("specdiff.report.render", interrupted)
    target = tmp_path / "report.txt"
    result = CliRunner().invoke(cli.main, [str(specs / "frob-old.yaml"), str(specs / "frob-new.yaml"),
                                           "--no-config", "-o", str(target)])
    assert (result.exit_code, result.stderr) == (130, "specdiff: interrupted\n")
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_write_removes_its_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.txt"
    real_replace = os.replace

    def interrupted(src: str, dst: str) -> None:
        assert Path(src).read_text() == "whole report\n"  # the temporary file is complete before the rename
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(str(target), "whole report\n")
    monkeypatch.setattr(os, "replace", real_replace)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt", ["github", "html"])
def test_the_ci_log_and_the_page_carry_no_control_or_bidi_characters(report: Report, fmt: str) -> None:
    """`--format github` is printed into the job log (`\\x1b]52;` would write the reader's clipboard) and an html
    page gets copied into terminals: both show those characters escaped, as the text format does."""
    text = render(report, fmt, RenderOptions(annotate_level="safe"))
    assert _unsafe_characters(text) == set()
    assert "RED" in text and "evil" in text and "\\x1b]8;;http://evil.example\\x07" in text and "\\u202eevil" in text
    if fmt == "github":
        assert len(text.splitlines()) == len(report.findings)


# -- markdown that wraps: release notes -------------------------------------------------------------------------
#: a CRD version name with a backtick, a link, a mention and DEL: written in headings and before bullets
HOSTILE_VERSION = "v2`[gv](http://evil.example/gv) @everyone`\x7f"
#: property names: one ending in a backtick, which a count of backticks reads as opening a span, then one whose
#: wrapping at 200 characters would put `~~~` (a fence) at a line's start inside its span
HOSTILE_NAMES = ["a`", "b [x](http://evil.example/x) @everyone ~~~" + "q" * 150]


def _crd(versions: dict[str, dict[str, Any]]) -> str:
    return json.dumps({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "frobs.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"kind": "Frob", "plural": "frobs", "singular": "frob", "listKind": "FrobList"},
                 "versions": [{"name": name, "served": True, "storage": name == "v1", "schema": {"openAPIV3Schema": {
                     "type": "object", "properties": {"spec": {"type": "object", "properties": properties}}}}}
                     for name, properties in versions.items()]}})


@pytest.fixture
def hostile_crds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """v1 and a hostile version; then each gains a field of its own (so bullets name their version), and v1 the
    hostile names."""
    keep = {"keep": {"type": "string"}}
    added = {name: {"type": "string"} for name in HOSTILE_NAMES}
    (tmp_path / "old.json").write_text(_crd({"v1": keep, HOSTILE_VERSION: keep}), encoding="utf-8")
    (tmp_path / "new.json").write_text(_crd({"v1": {**keep, **added, "x": {"type": "string"}},
                                             HOSTILE_VERSION: {**keep, "y": {"type": "string"}}}), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return ["old.json", "new.json"]


@pytest.mark.parametrize("args", [["--format", "release-notes"], ["--format", "markdown"],
                                  ["--format", "job-summary"], ["history", "--format", "markdown"]],
                         ids=["release-notes", "markdown", "job-summary", "history"])
def test_hostile_names_stay_inert_in_markdown_however_it_is_wrapped(hostile_crds: list[str], args: list[str]) -> None:
    """Rendered by GitHub's cmark-gfm: no live link, no mention, no fenced block, no control character; every
    hostile name reads as it is (release notes give each one code span, whole)."""
    import cmarkgfm
    from cmarkgfm.cmark import Options

    command = args[:1] if args[0] == "history" else []
    done = CliRunner().invoke(cli.main, [*command, *hostile_crds, "--no-config", *args[len(command):]])
    assert done.exit_code in (0, 1), done.stderr
    text = done.stdout
    assert _unsafe_characters(text) == set()
    assert all(len(line) <= 200 or "q" * 150 in line for line in text.splitlines())
    html = cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)
    assert "<a " not in html and "<pre" not in html
    outside_code = re.sub(r"<code>.*?</code>", "", html, flags=re.S)
    assert "@everyone" not in outside_code and "evil.example" not in outside_code
    spans = [" ".join(span.split()) for span in re.findall(r"<code>(.*?)</code>", html, re.S)]
    shown = " ".join(re.sub(r"<[^>]+>", "", html).split())
    for name in HOSTILE_NAMES:
        assert name in shown, name
        assert args[1] != "release-notes" or any(name in span for span in spans), name


def test_errors_write_no_control_or_bidi_character(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An error line names files and quotes input: DEL, escapes and bidi overrides in them become spaces, in a
    tool error and in the last-resort internal error alike."""
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(cli.main, ["a\u202egnp.json", "b\x7f\x1b[31m.json", "--no-config"])
    assert (done.exit_code, done.stderr) == (2, "specdiff: error: a gnp.json: no such file\n")

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("odd \x1b]52;c;ZXZpbA==\x07 \u202eevil\x7f")

    specs = Path(__file__).parent / "specs"
    monkeypatch.setattr("specdiff.pipeline.run", broken)
    done = CliRunner().invoke(cli.main, [str(specs / "frob-old.yaml"), str(specs / "frob-new.yaml"), "--no-config"])
    assert (done.exit_code, done.stderr) == (2, "specdiff: internal error: RuntimeError: odd ]52;c;ZXZpbA== evil "
                                                "(set SPECDIFF_DEBUG=1 for details)\n")


def test_the_pre_commit_hook_names_its_baseline_without_control_characters(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The baseline's name comes from a configuration anyone can commit: the hook's last line shows it as one
    line of plain text."""
    import subprocess

    specs = Path(__file__).parent / "specs"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.delenv("PRE_COMMIT", raising=False)
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q"], check=True)
    Path("api.yaml").write_bytes((specs / "frob-old.yaml").read_bytes())
    name = "base\x1b]0;title\x07\u202eline.txt"
    Path(name).write_text("", encoding="utf-8")
    subprocess.run(["git", "add", "."], check=True)
    subprocess.run(["git", *identity, "commit", "-q", "-m", "v1"], check=True)
    Path("api.yaml").write_bytes((specs / "frob-new.yaml").read_bytes())
    subprocess.run(["git", "add", "api.yaml"], check=True)
    done = CliRunner().invoke(cli.main, ["staged", "api.yaml", "--no-config", "--baseline", name])
    assert done.exit_code == 1
    last = done.stdout.splitlines()[-1]
    assert last.startswith("specdiff: commit blocked; ") and "base ]0;title  line.txt" in last
    assert _unsafe_characters(done.stdout) == set()
