"""Pausing Python's cyclic garbage collector while specdiff builds and compares large specs.

A 4 MB spec parses into millions of dicts, lists and strings that live until the comparison ends and hold no
reference cycles, so reference counting frees them; the cyclic collector finds nothing among them. Yet it runs
a full pass over every tracked object each time their number has grown by a quarter, which cost 65% of the
time of loading Stripe's YAML spec and a third of comparing the synthetic one (docs/performance.md).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn


@contextmanager
def collector_paused() -> Iterator[None]:
    """Switch the cyclic collector off for the block and back to how it was afterwards (nestable)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def exit_without_teardown(code: int) -> NoReturn:
    """End the process at once, the collector still off.

    Re-enabling the collector at the end of a run starts a full pass over every object the run built (0.15 s
    on the Kubernetes pair), and tearing the heap down object by object costs as much again; the command has
    written everything by then, so the operating system can take the memory back in one go.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`specdiff ... | head`) is not an error of ours
            pass
    os._exit(code)
