"""The operations of one Kubernetes resource removed (or added) together are one finding per resource, as
Kubernetes' own notes say it ("ValidatingAdmissionPolicy ... are no longer served"), keeping each operation as a
member; discovery documents are told apart from resources in operation phrases."""

from __future__ import annotations

import json
from typing import Any

from conftest import corpus, real_pair

from specdiff.config import BaselineEntry, Config
from specdiff.group import group_fingerprint, operations_phrase
from specdiff.load import load, load_text
from specdiff.notation import where
from specdiff.pipeline import run
from specdiff.records import Context, Finding, Report

V2 = "kubernetes/v2/swagger-v1.{}.json"
V3 = "kubernetes/v3/v1.{}"
GV = "/apis/admissionregistration.k8s.io/v1beta1"
ALL_VERBS = "list, watch, deletecollection, read, create, replace, patch and delete"


compare = real_pair


def _operations(resource: str, status: bool) -> set[str]:
    """The operations the API server serves for a cluster-scoped resource (with its status subresource)."""
    collection, item = f"{GV}/{resource}", f"{GV}/{resource}/{{name}}"
    found = {f"GET {collection}", f"POST {collection}", f"DELETE {collection}", f"GET {item}", f"PUT {item}",
             f"PATCH {item}", f"DELETE {item}", f"GET {GV}/watch/{resource}", f"GET {GV}/watch/{resource}/{{name}}"}
    if status:
        found |= {f"{method} {item}/status" for method in ("GET", "PUT", "PATCH")}
    return found


def _own(finding: Finding) -> list[Finding]:
    """A group's members of its own rule: a resource's operations, without the types that went with them."""
    return [m for m in finding.members if m.rule == finding.rule]


def _breaking_operation_groups(report: Report) -> list[tuple[str, str, set[str]]]:
    return [(f.rule, f.message, {m.change.context.operation or "" for m in _own(f)}) for f in report.findings
            if f.rule.startswith("operation.") and f.level.value == "breaking"]


VALIDATING_POLICIES_GONE = [
    ("operation.removed", "ValidatingAdmissionPolicy (validatingadmissionpolicies) is no longer served by "
     f"admissionregistration.k8s.io/v1beta1: 12 operations: {ALL_VERBS}, with status",
     _operations("validatingadmissionpolicies", status=True)),
    ("operation.removed", "ValidatingAdmissionPolicyBinding (validatingadmissionpolicybindings) is no longer "
     f"served by admissionregistration.k8s.io/v1beta1: 9 operations: {ALL_VERBS}",
     _operations("validatingadmissionpolicybindings", status=False)),
]


def test_v2_1_32_to_1_35_each_resource_no_longer_served_is_one_finding() -> None:
    report = compare(V2.format(32), V2.format(35))
    assert _breaking_operation_groups(report) == VALIDATING_POLICIES_GONE
    ungrouped = compare(V2.format(32), V2.format(35), grouped=False)
    removed = {f.change.context.operation for f in ungrouped.findings
               if f.rule == "operation.removed" and f.level.value == "breaking"}
    assert removed == set().union(*(ops for _, _, ops in VALIDATING_POLICIES_GONE))  # --no-group: 21 findings


def test_v3_1_30_to_1_35_folds_the_same_resources_over_per_group_documents() -> None:
    assert _breaking_operation_groups(compare(V3.format(30), V3.format(35))) == VALIDATING_POLICIES_GONE


def test_v2_1_11_to_1_28_webhook_configurations_of_v1beta1_and_lone_operations() -> None:
    assert _breaking_operation_groups(compare(V2.format(11), V2.format(28))) == [
        ("operation.removed", f"{kind} ({plural}) is no longer served by admissionregistration.k8s.io/v1beta1: "
         f"9 operations: {ALL_VERBS}", _operations(plural, status=False))
        for kind, plural in (("MutatingWebhookConfiguration", "mutatingwebhookconfigurations"),
                             ("ValidatingWebhookConfiguration", "validatingwebhookconfigurations"))
    ] + [("operation.removed", "operation POST /apis/authentication.k8s.io/v1beta1/tokenreviews removed",
          {"POST /apis/authentication.k8s.io/v1beta1/tokenreviews"})]  # with the TokenReview types it took


def test_v2_1_11_to_1_28_an_api_group_gone_takes_its_discovery_document_with_it() -> None:
    """`GET /apis/extensions/` goes with extensions/v1beta1, the group's last version; `GET /apis/node.k8s.io/`
    comes with node.k8s.io/v1; a group that keeps a version (apps) keeps its discovery document unreported."""
    report = compare(V2.format(11), V2.format(28))
    held = {(f.rule, f.change.context.group_version): f.change.fact("operations") for f in report.findings
            if f.rule.startswith("group-version.")}
    assert "GET /apis/extensions/" in held[("group-version.removed", "extensions/v1beta1")]
    assert "GET /apis/settings.k8s.io/" in held[("group-version.removed", "settings.k8s.io/v1alpha1")]
    assert "GET /apis/node.k8s.io/" in held[("group-version.added", "node.k8s.io/v1")]
    assert not any("GET /apis/apps/" in operations for operations in held.values())
    assert [f.change.context.operation for f in report.findings if f.rule.startswith("operation.")
            and f.change.context.operation and f.change.context.operation.count("/") <= 3] == [
        "GET /.well-known/openid-configuration/"]


