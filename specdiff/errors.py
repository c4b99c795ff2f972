"""Tool errors: the only exceptions specdiff raises on purpose.

    SpecdiffError              anything the CLI turns into a one-line message and exit code 2
    ├── InputError             a spec cannot be read or understood (names the file and the place)
    ├── ConfigError            a configuration file is wrong (names the file and the line)
    ├── OutputError            a report cannot be written (names the file)
    └── UsageError             the command line asks for something impossible

Findings about the API are never exceptions; they are records.
"""

from __future__ import annotations

from specdiff.patterns import compiled

#: control characters, DEL included, and the invisible ones that reorder text (bidi controls)
_CONTROL = "[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]"


def one_line(text: str) -> str:
    """Text for one line of a terminal: control and bidi characters become spaces, so nothing drives it."""
    return compiled(_CONTROL).sub(" ", text)


class SpecdiffError(Exception):
    """Base of every error the CLI reports as one line with exit code 2."""

    def __init__(self, message: str, *, file: str | None = None, place: str | None = None) -> None:
        self.file = file
        self.place = place
        self.detail = message
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.place}" if self.place else "") + ": "
        elif self.place:
            where = f"{self.place}: "
        return one_line(where + self.detail)


class InputError(SpecdiffError):
    """A spec that cannot be read, parsed, or resolved."""


class ConfigError(SpecdiffError):
    """A configuration or baseline file that is invalid."""


class OutputError(SpecdiffError):
    """A report file that cannot be written."""


class UsageError(SpecdiffError):
    """A command line that cannot be carried out."""
