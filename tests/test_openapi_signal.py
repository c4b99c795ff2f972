"""Real OpenAPI specs, judged on the wire through the whole command: a reference that now names another schema
with the same JSON is one safe note (GitHub's `simple-user` split), operationIds renamed in one release are one
finding, and what a server accepts may widen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import real_pair

from specdiff.cli import main

GITHUB = "openapi/github/api.github.com-{}.json"


def _spec(schemas: dict[str, Any], owner: str, creator: str) -> dict[str, Any]:
    """Repos answered with an owner and a creator, each naming a user schema, and members that stay `User`s."""
    return {"openapi": "3.0.3", "info": {"title": "repos", "version": "1"},
            "paths": {"/repos": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Repo"}}}}}}}},
            "components": {"schemas": {**schemas, "Repo": {"type": "object", "properties": {
                "owner": {"$ref": f"#/components/schemas/{owner}"},
                "creator": {"$ref": f"#/components/schemas/{creator}"},
                "members": {"type": "array", "items": {"$ref": "#/components/schemas/User"}}}}}}}


USER = {"type": "object", "nullable": True, "properties": {"login": {"type": "string"}}}


def _findings(tmp_path: Path, old: dict[str, Any], new: dict[str, Any], *args: str) -> tuple[int, list[Any]]:
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    done = CliRunner().invoke(main, [str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--format", "json",
                                     "--no-config", *args])
    report = json.loads(done.stdout)
    return done.exit_code, sorted((f["level"], f["rule"], f["pointer"], len(f.get("members", [])))
                                  for f in report["findings"])


def test_fields_moved_to_a_copy_of_their_schema_are_one_safe_note(tmp_path: Path) -> None:
    old = _spec({"User": USER}, "User", "User")
    new = _spec({"User": {**USER, "nullable": False}, "NullableUser": USER}, "NullableUser", "NullableUser")
    code, found = _findings(tmp_path, old, new, "--fail-on", "dangerous")
    assert found == [
        ("safe", "schema.added", "/components/schemas/NullableUser", 0),
        ("safe", "schema.nullable-removed", "/components/schemas/User", 0),
        ("safe", "schema.reference-changed", "/components/schemas/Repo/properties/creator/$ref", 2),
    ]
    assert code == 0


def test_a_schema_that_refers_to_itself_moved_to_a_copy_is_one_safe_note(tmp_path: Path) -> None:
    """`User.manager` is a `User`: asking whether the copy sends the same JSON meets the same question inside,
    which is answered once (it nested without end, then failed as schemas nesting too deeply)."""
    user = {**USER, "properties": {"login": {"type": "string"}, "manager": {"$ref": "#/components/schemas/User"}}}
    copy = {**USER, "properties": {"login": {"type": "string"},
                                   "manager": {"$ref": "#/components/schemas/NullableUser"}}}
    old = _spec({"User": user}, "User", "User")
    new = _spec({"User": user, "NullableUser": copy}, "NullableUser", "NullableUser")
    code, found = _findings(tmp_path, old, new, "--fail-on", "dangerous")
    assert (code, found) == (0, [
        ("safe", "schema.added", "/components/schemas/NullableUser", 0),
        ("safe", "schema.reference-changed", "/components/schemas/Repo/properties/creator/$ref", 3)])


def test_fields_moved_to_a_schema_that_sends_other_json_are_one_change_at_its_worst_level(tmp_path: Path) -> None:
    other = {**USER, "properties": {"login": {"type": "integer"}}}
    old = _spec({"User": USER}, "User", "User")
    new = _spec({"User": USER, "Account": other}, "Account", "User")
    code, found = _findings(tmp_path, old, new, "--fail-on", "dangerous")
    assert found == [  # the move and the type change it brings
        ("breaking", "schema.reference-changed", "/components/schemas/Repo/properties/owner/$ref", 2),
        ("safe", "schema.added", "/components/schemas/Account", 0),
    ]
    assert code == 1


def test_github_simple_user_split_is_one_safe_note() -> None:
    """GitHub 2021-10: 70 fields moved from `simple-user` (nullable) to `nullable-simple-user`, its copy."""
    report = real_pair(GITHUB.format("2021-05-12"), GITHUB.format("2021-10-10"))
    moved = [f for f in report.findings if f.rule == "schema.reference-changed"
             and (f.change.old, f.change.new) == ("simple-user", "nullable-simple-user")]
    assert [(f.level.value, f.change.pointer, len(f.members)) for f in moved] == [
        ("safe", "/components/schemas/application-grant/properties/user/$ref", 70)]
    removed = {f.change.old: f.level.value for f in report.findings if f.rule == "schema.removed"}
    assert removed["community-health-file"] == removed["git-user"] == "safe"


@pytest.mark.parametrize("name", ["issue-simple"])
def test_github_a_field_moved_to_a_larger_schema_stays_dangerous(name: str) -> None:
    """`event.payload.issue` now names `issue`, which sends more than `issue-simple` did."""
    report = real_pair(GITHUB.format("2021-05-12"), GITHUB.format("2021-10-10"))
    levels = {f.level.value for f in report.findings if f.rule == "schema.reference-changed" and f.change.old == name}
    assert levels == {"dangerous"}


def test_operation_ids_renamed_in_one_release_are_one_finding(tmp_path: Path) -> None:
    def spec(prefix: str) -> dict[str, Any]:
        return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {
            f"/{name}": {"get": {"operationId": f"{prefix}{name}", "responses": {"200": {"description": "ok"}}}}
            for name in ("frobs", "gizmos", "widgets")}}

    code, found = _findings(tmp_path, spec("list-"), spec("list/"), "--fail-on", "dangerous")
    assert (code, found) == (1, [("dangerous", "operation.id-changed", "/paths/~1frobs/get", 3)])


def test_github_operation_ids_renamed_in_2021_10_are_one_finding() -> None:
    report = real_pair(GITHUB.format("2021-05-12"), GITHUB.format("2021-10-10"))
    renamed = [f for f in report.findings if f.rule == "operation.id-changed"]
    assert [(f.level.value, len(f.members)) for f in renamed] == [("dangerous", 21)]


def test_a_query_parameter_from_integer_to_string_is_a_widening(tmp_path: Path) -> None:
    """What a server accepts widens: `?page=2` is an integer and a string alike."""
    def spec(kind: str) -> dict[str, Any]:
        return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/groups": {"get": {
            "parameters": [{"name": "page", "in": "query", "schema": {"type": kind}}],
            "responses": {"200": {"description": "ok"}}}}}}

    assert _findings(tmp_path, spec("integer"), spec("string")) == (
        0, [("safe", "schema.type-changed", "/paths/~1groups/get/parameters/0/schema", 0)])
    assert _findings(tmp_path, spec("string"), spec("integer")) == (
        1, [("breaking", "schema.type-changed", "/paths/~1groups/get/parameters/0/schema", 0)])


def test_a_read_only_property_removed_from_a_request_body_is_no_request_change(tmp_path: Path) -> None:
    def spec(**properties: Any) -> dict[str, Any]:
        body = {"content": {"application/json": {"schema": {"type": "object", "properties": properties}}}}
        return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/tickets": {"post": {
            "requestBody": body, "responses": {"201": {"description": "ok"}}}}}}

    old = spec(email={"type": "string"}, id={"type": "string", "readOnly": True})
    assert _findings(tmp_path, old, spec(email={"type": "string"}), "--fail-on", "dangerous") == (0, [
        ("safe", "schema.property.removed",
         "/paths/~1tickets/post/requestBody/content/application~1json/schema/properties/id", 0)])


def _yaml_findings(tmp_path: Path, old: str, new: str) -> tuple[int, list[Any]]:
    (tmp_path / "old.yaml").write_text(old)
    (tmp_path / "new.yaml").write_text(new)
    done = CliRunner().invoke(main, [str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml"), "--format", "json",
                                     "--no-config", "--fail-on", "dangerous"])
    found = json.loads(done.stdout)["findings"]
    return done.exit_code, sorted((f["level"], f["rule"], f["pointer"], f["message"]) for f in found)


def _bounded(version: str, minimum: str) -> str:
    return (f"openapi: {version}\ninfo: {{title: t, version: '1'}}\npaths:\n  /frobs:\n    get:\n      parameters:\n"
            f"        - {{name: ratio, in: query, schema: {{type: number, minimum: {minimum}}}}}\n"
            "      responses: {'200': {description: ok}}\n")


def test_openapi_3_1_yaml_reads_numbers_as_yaml_1_2_does(tmp_path: Path) -> None:
    """`1e-08` and `1e-8` are one number in YAML 1.2, which OpenAPI 3.1 is written in (YAML 1.1 reads strings)."""
    assert _yaml_findings(tmp_path, _bounded("3.1.0", "1e-08"), _bounded("3.1.0", "1e-8")) == (0, [])
    assert _yaml_findings(tmp_path, _bounded("3.1.0", "1e-08"), _bounded("3.1.0", "1e-7")) == (1, [
        ("breaking", "schema.constraint-tightened", "/paths/~1frobs/get/parameters/0/schema/minimum",
         "minimum of GET /frobs query parameter ratio tightened (1e-08 -> 1e-07)")])


def test_a_quoted_number_stays_a_string_in_openapi_3_1_yaml(tmp_path: Path) -> None:
    """Quoted, `'1e-08'` is text in every YAML: two different texts, compared as written."""
    assert _yaml_findings(tmp_path, _bounded("3.1.0", "'1e-08'"), _bounded("3.1.0", "'1e-8'")) == (1, [
        ("breaking", "schema.constraint-tightened", "/paths/~1frobs/get/parameters/0/schema/minimum",
         "minimum of GET /frobs query parameter ratio tightened (1e-08 -> 1e-8)")])


def _union(keyword: str, *branches: dict[str, Any]) -> dict[str, Any]:
    body = {"content": {"application/json": {"schema": {keyword: list(branches)}}}}
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/labels": {"put": {
        "requestBody": body, "responses": {"200": {"description": "ok"}}}}}}


def test_an_any_of_written_as_a_one_of_over_the_same_branches_is_one_change(tmp_path: Path) -> None:
    """Disjoint branches: the same values written another way; branches a value may match two of (an object
    with `labels` as strings or as objects: `{labels: []}` is both): GitHub's PUT labels, now refused."""
    disjoint = ({"type": "string"}, {"type": "array", "items": {"type": "string"}})
    assert _findings(tmp_path, _union("anyOf", *disjoint), _union("oneOf", *disjoint)) == (0, [
        ("safe", "schema.union-keyword-changed",
         "/paths/~1labels/put/requestBody/content/application~1json/schema/oneOf", 0)])
    overlapping = ({"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "string"}}}},
                   {"type": "object", "properties": {"labels": {"type": "array", "items": {"type": "object"}}}})
    assert _findings(tmp_path, _union("anyOf", *overlapping), _union("oneOf", *overlapping)) == (1, [
        ("breaking", "schema.union-keyword-changed",
         "/paths/~1labels/put/requestBody/content/application~1json/schema/oneOf", 0)])


def test_an_oauth_token_url_that_moved_is_breaking_as_a_server_url_is(tmp_path: Path) -> None:
    def spec(token_url: str) -> dict[str, Any]:
        flows = {"clientCredentials": {"tokenUrl": token_url, "scopes": {"read": "r"}}}
        return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                "components": {"securitySchemes": {"oauth": {"type": "oauth2", "flows": flows}}},
                "paths": {"/pets": {"get": {"security": [{"oauth": ["read"]}],
                                            "responses": {"200": {"description": "ok"}}}}}}

    assert _findings(tmp_path, spec("https://api.example.com/token"), spec("https://auth.example.com/token")) == (1, [
        ("breaking", "security.scheme.flow-url-changed",
         "/components/securitySchemes/oauth/flows/clientCredentials/tokenUrl", 0)])


