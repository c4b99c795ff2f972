"""The PR comment: marker, counts, breaking table first, the rest folded; hostile spec strings stay text when
GitHub's own Markdown renderer (cmark-gfm) renders the comment; huge reports are cut under the size limit."""

from __future__ import annotations

import dataclasses
import json
import re
from html.parser import HTMLParser

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from report_helpers import HOSTILE_NEW, HOSTILE_OLD, compare, rendered

from specdiff.load import load_text
from specdiff.pipeline import run
from specdiff.records import Change, Context, Finding, Level, Report, SourceInfo
from specdiff.report import RenderOptions, render
from specdiff.report.markdown import GITHUB_LIMIT, MARKER, escape

#: what GitHub makes live in rendered text outside code: mentions, references, e-mails, URLs, emoji, math
LIVE = re.compile(r"@\w|#\d|\bGH-\d|https?:|www\.|:smile:|\$[^$\s]+\$", re.IGNORECASE)


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    from report_helpers import SPECS

    monkeypatch.chdir(SPECS.parent.parent)


class _Page(HTMLParser):
    """Collects the tags and the text of rendered HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []
        self.strong: list[str] = []
        self.outside_code: list[str] = []  # text GitHub's filters scan for mentions, references and links
        self._in_strong = False
        self._in_code = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self._in_strong = tag == "strong"
        self._in_code = tag == "code"

    def handle_endtag(self, tag: str) -> None:
        if tag == "code":
            self._in_code = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if not self._in_code:
            self.outside_code.append(data)
        if self._in_strong:
            self.strong.append(data)
            self._in_strong = False


def _github_render(markdown: str) -> _Page:
    """As GitHub renders a comment (raw HTML let through, so escaping is what stops it)."""
    page = _Page()
    page.feed(cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE))
    return page


def test_layout_marker_counts_breaking_table_then_folded_rest() -> None:
    text = rendered("markdown", HOSTILE_OLD, HOSTILE_NEW)
    lines = text.splitlines()
    assert lines[:2] == [MARKER, "### specdiff: API compatibility"]
    assert lines[2] == ("`tests/specs/hostile-old.yaml` → `tests/specs/hostile-new.yaml` · "
                        "spec: OpenAPI (no Kubernetes markers); policy: openapi; response readers: validating; "
                        "as of 2026-01-15 · "
                        "🔴 **3** breaking · 🟠 **0** dangerous · 🟢 **1** safe")
    assert lines[4:7] == ["#### Breaking changes", "| rule | where | change | why |", "|---|---|---|---|"]
    rules = [re.match(r"\| `([^`]+)`", line).group(1) for line in lines if line.startswith("| `")]  # type: ignore
    assert rules == ["operation.removed", "schema.property.removed", "schema.enum.value-added", "operation.added"]
    assert "<details><summary>🟢 1 safe change</summary>" in lines
    assert lines.index("<details><summary>🟢 1 safe change</summary>") > lines.index("#### Breaking changes")


def test_hostile_spec_strings_render_as_text_only() -> None:
    text = rendered("markdown", HOSTILE_OLD, HOSTILE_NEW)
    page = _github_render(text)
    # only the comment's own structure: no links, images, scripts, emphasis or HTML from the spec
    assert set(page.tags) <= {"h3", "h4", "p", "strong", "table", "thead", "tbody", "tr", "th", "td", "code",
                              "details", "summary", "ol", "li", "br"}  # li: a reason rows share; br: a group's places
    assert page.strong == ["3", "0", "1"]
    seen = "".join(page.text)
    assert "\u200b" not in text  # names copy and paste: no invisible characters break them up
    for original in ("GET /pets/<img src=x onerror=alert(1)>/[click](https://evil.example)",
                     "Pet.</details><!-- specdiff -->%0A,:",
                     "Enum value <img src=x onerror=alert(2)> [x](javascript:alert(3)) &lt;i&gt; [31m added",
                     "POST /pets/`code` | **bold** www.evil.example @octocat #1 :smile: a@b.co",
                     "Pet.name ::error::injected # heading | cell"):
        assert original in seen
    # GitHub links mentions, issue references, e-mails, URLs and emoji in rendered text, but never in code
    assert LIVE.findall("".join(page.outside_code)) == []
    assert LIVE.findall(seen)  # they are there, inside code spans
    assert text.count(MARKER) == 1 and text.startswith(MARKER)
    assert text.count("<details>") == text.count("</details>") == 1


@pytest.mark.parametrize(("raw", "escaped"), [
    ("<b>x</b>", "\\<b\\>x\\</b\\>"),
    ("[a](b)", "\\[a\\](b)"),
    ("a|b", "a\\|b"),
    ("@me #2 x:y :+1: why: a C# #x", "`@me` `#2` x:y `:+1:` why: a C# #x"),
    ("see GH-42 and $x^2$", "see `GH-42` and `$x^2$`"),
    ("commit a5c3785ed8d6 by a@b.co", "commit `a5c3785ed8d6` by `a@b.co`"),
    ("www.Example.com", "`www.Example.com`"),
    ("WWW.example.com https://x", "`WWW.example.com` `https://x`"),
    ("(www.a.example) *www.b.example* _www.c.example_ ~www.d.example~ x(*www.e.example",
     "`(www.a.example)` `*www.b.example*` `_www.c.example_` `~www.d.example~` `x(*www.e.example`"),
    ("awww.example.com a.www.example", "awww.example.com a.www.example"),  # GitHub links neither
    ("line\nbreak\r\n\ttab", "line break tab"),
    ("rtl\u202eoverride\u200b", "rtl override"),
    ("&amp; `tick` *s* _u_ ~d~ \\", "\\&amp; \\`tick\\` \\*s\\* \\_u\\_ \\~d\\~ \\\\"),
])
def test_escape(raw: str, escaped: str) -> None:
    assert escape(raw) == escaped


def _finding(i: int, level: Level, size: int) -> Finding:
    name = f"/things/{i:05d}/" + "x" * size
    change = Change("removed" if level is Level.BREAKING else "added", "operation", "", None, None, "both",
                    Context(method="GET", route=name), f"/paths/{i}")
    return Finding("operation.removed" if level is Level.BREAKING else "operation.added", level,
                   f"operation GET {name} changed", "Clients notice.", change)


def _report(findings: list[Finding]) -> Report:
    return Report(SourceInfo("old.yaml", "openapi-3.0"), SourceInfo("new.yaml", "openapi-3.0"), "openapi",
                  tuple(findings), ("a note that must survive truncation",))


def test_a_huge_report_is_cut_under_the_limit_with_a_note() -> None:
    findings = [_finding(i, Level.BREAKING, 150) for i in range(800)] + [
        _finding(i, Level.SAFE, 150) for i in range(800, 1000)]
    text = render(_report(findings), "markdown", RenderOptions())
    assert len(text.encode("utf-16-le")) // 2 <= GITHUB_LIMIT
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert all(line.endswith(" |") for line in rows)
    kept = len(rows)
    assert 100 < kept < 800
    assert rows[-1].startswith(f"| `operation.removed` | GET /things/{kept - 1:05d}/")
    assert f"**Truncated:** {1000 - kept} more findings did not fit in one comment" in text
    assert "<details>" not in text  # the folded safe block did not fit at all, so it is not opened
    assert text.startswith(MARKER) and "- a note that must survive truncation" in text


def test_a_report_that_fits_is_not_cut() -> None:
    findings = [_finding(i, Level.BREAKING, 10) for i in range(20)] + [_finding(20, Level.SAFE, 10)]
    text = render(_report(findings), "markdown", RenderOptions())
    assert "Truncated" not in text
    assert sum(1 for line in text.splitlines() if line.startswith("| `")) == 21
    assert text.count("<details>") == text.count("</details>") == 1


def test_emoji_count_double_towards_the_limit() -> None:
    """GitHub may count UTF-16 units: a comment of astral characters is measured by them, not by code points."""
    findings = [_finding(i, Level.BREAKING, 0) for i in range(300)]
    findings = [Finding(f.rule, f.level, f.message + " " + "🔴" * 200, f.reason, f.change) for f in findings]
    text = render(_report(findings), "markdown", RenderOptions())
    assert len(text.encode("utf-16-le")) // 2 <= GITHUB_LIMIT < len(text) * 2


def test_a_long_crd_name_and_long_notes_still_fit_in_utf16_units() -> None:
    """The header names a single CRD and the notes come from the spec: never shortened, a 40,000-emoji name
    (80,000 UTF-16 units) made the comment longer than GitHub takes."""
    crd = "\n".join(["apiVersion: apiextensions.k8s.io/v1", "kind: CustomResourceDefinition",
                     "metadata: {name: %s.example.com}" % ("😀" * 40_000), "spec:", "  group: example.com",
                     "  names: {plural: frobs, kind: Frob}", "  versions:", "  - name: v1", "    served: true",
                     "    storage: true", "    schema: {openAPIV3Schema: {type: object, properties: {a: {type: %s}}}}"])
    report = run(load_text(crd % "string", "old.yaml", None), load_text(crd % "integer", "new.yaml", None))
    report = dataclasses.replace(report, notes=("🔴" * 5_000,) * 20)
    text = render(report, "markdown", RenderOptions())
    assert len(text.encode("utf-16-le")) // 2 <= GITHUB_LIMIT
    header = text.splitlines()[2]
    assert header.startswith("`old.yaml` → `new.yaml` · spec: CustomResourceDefinitions (😀😀")
    label = header.split(" · ")[1]
    assert len(label) == 300 and label.endswith("😀…")
    assert "| `schema.type-changed` |" in text
    notes = text.split("#### Notes\n", 1)[1].splitlines()
    assert notes[0] == "- " + "🔴" * 999 + "…"
    assert notes[-2] == f"- and {20 - len(notes) + 2} more (`specdiff OLD NEW` shows them all)"


def _group(i: int, places: int) -> Finding:
    members = tuple(_finding(i * 1000 + j, Level.BREAKING, 150) for j in range(places))
    return Finding("operation.removed", Level.BREAKING, f"group {i} of {places} operations removed", "Clients notice.",
                   members[0].change, members=members, group=f"g{i:015d}")


def test_the_comment_gives_way_safe_rows_first_then_place_lists_never_a_breaking_group() -> None:
    report = _report([_group(i, 25) for i in range(30)] + [_finding(i, Level.SAFE, 150) for i in range(500)])
    text = render(report, "markdown", RenderOptions())
    assert len(text.encode("utf-16-le")) // 2 <= GITHUB_LIMIT
    rows = [line for line in text.splitlines() if line.startswith("| `operation.removed`")]
    assert [row.split(" | ")[1] for row in rows] == ["25 places"] * 30  # every group, without its place list
    kept = sum(1 for line in text.splitlines() if line.startswith("| `operation.added`"))
    assert 0 < kept < 500  # the room the shortened groups leave goes to safe rows
    assert f"**Truncated:** {500 - kept} more findings did not fit in one comment" in text
    assert "**Shortened:** groups give how many places they have instead of listing them" in text


def test_a_group_lists_its_places_when_there_is_room() -> None:
    text = render(_report([_group(0, 25)]), "markdown", RenderOptions())
    [row] = [line for line in text.splitlines() if line.startswith("| `")]
    where = row.split(" | ")[1].split("<br>")
    assert where[0] == "25 places:" and len(where) == 1 + 20 + 1 and where[-1] == "and 5 more"
    assert "Truncated" not in text and "Shortened" not in text


def test_names_render_as_code_that_copies_exactly_and_nothing_goes_live() -> None:
    """GH-42 autolinks, $…$ is math, @x mentions, a|b splits a table cell: in a code span none of them happens,
    and the rendered text is the spec's, character for character (no zero-width spaces in it)."""
    label = "GET /pets/{id}|GH-42/$x^2$/@octocat/a5c3785ed8d6 owner/repo#7 :smile: a_b*c"
    method, _, route = label.partition(" ")
    change = Change("removed", "operation", "", None, None, "both", Context(method=method, route=route), "/paths/x")
    finding = Finding("operation.removed", Level.BREAKING, f"operation {label} removed", "Clients notice.", change)
    text = render(_report([finding]), "markdown", RenderOptions())
    html = cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)
    page = _Page()
    page.feed(html)
    assert LIVE.findall("".join(page.outside_code)) == []
    cells = re.findall(r"<td>(.*?)</td>", html)
    assert len(cells) == 4  # the | in the name did not split the row
    assert re.sub(r"<[^>]+>", "", cells[1]) == label.replace("&", "&amp;")  # named once, in the where cell
    assert re.sub(r"<[^>]+>", "", cells[2]) == "Operation removed"
    assert "\u200b" not in text


