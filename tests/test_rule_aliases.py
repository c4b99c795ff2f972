"""A renamed rule keeps its former id: baselines still match and configuration naming it still applies."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import specdiff.classify as classify
from specdiff.classify import cards
from specdiff.config import BaselineEntry, Config, config_from_mapping, for_command
from specdiff.load import load_text
from specdiff.pipeline import run
from specdiff.records import fingerprint

OLD_ID, NEW_ID = "schema.type-changed", "schema.type.changed"


@pytest.fixture
def renamed_rule(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The catalogue as it would read after `schema.type-changed` is renamed with an alias."""
    shipped = cards.catalogue()
    renamed = tuple(dataclasses.replace(c, id=NEW_ID, aliases=(OLD_ID,)) if c.id == OLD_ID else c for c in shipped)
    monkeypatch.setattr(cards, "catalogue", lambda: renamed)
    monkeypatch.setattr(classify, "catalogue", lambda: renamed)
    cards.renamed.cache_clear()
    yield  # (classify's index follows the catalogue it is given)
    cards.renamed.cache_clear()


def _spec(kind: str) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"Frob": {"type": "object", "properties": {"size": {"type": kind}}}}}}


def _run(config: dict[str, Any] | None = None) -> Any:
    old = load_text(json.dumps(_spec("string")), "old.json", None)
    new = load_text(json.dumps(_spec("integer")), "new.json", None)
    return run(old, new, "openapi", config_from_mapping(config) if config is not None else None)


def test_a_renamed_rule_keeps_its_fingerprints(renamed_rule: None) -> None:
    (finding,) = _run().findings
    assert (finding.rule, finding.change.pointer) == (NEW_ID, "/components/schemas/Frob/properties/size")
    assert finding.fingerprint == fingerprint(OLD_ID, finding.change)
    # a baseline written before the rename holds the old id's fingerprint: it still accepts the finding
    accepted = run(load_text(json.dumps(_spec("string")), "old.json", None),
                   load_text(json.dumps(_spec("integer")), "new.json", None), "openapi",
                   Config(baseline=(BaselineEntry(fingerprint(OLD_ID, finding.change), "", "b:1"),)))
    assert (accepted.findings, accepted.notes) == ((), ())
    assert cards.card(OLD_ID) is cards.card(NEW_ID) is not None


@pytest.mark.parametrize("config", [{"ignore": [OLD_ID]}, {"rules": {OLD_ID: "off"}},
                                    {"ignore": [{"rule": OLD_ID, "reason": "accepted"}]}])
def test_configuration_naming_the_former_id_still_applies(renamed_rule: None, config: dict[str, Any]) -> None:
    assert _run(config).findings == ()


def test_selecting_the_former_id_keeps_the_renamed_finding(renamed_rule: None) -> None:
    assert [f.rule for f in _run({"select": [OLD_ID]}).findings] == [NEW_ID]


def test_former_ids_are_read_as_current_ones_when_configuration_is_made(renamed_rule: None, tmp_path: Path) -> None:
    """Mapped once, where a configuration is made (a file or mapping, the command line, by hand): the policy stage
    sees current ids only."""
    loaded = config_from_mapping({"rules": {OLD_ID: "dangerous", "schema": "safe"}, "select": [OLD_ID],
                                  "ignore": [OLD_ID, {"rule": OLD_ID, "reason": "accepted"}]})
    assert (dict(loaded.levels), loaded.select, loaded.ignore, [entry.rule for entry in loaded.ignores]) == (
        {NEW_ID: "dangerous", "schema": "safe"}, (NEW_ID,), (NEW_ID,), [NEW_ID])
    commanded = for_command(no_config=True, select=[OLD_ID], ignore=[OLD_ID], start=tmp_path)
    assert (commanded.select, commanded.ignore) == ((NEW_ID,), (NEW_ID,))
    assert Config(select=(OLD_ID, "schema")).select == (NEW_ID, "schema")
