"""specdiff: tells, change by change, whether an API change breaks existing clients, controllers or objects.

    >>> import specdiff
    >>> report = specdiff.compare("old.yaml", "new.yaml", config={"rules": {"operation.added": "off"}})
    >>> [(f.rule, f.level.value, f.change.pointer) for f in report.findings]

docs/python-api.md describes the API.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import Executor
    from datetime import date

    from specdiff.config import Config
    from specdiff.histories import History, Step, Version
    from specdiff.load.parse import Limits
    from specdiff.records import Change, Context, Finding, Level, Report, SourceInfo

from specdiff.version import __version__

__all__ = ["compare", "history", "render", "Config", "Change", "Context", "Finding", "History", "Level", "Report",
           "SourceInfo", "Step", "Version", "__version__"]

#: public names imported on first use, so that `specdiff --help` does not load the configuration and records
_LAZY = {"Config": "specdiff.config", "Change": "specdiff.records", "Context": "specdiff.records",
         "Finding": "specdiff.records", "Level": "specdiff.records", "Report": "specdiff.records",
         "SourceInfo": "specdiff.records", "History": "specdiff.histories", "Step": "specdiff.histories",
         "Version": "specdiff.histories"}


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
            limits: Limits | None = None, grouped: bool = True, repo: str | os.PathLike[str] | None = None) -> Report:
    """Compare two specs and return the classified report, after the policy stage.

    `old` and `new` are what the command line takes: files, per-group directories, or `REV:path` in a git
    repository. `policy` is auto, kubernetes or openapi (default: the configuration's, else auto).
    `config` is a configuration file (`.specdiff.yaml`, pyproject.toml), a mapping with the same keys, or a
    `Config`; without one no configuration applies (no file is searched for). `baseline` is a baseline file.
    `today` is the reference date: whether a sunset has passed, how much notice a deprecation gives and whether
    ignores have expired are judged on it, and reports name it (default: the system date in UTC). `limits`
    bounds what an input may cost (`specdiff.load.parse.Limits`: size, depth, YAML aliases, remote refs;
    default: the command line's defaults).
    `grouped=False` gives one finding per place instead of one per logical change (`--no-group`). `repo` is the
    directory of the git repository `REV:path` inputs resolve against (default: the working directory; `./` and
    `../` paths start there); with it, both inputs are `REV:path`.

    Raises `specdiff.errors.SpecdiffError` (with a one-line message) for unreadable or invalid input.
    """
    from specdiff.collector import collector_paused
    from specdiff.load import load
    from specdiff.load.parse import DEFAULT_LIMITS
    from specdiff.pipeline import run

    chosen = _config(config, baseline)
    with collector_paused():
        bounds = limits or DEFAULT_LIMITS
        here = os.fspath(repo) if repo is not None else None
        return run(load(os.fspath(old), bounds, here), load(os.fspath(new), bounds, here),
                   policy or chosen.policy or "auto", chosen, today, grouped)


def render(result: Report | History, format: str = "text") -> str:
    """`result` as `--format FORMAT` writes it: a `Report` from `compare` in any of the command's formats (text,
    json, yaml, markdown, job-summary, release-notes, github, sarif, junit, jsonpatch, html), a `History` in any of
    `history`'s (text, markdown, json, html, release-notes).

    github, sarif and jsonpatch read the documents for source lines and raw values, which a `Report` does not
    keep: from here they render without them (no line numbers). Raises `specdiff.errors.UsageError` for a format
    the result has none of.
    """
    from specdiff.errors import UsageError
    from specdiff.histories import History
    from specdiff.report import FORMATS
    from specdiff.report import render as render_report
    from specdiff.report.timeline import TIMELINE_FORMATS, render_history

    if isinstance(result, History):
        if format not in TIMELINE_FORMATS:
            raise UsageError(f"no {format!r} format for a history; choose from {', '.join(TIMELINE_FORMATS)}")
        return render_history(result, format)
    if format not in FORMATS:
        raise UsageError(f"no {format!r} format for a report; choose from {', '.join(FORMATS)}")
    return render_report(result, format)


def history(versions: Sequence[str | os.PathLike[str]] = (), *, tags: str | None = None, revs: str | None = None,
            path_filter: Sequence[str | os.PathLike[str]] = (), executor: Executor | None = None,
            jobs: int | None = None, keep_going: bool = False,
            policy: str | None = None, config: str | os.PathLike[str] | Mapping[str, Any] | Config | None = None,
            baseline: str | os.PathLike[str] | None = None, today: date | None = None,
            limits: Limits | None = None, grouped: bool = True, trace: str | None = None,
            repo: str | os.PathLike[str] | None = None) -> History:
    """Compare each of `versions` (oldest first) with the next: `specdiff history` as a `History` record.

    `versions` are what `compare` takes; with `tags` (a git glob) or `revs` (a git range) give one path and the
    versions come from git, as `--tags` and `--revs` take them (`path_filter` as `--path-filter`; the commits a
    range leaves out are in the record's `notes`); `repo`, as in `compare`, is the repository they are read from,
    and paths are relative to it. Each version is read once; runs of consecutive
    pairs are submitted to `executor` (any `concurrent.futures.Executor`: a thread or process pool, a Dask
    client's executor), `jobs` runs in all (default: the cores here). Without an executor a process pool of
    `jobs` workers runs them, or this process when there is one job. `trace` names an element whose life the
    record's `trace` follows (`PodSpec.workloadRef`, `apps/v1beta1`, `GET /pets`, docs/history.md). The other
    arguments are `compare`'s.

    Raises `specdiff.errors.SpecdiffError` for a version that cannot be read, unless `keep_going`: then the
    version carries its error and the steps beside it say why they were not compared.
    """
    from concurrent.futures import ProcessPoolExecutor
    from dataclasses import replace

    from specdiff.errors import UsageError
    from specdiff.load.parse import DEFAULT_LIMITS
    from specdiff.release_train import Settings, given, job_count, rev_versions, tag_versions
    from specdiff.release_train import history as run_history

    names = [os.fspath(version) for version in versions]
    if tags is not None and revs is not None:
        raise UsageError("give one of tags and revs")
    if (tags is not None or revs is not None) and len(names) != 1:
        raise UsageError("tags and revs take the versions of one path from git: give one path")
    if path_filter and revs is None:
        raise UsageError("path_filter chooses the commits of revs: give revs")
    here = os.fspath(repo) if repo is not None else None
    picked = rev_versions(names[0], revs, [os.fspath(p) for p in path_filter], here) if revs is not None else None
    chosen = tag_versions(names[0], tags, here) if tags is not None else picked.versions if picked is not None \
        else given(names)
    settings_config = _config(config, baseline)
    settings = Settings(policy or settings_config.policy or "auto", settings_config, today, grouped,
                        limits=limits or DEFAULT_LIMITS, trace=trace, repo=here)
    count = job_count(jobs, len(chosen))
    if executor is not None or count == 1:
        train = run_history(chosen, settings, executor, count, keep_going)
    else:
        with ProcessPoolExecutor(max_workers=count) as pool:
            train = run_history(chosen, settings, pool, count, keep_going)
    return replace(train, notes=picked.notes) if picked is not None and picked.notes else train


def _config(config: str | os.PathLike[str] | Mapping[str, Any] | Config | None,
            baseline: str | os.PathLike[str] | None) -> Config:
    """The configuration the API runs with: none unless given (no file is searched for), then the baseline."""
    from dataclasses import replace

    from specdiff.config import Config, config_from_mapping, load_config, read_baseline

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
    return chosen
