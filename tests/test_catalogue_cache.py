"""The parsed rule catalogue is cached between runs; the cache never changes what the catalogue says."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from specdiff.classify import cards


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cards.catalogue.cache_clear()
    yield tmp_path
    cards.catalogue.cache_clear()


def parsed() -> list[cards.Card]:
    root = cards.rules_root()
    return [cards._card(path, root) for path in sorted(root.rglob("*.yaml"))]


def test_a_cached_catalogue_equals_the_parsed_one(cache_home: Path) -> None:
    first = cards.catalogue()
    (cached,) = (cache_home / "specdiff").iterdir()
    cards.catalogue.cache_clear()
    assert list(cards.catalogue()) == list(first) == parsed()
    assert list((cache_home / "specdiff").iterdir()) == [cached]


def test_a_damaged_cache_is_parsed_again(cache_home: Path) -> None:
    cards.catalogue()
    (cached,) = (cache_home / "specdiff").iterdir()
    cached.write_bytes(b"not marshal data")
    cards.catalogue.cache_clear()
    assert list(cards.catalogue()) == parsed()


def test_an_unwritable_cache_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    cards.catalogue.cache_clear()
    try:
        assert list(cards.catalogue()) == parsed()
    finally:
        cards.catalogue.cache_clear()
