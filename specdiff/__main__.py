"""`python -m specdiff`."""

from specdiff.cli import entry

entry()
