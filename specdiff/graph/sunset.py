"""Deprecation dates that plain OpenAPI specs write as extensions or headers.

`x-sunset` (an RFC 3339 date, on operations, parameters and properties) and the `Sunset` response header
(RFC 8594) say when a deprecated element may go (`x-stability-level` is read with the other stability
markers, in graph/stability.py).
"""

from __future__ import annotations

import datetime as dt
from email.utils import parsedate_to_datetime
from typing import Any


def sunset_date(value: Any) -> str | None:
    """An RFC 3339 date or date-time, or an RFC 8594 HTTP-date, as `YYYY-MM-DD`; None when it is neither."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    try:
        return dt.date.fromisoformat(text[:10]).isoformat()
    except ValueError:
        pass
    try:
        return parsedate_to_datetime(text).date().isoformat()
    except (TypeError, ValueError, IndexError, OverflowError):  # a year of 20 digits overflows
        return None


def sunset_of(raw: Any) -> str | None:
    """`x-sunset` of an operation, parameter or schema."""
    return sunset_date(raw.get("x-sunset")) if isinstance(raw, dict) else None


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


def days_left(sunset: str, today: dt.date) -> int:
    return (dt.date.fromisoformat(sunset) - today).days
