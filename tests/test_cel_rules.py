"""CEL validation rules read with a parser: widened rules, rules that only constrain what a release adds, and
malformed rules, on small cases and on the Gateway API releases that added the CORS filter and made an address's
value optional."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import real_document

from specdiff.diff.cel import Shape, holds, parse, proof, widens
from specdiff.diff.kubernetes import shape
from specdiff.pipeline import run

#: an object without the new `cors`, with a required `type` that is A or B and a required `value`
FILTER = Shape(absent=frozenset({"cors"}), present=frozenset({"type", "value"}),
               fields={"type": Shape(enum=frozenset({"A", "B"}))})
FILTERS = Shape(items=FILTER)


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


@pytest.mark.parametrize(("old", "new", "wider"), [
    ("self.type == 'H' ? self.value.matches('^a$') : true",
     "self.type == 'H' ? (!has(self.value) || self.value.matches('^a$')) : true", True),
    ("self.all(a, a.type == 'A' ? self.exists_one(b, b.value == a.value) : true)",
     "self.all(a, a.type == 'A' && has(a.value) ? self.exists_one(b, has(b.value) && b.value == a.value) : true)",
     True),
    ("self.all(a, a.x > 0)", "self.all(a, a.x > 0 || has(a.y))", True),
    ("self.value == 'x'", "has(self.other) && self.value == 'x'", False),  # `other` may be there or not
    ("self.all(a, a.x > 0)", "self.all(a, a.x > 1)", False),
])
def test_widens_on_what_the_old_schema_allows(old: str, new: str, wider: bool) -> None:
    assert widens(old, new, FILTER if old.startswith("self.type") or "other" in new else FILTERS) is wider


@pytest.mark.parametrize(("rule", "proven"), [
    ("!(has(self.cors) && self.type != 'CORS')", True),
    ("!(!has(self.cors) && self.type == 'CORS')", True),
    ("has(self.cors) ? self.cors.maxAge > 0 : true", True),
    ("!has(self.value) || size(self.value) > 0", False),  # value is always there: the size is checked
    ("has(self.value) || self.cors.x", True),
    ("self.cors.maxAge > 0", False),  # no such key on an object without cors
    ("!(!has(self.cors) && self.type == 'A')", False),
    ("!has(self.other) || self.x", False),
    ("has(self.cors) &&", False),
    ("", False),
])
def test_holds_without_new_fields(rule: str, proven: bool) -> None:
    assert holds(rule, FILTER) is proven


@pytest.mark.parametrize(("rule", "proven"), [
    ("self.filter(f, f.type == 'CORS').size() <= 1", True),
    ("size(self.filter(f, f.type == 'CORS')) == 0", True),
    ("self.filter(f, f.type == 'A').size() <= 1", False),  # two A filters may exist
    ("!self.exists(f, has(f.cors))", True),
    ("self.exists_one(f, f.type == 'CORS') ? false : true", True),
    ("self.all(f, f.type != 'CORS')", True),
    ("self.all(f, f.type != 'A')", False),
    ("self.all(f, self.all(g, g.type != 'CORS'))", True),  # the inner list is the same list
    ("self.filter(f, f.type == 'CORS').size() <= 1 && self.size() < 3", False),
    ("self.map(f, f.type).size() <= 1", False),
])
def test_list_rules_over_values_the_old_schema_cannot_hold(rule: str, proven: bool) -> None:
    assert holds(rule, FILTERS) is proven


#: an object with a required `backend` that has no `weight`, an optional `tls` with a required `mode` (an old enum)
#: and no `alpn`, and optional maps `routes` and `other` whose values have a required `kind` (A or B) and no `cors`
ROUTE = Shape(absent=frozenset({"cors"}), present=frozenset({"kind"}), fields={"kind": Shape(enum=frozenset("AB"))})
SPEC = Shape(present=frozenset({"backend"}), fields={
    "backend": Shape(absent=frozenset({"weight"})),
    "tls": Shape(absent=frozenset({"alpn"}), present=frozenset({"mode"}),
                 fields={"mode": Shape(enum=frozenset({"Terminate", "Passthrough"}))}),
    "routes": Shape(values=ROUTE), "other": Shape(values=ROUTE)})


@pytest.mark.parametrize(("rule", "proven"), [
    ("!has(self.backend.weight) || self.backend.weight > 0", True),
    ("self.backend.weight > 0", False),
    ("!has(self.tls) || !has(self.tls.alpn) || size(self.tls.alpn) > 0", True),
    ("has(self.tls) && has(self.tls.alpn) ? self.tls.alpn.size() > 0 : true", True),
    ("!has(self.tls.alpn)", False),  # an object without tls: reading tls.alpn is an error
    ("has(self.tls) || !has(self.tls.alpn)", False),  # read exactly where tls is missing
    ("has(self.tls) ? self.tls.mode != 'Mutual' : true", True),
    ("self.tls.mode != 'Mutual'", False),
    ("!has(self.tls) || self.tls.mode != 'Terminate'", False),
    ("!has(self.tls) || self.tls.mode in ['Terminate', 'Passthrough']", True),
    ("!has(self.tls) || self.tls.mode in ['Terminate']", False),
])
def test_holds_on_nested_fields(rule: str, proven: bool) -> None:
    assert holds(rule, SPEC) is proven


@pytest.mark.parametrize(("rule", "proven"), [
    ("!has(self.routes) || self.routes.all(k, !has(self.routes[k].cors))", True),
    ("!has(self.routes) || !self.routes.exists(k, self.routes[k].kind == 'C')", True),
    ("!has(self.routes) || self.routes.filter(k, has(self.routes[k].cors)).size() == 0", True),
    ("!has(self.routes) || self.routes.all(k, self.routes.all(k, !has(self.routes[k].cors)))", True),
    ("self.routes.all(k, !has(self.routes[k].cors))", False),  # routes may be missing
    ("!has(self.routes) || self.routes.all(k, !has(self.other[k].cors))", False),  # k is a key of routes only
    ("!has(self.routes) || self.routes.all(k, k != 'x')", False),
    ("!has(self.routes) || self.routes.all(self, !has(self.routes[self].cors))", False),  # self is a key there
])
def test_holds_on_map_values(rule: str, proven: bool) -> None:
    assert holds(rule, SPEC) is proven


def test_a_macro_variable_hides_the_same_name_outside() -> None:
    # inside the inner macro `f` is an item of `self.other`, of which nothing is known
    assert holds("self.all(f, f.other.all(f, f.type != 'CORS'))", FILTERS) is False


def test_has_on_a_variable_of_which_nothing_is_known_may_fail() -> None:
    # the items of a list nothing is known about may be strings, on which `has(g.b)` is an error
    assert widens("self.all(g, true)", "self.all(g, has(g.b) ? true : true)") is False
    assert widens("self.all(g, true)", "self.all(g, true || has(g.b))") is True


def test_has_on_an_item_of_a_list_of_strings_is_an_error() -> None:
    before = {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}
    assert holds("!has(self.tags) || self.tags.all(t, has(t.x) ? true : true)", shape(before, before)) is False


def test_gateway_httproutes_v1_4_to_v1_6_cors_rules() -> None:
    """v1.6 adds the CORS filter: its per-filter rules tie the new `cors` field to the new `CORS` type, and the
    list rule `at most one CORS filter` counts filters of a type no existing route has: none can reject one."""
    old = real_document("crds/gateway-api/httproutes.standard.v1.4.0.yaml")
    new = real_document("crds/gateway-api/httproutes.standard.v1.6.1.yaml")
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
                ("kubernetes.validation.rule-added", f"{filters}/x-kubernetes-validations/1", "safe"),
            ]
    assert found == sorted(expected)


def test_gateway_v1_2_to_v1_4_address_rules_guarded_for_an_optional_value_are_loosenings() -> None:
    """v1.4 makes `spec.addresses[].value` optional and guards the rules that read it with `has()`: on every
    address the old schema allows `value` is there, so each rule is the old one there; addresses without `value`
    now pass. A loosening, judged like `schema.constraint-loosened` (dangerous for readers under the Kubernetes
    policy), not a rule that may reject what passed."""
    old = real_document("crds/gateway-api/gateways.standard.v1.2.0.yaml")
    new = real_document("crds/gateway-api/gateways.standard.v1.4.0.yaml")
    report = run(old, new)
    addresses = "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/addresses"
    changed = sorted((f.change.pointer, f.level.value, len(f.members)) for f in report.findings
                     if f.rule == "kubernetes.validation.rule-changed")
    assert changed == [(f"{addresses}/items/x-kubernetes-validations/0", "dangerous", 2),
                       (f"{addresses}/x-kubernetes-validations/0", "dangerous", 2),
                       (f"{addresses}/x-kubernetes-validations/1", "dangerous", 2)]
    assert {f.reason for f in report.findings if f.rule == "kubernetes.validation.rule-changed"} == {
        "Every object the old rule accepted still passes (the new rule is the old one OR-ed with more, or the same "
        "on every object the old schema allows), but readers and controllers written against the old rule may "
        "receive values it refused, and older API servers still refuse them."}


def test_gateway_httproutes_v0_6_to_v0_8_rules_on_redirect_and_rewrite_paths() -> None:
    """v0.8 adds `path` to the request redirect filter and the new URL rewrite filter, with rules on each route
    rule that only fire when a filter (of the route or of one of its backends) has such a path: no route valid
    under v0.6 has one. The rule that forbids redirects next to backends reads old fields and stays breaking."""
    old = real_document("crds/gateway-api/httproutes.standard.v0.6.0.yaml")
    new = real_document("crds/gateway-api/httproutes.standard.v0.8.0.yaml")
    report = run(old, new, grouped=False)
    rules = "/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/rules/items/x-kubernetes-validations"
    found = sorted((f.change.pointer, f.level.value) for f in report.findings
                   if f.rule == "kubernetes.validation.rule-added" and f.change.pointer.startswith(rules))
    assert found == [(f"{rules}/0", "breaking")] + [(f"{rules}/{i}", "safe") for i in range(1, 5)]


def _added_rules(old: str, new: str, under: str) -> list[tuple[str, str, bool]]:
    """The added rules' places under `under`, with their levels and whether each is a documentation correction."""
    report = run(real_document(f"crds/{old}"), real_document(f"crds/{new}"), grouped=False)
    return sorted((f.change.pointer.removeprefix(under), f.level.value,
                   f.reason.startswith("Documentation correction")) for f in report.findings
                  if f.rule == "kubernetes.validation.rule-added" and f.change.pointer.startswith(under))