def test_v2_1_32_to_1_35_new_resources_are_one_safe_finding_each() -> None:
    added = [(f.message.partition(" is now served by ")[0], len(_own(f)))
             for f in compare(V2.format(32), V2.format(35)).findings if f.rule == "operation.added"]
    assert added == [("MutatingAdmissionPolicy (mutatingadmissionpolicies)", 9),
                     ("MutatingAdmissionPolicyBinding (mutatingadmissionpolicybindings)", 9),
                     ("IPAddress (ipaddresses)", 9), ("ServiceCIDR (servicecidrs)", 12),
                     ("DeviceTaintRule (devicetaintrules)", 12),
                     ("VolumeAttributesClass (volumeattributesclasses)", 9)]


def test_v2_1_30_to_1_32_cbor_responses_name_resources_and_discovery_documents_apart() -> None:
    cbor = [f for f in compare(V2.format(30), V2.format(32)).findings
            if f.rule == "response.media-type-added" and "application/cbor " in f.message]
    assert [f.message for f in cbor] == [
        "response 200, response 201 and response 202 can now also be application/cbor in 717 operations: "
        f"{ALL_VERBS} of 64 resources in 27 group-versions of 22 API groups and 28 discovery documents"]


# -- a small pair ----------------------------------------------------------------------------------------
def _spec(resources: dict[str, str]) -> str:
    paths: dict[str, Any] = {}
    for plural, kind in resources.items():
        gvk = {"group": "frobs.example.com", "version": "v1beta1", "kind": kind}
        base = f"/apis/frobs.example.com/v1beta1/{plural}"
        answer = {"200": {"description": "ok"}}
        paths[base] = {m: {"x-kubernetes-group-version-kind": gvk, "responses": answer} for m in ("get", "post")}
        paths[base + "/{name}"] = {m: {"x-kubernetes-group-version-kind": gvk, "responses": answer}
                                   for m in ("get", "put", "delete")}
        paths[base + "/{name}/status"] = {"get": {"x-kubernetes-group-version-kind": gvk, "responses": answer}}
    paths["/apis/frobs.example.com/v1beta1/"] = {"get": {"responses": {"200": {"description": "ok"}}}}
    return json.dumps({"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": paths})


def _pair(grouped: bool = True, config: Config | None = None) -> Report:
    old = load_text(_spec({"frobbers": "Frobber", "widgets": "Widget"}), "old.json", None)
    new = load_text(_spec({"frobbers": "Frobber"}), "new.json", None)
    return run(old, new, policy="kubernetes", grouped=grouped, config=config)


def _removed(report: Report) -> list[Finding]:
    return [f for f in report.findings if f.rule == "operation.removed"]


def test_a_resource_gone_from_a_version_that_stays_is_one_finding_with_its_operations() -> None:
    (widgets,) = _removed(_pair())
    assert widgets.message == ("Widget (widgets) is no longer served by frobs.example.com/v1beta1: 6 operations: "
                               "list, read, create, replace and delete, with status")
    base = "/apis/frobs.example.com/v1beta1/widgets"
    assert {m.change.context.operation for m in widgets.members} == {
        f"GET {base}", f"POST {base}", f"GET {base}/{{name}}", f"PUT {base}/{{name}}", f"DELETE {base}/{{name}}",
        f"GET {base}/{{name}}/status"}
    assert widgets.fingerprint == group_fingerprint(widgets.members[0])
    assert widgets.fingerprint not in {m.fingerprint for m in widgets.members}
    assert sorted(f.change.context.operation or "" for f in _removed(_pair(grouped=False))) == sorted(
        m.change.context.operation or "" for m in widgets.members)


def test_a_baseline_matches_the_resource_group_or_one_member() -> None:
    (widgets,) = _removed(_pair())
    whole = Config(baseline=(BaselineEntry(widgets.fingerprint, "", "b:1"),))
    assert _removed(_pair(config=whole)) == []
    one = Config(baseline=(BaselineEntry(widgets.members[0].fingerprint, "", "b:2"),))
    (rest,) = _removed(_pair(config=one))
    assert [m.fingerprint for m in rest.members] == [m.fingerprint for m in widgets.members[1:]]
    assert rest.fingerprint == widgets.fingerprint


def test_a_plain_api_folds_by_its_own_resource_not_as_kubernetes_does() -> None:
    """Without `x-kubernetes-group-version-kind` on its operations (an ordinary API with /apis/... paths), the
    operations removed from one of its resources (its tag, else its path to the first segment that is no
    version) are one finding that lists them, not a Kubernetes resource losing verbs."""
    plain = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {
        "/apis/shop/v1/carts": {"get": {"responses": {"200": {"description": "ok"}}},
                                "post": {"responses": {"200": {"description": "ok"}}}}}}
    old = load_text(json.dumps(plain), "old.json", None)
    new = load_text(json.dumps({**plain, "paths": {}}), "new.json", None)
    removed = _removed(run(old, new, policy="openapi"))
    assert [(f.message, [m.message for m in f.members]) for f in removed] == [
        ("/apis loses 2 operations: GET /apis/shop/v1/carts and POST /apis/shop/v1/carts",
         ["operation GET /apis/shop/v1/carts removed", "operation POST /apis/shop/v1/carts removed"])]


