"""Command line: the only module that touches files, stdout and exit codes."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import os
import re
import shlex
import sys
from datetime import date
from typing import TYPE_CHECKING, Any

import click

from specdiff import __version__
from specdiff.collector import collector_paused, exit_without_teardown
from specdiff.errors import InputError, OutputError, SpecdiffError, UsageError, one_line
from specdiff.records import FAIL_ON, LEVELS

if TYPE_CHECKING:
    from collections.abc import Callable

    from specdiff.load.parse import Limits

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _DefaultToCompare(click.Group):
    """`specdiff OLD NEW` is `specdiff compare OLD NEW`; the other verbs are subcommands."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["compare", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_DefaultToCompare, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="specdiff")
def main() -> None:
    """Compare two versions of an API description and say, change by change, what breaks.

    \b
      specdiff OLD NEW              compare two specs (files, per-group directories, - for stdin,
                                    or REV:path from git, e.g. origin/main:api/openapi.yaml)
      specdiff history V1 V2 V3...  compare each version with the next (or PATH --tags 'v*' from git)
      specdiff baseline OLD NEW     write the fingerprints of today's findings, to accept them
      specdiff staged FILE...       compare staged specs with HEAD (pre-commit)
      specdiff rules                list the rule catalogue
      specdiff explain RULE         print one rule's documentation
      specdiff github-comment       post or update the pull-request comment (the GitHub action)

    Exit codes: 0 nothing at or above --fail-on, 1 something is, 2 usage or input error.
    """


def entry() -> None:
    """The `specdiff` command: run it with the collector off and leave without tearing the heap down."""
    import gc

    gc.disable()
    try:
        main()
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            exit_without_teardown(done.code or 0)
        raise
    exit_without_teardown(EXIT_OK)


def policy_options(command: Any) -> Any:
    """Options shared by commands that classify: the policy and the configuration that tunes it."""
    options = [
        click.option("--policy", type=click.Choice(["auto", "kubernetes", "openapi"]), default=None,
                     help="Compatibility policy; auto picks kubernetes for Kubernetes specs and CRDs.  "
                          "[default: auto, or the config's]"),
        click.option("--config", "config_file", type=click.Path(), default=None,
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


@main.command()
@click.argument("old")
@click.argument("new")
@click.option("--format", "formats", multiple=True, default=("text",), show_default=True,
              help="Output format: text, json, yaml, markdown (PR comment), job-summary, release-notes, "
                   "github (annotations), sarif, junit, html, jsonpatch; repeat for several (with --output-dir).")
@click.option("--output", "-o", type=click.Path(), help="Write the report to this file.")
@click.option("--output-dir", type=click.Path(file_okay=False), help="Write one file per --format here.")
@policy_options
@click.option("--fail-on", type=click.Choice(FAIL_ON), default=None,
              help="Exit 1 when a finding is at or above this level.  [default: breaking, or the config's]")
@click.option("--baseline", type=click.Path(), default=None,
              help="Drop findings whose fingerprint this file lists (see `specdiff baseline`).")
@click.option("--annotate-level", type=click.Choice(LEVELS), default=None,
              help="The mildest level that sarif and github annotate.  [default: dangerous, or the config's]")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True)
@click.option("--no-group", is_flag=True, help="One finding per place instead of one per logical change.")
@click.option("--summary", "summary_only", is_flag=True,
              help="Print only the summary: counts by level and by rule (text format).")
@include_docs_option
@check_version_option
@selection_options
@limit_options
@today_option
def compare(old: str, new: str, formats: tuple[str, ...], output: str | None, output_dir: str | None,
            policy: str | None, fail_on: str | None, baseline: str | None, annotate_level: str | None, color: str,
            no_group: bool, summary_only: bool, include_docs: bool, check_version: bool, choose: Choice,
            limits: Limits, today: date | None, config_file: str | None, no_config: bool, select: tuple[str, ...],
            ignore: tuple[str, ...]) -> None:
    """Compare OLD with NEW and report every change with its verdict and reason.

    OLD and NEW are files, per-group directories, - for stdin, or REV:path for a file or directory at a git
    revision (origin/main:api/openapi.yaml; :path is the staged version).
    """
    from specdiff.config import for_command
    from specdiff.pipeline import deep_enough, run
    from specdiff.report import FORMATS, RenderOptions, render

    def job() -> int:
        check_outputs(formats, FORMATS, output, output_dir)
        for value, what in ((old, "OLD"), (new, "NEW"), (config_file, "--config"), (baseline, "--baseline"),
                            (output, "--output"), (output_dir, "--output-dir")):
            _not_a_url(value, what)
        config = _for_run(for_command(config_file, no_config, select, ignore, baseline), check_version, choose)
        old_doc, new_doc = _load_pair_explained(old, new, limits)
        report = run(old_doc, new_doc, policy or config.policy or "auto", config, today, grouped=not no_group,
                     include_docs=include_docs)
        use_color = color == "always" or (color == "auto" and output is None and sys.stdout.isatty()
                                          and "NO_COLOR" not in os.environ)
        for name in formats:
            options = RenderOptions(color=use_color and name == "text" and not output_dir,
                                    old_doc=old_doc, new_doc=new_doc, fail_on=fail_on or config.fail_on or "breaking",
                                    annotate_level=annotate_level or config.annotate_level or "dangerous",
                                    summary_only=summary_only)
            with deep_enough(old_doc, new_doc):  # values as deep as --max-depth lets them be are written out
                text = render(report, name, options)
            if output_dir or output:
                write_atomic(output or os.path.join(output_dir or "", f"specdiff.{_EXTENSIONS.get(name, name)}"),
                             text)
            else:
                click.echo(text, nl=False, color=options.color)  # click strips colour off a pipe unless told
        return _exit_code(report, fail_on or config.fail_on or "breaking", config.check_version)

    sys.exit(guarded(job))


#: --match-path, --exclude-path, --tag, --exclude-tag, --exclude-extension as given
Choice = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]


