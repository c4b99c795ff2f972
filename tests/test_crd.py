"""CustomResourceDefinitions: every file layout, pointers that locate in the file as written, input errors,
round trips between served versions, and the reports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from specdiff.cli import main
from specdiff.errors import InputError, UsageError
from specdiff.load import Document, load_text
from specdiff.notation import where
from specdiff.pipeline import run
from specdiff.records import Report, field_path
from specdiff.report import RenderOptions, render


def version(name: str, served: bool = True, storage: bool = False, properties: dict[str, Any] | None = None,
            **extra: Any) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": properties or {}}}}
    return {"name": name, "served": served, "storage": storage, **extra, "schema": {"openAPIV3Schema": schema}}


def crd(plural: str = "frobs", kind: str = "Frob", versions: list[dict[str, Any]] | None = None,
        scope: str = "Namespaced") -> dict[str, Any]:
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": f"{plural}.example.com"},
            "spec": {"group": "example.com", "names": {"kind": kind, "plural": plural}, "scope": scope,
                     "versions": versions or [version("v1", storage=True)]}}


def dump(*documents: Any) -> str:
    return "---\n".join(yaml.safe_dump(d, sort_keys=False) for d in documents)


def compare(old: Document, new: Document, policy: str = "auto") -> Report:
    return run(old, new, policy)


def found(report: Report) -> list[tuple[str, str, str]]:
    return sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings)


def line_at(doc: Document, text: str, pointer: str) -> str:
    place = doc.locate(pointer)
    assert place is not None, pointer
    return text.splitlines()[place[0] - 1]


# -- layouts ------------------------------------------------------------------------------------------
OLD_FROB = crd(versions=[version("v1beta1"), version("v1", storage=True)])
NEW_FROB = crd(versions=[version("v1beta1", served=False), version("v1", storage=True)])
OLD_WIDGET = crd("widgets", "Widget")
NEW_WIDGET = crd("widgets", "Widget", scope="Cluster")
EXPECTED_SECOND = [("crd.scope-changed", "{at}/spec/scope", "breaking"),
                   ("crd.version.unserved", "{first}/spec/versions/0/served", "breaking")]


def _expected(first: str, at: str) -> list[tuple[str, str, str]]:
    return sorted((rule, pointer.format(first=first, at=at), level) for rule, pointer, level in EXPECTED_SECOND)


def test_multi_document_yaml_with_empty_documents_locates_each_crd() -> None:
    old_text = dump(OLD_FROB, OLD_WIDGET)
    new_text = "---\n# generated; the first document is empty\n---\n" + dump(NEW_FROB, NEW_WIDGET) + "---\n"
    old, new = load_text(old_text, "old.yaml", None), load_text(new_text, "new.yaml", None)
    report = compare(old, new)
    assert found(report) == _expected("/0", "/1")
    assert line_at(new, new_text, "/1/spec/scope") == "  scope: Cluster"
    assert line_at(new, new_text, "/0/spec/versions/0/served") == "    served: false"
    assert line_at(old, old_text, "/1/metadata/name") == "  name: widgets.example.com"


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_a_list_locates_its_items(fmt: str) -> None:
    old_data = {"apiVersion": "v1", "kind": "List", "items": [OLD_FROB, OLD_WIDGET]}
    new_data = {"apiVersion": "v1", "kind": "List", "items": [NEW_FROB, NEW_WIDGET]}
    dumps = (lambda d: yaml.safe_dump(d, sort_keys=False)) if fmt == "yaml" else (lambda d: json.dumps(d, indent=1))
    new_text = dumps(new_data)
    new = load_text(new_text, f"new.{fmt}", None)
    report = compare(load_text(dumps(old_data), f"old.{fmt}", None), new)
    assert found(report) == _expected("/items/0", "/items/1")
    assert "Cluster" in line_at(new, new_text, "/items/1/spec/scope")
    assert "false" in line_at(new, new_text, "/items/0/spec/versions/0/served")


def test_a_json_array_and_a_single_document() -> None:
    new_text = json.dumps([NEW_FROB, NEW_WIDGET], indent=1)
    new = load_text(new_text, "new.json", None)
    assert found(compare(load_text(json.dumps([OLD_FROB, OLD_WIDGET]), "old.json", None), new)) == \
        _expected("/0", "/1")
    assert "Cluster" in line_at(new, new_text, "/1/spec/scope")
    single_text = dump(NEW_FROB)
    single = load_text(single_text, "new.yaml", None)
    assert found(compare(load_text(dump(OLD_FROB), "old.yaml", None), single)) == [
        ("crd.version.unserved", "/spec/versions/0/served", "breaking")]
    assert line_at(single, single_text, "/spec/versions/0/served") == "    served: false"


def test_crds_are_matched_by_name_whatever_the_order_and_the_layout() -> None:
    old = load_text(dump(OLD_WIDGET, OLD_FROB), "old.yaml", None)
    new = load_text(json.dumps({"kind": "List", "items": [OLD_FROB, OLD_WIDGET]}), "new.json", None)
    assert compare(old, new).findings == ()


def test_auto_policy_is_kubernetes_and_every_version_schema_is_both_ways() -> None:
    old = load_text(dump(crd(versions=[version("v1", storage=True, properties={"mode": {"type": "string",
                                                                                        "enum": ["a"]}})])),
                    "old.yaml", None)
    new = load_text(dump(crd(versions=[version("v1", storage=True, properties={"mode": {"type": "string",
                                                                                        "enum": ["a", "b"]}})])),
                    "new.yaml", None)
    report = compare(old, new, "auto")
    assert report.policy == "kubernetes"
    [finding] = report.findings
    ctx = finding.change.context
    assert (finding.rule, finding.level.value, finding.change.direction) == (
        "schema.enum.value-added", "breaking", "both")
    assert (ctx.document, ctx.schema, field_path(ctx), ctx.gvk, ctx.group_version, ctx.stability) == (
        "frobs.example.com", "frobs.example.com/v1", ".spec.mode", "example.com/v1/Frob", "example.com/v1", "stable")
    assert finding.change.pointer == \
        "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/mode/enum/1"


def test_status_written_by_a_controller_is_both_ways_like_spec() -> None:
    """A tighter status rejects an older controller's writes and a client's next update of the stored object; a
    wider one surprises readers: status changes are judged in both directions, as spec's are (graph/crd.py)."""
    def frob(most: int, phases: list[str]) -> Document:
        schema = version("v1", storage=True, properties={"size": {"type": "integer", "maximum": most}})
        schema["schema"]["openAPIV3Schema"]["properties"]["status"] = {"type": "object", "properties": {
            "phase": {"type": "string", "enum": phases}, "message": {"type": "string", "maxLength": most}}}
        return load_text(dump(crd(versions=[schema])), "frob.yaml", None)

    report = compare(frob(10, ["Ready"]), frob(5, ["Ready", "Failed"]))
    status = "/spec/versions/0/schema/openAPIV3Schema/properties/status/properties"
    assert sorted((f.rule, f.change.pointer, f.change.direction, f.level.value) for f in report.findings) == [
        ("schema.constraint-tightened", "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/size/"
         "maximum", "both", "breaking"),
        ("schema.constraint-tightened", f"{status}/message/maxLength", "both", "breaking"),
        ("schema.enum.value-added", f"{status}/phase/enum/1", "both", "breaking")]


