"""Baselines and scoped ignores written by an earlier specdiff keep matching: locations and fingerprints are
computed from each place's structure, and a change to how places are stored or shown must not strand the lists
users have checked in.

The files in tests/places/ were written by specdiff at commit d03bdff (before places were structured) for the
demo pair and the small test pairs: a baseline of the grouped findings (`specdiff baseline`), and three
configurations with one scoped ignore per finding: by its location as reports wrote it, by its long location
(full names), and by a glob over the first half of the location.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from specdiff.config import load_config, read_baseline
from specdiff.load import Document, load
from specdiff.pipeline import run

ROOT = Path(__file__).resolve().parents[1]
PLACES = ROOT / "tests" / "places"
PAIRS = {"frobber": ("corpora/demo/frobber-v6.yaml", "corpora/demo/frobber-v7.yaml"),
         "frob": ("tests/specs/frob-old.yaml", "tests/specs/frob-new.yaml"),
         "hostile": ("tests/specs/hostile-old.yaml", "tests/specs/hostile-new.yaml")}
TODAY = date(2026, 11, 25)  # the day the files were written: nothing in them expires


def _pair(name: str) -> tuple[Document, Document]:
    old, new = PAIRS[name]
    return load(str(ROOT / old)), load(str(ROOT / new))


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_an_earlier_baseline_accepts_every_finding_and_every_entry_is_used(name: str) -> None:
    old, new = _pair(name)
    before = run(old, new, today=TODAY)
    assert before.findings, "the pair must have findings for the baseline to accept"
    config = load_config(PLACES / "empty.yaml")
    config = replace(config, baseline=read_baseline(PLACES / f"{name}.baseline"))
    after = run(old, new, config=config, today=TODAY)
    assert [(f.rule, f.change.context.label()) for f in after.findings] == []
    assert [note for note in after.notes if "unused" in note] == []


@pytest.mark.parametrize("kind", ["labels", "long-labels", "globs"])
@pytest.mark.parametrize("name", sorted(PAIRS))
def test_earlier_scoped_ignores_each_still_match_a_finding(name: str, kind: str) -> None:
    old, new = _pair(name)
    config = load_config(PLACES / f"{name}.{kind}.yaml")
    assert config.ignores
    after = run(old, new, config=config, today=TODAY, grouped=False)
    assert [note for note in after.notes if "unused" in note] == []
    ignored = {entry.rule for entry in config.ignores}
    assert [(f.rule, f.change.context.label()) for f in after.findings if f.rule in ignored
            and f.change.context.label()] == []
