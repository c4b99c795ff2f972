"""Enums and x-kubernetes-* extensions on real Kubernetes specs."""

from __future__ import annotations

import pytest
from conftest import real_pair

from specdiff.records import Report

AREAS = ("schema.enum.", "lifecycle.", "kubernetes.")
LIVE = "kubernetes/live-with-enums/"


def compare(old: str, new: str) -> Report:
    return real_pair(old, new, grouped=False)  # one finding per place


def mine(report: Report) -> list[tuple[str, str, str]]:
    return sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings if f.rule.startswith(AREAS))


def test_live_1_27_with_enums_against_the_1_28_swagger_drops_the_enums() -> None:
    """Acceptance: the live spec publishes enums (KEP-2887), the checked-in 1.28 spec does not."""
    report = compare(LIVE + "swagger-live-v1.27.0.json", "kubernetes/v2/swagger-v1.28.json")
    dropped = {f.change.pointer: f for f in report.findings if f.rule == "schema.enum.dropped"}
    for name, field, values in (
        ("apps.v1.DeploymentStrategy", "type", ["Recreate", "RollingUpdate"]),
        ("core.v1.PodStatus", "phase", ["Failed", "Pending", "Running", "Succeeded", "Unknown"]),
        ("core.v1.ContainerPort", "protocol", ["SCTP", "TCP", "UDP"]),
        ("batch.v1.CronJobSpec", "concurrencyPolicy", ["Allow", "Forbid", "Replace"]),
    ):
        finding = dropped.pop(f"/definitions/io.k8s.api.{name}/properties/{field}/enum")
        assert (finding.level.value, finding.change.old, finding.change.new) == ("dangerous", values, None)
    assert len(dropped) == 34  # the live spec's other enum nodes, all dropped the same way
    assert all(pointer.endswith("/enum") for pointer in dropped)
    assert {f.rule for f in report.findings if f.rule.startswith("schema.enum.")} == {"schema.enum.dropped"}


def test_live_1_27_against_1_28_reports_the_real_topology_and_union_changes() -> None:
    report = compare(LIVE + "swagger-live-v1.27.0.json", "kubernetes/v2/swagger-v1.28.json")
    assert [item for item in mine(report) if item[0] != "schema.enum.dropped"] == [
        ("kubernetes.list-type-changed",
         "/definitions/io.k8s.api.core.v1.ResourceRequirements/properties/claims/x-kubernetes-list-type", "dangerous"),
        ("kubernetes.patch-strategy-ignored",
         "/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement/properties/key", "safe"),
        ("kubernetes.union.member-added",
         "/definitions/io.k8s.api.flowcontrol.v1beta2.PriorityLevelConfigurationSpec/x-kubernetes-unions/0", "safe"),
        ("kubernetes.union.member-added",
         "/definitions/io.k8s.api.flowcontrol.v1beta3.PriorityLevelConfigurationSpec/x-kubernetes-unions/0", "safe"),
    ]


@pytest.mark.parametrize("name", ["v2_api.v1.v1.24.0.json", "v3_api.v1.v1.24.0.json", "v2_batch.v1.v1.24.0.json",
                                  "swagger-live-v1.27.0.json"])
def test_a_live_spec_with_enums_against_itself_reports_nothing(name: str) -> None:
    assert compare(LIVE + name, LIVE + name).findings == ()


def test_1_28_to_1_30_spells_out_list_types_and_changes_two_alpha_lists() -> None:
    found = mine(compare("kubernetes/v2/swagger-v1.28.json", "kubernetes/v2/swagger-v1.30.json"))
    changed = [item for item in found if item[0] != "kubernetes.list-type-restated"]
    assert changed == [
        ("kubernetes.list-type-made-atomic", "/definitions/io.k8s.api.resource.v1alpha2.PodSchedulingContextSpec"
         "/properties/potentialNodes/x-kubernetes-list-type", "dangerous"),  # alpha: allowed, not compatible
        ("kubernetes.list-type-made-atomic", "/definitions/io.k8s.api.resource.v1alpha2.ResourceClaimSchedulingStatus"
         "/properties/unsuitableNodes/x-kubernetes-list-type", "dangerous"),
        ("kubernetes.list-type-made-atomic",  # a List's items: only ever returned, never applied
         "/definitions/io.k8s.api.storage.v1.CSIStorageCapacityList/properties/items", "safe"),
        ("kubernetes.patch-strategy-changed", "/definitions/io.k8s.api.resource.v1alpha2.ResourceClaimStatus"
         "/properties/reservedFor/x-kubernetes-patch-strategy", "dangerous"),
    ]
    restated = {pointer for rule, pointer, level in found if rule == "kubernetes.list-type-restated"}
    assert {  # merged by key, or atomic by default, before the list type was written out
        "/definitions/io.k8s.api.core.v1.Container/properties/env/x-kubernetes-list-type",
        "/definitions/io.k8s.api.core.v1.PodSpec/properties/volumes/x-kubernetes-list-type",
        "/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta/properties/finalizers/x-kubernetes-list-type",
        "/definitions/io.k8s.api.core.v1.Container/properties/args/x-kubernetes-list-type",
    } <= restated
    assert len(restated) == 166


def test_1_30_to_1_32_makes_service_backend_port_atomic() -> None:
    """name and number are described as mutually exclusive: only who owns the port changes, no value."""
    assert mine(compare("kubernetes/v2/swagger-v1.30.json", "kubernetes/v2/swagger-v1.32.json")) == [
        ("kubernetes.map-type-made-atomic",
         "/definitions/io.k8s.api.networking.v1.ServiceBackendPort/x-kubernetes-map-type", "dangerous")]


def test_1_32_to_1_35_drops_atomic_from_byte_strings_and_extends_beta_device_keys() -> None:
    assert mine(compare("kubernetes/v2/swagger-v1.32.json", "kubernetes/v2/swagger-v1.35.json")) == [
        ("kubernetes.list-map-keys-extended", "/definitions/io.k8s.api.resource.v1beta1.ResourceClaimStatus"
         "/properties/devices/x-kubernetes-list-map-keys", "dangerous"),
        ("kubernetes.list-type-restated",
         "/definitions/io.k8s.api.certificates.v1.CertificateSigningRequestSpec/properties/request", "safe"),
        ("kubernetes.list-type-restated",
         "/definitions/io.k8s.api.certificates.v1.CertificateSigningRequestStatus/properties/certificate", "safe"),
        ("kubernetes.list-type-restated",
         "/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status/properties/details", "safe"),
    ]
