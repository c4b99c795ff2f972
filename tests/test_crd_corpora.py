"""CRDs from real projects (../shared/corpora/crds): the documented changes, exactly; every file against itself;
bundles of several CRDs; and every pointer of every finding locates in the file it names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from conftest import CORPORA, corpus, real_document, real_pair

from specdiff.load import Document, load_text
from specdiff.notation import where
from specdiff.pipeline import run
from specdiff.records import Report

#: the rules these tests assert; schema changes other cards do not classify yet are left out on purpose
ASSERTED = ("crd.", "schema.enum.value-added", "schema.property.removed")
GATEWAY, CERT_MANAGER = "crds/gateway-api", "crds/cert-manager"
FILTERS = "/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/rules/items/properties"


def compare(old: str, new: str) -> tuple[Report, Document, Document]:
    return real_pair(old, new, grouped=False), real_document(old), real_document(new)  # one finding per place


def asserted(report: Report) -> list[tuple[str, str, str]]:
    return sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings if f.rule.startswith(ASSERTED))


def test_httproutes_v0_6_to_v0_8_filter_types_gain_values_and_v1alpha2_stops_being_served() -> None:
    report, _, _ = compare(f"{GATEWAY}/httproutes.standard.v0.6.0.yaml", f"{GATEWAY}/httproutes.standard.v0.8.0.yaml")
    backend = f"{FILTERS}/backendRefs/items/properties/filters/items/properties/type/enum"
    route = f"{FILTERS}/filters/items/properties/type/enum"
    assert asserted(report) == [
        ("crd.version.unserved", "/spec/versions/0/served", "dangerous"),  # deprecated before, and alpha
        ("schema.enum.value-added", f"{backend}/1", "breaking"),
        ("schema.enum.value-added", f"{backend}/4", "breaking"),
        ("schema.enum.value-added", f"{route}/1", "breaking"),
        ("schema.enum.value-added", f"{route}/4", "breaking"),
    ]
    added = sorted((where(f.change.context), f.change.new) for f in report.findings
                   if f.rule == "schema.enum.value-added")
    assert added == [
        ("gateway.networking.k8s.io/v1beta1 HTTPRoute.spec.rules[].backendRefs[].filters[].type",
         "ResponseHeaderModifier"),
        ("gateway.networking.k8s.io/v1beta1 HTTPRoute.spec.rules[].backendRefs[].filters[].type", "URLRewrite"),
        ("gateway.networking.k8s.io/v1beta1 HTTPRoute.spec.rules[].filters[].type", "ResponseHeaderModifier"),
        ("gateway.networking.k8s.io/v1beta1 HTTPRoute.spec.rules[].filters[].type", "URLRewrite"),
    ]
    [unserved] = [f for f in report.findings if f.rule == "crd.version.unserved"]
    assert unserved.reason.startswith("allowed in alpha, not compatible: ")


def test_httproutes_v1_0_to_v1_1_storage_moves_to_v1() -> None:
    report, _, _ = compare(f"{GATEWAY}/httproutes.standard.v1.0.0.yaml", f"{GATEWAY}/httproutes.standard.v1.1.0.yaml")
    assert asserted(report) == [("crd.version.storage-changed", "/spec/versions/0/storage", "dangerous")]
    [storage] = [f for f in report.findings if f.rule == "crd.version.storage-changed"]
    assert (storage.change.old, storage.change.new) == ("v1beta1", "v1")


def test_grpcroutes_experimental_v1_0_to_standard_v1_1_v1_added_v1alpha2_unserved_and_deprecated() -> None:
    report, _, _ = compare(f"{GATEWAY}/grpcroutes.experimental.v1.0.0.yaml",
                           f"{GATEWAY}/grpcroutes.standard.v1.1.0.yaml")
    assert found_all(report) == [
        ("crd.version.added", "/spec/versions/0", "safe"),
        ("crd.version.deprecated", "/spec/versions/1/deprecated", "safe"),
        ("crd.version.storage-changed", "/spec/versions/0/storage", "dangerous"),
        ("crd.version.unserved", "/spec/versions/1/served", "dangerous"),  # alpha: allowed, not compatible
    ]


def test_cert_manager_v1_5_to_v1_6_old_versions_stop_being_served() -> None:
    report, _, _ = compare(f"{CERT_MANAGER}/certificates.v1.5.0.yaml", f"{CERT_MANAGER}/certificates.v1.6.0.yaml")
    assert found_all(report) == [
        ("crd.version.unserved", "/spec/versions/0/served", "dangerous"),  # v1alpha2
        ("crd.version.unserved", "/spec/versions/1/served", "dangerous"),  # v1alpha3
        ("crd.version.unserved", "/spec/versions/2/served", "breaking"),  # v1beta1, never deprecated
    ]


def test_cert_manager_v1_0_to_v1_5_ed25519_is_allowed_by_v1_only_while_v1beta1_is_served_beside_it() -> None:
    report, _, _ = compare(f"{CERT_MANAGER}/certificates.v1.0.0.yaml", f"{CERT_MANAGER}/certificates.v1.5.0.yaml")
    [clash] = [f for f in report.findings if f.rule == "crd.version.enum-clash"]
    assert (clash.change.pointer, clash.level.value, clash.message) == (
        "/spec/versions/2/schema/openAPIV3Schema/properties/spec/properties/privateKey/properties/algorithm/enum",
        "dangerous", "Certificate.spec.privateKey.algorithm: v1beta1 refuses Ed25519, allowed by v1 served beside it")


def test_cert_manager_v1_6_to_v1_7_removes_them_and_the_conversion_webhook() -> None:
    report, _, _ = compare(f"{CERT_MANAGER}/certificates.v1.6.0.yaml", f"{CERT_MANAGER}/certificates.v1.7.0.yaml")
    assert asserted(report) == [
        ("crd.conversion.strategy-changed", "/spec", "safe"),  # one version left: nothing is converted
        ("crd.version.removed", "/spec/versions", "dangerous"),  # v1beta1: unserved, so no client reached it
        ("crd.version.removed", "/spec/versions", "dangerous"),  # the alpha ones: allowed, not compatible
        ("crd.version.removed", "/spec/versions", "dangerous"),
    ]
    removed = sorted((f.change.old, f.change.old_pointer) for f in report.findings if f.rule == "crd.version.removed")
    assert removed == [("v1alpha2", "/spec/versions/0"), ("v1alpha3", "/spec/versions/1"),
                       ("v1beta1", "/spec/versions/2")]


def test_cert_manager_issuers_v1_5_v1beta1_takes_the_dns_solver_spelling_the_webhook_already_converted() -> None:
    # v1.0 served v1alpha2/3 (`acmedns`) beside v1 (`acmeDNS`) through the same conversion webhook; v1.5 gives
    # v1beta1 the alpha spelling: a break for v1beta1's clients, no new round-trip gap
    report, _, _ = compare(f"{CERT_MANAGER}/issuers.v1.0.0.yaml", f"{CERT_MANAGER}/issuers.v1.5.0.yaml")
    assert [f for f in report.findings if f.rule == "crd.version.round-trip"] == []
    removed = sorted(where(f.change.context) for f in report.findings if f.rule == "schema.property.removed")
    solvers = "cert-manager.io/v1beta1 Issuer.spec.acme.solvers[].dns01.{}"
    assert removed == [solvers.format(name) for name in ("acmeDNS", "azureDNS", "cloudDNS")]


def found_all(report: Report) -> list[tuple[str, str, str]]:
    return sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings)


CRD_FILES = sorted(str(p.relative_to(CORPORA)) for p in (CORPORA / "crds").glob("*/*.yaml")) or ["crds/(absent)"]


@pytest.mark.parametrize("name", CRD_FILES)
def test_every_crd_file_against_itself_reports_nothing(name: str) -> None:
    assert compare(name, name)[0].findings == ()


PAIRS = [(f"{GATEWAY}/httproutes.standard.v0.6.0.yaml", f"{GATEWAY}/httproutes.standard.v0.8.0.yaml"),
         (f"{GATEWAY}/gateways.standard.v0.5.0.yaml", f"{GATEWAY}/gateways.standard.v0.6.0.yaml"),
         (f"{CERT_MANAGER}/certificates.v1.6.0.yaml", f"{CERT_MANAGER}/certificates.v1.7.0.yaml"),
         (f"{CERT_MANAGER}/issuers.v1.0.0.yaml", f"{CERT_MANAGER}/issuers.v1.5.0.yaml"),
         (f"{CERT_MANAGER}/certificates.v1.12.0.yaml", f"{CERT_MANAGER}/certificates.v1.21.1.yaml")]


@pytest.mark.parametrize(("old", "new"), PAIRS)
def test_every_pointer_locates_on_the_line_it_names(old: str, new: str) -> None:
    report, old_doc, new_doc = compare(old, new)
    assert report.findings
    for finding in report.findings:
        for doc, pointer in ((old_doc, finding.change.old_pointer), (new_doc, finding.change.new_pointer)):
            if pointer is None:
                continue
            place = doc.locate(pointer)
            assert place is not None, (finding.rule, pointer)
            line = Path(doc.name).read_text(encoding="utf-8").splitlines()[place[0] - 1].strip()
            token = pointer.rsplit("/", 1)[-1]
            assert line.startswith("-") if token.isdigit() else line.removeprefix("- ").startswith(f"{token}:"), \
                (pointer, line)


def _bundle(names: list[str], layout: str) -> str:
    texts = [corpus(name).read_text(encoding="utf-8") for name in names]
    if layout == "multi-document":
        return "---\n" + "---\n".join(texts)
    return json.dumps({"apiVersion": "v1", "kind": "List",
                       "items": [yaml.load(t, Loader=yaml.CSafeLoader) for t in texts]}, indent=1)


@pytest.mark.parametrize("layout", ["multi-document", "list"])
def test_a_bundle_reports_what_its_crds_report_alone(layout: str) -> None:
    olds = [f"{GATEWAY}/httproutes.standard.v1.0.0.yaml", f"{CERT_MANAGER}/certificates.v1.5.0.yaml"]
    news = [f"{GATEWAY}/httproutes.standard.v1.1.0.yaml", f"{CERT_MANAGER}/certificates.v1.6.0.yaml"]
    old_doc = load_text(_bundle(olds, layout), "old-bundle", None)
    new_text = _bundle(news, layout)
    new_doc = load_text(new_text, "new-bundle", None)
    prefix = "/{}" if layout == "multi-document" else "/items/{}"
    alone = sorted((f.rule, prefix.format(i) + f.change.pointer, f.level.value)
                   for i, (old, new) in enumerate(zip(olds, news, strict=True)) for f in compare(old, new)[0].findings)
    report = run(old_doc, new_doc, grouped=False)
    assert found_all(report) == alone
    assert ("crd.version.storage-changed", prefix.format(0) + "/spec/versions/0/storage", "dangerous") in alone
    for finding in report.findings:
        if finding.change.new_pointer is not None:
            assert new_doc.locate(finding.change.new_pointer) is not None, finding.change.new_pointer
    served = new_doc.locate(prefix.format(1) + "/spec/versions/2/served")
    assert served is not None
    assert new_text.splitlines()[served[0] - 1].strip() in ("served: false", '"served": false,')


def test_cert_manager_v1_12_to_v1_21_list_types_written_out_say_they_were_not_written_before() -> None:
    """A side of a change that the spec does not write reads "not written", never `null`."""
    from specdiff.report.sections import sentence

    report, _, _ = compare(f"{CERT_MANAGER}/certificates.v1.12.0.yaml", f"{CERT_MANAGER}/certificates.v1.21.1.yaml")
    lists = ("additionalOutputFormats", "dnsNames", "emailAddresses", "ipAddresses", "subject.countries",
             "subject.localities", "subject.organizationalUnits", "subject.organizations", "subject.postalCodes",
             "subject.provinces", "subject.streetAddresses", "uris", "usages")
    spec = "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/"
    assert [(f.change.pointer, sentence(f)) for f in report.findings if f.rule == "kubernetes.list-type-restated"] == [
        (spec + field.replace(".", "/properties/") + "/x-kubernetes-list-type",
         f"cert-manager.io/v1: List type of Certificate.spec.{field} goes from not written to atomic, still atomic "
         "for server-side apply") for field in lists]


def test_a_changed_status_default_names_where_it_first_differs() -> None:
    """Gateway API v0.6.0 renamed the `Scheduled` condition `Accepted`; the placeholder status the CRD defaults
    says so, where both sides' shapes alone ("an object with 1 key") would not."""
    report, _, _ = compare(f"{GATEWAY}/gateways.standard.v0.5.0.yaml", f"{GATEWAY}/gateways.standard.v0.6.0.yaml")
    status = "/spec/versions/1/schema/openAPIV3Schema/properties/status"
    changed = [(f.change.pointer, f.level.value, f.message) for f in report.findings
               if f.rule == "schema.default-changed" and f.change.pointer.startswith(status)]
    assert changed == [
        (f"{status}/default", "breaking", "default of Gateway.status changed from `{.conditions[0].type: Scheduled, "
                                          "...}` to `{.conditions[0].type: Accepted, ...}`"),
        (f"{status}/properties/conditions/default", "breaking", "default of Gateway.status.conditions changed from "
                                                                "`{[0].reason: NotReconciled, ...}` to `{[0].reason: "
                                                                "Pending, ...}`")]


def test_two_long_structures_are_shown_where_they_first_differ() -> None:
    from specdiff.classify import shown_pair

    long = {"note": "x" * 90}
    assert shown_pair({**long, "a": [1, 2]}, {**long, "a": [1]}) == ("{.a[1]: 2, ...}", "{.a[1]: not written, ...}")
    assert shown_pair([long, {"k": "v"}], [long, {"k": "w"}]) == ("{[1].k: v, ...}", "{[1].k: w, ...}")
    assert shown_pair({"a": 1}, {"a": 2}) == ('`{"a": 1}`', '`{"a": 2}`')  # short enough to show whole, as code
    assert shown_pair({**long, "a": 1}, [long]) == ("an object with 2 keys", "a list of 1 item")  # not alike