def test_gateway_v0_8_rules_the_old_descriptions_stated_are_corrections() -> None:
    """Gateway API 0.6 said in words what five of 0.8's new rules enforce ("This field is required if the Protocol
    field is "HTTPS" or "TLS"", "This name MUST be unique within a Gateway."); the hostname rule enforces what
    only the admission webhook checked, "This field is ignored for protocols ..." says otherwise."""
    spec = "/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/"
    found = _added_rules("gateway-api/gateways.standard.v0.6.0.yaml", "gateway-api/gateways.standard.v0.8.0.yaml",
                         spec + "listeners")
    assert found == [
        ("/items/properties/tls/x-kubernetes-validations/0", "safe", True),  # certificateRefs for Terminate
        ("/x-kubernetes-validations/0", "safe", True),  # tls required for HTTPS and TLS
        ("/x-kubernetes-validations/1", "safe", True),  # tls invalid for HTTP, TCP and UDP
        ("/x-kubernetes-validations/2", "breaking", False),  # no hostname for TCP and UDP: the webhook's, unwritten
        ("/x-kubernetes-validations/3", "safe", False),  # unique names: proven, the list-map's keys are unique
        ("/x-kubernetes-validations/4", "safe", True),  # unique hostname, port and protocol
    ]


def test_httproute_v0_8_rules_the_webhook_alone_enforced_stay_breaking() -> None:
    """The backend port a Service needs and a parent referenced once were written in 0.6's descriptions; a filter's
    settings matching its type, a core filter not repeated and the path's characters were the webhook's alone,
    and so is a reference to a whole parent beside one to its section ("identical parent" says nothing of it)."""
    spec = "/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/"
    pair = ("gateway-api/httproutes.standard.v0.6.0.yaml", "gateway-api/httproutes.standard.v0.8.0.yaml")
    mirror = "filters/items/properties/requestMirror/properties/backendRef/x-kubernetes-validations/0"
    found = _added_rules(*pair, spec)
    assert [(place, level) for place, level, correction in found if correction] == [
        ("parentRefs/x-kubernetes-validations/1", "safe"),  # "invalid to reference an identical parent ..."
        (f"rules/items/properties/backendRefs/items/properties/{mirror}", "safe"),  # "Port is required when ..."
        ("rules/items/properties/backendRefs/items/x-kubernetes-validations/0", "safe"),
        (f"rules/items/properties/{mirror}", "safe"),
    ]
    backend = "rules/items/properties/backendRefs/items/properties/"
    assert sorted(place for place, level, _ in found if level == "breaking") == sorted([
        "parentRefs/x-kubernetes-validations/0",  # a whole parent beside one to its section
        "rules/items/x-kubernetes-validations/0",
        *(f"{where}filters/items/x-kubernetes-validations/{i}"  # a filter's settings matching its type
          for where in ("rules/items/properties/", backend) for i in (0, 1, 4, 5, 6, 7, 10, 11)),
        *(f"{backend}filters/x-kubernetes-validations/{i}" for i in (2, 4)),  # a core filter not repeated
        *(f"rules/items/properties/filters/x-kubernetes-validations/{i}" for i in (1, 3)),
        *(f"rules/items/properties/matches/items/properties/path/x-kubernetes-validations/{i}"  # the path's characters
          for i in (*range(9), 10)),
    ])


