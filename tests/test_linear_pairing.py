"""Inputs under 1 MB whose pairing once took quadratic (or exponential) time or memory: servers, server
variables, union branches, security alternatives, `allOf` parts and the unmodelled residue. Each runs as the
command line in a fresh interpreter under the hang guard and memory cap of tests/test_budgets.py, at a size that
took tens of seconds (or ran out of memory) before, and must end in its exact findings.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_budgets import run_specdiff

OK = {"200": {"description": "ok"}}


def _document(paths: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": paths if paths is not None else {"/a": {"get": {"responses": OK}}}, **more}


def _findings(folder: Path, old: dict[str, Any], new: dict[str, Any], *options: str) -> tuple[int, list[Any]]:
    """The exit code and the (rule, pointer) of each finding of the JSON report, as the command gives them."""
    (folder / "old.json").write_text(json.dumps(old))
    (folder / "new.json").write_text(json.dumps(new))
    done = run_specdiff(folder, "old.json", "new.json", "--format", "json", *options)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, [(f["rule"], f["pointer"]) for f in json.loads(done.stdout)["findings"]]


# -- servers -----------------------------------------------------------------------------------------------
def test_a_default_that_writes_the_next_variable_is_substituted_once(tmp_path: Path) -> None:
    """32 variables, each defaulting to the next one twice (`{v01}{v01}`): substituted until none was left, the
    URL doubled 31 times (MemoryError). A default is text; the one default that changed is the finding."""
    def servers(last: str) -> list[dict[str, Any]]:
        names = [f"v{i:02d}" for i in range(32)]
        variables = {name: {"default": "{" + names[i + 1] + "}{" + names[i + 1] + "}" if i < 31 else last}
                     for i, name in enumerate(names)}
        return [{"url": "https://api.example.com/{v00}", "variables": variables}]

    code, found = _findings(tmp_path, _document(servers=servers("a")), _document(servers=servers("b")))
    assert (code, found) == (0, [("server.variable-default-changed", "/servers/0/variables/v31")])


def test_a_thousand_servers_changed_on_each_side_are_paired_by_url_at_once(tmp_path: Path) -> None:
    """1,000 servers per side, each on another host: every pairing rule searched every server per server."""
    def servers(side: str, count: int = 1000) -> list[dict[str, Any]]:
        return [{"url": f"https://h{i}.{side}.example.com/v1"} for i in range(count)] + [{"url": "https://kept"}]

    code, found = _findings(tmp_path, _document(servers=servers("old")), _document(servers=servers("new")))
    assert code == 1
    assert sorted(found) == sorted([("server.added", f"/servers/{i}/url") for i in range(1000)]
                                   + [("server.removed", f"/servers/{i}/url") for i in range(1000)])


def test_a_long_server_enum_in_reverse_order_is_compared_by_set(tmp_path: Path) -> None:
    """20,000 values listed last first, one more on the new side: each looked up in the other list was 400
    million comparisons."""
    def servers(values: list[str]) -> list[dict[str, Any]]:
        return [{"url": "https://{region}.example.com", "variables": {"region": {"default": "r0", "enum": values}}}]

    old = [f"r{i}" for i in reversed(range(20_000))]
    code, found = _findings(tmp_path, _document(servers=servers(old)),
                            _document(servers=servers(["r20000", *(v for v in old if v != "r1")])))
    assert code == 1  # a value gone from an enum a client sets breaks it
    assert sorted(found) == [("server.variable-value-added", "/servers/0/variables/region"),
                             ("server.variable-value-removed", "/servers/0/variables/region")]


# -- allOf -------------------------------------------------------------------------------------------------
def _all_of_fan_out(chain: bool, extra: list[dict[str, Any]]) -> dict[str, Any]:
    """A root `allOf` of five parts, each the same schema whose `allOf` is five of itself (`chain`: of the next
    of ten schemas): joined part by part, 5^8 joins from 700 bytes."""
    def ref(name: str) -> dict[str, str]:
        return {"$ref": f"#/components/schemas/{name}"}

    schemas: dict[str, Any] = {"A": {"allOf": [ref("S0")] * 5 + extra}}
    for i in range(10):
        schemas[f"S{i}"] = {"allOf": [ref(f"S{i + 1}" if chain and i < 9 else f"S{i}")] * 5,
                            "properties": {f"p{i}": {"type": "string"}}}
    ok = {"200": {"description": "ok", "content": {"application/json": {"schema": ref("A")}}}}
    return _document({"/a": {"get": {"responses": ok}}}, components={"schemas": schemas})


def test_an_all_of_that_fans_out_to_itself_is_joined_once_per_part(tmp_path: Path) -> None:
    for chain in (False, True):
        code, found = _findings(tmp_path, _all_of_fan_out(chain, []),
                                _all_of_fan_out(chain, [{"required": ["p0"]}]))
        assert (code, found) == (0, [("schema.all-of.member-added", "/components/schemas/A/allOf/5"),
                                     ("schema.property.became-required", "/components/schemas/A/allOf/5/required")])


# -- unions ------------------------------------------------------------------------------------------------
def _sent(schema: dict[str, Any]) -> dict[str, Any]:
    """A document whose one operation sends `A` (an added `oneOf` branch breaks writers only if it overlaps)."""
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}
    return _document({"/a": {"post": {"requestBody": body, "responses": OK}}}, components={"schemas": {"A": schema}})


def test_two_thousand_added_one_of_branches_are_told_apart_by_index(tmp_path: Path) -> None:
    """2,000 branches added, each listing its own value, and one listing a value another lists: each added
    branch was compared with every branch (4 million comparisons)."""
    old = [{"type": "string", "enum": ["v0"]}, {"type": "integer"}]
    added = [{"type": "string", "enum": [f"v{i}"]} for i in range(1, 2001)] + [{"type": "string", "enum": ["v7"]}]
    (tmp_path / "old.json").write_text(json.dumps(_sent({"oneOf": old})))
    (tmp_path / "new.json").write_text(json.dumps(_sent({"oneOf": old + added})))
    done = run_specdiff(tmp_path, "old.json", "new.json", "--format", "json", "--no-group")
    assert done.returncode == 1, done.stderr
    found = [(f["rule"], f["pointer"], f["level"]) for f in json.loads(done.stdout)["findings"]]
    overlapping = {"/components/schemas/A/oneOf/8", "/components/schemas/A/oneOf/2002"}  # both list v7
    assert sorted(found) == sorted(("schema.one-of.member-added", f"/components/schemas/A/oneOf/{i}",
                                    "breaking" if f"/components/schemas/A/oneOf/{i}" in overlapping else "safe")
                                   for i in range(2, 2003))


def test_thousands_of_changed_union_branches_pair_by_key(tmp_path: Path) -> None:
    """3,000 `anyOf` branches per side, each loosening its bound: every branch was tried against every other,
    tier by tier, with the taken ones gathered again per branch."""
    def union(bound: int) -> dict[str, Any]:
        return {"anyOf": [{"type": "object", "required": [f"p{i}"],
                           "properties": {f"p{i}": {"type": "string", "maxLength": bound}}} for i in range(3000)]}

    code, found = _findings(tmp_path, _sent(union(10)), _sent(union(20)), "--no-group")
    assert code == 0  # a request's bound loosened
    assert sorted(found) == sorted(("schema.constraint-loosened",
                                    f"/components/schemas/A/anyOf/{i}/properties/p{i}/maxLength")
                                   for i in range(3000))


_BRANCH = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["string", "integer", "number", "object", "null"]),
    "nullable": st.booleans(), "enum": st.lists(st.sampled_from(["a", "b", 1, 2.0, None]), min_size=1, max_size=3),
    "required": st.just(["k"]), "additionalProperties": st.just(False),
    "properties": st.fixed_dictionaries({}, optional={"k": st.fixed_dictionaries({"const": st.sampled_from("xy")}),
                                                       "j": st.just({"type": "string"})})})


@settings(max_examples=300, deadline=None)
@given(st.lists(_BRANCH, min_size=2, max_size=8))
def test_the_overlap_index_answers_as_comparing_every_pair(branches: list[dict[str, Any]]) -> None:
    from specdiff.diff.compositions import Overlaps, may_overlap

    members = {f"#{i}": branch for i, branch in enumerate(branches)}
    index = Overlaps(members)
    for key, branch in members.items():
        assert index.any_besides(key) == any(may_overlap(branch, other) for k, other in members.items() if k != key)


# -- security ----------------------------------------------------------------------------------------------
def test_a_thousand_changed_security_alternatives_pair_by_scheme_once_for_every_operation(tmp_path: Path) -> None:
    """The document's `security` lists 1,000 alternatives of two schemes each, and the new one drops the second
    scheme of each: every old alternative was tried against every new one, for each operation."""
    def document(both: bool) -> dict[str, Any]:
        schemes = {f"s{i}": {"type": "apiKey", "in": "header", "name": f"h{i}"} for i in range(1001)}
        security = [{f"s{i}": [], **({f"s{i + 1}": []} if both else {})} for i in range(1000)]
        return _document({"/a": {"get": {"responses": OK}}, "/b": {"get": {"responses": OK}}}, security=security,
                         components={"securitySchemes": schemes})

    code, found = _findings(tmp_path, document(True), document(False), "--no-group")
    assert code == 0  # a client holding both keys still holds the one asked for
    assert sorted(found) == sorted([("security.alternative.scheme-removed", f"/security/{i}/s{i + 1}")
                                    for i in range(1000)] * 2)


# -- the residue of unmodelled keywords --------------------------------------------------------------------
def test_a_long_reordered_extension_list_is_one_change_of_the_whole(tmp_path: Path) -> None:
    """100,000 numbers listed the other way round: deepdiff paired the items in 16 s and 720 MB. Past its
    bound a changed value is one change of the whole keyword, as a list whose items all moved already was."""
    numbers = list(range(100_000))
    code, found = _findings(tmp_path, _document(**{"x-list": numbers}),
                            _document(**{"x-list": numbers[::-1]}))
    assert (code, found) == (0, [("extension.changed", "/x-list")])


@pytest.fixture
def deep_json() -> Iterator[None]:
    """This test's own json.dumps and json.loads of a value nested a thousand deep."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(10_000)
    yield
    sys.setrecursionlimit(limit)


