"""The change vocabulary is the contract between the differ and the rule cards: both sides are held to it."""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from rulecases import EXAMPLE_CARD as GOOD
from rulecases import run_case

from specdiff.classify import Calendar, cards, message_values
from specdiff.classify.cards import UNCLASSIFIED, Card, cases, catalogue, load_catalogue, placeholders
from specdiff.classify.predicates import PREDICATES
from specdiff.cli import main
from specdiff.config import config_from_mapping
from specdiff.diff.vocabulary import VocabularyError, Where, change
from specdiff.errors import ConfigError
from specdiff.records import Change, Context

Rendered = dict[str, list[tuple[dict[str, str], Change, Calendar]]]


def _rendered_findings() -> Rendered:
    """rule id -> the message values, the change and the calendar of every finding it gave on any card's cases
    (a reason may also show the dated values the calendar gives)."""
    found: Rendered = {}
    for item in catalogue():
        for case in cases(item):
            report = run_case(case)
            config = config_from_mapping(case["config"], "case") if case.get("config") else None
            calendar = Calendar(dt.date.fromisoformat(report.today), config.deprecation_days if config else {})
            for finding in report.findings:
                change = finding.change
                values = {**message_values(change), **calendar.values(change.fact("sunset"), change.context.stability)}
                found.setdefault(finding.rule, []).append((values, change, calendar))
    return found


@pytest.fixture(scope="module")
def rendered() -> Rendered:
    return _rendered_findings()


@pytest.mark.parametrize("card", [c for c in catalogue() if c.id != UNCLASSIFIED], ids=lambda c: c.id)
def test_every_placeholder_renders_on_the_cases(card: Card, rendered: Rendered) -> None:
    """A placeholder that renders empty reads as "property bar of  became optional". A `when` exception's
    reason is rendered on the changes its predicate holds for."""
    assert rendered.get(card.id), f"{card.id}: no case renders its message"
    for values, seen, calendar in rendered[card.id]:
        templates = [card.message, card.reason, *(str(e.get("reason", "")) for e in card.when
                                                  if not isinstance(e.get("reason"), dict)
                                                  and PREDICATES[e["predicate"]](seen, calendar))]
        for template in templates:
            blank = [name for name in placeholders(template) if not values.get(name)]
            assert not blank, f"{card.id}: {{{blank[0]}}} renders empty in {template!r} at {values['location']!r}"


