"""`python -m specdiff`."""

from specdiff.cli import main

main()
