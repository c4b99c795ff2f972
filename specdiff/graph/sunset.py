"""Deprecation dates that plain OpenAPI specs write as extensions or headers.

`x-sunset` (an RFC 3339 date, on operations, parameters and properties) and the `Sunset` response header
(RFC 8594) say when a deprecated element may go (`x-stability-level` is read with the other stability
markers, in graph/stability.py). The graph records a date as `YYYY-MM-DD`, whatever its spelling, so equal
dates compare equal; an `x-sunset` that is no date is kept as written, so that it is reported, never read as
absent. How far away a date is depends on the reference date, which classify decides.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from specdiff.patterns import compiled

#: an RFC 3339 full-date, or a date-time (its date is the day as written)
RFC3339 = r"^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2}))?$"


def sunset_date(value: Any) -> str | None:
    """An RFC 3339 date or date-time, or an RFC 8594 HTTP-date, as `YYYY-MM-DD`; None when it is neither."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if compiled(RFC3339).match(text):
        try:
            return dt.date.fromisoformat(text[:10]).isoformat()
        except ValueError:  # 2031-02-30
            return None
    from email.utils import parsedate_to_datetime  # (with sockets and random: only for an HTTP-date)

    try:
        return parsedate_to_datetime(text).date().isoformat()
    except (TypeError, ValueError, IndexError, OverflowError):  # a year of 20 digits overflows
        return None


#: what `x-sunset` accepts, as a finding about a value that is none of them says
ACCEPTED = "an RFC 3339 date (2031-06-30) or date-time, or an HTTP-date (Mon, 30 Jun 2031 00:00:00 GMT)"


def sunset_of(raw: Any) -> str | None:
    """`x-sunset` of an operation, parameter or schema: its date as `YYYY-MM-DD`, else the value as written."""
    value = raw.get("x-sunset") if isinstance(raw, dict) else None
    if value is None:
        return None
    return sunset_date(value) or (value.strip() if isinstance(value, str) and value.strip()
                                  else json.dumps(value, default=str))


def unreadable(sunset: str | None) -> bool:
    """A recorded `x-sunset` that is no date: a new element's is reported where it is written (a readable one
    is part of the element's addition)."""
    return sunset is not None and sunset_date(sunset) is None


def sunset_header(headers: Any) -> str | None:
    """The date a documented `Sunset` response header announces: its example, or its schema's example,
    default or single enum value."""
    if not isinstance(headers, dict):
        return None
    for name, header in headers.items():
        if str(name).lower() != "sunset" or not isinstance(header, dict):
            continue
        schema: dict[str, Any] = header["schema"] if isinstance(header.get("schema"), dict) else header
        enum = schema.get("enum")
        for value in (header.get("example"), schema.get("example"), schema.get("default"),
                      enum[0] if isinstance(enum, list) and len(enum) == 1 else None):
            found = sunset_date(value)
            if found:
                return found
    return None


def days_left(sunset: str, today: dt.date) -> int | None:
    """Days from `today` to a recorded sunset; None when the spec wrote no date there."""
    date = sunset_date(sunset)
    return None if date is None else (dt.date.fromisoformat(date) - today).days
