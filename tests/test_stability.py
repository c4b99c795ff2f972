"""Stability decides the level wherever a change occurs: operations, parameters, bodies, named schemas
reached from alpha operations or alpha fields, properties of alpha definitions, inside alpha fields."""

from __future__ import annotations

import json
from typing import Any

from conftest import real_pair
from rulecases import run_case

from specdiff.graph.stability import said_alpha

ALPHA = "/apis/frobs.example.com/v1alpha1/frobbers"
GA = "/apis/frobs.example.com/v1/frobbers"
OK = {"200": {"description": "ok"}}
#: what marks these specs as Kubernetes (a path under /apis/ alone does not)
KUBERNETES = {"x-kubernetes-action": "list"}
ALPHA_FIELD = {"kubernetes": {"minVersion": "v1.31", "status": "alpha", "featureGate": "Frobber2D"}}
BETA_FIELD = {"kubernetes": {"minVersion": "v1.31", "status": "beta", "featureGate": "Frobber2D"}}


def verdicts(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """(rule, pointer, level, stability) of every place, a group's members each at its own level (one edit of
    the same parameter in an alpha and a stable version is one finding); here every alpha finding is a break
    allowed in alpha."""
    report = run_case({"old": old, "new": new})
    places = [member for f in report.findings for member in (f.members or (f,))]
    for f in places:
        assert f.reason.startswith("allowed in alpha, not compatible: ") == (f.change.context.stability == "alpha"), f
    return sorted((f.rule, f.change.pointer, f.level.value, f.change.context.stability) for f in places)


def op(schema: dict[str, Any], where: str = "query") -> dict[str, Any]:
    """A GET whose query parameter, or a POST whose body, has `schema`."""
    if where == "query":
        return {"get": {"parameters": [{"name": "mode", "in": "query", "schema": schema}], "responses": OK,
                        **KUBERNETES}}
    return {"post": {"requestBody": {"content": {"application/json": {"schema": schema}}}, "responses": OK,
                     **KUBERNETES}}


def test_parameters_of_alpha_operations_are_alpha() -> None:
    old_mode, new_mode = {"type": "string", "enum": ["a", "b"]}, {"type": "string", "enum": ["a"]}
    old = {"paths": {ALPHA: op(old_mode), GA: op(old_mode)}}
    new = {"paths": {ALPHA: op(new_mode), GA: op(new_mode)}}
    assert verdicts(old, new) == sorted([
        ("schema.enum.value-removed", "/paths/~1apis~1frobs.example.com~1v1~1frobbers/get/parameters/0/schema/enum",
         "breaking", "stable"),
        ("schema.enum.value-removed",
         "/paths/~1apis~1frobs.example.com~1v1alpha1~1frobbers/get/parameters/0/schema/enum", "dangerous", "alpha"),
    ])


def test_inline_bodies_of_alpha_operations_are_alpha() -> None:
    body = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    smaller = {"type": "object", "properties": {"a": {"type": "string"}}}
    old, new = {"paths": {ALPHA: op(body, "body")}}, {"paths": {ALPHA: op(smaller, "body")}}
    assert verdicts(old, new) == [
        ("schema.property.removed",
         "/paths/~1apis~1frobs.example.com~1v1alpha1~1frobbers/post/requestBody/content/application~1json/schema"
         "/properties/b", "dangerous", "alpha"),
    ]


def _widget_spec(paths: list[str], widget: dict[str, Any]) -> dict[str, Any]:
    ref = {"$ref": "#/components/schemas/Widget"}
    return {"paths": {p: {"get": {**KUBERNETES, "responses": {"200": {"description": "ok", "content": {
        "application/json": {"schema": ref}}}}}} for p in paths},
        "components": {"schemas": {"Widget": widget}}}


WIDGET = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
SMALLER = {"type": "object", "properties": {"a": {"type": "string"}}}


def test_a_schema_reached_only_from_alpha_operations_is_alpha() -> None:
    assert verdicts(_widget_spec([ALPHA], WIDGET), _widget_spec([ALPHA], SMALLER)) == [
        ("schema.property.removed", "/components/schemas/Widget/properties/b", "dangerous", "alpha")]


def test_a_schema_reached_from_a_ga_operation_too_is_ga() -> None:
    assert verdicts(_widget_spec([ALPHA, GA], WIDGET), _widget_spec([ALPHA, GA], SMALLER)) == [
        ("schema.property.removed", "/components/schemas/Widget/properties/b", "breaking", "stable")]


def test_properties_of_definitions_named_or_kinded_alpha_are_alpha_and_beta_stays_breaking() -> None:
    beta_kind = {"x-kubernetes-group-version-kind": [{"group": "frobs.example.com", "version": "v1beta1",
                                                      "kind": "Frobber"}]}
    old = {"components": {"schemas": {"io.k8s.api.frobs.v1alpha1.Frobber": WIDGET, "Frobber": {**WIDGET, **beta_kind}}}}
    new = {"components": {"schemas": {"io.k8s.api.frobs.v1alpha1.Frobber": SMALLER,
                                      "Frobber": {**SMALLER, **beta_kind}}}}
    assert verdicts(old, new) == [
        ("schema.property.removed", "/components/schemas/Frobber/properties/b", "breaking", "beta"),
        ("schema.property.removed", "/components/schemas/io.k8s.api.frobs.v1alpha1.Frobber/properties/b", "dangerous",
         "alpha"),
    ]


def test_changes_inside_an_alpha_field_are_alpha() -> None:
    def frobber(shapes: list[str], inner: dict[str, Any]) -> dict[str, Any]:
        return {"components": {"schemas": {"Frobber": {"type": "object", "properties": {
            "shape": {"type": "string", "enum": shapes, "x-kubernetes-api-lifecycle": ALPHA_FIELD},
            "box": {"type": "object", "properties": inner, "x-kubernetes-api-lifecycle": ALPHA_FIELD},
            "tone": {"type": "string", "enum": shapes}}}}}}

    old = frobber(["Round", "Square"], {"a": {"type": "string"}, "b": {"type": "string"}})
    new = frobber(["Round"], {"a": {"type": "string"}})
    assert verdicts(old, new) == [
        ("schema.enum.value-removed", "/components/schemas/Frobber/properties/shape/enum", "dangerous", "alpha"),
        ("schema.enum.value-removed", "/components/schemas/Frobber/properties/tone/enum", "breaking", "stable"),
        ("schema.property.removed", "/components/schemas/Frobber/properties/box/properties/b", "dangerous", "alpha"),
    ]


def _through_field(marker: dict[str, Any] | str | None, widget: dict[str, Any], also_ga: bool = False
                   ) -> dict[str, Any]:
    """`marker`: the field's `x-kubernetes-api-lifecycle`, or a level word for its `x-stability-level`."""
    field: dict[str, Any] = {"allOf": [{"$ref": "#/components/schemas/Widget"}]}
    if isinstance(marker, str):
        field["x-stability-level"] = marker
    elif marker:
        field["x-kubernetes-api-lifecycle"] = marker
    properties = {"widget": field}
    if also_ga:
        properties["plain"] = {"$ref": "#/components/schemas/Widget"}
    frobber = {"type": "object", "properties": properties}
    return {"paths": {GA: {"get": {"responses": {"200": {"description": "ok", "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/Frobber"}}}}}}}},
        "components": {"schemas": {"Frobber": frobber, "Widget": widget}}}


