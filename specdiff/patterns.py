"""Regular expressions kept as text and compiled when first used. Compiling one costs 30-400 us (a class of
characters beyond Latin-1 the most), and a pattern that only some inputs, formats or errors need was a fixed cost
of every run when it was compiled at import."""

from __future__ import annotations

import re
from functools import cache


@cache
def compiled(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled, once a run (`re`'s own cache drops the oldest of what a run compiles)."""
    return re.compile(pattern)
