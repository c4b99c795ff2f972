"""CEL validation rules read with a parser: widened rules, rules that only constrain what a release adds, and
malformed rules, on small cases and on the Gateway API release that added the CORS filter."""

from __future__ import annotations

import pytest
from conftest import corpus

from specdiff.diff.cel import holds_without, widens
from specdiff.load import load
from specdiff.pipeline import run

TYPES = {"type": frozenset({"A", "B"})}


@pytest.mark.parametrize(("old", "new", "wider"), [
    ("self.a > 0", "self.a > 0 || self.b", True),
    ("self.a > 0", "(self.a > 0) || has(self.b)", True),
    ("self.a || self.b", "self.b || self.c || self.a", True),
    ("self.a > 0", "self.a > 1 || self.b", False),
    ("self.a || self.b", "self.a", False),
    ("self.a > 0", "self.a > 0 && self.b", False),
    ("self.a >", "self.a > || self.b", False),
])
def test_widens(old: str, new: str, wider: bool) -> None:
    assert widens(old, new) is wider


@pytest.mark.parametrize(("rule", "holds"), [
    ("!(has(self.cors) && self.type != 'CORS')", True),
    ("!(!has(self.cors) && self.type == 'CORS')", True),
    ("has(self.cors) ? self.cors.maxAge > 0 : true", True),
    ("self.cors.maxAge > 0", False),  # no such key on an object without cors
    ("!(!has(self.cors) && self.type == 'A')", False),
    ("!has(self.other) || self.x", False),
    ("has(self.cors) &&", False),
    ("", False),
])
def test_holds_without_new_fields(rule: str, holds: bool) -> None:
    assert holds_without(rule, frozenset({"cors"}), TYPES) is holds


def test_gateway_httproutes_v1_4_to_v1_6_cors_rules() -> None:
    """v1.6 adds the CORS filter: its per-filter rules tie the new `cors` field to the new `CORS` type and cannot
    reject an existing filter; the list rule `at most one CORS filter` is not proven (it counts over the list)."""
    old = load(str(corpus("crds/gateway-api/httproutes.standard.v1.4.0.yaml")))
    new = load(str(corpus("crds/gateway-api/httproutes.standard.v1.6.1.yaml")))
    report = run(old, new, grouped=False)
    rules = "/spec/versions/{}/schema/openAPIV3Schema/properties/spec/properties/rules/items/properties"
    found = sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings
                   if f.rule.startswith("kubernetes.validation.") and "CORS" in str(f.change.new))
    expected = []
    for version in (0, 1):
        for filters in (f"{rules.format(version)}/backendRefs/items/properties/filters",
                        f"{rules.format(version)}/filters"):
            expected += [
                ("kubernetes.validation.rule-added", f"{filters}/items/x-kubernetes-validations/0", "safe"),
                ("kubernetes.validation.rule-added", f"{filters}/items/x-kubernetes-validations/1", "safe"),
                ("kubernetes.validation.rule-added", f"{filters}/x-kubernetes-validations/1", "breaking"),
            ]
    assert found == sorted(expected)
