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
        cards._compiled_cards = lambda root, names: None  # type: ignore[assignment]
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
    forged = '[{"digest": "0", "index": [[0, 30, "forged", [], {}, null]]},\n["card.yaml", {"title": "Forged"}]]\n'
    (tmp_path / COMPILED).write_text(forged)
    assert [c.id for c in load_catalogue(tmp_path)] == ["schema.test.example"]
    whole = compile_catalogue(tmp_path)
    (tmp_path / COMPILED).write_text(whole[:len(whole) // 2 + len(whole) // 3])  # (cut short: its header is whole)
    (cut,) = load_catalogue(tmp_path)
    assert type(cut) is Card and cut.title == "Example"  # (read from its YAML)
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


@pytest.fixture
def settled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Card files count as settled however recently they were written (`cards._SETTLED_NS`)."""
    monkeypatch.setattr(cards, "_SETTLED_NS", 0)


def _compiled_card(root: Path) -> Path:
    card = root / "schema" / "card.yaml"
    card.parent.mkdir()
    card.write_text(CARD)
    (root / COMPILED).write_text(compile_catalogue(root))
    return card


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The card files each load reads in full, a load a entry: the folder read."""
    read: list[str] = []
    original = cards._card_files

    def spy(root: Path | str, names: list[str] | None = None) -> dict[str, bytes]:
        read.append(str(root))
        return original(root, names)

    monkeypatch.setattr(cards, "_card_files", spy)
    return read


@pytest.mark.usefixtures("settled")
def test_once_checked_the_compiled_catalogue_is_used_without_reading_the_cards(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _compiled_card(tmp_path)
    read = _reads(monkeypatch)
    (first,) = load_catalogue(tmp_path)
    assert (tmp_path / cards.CHECKED).is_file()
    (again,) = load_catalogue(tmp_path)
    assert read == [str(tmp_path)]  # (the first load only)
    assert type(again) is not Card  # (from the compiled file, not read yet)
    assert again == first and again.level == "safe"


@pytest.mark.usefixtures("settled")
def test_a_card_rewritten_at_its_size_and_modification_time_is_read_again(tmp_path: Path) -> None:
    """The change time, which no copy or `touch` can set back, tells the rewrite from the file checked."""
    import os
    import time

    card = _compiled_card(tmp_path)
    load_catalogue(tmp_path)
    written = os.stat(card)
    for _ in range(200):  # (until the file system's clock has moved on: a tick is 1-10 ms, 2 s on FAT)
        card.write_text(CARD.replace("title: Example", "title: Edited!"))
        os.utime(card, ns=(written.st_atime_ns, written.st_mtime_ns))
        if os.stat(card).st_ctime_ns != written.st_ctime_ns:
            break
        time.sleep(0.01)
    else:
        pytest.skip("the file system's change times did not move in 2 s")
    assert (os.stat(card).st_size, os.stat(card).st_mtime_ns) == (written.st_size, written.st_mtime_ns)
    (edited,) = load_catalogue(tmp_path)
    assert type(edited) is Card and edited.title == "Edited!"


def test_stamps_are_not_kept_while_a_card_may_still_be_changing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card written within the settling time may be written again within its stamp's clock tick."""
    monkeypatch.setattr(cards, "_SETTLED_NS", 10**18)
    _compiled_card(tmp_path)
    (loaded,) = load_catalogue(tmp_path)
    assert type(loaded) is not Card
    assert not (tmp_path / cards.CHECKED).exists()


@pytest.mark.usefixtures("settled")
def test_a_checked_file_of_other_stamps_or_garbage_is_checked_in_full_and_kept_anew(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    card = _compiled_card(tmp_path)
    read = _reads(monkeypatch)
    (tmp_path / cards.CHECKED).write_bytes(b"\xff garbage")
    load_catalogue(tmp_path)
    kept = (tmp_path / cards.CHECKED).read_bytes()
    os.utime(card, ns=(0, 0))  # (other stamps, the same card)
    (loaded,) = load_catalogue(tmp_path)
    assert read == [str(tmp_path)] * 2
    assert type(loaded) is not Card and loaded.level == "safe"
    assert b"garbage" not in kept and (tmp_path / cards.CHECKED).read_bytes() not in (kept, b"\xff garbage")
    card.write_text(CARD.replace("level: safe", "level: dangerous"))
    (edited,) = load_catalogue(tmp_path)
    assert edited.level == "dangerous"


@pytest.mark.usefixtures("settled")
def test_a_catalogue_that_cannot_be_written_beside_is_checked_every_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    _compiled_card(tmp_path)
    read = _reads(monkeypatch)

    def refused(source: str, target: str) -> None:
        raise PermissionError(13, "Permission denied", target)

    monkeypatch.setattr(os, "replace", refused)
    assert [c.id for c in load_catalogue(tmp_path)] == [c.id for c in load_catalogue(tmp_path)] == [
        "schema.test.example"]
    assert read == [str(tmp_path)] * 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [COMPILED, "schema"]