def test_cert_manager_venafi_rule_reads_a_field_the_old_text_could_not_state() -> None:
    under = "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/venafi/x-kubernetes-validations"
    report = run(real_document("crds/cert-manager/issuers.v1.12.0.yaml"),
                 real_document("crds/cert-manager/issuers.v1.21.1.yaml"), grouped=False)
    [venafi] = [f for f in report.findings if f.change.pointer.startswith(under)]
    assert (venafi.rule, venafi.level.value) == ("kubernetes.validation.rule-added", "dangerous")
    assert '("Only one of TPP or Cloud may be specified.")' in venafi.reason


#: rules whose folding or lexing took hours; each now ends in the verdict of a rule that proves nothing, or (a
#: string never closed) of a rule that does not compile
PATHOLOGICAL = {
    "a quote and 40 backslashes": ('"' + "\\" * 40, "breaking"),
    "a single quote, an escaped quote and 40 backslashes": ("self.a == '\\'" + "\\" * 40, "breaking"),
    "1,800 has() terms": (" || ".join(["has(self.b)"] * 1800), "dangerous"),
    "a flat chain of 1,500 &&": (" && ".join(["self.x > 0"] * 1500), "dangerous"),
}


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_pathological_rules_answer_with_the_verdict_of_a_rule_that_proves_nothing(name: str, tmp_path: Path) -> None:
    """The lexer's string regexes backtrack on an unclosed literal, and folding a long chain recursed and re-read
    every guard before each term (a flat chain was refused as "schemas nest too deeply"): a run in a
    subprocess, under a hang guard, gives the finding any unprovable rule gives."""
    def spec(rule: str) -> str:
        return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
                           "components": {"schemas": {"A": {"type": "object", "properties": {
                               "b": {"type": "string"}, "x": {"type": "integer"}},
                               "x-kubernetes-validations": [{"rule": rule}]}}}})

    (tmp_path / "old.json").write_text(spec("self.x > 0"))
    rule, level = PATHOLOGICAL[name]
    (tmp_path / "new.json").write_text(spec(rule))
    done = subprocess.run([sys.executable, "-m", "specdiff", "old.json", "new.json", "--no-config", "--format",
                           "json"], cwd=tmp_path, capture_output=True, text=True, timeout=120)  # a hang guard
    assert (done.returncode, done.stderr) == (1 if level == "breaking" else 0, "")
    found = json.loads(done.stdout)["findings"]
    assert [(f["rule"], f["level"], f["pointer"]) for f in found] == [
        ("kubernetes.validation.rule-changed", level, "/components/schemas/A/x-kubernetes-validations/0")]


