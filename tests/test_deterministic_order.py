"""Reports are the same bytes on every run: findings that tie on level, place, pointer and rule (an item added to
a vendor extension's list at the index where another item changed) are ordered by what changed, never by the
order the differ happened to find them in, which deepdiff's report varied with PYTHONHASHSEED."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import corpus

from specdiff.load import load_text
from specdiff.pipeline import run
from specdiff.records import Change, Context, Finding, Level
from specdiff.report import FORMATS

#: two hash seeds under which deepdiff listed its kinds of difference in opposite orders (Stripe 2020 -> 2021)
SEEDS = ("0", "3")

OLD = """\
openapi: 3.0.3
info: {title: Disputes, version: "1.0"}
paths:
  /disputes:
    get:
      responses:
        "200":
          description: the dispute's evidence
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Evidence"}
components:
  schemas:
    Evidence:
      type: object
      properties:
        reason: {type: string}
      x-expandableFields: [duplicate, fraudulent, other, product_not_received]
"""
#: Stripe's issuing_dispute_evidence between 2020-04-03 and 2021-04-02: three items added, the last one changed
NEW = OLD.replace("[duplicate, fraudulent, other, product_not_received]",
                  "[canceled, duplicate, fraudulent, merchandise_not_as_described, not_received, other, "
                  "service_not_as_described]")


def _reports(old: Path, new: Path, hash_seed: str, folder: Path) -> dict[str, bytes]:
    """Every format for the pair, written by a new process under `hash_seed`."""
    args = [sys.executable, "-m", "specdiff", str(old), str(new), "--no-config", "--today", "2026-01-15",
            "--output-dir", str(folder)]
    for name in FORMATS:
        args += ["--format", name]
    done = subprocess.run(args, env={**os.environ, "PYTHONHASHSEED": hash_seed, "NO_COLOR": "1"},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1), done.stderr
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def _same_under_every_seed(old: Path, new: Path, tmp_path: Path) -> None:
    first, *others = [_reports(old, new, seed, tmp_path / seed) for seed in SEEDS]
    assert sorted(first) == sorted(f"specdiff.{ext}" for ext in _extensions())
    for other in others:
        assert [name for name in first if first[name] != other[name]] == []


def _extensions() -> list[str]:
    from specdiff.cli import EXTENSIONS

    return [EXTENSIONS[name] for name in FORMATS]


def test_stripe_2020_to_2021_is_the_same_bytes_under_two_hash_seeds(tmp_path: Path) -> None:
    stripe = "openapi/stripe/spec3-{}.json"
    _same_under_every_seed(corpus(stripe.format("2020-04-03")), corpus(stripe.format("2021-04-02")), tmp_path)


def test_a_small_spec_with_the_same_tie_is_the_same_bytes_under_two_hash_seeds(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text(OLD, encoding="utf-8")
    (tmp_path / "new.yaml").write_text(NEW, encoding="utf-8")
    _same_under_every_seed(tmp_path / "old.yaml", tmp_path / "new.yaml", tmp_path)


def test_items_of_an_extension_list_are_found_in_document_order_each_at_its_place_on_each_side() -> None:
    """The changed item was product_not_received at old index 3 and is service_not_as_described at new index
    6: each pointer says where it is in its own document."""
    report = run(load_text(OLD, "old.yaml", None), load_text(NEW, "new.yaml", None), grouped=False)
    at = "/components/schemas/Evidence/x-expandableFields/"
    assert [(f.rule, f.change.kind, f.change.attribute, f.change.old_pointer, f.change.new_pointer)
            for f in report.findings] == [
        ("extension.changed", "added", "x-expandableFields/0", None, at + "0"),
        ("extension.changed", "added", "x-expandableFields/3", None, at + "3"),
        ("extension.changed", "added", "x-expandableFields/4", None, at + "4"),
        ("extension.changed", "modified", "x-expandableFields/3", at + "3", at + "6"),
    ]


def _finding(kind: str, old: str | None, new: str | None) -> Finding:
    pointer = "/components/schemas/Evidence/x-codes/1"
    change = Change(kind, "extension", "x-codes/1", old, new, "response", Context(schema="Evidence"),
                    old_pointer=pointer if old is not None else None, new_pointer=pointer if new is not None else None)
    return Finding("specdiff.unclassified", Level.DANGEROUS, "", "", change)


def test_findings_that_tie_on_place_and_rule_sort_by_what_changed_whatever_order_they_come_in() -> None:
    removed, changed, added = _finding("removed", "b", None), _finding("modified", "b", "c"), _finding(
        "added", None, "d")
    other_value = _finding("added", None, "e")
    found = [removed, changed, added, other_value]
    expected = [added, other_value, changed, removed]  # by kind, then by value
    assert sorted(found, key=Finding.sort_key) == expected
    assert sorted(reversed(found), key=Finding.sort_key) == expected


def test_findings_that_tie_up_to_their_values_order_by_the_values_json_text() -> None:
    ten, nine, mapping, text = (_finding("added", None, value) for value in (10, 9, {"a": 1}, "x"))
    # "10" before "9", and '"x"' before '{"a": 1}': values of any two types compare by their text
    assert sorted([nine, mapping, ten, text], key=Finding.sort_key) == [text, ten, nine, mapping]
