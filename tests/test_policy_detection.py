"""The policy comes from Kubernetes markers in the specs, never from path prefixes, and the report says why."""

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
    assert (report.policy, report.policy_reason) == ("openapi", "no Kubernetes markers")
    assert [(f.rule, f.change.pointer, f.level.value, f.change.context.stability) for f in report.findings] == [
        ("schema.property.became-required", "/components/schemas/User/required", "safe", "ga")]


def test_an_operation_under_a_beta_looking_path_of_a_plain_api_is_not_beta() -> None:
    old = {"paths": {"/api/v1beta1/users": {"get": {"parameters": [
        {"name": "q", "in": "query", "schema": {"type": "string", "enum": ["a", "b"]}}], "responses": OK}}}}
    new = {"paths": {"/api/v1beta1/users": {"get": {"parameters": [
        {"name": "q", "in": "query", "schema": {"type": "string", "enum": ["a"]}}], "responses": OK}}}}
    report = run_case({"old": old, "new": new})
    assert [(f.rule, f.level.value, f.change.context.stability) for f in report.findings] == [
        ("schema.enum.value-removed", "breaking", "ga")]


@pytest.mark.parametrize(("old", "new", "reason"), [
    (users(), users(**{"x-kubernetes-group-version-kind": [{"group": "", "version": "v1", "kind": "User"}]}),
     "x-kubernetes-group-version-kind on 1 schema"),
    (users(action=True), users(action=True), "x-kubernetes-* extensions in 1 place"),
    (users(**{"x-kubernetes-list-type": "atomic"}), users(), "x-kubernetes-* extensions in 1 place in the old spec"),
])
def test_kubernetes_markers_choose_the_kubernetes_policy(old: dict[str, Any], new: dict[str, Any],
                                                         reason: str) -> None:
    report = run_case({"old": old, "new": new})
    assert (report.policy, report.policy_reason) == ("kubernetes", reason)


def test_io_k8s_definitions_are_evidence() -> None:
    spec = {"components": {"schemas": {"io.k8s.api.core.v1.Pod": {"type": "object"}}}}
    report = run_case({"old": spec, "new": spec})
    assert (report.policy, report.policy_reason) == ("kubernetes", "1 io.k8s.* definition")


def test_a_policy_asked_for_says_so() -> None:
    report = run_case({"old": users(), "new": users(), "policy": "kubernetes"})
    assert (report.policy, report.policy_reason) == ("kubernetes", "as configured")


def test_real_specs() -> None:
    stripe = load(str(corpus("openapi/stripe/spec3-2020-04-03.json")))
    assert (run(stripe, stripe).policy_reason) == "no Kubernetes markers"
    old = load(str(corpus("kubernetes/v2/swagger-v1.35.json")))
    assert run(old, old).policy_reason == "x-kubernetes-group-version-kind on 183 schemas"
    crd = load(str(corpus("crds/gateway-api/gateways.standard.v1.4.0.yaml")))
    assert run(crd, crd).policy_reason == "CustomResourceDefinition gateways.gateway.networking.k8s.io"


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