def _for_run(config: Any, check_version: bool, choose: Choice) -> Any:
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


def _exit_code(result: Any, fail_on: str, check_version: bool) -> int:
    """exit_code of a report or history; with the release gate on, only the gate's findings fail the run: a
    breaking change released as a new major version (or a new API version) is what the gate lets through."""
    if fail_on == "never":
        return EXIT_OK
    counted = [f for f in result.findings if not check_version or f.rule.startswith("release.")]
    return EXIT_FINDINGS if any(f.level.rank <= FAIL_ON.index(fail_on) for f in counted) else EXIT_OK


_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def _not_a_url(value: str | None, what: str) -> None:
    """A URL where a file belongs is refused with what to do instead (specdiff reads no URLs it is given)."""
    if value and _URL.match(value) and not os.path.exists(value):
        hint = "give a local path" if what.startswith("--output") else \
            "download it first (curl -fsSLo spec.yaml URL) and give the file"
        raise InputError(f"{what} is a URL; specdiff reads local files and git revisions: {hint}", file=value)


def _load_pair_explained(old: str, new: str, limits: Limits) -> Any:
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


_EXTENSIONS = {"text": "txt", "markdown": "md", "job-summary": "summary.md", "release-notes": "release-notes.md",
               "github": "github.txt",
               "sarif": "sarif", "junit": "junit.xml", "jsonpatch": "patch.json", "html": "html", "yaml": "yaml",
               "json": "json"}


def exit_code(report: Any, fail_on: str) -> int:
    if fail_on == "never":
        return EXIT_OK
    threshold = FAIL_ON.index(fail_on)
    return EXIT_FINDINGS if any(f.level.rank <= threshold for f in report.findings) else EXIT_OK