@pytest.mark.usefixtures("deep_json")
def test_an_extension_nested_almost_to_the_depth_bound_is_compared_without_recursing(tmp_path: Path) -> None:
    """A value nested 990 deep under --max-depth 1000: deepdiff recursed through every level (21 s, 800 MB);
    the value is one change past the bound, and every report writes it."""

    def nested(leaf: int) -> dict[str, Any]:
        value: Any = leaf
        for _ in range(990):
            value = {"a": value}
        return _document(**{"x-deep": value})

    code, found = _findings(tmp_path, nested(1), nested(2), "--max-depth", "1000")
    assert (code, found) == (0, [("extension.changed", "/x-deep/a")])
    done = run_specdiff(tmp_path, "old.json", "new.json", "--max-depth", "1000", "--format", "yaml")
    assert (done.returncode, done.stderr) == (0, "")


def test_a_small_change_inside_a_bounded_extension_is_still_placed_exactly(tmp_path: Path) -> None:
    """The near miss: a list within the bound keeps deepdiff's pairing, each moved or changed item at its place."""
    numbers = list(range(1000))
    code, found = _findings(tmp_path, _document(**{"x-list": numbers}),
                            _document(**{"x-list": [*numbers[:500], -1, *numbers[500:]]}))
    assert (code, found) == (0, [("extension.changed", "/x-list/500")])


