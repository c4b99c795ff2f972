"""How reports write a place (specdiff/notation.py): each ecosystem's own notation, full names kept on the context."""

from __future__ import annotations

from dataclasses import replace

import pytest

from specdiff.notation import folded, kinds, long_where, name, part, scope, type_name, where
from specdiff.records import Context, Part


def _operation(label: str) -> Context:
    method, _, route = label.partition(" ")
    return Context(method=method, route=route)


def _query(name: str) -> Context:
    return _operation("GET /pets").within(Part("parameter", name=name, location="query"))


BODY = _operation("POST /pets").within(Part("request body"))
RESPONSE = _operation("GET /pets").within(Part("response", "200"))

POD_SPEC = Context(schema="io.k8s.api.core.v1.PodSpec", field=(".workloadRef",), group_version="core/v1")
ROUTE = Context(schema="httproutes.gateway.networking.k8s.io/v1", gvk="gateway.networking.k8s.io/v1/HTTPRoute",
                group_version="gateway.networking.k8s.io/v1", document="httproutes.gateway.networking.k8s.io",
                field=(".spec", ".rules", "[]", ".filters", "[]", ".type"))


@pytest.mark.parametrize(("ctx", "named", "located"), [
    (POD_SPEC, "PodSpec.workloadRef", "core/v1 PodSpec.workloadRef"),
    (ROUTE, "HTTPRoute.spec.rules[].filters[].type",
     "gateway.networking.k8s.io/v1 HTTPRoute.spec.rules[].filters[].type"),
    (Context(schema="io.k8s.apimachinery.pkg.util.intstr.IntOrString"), "intstr.IntOrString", "intstr.IntOrString"),
    (BODY.at(".name"), "POST /pets request body: name",
     "POST /pets request body: name"),
    (RESPONSE.at(".items").at("[]").at(".id"),
     "GET /pets response 200: items[].id",
     "GET /pets response 200: items[].id"),
    (RESPONSE.at("[]").at(".id"), "GET /pets response 200: [].id",
     "GET /pets response 200: [].id"),
    (_operation("GET /pets").within(Part("parameter", name="filter[name]", location="query")),
     "GET /pets query parameter filter[name]",
     "GET /pets query parameter filter[name]"),
    (replace(_operation("GET /api/v1/pods"), group_version="core/v1").within(Part("response", "200")),
     "GET /api/v1/pods response 200", "GET /api/v1/pods response 200"),  # the path carries the version
    (Context(schema="Pet", field=(".name",)), "Pet.name", "Pet.name"),
    (Context(schema="com.example.Pet", field=(".name",)), "com.example.Pet.name", "com.example.Pet.name"),
    (Context(document="frobs.example.com"), "frobs.example.com", "frobs.example.com"),
    (Context(group_version="apps/v1", document="apps/v1"), "apps/v1", "apps/v1"),
])
def test_each_place_in_its_notation(ctx: Context, named: str, located: str) -> None:
    assert (name(ctx), where(ctx), where(ctx)) == (named, located, located)


def test_full_names_stay_on_the_context() -> None:
    assert (POD_SPEC.schema, long_where(POD_SPEC)) == ("io.k8s.api.core.v1.PodSpec",
                                                        "io.k8s.api.core.v1.PodSpec .workloadRef")
    assert (type_name(ROUTE), scope(ROUTE)) == ("HTTPRoute", "gateway.networking.k8s.io/v1")


def test_a_place_inside_one_of_several_operations() -> None:
    assert part(BODY.at(".owner").at(".name")) == "owner.name of the request body"
    assert part(RESPONSE.at(".items[].id")) == "items[].id of response 200"
    assert part(_query("limit")) == "query parameter limit"


