"""The pipeline on real specs: known changes between releases, and nothing between a spec and itself."""

from __future__ import annotations

import json
from functools import cache

import pytest
from conftest import CORPORA, corpus

from specdiff.load import load
from specdiff.pipeline import run
from specdiff.records import Report


@cache
def compare(old: str, new: str) -> Report:
    """Each pair is compared once for all the tests that look at it."""
    return run(load(str(corpus(old))), load(str(corpus(new))))


def found(report: Report, rule: str) -> dict[str, str]:
    """pointer -> level of the findings of one rule."""
    return {f.change.pointer: f.level.value for f in report.findings if f.rule == rule}


def test_kubernetes_1_35_to_1_36_removes_podspec_workload_ref() -> None:
    report = compare("kubernetes/v2/swagger-v1.35.json", "kubernetes/v2/swagger-v1.36.json")
    removed = found(report, "schema.property.removed")
    assert removed["/definitions/io.k8s.api.core.v1.PodSpec/properties/workloadRef"] == "breaking"


def test_kubernetes_1_28_to_1_30_requires_host_alias_ip_and_removes_flowcontrol_v1beta2() -> None:
    report = compare("kubernetes/v2/swagger-v1.28.json", "kubernetes/v2/swagger-v1.30.json")
    required = [f for f in report.findings if f.rule == "schema.property.became-required"
                and f.change.pointer == "/definitions/io.k8s.api.core.v1.HostAlias/required"]
    assert [(dict(f.change.detail)["name"], f.level.value) for f in required] == [("ip", "breaking")]
    # a whole beta group-version goes: one breaking finding that names every one of its operations
    gone = [f for f in report.findings if f.rule == "group-version.removed"
            and f.change.old == "flowcontrol.apiserver.k8s.io/v1beta2"]
    assert [f.level.value for f in gone] == ["breaking"]
    spec = json.loads(corpus("kubernetes/v2/swagger-v1.28.json").read_text())
    written = sorted(f"{method.upper()} {path}" for path, item in spec["paths"].items()
                     if path.startswith("/apis/flowcontrol.apiserver.k8s.io/v1beta2/")
                     for method in item if method in ("get", "put", "post", "delete", "patch"))
    assert sorted(gone[0].operations) == written  # every v1beta2 operation 1.28 has, and nothing else
    assert "GET /apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas" in written
    assert not [f for f in report.findings if f.rule == "operation.removed" and "v1beta2" in f.change.pointer]


def test_stripe_2022_03_31_to_04_01_removes_eu_bank_transfer_as_breaking() -> None:
    report = compare("openapi/stripe/spec3-2022-03-31.json", "openapi/stripe/spec3-2022-04-01.json")
    removed = found(report, "schema.property.removed")
    named = "/components/schemas/invoice_payment_method_options_customer_balance_bank_transfer"
    assert removed[named + "/properties/eu_bank_transfer"] == "breaking"


def test_slack_2020_04_to_2020_10_removes_the_channels_methods() -> None:
    report = compare("openapi/slack-web-api-swagger2/slack_web_openapi_v2-2020-04-03.json",
                     "openapi/slack-web-api-swagger2/slack_web_openapi_v2-2020-10-06.json")
    removed = sorted(p for p in found(report, "operation.removed") if p.startswith("/paths/~1channels."))
    assert removed == [f"/paths/~1channels.{name}" for name in (
        "archive/post", "create/post", "history/get", "info/get", "invite/post", "join/post", "kick/post",
        "leave/post", "list/get", "mark/post", "rename/post", "replies/get", "setPurpose/post", "setTopic/post",
        "unarchive/post")]


def test_stripe_json_and_yaml_of_the_same_release_compare_equal() -> None:
    report = compare("openapi/stripe/spec3-2022-04-01.json", "openapi/stripe/spec3-2022-04-01.yaml")
    assert [(f.rule, f.change.pointer) for f in report.findings] == []


def _corpus_files() -> list[str]:
    if not CORPORA.is_dir():
        return ["(corpora absent)"]
    return sorted(str(p.relative_to(CORPORA)) for p in CORPORA.rglob("*")
                  if p.suffix in (".json", ".yaml") and p.is_file())


@pytest.mark.parametrize("name", _corpus_files())
def test_every_corpus_file_against_itself_reports_nothing(name: str) -> None:
    report = run(load(str(corpus(name))), load(str(corpus(name))))
    assert [(f.rule, f.change.pointer) for f in report.findings] == []