def write_atomic(path: str, text: str) -> None:
    """Write a temporary file beside the target, then rename it over the target: never a half-written report.

    The temporary file is created exclusively under an unpredictable name, so nothing planted in the folder
    (a symlink at a guessable name) receives the text. The target may be missing, a regular file or a symlink;
    a symlink is replaced by the report, and the file it pointed to is left alone. A folder, FIFO, device or
    socket is never replaced.
    """
    import stat
    import tempfile

    from specdiff.load.files import kind_of

    folder = os.path.dirname(os.path.abspath(path))
    temporary = None
    try:
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            raise OutputError(f"cannot write the report: is {kind_of(mode)}, not a file", file=path)
        os.makedirs(folder, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as a plain open() would have made it, not mkstemp's 0600
        os.replace(temporary, path)
        temporary = None
    except OSError as err:
        raise OutputError(f"cannot write the report: {err.strerror or err}", file=path) from None
    finally:
        if temporary is not None and os.path.lexists(temporary):
            os.unlink(temporary)


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


@main.command("manifests")
@click.argument("old")
@click.argument("new")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--format", "formats", multiple=True, default=("text",), show_default=True,
              help="Output format: text, json, markdown (PR comment), sarif, github (annotations); repeat for "
                   "several (with --output-dir).")
@click.option("--output", "-o", type=click.Path(), help="Write the report to this file.")
@click.option("--output-dir", type=click.Path(file_okay=False), help="Write one file per --format here.")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default=None,
              help="Exit 1 when a finding is at or above this level.  [default: breaking, or the config's]")
@click.option("--annotate-level", type=click.Choice(LEVELS), default=None,
              help="The mildest level that sarif and github annotate.  [default: dangerous, or the config's]")
@click.option("--select", multiple=True, metavar="RULE", help="Report only these rules (id or prefix); repeatable.")
@click.option("--ignore", multiple=True, metavar="RULE", help="Drop these rules (id or prefix); repeatable.")
@click.option("--baseline", type=click.Path(), default=None,
              help="Drop findings whose fingerprint this file lists (one a line, as the json format gives them).")
@click.option("--config", "config_file", type=click.Path(), default=None,
              help="Configuration file for fail-on, annotate-level and baseline (default: .specdiff.yaml or "
                   "pyproject.toml [tool.specdiff], searched from here upwards).")
@click.option("--no-config", is_flag=True, help="Use no configuration file.")
@limit_options
def manifests_command(old: str, new: str, paths: tuple[str, ...], formats: tuple[str, ...], output: str | None,
                      output_dir: str | None, fail_on: str | None, annotate_level: str | None,
                      select: tuple[str, ...], ignore: tuple[str, ...], baseline: str | None,
                      config_file: str | None, no_config: bool, limits: Limits) -> None:
    """Which Kubernetes objects in PATH... break when the cluster moves from OLD to NEW.

    OLD and NEW describe the cluster today and the target: anything `compare` reads (a swagger.json, per-group
    v3 folders, CRD files, REV:path). PATH is a YAML or JSON file, a folder (read recursively), or - for a
    multi-document stream on stdin (helm template . | specdiff manifests OLD NEW -).
    """
    from specdiff.config import for_command, read_baseline
    from specdiff.graph import graph_of
    from specdiff.manifests import RULES, check_manifests
    from specdiff.report.manifests import FORMATS, fingerprint, render

    def job() -> int:
        check_outputs(formats, FORMATS, output, output_dir)
        for value, what in ((old, "OLD"), (new, "NEW"), (config_file, "--config"), (baseline, "--baseline"),
                            (output, "--output"), (output_dir, "--output-dir")):
            _not_a_url(value, what)
        for option, chosen in (("--select", select), ("--ignore", ignore)):
            for rule in chosen:
                if not any(known == rule or known.startswith(rule.rstrip(".") + ".") for known in RULES):
                    raise click.UsageError(f"{option}: no manifests rule is {rule!r} or starts with it "
                                           f"(rules: {', '.join(sorted(RULES))})")
        config = for_command(config_file, no_config, (), (), None)
        stdin = sys.stdin.buffer.read(limits.max_bytes + 1) if "-" in paths else None
        old_doc, new_doc = _load_pair_explained(old, new, limits)
        report = check_manifests(graph_of(old_doc), graph_of(new_doc), paths, limits, stdin)
        dropped = {entry.fingerprint for entry in (read_baseline(baseline) if baseline else config.baseline)}

        def wanted(rule: str) -> bool:
            def named(rules: tuple[str, ...]) -> bool:
                return any(rule == r or rule.startswith(r.rstrip(".") + ".") for r in rules)
            return (not select or named(select)) and not named(ignore)

        kept = tuple(f for f in report.findings if wanted(f.rule) and fingerprint(f) not in dropped)
        report = dataclasses.replace(report, findings=kept)
        level = annotate_level or config.annotate_level or "dangerous"
        for name in formats:
            text = render(report, name, level)
            if output_dir or output:
                target = f"specdiff-manifests.{_EXTENSIONS.get(name, name)}"
                write_atomic(output or os.path.join(output_dir or "", target), text)
            else:
                click.echo(text, nl=False)
        return exit_code(report, fail_on or config.fail_on or "breaking")

    sys.exit(guarded(job))


