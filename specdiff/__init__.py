"""specdiff: tells, change by change, whether an API change breaks existing clients, controllers or objects.

    >>> import specdiff
    >>> report = specdiff.compare("old.yaml", "new.yaml")
    >>> [(f.rule, f.level.value, f.change.pointer) for f in report.findings]
"""

from __future__ import annotations

from specdiff.records import Change, Context, Finding, Level, Report, SourceInfo

__version__ = "0.1.0"
__all__ = ["compare", "Change", "Context", "Finding", "Level", "Report", "SourceInfo", "__version__"]


def compare(old: str, new: str, policy: str = "auto") -> Report:
    """Compare two specs given as paths (files or per-group directories) and return the classified report.

    Raises `specdiff.errors.SpecdiffError` (with a one-line message) for unreadable or invalid input.
    """
    from specdiff.load import load
    from specdiff.pipeline import run

    return run(load(old), load(new), policy)
