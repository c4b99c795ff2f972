"""What each change is about (group/version, resource, kind) is decided by the graph and carried on the change's
context; the report layer groups findings by that alone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import corpus
from rulecases import run_case

from specdiff.graph import graph_of as build
from specdiff.graph.subjects import kubernetes_resource, subject, users_subject
from specdiff.load import load, load_text
from specdiff.records import Change, Context, Finding, Level
from specdiff.report.sections import Subject, subject_of

OK = {"200": {"description": "ok"}}


def _returns(name: str, action: str = "list") -> dict[str, Any]:
    return {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
        "$ref": f"#/components/schemas/{name}"}}}}}, "x-kubernetes-action": action}


def _gvk(kind: str) -> dict[str, Any]:
    return {"x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": kind}]}


def _apps(spec_properties: dict[str, Any], with_operations: bool = True) -> dict[str, Any]:
    prefix = "/apis/apps/v1/namespaces/{namespace}/deployments"
    paths = {prefix: {"get": _returns("io.k8s.api.apps.v1.DeploymentList")},
             prefix + "/{name}/status": {"get": _returns("io.k8s.api.apps.v1.Deployment", "get")},
             "/apis/apps/v1/": {"get": {"responses": OK, "x-kubernetes-action": "get"}}} if with_operations else {}
    return {"paths": paths, "components": {"schemas": {
        "io.k8s.api.apps.v1.DeploymentList": {"type": "object", "properties": {"items": {"type": "array", "items": {
            "$ref": "#/components/schemas/io.k8s.api.apps.v1.Deployment"}}}, **_gvk("DeploymentList")},
        "io.k8s.api.apps.v1.Deployment": {"type": "object", "properties": {"spec": {
            "$ref": "#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec"}}, **_gvk("Deployment")},
        "io.k8s.api.apps.v1.DeploymentSpec": {"type": "object", "properties": spec_properties}}}}


def test_kubernetes_paths_name_their_resource_and_subresource() -> None:
    assert [kubernetes_resource(path) for path in (
        "/api/v1/pods", "/api/v1/namespaces/{namespace}/pods/{name}", "/api/v1/watch/namespaces/{n}/pods/{name}",
        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale", "/api/v1/nodes/{name}/proxy/{path}",
        "/apis/apps/v1/")] == ["pods", "pods", "pods", "deployments/scale", "nodes/proxy", None]


def test_the_graph_gives_each_operation_its_resource_and_the_kind_it_serves() -> None:
    doc = load_text(json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, **_apps({})}), "a.json",
                    None)
    graph = build(doc)
    assert {op.label: subject(graph, op) for op in graph.operations.values()} == {
        "GET /apis/apps/v1/namespaces/{namespace}/deployments": ("deployments", "apps/v1/Deployment"),
        "GET /apis/apps/v1/namespaces/{namespace}/deployments/{name}/status": (
            "deployments/status", "apps/v1/Deployment"),
        "GET /apis/apps/v1/": (None, None)}
    assert users_subject(graph, graph.schemas["io.k8s.api.apps.v1.DeploymentSpec"]) == (None, "apps/v1/Deployment")



def test_a_response_written_in_another_file_names_the_kind_of_the_schema_in_that_file(tmp_path: Path) -> None:
    """responses.json's `#/x-lib/DeploymentList` is responses.json's, not the spec's own `x-lib` entry."""
    def holding(kind: str) -> dict[str, Any]:
        return {"x-lib": {"DeploymentList": {"type": "object", **_gvk(kind)}}}

    (tmp_path / "api.json").write_text(json.dumps({
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"}, **holding("ReplicaSetList"),
        "paths": {"/apis/apps/v1/namespaces/{namespace}/deployments": {"get": {"responses": {
            "200": {"$ref": "responses.json#/List"}}}}}}))
    (tmp_path / "responses.json").write_text(json.dumps({**holding("DeploymentList"), "List": {
        "description": "ok", "content": {"application/json": {"schema": {"$ref": "#/x-lib/DeploymentList"}}}}}))
    graph = build(load(str(tmp_path / "api.json")))
    assert [subject(graph, op) for op in graph.operations.values()] == [("deployments", "apps/v1/Deployment")]

