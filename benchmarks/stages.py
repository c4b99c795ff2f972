"""`python -m benchmarks.stages`: the CPU time of each stage of every real pair, largest first, to find the pair
and the stage a cost hides in (a parser built on each run, a scan that tries every position of a file).

Each pair runs in this one process, as `history` runs its pairs: what a pair's first use imports (YAML, lark) is
counted in the stage that imported it, once, so run a pair alone (`--only`) to see what its own run pays.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.verdicts import real_pairs
from specdiff.load import load
from specdiff.pipeline import compare_graphed, graphed
from specdiff.report import RenderOptions, render

STAGES = ("load", "graph", "compare", "text report")


def stages(old: Path, new: Path) -> dict[str, float]:
    """Seconds of CPU for each of `STAGES` of one comparison, with the collector off as the command runs."""
    spent: dict[str, float] = {}

    def timed(stage: str, work: Callable[[], Any]) -> Any:
        start = time.process_time()
        done = work()
        spent[stage] = time.process_time() - start
        return done

    old_doc, new_doc = timed("load", lambda: (load(str(old)), load(str(new))))
    versions = timed("graph", lambda: (graphed(old_doc), graphed(new_doc)))
    report = timed("compare", lambda: compare_graphed(*versions))
    timed("text report", lambda: render(report, "text", RenderOptions(old_doc=old_doc, new_doc=new_doc)))
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stages", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared/corpora")
    parser.add_argument("--only", default="", help="pairs whose old path contains this text")
    args = parser.parse_args(argv)
    if not args.corpora.is_dir():
        print(f"corpora not found at {args.corpora}", file=sys.stderr)
        return 2
    rows = []
    gc.disable()
    for old, new in real_pairs(args.corpora):
        if args.only in old:
            rows.append((f"{old} -> {Path(new).name}", stages(args.corpora / old, args.corpora / new)))
            gc.collect()
    print(f"{'pair':72} {'total':>7} " + " ".join(f"{stage:>11}" for stage in STAGES) + "   (ms of CPU)")
    for name, spent in sorted(rows, key=lambda row: -sum(row[1].values())):
        print(f"{name[:72]:72} {sum(spent.values()) * 1000:7.0f} "
              + " ".join(f"{spent[stage] * 1000:11.0f}" for stage in STAGES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
