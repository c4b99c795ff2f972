"""Pausing Python's cyclic garbage collector while specdiff builds and compares large specs.

A 4 MB spec parses into millions of dicts, lists and strings that live until the comparison ends and hold no
reference cycles, so reference counting frees them; the cyclic collector finds nothing among them. Yet it runs
a full pass over every tracked object each time their number has grown by a quarter, which cost 65% of the
time of loading Stripe's YAML spec and a third of comparing the synthetic one (docs/performance.md).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


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
