"""Corrected verdicts on real Kubernetes releases: documentation corrections and wider media ranges are safe,
each with its reason, and each is one grouped finding."""

from __future__ import annotations

from conftest import real_pair

from specdiff.notation import where
from specdiff.records import Finding, Report, field_path

V3 = "kubernetes/v3/v1.{}"


compare = real_pair


def _by_rule(report: Report, rule: str) -> list[Finding]:
    return [f for f in report.findings if f.rule == rule]


def test_1_23_to_1_24_request_bodies_that_accept_any_type_are_not_removals() -> None:
    report = compare(V3.format(23), V3.format(24))
    assert _by_rule(report, "request.media-type-removed") == []
    [kept] = _by_rule(report, "request.media-type-range-kept")
    assert (kept.level.value, len(kept.members), kept.message) == (
        "safe", 281, "application/json request bodies are now accepted as part of */* by 281 operations: "
        "deletecollection, create, replace and delete of 57 resources in 30 group-versions of 20 API groups")
    assert kept.reason.startswith("The new list is a range that takes in the old media type")
    [patch] = _by_rule(report, "kubernetes.patch-media-types-listed")
    assert (patch.level.value, len(patch.members), patch.change.old) == ("safe", 95, "application/json")
    assert patch.reason.startswith("Documentation correction: the Kubernetes API server never took")
    assert {m.change.context.operation.split()[0] for m in patch.members if m.change.context.operation} == {"PATCH"}


def test_1_27_to_1_30_request_bodies_stated_required_on_writes_are_a_documentation_correction() -> None:
    report = compare(V3.format(27), V3.format(30))
    [body] = _by_rule(report, "request-body.became-required")
    assert (body.level.value, len(body.members)) == ("safe", 254)
    assert body.message == ("request body of 254 operations: create, replace and patch of 66 resources in 28 "
                            "group-versions of 22 API groups became required")
    assert body.reason.startswith("Documentation correction: the Kubernetes API server has always required a body")
    [status] = [f for f in report.findings if f.rule == "operation.removed" and f.level.value == "breaking"]
    assert status.message == ("NetworkPolicy (networkpolicies) in networking.k8s.io/v1 loses 3 operations: read, "
                              "replace and patch of status")
    assert sorted(m.change.context.operation or "" for m in status.members) == [
        f"{method} /apis/networking.k8s.io/v1/namespaces/{{namespace}}/networkpolicies/{{name}}/status"
        for method in ("GET", "PATCH", "PUT")]
    assert sorted((f.rule, where(f.change.context)) for f in report.findings if f.level.value == "breaking") == [
        ("group-version.removed", "flowcontrol.apiserver.k8s.io/v1beta2"),
        ("operation.removed", "GET /apis/networking.k8s.io/v1/namespaces/{namespace}/networkpolicies/{name}/status"),
        ("schema.property.removed", "networking.k8s.io/v1 NetworkPolicy.status"),
    ]
    # fields their descriptions call alpha ("This is an alpha field and requires enabling ...") may go
    alpha = sorted((where(f.change.context), f.level.value) for f in report.findings
                   if f.rule == "schema.property.removed" and f.level.value != "breaking"
                   and where(f.change.context).startswith("core/v1"))
    assert alpha == [
        ("core/v1 PersistentVolumeClaim.status.resizeStatus", "dangerous"),
        ("core/v1 PersistentVolumeClaimSpec.resources.claims (used by 10 kinds: CronJob, DaemonSet, Deployment, ...)",
         "dangerous"),
    ]
    # list-map keys becoming required write down what merging the lists always needed
    keys = sorted((where(f.change.context), f.level.value) for f in report.findings
                  if f.rule == "schema.property.became-required" and "merged" in f.reason)
    assert keys == [("core/v1 HostAlias.ip (used by 9 kinds: CronJob, DaemonSet, Deployment, ...)", "safe"),
                    ("core/v1 Pod.status.podIPs[].ip", "safe")]


