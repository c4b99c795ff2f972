"""What the commands share: their options, the checks of what they write, and running a command's work
with its exit code."""

from __future__ import annotations

import functools
import os
import re
import sys
from datetime import date
from typing import TYPE_CHECKING, Any

import click

from specdiff.collector import collector_paused
from specdiff.config_search import candidates
from specdiff.errors import InputError, OutputError, SpecdiffError, UsageError, one_line
from specdiff.patterns import compiled
from specdiff.records import FAIL_ON

if TYPE_CHECKING:
    from specdiff.config import Config
    from specdiff.load.parse import Limits

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
#: the type of every option that names a file or folder with no other condition: one instance, since each makes its
#: name through gettext (0.25 M instructions a `click.Path` at each start)
PATH = click.Path()


def policy_options(command: Any) -> Any:
    """Options shared by commands that classify: the policy and the configuration that tunes it."""
    options = [
        click.option("--policy", type=click.Choice(["auto", "kubernetes", "openapi"]), default=None,
                     help="Compatibility policy; auto picks kubernetes for Kubernetes specs and CRDs.  "
                          "[default: auto, or the config's]"),
        click.option("--config", "config_file", type=PATH, default=None,
                     help="Configuration file (default: .specdiff.yaml or pyproject.toml [tool.specdiff], "
                          "searched from here upwards)."),
        click.option("--no-config", is_flag=True, help="Use no configuration file."),
        click.option("--select", multiple=True, metavar="RULE",
                     help="Report only these rules (id or dotted prefix); repeatable; replaces the config's."),
        click.option("--ignore", multiple=True, metavar="RULE",
                     help="Drop these rules (id or dotted prefix); repeatable; adds to the config's."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def limit_options(command: Any) -> Any:
    """The input limits (README "Limits"), passed to the command as one `limits` argument."""
    from specdiff.load.parse import DEFAULT_LIMITS, MAX_DEPTH_CEILING, Limits

    @functools.wraps(command)
    def with_limits(*args: Any, max_bytes: int, max_depth: int, max_aliases: int, max_changes: int,
                    max_versions: int, allow_remote_refs: bool, remote_ref_timeout: float, **kwargs: Any) -> Any:
        limits = Limits(max_bytes=max_bytes, max_depth=max_depth, max_alias_nodes=max_aliases,
                        max_changes=max_changes, max_versions=max_versions, allow_remote_refs=allow_remote_refs,
                        remote_timeout=remote_ref_timeout)
        return command(*args, limits=limits, **kwargs)

    options = [
        click.option("--max-bytes", type=click.IntRange(min=1), default=DEFAULT_LIMITS.max_bytes, show_default=True,
                     help="Refuse inputs (and files or URLs they refer to) larger than this many bytes."),
        click.option("--max-depth", type=click.IntRange(1, MAX_DEPTH_CEILING), default=DEFAULT_LIMITS.max_depth,
                     show_default=True, help="Refuse documents nested deeper than this."),
        click.option("--max-aliases", type=click.IntRange(min=1), default=DEFAULT_LIMITS.max_alias_nodes,
                     show_default=True, help="Refuse YAML whose aliases expand to more nodes than this."),
        click.option("--max-changes", type=click.IntRange(min=1), default=DEFAULT_LIMITS.max_changes,
                     show_default=True, help="Refuse a comparison that finds more changes than this."),
        click.option("--max-versions", type=click.IntRange(min=1), default=DEFAULT_LIMITS.max_versions,
                     show_default=True, help="Refuse a CustomResourceDefinition that lists more versions than this."),
        click.option("--allow-remote-refs", is_flag=True,
                     help="Fetch http(s) $refs (off by default: nothing is fetched from the network)."),
        click.option("--remote-ref-timeout", type=click.FloatRange(min=0, min_open=True),
                     default=DEFAULT_LIMITS.remote_timeout, show_default=True, metavar="SECONDS",
                     help="Give up on a remote $ref after this long."),
    ]
    for option in reversed(options):
        with_limits = option(with_limits)
    return with_limits


def selection_options(command: Any) -> Any:
    """Which operations are compared (specdiff/graph/selection.py), passed to the command as one `choose`
    argument: --match-path replaces the configuration's `operations: match-path`, the others add to theirs."""

    @functools.wraps(command)
    def with_selection(*args: Any, match_path: tuple[str, ...], exclude_path: tuple[str, ...], tag: tuple[str, ...],
                       exclude_tag: tuple[str, ...], exclude_extension: tuple[str, ...], **kwargs: Any) -> Any:
        return command(*args, choose=(match_path, exclude_path, tag, exclude_tag, exclude_extension), **kwargs)

    options = [
        click.option("--match-path", multiple=True, metavar="PATTERN",
                     help="Compare only operations whose path matches: a glob (/pets/*) or a regular expression "
                          "searched in the path (^/api/v1/); repeatable."),
        click.option("--exclude-path", multiple=True, metavar="PATTERN",
                     help="Leave out operations whose path matches (as --match-path); repeatable."),
        click.option("--tag", multiple=True, metavar="TAG", help="Compare only operations with this tag; repeatable."),
        click.option("--exclude-tag", multiple=True, metavar="TAG",
                     help="Leave out operations with this tag; repeatable."),
        click.option("--exclude-extension", multiple=True, metavar="NAME",
                     help="Leave out operations (or path items) where this extension is true (x-internal); "
                          "repeatable."),
    ]
    for option in reversed(options):
        with_selection = option(with_selection)
    return with_selection


#: options `compare` and `history` share
include_docs_option = click.option(
    "--include-docs", is_flag=True,
    help="Also report documentation changes (descriptions, summaries, titles, examples, tags) as safe.")
check_version_option = click.option(
    "--check-version", is_flag=True,
    help="Release gate: fail (exit 1) only when the declared version change is smaller than the findings need "
         "(info.version as semver; for Kubernetes, a new API version for a breaking change).")


def today_option(command: Any) -> Any:
    """`--today YYYY-MM-DD`: the reference date, passed to the command as a `datetime.date` (None: not given)."""
    @functools.wraps(command)
    def with_today(*args: Any, today: str | None, **kwargs: Any) -> Any:
        try:
            when = reference_date(today)
        except UsageError as err:
            click.echo(f"specdiff: error: {err.one_line()}", err=True)
            sys.exit(EXIT_ERROR)
        return command(*args, today=when, **kwargs)

    return click.option("--today", metavar="YYYY-MM-DD", default=None,
                        help="The reference date sunset dates and ignore expiry are judged on, named in the "
                             "report's header.  [default: the system date in UTC]")(with_today)


def reference_date(value: str | None) -> date | None:
    """`--today` as a date: exactly `YYYY-MM-DD`, a day that exists."""
    if value is None:
        return None
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise UsageError(f"{value!r} is not a date YYYY-MM-DD", place="--today")


#: --match-path, --exclude-path, --tag, --exclude-tag, --exclude-extension as given
Choice = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]


def configured(config_file: str | None, no_config: bool, select: tuple[str, ...], ignore: tuple[str, ...],
               baseline: str | None, check_version: bool, choose: Choice) -> Config | None:
    """The configuration a comparison runs with (`for_command`, then `for_run`), or None when none applies: no
    file given, none that could be one found, and no option that configures. Such a run, as most are, never
    imports specdiff.config nor the graph's selection."""
    if config_file is None and not (select or ignore or baseline or check_version or any(choose)):
        if no_config or next(candidates(os.getcwd()), None) is None:
            return None
    from specdiff.config import for_command

    config: Config = for_run(for_command(config_file, no_config, select, ignore, baseline), check_version, choose)
    return config


def for_run(config: Any, check_version: bool, choose: Choice) -> Any:
    """The configuration with --check-version and the operation selection of the command line on top."""
    from dataclasses import replace

    from specdiff.config import check_name
    from specdiff.graph.selection import check_pattern

    match_path, exclude_path, tags, exclude_tags, exclude_extensions = choose
    for values, check, option in ((match_path, check_pattern, "--match-path"),
                                  (exclude_path, check_pattern, "--exclude-path"), (tags, check_name, "--tag"),
                                  (exclude_tags, check_name, "--exclude-tag"),
                                  (exclude_extensions, check_name, "--exclude-extension")):
        for value in values:
            try:
                check(value)
            except ValueError as err:
                raise click.UsageError(f"{option}: {err}") from None
    chosen = config.selection
    selection = replace(chosen, match_paths=match_path or chosen.match_paths,
                        exclude_paths=chosen.exclude_paths + exclude_path, tags=tags or chosen.tags,
                        exclude_tags=chosen.exclude_tags + exclude_tags,
                        exclude_extensions=chosen.exclude_extensions + exclude_extensions)
    return replace(config, check_version=config.check_version or check_version, selection=selection)


def gated_exit_code(result: Any, fail_on: str, check_version: bool) -> int:
    """exit_code of a report or history; with the release gate on, only the gate's findings fail the run: a
    breaking change released as a new major version (or a new API version) is what the gate lets through."""
    if fail_on == "never":
        return EXIT_OK
    counted = [f for f in result.findings if not check_version or f.rule.startswith("release.")]
    return EXIT_FINDINGS if any(f.level.rank <= FAIL_ON.index(fail_on) for f in counted) else EXIT_OK


#: compiled (`specdiff.patterns`) only for a value that has a `://` somewhere
_URL = r"[A-Za-z][A-Za-z0-9+.-]*://"


def not_a_url(value: str | None, what: str) -> None:
    """A URL where a file belongs is refused with what to do instead (specdiff reads no URLs it is given)."""
    if value and "://" in value and compiled(_URL).match(value) and not os.path.exists(value):
        hint = "give a local path" if what.startswith("--output") else \
            "download it first (curl -fsSLo spec.yaml URL) and give the file"
        raise InputError(f"{what} is a URL; specdiff reads local files and git revisions: {hint}", file=value)


def load_pair_explained(old: str, new: str, limits: Limits) -> Any:
    """load_pair, with what to do when a folder met a file and one of them could not be read."""
    from specdiff.load.pair import load_pair

    try:
        return load_pair(old, new, limits)
    except InputError as err:
        folders = [os.path.isdir(old), os.path.isdir(new)]
        if folders[0] == folders[1]:
            raise
        kinds = ["a folder" if is_dir else "a file" for is_dir in folders]
        raise InputError(f"{err.detail} (OLD is {kinds[0]} and NEW is {kinds[1]}: compare two files, or two folders "
                         "of per-group documents)", file=err.file, place=err.place) from None


EXTENSIONS = {"text": "txt", "markdown": "md", "job-summary": "summary.md", "release-notes": "release-notes.md",
               "github": "github.txt",
               "sarif": "sarif", "junit": "junit.xml", "jsonpatch": "patch.json", "html": "html", "yaml": "yaml",
               "json": "json"}


def exit_code(report: Any, fail_on: str) -> int:
    """1 when a finding is at or above `fail_on`, else 0."""
    return gated_exit_code(report, fail_on, check_version=False)


def write_atomic(path: str, text: str) -> None:
    """Write a report whole or not at all (`load.files.replace_whole`); a folder, FIFO, device or socket at the
    path is never replaced."""
    from specdiff.load.files import NotRegular, replace_whole

    try:
        replace_whole(path, text)
    except NotRegular as err:
        raise OutputError(f"cannot write the report: is {err.kind}, not a file", file=path) from None
    except OSError as err:
        raise OutputError(f"cannot write the report: {err.strerror or err}", file=path) from None


def guarded(job: Any) -> int:
    """Run a command body; tool errors become one line on stderr and exit code 2, never a traceback."""
    try:
        with collector_paused():
            return int(job())
    except SpecdiffError as err:
        click.echo(f"specdiff: error: {err.one_line()}", err=True)
        return EXIT_ERROR
    except click.UsageError:
        raise
    except KeyboardInterrupt:
        click.echo("specdiff: interrupted", err=True)
        return 130
    except RecursionError:
        click.echo("specdiff: error: input nests too deeply to compare", err=True)
        return EXIT_ERROR
    except Exception as err:  # noqa: BLE001 - the last line of defence against a traceback
        if os.environ.get("SPECDIFF_DEBUG"):
            raise
        detail = " ".join(one_line(f"{type(err).__name__}: {err}").split())
        click.echo(f"specdiff: internal error: {detail} (set SPECDIFF_DEBUG=1 for details)", err=True)
        return EXIT_ERROR


def check_outputs(formats: tuple[str, ...], known: Any, output: str | None, output_dir: str | None) -> None:
    """The --format, --output and --output-dir checks every reporting command makes."""
    unknown = [f for f in formats if f not in known]
    if unknown:
        raise click.UsageError(f"unknown --format {unknown[0]!r}; choose from {', '.join(sorted(known))}")
    if len(formats) > 1 and not output_dir:
        raise click.UsageError("several --format values need --output-dir")
    if output and output_dir:
        raise click.UsageError("--output writes one file and --output-dir one per format: give one of them")