def test_group_versions_of_one_group_are_written_once() -> None:
    assert folded(["resource.k8s.io/v1", "resource.k8s.io/v1beta2"]) == "resource.k8s.io/{v1, v1beta2}"
    assert folded(["apps/v1", "batch/v1"]) == ""
    assert folded(["core/v1"]) == "core/v1" and folded([]) == ""
    assert folded(["example.com/v1", "example.com/latest"]) == ""  # only API versions fold (graph/stability.py)


def test_real_releases_name_each_place_once_and_cut_nothing() -> None:
    """Kubernetes 1.35 -> 1.36 and a Stripe pair: no message repeats a full definition name or its own place, the
    JSON location keeps the full name beside the label, and no format a person reads whole cuts text short."""
    import json

    from conftest import corpus

    from specdiff import compare
    from specdiff.report import render

    for old, new in (("kubernetes/v2/swagger-v1.35.json", "kubernetes/v2/swagger-v1.36.json"),
                     ("openapi/stripe/spec3-2022-03-31.json", "openapi/stripe/spec3-2022-04-01.json")):
        report = compare(corpus(old), corpus(new))
        for finding in report.findings:
            ctx = finding.change.context
            assert "io.k8s." not in finding.message, finding.message
            if not finding.members and ctx.schema:
                assert finding.message.count(name(ctx)) == 1, finding.message
        for fmt in ("json", "markdown", "release-notes", "html"):
            assert "\u2026" not in render(report, fmt), fmt
        if old.startswith("kubernetes"):  # places that differ only by version: the version list says it all
            assert ("| `schema.property.became-required` | autoscaling/{v1, v2} (2 places) | "
                    "HorizontalPodAutoscaler.spec became required |") in render(report, "markdown")
            [removed] = [f for f in json.loads(render(report, "json"))["findings"]
                         if f["rule"] == "schema.property.removed"]
            assert (removed["message"], removed["location"]) == (
                "property PodSpec.workloadRef (used by 9 kinds: CronJob, DaemonSet, Deployment, ...) removed", {
                "label": "core/v1 PodSpec.workloadRef (used by 9 kinds: CronJob, DaemonSet, Deployment, ...)",
                "schema": "io.k8s.api.core.v1.PodSpec", "path": ".workloadRef",
                "group_version": "core/v1"})


def test_a_sentence_starts_with_a_capital_unless_it_starts_with_a_name() -> None:
    from specdiff.records import Change, Finding, Level
    from specdiff.report.sections import sentence

    def said(message: str, ctx: Context) -> str:
        change = Change("added", "schema", "", None, None, "both", ctx)
        return sentence(Finding("r", Level.SAFE, message, "why", change))

    assert said("group-version apps/v2 added", Context(group_version="apps/v2")) == "Group-version apps/v2 added"
    assert said("issue-event may now also be locked", Context(schema="issue-event")) == (
        "issue-event may now also be locked")
    assert said("property PodSpec.workloadRef removed", POD_SPEC) == "core/v1: Property PodSpec.workloadRef removed"
    assert sentence(Finding("r", Level.SAFE, "scope Namespaced -> Cluster", "why", Change(
        "modified", "crd", "scope", None, None, "both", Context(document="frobs.example.com")))) == (
        "frobs.example.com: scope Namespaced -> Cluster")


def test_a_crd_change_in_several_versions_names_each_version_once() -> None:
    from conftest import corpus

    from specdiff import compare
    from specdiff.report.sections import sentence

    report = compare(corpus("crds/cert-manager/certificates.v1.5.0.yaml"),
                     corpus("crds/cert-manager/certificates.v1.6.0.yaml"))
    # one release stops serving three versions: one change, at the beta version's level; the alpha ones keep theirs
    assert [(f.rule, f.level.value, sentence(f)) for f in report.findings] == [
        ("crd.version.unserved", "breaking", "cert-manager.io/{v1beta1, v1alpha2, v1alpha3}: Certificate is no longer "
         "served")]
    assert [(m.change.context.group_version, m.level.value) for m in report.findings[0].members] == [
        ("cert-manager.io/v1beta1", "breaking"), ("cert-manager.io/v1alpha2", "dangerous"),
        ("cert-manager.io/v1alpha3", "dangerous")]


