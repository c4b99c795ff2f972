"""report: Report -> text. A registry of formatters keyed by --format, each with render(report) -> str."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from specdiff.records import Report

#: format name -> module (imported only when that format is asked for, to keep start-up fast)
FORMATS: dict[str, str] = {
    "text": "specdiff.report.text",
    "json": "specdiff.report.json_envelope",
    "markdown": "specdiff.report.markdown",
}


@dataclass(frozen=True)
class RenderOptions:
    color: bool = False
    old_doc: object | None = None  # Documents, for formats that need source line numbers
    new_doc: object | None = None


Renderer = Callable[[Report, RenderOptions], str]


def renderer(name: str) -> Renderer:
    module = importlib.import_module(FORMATS[name])
    render: Renderer = module.render
    return render


def render(report: Report, name: str, options: RenderOptions | None = None) -> str:
    return renderer(name)(report, options or RenderOptions())
