"""A split spec read with every `$ref` followed, against parsing the same files alone (docs/performance.md).

    python -m benchmarks.split_spec CLONE [--root specification/DigitalOcean-public.v2.yaml] [--rev REV] [--runs 3]

CLONE is a clone of DigitalOcean's spec (`git clone ../shared/corpora/openapi/digitalocean/*.bundle CLONE`).
Four figures, each the best of --runs, CPU time of this process (and of git's, for the revision):
parsing every file the root reaches, one after the other (the floor); loading the root and graphing it, which
reads each of those files once through the resolver; the same at a git revision (`REV:root`, the files read
through one `git cat-file` process); and a whole comparison of the revision with its parent.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections.abc import Callable
from pathlib import Path

from specdiff.load import load
from specdiff.load.parse import DEFAULT_LIMITS, parse_text
from specdiff.pipeline import graphed, run


def _cpu() -> float:
    """CPU seconds of this process and of the children it waited for (git)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def best(runs: int, job: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of the fastest of `runs` runs."""
    figures = []
    for _ in range(runs):
        cpu, wall = _cpu(), time.perf_counter()
        job()
        figures.append((_cpu() - cpu, time.perf_counter() - wall))
    return min(figures)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("clone", type=Path)
    parser.add_argument("--root", default="specification/DigitalOcean-public.v2.yaml")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.chdir(args.clone)
    files = sorted(graphed(load(args.root)).graph.normal.resolver.externals)
    base = Path(args.root).parent
    texts = [(base / name).read_text(encoding="utf-8") for name in files]
    size = sum(len(text.encode()) for text in texts)
    print(f"{args.root}: reaches {len(files)} files, {size / 1e6:.1f} MB")

    def parse_alone() -> None:
        for name, text in zip(files, texts, strict=True):
            parse_text(text, name, DEFAULT_LIMITS)

    rows = [("parse each file alone", parse_alone),
            ("load and graph, every $ref followed (working tree)", lambda: graphed(load(args.root))),
            (f"load and graph at {args.rev}:root", lambda: graphed(load(f"{args.rev}:{args.root}"))),
            (f"compare {args.rev}^:root with {args.rev}:root",
             lambda: run(load(f"{args.rev}^:{args.root}"), load(f"{args.rev}:{args.root}")))]
    for label, job in rows:
        cpu, wall = best(args.runs, job)
        print(f"{label}: CPU {cpu:.2f} s, wall {wall:.2f} s")


if __name__ == "__main__":
    main()
