"""`python -m benchmarks [--quick]`: time specdiff on the real corpora and the synthetic spec; print a table.

Exits 1 only when a case crashes (an exit code other than 0, 1 or 2); slow is never a failure.
"""

from __future__ import annotations

import argparse
import json
import platform
import shlex
import sys
from dataclasses import asdict
from pathlib import Path

from benchmarks.harness import DEFAULT_CACHE, DEFAULT_CORPORA, TIME, cases, growth, ratios, run_cases, table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="one run per case, no warm-up, small synthetic spec only (CI sanity)")
    parser.add_argument("--runs", type=int, default=None, help="timed runs per case (default 5; 1 with --quick)")
    parser.add_argument("--corpora", type=Path, default=DEFAULT_CORPORA, help="the real specs (../shared/corpora)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where generated specs are kept")
    parser.add_argument("--case", action="append", default=[], metavar="TEXT",
                        help="run only cases whose name contains TEXT; repeatable")
    parser.add_argument("--tool", type=shlex.split, default=[], metavar="COMMAND",
                        help="how to run specdiff, e.g. 'env PYTHONPATH=/tmp/main python -m specdiff' to time "
                             "another checkout (default: the specdiff script beside this python)")
    parser.add_argument("--python", type=shlex.split, default=[], metavar="COMMAND",
                        help="the interpreter for the parse-only cases, e.g. 'env PYTHONPATH=/tmp/main python'")
    parser.add_argument("--json", type=Path, default=None, help="also write the samples to this file")
    args = parser.parse_args(argv)
    args.corpora, args.cache = args.corpora.resolve(), args.cache.resolve()  # commands run elsewhere
    runs = args.runs or (1 if args.quick else 5)
    selected = [c for c in cases(args.corpora, args.cache, args.quick, args.tool, args.python)
                if not args.case or any(text in c.name for text in args.case)]
    if not args.corpora.is_dir():
        print(f"corpora not found at {args.corpora}: real-spec cases are skipped", file=sys.stderr)
    print(f"specdiff benchmarks: {runs} run{'s' if runs > 1 else ''} per case"
          f"{'' if args.quick else ' after one warm-up'}; python {platform.python_version()}, "
          f"{platform.machine()}", flush=True)
    if not TIME.exists():
        print(f"{TIME} not found (Debian package 'time'): peak RSS is os.wait4's, which counts the harness's own "
              "high-water mark too", file=sys.stderr)
    rows = run_cases(selected, runs, warmup=not args.quick)
    print(table(rows))
    for line in ratios(rows, {c.name: c.floor for c in selected if c.floor}):
        print(line)
    ratio = growth(rows)
    if ratio:
        print(ratio)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1) + "\n", encoding="utf-8")
    return 1 if any(r.note.startswith("failed") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
