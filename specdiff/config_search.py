"""Where a configuration may be: the files named like one from a folder upwards. Apart from specdiff.config,
which decides whether one of them configures specdiff, so that a run with no such file about, as most runs
are, never imports the configuration's reader (specdiff/cli/common.py `configured`)."""

from __future__ import annotations

import os
from collections.abc import Iterator

CONFIG_NAMES = (".specdiff.yaml", ".specdiff.yml")


def candidates(start: str) -> Iterator[str]:
    """The files that may configure specdiff, nearest first: `.specdiff.yaml`, `.specdiff.yml`, then
    pyproject.toml, in `start` (resolved) and in each folder above it."""
    folder = os.path.realpath(start)
    while True:
        for name in (*CONFIG_NAMES, "pyproject.toml"):
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                yield candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent
