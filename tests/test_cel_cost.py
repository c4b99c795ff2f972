"""The API server's cost check of CRD validation rules (specdiff.diff.cel_cost): cel-go's figures for macros and
string functions, sizes from the schema or the 3 MiB request, the cardinality of enclosing lists, the per-CRD
total, what cannot be estimated, and the real Gateway API and cert-manager rules, which API servers accept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from conftest import CORPORA, corpus

from specdiff.cli import main
from specdiff.diff.cel_cost import CRD_BUDGET, RULE_BUDGET, cardinality, decl, estimate
from specdiff.diff.kubernetes import VALIDATIONS, _VersionCost

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


def crd(properties: dict[str, Any]) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": properties}}}
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "frobs.example.com"},
            "spec": {"group": "example.com", "names": {"kind": "Frob", "plural": "frobs"}, "scope": "Namespaced",
                     "versions": [{"name": "v1", "served": True, "storage": True,
                                   "schema": {"openAPIV3Schema": schema}}]}}


def findings(tmp_path: Path, old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    before, after = tmp_path / "old.yaml", tmp_path / "new.yaml"
    before.write_text(yaml.safe_dump(old))
    after.write_text(yaml.safe_dump(new))
    done = CliRunner().invoke(main, ["compare", "--no-config", "--no-group", "--format", "json", str(before),
                                     str(after)])
    assert done.exit_code in (0, 1), done.output
    return [(f["rule"], f["pointer"], f["level"], f["reason"]) for f in json.loads(done.stdout)["findings"]]


AT = "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties"


def test_a_rule_over_the_per_rule_budget_is_refused_through_the_command(tmp_path: Path) -> None:
    """The reason gives the estimate, how many times the rule runs (once per item of the unbounded `rules`),
    and the budget."""
    hosts = {"type": "array", "maxItems": 8, "items": {"type": "string", "maxLength": 253}}
    rules = {"type": "array", "items": {"type": "object", "properties": {"hosts": hosts}}}
    checked = {**hosts, VALIDATIONS: [{"rule": "self.all(h, h.matches('^[a-z0-9.-]+$'))"}]}
    new_rules = {"type": "array", "items": {"type": "object", "properties": {"hosts": checked}}}
    assert findings(tmp_path, crd({"rules": rules}), crd({"rules": new_rules})) == [
        ("kubernetes.validation.rule-added", f"{AT}/rules/items/properties/hosts/{VALIDATIONS}/0", "breaking",
         "The API server refuses the CRD update that brings this rule: its estimated cost, 3,458,203,648 (3,298 "
         "for each of up to 1,048,576 runs), exceeds the per-rule budget of 10,000,000. Bound the lists, maps and "
         "strings it reads with maxItems, maxProperties and maxLength, or make it cheaper.")]


def test_rules_within_their_budget_but_over_the_crd_total_are_refused(tmp_path: Path) -> None:
    """Twelve rules of 8,866,002 each fit the per-rule budget; together (106,392,024) they pass the per-CRD one."""
    tags = {"type": "array", "maxItems": 11000, "items": {"type": "string", "maxLength": 1000}}
    rules = [{"rule": f"self.all(t, t.matches('^[a-z]{n}$'))"} for n in "0123456789ab"]
    assert cost(rules[0]["rule"], tags) == 2 + 11000 * (3 + 1 + 401 * 2) == 8_866_002
    new = findings(tmp_path, crd({"tags": tags}), crd({"tags": {**tags, VALIDATIONS: rules}}))
    assert [(rule, pointer, level) for rule, pointer, level, _ in new] == [
        ("kubernetes.validation.rule-added", f"{AT}/tags/{VALIDATIONS}/{n}", "breaking")
        for n in sorted(range(12), key=str)]
    assert new[0][3] == (
        "The API server refuses the CRD update that brings this rule: the estimated cost of all the rules of its "
        "version's schema, 106,392,024, exceeds the per-CRD budget of 100,000,000, and this rule's estimate is "
        "8,866,002. Bound the lists, maps and strings it reads with maxItems, maxProperties and maxLength, or make "
        "it cheaper.")


def test_the_same_rules_under_the_crd_total_keep_the_verdict_a_new_rule_gets(tmp_path: Path) -> None:
    tags = {"type": "array", "maxItems": 64, "items": {"type": "string", "maxLength": 63}}
    new = findings(tmp_path, crd({"tags": tags}),
                   crd({"tags": {**tags, VALIDATIONS: [{"rule": "self.all(t, t.matches('^[a-z]+$'))"}]}}))
    assert [(rule, pointer, level) for rule, pointer, level, _ in new] == [
        ("kubernetes.validation.rule-added", f"{AT}/tags/{VALIDATIONS}/0", "breaking")]
    assert "budget" not in new[0][3] and "unchecked" not in new[0][3]


def real_rules() -> list[tuple[str, str, str, int | None]]:
    """(file, version, rule, its cost as checked) for every rule of every real CRD version."""
    corpus("crds/gateway-api/httproutes.standard.v1.6.1.yaml")
    found = []
    for path in sorted((CORPORA / "crds").glob("*/*.yaml")):
        for document in yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader):  # PyYAML's safe loader, in C
            for served in (document or {}).get("spec", {}).get("versions", []):
                root = served.get("schema", {}).get("openAPIV3Schema")
                checked = _VersionCost(root)
                assert checked.total <= CRD_BUDGET, (path.name, served["name"], checked.total)
                stack: list[tuple[Any, list[str]]] = [(root, [])]
                while stack:
                    schema, below = stack.pop()
                    if not isinstance(schema, dict):
                        continue
                    for rule in schema.get(VALIDATIONS, []):
                        found.append((path.name, served["name"], rule["rule"], checked.rule(rule["rule"], below)[0]))
                    stack += [(p, [*below, "properties", n]) for n, p in (schema.get("properties") or {}).items()]
                    stack += [(schema[k], [*below, k]) for k in ("items", "additionalProperties") if k in schema]
    return found


def test_every_real_gateway_api_rule_is_estimated_within_the_budget_api_servers_accept_it_under() -> None:
    """API servers accept these CRDs, so an estimate over budget would be too pessimistic; the dearest rule is
    HTTPRoute's path regex, 5,756 for each of 16 rules times 64 matches."""
    found = real_rules()
    assert len(found) > 1000
    assert [entry for entry in found if entry[3] is None] == []
    assert [entry for entry in found if entry[3] is not None and entry[3] > RULE_BUDGET] == []
    dearest = max(entry[3] or 0 for entry in found)
    assert dearest == 5_756 * 16 * 64


NUMBERS, STRINGS = {"type": "number"}, {"type": "string"}


def listed(items: dict[str, Any], bound: int | None = None) -> dict[str, Any]:
    return {"type": "array", "items": items, **({"maxItems": bound} if bound is not None else {})}


def mapped(values: dict[str, Any], bound: int | None = None) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": values, **({"maxProperties": bound} if bound is not None
                                                                  else {})}


def text(bound: int | None = None, **more: Any) -> dict[str, Any]:
    return {"type": "string", **({"maxLength": bound} if bound is not None else {}), **more}


@pytest.mark.parametrize(("schema", "rule", "expected"), [
    (listed(NUMBERS), "self.all(x, true)", 4_718_591),
    (listed(NUMBERS, 10), "self.all(x, true)", 32),
    (listed(STRINGS), "self.all(x, true)", 3_145_727),
    (listed({"type": "boolean"}), "self.all(x, true)", 1_887_437),
    (listed(listed(NUMBERS)), "self.all(x, true)", 3_145_727),
    (mapped(NUMBERS), "self.all(x, true)", 1_348_169),
    (listed(text(format="duration")), "self.all(x, true)", 2_359_295),
    (listed(text(format="date")), "self.all(x, true)", 725_936),
    (listed(text(format="date-time")), "self.all(x, true)", 428_963),
    (listed({"x-kubernetes-int-or-string": True}), "self.all(x, true)", 4_718_591),
    (text(), "self.contains('test')", 314_574),
    (text(10), "self.contains('test')", 5),
    (text(), "self.startsWith('test')", 2),
    (text(), 'size(self + "hello") > size("hello")', 314_578),
    (text(4), 'size(self + "hello") > size("hello")', 7),
    (listed(NUMBERS), "self[1] == 0.0", 2),
    (listed(STRINGS), "self[1] == self[1]", 314_577),
    (listed(NUMBERS, 10), "self.all(x, self.all(y, true))", 352),
    (listed(NUMBERS, 10), "self.all(x, self.all(y, self.all(z, true)))", 3552),
    (text(), 'self.matches("x")', 314_574),
    (text(50), 'self.matches("x")', 22),
    (text(), '"".matches("(((((((((())))))))))[0-9]")', 7),
    (text(), 'self.matches("")', 1),
    (mapped(STRINGS), "self.all(x, x.contains(self[x]))", 2_752_507),
    (mapped(STRINGS, 10), "self.all(x, x.contains(self[x]))", 72),
    (text(0), 'self == "x"', 1),
    (text(), 'self == "x"', 2),
    (listed(NUMBERS), "self.all(x, x == 0.0)", 6_291_454),
    (listed({"x-kubernetes-int-or-string": True}), "self[0] == 5", 3),
    (listed(mapped(NUMBERS)), "self.all(x, x.y == 25.2)", 6_291_452),
    (listed(mapped(NUMBERS, 12), 12), "self.all(x, x.y == 25.2)", 74),
    (listed(mapped(NUMBERS)), "self[0].x > 2.0", 4),
    (text(), "self.find('[0-9]+') == ''", 629_147),
    (text(10), "self.find('[0-9]+') == ''", 11),
    (listed(text()), "self.isSorted() == true", 329_854_432_052),
    (listed(text(10), 10), "self.isSorted() == true", 52),
    ({"type": "object", "properties": {"str": text(), "separator": text()}}, "self.str.split(self.separator) == []",
     629_160),
    (text(), "self.lowerAscii() == 'lower!'", 314_575),
    (text(10), "self.lowerAscii() == 'lower!'", 6),
    (mapped({"type": "integer"}), "oldSelf.size() == self.size()", 5),
    (mapped(text(format="date-time")), 'self["a"] == self["b"]', 8),
    (text(enum=["A", "B", "C", "LongValue"]), "self.contains('A')", 2),
    (text(1000, enum=["A", "B", "C", "LongValue"]), "self.contains('A')", 401),
    (listed(text(format="duration")), "self[0].getHours() == 2", 4),
    (listed(text(format="date")), "self[2].getDayOfMonth() == 13", 4),
    (listed(text(format="date-time")), "self[2].getMinutes() == 45", 4),
])
def test_the_figures_kubernetes_own_cost_tests_expect(schema: dict[str, Any], rule: str, expected: int) -> None:
    """Cases of Kubernetes' TestCostEstimation (apiextensions-apiserver `pkg/apiserver/schema/cel`), each with the
    maximum cost the API server computes for the rule on that schema."""
    assert cost(rule, schema) == expected