# -- whole commands that were slow past the component ------------------------------------------------------
def _crd(rules: list[str]) -> dict[str, Any]:
    schema = {"type": "object", "x-kubernetes-validations": [{"rule": rule} for rule in rules],
              "properties": {f"a{i}": {"type": "integer"} for i in range(10)}}
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "frobs.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                     "names": {"plural": "frobs", "singular": "frob", "kind": "Frob", "listKind": "FrobList"},
                     "versions": [{"name": "v1", "served": True, "storage": True,
                                   "schema": {"openAPIV3Schema": schema}}]}}


def test_github_annotations_for_thousands_of_cel_rules_locate_each_once(tmp_path: Path) -> None:
    """1,500 rules in one list, each changed: every annotation located its rule by decoding the whole CRD
    version that holds the list again."""
    (tmp_path / "old.json").write_text(json.dumps(_crd([f"self.a{i % 10} > {i}" for i in range(1500)]), indent=1))
    new = json.dumps(_crd([f"self.a{i % 10} >= {i}" for i in range(1500)]), indent=1)
    (tmp_path / "new.json").write_text(new)
    done = run_specdiff(tmp_path, "old.json", "new.json", "--format", "github", "--no-group")
    assert done.returncode == 1, done.stderr
    added = sorted(int(line.split(",line=")[1].split(",")[0]) for line in done.stdout.splitlines()
                   if "title=kubernetes.validation.rule-added" in line)
    assert added == [number - 1 for number, text in enumerate(new.splitlines(), 1) if '"rule": "self.a' in text]


def test_a_chain_of_named_schemas_listed_last_first_files_each_under_its_operation(tmp_path: Path) -> None:
    """2,000 schemas each holding the next, listed last first, each changing a type: the walk up to the
    operation that files each schema's findings went up the whole chain for each schema."""
    def document(kind: str) -> dict[str, Any]:
        schemas = {f"S{i}": {"type": "object", "properties": {
            "v": {"type": kind}, **({"next": {"$ref": f"#/components/schemas/S{i + 1}"}} if i < 1999 else {})}}
            for i in reversed(range(2000))}
        ok = {"200": {"description": "ok", "content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/S0"}}}}}
        return _document({"/a": {"get": {"responses": ok}}}, components={"schemas": schemas})

    code, found = _findings(tmp_path, document("string"), document("integer"), "--no-group")
    assert code == 1
    assert sorted(found) == sorted(("schema.type-changed", f"/components/schemas/S{i}/properties/v")
                                   for i in range(2000))