@pytest.mark.parametrize(("name", "stability", "level"), [
    ("v1alpha2", "alpha", "dangerous"), ("v2beta1", "beta", "breaking"), ("v1", "stable", "breaking")])
def test_stability_comes_from_the_version_name(name: str, stability: str, level: str) -> None:
    old = load_text(dump(crd(versions=[version(name, storage=True, properties={"a": {"type": "string"}})])),
                    "old.yaml", None)
    new = load_text(dump(crd(versions=[version(name, storage=True)])), "new.yaml", None)
    [finding] = compare(old, new).findings
    assert (finding.rule, finding.change.context.stability, finding.level.value) == (
        "schema.property.removed", stability, level)


# -- round trips ----------------------------------------------------------------------------------------
def test_round_trip_names_the_topmost_missing_field_once_per_direction() -> None:
    full = {"size": {"type": "integer"}, "color": {"type": "string"},
            "shape": {"type": "object", "properties": {"sides": {"type": "integer"}}},
            "tags": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"},
                                                                                "value": {"type": "string"}}}}}
    lean = {"size": {"type": "integer"}, "zoom": {"type": "number"},
            "tags": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"}}}}}
    old = load_text(dump(crd(versions=[version("v1", storage=True, properties=full)])), "old.yaml", None)
    new = load_text(dump(crd(versions=[version("v1", storage=True, properties=full),
                                       version("v2", properties=lean)])), "new.yaml", None)
    trips = sorted((where(f.change.context), f.change.fact("missing_in"), f.change.pointer)
                   for f in compare(old, new).findings if f.rule == "crd.version.round-trip")
    spec = "/schema/openAPIV3Schema/properties/spec/properties"
    assert trips == [
        ("example.com/v1 Frob.spec.color", "v2", f"/spec/versions/0{spec}/color"),
        ("example.com/v1 Frob.spec.shape", "v2", f"/spec/versions/0{spec}/shape"),
        ("example.com/v1 Frob.spec.tags[].value", "v2", f"/spec/versions/0{spec}/tags/items/properties/value"),
        ("example.com/v2 Frob.spec.zoom", "v1", f"/spec/versions/1{spec}/zoom"),
    ]


def test_round_trip_ignores_unserved_versions_and_gaps_that_old_had() -> None:
    versions = [version("v1", storage=True, properties={"color": {"type": "string"}}),
                version("v2", served=False)]
    unserved = load_text(dump(crd(versions=versions)), "a.yaml", None)
    assert compare(unserved, unserved).findings == ()
    served = load_text(dump(crd(versions=[versions[0], version("v2")])), "b.yaml", None)
    assert [(f.rule, f.change.fact("field")) for f in compare(unserved, served).findings
            if f.rule.startswith("crd.version.r")] == [("crd.version.round-trip", ".spec.color")]
    assert compare(served, served).findings == ()


@pytest.mark.parametrize(("conversion", "why"), [
    (None, "With no conversion webhook, the API server only rewrites apiVersion and prunes"),
    ({"strategy": "Webhook"}, "The conversion webhook must carry the field into the version that lacks it"),
])
def test_round_trip_names_the_version_once_and_says_who_converts(conversion: Any, why: str) -> None:
    from specdiff.report.sections import sentence

    def frobs(*versions: dict[str, Any]) -> dict[str, Any]:
        document = crd(versions=list(versions))
        if conversion:
            document["spec"]["conversion"] = conversion
        return document

    v1 = version("v1", storage=True, properties={"color": {"type": "string"}})
    old = load_text(dump(frobs(v1)), "old.yaml", None)
    new = load_text(dump(frobs(v1, version("v2"))), "new.yaml", None)
    [trip] = [f for f in compare(old, new).findings if f.rule == "crd.version.round-trip"]
    assert sentence(trip) == "example.com/v1: Frob.spec.color is lost on conversion to v2 (served without it)"
    assert trip.reason.startswith(why)


# -- versions that NEW does not serve -------------------------------------------------------------------
def test_a_version_no_longer_served_reports_its_lifecycle_only() -> None:
    old = load_text(dump(crd(versions=[version("v1beta1", properties={"a": {"type": "string"}},
                                               subresources={"status": {}}),
                                       version("v1", storage=True, properties={"a": {"type": "string"}})])),
                    "old.yaml", None)
    new = load_text(dump(crd(versions=[version("v1beta1", served=False, deprecated=True),
                                       version("v1", storage=True, properties={"a": {"type": "string"}})])),
                    "new.yaml", None)
    assert found(compare(old, new)) == [("crd.version.deprecated", "/spec/versions/0/deprecated", "safe"),
                                        ("crd.version.unserved", "/spec/versions/0/served", "breaking")]


def test_a_deprecation_warning_is_reported_with_the_deprecation_not_twice() -> None:
    old = load_text(dump(crd(versions=[version("v1beta1"), version("v1", storage=True)])), "old.yaml", None)
    new = load_text(dump(crd(versions=[version("v1beta1", deprecated=True, deprecationWarning="use v1"),
                                       version("v1", storage=True)])), "new.yaml", None)
    assert found(compare(old, new)) == [("crd.version.deprecated", "/spec/versions/0/deprecated", "safe")]


# -- input errors ---------------------------------------------------------------------------------------
def _error(text: str, name: str = "bad.yaml") -> InputError:
    with pytest.raises(InputError) as caught:
        compare(load_text(text, name, None), load_text(dump(crd()), "ok.yaml", None))
    return caught.value


def test_a_crd_without_spec_or_versions_is_an_input_error_with_its_place() -> None:
    no_spec = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
               "metadata": {"name": "frobs.example.com"}}
    second = dump(crd()).count("\n") + 2  # the line the second document starts on, after "---"
    assert _error(dump(crd(), no_spec)).one_line() == \
        f"bad.yaml:{second}:1: CustomResourceDefinition frobs.example.com has no spec"
    empty = crd()
    empty["spec"]["versions"] = []
    assert _error(dump(empty)).one_line() == \
        "bad.yaml:11:3: CustomResourceDefinition frobs.example.com has no spec.versions"
    legacy = crd()
    legacy["spec"] = {"group": "example.com", "names": {"kind": "Frob"}, "version": "v1"}
    assert _error(json.dumps(legacy), "bad.json").one_line() == (
        "bad.json:1:122: CustomResourceDefinition frobs.example.com has no spec.versions "
        "(apiextensions.k8s.io/v1beta1 'spec.version' is not read; convert the CRD to v1)")


