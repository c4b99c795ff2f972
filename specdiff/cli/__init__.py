"""Command line: the only package that touches files, stdout and exit codes. `compare` is here; the other
commands are in specdiff/cli/commands.py, loaded when one is named."""

from __future__ import annotations

import os
import sys
from datetime import date
from typing import TYPE_CHECKING

import click

from specdiff import __version__
from specdiff.cli.common import (
    EXIT_OK,
    EXTENSIONS,
    PATH,
    Choice,
    check_outputs,
    check_version_option,
    configured,
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
from specdiff.collector import exit_without_teardown
from specdiff.records import FAIL_ON, LEVELS

if TYPE_CHECKING:
    from specdiff.load.parse import Limits


class _DefaultToCompare(click.Group):
    """`specdiff OLD NEW` is `specdiff compare OLD NEW`; the other verbs are subcommands, whose options are made
    only when one is named (making them all at each start was 9 M of the 250 M instructions of importing the
    command line)."""

    #: the commands of specdiff/cli/commands.py: the function each is, by name
    ELSEWHERE = {"baseline": "baseline_command", "explain": "explain", "github-comment": "github_comment",
                 "history": "history_command", "manifests": "manifests_command", "rules": "rules_command",
                 "staged": "staged_command"}

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.list_commands(ctx) and args[0] not in ("--help", "-h", "--version"):
            args = ["compare", *args]
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.ELSEWHERE})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.ELSEWHERE:
            from specdiff.cli import commands

            made: click.Command = getattr(commands, self.ELSEWHERE[cmd_name])
            return made
        return super().get_command(ctx, cmd_name)


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
    """The `specdiff` command, started by `specdiff.command` with the collector off: run it and leave without
    tearing the heap down."""
    try:
        main()
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            exit_without_teardown(done.code or 0)
        raise
    exit_without_teardown(EXIT_OK)


@main.command()
@click.argument("old")
@click.argument("new")
@click.option("--format", "formats", multiple=True, default=("text",), show_default=True,
              help="Output format: text, json, yaml, markdown (PR comment), job-summary, release-notes, "
                   "github (annotations), sarif, junit, html, jsonpatch; repeat for several (with --output-dir).")
@click.option("--output", "-o", type=PATH, help="Write the report to this file.")
@click.option("--output-dir", type=click.Path(file_okay=False), help="Write one file per --format here.")
@policy_options
@click.option("--fail-on", type=click.Choice(FAIL_ON), default=None,
              help="Exit 1 when a finding is at or above this level.  [default: breaking, or the config's]")
@click.option("--baseline", type=PATH, default=None,
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
    from specdiff.pipeline import deep_enough, run
    from specdiff.report import FORMATS, RenderOptions, render

    def job() -> int:
        check_outputs(formats, FORMATS, output, output_dir)
        for value, what in ((old, "OLD"), (new, "NEW"), (config_file, "--config"), (baseline, "--baseline"),
                            (output, "--output"), (output_dir, "--output-dir")):
            not_a_url(value, what)
        config = configured(config_file, no_config, select, ignore, baseline, check_version, choose)
        gate = fail_on or (config and config.fail_on) or "breaking"
        old_doc, new_doc = load_pair_explained(old, new, limits)
        report = run(old_doc, new_doc, policy or (config and config.policy) or "auto", config, today,
                     grouped=not no_group, include_docs=include_docs)
        use_color = color == "always" or (color == "auto" and output is None and sys.stdout.isatty()
                                          and "NO_COLOR" not in os.environ)
        for name in formats:
            options = RenderOptions(color=use_color and name == "text" and not output_dir,
                                    old_doc=old_doc, new_doc=new_doc, fail_on=gate,
                                    annotate_level=annotate_level or (config and config.annotate_level) or "dangerous",
                                    summary_only=summary_only)
            with deep_enough(old_doc, new_doc):  # values as deep as --max-depth lets them be are written out
                text = render(report, name, options)
            if output_dir or output:
                write_atomic(output or os.path.join(output_dir or "", f"specdiff.{EXTENSIONS.get(name, name)}"),
                             text)
            else:
                click.echo(text, nl=False, color=options.color)  # click strips colour off a pipe unless told
        return gated_exit_code(report, gate, config is not None and config.check_version)

    sys.exit(guarded(job))


