"""`python -m specdiff`."""

from specdiff.command import entry

entry()