@main.command("history")
@click.argument("versions", nargs=-1, required=True)
@click.option("--revs", metavar="RANGE",
              help="Take the versions of the one PATH from git: the commits of RANGE that changed it (A..B starts "
                   "with the spec at A).")
@click.option("--path-filter", "path_filter", multiple=True, metavar="PATH",
              help="With --revs: take the commits that changed anything under PATH (repeat for several).  "
                   "[default: the spec's folder when it refers to other files, else the file]")
@click.option("--tags", metavar="PATTERN",
              help="Take the versions of the one PATH from git: the tags matching PATTERN that hold it, sorted as "
                   "versions (v1.9 before v1.10).")
@click.option("--format", "formats", multiple=True, default=("text",), show_default=True,
              help="Output format: text, markdown, json, html, release-notes (one section per release, newest "
                   "first); repeat for several (with --output-dir).")
@click.option("--output", "-o", type=click.Path(), help="Write the report to this file.")
@click.option("--output-dir", type=click.Path(file_okay=False), help="Write one file per --format here.")
@policy_options
@click.option("--fail-on", type=click.Choice(FAIL_ON), default=None,
              help="Exit 1 when a finding of any step is at or above this level.  [default: breaking, or the "
                   "config's]")
@click.option("--summary", "summary_only", is_flag=True,
              help="Only the table of steps by level, the trace (--trace) and the API versions by release: "
                   "no section per step.")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress on stderr (by default a line every few seconds when stderr is no terminal).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Compare this many runs of versions at once, in as many processes.  [default: the cores]")
@click.option("--keep-going", is_flag=True,
              help="Report the other steps when a version cannot be read, and mark it, instead of stopping (exit 2).")
@click.option("--trace", "trace", metavar="THING",
              help="Follow one element across the versions: a group-version (apps/v1beta1), an operation "
                   "(GET /pets) or a type and field (PodSpec.workloadRef), as reports name them.")
