"""The HTML report as a person sees it in headless Chromium: grouped findings, a working level filter, and spec
strings shown as text; and the page loads nothing from anywhere."""

from __future__ import annotations

import os
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import chromium
import pytest
from report_helpers import card_info

from specdiff.records import Change, Context, Finding, Level, Report, SourceInfo
from specdiff.report import RenderOptions, render

HOSTILE_OPERATION = "GET /pets/<img src=x onerror=\"window.pwned=1\">/[x](https://evil.example)"
HOSTILE_SCHEMA = "Pet</h3><script>window.pwned=2</script>"
HOSTILE_VALUE = "&lt;b&gt; \"quoted\" 'single' </li></ul><iframe src=https://evil.example>"


def _finding(rule: str, level: Level, message: str, **context: Any) -> Finding:
    return Finding(rule, level, message, f"Because {rule}.",
                   Change("modified", "schema", "", None, None, "both", Context(**context), "/components/x"),
                   rule_info=card_info(rule))


REPORT = Report(
    SourceInfo("old <i>.yaml", "openapi-3.0", "Pets <script>window.pwned=3</script>", "1"),
    SourceInfo("new.yaml", "openapi-3.0", "Pets <script>window.pwned=3</script>", "2"), "openapi", (
        _finding("operation.removed", Level.BREAKING, f"operation {HOSTILE_OPERATION} removed",
                 method="GET", route=HOSTILE_OPERATION.partition(" ")[2], resource="/pets"),
        _finding("specdiff.unclassified", Level.DANGEROUS, f"enum null -> {HOSTILE_VALUE}", schema=HOSTILE_SCHEMA,
                 field=(".kind",)),
        _finding("operation.added", Level.SAFE, "operation GET /toys added", method="GET",
                 route="/toys", resource="/toys"),
    ), ("note <b>not bold</b>",))


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_the_page_is_self_contained_and_escapes_spec_strings() -> None:
    page = render(REPORT, "html", RenderOptions())
    parser = _Tags()
    parser.feed(page)
    names = [tag for tag, _ in parser.tags]
    assert names.count("script") == 1 and names.count("style") == 1
    assert not {"img", "iframe", "a", "link", "object", "embed", "i", "b"} & set(names)
    assert not [attrs for _, attrs in parser.tags if {"src", "href"} & set(attrs)]
    assert "url(" not in page and "@import" not in page
    csp = [attrs["content"] for tag, attrs in parser.tags if attrs.get("http-equiv") == "Content-Security-Policy"]
    assert csp == ["default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"]
    assert "&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;" in page
    assert "&amp;lt;b&amp;gt; &quot;quoted&quot; &#x27;single&#x27; &lt;/li&gt;&lt;/ul&gt;&lt;iframe" in page


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[chromium.Browser]:
    if not chromium.available():
        if os.environ.get("CI"):
            pytest.fail(f"{chromium.CHROMIUM} is missing: `make test` installs Debian's chromium package")
        pytest.skip(f"{chromium.CHROMIUM} is missing: `make browser` installs Debian's chromium package")
    opened = chromium.Browser(tmp_path_factory.mktemp("chromium-profile"))
    yield opened
    opened.close()


def _visible_text(browser: chromium.Browser) -> str:
    text: str = browser.evaluate("document.body.innerText")  # what is rendered: hidden elements are left out
    return text


def test_what_a_person_sees_and_the_level_filter(browser: chromium.Browser, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(render(REPORT, "html", RenderOptions()), encoding="utf-8")
    browser.open(page.as_uri())
    assert browser.evaluate("document.title") == "specdiff: old <i>.yaml → new.yaml"
    assert browser.evaluate("[window.pwned, document.querySelectorAll('img, iframe, a, i, b').length]") == [None, 0]
    text = _visible_text(browser)
    assert "API changes: Pets <script>window.pwned=3</script> 1 → 2" in text
    assert f"Operation {HOSTILE_OPERATION} removed" in text
    assert f"{HOSTILE_SCHEMA}.kind: enum null -> {HOSTILE_VALUE}" in text
    assert "note <b>not bold</b>" in text
    headings = browser.evaluate("Array.from(document.querySelectorAll('h2, h3')).map(h => h.innerText)")
    assert headings == ["Breaking changes (action required)", "/pets", "New features", "/toys", "Other changes",
                        "Shared types Pet</h3><script>window.pwned=2</script>", "Notes"]
    assert browser.evaluate("document.getElementById('shown').textContent") == "3 of 3 findings shown"
    browser.screenshot(tmp_path / "all.png")

    browser.click("#show-dangerous")  # untick: the dangerous finding and the headings left empty disappear
    assert browser.evaluate("document.getElementById('show-dangerous').checked") is False
    text = _visible_text(browser)
    assert HOSTILE_VALUE not in text and "Other changes" not in text and "Shared types" not in text
    assert f"Operation {HOSTILE_OPERATION} removed" in text and "Operation GET /toys added" in text
    assert browser.evaluate("document.getElementById('shown').textContent") == "2 of 3 findings shown"
    browser.screenshot(tmp_path / "without-dangerous.png")
    assert (tmp_path / "without-dangerous.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    browser.click("#show-breaking")
    text = _visible_text(browser)
    assert "removed" not in text and "Breaking changes" not in text and "Operation GET /toys added" in text

    browser.click("#show-dangerous")  # tick again: back
    text = _visible_text(browser)
    assert f"{HOSTILE_SCHEMA}.kind: enum null -> {HOSTILE_VALUE}" in text and "Other changes" in text
    assert browser.evaluate("document.getElementById('shown').textContent") == "2 of 3 findings shown"
