"""History: the pipeline over N versions, each loaded and graphed once, consecutive pairs compared in parallel.

The pairs are split into contiguous runs, one job per run: a job loads each version of its run once, compares it
with the one before and drops the older one, so a job holds two graphs at a time and only the versions where two
runs meet are loaded twice (N - 1 + jobs loads for N versions, against 2(N - 1) for pairwise runs). Jobs are
plain functions of picklable arguments, so any `concurrent.futures.Executor` runs them (a process pool on one
machine, a Dask client's executor on a cluster).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, as_completed
from dataclasses import replace
from datetime import date

from specdiff.classify.calendar import utc_today
from specdiff.config import Config
from specdiff.errors import InputError, SpecdiffError, UsageError
from specdiff.frozen import record
from specdiff.histories import History, Step, Version
from specdiff.load import STDIN, load, load_text, read_stdin, refers_to_files
from specdiff.load.parse import DEFAULT_LIMITS, Limits
from specdiff.pipeline import Graphed, compare_graphed, graphed
from specdiff.records import Report
from specdiff.trace import Presence, locate, trace_of

#: called with (steps done, steps in all) as runs finish
Progress = Callable[[int, int], None]


@record(frozen=True, slots=True)
class Settings:
    """What every pair is compared under: the same as `compare` takes."""

    policy: str = "auto"
    config: Config | None = None
    today: date | None = None
    grouped: bool = True
    include_docs: bool = False
    limits: Limits = DEFAULT_LIMITS
    trace: str | None = None  # the element whose life to follow (specdiff/trace.py)
    repo: str | None = None  # the directory of the repository `REV:path` versions resolve against (default: here)


@record(frozen=True, slots=True)
class _Outcome:
    """What one job sends back: each version of its run that could not be read, each step's report or error, and
    where each version holds the traced element."""

    unreadable: tuple[tuple[int, str], ...]
    steps: tuple[tuple[int, Report | None, str | None], ...]
    presences: tuple[tuple[int, tuple[Presence, ...]], ...] = ()


def runs(sizes: Sequence[float], jobs: int) -> list[range]:
    """The pairs (pair i compares versions i and i + 1) split into at most `jobs` contiguous runs, so that the
    longest run costs the least.

    A run costs its versions' reading and graphing (their `sizes`) and its pairs' comparisons: a share of both
    sizes, and much more for the difference in size, which says how much changed (Kubernetes 1.11 -> 1.28 lost a
    quarter of the spec and costs three times the comparison of two neighbouring releases).
    """
    pairs = len(sizes) - 1
    count = max(1, min(jobs, pairs))
    pair_cost = [_SHARE * (a + b) + _CHANGE * abs(a - b) for a, b in zip(sizes, sizes[1:], strict=False)]

    def split(limit: float) -> list[range] | None:
        out, start, cost = [], 0, sizes[0]
        for pair in range(pairs):
            step = sizes[pair + 1] + pair_cost[pair]
            if pair > start and cost + step > limit:
                out.append(range(start, pair))
                start, cost = pair, sizes[pair]
            cost += step
        out.append(range(start, pairs))
        return out if len(out) <= count else None

    low, high = 0.0, sum(sizes) + sum(pair_cost)
    best = split(high) or [range(0, pairs)]
    for _ in range(60):
        middle = (low + high) / 2
        found = split(middle)
        if found is None:
            low = middle
        else:
            high, best = middle, found
    return best


#: a comparison's cost per unit of its two versions' sizes, and per unit of their difference, against reading
#: and graphing one unit (measured on the Kubernetes v2 releases, docs/history.md)
_SHARE, _CHANGE = 0.15, 7.0


def size_of(source: str) -> float:
    """What reading a version costs, in megabytes of its files; a git revision counts as a typical spec."""
    try:
        if os.path.isdir(source):
            return sum(entry.stat().st_size for entry in os.scandir(source) if entry.is_file()) / 1e6 or 1.0
        return os.path.getsize(source) / 1e6 or 1.0
    except OSError:
        return 1.0


@record(frozen=True, slots=True)
class Stdin:
    """What `-` held, read once by the process that runs the history (a pool's workers have no stdin to read),
    or why it could not be read."""

    text: str | None
    error: str | None = None


def _stdin(sources: Sequence[str], limits: Limits) -> Stdin | None:
    """Stdin's text when a version is `-`, for every job to read the same text; None when none is."""
    if "-" not in sources:
        return None
    try:
        return Stdin(read_stdin(limits))
    except SpecdiffError as err:
        return Stdin(None, err.one_line())


def _load(source: str, limits: Limits, stdin: Stdin | None, repo: str | None = None,
          earlier: Graphed | None = None) -> Graphed:
    """A version read and graphed, knowing the version before when it could be read (`graphed`)."""
    if source != "-" or stdin is None:
        return graphed(load(source, limits, repo), earlier)
    if stdin.text is None:
        raise InputError(stdin.error or "stdin could not be read")
    return graphed(load_text(stdin.text, STDIN, None, limits), earlier)


def compare_run(sources: Sequence[str], first: int, settings: Settings, stdin: Stdin | None = None,
                compared: Callable[[], None] | None = None) -> _Outcome:
    """One job: versions `first`, `first + 1`, ... (their sources), each loaded once, each pair compared in turn
    (`compared` is told after each, in this process); `-` is the text `stdin` holds.

    A version that cannot be read is recorded with its one-line error, and so are the steps on either side of it.
    """
    unreadable: list[tuple[int, str]] = []
    steps: list[tuple[int, Report | None, str | None]] = []
    presences: list[tuple[int, tuple[Presence, ...]]] = []
    before: Graphed | str | None = None  # the previous version, or why it could not be read
    for offset, source in enumerate(sources):
        index = first + offset
        current: Graphed | str
        try:
            current = _load(source, settings.limits, stdin, settings.repo,
                            before if isinstance(before, Graphed) else None)
        except SpecdiffError as err:
            current = err.one_line()
            unreadable.append((index, current))
        if settings.trace is not None and not isinstance(current, str):
            presences.append((index, locate(current.graph, settings.trace)))
        if before is not None:
            steps.append(_step(index - 1, before, current, sources[offset - 1], source, settings))
            if compared is not None:
                compared()
        before = current
    return _Outcome(tuple(unreadable), tuple(steps), tuple(presences))


def _step(index: int, old: Graphed | str, new: Graphed | str, old_source: str, new_source: str,
          settings: Settings) -> tuple[int, Report | None, str | None]:
    if isinstance(old, str) or isinstance(new, str):
        missing = " and ".join(source for source, side in ((old_source, old), (new_source, new))
                               if isinstance(side, str))
        return index, None, f"{missing} could not be read"  # why: the formats say that it was not compared
    try:
        return index, compare_graphed(old, new, settings.policy, settings.config, settings.today, settings.grouped,
                                      settings.include_docs), None
    except SpecdiffError as err:
        return index, None, err.one_line()


def history(versions: Sequence[Version], settings: Settings, executor: Executor | None = None, jobs: int = 1,
            keep_going: bool = False, progress: Progress | None = None) -> History:
    """Compare each consecutive pair of `versions` (oldest first) in `jobs` contiguous runs.

    Without an executor the runs go one after the other in this process. Without `keep_going`, the first version
    (oldest first) that cannot be read, or the first pair that cannot be compared, raises its one-line error; with
    it, that error is raised only when no pair at all could be compared.
    """
    if len(versions) < 2:
        raise UsageError("a history needs at least two versions")
    today = settings.today or utc_today()
    settings = replace(settings, today=today)  # one reference date for every step, named once in the history
    if settings.trace is not None and not settings.trace.strip():
        raise UsageError("--trace needs a THING: a group-version, an operation or a type and field")
    sources = [version.source for version in versions]
    split = runs([size_of(source) for source in sources], jobs)
    outcomes: list[_Outcome] = []
    done, total = 0, len(versions) - 1

    def finished(outcome: _Outcome, counted: bool = False) -> None:
        outcomes.append(outcome)
        if not counted:
            advance(len(outcome.steps))

    def advance(steps: int) -> None:
        nonlocal done
        done += steps
        if progress is not None:
            progress(done, total)

    stdin = _stdin(sources, settings.limits)
    if executor is None:  # in this process, progress goes step by step
        for part in split:
            finished(compare_run(sources[part.start:part.stop + 1], part.start, settings, stdin, lambda: advance(1)),
                     counted=True)
    else:
        futures: list[Future[_Outcome]] = [executor.submit(compare_run, sources[part.start:part.stop + 1],
                                                           part.start, settings, stdin) for part in split]
        for future in as_completed(futures):
            finished(future.result())
    errors = dict(pair for outcome in outcomes for pair in outcome.unreadable)
    if errors and not keep_going:
        raise InputError(errors[min(errors)])
    marked = tuple(Version(v.label, v.source, errors.get(i)) for i, v in enumerate(versions))
    results = {index: (report, error) for outcome in outcomes for index, report, error in outcome.steps}
    failed = [error for index, (_, error) in sorted(results.items()) if error is not None]
    if failed and not keep_going:
        raise InputError(failed[0])
    if all(report is None for report, _ in results.values()):  # a history that compared nothing passes no gate
        raise InputError(f"no two versions could be compared: {errors[min(errors)] if errors else failed[0]}")
    steps = tuple(Step(marked[i], marked[i + 1], *results[i]) for i in range(total))
    train = History(marked, steps, today=today.isoformat())
    if settings.trace is None:
        return train
    presences = dict(pair for outcome in outcomes for pair in outcome.presences)
    traced = trace_of(settings.trace, train, presences)
    if not traced.present_in and not traced.events:
        raise UsageError(f"--trace {settings.trace!r}: no version holds it; name a group-version (apps/v1beta1), an "
                         "operation (GET /pets) or a type and field (PodSpec.workloadRef), as reports do")
    return History(marked, steps, traced, today.isoformat())


def job_count(jobs: int | None, versions: int) -> int:
    """How many jobs run a history of `versions`: `jobs` (default: the cores), no more than it has steps."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise UsageError(f"jobs must be a whole number of at least 1, not {jobs!r}")
    return min(jobs or default_jobs(), max(1, versions - 1))


def default_jobs() -> int:
    """The cores this process may run on (fewer than the machine has under a CPU affinity mask)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def given(names: Sequence[str]) -> list[Version]:
    """Versions named on the command line, labelled by what tells them apart: `v1.28` for
    `specs/swagger-v1.28.json` beside `specs/swagger-v1.30.json`, the revision of `REV:path` when the paths are
    the same; the whole name when the short ones would not be distinct."""
    revisions = [name.partition(":") for name in names]
    if all(rev and colon and path == revisions[0][2] for rev, colon, path in revisions) and not any(
            os.path.exists(name) for name in names):
        short = [rev for rev, _, _ in revisions]
    else:
        short = _distinct_part(names)
    if len(set(short)) != len(short) or not all(short):
        short = list(names)
    return [Version(label, name) for label, name in zip(short, names, strict=True)]


def _distinct_part(names: Sequence[str]) -> list[str]:
    """The names without the prefix and suffix they all share, cut at a separator (`/`, `-`, `_`, or a `.` that
    is not inside a version number), so `v1.11` and `v1.28` keep their `v1.`."""
    if len(names) < 2:
        return list(names)
    first = names[0]
    common = len(os.path.commonprefix(list(names)))
    cut = max((i for i in range(1, common + 1) if _separates(first, i - 1, i)), default=0)
    tail = min(len(os.path.commonprefix([name[::-1] for name in names])), min(len(n) for n in names) - cut)
    end = len(first) - tail
    suffix = len(first) - min((i for i in range(end, len(first)) if _separates(first, i, i + 1)), default=len(first))
    return [name[cut:len(name) - suffix] for name in names]


def _separates(text: str, at: int, following: int) -> bool:
    """Whether text[at] is a separator to cut at: a `/`, `-` or `_`, or a `.` not followed by a digit."""
    char = text[at]
    return char in "/-_" or (char == "." and not (following < len(text) and text[following].isdigit()))


# --- versions from git ----------------------------------------------------------------------------------------


def _git(*args: str, repo: str | None = None) -> list[str]:
    try:
        done = subprocess.run(["git", *args], capture_output=True, check=False, cwd=repo)
    except OSError:
        raise UsageError("git is not installed: --revs and --tags read versions from git") from None
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UsageError(f"git {args[0]} failed: {detail[-1] if detail else 'not a git repository?'}")
    return [line for line in done.stdout.decode("utf-8", "surrogateescape").splitlines() if line]


def _at(rev: str, path: str, repo: str | None = None, label: str | None = None) -> Version:
    """The spec at a revision, named the way `REV:path` reads it from the working directory (or from `repo`, the
    directory `path` is relative to)."""
    return Version(label or rev, f"{rev}:./{_relative(path, repo)}")


#: characters of a commit's subject a version's label keeps
_SUBJECT = 60


def _commit_labels(revs: Sequence[str], repo: str | None = None) -> list[str]:
    """What a release manager knows each commit by: a tag on it (the highest version, when several), else its
    date and subject with its short hash (`2026-01-15 Add pets (3d6c3c4)`), never a bare hash."""
    labels = []
    for line in _git("log", "--no-walk=unsorted", "--format=%h%x09%cs%x09%D%x09%s", *revs, "--", repo=repo):
        short, day, refs, subject = (line.split("\t", 3) + ["", "", ""])[:4]
        tags = [ref[len("tag: "):] for ref in refs.split(", ") if ref.startswith("tag: ")]
        subject = subject if len(subject) <= _SUBJECT else subject[:_SUBJECT - 1].rstrip() + "…"
        labels.append(max(tags, key=version_key) if tags else f"{day} {subject} ({short})".replace("  ", " "))
    if len(labels) != len(revs):
        raise UsageError(f"git log gave {len(labels)} commit(s) for {len(revs)} revision(s)")
    return labels


def _relative(path: str, repo: str | None) -> str:
    return os.path.normpath(path) if repo is not None else os.path.relpath(path)


def tag_versions(path: str, pattern: str, repo: str | None = None) -> list[Version]:
    """The tags matching `pattern` (a git glob) at which `path` exists, sorted as versions (v1.9 < v1.10 <
    v1.10.1, and v2.0.0-rc.1 < v2.0.0); tags from before the file existed are no version of it."""
    from specdiff.load.git import exists_at

    tags = sorted(_git("tag", "--list", pattern, repo=repo), key=version_key)
    relative = _relative(path, repo)
    found = [_at(tag, path, repo) for tag in tags if exists_at(tag, relative, repo)]
    if len(found) < 2:
        raise UsageError(f"--tags {pattern!r} gives {len(found)} tag(s) holding {path}; a history needs two")
    return found


@record(frozen=True, slots=True)
class Chosen:
    """The versions a history compares, and how they were chosen (what a range's commits left out, and why)."""

    versions: list[Version]
    notes: tuple[str, ...] = ()


#: how many of the commits left out a note names
_NAMED = 20


def rev_versions(path: str, spec: str, path_filter: Sequence[str] = (), repo: str | None = None) -> Chosen:
    """The commits of a range that changed `path`, oldest first; for `A..B` the spec at A comes first, as the
    version the range starts from.

    A spec split across files changes in the files it refers to as much as in its root, so a commit counts when
    it changed anything under `path_filter` (git pathspecs): by default the spec's folder when its root refers to
    other files (a `$ref` may not leave the folder, so nothing it reaches is outside), else the file itself. The
    commits of the range left out are named in a note, with why."""
    filters = list(path_filter) or [_default_filter(path, spec, repo)]
    commits = _git("rev-list", "--reverse", "--abbrev-commit", spec, "--", *filters, repo=repo)
    start = spec.split("..")[0] if ".." in spec and not spec.startswith("..") else None
    revs = ([start.rstrip(".")] if start else []) + commits
    if len(revs) < 2:
        raise UsageError(f"--revs {spec!r} gives {len(revs)} version(s) of {path}; a history needs two")
    found = [_at(rev, path, repo, label) for rev, label in zip(revs, _commit_labels(revs, repo), strict=True)]
    taken = set(commits)
    left = [commit for commit in _git("rev-list", "--reverse", "--abbrev-commit", spec, repo=repo)
            if commit not in taken]
    if not left:
        return Chosen(found)
    named = ", ".join(left[:_NAMED]) + (f" and {len(left) - _NAMED} more" if len(left) > _NAMED else "")
    under = " or ".join(filters)
    return Chosen(found, (f"{len(left)} commit{'s' * (len(left) != 1)} of {spec} left out, as "
                          f"{'they change' if len(left) != 1 else 'it changes'} nothing under {under}: {named}",))


def _default_filter(path: str, spec: str, repo: str | None) -> str:
    """The spec's folder when the spec at the range's newest commit refers to other files, else the file."""
    newest = _git("rev-list", "-1", spec, repo=repo)
    relative = _relative(path, repo)
    try:
        split = bool(newest) and refers_to_files(load(f"{newest[0]}:./{relative}", repo=repo))
    except SpecdiffError:  # not there, or unreadable, at the newest commit: reading the versions will say so
        split = False
    return (os.path.dirname(relative) or ".") if split else relative


_PARTS = re.compile(r"([0-9]+)")


def version_key(tag: str) -> tuple[tuple[int, int | str, str], ...]:
    """Numbers compare as numbers; a pre-release suffix (`-rc.1`, `-beta`) sorts before its release. A number is
    ASCII digits (`v1²` has none after the 1), compared by its length then its digits: no conversion to int, which
    Python refuses past 4,300 digits."""
    head, dash, suffix = tag.partition("-")
    key = [_part(part) for part in _PARTS.split(head) if part]
    key.append((2, 0, "") if not dash else (-1, 0, ""))
    key += [_part(part) for part in _PARTS.split(suffix) if part]
    return tuple(key)


def _part(part: str) -> tuple[int, int | str, str]:
    if not _PARTS.fullmatch(part):
        return 0, part, ""
    digits = part.lstrip("0") or "0"
    return 1, len(digits), digits
