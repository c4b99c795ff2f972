"""What YAML aliases expand to is measured from the values they name (`load.limits.check_aliases`), not by walking
the whole document: the same verdicts as the whole walk (`check_shape`), on bombs, structures that contain
themselves, nesting reached through an alias and merges, and nothing but the aliased values walked."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from specdiff.errors import InputError
from specdiff.load import limits as limits_module
from specdiff.load.limits import Limits, check_aliases, check_shape
from specdiff.load.yaml_text import _build, _compose, _Sharing, parse_yaml

TIGHT = Limits(max_depth=6, max_alias_nodes=60, max_bytes=400)


def _lol(levels: int) -> str:
    lines = ["l0: &l0 [a, a, a]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 3)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


CASES = {
    "two uses of a small list": "a: &x [1, 2]\nb: *x\nc: {d: *x}\n",
    "a node bomb": _lol(5),
    "nodes just within the budget": _lol(3),
    "a byte bomb": f'big: &b "{"x" * 150}"\nmany: [*b, *b, *b]\n',
    "text just within the budget": f'big: &b "{"x" * 100}"\nmany: [*b]\n',
    "a list that holds itself": "a: &x [1, *x]\n",
    "a mapping that holds itself deep down": "a: &x {b: {c: [*x]}}\n",
    "nesting reached through an alias": "a: &x [[[[1]]]]\nb: {c: {d: *x}}\n",
    "nesting through an alias just within the limit": "a: &x [[[1]]]\nb: {c: *x}\n",
    "a merge": "base: &b {p: 1, q: [1, 2]}\nd: {<<: *b, r: 2}\ne: {<<: *b}\n",
}


def _outcome(check: Any) -> str | None:
    try:
        check()
    except InputError as err:
        return err.one_line()
    return None


def _verdicts(text: str, limits: Limits) -> tuple[str | None, str | None]:
    """(the whole walk's verdict, the verdict from the aliased values) on a document read under `limits`."""
    sharing = _Sharing()
    [data] = [_build(node, limits.max_depth, sharing) for node in _compose(text)]
    return (_outcome(lambda: check_shape(data, "a.yaml", limits)),
            _outcome(lambda: check_aliases(sharing.uses, sharing.nodes, len(text), data, "a.yaml", limits)))


@pytest.mark.parametrize("text", CASES.values(), ids=list(CASES))
def test_the_aliased_values_give_the_verdict_the_whole_walk_gives(text: str) -> None:
    whole, measured = _verdicts(text, TIGHT)
    assert measured == whole


def test_the_verdicts_are_the_ones_each_case_calls_for() -> None:
    """(So that the comparison above compares something.)"""
    verdicts = {name: _outcome(lambda text=text: parse_yaml(text, "a.yaml", TIGHT)) for name, text in CASES.items()}
    assert verdicts == {
        "two uses of a small list": None,
        "a node bomb": "a.yaml: YAML aliases expand to more than 60 nodes (alias budget exceeded, --max-aliases)",
        "nodes just within the budget": None,
        "a byte bomb": "a.yaml: YAML aliases expand to more than 400 bytes of text (alias budget exceeded, "
                       "--max-bytes)",
        "text just within the budget": None,
        "a list that holds itself": "a.yaml: a YAML alias refers to a node that contains it (a structure that "
                                    "contains itself)",
        "a mapping that holds itself deep down": "a.yaml: a YAML alias refers to a node that contains it (a "
                                                 "structure that contains itself)",
        "nesting reached through an alias": "a.yaml: nesting deeper than 6 levels (--max-depth)",
        "nesting through an alias just within the limit": None,
        "a merge": None,
    }


def test_a_large_document_with_one_alias_walks_only_what_the_alias_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenAI's spec uses one alias, a list of two names, in 38,000 lines: the walk covers the list alone."""
    walked: list[Any] = []
    of = limits_module.Expansion.of

    def spied(self: limits_module.Expansion, value: Any) -> tuple[int, int, int]:
        walked.append(value)
        return of(self, value)

    monkeypatch.setattr(limits_module.Expansion, "of", spied)
    text = "".join(f"s{i}: {{type: object, properties: {{a: {{type: string}}}}}}\n" for i in range(2000))
    data = parse_yaml(text + "x: &names [a, b]\ny: {required: *names}\n", "a.yaml", Limits())
    assert data["y"]["required"] == ["a", "b"]
    assert walked == [["a", "b"]]


def _random_document(rng: random.Random) -> str:
    """Flow YAML nested up to six levels, anchors on some containers, aliases of anchors already written (inside
    the anchored container too: structures that contain themselves), strings long enough to be kept shared."""
    anchors: list[str] = []

    def node(depth: int) -> str:
        pick = rng.random()
        if anchors and pick < 0.25:
            return "*" + rng.choice(anchors)
        if depth > 5 or pick < 0.45:
            return rng.choice(["a", "bb", "1", "true", "null", '"' + "x" * rng.randint(0, 90) + '"'])
        anchor = f"n{len(anchors)}" if rng.random() < 0.4 else None
        if anchor:
            anchors.append(anchor)
        items = [node(depth + 1) for _ in range(rng.randint(0, 4))]
        body = f"[{', '.join(items)}]" if rng.random() < 0.5 else \
            "{" + ", ".join(f"k{i}: {item}" for i, item in enumerate(items)) + "}"
        return f"&{anchor} {body}" if anchor else body

    return f"root: {node(0)}\n"


def test_random_documents_are_refused_or_read_as_the_whole_walk_has_them() -> None:
    """Where a document both contains itself and passes a budget, which of the two is said first may differ."""
    rng = random.Random(20261128)
    budgets = (Limits(max_depth=4, max_alias_nodes=15, max_bytes=120), Limits(max_depth=30, max_alias_nodes=25,
                                                                                max_bytes=200), TIGHT)
    differ, said = [], set()
    for _ in range(400):
        text = _random_document(rng)
        for limits in budgets:
            try:
                whole, measured = _verdicts(text, limits)
            except Exception:  # noqa: BLE001 - nested past the limit while reading: no expansion to measure
                continue
            said.add(re.sub(r"\d+", "N", whole or "read"))
            if (whole is None) != (measured is None):
                differ.append(text)
    assert differ == []
    assert said == {  # (each verdict is met, so the comparison covers each; nesting through an alias: CASES)
        "read", "a.yaml: YAML aliases expand to more than N nodes (alias budget exceeded, --max-aliases)",
        "a.yaml: YAML aliases expand to more than N bytes of text (alias budget exceeded, --max-bytes)",
        "a.yaml: a YAML alias refers to a node that contains it (a structure that contains itself)"}
