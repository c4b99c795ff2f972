"""Per-group OpenAPI v3 directories: documents matched by group-version, one merged report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import CORPORA, real_pair

from specdiff.cli import main
from specdiff.load import load
from specdiff.load.files import inside
from specdiff.pipeline import run
from specdiff.records import Report

V3 = "kubernetes/v3/"


compare = real_pair


def group_versions(report: Report) -> dict[tuple[str, str], str]:
    """(added|removed, group-version) -> level of the group-version findings."""
    return {(f.change.kind, str(f.change.old or f.change.new)): f.level.value
            for f in report.findings if f.rule.startswith("group-version.")}


def test_v1_27_to_v1_30_reports_the_group_versions_that_came_and_went() -> None:
    found = group_versions(compare(V3 + "v1.27", V3 + "v1.30"))
    assert found == {
        ("removed", "flowcontrol.apiserver.k8s.io/v1beta2"): "breaking",
        ("added", "admissionregistration.k8s.io/v1beta1"): "safe",
        ("added", "flowcontrol.apiserver.k8s.io/v1"): "safe",
        ("added", "storage.k8s.io/v1alpha1"): "safe",
        ("added", "storagemigration.k8s.io/v1alpha1"): "safe",
    }


def test_v1_30_to_v1_35_removes_claim_source_and_grows_pod_spec() -> None:
    report = compare(V3 + "v1.30", V3 + "v1.35")
    source = next(f for f in report.findings if f.change.pointer
                  == "/components/schemas/io.k8s.api.core.v1.PodResourceClaim/properties/source")
    # the type goes with the field that used it: one finding, the type a member of its own rule
    assert [(m.rule, m.change.pointer) for m in source.members] == [
        ("schema.property.removed", source.change.pointer),
        ("schema.removed", "/components/schemas/io.k8s.api.core.v1.ClaimSource")]
    added = {f.change.pointer.rpartition("/")[2] for f in report.findings if f.rule == "schema.property.added"
             and f.change.pointer.startswith("/components/schemas/io.k8s.api.core.v1.PodSpec/")}
    assert {"hostnameOverride", "resources", "workloadRef"} <= added
    # shared schemas are in many documents; a change to one is reported once, not once per document
    named = [(f.rule, f.change.pointer) for f in report.findings if f.change.pointer.startswith("/components/")]
    assert named and len(named) == len(set(named))


def test_v1_23_to_v1_24_operations_that_start_writing_their_kubernetes_markers_change_nothing() -> None:
    """The 1.23 folder's operations carry no x-kubernetes-action or group-version-kind; 1.24's do: the spec
    describing its operations, not a change a client sees (771 unclassified findings before)."""
    report = compare(V3 + "v1.23", V3 + "v1.24")
    assert [f.change.pointer for f in report.findings if f.rule == "specdiff.unclassified"] == []


def test_findings_point_into_the_document_they_come_from() -> None:
    report = compare(V3 + "v1.30", V3 + "v1.35")
    claim = next(m for f in report.findings for m in f.members if m.rule == "schema.removed"
                 and m.change.pointer.endswith("/io.k8s.api.core.v1.ClaimSource"))
    assert claim.change.context.document == "core/v1"


def _v3_dirs() -> list[str]:
    root = CORPORA / "kubernetes" / "v3"
    return sorted(p.name for p in root.iterdir()) if root.is_dir() else ["(corpora absent)"]


@pytest.mark.parametrize("version", _v3_dirs())
def test_every_v3_directory_against_itself_reports_nothing(version: str) -> None:
    report = compare(V3 + version, V3 + version)
    assert [(f.rule, f.change.pointer) for f in report.findings] == []


def test_v2_against_v3_of_the_same_release_reports_only_real_differences() -> None:
    """The per-group folder has no discovery documents (/apis/, /version/, ...), so the swagger.json's operations
    there are not compared (a note says so), and it publishes defaults the swagger.json leaves out; everything
    else (names, unions Swagger 2.0 cannot write, zero-value defaults, parameter and body spellings) compares
    equal."""
    report = compare("kubernetes/v2/swagger-v1.35.json", V3 + "v1.35")
    assert {f.rule for f in report.findings} == {"schema.removed", "schema.default-added"}
    assert report.notes == (
        "old: 29 operations described in no document of the v3 folder "
        f"{CORPORA / (V3 + 'v1.35')} (discovery and non-resource URLs: GET /.well-known/openid-configuration/, "
        "GET /api/, GET /apis/ and 26 more) are not compared",)
    removed_schemas = {f.change.old for f in report.findings if f.rule == "schema.removed"}
    assert removed_schemas == {"io.k8s.apimachinery.pkg.apis.meta.v1." + n for n in (
        "APIGroup", "APIGroupList", "APIVersions", "GroupVersionForDiscovery", "ServerAddressByClientCIDR")} | {
        "io.k8s.apimachinery.pkg.version.Info"}
    defaults = {f.change.pointer.split("/")[3] + "." + f.change.pointer.split("/")[5]: f.change.new
                for f in report.findings if f.rule == "schema.default-added"}
    assert defaults["io.k8s.api.core.v1.ContainerPort.protocol"] == "TCP"
    assert all(value not in ("", 0, False, {}, []) for value in defaults.values())


# -- small directories written by the test ---------------------------------------------------------------
def _doc(group_version: str, kinds: dict[str, dict[str, Any]]) -> dict[str, Any]:
    group, _, version = group_version.rpartition("/")
    prefix = f"/apis/{group}/{version}" if group else f"/api/{version}"
    schemas = {f"com.example.{version}.{kind}": {**schema, "x-kubernetes-group-version-kind": [
        {"group": group, "version": version, "kind": kind}]} for kind, schema in kinds.items()}
    paths = {f"{prefix}/{kind.lower()}s": {"get": {"responses": {"200": {"description": "OK", "content": {
        "application/json": {"schema": {"$ref": f"#/components/schemas/com.example.{version}.{kind}"}}}}}}}
        for kind in kinds}
    return {"openapi": "3.0.0", "info": {"title": "Kubernetes", "version": "unversioned"}, "paths": paths,
            "components": {"schemas": schemas}}


def _write(folder: Path, docs: dict[str, dict[str, Any]]) -> Path:
    folder.mkdir()
    for group_version, doc in docs.items():
        group, _, version = group_version.rpartition("/")
        name = f"apis__{group}__{version}_openapi.json" if group else f"api__{version}_openapi.json"
        (folder / name).write_text(json.dumps(doc))
    return folder


def test_a_document_added_and_one_removed_are_group_versions(tmp_path: Path) -> None:
    frob = {"Frobber": {"type": "object", "properties": {"size": {"type": "integer"}}}}
    old = _write(tmp_path / "old", {"example.com/v1beta1": _doc("example.com/v1beta1", frob),
                                    "example.com/v1": _doc("example.com/v1", frob)})
    grown = {"Frobber": {"type": "object", "properties": {"size": {"type": "integer"}, "color": {"type": "string"}}}}
    new = _write(tmp_path / "new", {"example.com/v1": _doc("example.com/v1", grown),
                                    "example.com/v2": _doc("example.com/v2", frob)})
    report = run(load(str(old)), load(str(new)))
    assert sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings) == [
        ("group-version.added", "", "safe"),
        ("group-version.removed", "", "breaking"),
        ("schema.property.added", "/components/schemas/com.example.v1.Frobber/properties/color", "safe"),
    ]
    assert group_versions(report) == {("added", "example.com/v2"): "safe",
                                      ("removed", "example.com/v1beta1"): "breaking"}


def test_a_whole_document_against_a_folder_compares_every_group_version_and_no_discovery(tmp_path: Path) -> None:
    """A swagger.json-like document (one file, discovery and non-resource paths included) against a folder that
    holds only group-version documents: a group-version the folder lacks is still removed, while `/api/`,
    `/apis/example.com/` and `/version/`, which only documents of their own would describe, are not compared."""
    frob = {"Frobber": {"type": "object", "properties": {"size": {"type": "integer"}}}}
    whole = _doc("example.com/v1", frob)
    beta = _doc("example.com/v1beta1", frob)
    whole["paths"].update(beta["paths"])
    whole["components"]["schemas"].update(beta["components"]["schemas"])
    for path in ("/api/", "/apis/example.com/", "/version/"):
        whole["paths"][path] = {"get": {"responses": {"200": {"description": "OK"}}}}
    (tmp_path / "swagger.json").write_text(json.dumps(whole))
    folder = _write(tmp_path / "v3", {"example.com/v1": _doc("example.com/v1", frob)})
    report = run(load(str(tmp_path / "swagger.json")), load(str(folder)), grouped=False)
    assert sorted((f.rule, f.change.pointer, f.level.value) for f in report.findings) == [
        ("group-version.removed", "/paths/~1apis~1example.com~1v1beta1~1frobbers", "breaking")]
    assert report.notes == (f"old: 3 operations described in no document of the v3 folder {folder} (discovery and "
                            "non-resource URLs: GET /api/, GET /apis/example.com/, GET /version/) are not compared",)


def test_directories_on_the_command_line(tmp_path: Path) -> None:
    frob = {"Frobber": {"type": "object"}}
    old = _write(tmp_path / "old", {"example.com/v1": _doc("example.com/v1", frob)})
    new = _write(tmp_path / "new", {"example.com/v1": _doc("example.com/v1", frob),
                                    "example.com/v2": _doc("example.com/v2", frob)})
    result = CliRunner().invoke(main, [str(old), str(new), "--format", "json"])
    assert result.exit_code == 0, result.output
    findings = json.loads(result.output)["findings"]
    assert [(f["rule"], f["location"]) for f in findings] == [
        ("group-version.added", {"label": "example.com/v2", "group_version": "example.com/v2",
                                  "document": "example.com/v2"})]


def test_an_empty_directory_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(main, [str(tmp_path / "empty"), str(tmp_path / "empty")])
    assert result.exit_code == 2
    assert result.output.strip().endswith("empty: directory holds no .json or .yaml spec files")


def test_a_folder_entry_that_links_out_of_the_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    """The rule a `$ref` follows holds for a folder's own files: a symlink to a spec elsewhere is not read."""
    spec = json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}})
    for side in ("old", "new", "elsewhere"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "apis__a__v1_openapi.json").write_text(spec)
    (tmp_path / "new" / "apis__b__v1_openapi.json").symlink_to(tmp_path / "elsewhere" / "apis__a__v1_openapi.json")
    (tmp_path / "old" / "apis__c__v1_openapi.json").symlink_to("apis__a__v1_openapi.json")  # inside: read
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["old", "new", "--no-config"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "specdiff: error: new/apis__b__v1_openapi.json: a symlink that leaves the folder (refused)\n")
    (tmp_path / "new" / "apis__b__v1_openapi.json").unlink()
    assert CliRunner().invoke(main, ["old", "new", "--no-config"]).exit_code == 1  # c/v1 removed is breaking


def test_a_file_is_inside_a_folder_by_whole_names_after_its_links_are_followed(tmp_path: Path) -> None:
    for folder in ("a", "ab"):
        (tmp_path / folder).mkdir()
    (tmp_path / "ab" / "spec.json").write_text("{}")
    (tmp_path / "a" / "link.json").symlink_to(tmp_path / "ab" / "spec.json")
    a, spec = tmp_path / "a", tmp_path / "ab" / "spec.json"
    assert [inside(a / "link.json", a), inside(str(spec), str(a)), inside(a, a), inside(a / "link.json", tmp_path)] == [
        False, False, True, True]
