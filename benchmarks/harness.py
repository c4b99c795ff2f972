"""Whole-process benchmarks: wall time (median, min-max), CPU time and peak RSS of `specdiff` runs.

Each run is a fresh process, as a user or a CI job starts it, so interpreter start-up and imports count.
Peak memory is the maximum resident set size that `/usr/bin/time -f %M` reports for the command: a child
forked from this harness would otherwise inherit the harness's own high-water mark (Linux keeps it across
exec); without /usr/bin/time, `os.wait4`'s figure is shown with that caveat. Wall time is measured around
the process. CPU time (user + system) is printed beside wall time because on a busy machine wall
time also counts waiting for a core. Timings are printed, never asserted.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import synthetic

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPORA = ROOT.parent / "shared" / "corpora"
DEFAULT_CACHE = ROOT / ".bench"
GROWTH = (1, 2, 4, 8)
QUICK_SCALE = 0.1
TIME = Path("/usr/bin/time")
#: commands run outside the checkout: `python -m` would import the checkout's specdiff whatever --tool says,
#: and specdiff would pick up a configuration file found upwards from there
NEUTRAL = Path(tempfile.gettempdir())


@dataclass(frozen=True)
class Sample:
    wall: float  # seconds
    cpu: float  # user + system seconds
    peak_kib: int  # maximum resident set size
    exit_code: int
    stderr: str


@dataclass(frozen=True)
class Case:
    """One command to time; `inputs` must exist (else the case is skipped, saying which is missing)."""

    name: str
    argv: Callable[[], list[str]]  # built late: synthetic inputs are generated only when the case runs
    inputs: tuple[Path, ...] = ()
    skip: str | None = None
    floor: str | None = None  # the case whose time this one is set against (`ratios`)


@dataclass
class Row:
    case: str
    samples: list[Sample] = field(default_factory=list)
    note: str = ""
    #: each run's CPU over that of its floor's run beside it (`run_cases`): the machine's speed, which moves
    #: from one minute to the next on a shared machine, is the same for both
    against_floor: list[float] = field(default_factory=list)

    @property
    def measured(self) -> bool:
        return bool(self.samples) and not self.note

    def median_wall(self) -> float:
        return statistics.median(s.wall for s in self.samples)


#: the environment the runs see: bytecode may be written, as an installed wheel has it (pip compiles it at
#: install), so a shell that sets PYTHONDONTWRITEBYTECODE does not time compiling every module on every run
_AS_INSTALLED = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(argv: Sequence[str], cwd: Path = NEUTRAL) -> Sample:
    """Run one process to completion; its stdout is discarded, its stderr kept for the report."""
    with tempfile.NamedTemporaryFile("r", prefix="specdiff-bench-", suffix=".rss") as rss:
        timed = [str(TIME), "-q", "-f", "%M", "-o", rss.name, *argv] if TIME.exists() else list(argv)
        start = time.perf_counter()
        process = subprocess.Popen(timed, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_AS_INSTALLED)
        assert process.stderr is not None
        stderr = process.stderr.read()  # a child that fills the pipe would block; read until it closes
        _, status, usage = os.wait4(process.pid, 0)  # CPU time includes the command's own children
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here; keeps Popen from waiting again
        process.stderr.close()
        reported = rss.read().split()
    peak = int(reported[-1]) if reported and reported[-1].isdigit() else usage.ru_maxrss
    return Sample(wall, usage.ru_utime + usage.ru_stime, peak, process.returncode,
                  stderr.decode("utf-8", "replace"))


def specdiff_command() -> list[str]:
    """The installed console script beside this interpreter, as users run it; else `python -m specdiff`."""
    script = Path(sys.executable).parent / "specdiff"
    return [str(script)] if script.exists() else [sys.executable, "-m", "specdiff"]


def synthetic_pair(scale: float, cache: Path) -> tuple[Path, Path]:
    """Generated once per (generator source, scale) into the cache and reused; regenerated when it changes."""
    source = Path(synthetic.__file__).read_bytes()  # the generator's source names the cached output
    folder = cache / f"synthetic-{hashlib.sha256(source).hexdigest()[:10]}-x{scale:g}"
    old, new = folder / "old.json", folder / "new.json"
    if not (old.exists() and new.exists()):
        staging = folder.with_name(folder.name + f".{os.getpid()}.tmp")
        # in a child process, so that the harness stays small (see measure)
        subprocess.run([sys.executable, "-m", "benchmarks.synthetic", "--scale", f"{scale:g}", "--out", str(staging)],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)
    return old, new


def cases(corpora: Path, cache: Path, quick: bool, tool: Sequence[str] = (),
          python: Sequence[str] = ()) -> list[Case]:
    """`tool` runs specdiff and `python` runs the interpreter it is installed in (defaults: this one)."""
    tool = list(tool) or specdiff_command()
    python = list(python) or [sys.executable]

    def compare(old: Path, new: Path) -> Callable[[], list[str]]:
        return lambda: [*tool, str(old), str(new)]

    def parse_only(old: Path, new: Path) -> Callable[[], list[str]]:
        """Loading both inputs as specdiff does, and nothing else: the floor under the whole run."""
        code = ("import sys\n"
                "try:\n    from specdiff.collector import collector_paused\n"
                "except ImportError:  # a specdiff from before the collector was paused\n"
                "    from contextlib import nullcontext as collector_paused\n"
                "from specdiff.load import load\n"
                "with collector_paused():\n    load(sys.argv[1]), load(sys.argv[2])\n")
        return lambda: [*python, "-c", code, str(old), str(new)]

    def bare_load(old: Path, new: Path) -> Callable[[], list[str]]:
        """A bare interpreter that `json.load`s both files: what no JSON tool can go below."""
        code = "import json, sys\nfor name in sys.argv[1:]:\n    with open(name, 'rb') as f:\n        json.load(f)\n"
        return lambda: [*python, "-c", code, str(old), str(new)]

    def synthetic_case(scale: float) -> Callable[[], list[str]]:
        return lambda: [*tool, *map(str, synthetic_pair(scale, cache))]

    k8s = corpora / "kubernetes" / "v2" / "swagger-v1.35.json", corpora / "kubernetes" / "v2" / "swagger-v1.36.json"
    stripe = corpora / "openapi" / "stripe"
    stripe_yaml = stripe / "spec3-2022-04-01.yaml", stripe / "spec3-2023-09-12.yaml"
    stripe_json = stripe / "spec3-2022-03-31.json", stripe / "spec3-2022-04-01.json"
    github = corpora / "openapi" / "github"
    github_pair = github / "api.github.com-2021-05-12.json", github / "api.github.com-2021-10-10.json"
    v3 = corpora / "kubernetes" / "v3" / "v1.30", corpora / "kubernetes" / "v3" / "v1.35"
    apps = tuple(corpora / "kubernetes" / "v3" / v / "apis__apps__v1_openapi.json" for v in ("v1.27", "v1.30"))
    k8s_bare, apps_bare = "kubernetes v2: bare json.load of both", "apps/v1: bare json.load of both"
    found = [
        Case("kubernetes v2 1.35->1.36", compare(*k8s), k8s, floor=k8s_bare),
        Case("kubernetes v2: parse only (load both)", parse_only(*k8s), k8s, floor=k8s_bare),
        Case(k8s_bare, bare_load(*k8s), k8s),
        Case("kubernetes v3 apps/v1 1.27->1.30", compare(*apps), apps, floor=apps_bare),
        Case("apps/v1: parse only (load both)", parse_only(*apps), apps, floor=apps_bare),
        Case(apps_bare, bare_load(*apps), apps),
        Case("stripe yaml 2022-04-01->2023-09-12", compare(*stripe_yaml), stripe_yaml),
        Case("stripe yaml: parse only (load both)", parse_only(*stripe_yaml), stripe_yaml),
        Case("stripe json 2022-03-31->2022-04-01", compare(*stripe_json), stripe_json),
        Case("github 2021-05-12->2021-10-10", compare(*github_pair), github_pair),
        Case("kubernetes v3 dirs v1.30->v1.35", compare(*v3), v3),
    ]
    if quick:
        found.append(Case(f"synthetic x{QUICK_SCALE:g}", synthetic_case(QUICK_SCALE)))
    else:
        found += [Case(f"synthetic x{scale}", synthetic_case(scale)) for scale in GROWTH]
    found.append(Case("specdiff --help", lambda: [*tool, "--help"]))
    return found


def run_case(case: Case, runs: int, warmup: bool, floor: tuple[Case, Row] | None = None) -> Row:
    """`runs` runs of the case; with a floor (its case and row), each run is followed by one of the floor, whose
    samples go to its row, and the row keeps each run's CPU over the floor's run beside it."""
    row = Row(case.name)
    missing = [p for p in case.inputs if not p.exists()]
    if missing:
        row.note = f"skipped: {missing[0]} not found"
        return row
    argv = case.argv()
    floor_argv = floor[0].argv() if floor is not None else []
    if warmup:
        measure(argv)  # fills the page cache and writes .pyc files; not counted
    for _ in range(runs):
        sample = measure(argv)
        row.samples.append(sample)
        if sample.exit_code not in (0, 1):
            first = (sample.stderr.strip().splitlines() or [""])[-1]
            kind = "unsupported" if sample.exit_code == 2 else "failed"
            row.note = f"{kind} (exit {sample.exit_code}): {first}"
            break
        if floor is not None:
            bare = measure(floor_argv)
            floor[1].samples.append(bare)
            row.against_floor.append(sample.cpu / bare.cpu if bare.cpu else float("inf"))
    return row


def run_cases(selected: Sequence[Case], runs: int, warmup: bool) -> list[Row]:
    """Every case, in order. A case whose floor is among them runs alternately with it, run by run; the floor's
    row holds those runs, and runs on its own only when no case is set against it."""
    by_name = {case.name: case for case in selected}
    floor_rows = {case.floor: Row(case.floor) for case in selected if case.floor in by_name}
    rows = []
    for case in selected:
        if case.name in floor_rows:
            rows.append(floor_rows[case.name])  # (measured beside the cases set against it)
        elif case.floor in floor_rows:
            rows.append(run_case(case, runs, warmup, (by_name[case.floor], floor_rows[case.floor])))
        else:
            rows.append(run_case(case, runs, warmup))
    return rows


def table(rows: Sequence[Row]) -> str:
    header = ("case", "wall median", "min-max", "cpu median", "peak RSS", "note")
    lines = [header]
    for row in rows:
        if not row.measured:
            lines.append((row.case, "-", "-", "-", "-", row.note))
            continue
        walls = [s.wall for s in row.samples]
        lines.append((row.case, f"{statistics.median(walls):.3f} s", f"{min(walls):.3f}-{max(walls):.3f}",
                      f"{statistics.median(s.cpu for s in row.samples):.3f} s",
                      f"{max(s.peak_kib for s in row.samples) / 1024:.0f} MiB",
                      f"{len(row.samples)} run{'s' if len(row.samples) > 1 else ''}"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip() for line in lines]
    text.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(text)


def ratios(rows: Sequence[Row], floors: dict[str, str]) -> list[str]:
    """Each case against its floor (`Case.floor`), by CPU time: on a shared machine it varies less than wall
    time, which also counts waiting for a core. The median of the ratios of runs made side by side
    (`run_cases`), with their range; else the ratio of the two medians."""
    by_name = {row.case: row for row in rows if row.measured}
    lines = []
    for name, floor in floors.items():
        case, bare = by_name.get(name), by_name.get(floor)
        if case is None or bare is None:
            continue
        if case.against_floor:
            paired = case.against_floor
            lines.append(f"{name} / {floor} = {statistics.median(paired):.1f} x (cpu, median of {len(paired)} runs "
                         f"each beside a floor run; {min(paired):.1f}-{max(paired):.1f} x)")
        else:
            cpu = statistics.median(s.cpu for s in case.samples) / statistics.median(s.cpu for s in bare.samples)
            lines.append(f"{name} / {floor} = {cpu:.1f} x (cpu median)")
    return lines


def growth(rows: Sequence[Row]) -> str | None:
    """The 8x synthetic time over the 1x time (linear would be 8)."""
    by_name = {row.case: row for row in rows if row.measured}
    first, last = by_name.get(f"synthetic x{GROWTH[0]}"), by_name.get(f"synthetic x{GROWTH[-1]}")
    if first is None or last is None:
        return None
    wall = last.median_wall() / first.median_wall()
    cpu = statistics.median(s.cpu for s in last.samples) / statistics.median(s.cpu for s in first.samples)
    return (f"growth: synthetic x{GROWTH[-1]} / x{GROWTH[0]} = {wall:.1f} (wall median), {cpu:.1f} (cpu median); "
            f"linear is {GROWTH[-1] / GROWTH[0]:g}")