@pytest.fixture
def rules(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "rules"
    (root / "schema").mkdir(parents=True)
    yield root


def _refusal(root: Path, card_text: str) -> str:
    (root / "schema" / "bad.yaml").write_text(card_text)
    with pytest.raises(ConfigError) as caught:
        load_catalogue(root)
    return str(caught.value)


def test_a_good_card_loads(rules: Path) -> None:
    (rules / "schema" / "good.yaml").write_text(GOOD)
    assert [c.id for c in load_catalogue(rules)] == ["schema.test.example"]


@pytest.mark.parametrize(("old", "new", "named"), [
    ("node: property", "node: propery", "unknown node 'propery'"),
    ("change: added", "change: renamed", "unknown change kind 'renamed'"),
    ("change: added}", "change: added, attribute: maxLenght}", "unknown attribute 'maxLenght'"),
    ("change: added}", "change: added, direction: sideways}", "unknown direction 'sideways'"),
    ("{location}", "{locaton}", "unknown placeholder {locaton}"),
    ("{name}", "{media_type}", "unknown placeholder {media_type}"),
    ("reason: An example.", "reason: An example.\npredicate: transition_rule",
     "predicate 'transition_rule' reads fact 'transition'"),
    ("reason: An example.", "reason: An example.\npredicate: no_such_thing", "unknown predicate 'no_such_thing'"),
    ("reason: An example.", "reason: An example.\ngroup_message: {nmae: 'properties {name} added'}",
     "group_message names {nmae}, which the message does not"),
    ("reason: An example.", "reason: An example.\ngroup_message: {name: 'properties {nmae} added'}",
     "unknown placeholder {nmae}"),
])
def test_a_card_naming_anything_undeclared_is_refused(rules: Path, old: str, new: str, named: str) -> None:
    message = _refusal(rules, GOOD.replace(old, new))
    assert message.startswith(f"{rules / 'schema' / 'bad.yaml'}: ") and named in message
    assert "\n" not in message


@pytest.mark.parametrize(("old", "new", "named"), [
    ("level: safe", "level: {openapi: {request: safe, response: dangerous}, kubernetes: breaking}",
     "level has no entry for openapi/both"),
    ("reason: An example.", "reason: {default: An example., openapi: {request: Sent., response: Read.}}",
     "reason has no entry for openapi/both"),
    ("level: safe", "level: {alpha: safe, beta: safe}", "level has no entry for kubernetes/request/stable"),
    ("level: safe", "level: {default: safe, request: fatal}",
     "level for kubernetes/request is 'fatal', not one of breaking, dangerous, safe"),
    ("reason: An example.", "reason: An example.\nwhen: [{predicate: unordered, level: {request: safe}}]",
     "level has no entry for kubernetes/response"),
])
def test_a_card_whose_maps_miss_a_direction_or_policy_is_refused(rules: Path, old: str, new: str,
                                                                  named: str) -> None:
    """A gap in a level or reason map used to abort the run at the first change it met (issue 24: const
    changed in a `both` schema under the openapi policy); the loader now refuses the card itself."""
    assert _refusal(rules, GOOD.replace(old, new)) == f"{rules / 'schema' / 'bad.yaml'}: {named}"


def test_every_shipped_card_covers_every_policy_direction_and_stability() -> None:
    """Loading checks it; this says so for the catalogue that ships, read from its YAML cards."""
    assert load_catalogue(cards.rules_root()) == catalogue()


def test_the_cli_refuses_a_bad_catalogue_in_one_line(rules: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    (rules / "schema" / "bad.yaml").write_text(GOOD.replace("node: property", "node: propery"))
    exit_code, lines = _compare_with(rules, tmp_path, monkeypatch)
    assert exit_code == 2
    assert lines == [f"specdiff: error: {rules / 'schema' / 'bad.yaml'}: unknown node 'propery'"]


def _compare_with(rules: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[str]]:
    """Run the command line with `rules` as its catalogue on the demo spec against itself."""
    spec = Path(__file__).parents[1] / "corpora" / "demo" / "frobber-v6.yaml"
    shutil.copy(spec, tmp_path / "a.yaml")
    monkeypatch.setattr(cards, "rules_root", lambda: rules)
    cards.catalogue.cache_clear()
    try:
        result = CliRunner().invoke(main, [str(tmp_path / "a.yaml"), str(tmp_path / "a.yaml"), "--no-config"])
    finally:
        cards.catalogue.cache_clear()
    return result.exit_code, result.output.strip().splitlines()


def test_a_card_holding_its_cases_is_refused_in_one_line(rules: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout before cases moved to a second document: `cases:` inside the card itself."""
    legacy = GOOD + "cases:\n  - {name: one, old: {}, new: {}, expect: []}\n"
    message = _refusal(rules, legacy)
    assert message == (f"{rules / 'schema' / 'bad.yaml'}: the card holds `cases:`; move them to a second YAML "
                       "document after a `---` line")
    assert _compare_with(rules, tmp_path, monkeypatch) == (2, [f"specdiff: error: {message}"])


@pytest.mark.parametrize(("kind", "node", "attribute", "facts"), [
    ("added", "propery", "", {}),
    ("renamed", "property", "", {}),
    ("added", "property", "maxLength", {}),
    ("added", "property", "", {"colour": "red"}),
    ("added", "property", "", {"required": "yes"}),
])
def test_the_differ_cannot_build_an_undeclared_change(kind: str, node: str, attribute: str,
                                                      facts: dict[str, object]) -> None:
    with pytest.raises(VocabularyError):
        change(kind, node, attribute, where=Where(Context(), "both"), **facts)
