"""A changed `required` marker (and a limit, format, enum or default written down) judged with the old spec's own
text as evidence: the words that decided it are quoted in the reason, near misses are not evidence, and real
new requirements still break."""

from __future__ import annotations

import pytest
from conftest import real_pair

from specdiff.diff.evidence import (
    empty_already_invalid,
    merge_keys,
    said_default,
    said_format,
    said_limit,
    said_required,
    said_values,
    said_written,
)
from specdiff.notation import where


@pytest.mark.parametrize(("description", "found"), [
    ("If the referenced resource does not exist, this binding is ignored Required.", "Required."),
    ("The policy to bind.\n+required", "+required"),
    ("The policy to bind. This field is required.", "This field is required."),
])
def test_sentences_that_say_a_field_is_required(description: str, found: str) -> None:
    assert said_required({"description": description}) == f'the old description says so ("{found}")'


@pytest.mark.parametrize("description", [
    "The policy to bind. Not required.", "Not Required.", "Required when paramRef is set.",
    "The policy to bind; required if the binding has no selector.", "Required fields are listed below.",
    "The +required-ness is decided elsewhere.", "",
])
def test_mentions_of_the_word_are_no_evidence(description: str) -> None:
    assert said_required({"description": description}) is None


@pytest.mark.parametrize(("description", "found"), [
    ("Status of the condition. Defaults to True.", "Defaults to True"),
    ("Defaults to 30 seconds. Minimum value is 1.", "Defaults to 30 seconds"),
    ("UID of the object, populated by the system. Read-only.", "populated by the system"),
])
def test_sentences_that_say_the_server_writes_a_field(description: str, found: str) -> None:
    assert said_written({"description": description}, None) == f'the old description says ("{found}")'


@pytest.mark.parametrize("description", [
    "Status of the condition. Defaults to empty.", "Defaults to nil, which means no limit.",
    "The reason; it defaults to the type.", "Status of the condition.",
])
def test_near_misses_for_a_server_written_field(description: str) -> None:
    assert said_written({"description": description}, None) is None


def test_a_default_is_evidence_that_the_server_writes_the_field() -> None:
    assert said_written({"description": "Status."}, "True") == 'the old schema gives it the default "True"'


def test_an_empty_go_struct_fails_when_its_type_required_fields() -> None:
    assert empty_already_invalid("io.k8s.api.batch.v1.CronJobSpec", {"required": ["schedule", "jobTemplate"]}) == (
        "the old spec already required jobTemplate and schedule of CronJobSpec, so an object without the field "
        "(an empty CronJobSpec) never passed validation")
    assert empty_already_invalid("io.k8s.api.x.v1.BindingSpec", {"properties": {
        "policyName": {"description": "The policy. Required."}, "note": {"description": "Not required."}}}) == (
        "the old spec already required policyName of BindingSpec, so an object without the field (an empty "
        "BindingSpec) never passed validation")
    assert empty_already_invalid("io.k8s.api.x.v1.Spec", {"properties": {"note": {"type": "string"}}}) is None


def test_merge_keys_are_read_from_marked_lists_beside_fields_that_are_no_objects() -> None:
    class Named:
        def __init__(self, schema: object) -> None:
            self.schema = schema

    marked = {"type": "array", "items": {"$ref": "#/definitions/io.k8s.api.core.v1.HostAlias"},
              "x-kubernetes-patch-merge-key": "ip", "x-kubernetes-patch-strategy": "merge"}
    keys = merge_keys({"io.k8s.api.core.v1.PodSpec": Named({"properties": {"hostAliases": marked, "broken": None}}),
                       "io.k8s.api.core.v1.Plain": Named({"properties": {"names": {"type": "array"}, "odd": 5}}),
                       "io.k8s.api.core.v1.Listed": Named({"properties": {"tags": ["x-kubernetes-list-map-keys"]}})})
    assert list(keys) == ["io.k8s.api.core.v1.HostAlias"]
    assert list(keys["io.k8s.api.core.v1.HostAlias"]) == ["ip"]
    assert "PodSpec.hostAliases by ip" in keys["io.k8s.api.core.v1.HostAlias"]["ip"]


