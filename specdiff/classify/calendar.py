"""The reference date a comparison is judged on, and the notice a deprecation must give.

The differ records sunset dates as neutral facts; whether one has passed, or leaves enough notice, depends on
the day the comparison is made for (`--today`, default the system date in UTC) and on `deprecation-days`. Both
come here, so that the same inputs and the same reference date always give the same verdicts.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from specdiff.frozen import record
from specdiff.graph.sunset import days_left

#: what a card's reason may say about dates beside the change's facts (a message may not: a group of findings
#: renders its message again from its members' changes alone)
DATED_VALUES = ("days_to_sunset", "min_days")


def utc_today() -> dt.date:
    """The system date in UTC: the default reference date, the same for every runner whatever its time zone."""
    return dt.datetime.now(dt.UTC).date()


@record(frozen=True)
class Calendar:
    """What the dated predicates compare a change's recorded dates with."""

    today: dt.date = field(default_factory=utc_today)
    #: the shortest notice, in days between deprecation and sunset, by stability (alpha, beta, stable)
    notice_days: Mapping[str, int] = field(default_factory=dict)

    def days_to(self, sunset: Any) -> int | None:
        """Days from the reference date to a recorded sunset; None when there is none, or it is no date."""
        return days_left(sunset, self.today) if isinstance(sunset, str) else None

    def notice(self, stability: str) -> int | None:
        """The notice `deprecation-days` asks for an element of this stability; None when it asks none."""
        return self.notice_days.get(stability)

    def values(self, sunset: Any, stability: str) -> dict[str, str]:
        """The dated values a reason may show: days left to the sunset, the notice asked for."""
        days, notice = self.days_to(sunset), self.notice(stability)
        return {**({"days_to_sunset": str(days)} if days is not None else {}),
                **({"min_days": str(notice)} if notice is not None else {})}
