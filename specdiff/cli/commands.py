"""The commands other than `compare`, which the command line loads only when one of them is named."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shlex
import sys
from datetime import date
from typing import TYPE_CHECKING

import click

from specdiff.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXTENSIONS,
    PATH,
    Choice,
    check_outputs,
    check_version_option,
    exit_code,
    for_run,
    gated_exit_code,
    guarded,
    include_docs_option,
    limit_options,
    load_pair_explained,
    not_a_url,
    policy_options,
    selection_options,
    today_option,
    write_atomic,
)
from specdiff.errors import OutputError, one_line
from specdiff.records import FAIL_ON, LEVELS

if TYPE_CHECKING:
    from collections.abc import Callable

    from specdiff.load.parse import Limits


@click.command("manifests")
@click.argument("old")
@click.argument("new")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--format", "formats", multiple=True, default=("text",), show_default=True,
              help="Output format: text, json, markdown (PR comment), sarif, github (annotations); repeat for "
                   "several (with --output-dir).")
@click.option("--output", "-o", type=PATH, help="Write the report to this file.")
@click.option("--output-dir", type=click.Path(file_okay=False), help="Write one file per --format here.")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default=None,
              help="Exit 1 when a finding is at or above this level.  [default: breaking, or the config's]")
@click.option("--annotate-level", type=click.Choice(LEVELS), default=None,
              help="The mildest level that sarif and github annotate.  [default: dangerous, or the config's]")
@click.option("--select", multiple=True, metavar="RULE", help="Report only these rules (id or prefix); repeatable.")
@click.option("--ignore", multiple=True, metavar="RULE", help="Drop these rules (id or prefix); repeatable.")
@click.option("--baseline", type=PATH, default=None,
              help="Drop findings whose fingerprint this file lists (one a line, as the json format gives them).")
@click.option("--config", "config_file", type=PATH, default=None,
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
            not_a_url(value, what)
        for option, chosen in (("--select", select), ("--ignore", ignore)):
            for rule in chosen:
                if not any(known == rule or known.startswith(rule.rstrip(".") + ".") for known in RULES):
                    raise click.UsageError(f"{option}: no manifests rule is {rule!r} or starts with it "
                                           f"(rules: {', '.join(sorted(RULES))})")
        config = for_command(config_file, no_config, (), (), None)
        stdin = sys.stdin.buffer.read(limits.max_bytes + 1) if "-" in paths else None
        old_doc, new_doc = load_pair_explained(old, new, limits)
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
                target = f"specdiff-manifests.{EXTENSIONS.get(name, name)}"
                write_atomic(output or os.path.join(output_dir or "", target), text)
            else:
                click.echo(text, nl=False)
        return exit_code(report, fail_on or config.fail_on or "breaking")

    sys.exit(guarded(job))


@click.command("history")
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
@click.option("--output", "-o", type=PATH, help="Write the report to this file.")
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
            not_a_url(value, what)
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
        config = for_run(for_command(config_file, no_config, select, ignore), check_version, choose)
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
                write_atomic(output or os.path.join(output_dir or "", f"history.{EXTENSIONS.get(name, name)}"), text)
            else:
                click.echo(text, nl=False)
        return gated_exit_code(train, threshold, config.check_version)

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


@click.command("baseline")
@click.argument("old")
@click.argument("new")
@click.option("--output", "-o", type=PATH, help="Write the baseline to this file.")
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


@click.command("staged")
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


@click.command("github-comment")
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


@click.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
def rules_command(fmt: str) -> None:
    """List the rule catalogue: id, default level and title."""
    from specdiff.classify.catalogue_docs import render_catalogue

    def job() -> int:
        click.echo(render_catalogue(fmt), nl=False)
        return EXIT_OK

    sys.exit(guarded(job))


@click.command()
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