def test_1_11_to_1_28_type_object_written_on_typed_definitions_is_one_correction() -> None:
    report = compare("kubernetes/v2/swagger-v1.11.json", "kubernetes/v2/swagger-v1.28.json")
    [stated] = _by_rule(report, "schema.type-stated")
    # 283 places: Lifecycle.postStart and .preStop both lead to the one pair (Handler, LifecycleHandler),
    # compared once
    assert (stated.level.value, len(stated.members)) == ("safe", 283)
    assert stated.message == ("type object now stated on 283 places: apps/v1 ControllerRevision.data, version.Info, "
                              "apiregistration.k8s.io/v1 APIService and 280 more")
    assert stated.reason.startswith("Documentation correction: a schema with properties and no other type only")
    assert [(where(f.change.context), f.change.old, f.change.new) for f in _by_rule(report, "schema.type-changed")
            ] == [("meta/v1 Patch", None, "object")]  # any JSON value (a JSON patch is
    #                                                                          an array) narrowed to objects


def test_1_11_to_1_28_a_delete_answering_the_object_instead_of_status_is_one_finding() -> None:
    report = compare("kubernetes/v2/swagger-v1.11.json", "kubernetes/v2/swagger-v1.28.json")
    [returned] = _by_rule(report, "kubernetes.delete-returns-object")
    assert (returned.level.value, returned.message) == (
        "dangerous", "8 operations: delete of 8 resources in 2 API groups now return the deleted object "
        "instead of Status (response 200)")
    assert returned.reason.startswith("The spec catches up with the API server")
    assert [(m.change.context.operation, m.change.new) for m in returned.members] == [
        ("DELETE /api/v1/namespaces/{namespace}/persistentvolumeclaims/{name}",
         "io.k8s.api.core.v1.PersistentVolumeClaim"),
        ("DELETE /api/v1/namespaces/{namespace}/pods/{name}", "io.k8s.api.core.v1.Pod"),
        ("DELETE /api/v1/namespaces/{namespace}/podtemplates/{name}", "io.k8s.api.core.v1.PodTemplate"),
        ("DELETE /api/v1/namespaces/{namespace}/resourcequotas/{name}", "io.k8s.api.core.v1.ResourceQuota"),
        ("DELETE /api/v1/namespaces/{namespace}/serviceaccounts/{name}", "io.k8s.api.core.v1.ServiceAccount"),
        ("DELETE /api/v1/namespaces/{namespace}/services/{name}", "io.k8s.api.core.v1.Service"),
        ("DELETE /api/v1/persistentvolumes/{name}", "io.k8s.api.core.v1.PersistentVolume"),
        ("DELETE /apis/storage.k8s.io/v1/storageclasses/{name}", "io.k8s.api.storage.v1.StorageClass"),
    ]
    assert {m.change.old for m in returned.members} == {"io.k8s.apimachinery.pkg.apis.meta.v1.Status"}
    # the eviction subresource's bodies moving from policy/v1beta1 to policy/v1 is another change, one for the
    # request and the three responses
    [eviction] = _by_rule(report, "schema.body-type-replaced")
    assert eviction.message == (
        "request body, response 200, response 201 and response 202 of POST /api/v1/namespaces/{namespace}/pods/"
        "{name}/eviction are now io.k8s.api.policy.v1.Eviction instead of io.k8s.api.policy.v1beta1.Eviction")
    assert [m.change.pointer for m in eviction.members] == [
        f"/paths/~1api~1v1~1namespaces~1{{namespace}}~1pods~1{{name}}~1eviction/post/{part}/schema/$ref"
        for part in ("parameters/0", "responses/200", "responses/201", "responses/202")]
    inside = [f for f in report.findings if f.change.context.operation
              and (field_path(f.change.context) or "").startswith("response 200.") and f.rule.startswith("schema.")]
    assert inside == []  # no field-by-field diff of Status against the resource


def test_1_23_to_1_24_int_or_string_spelled_as_a_one_of_is_the_same_set() -> None:
    report = compare(V3.format(23), V3.format(24))
    [spelled] = _by_rule(report, "kubernetes.int-or-string-spelled")
    assert (spelled.level.value, where(spelled.change.context)) == (
        "safe", "intstr.IntOrString (used by 12 kinds: CronJob, DaemonSet, Deployment, ...)")
    assert spelled.reason.startswith("The same values as before: `format: int-or-string` already accepted")
    assert [f for f in report.findings if f.level.value == "breaking"] == []


