"""Deprecation dates and stability levels that plain OpenAPI specs write as extensions or headers.

`x-sunset` (an RFC 3339 date, on operations, parameters and properties) and the `Sunset` response header
(RFC 8594) say when a deprecated element may go; `x-stability-level` (draft, alpha, beta, stable) says how
much its users may rely on it, in the same three levels as Kubernetes' API versions.
"""

from __future__ import annotations

import datetime as dt
from email.utils import parsedate_to_datetime
from typing import Any

#: x-stability-level -> the stability the rest of specdiff uses (alpha may break, beta and GA may not)
STABILITY_LEVELS = {"draft": "alpha", "alpha": "alpha", "beta": "beta", "stable": "ga"}


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
    except (TypeError, ValueError, IndexError):
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


def stability_level(raw: Any) -> str | None:
    """The stability `x-stability-level` gives an operation or schema (alpha, beta or ga), None when absent."""
    value = raw.get("x-stability-level") if isinstance(raw, dict) else None
    return STABILITY_LEVELS.get(value.lower()) if isinstance(value, str) else None


def declared_level(raw: Any) -> str | None:
    """`x-stability-level` as written (draft, alpha, beta, stable), None when absent or another word."""
    value = raw.get("x-stability-level") if isinstance(raw, dict) else None
    return value.lower() if isinstance(value, str) and value.lower() in STABILITY_LEVELS else None


def days_left(sunset: str, today: dt.date) -> int:
    return (dt.date.fromisoformat(sunset) - today).days
