"""The API server's cost estimate of CRD validation rules (specdiff.diff.cel_cost): cel-go's figures for macros
and string functions, sizes from the schema or the 3 MiB request, the cardinality of enclosing lists, and what
cannot be estimated."""

from __future__ import annotations

from typing import Any

import pytest

from specdiff.diff.cel_cost import RULE_BUDGET, cardinality, decl, estimate

UNBOUNDED_STRINGS = {"type": "array", "items": {"type": "string"}}
BOUNDED_STRINGS = {"type": "array", "maxItems": 16, "items": {"type": "string", "maxLength": 64}}
TEXT = {"type": "string"}


def cost(rule: str, schema: dict[str, Any]) -> int | None:
    return estimate(rule, decl(schema))


def test_an_unbounded_list_holds_as_many_smallest_items_as_a_3_mib_request_and_a_string_its_bytes() -> None:
    listed = decl(UNBOUNDED_STRINGS)
    assert listed is not None and listed.elem is not None
    assert (listed.size, listed.elem.size) == ((3 * 1024 * 1024 - 2) // 3, 3 * 1024 * 1024 - 2)  # `"",` per item
    assert decl(BOUNDED_STRINGS).size == 16  # type: ignore[union-attr]
    assert decl({"type": "string", "maxLength": 64}).size == 256  # type: ignore[union-attr]  # four bytes a character
    assert decl({"type": "string", "enum": ["Exact", "PathPrefix"]}).size == 10  # type: ignore[union-attr]
    required = {"type": "object", "required": ["name"], "properties": {"name": TEXT, "note": TEXT}}
    assert decl({"type": "array", "items": required}).size == (3 * 1024 * 1024 - 2) // 13  # type: ignore[union-attr]


def test_a_macro_over_a_list_costs_its_size_times_its_step() -> None:
    """`all` is the range, 1 for the result, and per item 3 (condition and step) plus the body: here 1 for `t`
    and `matches`, a tenth of the string plus one, times a quarter of the regex, rounded up."""
    assert cost("self.all(t, t.matches('^[a-z]+$'))", UNBOUNDED_STRINGS) == 659_710_961_252
    assert cost("self.all(t, t.matches('^[a-z]+$'))", BOUNDED_STRINGS) == 2 + 16 * (3 + 1 + 26 * 2)
    assert cost("self.exists(t, t == 'a')", BOUNDED_STRINGS) == 2 + 16 * (4 + 1 + 1)
    assert cost("self.exists_one(t, t == 'a')", BOUNDED_STRINGS) == 3 + 16 * (2 + 1 + 1)
    assert cost("self.filter(t, t.startsWith('a')).size() > 0", BOUNDED_STRINGS) == 12 + 16 * (13 + 1 + 1) + 1 + 1
    assert cost("self.map(t, t.size()).all(n, n < 64)", BOUNDED_STRINGS) == 12 + 16 * (12 + 2) + 1 + 16 * (3 + 2)


def test_nested_macros_multiply_and_string_equality_costs_a_tenth_of_the_shorter_string() -> None:
    each = 1 + 2 + 16 * (2 + 1 + 1 + 26)  # exists_one over the list, `a == b` of two 256-byte strings: 26
    assert cost("self.all(a, self.exists_one(b, a == b))", BOUNDED_STRINGS) == 2 + 16 * (3 + each)
    assert cost("self.all(a, self.exists_one(b, a == b))", UNBOUNDED_STRINGS) > RULE_BUDGET


def test_string_functions_over_unbounded_strings() -> None:
    spec = {"type": "object", "properties": {"name": TEXT, "hosts": UNBOUNDED_STRINGS}}
    big = 3 * 1024 * 1024 - 2
    assert cost("self.name.contains('-')", spec) == 2 + 314_573 * 1
    assert cost("self.name.startsWith('a')", spec) == 2 + 1
    assert cost("size(self.name) <= 63", spec) == 2 + 1 + 1
    assert cost("self.name.matches('^[a-z]+$')", spec) == 2 + (big + 1 + 9) // 10 * 2
    assert cost("'a' in self.hosts", spec) == 2 + (big // 3)
    assert cost("has(self.name) && self.name.lowerAscii() == self.name", spec) == 1 + 2 + 314_573 + 2 + 314_573


def test_a_rule_inside_lists_runs_once_per_item_of_each() -> None:
    item = decl({"type": "object", "properties": {"name": TEXT}})
    assert item is not None
    bounded = [{"type": "object"}, {"type": "array", "maxItems": 16}, {"type": "object"},
               {"type": "array", "maxItems": 64}]
    assert cardinality(bounded, item) == 1024
    unbounded = [{"type": "object"}, {"type": "array"}, {"type": "array", "maxItems": 64}]
    assert cardinality(unbounded, item) == 3 * 1024 * 1024 // 3  # the request over `{}` and a comma
    assert cardinality([{"type": "object", "additionalProperties": TEXT, "maxProperties": 5}], item) == 5


def test_what_the_estimate_does_not_follow_is_unchecked() -> None:
    spec = {"type": "object", "properties": {"endpoint": TEXT}}
    assert cost("url(self.endpoint).getScheme() == 'https'", spec) is None  # a function not modelled
    assert cost("self.missing == 1", spec) is None  # a field the schema does not expose: no compile
    assert cost("self.all(x, ", spec) is None
    assert estimate(5, decl(spec)) is None
    assert cost("self.size() > 0", {"x-kubernetes-preserve-unknown-fields": True}) is None


@pytest.mark.parametrize("schema", [
    {"type": "array", "maxItems": "10", "items": {"type": "string", "maxLength": -1}},
    {"type": "array", "items": [{"type": "string"}]},
    {"type": ["string"], "enum": [1, None]},
    {"type": "object", "properties": ["a"], "required": "a", "additionalProperties": {"type": "nope"}},
    {"type": "object", "x-kubernetes-embedded-resource": True, "properties": {"metadata": "x"}},
])
def test_malformed_bounds_give_an_estimate_or_none_never_an_error(schema: dict[str, Any]) -> None:
    for rule in ("self.all(x, x.matches('a'))", "self.size() == 0", "has(self.a) && self.a == self.b", "self[0]"):
        found = cost(rule, schema)
        assert found is None or found >= 0