def _cells(markdown: str) -> list[tuple[str, str, str]]:
    """(rule, where, change) of each table row, as GitHub renders them (tags dropped, entities read)."""
    import html

    page = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    rows = [re.findall(r"<td>(.*?)</td>", row, re.DOTALL) for row in re.findall(r"<tr>(.*?)</tr>", page, re.DOTALL)]
    return [tuple(html.unescape(re.sub(r"<[^>]+>", "", cell)) for cell in row[:3])  # type: ignore[misc]
            for row in rows if row]


def test_the_where_cell_names_the_place_of_openapi_and_whole_crd_findings() -> None:
    """Operations by method and path (a Kubernetes resource's by group-version and resource), a whole CRD by its
    kind, a named schema by its name; Kubernetes types keep their group-version. A change beside its operation
    does not name the operation again."""
    from conftest import corpus

    pets = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/pets": {"post": {
        "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
        "responses": {"200": {"description": "ok"}}}}}, "components": {"schemas": {"Pet": {
            "type": "object", "properties": {"name": {"type": "string"}}}}}}
    bigger = json.loads(json.dumps(pets))
    bigger["paths"]["/pets"]["post"]["requestBody"]["required"] = True
    bigger["components"]["schemas"]["Pet"]["properties"]["tag"] = {"type": "string"}
    old, new = (load_text(json.dumps(spec), name, None) for spec, name in ((pets, "old.json"), (bigger, "new.json")))
    assert _cells(render(run(old, new), "markdown", RenderOptions())) == [
        ("request-body.became-required", "POST /pets", "Request body became required"),
        ("schema.property.added", "Pet", "Optional property Pet.tag added")]
    routes = "crds/gateway-api/httproutes.standard.{}.yaml"
    crd = compare(corpus(routes.format("v0.5.0")), corpus(routes.format("v0.8.0")))[0]
    assert [cells for cells in _cells(render(crd, "markdown", RenderOptions())) if cells[0].startswith("crd.")] == [
        ("crd.version.storage-changed", "HTTPRoute", "httproutes.gateway.networking.k8s.io: storage version v1alpha2 "
                                                     "-> v1beta1"),
        ("crd.version.unserved", "gateway.networking.k8s.io/v1alpha2", "HTTPRoute is no longer served"),
        ("crd.version.deprecated", "gateway.networking.k8s.io/v1alpha2", "HTTPRoute: deprecated false -> true")]
    demo = compare("corpora/demo/frobber-v6.yaml", "corpora/demo/frobber-v7.yaml")[0]
    frobbers = "/apis/frobs.example.com/v6/namespaces/{namespace}/frobbers"
    assert _cells(render(demo, "markdown", RenderOptions()))[:2] == [
        ("parameter.became-required", "frobs.example.com/v6 frobbers",
         f"Query parameter labelSelector of GET {frobbers} became required"),
        ("response.media-type-removed", "frobs.example.com/v6 frobbers",
         f"GET {frobbers} response 200 is no longer offered as application/yaml")]


