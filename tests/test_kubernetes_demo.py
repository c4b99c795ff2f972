"""The demo pair (Frobber v6 -> v7): every Kubernetes-semantics change in it gets its own rule."""

from __future__ import annotations

from pathlib import Path

from specdiff.load import load
from specdiff.pipeline import run
from specdiff.records import Finding, Report

DEMO = Path(__file__).resolve().parents[1] / "corpora" / "demo"
SPEC = "/components/schemas/com.example.frobs.v6.FrobberSpec"
STATUS = "/components/schemas/com.example.frobs.v6.FrobberStatus"
AREAS = ("schema.enum.", "lifecycle.", "kubernetes.")


def demo_report() -> Report:
    return run(load(str(DEMO / "frobber-v6.yaml")), load(str(DEMO / "frobber-v7.yaml")))


def test_each_kubernetes_change_of_the_demo_has_its_rule() -> None:
    mine = sorted((f.rule, f.change.pointer, f.level.value) for f in demo_report().findings
                  if f.rule.startswith(AREAS))
    assert mine == sorted([
        ("schema.enum.value-added", f"{SPEC}/properties/mode/enum/2", "breaking"),
        ("schema.enum.deprecated-value-removed", f"{STATUS}/properties/phase/enum", "safe"),
        ("schema.enum.value-removed", f"{SPEC}/properties/shape/enum", "breaking"),
        ("schema.enum.introduced", f"{SPEC}/properties/color/enum", "dangerous"),
        ("lifecycle.promoted", f"{SPEC}/properties/depth/x-kubernetes-api-lifecycle", "safe"),
        ("lifecycle.gated-field-added", f"{SPEC}/properties/width", "safe"),
        ("kubernetes.list-type-made-atomic", f"{SPEC}/properties/tags/x-kubernetes-list-type", "breaking"),
        ("kubernetes.preserve-unknown-fields-disabled",
         f"{SPEC}/properties/config/x-kubernetes-preserve-unknown-fields", "breaking"),
        ("kubernetes.validation.rule-added", f"{SPEC}/x-kubernetes-validations/0", "breaking"),
    ])


def test_the_alpha_version_losing_a_field_is_allowed_in_alpha() -> None:
    removed = [f for f in demo_report().findings
               if f.change.pointer == "/components/schemas/com.example.frobs.v6alpha2.Frobber/properties/param"]
    assert [(f.rule, f.level.value, f.change.context.stability) for f in removed] == [
        ("schema.property.removed", "dangerous", "alpha")]
    assert removed[0].reason.startswith("allowed in alpha, not compatible: ")


def test_the_deprecated_enum_value_says_why_it_is_safe() -> None:
    finding = _one(demo_report(), "schema.enum.deprecated-value-removed")
    assert finding.reason.startswith("Treated as deprecated but allowed")
    assert finding.message == "deprecated enum value `Unknown` removed from Frobber.status.phase"


def _one(report: Report, rule: str) -> Finding:
    found = [f for f in report.findings if f.rule == rule]
    assert len(found) == 1, found
    return found[0]
