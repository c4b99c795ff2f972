"""The `specdiff` command's first module: it switches the cyclic collector off before the command line is
imported. Importing it ran the collector 40-odd times over the objects the imports make, none of them garbage
(6 ms of the 0.09 s those imports take); the command runs with the collector off anyway (`specdiff.cli.entry`).
Importing `specdiff` as a library leaves the collector as it is."""

from __future__ import annotations

import gc


def entry() -> None:
    gc.disable()
    from specdiff.cli import entry as run

    run()