def test_swagger_2_schemes_added_to_the_same_host_is_no_host_move(tmp_path: Path) -> None:
    def spec(host: str, **schemes: Any) -> dict[str, Any]:
        return {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "host": host, "basePath": "/api",
                **schemes, "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}}}

    assert _findings(tmp_path, spec("slack.com"), spec("slack.com", schemes=["https"])) == (0, [
        ("safe", "server.url-changed", "/basePath", 0)])
    assert _findings(tmp_path, spec("slack.com"), spec("api.slack.com", schemes=["https"])) == (1, [
        ("breaking", "server.url-changed", "/basePath", 0)])


def test_a_parameter_moved_from_the_query_to_a_header_is_one_breaking_change(tmp_path: Path) -> None:
    def spec(location: str) -> dict[str, Any]:
        return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/frobs": {"get": {
            "parameters": [{"name": "trace", "in": location, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "ok"}}}}}}

    assert _findings(tmp_path, spec("query"), spec("header")) == (1, [
        ("breaking", "parameter.moved", "/paths/~1frobs/get/parameters/0/schema", 0)])


def test_a_type_list_written_as_an_any_of_of_its_types_is_no_change(tmp_path: Path) -> None:
    def spec(field: dict[str, Any]) -> dict[str, Any]:
        body = {"content": {"application/json": {"schema": {"type": "object", "properties": {"x": field}}}}}
        return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/frobs": {"put": {
            "requestBody": body, "responses": {"200": {"description": "ok"}}}}}}

    listed = spec({"type": ["string", "number", "null"]})
    assert _findings(tmp_path, listed, spec({"anyOf": [{"type": "string"}, {"type": "number"},
                                                       {"type": "null"}]})) == (0, [])
    assert _findings(tmp_path, listed, spec({"anyOf": [{"type": "string"}, {"type": "null"}]})) == (1, [
        ("breaking", "schema.type-changed",
         "/paths/~1frobs/put/requestBody/content/application~1json/schema/properties/x", 0)])