def test_findings_carry_group_version_resource_and_kind_on_their_context() -> None:
    report = run_case({"old": _apps({"replicas": {"type": "integer"}}), "new": _apps({}), "policy": "kubernetes"})
    [finding] = report.findings
    ctx = finding.change.context
    assert (finding.rule, finding.change.pointer) == (
        "schema.property.removed", "/components/schemas/io.k8s.api.apps.v1.DeploymentSpec/properties/replicas")
    assert (ctx.group_version, ctx.kind, ctx.resource) == ("apps/v1", "apps/v1/Deployment", None)
    assert subject_of(finding) == Subject("apps/v1", "Deployment")


def test_a_schema_only_finding_is_grouped_by_the_kind_that_holds_it_without_any_operation() -> None:
    report = run_case({"old": _apps({"replicas": {"type": "integer"}}, with_operations=False),
                       "new": _apps({}, with_operations=False), "policy": "kubernetes"})
    [finding] = report.findings
    assert finding.operations == ()
    assert subject_of(finding) == Subject("apps/v1", "Deployment")


def test_report_grouping_reads_only_the_context() -> None:
    def finding(**context: Any) -> Finding:
        return Finding("schema.property.removed", Level.BREAKING, "m", "r",
                       Change("removed", "property", "", None, None, "both", Context(**context), "/x"),
                       operations=("GET /an/operation/no/table/knows",))

    assert subject_of(finding(schema="Spec", group_version="apps/v1", kind="apps/v1/Deployment")) == Subject(
        "apps/v1", "Deployment")
    assert subject_of(finding(method="GET", route="/x", group_version="core/v1", resource="pods/status")) == Subject(
        "core/v1", "pods")
    assert subject_of(finding(method="GET", route="/pets", resource="pets")) == Subject("pets")
    assert subject_of(finding(schema="Pet")) == Subject("Shared types", "Pet")
    assert subject_of(finding(schema="io.k8s.api.core.v1.PodSpec", group_version="core/v1")) == Subject(
        "core/v1", "PodSpec", shared=True)  # a type several kinds use: the release notes head it by group-version


def test_operations_of_other_apis_are_grouped_by_tag_and_their_schemas_with_them() -> None:
    def spec(size: dict[str, Any]) -> dict[str, Any]:
        return {"paths": {"/pets": {"get": {"tags": ["pets"], "responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}},
                "components": {"schemas": {"Pet": {"type": "object", "properties": {"size": size}}}}}

    [finding] = run_case({"old": spec({"type": "string"}), "new": spec({"type": "integer"})}).findings
    assert (finding.change.context.resource, finding.change.context.kind) == ("pets", None)
    assert subject_of(finding) == Subject("pets")


def test_a_crd_wide_change_is_about_the_kind_at_its_stored_version() -> None:
    def frobs(scope: str) -> dict[str, Any]:
        return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                "metadata": {"name": "frobs.example.com"},
                "spec": {"group": "example.com", "names": {"kind": "Frob", "plural": "frobs"}, "scope": scope,
                         "versions": [{"name": "v1beta1", "served": True, "storage": False},
                                      {"name": "v1", "served": True, "storage": True}]}}

    [finding] = run_case({"old": frobs("Namespaced"), "new": frobs("Cluster")}).findings
    assert (finding.rule, finding.change.pointer, finding.change.context.kind) == (
        "crd.scope-changed", "/spec/scope", "example.com/v1/Frob")
    assert subject_of(finding) == Subject("example.com/v1", "Frob")


def test_what_a_schema_is_about_does_not_depend_on_which_schemas_were_asked_first() -> None:
    """users_subject keeps each finished walk for later walks that reach the same schema: asked in any order,
    every schema of a real spec is about the same resource or kind."""
    path = str(corpus("kubernetes/v2/swagger-v1.35.json"))
    forward, backward = build(load(path)), build(load(path))
    names = sorted(name for name, schema in forward.schemas.items() if not schema.gvk)
    first = {name: users_subject(forward, forward.schemas[name]) for name in names}
    second = {name: users_subject(backward, backward.schemas[name]) for name in reversed(names)}
    assert first == second
    assert first["io.k8s.api.apps.v1.DeploymentSpec"] == (None, "apps/v1/Deployment")