def test_a_schema_reached_only_through_alpha_fields_is_alpha() -> None:
    assert verdicts(_through_field(ALPHA_FIELD, WIDGET), _through_field(ALPHA_FIELD, SMALLER)) == [
        ("schema.property.removed", "/components/schemas/Widget/properties/b", "dangerous", "alpha")]
    assert verdicts(_through_field(BETA_FIELD, WIDGET), _through_field(BETA_FIELD, SMALLER)) == [
        ("schema.property.removed", "/components/schemas/Widget/properties/b", "breaking", "beta")]
    assert verdicts(_through_field(ALPHA_FIELD, WIDGET, also_ga=True),
                    _through_field(ALPHA_FIELD, SMALLER, also_ga=True)) == [
        ("schema.property.removed", "/components/schemas/Widget/properties/b", "breaking", "stable")]


def test_a_schema_reached_only_through_fields_marked_x_stability_level_takes_their_level() -> None:
    """The marker other OpenAPI users write caps what a field holds as Kubernetes' lifecycle marker does; a
    field marked stable, or with a word that is no level, caps nothing."""
    assert verdicts(_through_field("alpha", WIDGET), _through_field("alpha", SMALLER)) == [
        ("schema.property.removed", "/components/schemas/Widget/properties/b", "dangerous", "alpha")]
    assert verdicts(_through_field("beta", WIDGET), _through_field("beta", SMALLER)) == [
        ("schema.property.removed", "/components/schemas/Widget/properties/b", "breaking", "beta")]
    for word in ("stable", "gamma"):
        assert verdicts(_through_field(word, WIDGET), _through_field(word, SMALLER)) == [
            ("schema.property.removed", "/components/schemas/Widget/properties/b", "breaking", "stable")]


