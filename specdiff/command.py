"""The `specdiff` command's first module: it switches the cyclic collector off for the whole run, before the
command line is imported. A run builds millions of objects and no garbage cycles (specdiff/collector.py), and
importing the command line with it on ran it 40-odd times (6 ms of the 0.09 s those imports take). Importing
`specdiff` as a library leaves the collector as it is."""

from __future__ import annotations

import gc


def entry() -> None:
    gc.disable()
    from specdiff.cli import entry as run

    run()
