"""What the specs are (an API server's, CRDs, plain OpenAPI) comes from Kubernetes markers in them, never from path
prefixes; the policy follows it unless the user chooses one; the report says both, and why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import corpus
from rulecases import run_case

from specdiff.load import load
from specdiff.pipeline import run

OK = {"200": {"description": "ok"}}
USERS = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}


def users(required: list[str] | None = None, action: bool = False, **extra: Any) -> dict[str, Any]:
    schema = {**USERS, **({"required": required} if required else {}), **extra}
    get: dict[str, Any] = {"responses": {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/User"}}}}}}
    if action:
        get["x-kubernetes-action"] = "get"
    return {"paths": {"/api/v1/users": {"get": get}, "/apis/people/v1beta1/users": {"get": {"responses": OK}}},
            "components": {"schemas": {"User": schema}}}


def test_api_v1_paths_alone_are_an_ordinary_api() -> None:
    report = run_case({"old": users(), "new": users(["name"])})
    assert (report.policy, report.spec) == ("openapi", "OpenAPI (no Kubernetes markers)")
    assert [(f.rule, f.change.pointer, f.level.value, f.change.context.stability) for f in report.findings] == [
        ("schema.property.became-required", "/components/schemas/User/required", "safe", "stable")]


def test_an_operation_under_a_beta_looking_path_of_a_plain_api_is_not_beta() -> None:
    old = {"paths": {"/api/v1beta1/users": {"get": {"parameters": [
        {"name": "q", "in": "query", "schema": {"type": "string", "enum": ["a", "b"]}}], "responses": OK}}}}
    new = {"paths": {"/api/v1beta1/users": {"get": {"parameters": [
        {"name": "q", "in": "query", "schema": {"type": "string", "enum": ["a"]}}], "responses": OK}}}}
    report = run_case({"old": old, "new": new})
    assert [(f.rule, f.level.value, f.change.context.stability) for f in report.findings] == [
        ("schema.enum.value-removed", "breaking", "stable")]


@pytest.mark.parametrize(("old", "new", "reason"), [
    (users(), users(**{"x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "User"}]}),
     "x-kubernetes-group-version-kind on 1 schema"),
    (users(action=True), users(action=True), "x-kubernetes-* extensions in 1 place"),
    (users(**{"x-kubernetes-list-type": "atomic"}), users(), "x-kubernetes-* extensions in 1 place in the old spec"),
])
def test_kubernetes_markers_make_an_api_server_spec_and_choose_the_kubernetes_policy(
        old: dict[str, Any], new: dict[str, Any], reason: str) -> None:
    report = run_case({"old": old, "new": new})
    assert (report.policy, report.policy_reason, report.spec) == (
        "kubernetes", "Kubernetes markers", f"Kubernetes API server ({reason})")


def test_io_k8s_definitions_are_evidence() -> None:
    spec = {"components": {"schemas": {"io.k8s.api.core.v1.Pod": {"type": "object"}}}}
    report = run_case({"old": spec, "new": spec})
    assert (report.policy, report.spec) == ("kubernetes", "Kubernetes API server (1 io.k8s.* definition)")


def test_a_policy_asked_for_says_so_and_leaves_what_the_spec_is() -> None:
    report = run_case({"old": users(), "new": users(), "policy": "kubernetes", "today": "2026-01-15"})
    assert (report.policy, report.policy_reason, report.spec) == (
        "kubernetes", "as configured", "OpenAPI (no Kubernetes markers)")
    assert report.policy_label == ("spec: OpenAPI (no Kubernetes markers); policy: kubernetes (as configured); "
                                   "response readers: tolerant; as of 2026-01-15")


def zero_default(markers: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """A count that gains `default: 0`, in a spec with or without a Kubernetes marker."""
    def spec(count: dict[str, Any]) -> dict[str, Any]:
        kinds = {"x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "User"}]} if markers else {}
        return {"paths": {"/users": {"post": {"requestBody": {"content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/User"}}}}, "responses": {"200": {"description": "ok", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/User"}}}}}}}},
            "components": {"schemas": {"User": {"type": "object", "properties": {"count": count}, **kinds}}}}
    return spec({"type": "integer"}), spec({"type": "integer", "default": 0})


@pytest.mark.parametrize("markers", [True, False])
@pytest.mark.parametrize("policy", ["auto", "kubernetes", "openapi"])
def test_what_the_spec_is_decides_the_facts_and_the_policy_only_the_level(markers: bool, policy: str) -> None:
    """An added `default: 0` is no change where the server is a Kubernetes API server (a Go int field that is
    left out reads as 0), whichever policy judges it; in a plain OpenAPI spec it is a default added, which
    clients that fill in defaults themselves may notice, under either policy. The header names both."""
    old, new = zero_default(markers)
    report = run_case({"old": old, "new": new, "policy": policy})
    found = [(f.rule, f.change.pointer, f.level.value) for f in report.findings]
    in_force = policy if policy != "auto" else "kubernetes" if markers else "openapi"
    assert report.policy == in_force
    if markers:
        assert report.spec == "Kubernetes API server (x-kubernetes-group-version-kind on 1 schema)"
        assert found == []
    else:
        assert report.spec == "OpenAPI (no Kubernetes markers)"
        assert found == [("schema.default-added", "/components/schemas/User/properties/count/default", "dangerous")]


def test_real_specs() -> None:
    stripe = load(str(corpus("openapi/stripe/spec3-2020-04-03.json")))
    assert run(stripe, stripe).spec == "OpenAPI (no Kubernetes markers)"
    old = load(str(corpus("kubernetes/v2/swagger-v1.35.json")))
    assert run(old, old).spec == "Kubernetes API server (x-kubernetes-group-version-kind on 183 schemas)"
    crd = load(str(corpus("crds/gateway-api/gateways.standard.v1.4.0.yaml")))
    assert run(crd, crd).spec == "CustomResourceDefinitions (gateways.gateway.networking.k8s.io)"


def test_release_notes_of_a_plain_api_name_no_kubernetes_group_version(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from specdiff.cli import main

    old, new = users(), users()
    old["paths"]["/api/v1/users"]["post"] = {"tags": ["users"], "responses": OK}
    for name, spec in (("old.json", old), ("new.json", new)):
        (tmp_path / name).write_text(json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, **spec}))
    done = CliRunner().invoke(main, [str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--no-config",
                                     "--format", "release-notes"])
    assert "### users\n- Operation `POST /api/v1/users` removed." in done.output
    assert "core/v1" not in done.output


def pods(marked: bool, stated: bool) -> dict[str, Any]:
    """A spec that defines a bearer-token scheme, whose one operation may carry a Kubernetes marker
    (`x-kubernetes-action`) and may state its requirement."""
    get: dict[str, Any] = {"responses": OK, **({"x-kubernetes-action": "list"} if marked else {}),
                           **({"security": [{"BearerToken": []}]} if stated else {})}
    return {"components": {"securitySchemes": {"BearerToken": {"type": "apiKey", "in": "header",
                                                                "name": "authorization"}}},
            "paths": {"/api/v1/pods": {"get": get}}}


@pytest.mark.parametrize(("old", "new", "policy", "spec"), [
    (pods(marked=True, stated=True), pods(marked=False, stated=False), "auto",
     "Kubernetes API server (x-kubernetes-* extensions in 1 place in the old spec)"),
    (pods(marked=False, stated=False), pods(marked=True, stated=True), "auto",
     "Kubernetes API server (x-kubernetes-* extensions in 1 place)"),
    (pods(marked=True, stated=True), pods(marked=False, stated=False), "openapi",
     "Kubernetes API server (x-kubernetes-* extensions in 1 place in the old spec)"),
])
def test_a_requirement_left_out_is_read_by_what_both_specs_are_decided_to_be(
        old: dict[str, Any], new: dict[str, Any], policy: str, spec: str) -> None:
    """The versions disagree on Kubernetes markers; what the specs are is decided once, from both, and an
    operation that leaves out its requirement while schemes are defined says nothing in an API server's spec on
    either side (kube-openapi's per-group documents leave it out), whatever policy judges the changes."""
    report = run_case({"old": old, "new": new, "policy": policy})
    assert report.spec == spec
    assert [(f.rule, f.change.pointer, f.level.value) for f in report.findings] == []


@pytest.mark.parametrize(("old", "new", "found"), [
    (pods(marked=False, stated=True), pods(marked=False, stated=False),
     ("security.anonymous-allowed", "/paths/~1api~1v1~1pods/get/security", "safe")),
    (pods(marked=False, stated=False), pods(marked=False, stated=True),
     ("security.authentication-required", "/paths/~1api~1v1~1pods/get/security", "breaking")),
])
def test_in_a_plain_spec_a_requirement_left_out_lets_anyone_call(old: dict[str, Any], new: dict[str, Any],
                                                                  found: tuple[str, str, str]) -> None:
    report = run_case({"old": old, "new": new})
    assert report.spec == "OpenAPI (no Kubernetes markers)"
    assert [(f.rule, f.change.pointer, f.level.value) for f in report.findings] == [found]