@click.option("--no-group", is_flag=True, help="One finding per place instead of one per logical change.")
@include_docs_option
@check_version_option
@selection_options
@limit_options
@today_option
def history_command(versions: tuple[str, ...], revs: str | None, path_filter: tuple[str, ...], tags: str | None,
                    formats: tuple[str, ...], output: str | None, output_dir: str | None, policy: str | None,
                    fail_on: str | None, summary_only: bool, quiet: bool, jobs: int | None, keep_going: bool,
                    trace: str | None, no_group: bool, include_docs: bool, check_version: bool, choose: Choice,
                    limits: Limits, today: date | None, config_file: str | None, no_config: bool,
                    select: tuple[str, ...], ignore: tuple[str, ...]) -> None:
    """Compare each of VERSIONS (oldest first) with the next, and report the release train step by step.

    VERSIONS are what `compare` takes: files, per-group directories or REV:path. With --revs or --tags, give one
    PATH and the versions come from git. Each version is read once; the steps run in parallel (--jobs).
    """
    from specdiff.config import for_command
    from specdiff.release_train import Settings, given, history, job_count, rev_versions, tag_versions
    from specdiff.report.timeline import TIMELINE_FORMATS, render_history

    def job() -> int:
        check_outputs(formats, TIMELINE_FORMATS, output, output_dir)
        if revs and tags:
            raise click.UsageError("give one of --revs and --tags")
        if (revs or tags) and len(versions) != 1:
            raise click.UsageError("--revs and --tags take the versions of one PATH from git: give one PATH")
        for value, what in [*((v, "VERSION") for v in versions), (config_file, "--config"), (output, "--output"),
                            (output_dir, "--output-dir")]:
            _not_a_url(value, what)
        if path_filter and not revs:
            raise click.UsageError("--path-filter chooses the commits of --revs: give --revs")
        notes: tuple[str, ...] = ()
        if tags:
            chosen = tag_versions(versions[0], tags)
        elif revs:
            picked = rev_versions(versions[0], revs, path_filter)
            chosen, notes = picked.versions, picked.notes
        elif len(versions) < 2:
            raise click.UsageError("a history needs two versions or more (or one PATH with --revs or --tags)")
        else:
            chosen = given(versions)
        config = _for_run(for_command(config_file, no_config, select, ignore), check_version, choose)
        settings = Settings(policy or config.policy or "auto", config, today, not no_group, include_docs, limits,
                            trace)
        workers = job_count(jobs, len(chosen))
        terminal = sys.stderr.isatty()
        log = _ProgressLog(len(chosen) - 1) if not (quiet or terminal) else None
        progress: Callable[[int, int], None] | None = None if quiet else _progress_line if terminal else log
        with log or contextlib.nullcontext():
            if workers > 1:
                from concurrent.futures import ProcessPoolExecutor

                with ProcessPoolExecutor(max_workers=workers) as pool:
                    train = history(chosen, settings, pool, workers, keep_going, progress)
            else:
                train = history(chosen, settings, None, 1, keep_going, progress)
        if notes:
            train = dataclasses.replace(train, notes=notes)
        if progress is not None and terminal:
            click.echo("\r\033[K", err=True, nl=False)
        if summary_only and "release-notes" in formats:
            raise click.UsageError("--summary leaves out the steps, which are what --format release-notes shows")
        threshold = fail_on or config.fail_on or "breaking"
        for name in formats:
            text = render_history(train, name, steps=not summary_only)
            if output_dir or output:
                write_atomic(output or os.path.join(output_dir or "", f"history.{_EXTENSIONS.get(name, name)}"), text)
            else:
                click.echo(text, nl=False)
        return _exit_code(train, threshold, config.check_version)

    sys.exit(guarded(job))


def _progress_line(done: int, total: int) -> None:
    click.echo(f"\r\033[Kspecdiff history: {done}/{total} steps compared", err=True, nl=False)


#: seconds between two progress lines in a log (stderr is no terminal): a CI log shows the history is alive
PROGRESS_EVERY = 5.0


class _ProgressLog:
    """Progress for a log (stderr is no terminal): while the history runs, a plain line every PROGRESS_EVERY
    seconds with the steps compared so far (a shorter history says nothing), rather than a line rewritten in place,
    which a log keeps as noise. Its own clock says it, so a history on a process pool, which hears of its steps
    only as each run of them comes back, still shows it is alive."""

    def __init__(self, total: int) -> None:
        import threading

        self.done, self.total = 0, total
        self.stopped = threading.Event()
        self.beat = threading.Thread(target=self._beat, name="specdiff-progress", daemon=True)

    def __enter__(self) -> _ProgressLog:
        self.beat.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.beat.join()

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def _beat(self) -> None:
        while not self.stopped.wait(PROGRESS_EVERY):
            click.echo(f"specdiff history: {self.done}/{self.total} steps compared", err=True)


def check_outputs(formats: tuple[str, ...], known: Any, output: str | None, output_dir: str | None) -> None:
    """The --format, --output and --output-dir checks every reporting command makes."""
    unknown = [f for f in formats if f not in known]
    if unknown:
        raise click.UsageError(f"unknown --format {unknown[0]!r}; choose from {', '.join(sorted(known))}")
    if len(formats) > 1 and not output_dir:
        raise click.UsageError("several --format values need --output-dir")
    if output and output_dir:
        raise click.UsageError("--output writes one file and --output-dir one per format: give one of them")