@pytest.mark.parametrize(("old", "new", "said"), [
    ("gateway-api/httproutes.v1alpha2.v0.4.0.yaml", "gateway-api/httproutes.standard.v0.6.0.yaml", [
        ("crd.version.deprecated", "gateway.networking.k8s.io/v1alpha2: HTTPRoute: deprecated false -> true"),
        ("crd.version.added", "gateway.networking.k8s.io/v1beta1: HTTPRoute version added (served: true, storage: "
                              "true)")]),
    ("gateway-api/httproutes.standard.v0.8.0.yaml", "gateway-api/httproutes.standard.v1.1.0.yaml", [
        ("crd.version.added", "gateway.networking.k8s.io/v1: HTTPRoute version added (served: true, storage: true)"),
        ("crd.version.removed", "gateway.networking.k8s.io/v1alpha2: HTTPRoute version removed")]),
])
def test_a_crd_version_is_named_once_by_its_place(old: str, new: str, said: list[tuple[str, str]]) -> None:
    """The place of a CRD version is its group-version and kind; the message does not name the version again."""
    from conftest import corpus

    from specdiff import compare
    from specdiff.report.sections import sentence

    report = compare(corpus(f"crds/{old}"), corpus(f"crds/{new}"))
    assert [(f.rule, sentence(f)) for f in report.findings if f.change.node.startswith("crd-")
            and f.rule.startswith("crd.version")] == said


def test_swapped_kubernetes_types_are_named_by_kind_unless_only_the_version_differs() -> None:
    assert kinds("io.k8s.api.core.v1.TypedLocalObjectReference", "io.k8s.api.core.v1.TypedObjectReference") == (
        "TypedLocalObjectReference", "TypedObjectReference")
    assert kinds("io.k8s.api.policy.v1beta1.Eviction", "io.k8s.api.policy.v1.Eviction") == (
        "io.k8s.api.policy.v1beta1.Eviction", "io.k8s.api.policy.v1.Eviction")
    assert kinds("simple-user", "nullable-simple-user") == ("simple-user", "nullable-simple-user")


@pytest.mark.parametrize(("old", "new", "config", "said"), [
    ({"components": {"schemas": {"Subject": {"type": "object", "x-kubernetes-unions": [
        {"fields-to-discriminateBy": {"user": "User"}}]}}}},
     {"components": {"schemas": {"Subject": {"type": "object", "x-kubernetes-unions": [
         {"fields-to-discriminateBy": {"user": "User", "group": "Group"}}]}}}}, None,
     ("kubernetes.union.changed", "Union of Subject (discriminator: not written) changed: not written -> group")),
    ({"components": {"schemas": {"Frobber": {"type": "object", "properties": {"height": {"type": "integer"}}}}}},
     {"components": {"schemas": {"Frobber": {"type": "object", "properties": {"height": {"type": "integer"}, "width": {
         "type": "integer", "x-kubernetes-api-lifecycle": {"kubernetes": {"status": "alpha",
                                                                          "featureGate": "Frobber2D"}}}}}}}}, None,
     ("lifecycle.gated-field-added", "Alpha field Frobber.width added behind feature gate Frobber2D (minVersion not "
                                     "written)")),
    ({"paths": {"/frobs": {"get": {"parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}],
                                   "responses": {"200": {"description": "ok"}}}}}},
     {"paths": {"/frobs": {"get": {"parameters": [{"name": "q", "in": "query", "deprecated": True,
                                                   "schema": {"type": "string"}}],
                                   "responses": {"200": {"description": "ok"}}}}}},
     {"deprecation-days": {"stable": 180}},
     ("deprecation.notice-too-short", "GET /frobs query parameter q: deprecated with less notice than configured "
                                      "for stable elements (sunset: not written)")),
    ({"components": {"schemas": {"Frobber": {"type": "object", "properties": {"labels": {"type": "object"}}}}}},
     {"components": {"schemas": {"Frobber": {"type": "object", "properties": {"labels": {"type": "object",
                                                                                          "maxProperties": 0}}}}}},
     None, ("schema.constraint-tightened", "maxProperties of Frobber.labels tightened (no limit -> 0)")),
    ({"components": {"schemas": {"Frobber": {"type": "object", "x-box-tag": None}}}},
     {"components": {"schemas": {"Frobber": {"type": "object"}}}},
     None, ("extension.removed", "x-box-tag removed from Frobber (was null)")),
])
def test_a_message_names_its_place_once_and_says_what_was_not_written(
        old: dict[str, object], new: dict[str, object], config: dict[str, object] | None,
        said: tuple[str, str]) -> None:
    from rulecases import run_case

    from specdiff.report.sections import sentence

    report = run_case({"old": old, "new": new, "config": config, "policy": "kubernetes"})
    assert [(f.rule, sentence(f)) for f in report.findings if f.rule == said[0]] == [said]


