"""Shared fixtures: where the real corpora live, and a helper to write small specs."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"


def corpus(relative: str) -> Path:
    """A file under ../shared/corpora, or a skip that says why when the corpora are not beside the project."""
    path = CORPORA / relative
    if not path.exists():
        pytest.skip(f"real corpora not found at {CORPORA} (they live in ../shared/corpora beside the project)")
    return path