def test_a_type_marked_alpha_is_alpha_and_its_regression_is_judged_at_its_old_level() -> None:
    alpha_widget = {**WIDGET, "x-kubernetes-api-lifecycle": ALPHA_FIELD}
    assert verdicts(_through_field(None, alpha_widget), _through_field(None, {**SMALLER, **{
        "x-kubernetes-api-lifecycle": ALPHA_FIELD}})) == [
        ("schema.property.removed", "/components/schemas/Widget/properties/b", "dangerous", "alpha")]
    beta_widget = {**WIDGET, "x-kubernetes-api-lifecycle": BETA_FIELD}
    assert verdicts(_through_field(None, beta_widget), _through_field(None, alpha_widget)) == [
        ("lifecycle.regressed", "/components/schemas/Widget/x-kubernetes-api-lifecycle", "breaking", "beta")]


def test_kubernetes_1_30_to_1_32_removes_the_v1alpha1_validating_admission_policy_as_alpha() -> None:
    """Acceptance: the v1alpha1 ValidatingAdmissionPolicy API goes, operations and definitions, allowed in alpha."""
    report = real_pair("kubernetes/v2/swagger-v1.30.json", "kubernetes/v2/swagger-v1.32.json")
    each = [member for found in report.findings for member in found.members or (found,)]  # as --no-group
    gone = [f for f in each if f.change.kind == "removed" and "v1alpha1" in f.change.pointer
            and "admissionregistration" in f.change.pointer and "alidatingadmissionpolic" in f.change.pointer.lower()]
    operations = sorted(f.change.pointer.removeprefix("/paths/~1apis~1admissionregistration.k8s.io~1v1alpha1~1")
                        for f in gone if f.rule == "operation.removed")
    assert operations == sorted(f"{path}/{method}" for path, methods in {
        "validatingadmissionpolicies": ("get", "post", "delete"),
        "validatingadmissionpolicies~1{name}": ("get", "put", "patch", "delete"),
        "validatingadmissionpolicies~1{name}~1status": ("get", "put", "patch"),
        "validatingadmissionpolicybindings": ("get", "post", "delete"),
        "validatingadmissionpolicybindings~1{name}": ("get", "put", "patch", "delete"),
        "watch~1validatingadmissionpolicies": ("get",), "watch~1validatingadmissionpolicies~1{name}": ("get",),
        "watch~1validatingadmissionpolicybindings": ("get",),
        "watch~1validatingadmissionpolicybindings~1{name}": ("get",),
    }.items() for method in methods)
    definitions = sorted(f.change.pointer for f in gone if f.change.node == "schema")
    assert definitions == [f"/definitions/io.k8s.api.admissionregistration.v1alpha1.{name}" for name in (
        "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "ValidatingAdmissionPolicyBindingList",
        "ValidatingAdmissionPolicyBindingSpec", "ValidatingAdmissionPolicyList", "ValidatingAdmissionPolicySpec",
        "ValidatingAdmissionPolicyStatus")]
    for finding in gone:
        assert (finding.level.value, finding.change.context.stability) == ("dangerous", "alpha"), finding
        assert finding.reason.startswith("allowed in alpha, not compatible: "), json.dumps(finding.reason)


def test_an_operation_marked_x_stability_level_beta_is_beta_and_may_not_break() -> None:
    def spec(values: list[str], level: str) -> dict[str, Any]:
        return {"paths": {"/frobs": {"get": {"x-stability-level": level, "responses": OK, "parameters": [
            {"name": "mode", "in": "query", "schema": {"type": "string", "enum": values}}]}}}}

    assert verdicts(spec(["a", "b"], "beta"), spec(["a"], "beta")) == [
        ("schema.enum.value-removed", "/paths/~1frobs/get/parameters/0/schema/enum", "breaking", "beta")]
    assert verdicts(spec(["a", "b"], "draft"), spec(["a"], "draft")) == [
        ("schema.enum.value-removed", "/paths/~1frobs/get/parameters/0/schema/enum", "dangerous", "alpha")]


def test_a_schema_field_marked_x_stability_level_alpha_is_alpha_all_the_way_down() -> None:
    def spec(inner: dict[str, Any]) -> dict[str, Any]:
        return {"components": {"schemas": {"Frob": {"type": "object", "properties": {
            "box": {"x-stability-level": "alpha", "type": "object", "properties": {
                "deep": {"type": "object", "properties": inner}}}}}}}}

    assert verdicts(spec({"a": {"type": "string"}, "b": {"type": "string"}}), spec({"a": {"type": "string"}})) == [
        ("schema.property.removed", "/components/schemas/Frob/properties/box/properties/deep/properties/b", "dangerous",
         "alpha")]


def _crd(versions: list[tuple[str, bool]], scope: str, sizes: list[str]) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"size": {"type": "string", "enum": sizes}}}
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "frobs.example.com"},
            "spec": {"group": "example.com", "names": {"kind": "Frob", "plural": "frobs"}, "scope": scope,
                     "versions": [{"name": name, "served": served, "storage": i == 0,
                                   "schema": {"openAPIV3Schema": schema}}
                                  for i, (name, served) in enumerate(versions)]}}