def test_replace_and_join_grow_their_result_as_kubernetes_estimates() -> None:
    """Kubernetes' TestCostEstimation cases for the library's `replace` (the result's size decides what comparing
    it costs) and `join`."""
    before_after = {"before": text(2), "after": text(4)}
    replaced = "self.str.replace(self.before, self.after) == 'does not matter'"
    assert cost(replaced, {"type": "object", "properties": {"str": text(), **before_after}}) == 629_154
    assert cost(replaced, {"type": "object", "properties": {"str": text(4), **before_after}}) == 12
    assert cost("self.join(' ') == 'aa bb'", listed(text())) == 329_853_068_905
    assert cost("self.join(' ') == 'aa bb'", listed(text(10), 10)) == 43


def test_a_version_the_release_adds_is_checked_like_the_versions_it_had(tmp_path: Path) -> None:
    old = crd({"tags": UNBOUNDED_STRINGS})
    new = crd({"tags": UNBOUNDED_STRINGS})
    added = json.loads(json.dumps(new["spec"]["versions"][0]))
    added.update(name="v2", storage=False)
    tags = added["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["tags"]
    tags[VALIDATIONS] = [{"rule": "self.all(t, t.matches('^[a-z]+$'))"}, {"rule": "self.size() <= 16"}]
    new["spec"]["versions"].append(added)
    at = f"/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/tags/{VALIDATIONS}/0"
    assert [(rule, pointer, level) for rule, pointer, level, _ in findings(tmp_path, old, new)] == [
        ("kubernetes.validation.rule-added", at, "breaking"), ("crd.version.added", "/spec/versions/1", "safe")]
