"""The pieces of the pull-request comment: its marker, and how a failure is shown."""

from __future__ import annotations

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options

from specdiff.pull_request import failure_report, marker
from specdiff.report.markdown import code_span


@pytest.mark.parametrize("spec, expected", [
    ("api/openapi.yaml", "<!-- specdiff: api/openapi.yaml -->"),
    ("a b-->\n<script>", "<!-- specdiff: a%20b--%3E%0A%3Cscript%3E -->"),
])
def test_the_marker_names_the_spec_and_cannot_close_early(spec: str, expected: str) -> None:
    assert marker(spec) == expected


def test_a_long_name_keeps_a_short_distinct_marker() -> None:
    first, second = marker("x" * 300 + "a"), marker("x" * 300 + "b")
    assert first != second and len(first) < 200


@pytest.mark.parametrize("text", ["plain", "a `tick` b", "`edge`", "<b>@me</b> #1 GH-42 $x$ [l](http://e.com)",
                                  "``double``"])
def test_a_code_span_renders_as_the_exact_text(text: str) -> None:
    html = cmarkgfm.github_flavored_markdown_to_html(f"x {code_span(text)} y", options=Options.CMARK_OPT_UNSAFE)
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    assert html == f"<p>x <code>{escaped}</code> y</p>\n"


def test_the_failure_comment_quotes_the_error() -> None:
    assert failure_report("specdiff: error: a.yaml:3: malformed YAML\n") == (
        "### specdiff: API compatibility\n\n**The comparison failed**, so this pull request was not checked: "
        "`specdiff: error: a.yaml:3: malformed YAML`\n")