def test_1_23_to_1_24_quantity_listing_the_forms_the_server_always_read_is_a_documentation_correction() -> None:
    """`resource.Quantity` goes from `type: string` to `oneOf: [string, number]`: the API server has always
    decoded a quantity from either and always writes a string; the 1.24 v3 spec lists both forms (kube-openapi's
    one-of types), as it spells IntOrString. Reported, safe, with that reason."""
    report = compare(V3.format(23), V3.format(24))
    [quantity] = _by_rule(report, "schema.one-of.member-added")
    assert (quantity.level.value, quantity.change.pointer, quantity.message) == (
        "safe", "/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity/oneOf/1",
        "resource.Quantity (used by 18 kinds: CSIStorageCapacity, CronJob, DaemonSet, ...) may now also be number")
    assert quantity.reason.startswith("Documentation correction: a Kubernetes type keeps its JSON form")


def test_gateway_v1_1_to_v1_2_listener_protocol_pattern_respelled_is_safe() -> None:
    report = compare("crds/gateway-api/gateways.standard.v1.1.0.yaml", "crds/gateway-api/gateways.standard.v1.2.0.yaml")
    [respelled] = _by_rule(report, "schema.pattern-respelled")
    assert (respelled.level.value, [m.change.pointer for m in respelled.members]) == ("safe", [
        f"/spec/versions/{i}/schema/openAPIV3Schema/properties/spec/properties/listeners/items/properties/protocol/"
        "pattern" for i in (0, 1)])
    assert "[-a-zSA-Z0-9]" in respelled.change.old and "[-a-zA-Z0-9]" in respelled.change.new
    assert sorted(f.rule for f in report.findings) == ["schema.pattern-respelled", "schema.property.added"]


def test_1_11_to_1_28_topology_markers_first_published_are_not_breaking() -> None:
    """1.11 published strategic-merge markers but no server-side apply topology (list-type, list-map-keys,
    map-type) at all: each such marker in 1.28 is the spec starting to publish topology. Reported, safe, with
    that reason; strategic-merge changes are still judged as before."""
    report = compare("kubernetes/v2/swagger-v1.11.json", "kubernetes/v2/swagger-v1.28.json")
    topology = ("kubernetes.map-type-made-atomic", "kubernetes.list-type-made-atomic",
                "kubernetes.list-map-keys-extended")
    found = sorted((f.rule, f.level.value, f.change.pointer) for f in report.findings if f.rule in topology)
    defs = "/definitions/io.k8s.api."
    assert found == [
        ("kubernetes.list-map-keys-extended", "safe",
         f"{defs}core.v1.Container/properties/ports/x-kubernetes-list-map-keys"),
        ("kubernetes.list-map-keys-extended", "safe",
         f"{defs}core.v1.ServiceSpec/properties/ports/x-kubernetes-list-map-keys"),
        ("kubernetes.list-type-made-atomic", "safe",
         f"{defs}batch.v1.JobStatus/properties/conditions/x-kubernetes-list-type"),
    ] + [("kubernetes.map-type-made-atomic", "safe", f"/definitions/io.k8s.{name}/x-kubernetes-map-type") for name in (
        "api.autoscaling.v1.CrossVersionObjectReference", "api.core.v1.ConfigMapKeySelector",
        "api.core.v1.EndpointAddress", "api.core.v1.EndpointPort", "api.core.v1.LocalObjectReference",
        "api.core.v1.NodeSelector", "api.core.v1.NodeSelectorTerm", "api.core.v1.ObjectFieldSelector",
        "api.core.v1.ObjectReference", "api.core.v1.PodSpec/properties/nodeSelector",
        "api.core.v1.ReplicationControllerSpec/properties/selector", "api.core.v1.ResourceFieldSelector",
        "api.core.v1.ScopeSelector", "api.core.v1.SecretKeySelector", "api.core.v1.SecretReference",
        "api.core.v1.ServiceSpec/properties/selector", "api.core.v1.TopologySelectorTerm", "api.rbac.v1.RoleRef",
        "api.rbac.v1.Subject", "apimachinery.pkg.apis.meta.v1.LabelSelector",
        "apimachinery.pkg.apis.meta.v1.OwnerReference")]
    assert {f.reason for f in report.findings if f.rule in topology} == {
        "The old spec is a Kubernetes API server's that published no server-side apply markers "
        "(x-kubernetes-list-type, -list-map-keys, -map-type) anywhere: it predates them, so this marker is the spec "
        "starting to publish topology, not a change of a topology the old spec described."}
    [strategy] = _by_rule(report, "kubernetes.patch-strategy-changed")
    assert strategy.level.value == "dangerous"