@main.command("baseline")
@click.argument("old")
@click.argument("new")
@click.option("--output", "-o", type=click.Path(), help="Write the baseline to this file.")
@policy_options
@limit_options
def baseline_command(old: str, new: str, output: str | None, policy: str | None, config_file: str | None,
                     no_config: bool, select: tuple[str, ...], ignore: tuple[str, ...], limits: Limits) -> None:
    """Write the fingerprints of the current findings, sorted, to accept them (compare --baseline FILE).

    The configuration's levels, select/ignore and ignores apply; its own baseline does not, so the file
    written holds every finding that is reported today.
    """
    from dataclasses import replace

    from specdiff.config import for_command, render_baseline
    from specdiff.load.pair import load_pair
    from specdiff.pipeline import run
    from specdiff.policy import accepted

    def job() -> int:
        config = replace(for_command(config_file, no_config, select, ignore), baseline=(), baseline_path=None)
        report = run(*load_pair(old, new, limits), policy or config.policy or "auto", config)
        text = render_baseline(accepted(report.findings))
        if output:
            write_atomic(output, text)
        else:
            click.echo(text, nl=False)
        return EXIT_OK

    sys.exit(guarded(job))


#: where `specdiff staged --accept` records findings when no baseline is configured, and where it looks for them
STAGED_BASELINE = "specdiff-baseline.txt"


@main.command("staged")
@click.argument("files", nargs=-1)
@policy_options
@click.option("--fail-on", type=click.Choice(FAIL_ON), default=None,
              help="Exit 1 when a finding is at or above this level.  [default: breaking, or the config's]")
@click.option("--baseline", type=click.Path(dir_okay=False), default=None,
              help=f"Drop findings whose fingerprint this file lists.  [default: the config's, else "
                   f"{STAGED_BASELINE} when it exists]")
@click.option("--accept", is_flag=True, envvar="SPECDIFF_ACCEPT",
              help="Record the findings that would block in the baseline, to accept them; still exit 1 so the "
                   "baseline is staged before the commit.  [env: SPECDIFF_ACCEPT=1, for the pre-commit hook]")
@today_option
def staged_command(files: tuple[str, ...], policy: str | None, config_file: str | None, no_config: bool,
                   select: tuple[str, ...], ignore: tuple[str, ...], fail_on: str | None,
                   baseline: str | None, accept: bool, today: date | None) -> None:
    """Compare the staged version of each spec FILE with HEAD's (the pre-commit hook).

    A FILE that is part of a spec split across files (no OpenAPI document of its own) stands for the staged specs
    that reach it through $refs, found in the folders above it. A spec that HEAD does not have yet is new, so
    there is nothing to break; it is skipped.
    """
    from specdiff.config import for_command, read_baseline, render_baseline
    from specdiff.load import load
    from specdiff.load.git import exists_at
    from specdiff.pipeline import run
    from specdiff.policy import accepted
    from specdiff.report import RenderOptions, render
    from specdiff.staged import specs_to_check

    def job() -> int:
        config = for_command(config_file, no_config, select, ignore, baseline)
        if baseline is None and config.baseline_path is None and os.path.isfile(STAGED_BASELINE):
            config = for_command(config_file, no_config, select, ignore, STAGED_BASELINE)
        threshold = fail_on or config.fail_on or "breaking"
        blocked, blocking = [], []
        staged = specs_to_check(files)
        for note in staged.notes:
            click.echo(f"specdiff: note: {note}")
        for name in staged.specs:
            if not exists_at("HEAD", name):
                continue
            old_doc, new_doc = load(f"HEAD:./{name}"), load(f":./{name}")
            report = run(old_doc, new_doc, policy or config.policy or "auto", config, today)
            code = exit_code(report, threshold)
            if report.findings or report.notes or code:
                click.echo(render(report, "text", RenderOptions(color=False, old_doc=old_doc, new_doc=new_doc)),
                           nl=False)
            if code:
                blocked.append(name)
                blocking += [f for f in report.findings if f.level.rank <= FAIL_ON.index(threshold)]
        target = os.path.relpath(baseline or config.baseline_path or STAGED_BASELINE)
        if blocked and accept:
            kept = read_baseline(target) if os.path.exists(target) else ()
            write_atomic(target, render_baseline(accepted(blocking), kept))
            click.echo(one_line(f"specdiff: recorded {len(blocking)} finding{'s' * (len(blocking) != 1)} in "
                                f"{target}; stage it (`git add {shlex.quote(target)}`) and commit again"))
        elif blocked:
            click.echo(one_line(_how_to_accept(target, blocked)))  # the baseline's name comes from the config
        return EXIT_FINDINGS if blocked else EXIT_OK

    sys.exit(guarded(job))