def _op(label: str, **context: str) -> Context:
    method, _, route = label.partition(" ")
    return Context(method=method, route=route, **context)


def test_discovery_documents_are_counted_apart_from_resources() -> None:
    deployments = _op("GET /apis/apps/v1/deployments", group_version="apps/v1", resource="deployments")
    apps, core = _op("GET /apis/apps/v1/", group_version="apps/v1"), _op("GET /api/v1/")
    assert operations_phrase([deployments, apps, core]) == "3 operations: list of deployments and 2 discovery documents"
    assert operations_phrase([apps, _op("GET /apis/")]) == "2 discovery documents"
    assert operations_phrase([apps, _op("GET /apis/apps/v1/frobs/{name}/proxy")]) == (
        "2 operations: GET /apis/apps/v1/ and GET /apis/apps/v1/frobs/{name}/proxy")


def test_v2_1_11_to_1_28_the_service_account_issuer_discovery_urls_are_one_finding() -> None:
    """The API server's paths outside every API group (RBAC's nonResourceURLs) added in one release are one
    change; --no-group gives one finding per operation."""
    urls = ["GET /.well-known/openid-configuration/", "GET /openid/v1/jwks/"]
    said = [(f.rule, f.level.value, f.message, [m.change.context.operation for m in f.members], f.reason)
            for f in compare(V2.format(11), V2.format(28)).findings
            if f.rule.startswith("operation.") and not f.change.context.group_version]
    assert said == [("operation.added", "safe", f"non-resource URLs gain 2 operations: {urls[0]} and {urls[1]}", urls,
                     "Adding operations changes nothing that existing clients call.")]
    assert [f.change.context.operation for f in compare(V2.format(11), V2.format(28), grouped=False).findings
            if f.rule == "operation.added" and not f.change.context.group_version] == urls


def test_near_miss_paths_of_a_plain_api_outside_apis_never_fold() -> None:
    plain = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {
        path: {"get": {"responses": {"200": {"description": "ok"}}}} for path in ("/version", "/health")}}
    old = load_text(json.dumps({**plain, "paths": {}}), "old.json", None)
    new = load_text(json.dumps(plain), "new.json", None)
    assert [(f.message, f.members) for f in run(old, new, policy="kubernetes").findings] == [
        ("operation GET /health added", ()), ("operation GET /version added", ())]


def test_a_path_that_only_begins_like_apis_is_a_non_resource_url() -> None:
    """`/apisix/...` is outside every API group (only `/apis/...` is inside), so on a Kubernetes API server it
    folds with the other non-resource URLs added with it."""
    gvk = {"x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "Status"}]}
    spec = {"swagger": "2.0", "info": {"title": "Kubernetes", "version": "v1.30.0"},
            "definitions": {"io.k8s.apimachinery.pkg.apis.meta.v1.Status": {"type": "object", **gvk}}}
    added = {path: {"get": {"responses": {"200": {"description": "ok"}}}} for path in ("/apisix/routes", "/healthz")}
    old = load_text(json.dumps({**spec, "paths": {}}), "old.json", None)
    new = load_text(json.dumps({**spec, "paths": added}), "new.json", None)
    assert [(f.rule, [m.change.context.operation for m in f.members]) for f in run(old, new).findings] == [
        ("operation.added", ["GET /apisix/routes", "GET /healthz"])]


def test_cert_manager_publishing_list_types_is_one_finding_over_its_fields() -> None:
    """cert-manager 1.12 -> 1.21 writes `x-kubernetes-list-type: atomic` on 13 lists that were already atomic: one
    spec-wide restatement, listed by place; --no-group gives one finding per list."""
    old, new = (load(str(corpus(f"crds/cert-manager/certificates.{tag}.yaml"))) for tag in ("v1.12.0", "v1.21.1"))
    restated = [f for f in run(old, new).findings if f.rule == "kubernetes.list-type-restated"]
    fields = ["additionalOutputFormats", "dnsNames", "emailAddresses", "ipAddresses", "subject.countries",
              "subject.localities", "subject.organizationalUnits", "subject.organizations", "subject.postalCodes",
              "subject.provinces", "subject.streetAddresses", "uris", "usages"]
    assert [(f.level.value, [where(m.change.context) for m in f.members]) for f in restated] == [
        ("safe", [f"cert-manager.io/v1 Certificate.spec.{field}" for field in fields])]
    single = [f.change.pointer for f in run(old, new, grouped=False).findings
              if f.rule == "kubernetes.list-type-restated"]
    assert single == [m.change.pointer for m in restated[0].members]
