"""Classification reads only the cards; their test cases are read for tests and `specdiff explain` alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from rulecases import EXAMPLE_CARD

from specdiff.classify import cards
from specdiff.classify.cards import COMPILED, Card, cases, catalogue, compile_catalogue, load_catalogue, rules_root
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


def test_the_compiled_catalogue_gives_the_cards_the_yaml_gives() -> None:
    root = Path(rules_root())
    assert (root / COMPILED).is_file(), "rules/catalogue.json is missing: run `make docs`"
    assert catalogue() == load_catalogue_from_yaml(root)


def load_catalogue_from_yaml(root: Path) -> tuple[Card, ...]:
    """The catalogue parsed from its YAML cards alone (a copy of them without the compiled file)."""
    original = cards._compiled_cards
    try:
        cards._compiled_cards = lambda root, sources: None  # type: ignore[assignment]
        return load_catalogue(root)
    finally:
        cards._compiled_cards = original


def test_an_edited_card_is_read_from_its_yaml_not_the_stale_compiled_file(tmp_path: Path) -> None:
    card = tmp_path / "schema" / "card.yaml"
    card.parent.mkdir()
    card.write_text(CARD)
    (tmp_path / COMPILED).write_text(compile_catalogue(tmp_path))
    (compiled,) = load_catalogue(tmp_path)
    card.write_text(CARD.replace("level: safe", "level: dangerous"))
    (edited,) = load_catalogue(tmp_path)
    assert (compiled.level, edited.level) == ("safe", "dangerous")
    assert (compiled.area, compiled.path, compiled.source) == ("schema", "schema/card.yaml", str(card))


def test_editing_only_a_cards_test_cases_leaves_the_compiled_file_in_use(tmp_path: Path) -> None:
    """The compiled file is made from the cards alone, so new cases (a card's usual edit) keep it current."""
    card = tmp_path / "card.yaml"
    card.write_text(CARD)
    compiled = compile_catalogue(tmp_path)
    marked = compiled.replace('"title": "Example"', '"title": "Compile"', 1)  # (the same length: the index
    assert marked != compiled                                                    # says where each card's line is)
    (tmp_path / COMPILED).write_text(marked)
    card.write_text(CARD + "cases:\n  - {name: one, old: {}, new: {}, expect: []}\n")
    (loaded,) = load_catalogue(tmp_path)
    assert loaded.title == "Compile"
    card.write_text(CARD.replace("level: safe", "level: dangerous"))
    (edited,) = load_catalogue(tmp_path)
    assert edited.title == "Example"


def test_compiling_checks_the_cards_so_that_reading_the_compiled_file_need_not(tmp_path: Path) -> None:
    (tmp_path / "card.yaml").write_text(CARD.replace("node: property", "node: propperty"))
    with pytest.raises(ConfigError) as compiling:
        compile_catalogue(tmp_path)
    with pytest.raises(ConfigError) as loading:
        load_catalogue(tmp_path)
    assert str(compiling.value) == str(loading.value)
    assert "propperty" in str(compiling.value)


def test_a_compiled_file_from_other_cards_or_garbage_is_not_used(tmp_path: Path) -> None:
    (tmp_path / "card.yaml").write_text(CARD)
    (tmp_path / COMPILED).write_text('{"digest": "0", "cards": {"card.yaml": {"id": "forged"}}}')
    assert [c.id for c in load_catalogue(tmp_path)] == ["schema.test.example"]
    (tmp_path / COMPILED).write_text("\x00 not json")
    assert [c.id for c in load_catalogue(tmp_path)] == ["schema.test.example"]


def test_a_card_that_is_not_utf8_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "card.yaml").write_bytes(b"id: \xff\n")
    with pytest.raises(ConfigError) as caught:
        load_catalogue(tmp_path)
    assert str(caught.value) == f"{tmp_path / 'card.yaml'}: a rule card must be UTF-8 text"



def test_an_id_two_cards_claim_is_refused_whether_as_id_or_former_id(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(CARD)
    (tmp_path / "b.yaml").write_text(CARD)
    (tmp_path / "c.yaml").write_text(CARD.replace("id: schema.test.example", "id: schema.test.gone"))
    (tmp_path / "d.yaml").write_text(EXAMPLE_CARD.replace("schema.test.example", "schema.test.renamed")
                                     + "aliases: [schema.test.gone]\n")
    with pytest.raises(ConfigError) as caught:
        load_catalogue(tmp_path)
    assert str(caught.value) == f"{tmp_path}: duplicate rule ids: schema.test.example, schema.test.gone"


def test_a_compiled_card_is_read_whole_when_first_asked_and_is_then_the_card_the_yaml_gives(tmp_path: Path) -> None:
    """Loading the compiled file makes each card from its index entry alone; the rest of it is read on demand."""
    import copy
    import dataclasses
    import pickle

    card = tmp_path / "schema" / "card.yaml"
    card.parent.mkdir()
    card.write_text(CARD.replace("level: safe", "level: safe\nsection: features"))
    (tmp_path / COMPILED).write_text(compile_catalogue(tmp_path))
    (from_yaml,) = load_catalogue_from_yaml(tmp_path)
    loads = [load_catalogue(tmp_path)[0] for _ in range(5)]
    assert all(type(loaded) is not Card for loaded in loads)  # (not read yet)
    assert (loads[0].id, loads[0].predicate) == (from_yaml.id, None)
    assert loads[1].section == "features" and type(loads[1]) is Card
    assert loads[2] == from_yaml and from_yaml == loads[3]
    assert pickle.loads(pickle.dumps(loads[4])) == copy.deepcopy(loads[4]) == from_yaml
    assert dataclasses.asdict(loads[4]) == dataclasses.asdict(from_yaml)
