"""The markdown report sized for a GitHub job summary (1 MiB) rather than a pull-request comment (64 KiB)."""

from __future__ import annotations

from specdiff.report.markdown import render_summary as render

__all__ = ["render"]
