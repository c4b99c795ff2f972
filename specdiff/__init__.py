"""specdiff: tells, change by change, whether an API change breaks existing clients, controllers or objects.

    >>> import specdiff
    >>> report = specdiff.compare("old.yaml", "new.yaml", config={"rules": {"operation.added": "off"}})
    >>> [(f.rule, f.level.value, f.change.pointer) for f in report.findings]

docs/python-api.md describes the API.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datetime import date

    from specdiff.config import Config
    from specdiff.load.parse import Limits
    from specdiff.records import Change, Context, Finding, Level, Report, SourceInfo

__version__ = "0.1.0"
__all__ = ["compare", "Config", "Change", "Context", "Finding", "Level", "Report", "SourceInfo", "__version__"]

#: public names imported on first use, so that `specdiff --help` does not load the configuration and records
_LAZY = {"Config": "specdiff.config", "Change": "specdiff.records", "Context": "specdiff.records",
         "Finding": "specdiff.records", "Level": "specdiff.records", "Report": "specdiff.records",
         "SourceInfo": "specdiff.records"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'specdiff' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


def compare(old: str | os.PathLike[str], new: str | os.PathLike[str], policy: str | None = None,
            config: str | os.PathLike[str] | Mapping[str, Any] | Config | None = None,
            baseline: str | os.PathLike[str] | None = None, today: date | None = None,
            limits: Limits | None = None, grouped: bool = True) -> Report:
    """Compare two specs and return the classified report, after the policy stage.

    `old` and `new` are what the command line takes: files, per-group directories, or `REV:path` in a git
    repository. `policy` is auto, kubernetes or openapi (default: the configuration's, else auto).
    `config` is a configuration file (`.specdiff.yaml`, pyproject.toml), a mapping with the same keys, or a
    `Config`; without one no configuration applies (no file is searched for). `baseline` is a baseline file.
    `today` decides whether ignores have expired (default: today). `limits` bounds what an input may cost
    (`specdiff.load.parse.Limits`: size, depth, YAML aliases, remote refs; default: the command line's defaults).
    `grouped=False` gives one finding per place instead of one per logical change (`--no-group`).

    Raises `specdiff.errors.SpecdiffError` (with a one-line message) for unreadable or invalid input.
    """
    from dataclasses import replace

    from specdiff.collector import collector_paused
    from specdiff.config import Config, config_from_mapping, load_config, read_baseline
    from specdiff.load import load
    from specdiff.load.parse import DEFAULT_LIMITS
    from specdiff.pipeline import run

    if config is None:
        chosen = Config()
    elif isinstance(config, Config):
        chosen = config
    elif isinstance(config, Mapping):
        chosen = config_from_mapping(config)
    else:
        chosen = load_config(os.fspath(config))
    if baseline is not None:
        chosen = replace(chosen, baseline=read_baseline(os.fspath(baseline)), baseline_path=os.fspath(baseline))
    with collector_paused():
        bounds = limits or DEFAULT_LIMITS
        return run(load(os.fspath(old), bounds), load(os.fspath(new), bounds), policy or chosen.policy or "auto",
                   chosen, today, grouped)
