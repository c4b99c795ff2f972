"""Every case of every rule card: the exact (rule, pointer[, level]) findings, fires and near misses alike."""

from __future__ import annotations

from typing import Any

import pytest
from rulecases import expected, observed, run_case

from specdiff.classify.cards import UNCLASSIFIED, Card, cases, catalogue

CASES = [(card, i, case) for card in catalogue() for i, case in enumerate(cases(card))]


@pytest.mark.parametrize(("card", "index", "case"), CASES,
                         ids=[f"{c.id}[{i}]" for c, i, _ in CASES])
def test_case(card: Card, index: int, case: dict[str, Any]) -> None:
    report = run_case(case)
    with_level = all("level" in e for e in case.get("expect") or [])
    assert observed(report, with_level) == expected(case, with_level), case.get("name")


@pytest.mark.parametrize("card", [c for c in catalogue() if c.id != UNCLASSIFIED], ids=lambda c: c.id)
def test_card_has_a_firing_case_and_a_near_miss(card: Card) -> None:
    fires = [c for c in cases(card) if any(e["rule"] == card.id for e in c.get("expect") or [])]
    misses = [c for c in cases(card) if all(e["rule"] != card.id for e in c.get("expect") or [])]
    assert fires, f"{card.id} has no case that fires"
    assert misses, f"{card.id} has no near miss"


def test_card_ids_are_dotted_and_never_name_a_level() -> None:
    for card in catalogue():
        assert card.id == card.id.lower() and "." in card.id, card.id
        assert not {"breaking", "dangerous", "safe"} & set(card.id.replace("-", ".").split(".")), card.id