@pytest.mark.parametrize(("rule", "parsed"), [
    ("self.a == 'it\"s'", True),  # a double quote inside a single-quoted literal opens nothing
    ("self.a == \"\"\"multi\nline\"\"\"", True),
    ("self.a == 'a\\\\' && self.b == 'c'", True),  # an escaped backslash does not escape the quote after it
    ("self.a == 1 // a comment with a \" quote", True),
    ("self.a == 'open", False),
    ("self.a == 'it\\'s", False),
    ("self.a == \"\"\"never closed\"", False),
    ("(" * 101 + "self.a || self.b" + ")" * 101, True),  # parentheses are wrappers: no operator nests in them
    (" && ".join(["self.a"] * 100), True),
    (" && ".join(["self.a"] * 102), False),
])
def test_a_rule_is_parsed_only_when_its_strings_close_and_it_nests_within_the_bound(rule: str, parsed: bool) -> None:
    assert (parse(rule) is not None) is parsed


#: at most 16 rules (an empty list too) of at most 8 matches each; `matches` required, `optional` not
RULES = Shape(items=Shape(present=frozenset({"matches"}), fields={
    "matches": Shape(max_items=8), "optional": Shape(max_items=8)}), max_items=16)
SUM = " + ".join(f"(self.size() > {i} ? self[{i}].matches.size() : 0)" for i in range(16))