def test_thousands_of_properties_reaching_one_long_chain_of_unnamed_refs_follow_it_once(tmp_path: Path) -> None:
    """3,000 properties each `$ref` the head of a 3,000-long chain of refs outside any named schema: each
    property followed the whole chain, link by link (9 million steps)."""
    def document(kind: str) -> dict[str, Any]:
        links: dict[str, Any] = {f"a{i}": {"$ref": f"#/x-defs/a{i + 1}"} for i in range(3000)}
        links["a3000"] = {"type": kind}
        ok = {"200": {"description": "ok", "content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/A"}}}}}
        return _document({"/a": {"get": {"responses": ok}}}, **{"x-defs": links}, components={"schemas": {"A": {
            "type": "object", "properties": {f"p{i}": {"$ref": "#/x-defs/a0"} for i in range(3000)}}}})

    code, found = _findings(tmp_path, document("string"), document("integer"))
    assert (code, found) == (1, [("schema.type-changed", "/x-defs/a3000")])


def test_a_pair_of_eighty_thousand_changes_ends_at_the_default_bound(tmp_path: Path) -> None:
    """A 40,000-value enum replaced by 40,000 others (80,000 changes, 16 s as YAML): the default --max-changes
    stops the comparison at its bound, and raising it compares the pair."""
    def document(prefix: str, count: int) -> dict[str, Any]:
        ok = {"200": {"description": "ok", "content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/A"}}}}}
        return _document({"/a": {"get": {"responses": ok}}}, components={"schemas": {"A": {
            "type": "string", "enum": [f"{prefix}{i}" for i in range(count)]}}})

    (tmp_path / "old.json").write_text(json.dumps(document("a", 40_000)))
    (tmp_path / "new.json").write_text(json.dumps(document("b", 40_000)))
    done = run_specdiff(tmp_path, "old.json", "new.json", "--format", "yaml")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "specdiff: error: old.json and new.json: more than 20000 changes found (--max-changes)\n")
    code, found = _findings(tmp_path, document("a", 5), document("b", 5), "--max-changes", "10", "--no-group")
    assert (code, sorted(found)) == (1, sorted([("schema.enum.value-added", f"/components/schemas/A/enum/{i}")
                                                for i in range(5)] + [("schema.enum.value-removed",
                                                                       "/components/schemas/A/enum")] * 5))


def test_alternatives_sharing_one_scheme_are_paired_without_reading_them_all_per_alternative(tmp_path: Path) -> None:
    """1,000 alternatives written on each of two operations, each naming one scheme they all share and one of
    its own, and each gaining a third: which new alternative asks for no more than an old one was counted over
    every alternative naming the shared scheme. None does, so each change breaks the clients it held."""
    def document(old: bool) -> dict[str, Any]:
        schemes = {name: {"type": "apiKey", "in": "header", "name": name}
                   for name in ("common", *(f"s{i}" for i in range(1000)), *(f"t{i}" for i in range(1000)))}
        security = [{"common": [], f"s{i}": [], **({} if old else {f"t{i}": []})} for i in range(1000)]
        return _document({f"/p{j}": {"get": {"security": security, "responses": OK}} for j in range(2)},
                         components={"securitySchemes": schemes})

    code, found = _findings(tmp_path, document(True), document(False), "--no-group")
    assert code == 1
    assert sorted(found) == sorted(("security.alternative.scheme-added", f"/paths/~1p{j}/get/security/{i}/t{i}")
                                   for i in range(1000) for j in range(2))


def test_a_server_url_that_urllib_cannot_read_is_compared_as_written(tmp_path: Path) -> None:
    """A host in brackets that is no IP address (`https://[*b]/v1`): urllib raised ValueError, an internal
    error. Found by the servers fuzz operator."""
    code, found = _findings(tmp_path, _document(servers=[{"url": "https://[*b]/v1"}]),
                            _document(servers=[{"url": "https://[*c]/v1"}]))
    assert (code, found) == (1, [("server.url-changed", "/servers/0/url")])


def test_a_ref_to_an_address_urllib_cannot_read_is_a_one_line_error(tmp_path: Path) -> None:
    """The same bracketed host in a `$ref`: an internal error before, an input error naming the place now."""
    ok = {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "http://[*b]/x.json"}}}}}
    (tmp_path / "old.json").write_text(json.dumps(_document()))
    (tmp_path / "new.json").write_text(json.dumps(_document({"/a": {"get": {"responses": ok}}}), indent=1))
    done = run_specdiff(tmp_path, "old.json", "new.json")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "specdiff: error: new.json:16:10: $ref 'http://[*b]/x.json' is no address: '*b' does not appear "
               "to be an IPv4 or IPv6 address\n")