def _how_to_accept(target: str, blocked: list[str]) -> str:
    """The pre-commit hook's last line: the two ways to let a deliberate change through, each a command that
    works where the hook runs (inside pre-commit, specdiff itself may be on no PATH) and can be pasted as it is."""
    if os.environ.get("PRE_COMMIT") == "1":
        record = "SPECDIFF_ACCEPT=1 git commit"
    else:
        record = shlex.join(["specdiff", "staged", "--accept", *blocked])
    return (f"specdiff: commit blocked; to accept these findings, run `{record}` again (it records them in "
            f"{target}), or add an `ignore:` entry with a reason to .specdiff.yaml")


@main.command("github-comment")
@click.option("--spec", required=True, help="The spec the report is about; its comment is found by this name.")
@click.option("--report", "report_file", type=click.Path(dir_okay=False), help="Markdown report to post.")
@click.option("--error", "error_file", type=click.Path(dir_okay=False),
              help="specdiff's error output: post that the comparison failed, and why.")
@click.option("--print", "print_only", is_flag=True,
              help="Print the comment, marker included, exactly as it would be posted, instead of posting it.")
def github_comment(spec: str, report_file: str | None, error_file: str | None, print_only: bool) -> None:
    """Post or update the pull request's comment for SPEC (the GitHub action's last step).

    Reads GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_EVENT_PATH (the pull request) and GITHUB_TOKEN. A failed
    call is a warning, not an error: the job summary still has the report.
    """
    from specdiff import pull_request
    from specdiff.report.github import escape_data

    def read(name: str, limit: int) -> str:
        try:
            with open(name, encoding="utf-8", errors="replace") as fh:
                return fh.read(limit)
        except OSError as err:
            raise OutputError(f"cannot read: {err.strerror or err}", file=name) from None

    def job() -> int:
        if (report_file is None) == (error_file is None):
            raise click.UsageError("give one of --report and --error")
        body = read(report_file, 1 << 20) if report_file else pull_request.failure_report(read(error_file or "", 2000))
        if print_only:
            click.echo(pull_request.comment(spec, body), nl=False)
            return EXIT_OK
        api = pull_request.Api(os.environ.get("GITHUB_API_URL", "https://api.github.com"),
                               os.environ.get("GITHUB_TOKEN", ""))
        try:
            with open(os.environ["GITHUB_EVENT_PATH"], encoding="utf-8") as fh:
                number = int(json.load(fh)["pull_request"]["number"])
            click.echo(pull_request.publish(api, os.environ["GITHUB_REPOSITORY"], number, spec, body))
        except (OSError, KeyError, TypeError, ValueError) as err:
            click.echo(f"::warning title=specdiff::no pull request to comment on in GITHUB_EVENT_PATH "
                       f"({escape_data(type(err).__name__)})")
        except pull_request.ApiError as err:
            click.echo(f"::warning title=specdiff::could not comment on the pull request ({escape_data(str(err))}; a "
                       "pull request from a fork gets a read-only token); the job summary has the report")
        return EXIT_OK

    sys.exit(guarded(job))


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
def rules_command(fmt: str) -> None:
    """List the rule catalogue: id, default level and title."""
    from specdiff.classify.catalogue_docs import render_catalogue

    def job() -> int:
        click.echo(render_catalogue(fmt), nl=False)
        return EXIT_OK

    sys.exit(guarded(job))


@main.command()
@click.argument("rule_id")
def explain(rule_id: str) -> None:
    """Print one rule card's documentation: what it checks, why it matters, an example."""
    from specdiff.classify.catalogue_docs import explain_card, suggest

    def job() -> int:
        text = explain_card(rule_id)
        if text is None:
            close = suggest(rule_id)
            hint = f"did you mean {' or '.join(close)}? " if close else ""
            raise click.UsageError(f"no rule {rule_id!r}; {hint}'specdiff rules' lists them")
        click.echo(text, nl=False)
        return EXIT_OK

    sys.exit(guarded(job))