def test_other_malformed_crds_name_the_place() -> None:
    nameless = crd(versions=[{"served": True, "storage": True}])
    assert _error(dump(nameless)).one_line() == \
        "bad.yaml:12:5: a version of CustomResourceDefinition frobs.example.com has no name"
    twice = crd(versions=[version("v1", storage=True), version("v1")])
    assert _error(dump(twice)).one_line() == \
        "bad.yaml:22:5: CustomResourceDefinition frobs.example.com lists version v1 twice"
    assert _error(dump(crd(), crd())).one_line() == \
        "bad.yaml:26:3: CustomResourceDefinition frobs.example.com appears twice"
    kindless = crd()
    del kindless["spec"]["names"]["kind"]
    assert "needs spec.group and spec.names.kind" in _error(dump(kindless)).one_line()


def test_a_crd_against_an_openapi_document_is_a_usage_error() -> None:
    openapi = load_text('{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}', "api.json", None)
    with pytest.raises(UsageError, match=r"cannot compare a CustomResourceDefinition \(crd.yaml\) with an "
                                         r"OpenAPI document \(api.json\)"):
        compare(load_text(dump(crd()), "crd.yaml", None), openapi)


def test_cli_input_error_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text(dump(crd()))
    (tmp_path / "new.yaml").write_text(dump({"apiVersion": "apiextensions.k8s.io/v1",
                                             "kind": "CustomResourceDefinition", "metadata": {"name": "x.y"}}))
    result = CliRunner().invoke(main, [str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml")])
    assert result.exit_code == 2
    assert result.output == f"specdiff: error: {tmp_path / 'new.yaml'}:1:1: CustomResourceDefinition x.y has no spec\n"


# -- reports --------------------------------------------------------------------------------------------
def test_reports_name_the_crd_the_version_and_the_field() -> None:
    old = load_text(dump(crd(versions=[version("v1beta1", properties={"a": {"type": "string", "enum": ["x"]}}),
                                       version("v1", storage=True)])), "old.yaml", None)
    new = load_text(dump(crd(versions=[version("v1beta1", properties={"a": {"type": "string", "enum": ["x", "y"]}}),
                                       version("v1", storage=True)], scope="Cluster")), "new.yaml", None)
    report = compare(old, new)
    text = render(report, "text", RenderOptions())
    assert "crd.scope-changed\n          frobs.example.com: scope Namespaced -> Cluster\n" in text
    assert ("schema.enum.value-added              example.com/v1beta1\n          Enum value `y` added to Frob.spec.a\n"
            in text)
    records = json.loads(render(report, "json"))["findings"]
    assert [r["location"] for r in records] == [
        {"label": "frobs.example.com", "document": "frobs.example.com"},
        {"label": "example.com/v1beta1 Frob.spec.a", "document": "frobs.example.com",
         "schema": "frobs.example.com/v1beta1", "path": ".spec.a",
         "group_version": "example.com/v1beta1", "gvk": "example.com/v1beta1/Frob"}]
    markdown = render(report, "markdown")
    assert "| `crd.scope-changed` | Frob | frobs.example.com: scope Namespaced -\\> Cluster |" in markdown


def test_a_malformed_when_in_a_rule_card_is_a_config_error(tmp_path: Path) -> None:
    from specdiff.classify.cards import _card
    from specdiff.errors import ConfigError

    raw = {"id": "x.y", "title": "t", "level": "breaking", "message": "m", "reason": "r", "docs": {},
           "when": [{"predicate": "was_deprecated"}]}
    with pytest.raises(ConfigError, match=r"'when' must be a list of \{predicate, level, reason, section\}"):
        _card(tmp_path, "x.yaml", raw)
    raw["when"] = [{"predicate": "was_deprecated", "level": "safe", "section": "news"}]
    with pytest.raises(ConfigError, match=r"unknown section 'news' \(one of deprecations, features, corrections, "
                                          r"unnoticed, other\)"):
        _card(tmp_path, "x.yaml", raw)


# -- served and storage as the API server reads them --------------------------------------------------
def _unflagged(*names: str, size: str = "integer") -> dict[str, Any]:
    """A CRD whose versions write neither `served` nor `storage`."""
    versions = [version(n, properties={"size": {"type": size}}) for n in names]
    for v in versions:
        del v["served"], v["storage"]
    return crd(versions=versions)


def _cli(tmp_path: Path, old: dict[str, Any], new: dict[str, Any]) -> tuple[int, str]:
    (tmp_path / "old.yaml").write_text(dump(old))
    (tmp_path / "new.yaml").write_text(dump(new))
    result = CliRunner().invoke(main, [str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"), "--format", "json"])
    return result.exit_code, result.output


def test_a_single_version_without_flags_is_read_as_served_and_stored_and_says_so(tmp_path: Path) -> None:
    code, output = _cli(tmp_path, _unflagged("v1"), _unflagged("v1", size="string"))
    report = json.loads(output)
    assert code == 1
    assert [(f["rule"], f["pointer"]) for f in report["findings"]] == [
        ("schema.type-changed", "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/size")]
    assumed = ("CustomResourceDefinition frobs.example.com version v1 writes neither served nor storage: read as "
               "served and stored, its only version")
    assert report["notes"] == [f"old: {assumed}", f"new: {assumed}"]


def test_a_crd_that_stores_no_version_or_two_is_refused_naming_it(tmp_path: Path) -> None:
    code, output = _cli(tmp_path, _unflagged("v1beta1", "v1"), _unflagged("v1beta1", "v1", size="string"))
    assert (code, output.strip()) == (2, f"specdiff: error: {tmp_path / 'old.yaml'}:11:3: CustomResourceDefinition "
                                         "frobs.example.com stores no version: the API server accepts exactly one "
                                         "version with storage: true")
    both = crd(versions=[version("v1beta1", storage=True), version("v1", storage=True)])
    code, output = _cli(tmp_path, crd(), both)
    assert (code, output.strip()) == (2, f"specdiff: error: {tmp_path / 'new.yaml'}:11:3: CustomResourceDefinition "
                                         "frobs.example.com marks 2 versions as storage (v1beta1, v1): the API server "
                                         "accepts exactly one version with storage: true")


def test_a_version_that_does_not_write_served_is_unserved_and_said(tmp_path: Path) -> None:
    def spec(size: str) -> dict[str, Any]:
        unsaid = version("v1beta1", properties={"size": {"type": size}})
        del unsaid["served"]
        return crd(versions=[unsaid, version("v1", storage=True)])
    code, output = _cli(tmp_path, spec("integer"), spec("string"))
    report = json.loads(output)
    assert (code, report["findings"]) == (0, [])
    unserved = ("CustomResourceDefinition frobs.example.com version v1beta1 does not write served: read as not "
                "served, as the API server reads it")
    assert report["notes"] == [f"old: {unserved}", f"new: {unserved}"]


def test_a_new_rule_that_does_not_compile_is_refused_by_the_api_server_through_the_command(tmp_path: Path) -> None:
    """`self.all(x, ` on a field the release adds is no safe addition: the API server refuses the CRD update."""
    items = {"type": "array", "items": {"type": "string"},
             "x-kubernetes-validations": [{"rule": "self.all(x, ", "message": "no empty names"}]}
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(dump(crd()))
    new.write_text(dump(crd(versions=[version("v1", storage=True, properties={"names": items})])))
    done = CliRunner().invoke(main, ["compare", "--no-config", "--format", "json", str(old), str(new)])
    assert done.exit_code == 1, done.output
    findings = [(f["rule"], f["pointer"], f["level"], f["reason"]) for f in json.loads(done.stdout)["findings"]]
    at = "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/names"
    assert findings == [
        ("kubernetes.validation.rule-added", f"{at}/x-kubernetes-validations/0", "breaking",
         "The API server refuses the CRD update that brings this rule (syntax error at column 11: near ', '): "
         "nothing can be applied until the rule is fixed."),
        ("schema.property.added", at, "safe", json.loads(done.stdout)["findings"][1]["reason"])]
