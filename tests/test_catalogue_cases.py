"""Classification reads only the cards; their test cases are read for tests and `specdiff explain` alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulecases import EXAMPLE_CARD

from specdiff.classify.cards import cases, catalogue, load_catalogue
from specdiff.errors import ConfigError

CARD = EXAMPLE_CARD + "---\n"  # the card, then its cases in a second document


def test_loading_the_catalogue_never_parses_the_cases(tmp_path: Path) -> None:
    (tmp_path / "card.yaml").write_text(CARD + "cases: [unclosed\n")
    (loaded,) = load_catalogue(tmp_path)
    assert loaded.id == "schema.test.example"
    with pytest.raises(ConfigError) as caught:
        cases(loaded)
    assert str(caught.value).startswith(f"{tmp_path / 'card.yaml'}: invalid rule card cases")


def test_cases_come_from_the_second_document(tmp_path: Path) -> None:
    (tmp_path / "card.yaml").write_text(CARD + "cases:\n  - {name: one, old: {}, new: {}, expect: []}\n")
    (loaded,) = load_catalogue(tmp_path)
    assert cases(loaded) == ({"name": "one", "old": {}, "new": {}, "expect": []},)


def test_every_shipped_card_keeps_its_cases_out_of_the_card() -> None:
    for item in catalogue():
        head = Path(item.source).read_text(encoding="utf-8").partition("\n---\n")[0]
        assert "\ncases:" not in head, item.path
