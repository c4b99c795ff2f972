"""GitHub Actions workflow commands: one annotation per finding, on the line of the spec it is about.

`::error file=api/openapi.yaml,line=12,col=5,title=...::message`; breaking findings are errors, dangerous ones
warnings and safe ones notices; only findings at or above `--annotate-level` (default dangerous) are
annotated, breaking first. The action prints them into the job log, so control characters, ANSI escapes and
bidi controls from spec text are dropped, as in the text format. Values are escaped as the Actions toolkit
does, so a spec string can neither end the command nor start another one on a new line.
"""

from __future__ import annotations

from specdiff.records import Finding, Level, Report
from specdiff.report import RenderOptions, annotated
from specdiff.report.sections import reason, sentence
from specdiff.report.sources import source_location
from specdiff.report.text import clean

COMMANDS = {Level.BREAKING: "error", Level.DANGEROUS: "warning", Level.SAFE: "notice"}


def escape_data(text: str) -> str:
    """A command's message: `%`, CR and LF are percent-encoded."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value: as data, and `:` and `,` too, which would end the value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(finding: Finding, options: RenderOptions) -> str:
    properties = []
    where = source_location(finding, options)
    if where is not None:
        properties.append(("file", clean(where.file)))
        if where.line is not None:
            properties += [("line", str(where.line)), ("col", str(where.column))]
    properties.append(("title", f"{finding.rule} ({finding.level.value})"))
    head = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    message = f"{clean(sentence(finding))}\nWhy: {clean(reason(finding))}"
    if where is not None and where.removed:
        message += f"\nRemoved: {clean(where.removed)}"
    return f"::{COMMANDS[finding.level]} {head}::{escape_data(message)}"


def render(report: Report, options: RenderOptions) -> str:
    return "".join(annotation(finding, options) + "\n" for finding in annotated(report, options))
