"""The readers behind the Kubernetes rules: documented enums, lifecycle markers, list topology, rule matching."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rulecases import run_case

from specdiff.diff.kubernetes import list_topology, predates_topology
from specdiff.graph import graph_of
from specdiff.graph.lifecycle import STABLE, Lifecycle, lifecycle_of, marker_problems
from specdiff.graph.schemas import deprecated_enum_values, documented_enum, enum_values
from specdiff.load import load_text
from specdiff.records import field_path

LIVE_DESCRIPTION = (
    "PodPhase is a label for the condition of a pod.\n\nPossible enum values:\n"
    ' - `"Pending"` means the pod has been accepted by the system,\nbut one or more containers has not started.\n'
    ' - `"Running"` means the pod has been bound to a node.\n'
    ' - `"Unknown"` means that the state of the pod could not be obtained. Deprecated: It isn\'t being set since 2015'
)


def test_documented_enum_values_keep_order_and_wrapped_lines() -> None:
    schema = {"type": "string", "description": LIVE_DESCRIPTION}
    assert documented_enum(schema) == {
        "Pending": "means the pod has been accepted by the system, but one or more containers has not started.",
        "Running": "means the pod has been bound to a node.",
        "Unknown": "means that the state of the pod could not be obtained. Deprecated: It isn't being set since 2015",
    }
    assert enum_values(schema) == ["Pending", "Running", "Unknown"]
    assert deprecated_enum_values(schema) == {"Unknown"}


def test_the_enum_keyword_wins_over_the_description() -> None:
    schema = {"type": "string", "enum": ["Pending"], "description": LIVE_DESCRIPTION}
    assert enum_values(schema) == ["Pending"]
    assert deprecated_enum_values(schema) == {"Unknown"}
    assert enum_values({"type": "string", "description": "Any text, no list."}) is None


VALID = {"kubernetes": {"minVersion": "v1.30", "status": "alpha", "featureGate": "Frobber2D"}}


@pytest.mark.parametrize(("marker", "builtin", "problems"), [
    (VALID, True, []),
    ({"kubernetes": {"minVersion": "v1.30.1", "status": "alpha", "featureGate": "F"}}, False,
     ["minVersion 'v1.30.1' is not a Kubernetes release such as v1.30"]),
    ({"kubernetes": {"minVersion": "v0.9", "status": "alpha", "featureGate": "F"}}, False,
     ["minVersion 'v0.9' is not a Kubernetes release such as v1.30"]),
    ({"kubernetes": {"minVersion": "v1.01", "status": "stable", "featureGate": " "}}, False,
     ["minVersion 'v1.01' is not a Kubernetes release such as v1.30",
      "status 'stable' is not one of alpha, beta, deprecated", "featureGate is missing or empty"]),
    ({**VALID, "istio": {"minVersion": "v3.0.0"}}, True,
     ["component istio is not allowed on built-in types (only kubernetes)"]),
    ({**VALID, "istio": {"minVersion": "v3.0.0"}}, False, []),
    ("alpha", False, ["the marker must map a component to {minVersion, status, featureGate}"]),
])
def test_marker_problems_follow_kep_2558(marker: Any, builtin: bool, problems: list[str]) -> None:
    assert marker_problems(marker, builtin) == problems


def test_lifecycle_of_reads_the_kubernetes_entry() -> None:
    assert lifecycle_of({"type": "integer"}) == STABLE
    assert lifecycle_of({"x-kubernetes-api-lifecycle": {"istio": {"status": "alpha"}}}) == STABLE
    assert lifecycle_of({"x-kubernetes-api-lifecycle": VALID}) == Lifecycle("alpha", "v1.30", "Frobber2D")
    assert lifecycle_of({"x-kubernetes-api-lifecycle": {"kubernetes": {"status": "gamma"}}}) == Lifecycle(
        None, None, None)


@pytest.mark.parametrize(("schema", "topology"), [
    ({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["a", "b"]}, ("map", ("a", "b"))),
    ({"type": "array", "x-kubernetes-list-type": "set", "x-kubernetes-patch-strategy": "merge"}, ("set", ())),
    ({"type": "array", "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name"},
     ("map", ("name",))),
    ({"type": "array", "x-kubernetes-patch-strategy": "merge,retainKeys"}, ("set", ())),
    ({"type": "array", "x-kubernetes-patch-strategy": "retainKeys"}, ("atomic", ())),
    ({"type": "array"}, ("atomic", ())),
    ({"items": {"type": "string"}}, ("atomic", ())),
    ({"type": "string", "x-kubernetes-list-type": "set"}, ("ignored", ())),
])
def test_list_topology_as_server_side_apply_reads_it(schema: dict[str, Any], topology: tuple[str, Any]) -> None:
    assert list_topology(schema) == topology


_LISTED = {"type": "array", "items": {"type": "string"}}


@pytest.mark.parametrize(("spec", "predates"), [
    ({"swagger": "2.0", "paths": {}, "definitions": {"A": {"properties": {"tags": _LISTED}}}}, True),
    ({"swagger": "2.0", "paths": {}, "definitions": {"A": {"properties": {
        "tags": {**_LISTED, "x-kubernetes-list-type": "set"}}}}}, False),
    ({"openapi": "3.0.0", "paths": {}, "components": {"schemas": {"A": {"properties": {
        "labels": {"type": "object", "x-kubernetes-map-type": "atomic"}}}}}}, False),
    # a marker outside the schema sections counts as well: they are only looked at first
    ({"swagger": "2.0", "definitions": {"A": {"properties": {"tags": _LISTED}}}, "paths": {"/a": {"post": {
        "parameters": [{"in": "body", "name": "body", "schema": {**_LISTED, "x-kubernetes-list-map-keys": ["k"]}}],
        "responses": {"200": {"description": "ok"}}}}}}, False),
])
def test_a_spec_predates_topology_when_no_marker_is_written_anywhere(spec: dict[str, Any], predates: bool) -> None:
    assert predates_topology(graph_of(load_text(json.dumps(spec), "spec.json", None))) is predates


def _rules(rules: list[dict[str, Any]]) -> dict[str, Any]:
    return {"components": {"schemas": {"Spec": {"type": "object", "x-kubernetes-validations": rules}}}}


def _findings(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[tuple[str, str]]:
    report = run_case({"old": _rules(old), "new": _rules(new)})
    return sorted((member.rule, member.change.pointer) for f in report.findings for member in f.members or (f,))


AT = "/components/schemas/Spec/x-kubernetes-validations"


def test_validation_rules_pair_by_text_then_by_message_then_the_only_ones_left() -> None:
    old = [{"rule": "self.a > 0", "message": "a"}, {"rule": "self.b > 0", "message": "b must be positive"},
           {"rule": "self.c > 0"}]
    new = [{"rule": "self.b > 1", "message": "b must be positive"}, {"rule": "self.a > 0", "message": "a!"},
           {"rule": "self.d > 0"}]
    assert _findings(old, new) == sorted([
        ("kubernetes.validation.rule-changed", f"{AT}/0"),  # b, paired by its message
        ("kubernetes.validation.message-changed", f"{AT}/1"),  # a, same expression
        ("kubernetes.validation.rule-changed", f"{AT}/2"),  # c replaced by d, the only ones left
    ])


def test_validation_rules_left_over_on_both_sides_are_not_guessed_at() -> None:
    old = [{"rule": "self.a > 0"}, {"rule": "self.b > 0"}]
    new = [{"rule": "self.c > 0"}, {"rule": "self.d > 0"}]
    assert _findings(old, new) == sorted([
        ("kubernetes.validation.rule-removed", AT), ("kubernetes.validation.rule-removed", AT),
        ("kubernetes.validation.rule-added", f"{AT}/0"), ("kubernetes.validation.rule-added", f"{AT}/1"),
    ])


def test_a_rule_that_becomes_a_transition_rule_is_a_changed_rule() -> None:
    assert _findings([{"rule": "self.a > 0", "message": "m"}], [{"rule": "self.a >= oldSelf.a", "message": "m"}]) == [
        ("kubernetes.validation.rule-changed", f"{AT}/0")]


KEYWORDS = ("x-kubernetes-api-lifecycle", "x-kubernetes-list-type", "x-kubernetes-list-map-keys",
            "x-kubernetes-map-type", "x-kubernetes-patch-strategy", "x-kubernetes-patch-merge-key",
            "x-kubernetes-preserve-unknown-fields", "x-kubernetes-validations", "x-kubernetes-unions", "enum",
            "description")
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=8)


@settings(max_examples=60, deadline=None)
@example({"enum": [{"a": 1}, "b"]}, {"enum": ["b"]})  # an unhashable value removed
@example({"x-kubernetes-validations": [{"rule": ["x"]}]}, {"x-kubernetes-validations": [{"rule": {"y": 1}}]})
@given(st.dictionaries(st.sampled_from(KEYWORDS), JSON, max_size=4),
       st.dictionaries(st.sampled_from(KEYWORDS), JSON, max_size=4))
def test_malformed_extension_values_never_crash(old: dict[str, Any], new: dict[str, Any]) -> None:
    """Whatever a spec puts in these keywords, comparing it yields findings, never an exception."""
    run_case({"old": {"components": {"schemas": {"S": {"type": "object", "properties": {"f": old}}}}},
              "new": {"components": {"schemas": {"S": {"type": "object", "properties": {"f": new}}}}}})


def test_an_invalid_marker_in_a_new_type_or_deep_in_a_new_field_is_reported() -> None:
    bad = {"kubernetes": {"minVersion": "v1.30", "status": "alpha", "featureGate": ""}}
    old = {"components": {"schemas": {"Frobber": {"type": "object", "properties": {}}}}}
    new = {"components": {"schemas": {
        "Width": {"type": "integer", "x-kubernetes-api-lifecycle": bad},
        "Frobber": {"type": "object", "properties": {"box": {"type": "object", "properties": {
            "inner": {"type": "string", "x-kubernetes-api-lifecycle": bad}}}}}}}}
    report = run_case({"old": old, "new": new})
    assert sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings
                  if f.rule.startswith("lifecycle.")) == [
        ("lifecycle.invalid", "/components/schemas/Frobber/properties/box/properties/inner/x-kubernetes-api-lifecycle",
         "dangerous"),
        ("lifecycle.invalid", "/components/schemas/Width/x-kubernetes-api-lifecycle", "dangerous"),
    ]
    assert {field_path(f.change.context) for f in report.findings if f.rule == "lifecycle.invalid"} == {
        None, ".box.inner"}