def test_1_35_to_1_36_required_markers_the_old_text_already_implied_are_corrections() -> None:
    report = real_pair("kubernetes/v2/swagger-v1.35.json", "kubernetes/v2/swagger-v1.36.json")
    corrected = sorted((where(m.change.context), m.reason) for f in report.findings for m in f.members or (f,)
                       if m.rule == "schema.property.became-required" and m.level.value == "safe")
    said = 'Documentation correction, not a new requirement: the old description says so ("Required.").'
    empty = ("Documentation correction, not a new requirement: the old spec already required {} of {}, so an "
             "object without the field (an empty {}) never passed validation.")
    assert corrected == [
        ("admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding.spec",
         empty.format("policyName and validationActions", *["ValidatingAdmissionPolicyBindingSpec"] * 2)),
        ("admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding.spec.policyName", said),
        ("admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding.spec.validationActions", said),
        *[(f"autoscaling/{version} HorizontalPodAutoscaler.spec",
           empty.format("maxReplicas and scaleTargetRef", *["HorizontalPodAutoscalerSpec"] * 2))
          for version in ("v1", "v2")],
        ("batch/v1 CronJob.spec", empty.format("jobTemplate and schedule", *["CronJobSpec"] * 2)),
        *[(f"coordination.k8s.io/{version} LeaseCandidate.spec",
           empty.format("binaryVersion, leaseName and strategy", *["LeaseCandidateSpec"] * 2))
          for version in ("v1alpha2", "v1beta1")],
        ("internal.apiserver.k8s.io/v1alpha1 StorageVersion.status.storageVersions[].apiServerID",
         "Documentation correction, not a new requirement: the old spec already merged "
         "StorageVersionStatus.storageVersions by apiServerID (x-kubernetes-list-map-keys), so the API server needed "
         "it in every item."),
        *[(f"networking.k8s.io/{version} IPAddress.spec", empty.format("parentRef", *["IPAddressSpec"] * 2))
          for version in ("v1", "v1beta1")],
    ]
    # a requirement the old text never stated still breaks, and so does a new required field
    breaking = {(f.rule, where(f.change.context)) for f in report.findings if f.level.value == "breaking"}
    assert ("schema.property.became-required", "authentication.k8s.io/v1 TokenReview.spec.token") in breaking
    assert ("schema.property.required-added",
            "certificates.k8s.io/v1beta1 PodCertificateRequest.spec.stubPKCS10Request") in breaking


def test_1_30_to_1_32_items_of_list_kinds_becoming_required_are_only_returned() -> None:
    report = real_pair("kubernetes/v2/swagger-v1.30.json", "kubernetes/v2/swagger-v1.32.json")
    lists = sorted((f.level.value, where(f.change.context), f.change.direction) for f in report.findings
                   if f.rule == "schema.property.became-required" and ".items" in where(f.change.context))
    assert lists == [
        ("safe", "admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBindingList.items", "response"),
        ("safe", "admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyList.items", "response"),
    ]


@pytest.mark.parametrize(("said", "expected"), [
    (said_limit({"description": "The maximum size is 20 characters."}, 20),
     'the old description says so ("maximum size is 20")'),
    (said_limit({"description": "A maximum of three actions are accepted."}, 3),
     'the old description says so ("maximum of three")'),
    (said_limit({"description": "The maximum size is 30 characters."}, 20), None),
    (said_limit({"description": "Returns 20 results."}, 20), None),  # a number, but no limit said
    (said_format({"description": "A timestamp in ISO 8601 format."}, "date-time"),
     'the old description says so ("ISO 8601")'),
    (said_format({"description": "When it happened."}, "date-time"), None),
    (said_values({"description": 'Options are "pcm16", "g711_ulaw", or "g711_alaw".'}, ["pcm16", "g711_ulaw"]),
     "the old description lists them (pcm16 and g711_ulaw)"),
    (said_values({"description": 'Options are "pcm16" or "g711_ulaw".'}, ["pcm16", "g711_alaw"]), None),
    (said_values({"description": "read or write access"}, ["read", "write"]), None),  # words, not a list
    (said_values({"description": "If set to Never, keep the key. If set to Always, make a new one."},
                 ["Never", "Always"]), "the old description lists them (Never and Always)"),
    (said_values({"description": "If set to Always, make a new key."}, ["Never", "Always"]), None),
    (said_values({"description": "If set to Never, keep it. When set to Always, renew it. If set to Once, ..."},
                 ["Never", "Always"]), None),  # a case the enum leaves out
    (said_default({"description": "Sort order. Defaults to `created`."}, "created"),
     'the description says so ("Defaults to `created`")'),
    (said_default({"description": "Sort order. Defaults to created_at."}, "created"), None),
    (said_default({"description": "Kind. defaults to shared"}, "Shared"), None),  # another value
    (said_default({"description": "Expected values are Shared: one disk per account  Dedicated: one disk. "
                                  "defaults to shared"}, "Shared"), 'the description says so ("defaults to shared")'),
    (said_default({"description": "Expected values are Shared: one disk per account  Dedicated: one disk. "
                                  "defaults to shared"}, "Dedicated"), None),
    (said_default({"description": 'Ex. "ext4", "xfs". Implicitly inferred to be "ext4" if unspecified.'}, "ext4"),
     'the description says so ("inferred to be "ext4"")'),
    (said_default({"description": 'Ex. "ext4", "xfs". Implicitly inferred to be "ext4" if unspecified.'}, "xfs"),
     None),
    (said_default({"description": 'The type is inferred to be "ext4" from the volume.'}, "ext4"), None),
    (said_default({"description": 'Type of turn detection, only "server_vad" is currently supported.'},
                  "server_vad"), 'the description says so ("only "server_vad" is currently supported")'),
    (said_default({"description": 'Only "server_vad" is supported.'}, "semantic_vad"), None),
])
def test_words_that_already_state_a_limit_format_values_or_default(said: str | None, expected: str | None) -> None:
    assert said == expected