@pytest.mark.parametrize(("text", "ctx", "said"), [
    ("Query parameter limit of GET /pets became required", _query("limit"),
     "Query parameter limit became required"),
    ("GET /pets no longer answers 202", _operation("GET /pets"), "No longer answers 202"),
    ("Operation GET /pets removed", _operation("GET /pets"), "Operation removed"),
    ("Pattern of GET /pets query parameter q loosened (a -> b)",
     _query("q"), "Pattern of query parameter q loosened (a -> b)"),
    ("Property POST /pets request body: name removed", BODY.at(".name"),
     "Property request body: name removed"),
    ("GET /pets: sunset date 2031-06-30 -> 2031-03-31", _operation("GET /pets"),
     "Sunset date 2031-06-30 -> 2031-03-31"),
    ("application/json request bodies are now accepted as part of */* by DELETE /pets",
     _operation("DELETE /pets"), "application/json request bodies are now accepted as part of */*"),
    # near misses: a Kubernetes resource's outline is its resource, so the message keeps the operation
    ("Operation GET /api/v1/pods removed", Context(method="GET", route="/api/v1/pods", group_version="core/v1",
                                                   resource="pods"), "Operation GET /api/v1/pods removed"),
    ("Property Pet.name removed", Context(schema="Pet", field=(".name",)), "Property Pet.name removed"),
])
def test_a_change_beside_its_operation_does_not_name_it_again(text: str, ctx: Context, said: str) -> None:
    from specdiff.notation import beside

    assert beside(text, ctx) == said


def test_messages_name_levels_in_the_configuration_s_words() -> None:
    """`deprecation-days: {stable: 180}` configures what messages call `stable`, never `ga`; a field's
    lifecycle promoted to GA reads "promoted from beta to stable"."""
    from rulecases import run_case

    def lifecycle(status: str | None) -> dict[str, object]:
        field: dict[str, object] = {"type": "integer"}
        if status:
            field["x-kubernetes-api-lifecycle"] = {"kubernetes": {"status": status, "featureGate": "Depth",
                                                                  "minVersion": "v1.30"}}
        return {"components": {"schemas": {"Frobber": {"type": "object", "properties": {"depth": field}}}}}

    promoted = run_case({"old": lifecycle("beta"), "new": lifecycle(None), "policy": "kubernetes"})
    regressed = run_case({"old": lifecycle(None), "new": lifecycle("alpha"), "policy": "kubernetes"})
    assert [(f.rule, f.message) for f in promoted.findings if f.rule.startswith("lifecycle.")] == [
        ("lifecycle.promoted", "Frobber.depth promoted from beta to stable")]
    assert [(f.rule, f.message) for f in regressed.findings if f.rule.startswith("lifecycle.")] == [
        ("lifecycle.regressed", "Frobber.depth regressed from stable to alpha")]
