"""The records a history makes: each version, each step from one to the next with its report, and the life of
one element across them (`--trace`). Only `history` makes them, so a comparison does not import them."""

from __future__ import annotations

from specdiff.frozen import record
from specdiff.records import Finding, Level, Report


@record(frozen=True, slots=True)
class Version:
    """One version of a history: its label (a tag, a commit, the path given), the source it was read from, and
    why it could not be read (`--keep-going` reports the other steps and marks this one)."""

    label: str
    source: str
    error: str | None = None


@record(frozen=True, slots=True)
class Step:
    """Two consecutive versions compared: their report, or why they were not compared."""

    old: Version
    new: Version
    report: Report | None = None
    error: str | None = None

    def summary(self) -> dict[str, int]:
        return self.report.summary() if self.report is not None else {level.value: 0 for level in Level}


@record(frozen=True, slots=True)
class Event:
    """One thing that happened to the element in a release: `appeared`, `changed` (with the finding's level),
    `promoted`, `deprecated`, `undeprecated`, `unserved`, `served`, `removed`; `present` in the first
    version; `unknown` for a version that could not be read."""

    release: str
    kind: str
    text: str
    level: Level | None = None


@record(frozen=True, slots=True)
class Trace:
    """`history --trace THING`: the life of one element across the versions (specdiff/trace.py)."""

    thing: str
    #: the labels of the versions that hold it, oldest first
    present_in: tuple[str, ...]
    #: every event, as the JSON timeline keeps them
    events: tuple[Event, ...]
    #: the events as a reader takes them in: within a release, the changes of one rule and level to several of
    #: the element's operations or places folded into one line (`request media type added in 7 operations: ...`)
    lines: tuple[Event, ...] = ()


@record(frozen=True, slots=True)
class History:
    """A release train: versions oldest first, and one step per consecutive pair."""

    versions: tuple[Version, ...]
    steps: tuple[Step, ...]
    trace: Trace | None = None  # `--trace THING`: the life of one element across the versions
    today: str = ""  # the reference date (`YYYY-MM-DD`) every step was judged on, as a report's `today`
    notes: tuple[str, ...] = ()  # how the versions were chosen: commits of a range left out, and why

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Every step's findings, oldest step first: what the exit code reads."""
        return tuple(f for step in self.steps if step.report is not None for f in step.report.findings)

    def summary(self) -> dict[str, int]:
        return {level.value: sum(step.summary()[level.value] for step in self.steps) for level in Level}