@pytest.mark.parametrize(("rule", "why"), [
    (f"{SUM} <= 128", "self[].matches has at most 8 items (maxItems); the left side is at most 128"),
    (f"{SUM} < 129", "self[].matches has at most 8 items (maxItems); the left side is at most 128"),
    (f"129 > {SUM}", "self[].matches has at most 8 items (maxItems); the left side is at most 128"),
    ("(self.size() >= 1 ? (has(self[0].optional) ? self[0].optional.size() : 0) : 0) <= 8",
     "self[].optional has at most 8 items (maxItems); the left side is at most 8"),
    (f"{SUM} <= 127", None),  # 16 full rules reach 128
    ("(self.size() > 0 ? self[1].matches.size() : 0) <= 8", None),  # self[1] may not be there
    ("(self.size() > 0 ? self[0].optional.size() : 0) <= 8", None),  # optional may not be set
    ("self.size() <= 16", "self has at most 16 items (maxItems); the left side is at most 16"),
    ("self.size() <= 15", None),
])
def test_bounds_from_max_items(rule: str, why: str | None) -> None:
    assert proof(rule, RULES) == why


def test_proofs_name_the_enum_and_the_list_map_keys() -> None:
    path = {"type": "object", "properties": {"type": {"type": "string", "enum": ["Exact", "PathPrefix"]},
                                             "value": {"type": "string", "default": "/"}}}
    assert proof("self.type == 'Exact' || self.type == 'PathPrefix'", shape(path, path)) is None  # type optional
    defaulted = {**path, "properties": {**path["properties"], "type": {"type": "string", "enum": ["Exact"],
                                                                       "default": "PathPrefix"}}}
    assert proof("self.type == 'Exact' || self.type in ['PathPrefix']", shape(path, defaulted)) == (
        "self.type is one of Exact, PathPrefix (its enum, or the default)")
    assert proof("has(self.value)", shape(path, defaulted)) == "self.value is always set (required or defaulted)"
    listeners = {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                 "items": {"type": "object", "required": ["name", "port"],
                           "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}}
    known = shape(listeners, listeners)
    assert proof("self.all(a, self.exists_one(b, b.name == a.name && a.port == b.port))", known) == (
        "self is a list-map keyed by name, whose keys the API server keeps unique")
    assert proof("self.all(a, self.exists_one(a, a.name == a.name))", known) is None  # one variable twice
    assert proof("self.all(a, self.exists_one(b, a.port == b.port))", known) is None