def test_a_crd_serving_only_v1alpha1_is_alpha_and_one_serving_v1_too_is_ga() -> None:
    only_alpha = [("v1alpha1", True), ("v1", False)]
    assert verdicts(_crd(only_alpha, "Namespaced", ["S", "M"]), _crd(only_alpha, "Cluster", ["S"])) == [
        ("crd.scope-changed", "/spec/scope", "dangerous", "alpha"),
        ("schema.enum.value-removed", "/spec/versions/0/schema/openAPIV3Schema/properties/size/enum", "dangerous",
         "alpha"),
    ]  # v1 is not served: its schema is nobody's contract
    both = [("v1alpha1", True), ("v1", True)]
    assert verdicts(_crd(both, "Namespaced", ["S"]), _crd(both, "Cluster", ["S"])) == [
        ("crd.scope-changed", "/spec/scope", "breaking", "stable")]


def test_the_graph_places_markers_and_read_only_fields_by_pointer() -> None:
    from specdiff.graph import graph_of as build
    from specdiff.load import load_text

    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {
        "Frob": {"type": "object", "properties": {
            "box": {"type": "object", "x-kubernetes-api-lifecycle": BETA_FIELD, "properties": {
                "tag": {"type": "string", "x-stability-level": "draft"},
                "id": {"type": "string", "readOnly": True}}},
            "plain": {"type": "string", "writeOnly": True}}}}}}
    doc = load_text(json.dumps(spec), "spec.json", None)
    graph = build(doc)
    box = "/components/schemas/Frob/properties/box"
    assert graph.located(doc, "/components/schemas/Frob") == ("stable", False, False)
    assert graph.located(doc, box + "/properties") == ("beta", False, False)
    assert graph.located(doc, box + "/properties/tag/maxLength") == ("alpha", False, False)
    assert graph.located(doc, box + "/properties/id") == ("beta", True, False)
    assert graph.located(doc, "/components/schemas/Frob/properties/plain") == ("stable", False, True)
    assert graph.located(doc, "/components/schemas/Frob/required/3") == ("stable", False, False)  # no such place


def test_a_read_only_field_becoming_required_is_only_read() -> None:
    def spec(required: list[str]) -> dict[str, Any]:
        body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Frob"}}}}
        put = {"requestBody": body, "responses": {"200": {"description": "ok", **body}}}
        return {"paths": {"/frobs": {"put": put}},
                "components": {"schemas": {"Frob": {"type": "object", "required": required, "properties": {
                    "id": {"type": "string", "readOnly": True}}}}}}

    report = run_case({"old": spec(["x"]), "new": spec(["x", "id"])})
    assert [(f.rule, f.change.pointer, f.change.direction) for f in report.findings] == [
        ("schema.property.became-required", "/components/schemas/Frob/required", "response")]


def test_one_order_of_stability_levels() -> None:
    from specdiff.graph.stability import declared, declared_rank, least_stable, marked, most_stable, of_version

    assert least_stable("stable", "alpha", "beta") == "alpha" and most_stable("alpha", "beta") == "beta"
    assert [of_version(v) for v in ("v1alpha1", "v2beta3", "v1", "latest", None)] == [
        "alpha", "beta", "stable", "stable", "stable"]
    assert sorted(["stable", "beta", "draft", "alpha"], key=declared_rank) == ["draft", "alpha", "beta", "stable"]
    assert declared_rank(None) == declared_rank("stable")
    assert marked({"x-stability-level": "beta", "x-kubernetes-api-lifecycle": ALPHA_FIELD}) == "alpha"
    assert marked({"x-kubernetes-api-lifecycle": {"kubernetes": {"status": "deprecated"}}}) == "stable"
    assert [marked({"x-stability-level": word}) for word in ("ga", "GA", "Stable", "gamma")] == ["stable"] * 4
    assert [declared({"x-stability-level": word}) for word in ("ga", "GA", "Stable", "gamma")] == [
        "stable", "stable", "stable", None]


def test_a_description_calls_a_field_alpha_in_any_case() -> None:
    assert said_alpha({"description": "Frobs.\n\nThis field is ALPHA and may change."})
    assert said_alpha({"description": "This is an alpha field."})


def test_near_miss_a_description_that_only_mentions_alpha_calls_nothing_alpha() -> None:
    assert not said_alpha({"description": "Promoted from v1alpha1; this field is stable."})
    assert not said_alpha({"description": "This field is beta."})
    assert not said_alpha({"description": 3})


def test_a_description_is_read_for_its_own_words_each_time_it_is_asked() -> None:
    # (the verdict is kept by the text: the same words read from another document give it, others their own)
    said, near = "Frobs.\n\nThis field is alpha.", "Frobs.\n\nThis field is beta; v1alpha1 had it."
    assert [said_alpha({"description": text}) for text in (said, near, "".join(said), "".join(near))] == \
        [True, False, True, False]
