"""benchmarks.precision: a reviewer's labels set against the findings of a run."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import precision


def _write(folder: Path, name: str, lines: list[str]) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def test_labels_judge_findings_by_rule_and_pointer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path / "run", "pair.txt", [
        "breaking\toperation.removed\t/paths/~1a/get\tGET /a removed\t0",
        "breaking\tschema.enum.value-added\t/components/schemas/S/enum\tvalue x added\t0",
        "dangerous\textension.changed\t/info/x-logo\tx-logo changed\t0",
        "dangerous\tschema.removed\t/components/schemas/T\tT removed\t0",
        "safe\tschema.property.added\t/components/schemas/S/properties/p\tp added\t0",
    ])
    _write(tmp_path / "labels", "pair.tsv", [
        "# rule\tpointer\tlevel\tchange\treason",
        "operation.removed\t/paths/~1a/get\tbreaking\tc1\tclients call it",
        "schema.enum.value-added\t/components/schemas/S/enum\tbreaking\tc2\tresponse enum",
        "extension.changed\t/info/x-logo\tdocs\tc3\tportal metadata",
        "schema.property.became-required\t/components/schemas/S/required\tbreaking\tc4\trequired in requests",
    ])
    assert precision.main([str(tmp_path / "run"), "--labels", str(tmp_path / "labels"),
                           "--show", "unlabelled", "--show", "lost"]) == 1
    out = capsys.readouterr().out
    assert "| pair | 2/2 (100 %) | 0/1 (0 %) | 1.00 (3/3) | 1 | 1 |" in out
    assert "pair\tdangerous\tschema.removed\t/components/schemas/T\tT removed\t0" in out
    assert "pair\tabsent\tschema.property.became-required\t/components/schemas/S/required" in out


def test_a_malformed_label_names_its_line(tmp_path: Path) -> None:
    _write(tmp_path / "labels", "pair.tsv", ["operation.removed\t/paths/~1a/get\tfatal\tc1\twhy"])
    with pytest.raises(SystemExit, match=r"pair.tsv:1: expected rule, pointer, level"):
        precision.read_labels(tmp_path / "labels" / "pair.tsv")


def test_a_place_folded_into_a_group_shown_at_another_place_of_its_change_is_not_lost(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path / "run", "pair.txt", [
        "breaking\tschema.enum.value-added\t/components/schemas/A/properties/t/enum/1\tvalues added to 2 places\t2"])
    _write(tmp_path / "labels", "pair.tsv", [
        "schema.enum.value-added\t/components/schemas/A/properties/t/enum/1\tbreaking\ttax-ids\tresponse enum",
        "schema.enum.value-added\t/components/schemas/B/properties/t/enum/1\tbreaking\ttax-ids\tresponse enum",
        "operation.removed\t/paths/~1a/get\tbreaking\tgone\tclients call it",
    ])
    assert precision.main([str(tmp_path / "run"), "--labels", str(tmp_path / "labels"), "--show", "lost"]) == 1
    out = capsys.readouterr().out
    assert "| pair | 1/1 (100 %) | - | 1.00 (1/1) | 0 | 1 |" in out
    assert "pair\tabsent\toperation.removed\t/paths/~1a/get" in out
    assert "/components/schemas/B" not in out