def test_a_reason_several_rows_share_is_printed_once_under_the_table() -> None:
    """Kubernetes 1.35 -> 1.36: 5 of the 8 dangerous rows give one 240-character reason; each names it by
    number and the reason is written once, as a numbered list under the table, as GitHub renders it."""
    from conftest import real_pair

    report = real_pair("kubernetes/v2/swagger-v1.35.json", "kubernetes/v2/swagger-v1.36.json")
    text = render(report, "markdown", RenderOptions())
    section = text.split("dangerous changes</summary>\n\n", 1)[1].split("</details>", 1)[0]
    table = section.split("\n\n", 1)[0].splitlines()[2:]
    optional = ("Clients decoding into Go structs read an absent field as its zero value, and where only the "
                "+optional marker changed, objects stay as they were; check that readers and controllers cope with "
                "objects without it (omitempty added to its json tag drops zero values).")
    whys = [row.rsplit(" | ", 1)[1].removesuffix(" |") for row in table]
    assert whys.count("reason 1 (below)") == 5 and len(whys) == 8 and optional not in "\n".join(table)
    html = cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)
    # the legend's lines are wrapped at 200 characters: one paragraph once rendered, a soft break for a space
    dangerous = " ".join(html.split("dangerous changes</summary>", 1)[1].split("</details>", 1)[0].split())
    assert dangerous.count(optional) == 1
    assert f"</table> <ol> <li>{optional}</li>" in dangerous
    breaking = text.split("#### Breaking changes\n", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    assert [row.rsplit(" | ", 1)[1].removesuffix(" |") for row in breaking] == [  # distinct reasons stay in place
        f.reason for f in report.findings if f.level.value == "breaking"]
