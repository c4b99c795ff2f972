"""report: Report -> text. A registry of formatters keyed by --format, each with render(report, options) -> str."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from specdiff.frozen import record
from specdiff.patterns import compiled
from specdiff.records import Finding, Level, Report

if TYPE_CHECKING:
    from specdiff.load.document import Document

#: format name -> module (imported only when that format is asked for, to keep start-up fast)
FORMATS: dict[str, str] = {
    "text": "specdiff.report.text",
    "json": "specdiff.report.json_envelope",
    "yaml": "specdiff.report.yaml_envelope",
    "markdown": "specdiff.report.markdown",
    "job-summary": "specdiff.report.job_summary",
    "release-notes": "specdiff.report.release_notes",
    "github": "specdiff.report.github",
    "sarif": "specdiff.report.sarif",
    "junit": "specdiff.report.junit",
    "jsonpatch": "specdiff.report.jsonpatch",
    "html": "specdiff.report.html",
}


@record(frozen=True)
class RenderOptions:
    """What a formatter may need beside the report: colour, and the loaded documents.

    The documents give source lines (github, sarif) and the raw trees (jsonpatch); without them those formats
    still render, with less detail. Grouping by API (release-notes, html) needs only the report.
    """

    color: bool = False
    fail_on: str = "breaking"  # junit: a finding at or above this level fails its test case ("never": none)
    annotate_level: str = "dangerous"  # sarif, github: the mildest level that becomes an annotation
    old_doc: Document | None = None
    new_doc: Document | None = None
    summary_only: bool = False  # text: only the counts by level and by rule


Renderer = Callable[[Report, RenderOptions], str]


def annotated(report: Report, options: RenderOptions) -> list[Finding]:
    """The findings worth an annotation, breaking first: GitHub shows only the first few of each kind per step,
    and hundreds of safe notes would bury the ones that matter."""
    threshold = Level(options.annotate_level).rank
    return sorted((f for f in report.findings if f.level.rank <= threshold), key=lambda f: f.level.rank)


def at_or_above(finding: Finding, fail_on: str) -> bool:
    """Whether a finding meets a --fail-on threshold."""
    return fail_on != "never" and finding.level.rank <= Level(fail_on).rank


#: what JSON and XML reports write as escapes (`\u007f`, `&#x7f;`): DEL and the C1 controls (a terminal may act
#: on them: U+009B starts a control sequence) and the invisible characters that reorder or hide text; either
#: language reads them back as the same characters
NOT_RAW = "[\x7f-\x9f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]"


def json_text(data: Any) -> str:
    """A JSON report: indented, strict (no NaN), non-ASCII text as it is but for what `NOT_RAW` names,
    which the standard library writes raw (it escapes only the C0 controls)."""
    import json

    text = json.dumps(data, indent=2, ensure_ascii=False, default=str, allow_nan=False)
    return compiled(NOT_RAW).sub(lambda found: f"\\u{ord(found.group()):04x}", text) + "\n"


def renderer(name: str) -> Renderer:
    module = importlib.import_module(FORMATS[name])
    render: Renderer = module.render
    return render


def render(report: Report, name: str, options: RenderOptions | None = None) -> str:
    return renderer(name)(report, options or RenderOptions())
