"""References of every spelling reach the comparison, and each pair they reach is compared once."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from specdiff.load import load_text
from specdiff.pipeline import run


def _spec(library: dict[str, Any], body_ref: str, where: str = "x-lib") -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "refs", "version": "1"},
            "paths": {"/a": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": body_ref}}}},
                                      "responses": {"200": {"description": "ok"}}}}},
            where: library}


def _findings(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    report = run(load_text(json.dumps(old), "old.json", None), load_text(json.dumps(new), "new.json", None))
    return sorted((f.rule, f.change.pointer) for f in report.findings)


def test_a_change_behind_a_ref_to_a_place_that_is_not_a_named_schema_is_found() -> None:
    """The operation and its `$ref` read the same on both sides; only what `#/x-lib/Foo` holds changed."""
    def foo(kind: str) -> dict[str, Any]:
        return {"Foo": {"type": "object", "properties": {"name": {"type": kind}}}}

    old, new = _spec(foo("string"), "#/x-lib/Foo"), _spec(foo("integer"), "#/x-lib/Foo")
    assert _findings(old, new) == [("schema.type-changed", "/x-lib/Foo/properties/name")]


def test_a_change_behind_a_ref_into_a_named_schema_is_found() -> None:
    """`#/components/schemas/Foo/properties/name` is a place inside a named schema, not a named schema."""
    def spec(kind: str) -> dict[str, Any]:
        return {**_spec({}, "#/components/schemas/Foo/properties/name"),
                "components": {"schemas": {"Foo": {"type": "object", "properties": {"name": {"type": kind}}}}}}

    assert _findings(spec("string"), spec("integer")) == [
        ("schema.type-changed", "/components/schemas/Foo/properties/name")]


def _fan_out(leaf: str) -> dict[str, Any]:
    """Six levels of ten properties, each referring to the next level: a million paths to the leaves."""
    library = {f"L{level}": {"type": "object", "properties": {f"p{i}": {"$ref": f"#/x-lib/L{level + 1}"}
                                                              for i in range(10)}} for level in range(1, 6)}
    library["L6"] = {"type": "object", "properties": {f"p{i}": {"type": leaf} for i in range(10)}}
    return _spec(library, "#/x-lib/L1")


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _each_leaf_found_once(folder: Path) -> None:
    """Compare old.json with new.json in `folder` within 1 GiB: each of the 10 changed leaves found once."""
    done = subprocess.run([sys.executable, "-m", "specdiff", "old.json", "new.json", "--no-config", "--format",
                           "json"], cwd=folder, capture_output=True, text=True, timeout=120,
                          preexec_fn=_limit_memory)
    assert done.returncode == 1, done.stderr
    found = sorted((f["rule"], place["pointer"]) for f in json.loads(done.stdout)["findings"]
                   for place in f.get("members") or [f])  # (the leaves of one type are one finding listing each)
    assert found == [("schema.type-changed", f"/x-lib/L6/properties/p{i}") for i in range(10)]


def test_references_that_fan_out_compare_each_pair_once(tmp_path: Path) -> None:
    """2 KB of spec whose refs fan out to a million paths: each leaf changed once, found once, in bounded memory."""
    (tmp_path / "old.json").write_text(json.dumps(_fan_out("string")))
    (tmp_path / "new.json").write_text(json.dumps(_fan_out("integer")))
    _each_leaf_found_once(tmp_path)


# -- one node identity for every spelling (graph/normalise.py) ------------------------------------------------
def _api(bodies: dict[str, Any], **sections: Any) -> dict[str, Any]:
    """One POST per body schema, `/a`, `/b`, ... in order, plus whatever sections are given."""
    paths = {f"/{name}": {"post": {"requestBody": {"content": {"application/json": {"schema": schema}}},
                                   "responses": {"200": {"description": "ok"}}}} for name, schema in bodies.items()}
    return {"openapi": "3.0.3", "info": {"title": "refs", "version": "1"}, "paths": paths, **sections}


def _foo(kind: str) -> dict[str, Any]:
    return {"type": "object", "properties": {"name": {"type": kind}}}


def _files(tmp_path: Path, side: str, files: dict[str, Any]) -> None:
    (tmp_path / side).mkdir()
    for name, data in files.items():
        (tmp_path / side / name).write_text(json.dumps(data))


def _findings_in(tmp_path: Path) -> list[tuple[str, str]]:
    from specdiff.load import load

    report = run(load(str(tmp_path / "old" / "api.json")), load(str(tmp_path / "new" / "api.json")), grouped=False)
    return sorted((f.rule, f.change.pointer) for f in report.findings)


def test_one_change_behind_a_named_a_non_named_and_a_file_ref_is_found_once_at_each_place(tmp_path: Path) -> None:
    """Three targets that each changed, each reached by its own spelling of `$ref`: each found once, where it is."""
    for side, kind in (("old", "string"), ("new", "integer")):
        _files(tmp_path, side, {
            "api.json": _api({"a": {"$ref": "#/components/schemas/Foo"}, "b": {"$ref": "#/x-lib/Foo"},
                              "c": {"$ref": "lib.json#/Foo"}},
                             components={"schemas": {"Foo": _foo(kind)}}, **{"x-lib": {"Foo": _foo(kind)}}),
            "lib.json": {"Foo": _foo(kind)}})
    assert _findings_in(tmp_path) == [("schema.type-changed", "/Foo/properties/name"),
                                      ("schema.type-changed", "/components/schemas/Foo/properties/name"),
                                      ("schema.type-changed", "/x-lib/Foo/properties/name")]


def test_every_spelling_of_one_target_is_one_node(tmp_path: Path) -> None:
    """A ref, a chain of refs (one through another file and back), an allOf of one ref and a ref with an
    annotation beside it all reach `#/x-lib/Foo`: its change is found once, and a named schema reached through
    a chain is compared as that named pair."""
    for side, kind in (("old", "string"), ("new", "integer")):
        _files(tmp_path, side, {
            "api.json": _api({"a": {"$ref": "#/x-lib/Foo"}, "b": {"$ref": "#/x-lib/Alias"},
                              "c": {"allOf": [{"$ref": "#/x-lib/Foo"}]},
                              "d": {"$ref": "#/x-lib/Foo", "description": "the same Foo"},
                              "e": {"$ref": "lib.json#/Bar"},
                              "f": {"$ref": "#/x-lib/BarAlias" if side == "old" else "#/components/schemas/Bar"},
                              "g": {"$ref": "lib.json#/FooAgain"}},
                             components={"schemas": {"Bar": _foo(kind)}},
                             **{"x-lib": {"Foo": _foo(kind), "Alias": {"$ref": "#/x-lib/Foo"},
                                          "BarAlias": {"$ref": "#/components/schemas/Bar"}}}),
            "lib.json": {"Bar": {"$ref": "api.json#/components/schemas/Bar"},
                         "FooAgain": {"$ref": "api.json#/x-lib/Foo"}}})
    assert _findings_in(tmp_path) == [("schema.type-changed", "/components/schemas/Bar/properties/name"),
                                      ("schema.type-changed", "/x-lib/Foo/properties/name")]


def test_the_same_api_written_in_other_shapes_compares_equal() -> None:
    """Inline vs a `$ref` to an identical named or non-named schema, an allOf of one member, a parameter moved
    into the reusable ones, a ref with its nullable written beside it vs inside an allOf, a oneOf member named
    through an alias: no findings."""
    pet = {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"},
                                                                  "tag": {"type": "string", "maxLength": 8}}}
    limit = {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}}

    def api(bodies: dict[str, Any], parameter: dict[str, Any], **sections: Any) -> dict[str, Any]:
        spec = _api(bodies, **sections)
        spec["paths"]["/a"]["post"]["parameters"] = [parameter]
        return spec

    cat = {"type": "object", "properties": {"meows": {"type": "boolean"}}}
    old = api({"a": pet, "b": pet, "c": {"allOf": [pet]}, "d": {"$ref": "#/components/schemas/Pet", "nullable": True},
               "e": {"oneOf": [{"$ref": "#/components/schemas/Pet"}, {"$ref": "#/components/schemas/Cat"}]}},
              limit, components={"schemas": {"Pet": pet, "Cat": cat}})
    new = api({"a": {"$ref": "#/components/schemas/Pet"}, "b": {"$ref": "#/x-lib/Pet"}, "c": pet,
               "d": {"allOf": [{"$ref": "#/components/schemas/Pet"}], "nullable": True},
               "e": {"oneOf": [{"$ref": "#/components/schemas/Pet"}, {"$ref": "#/x-lib/CatAlias"}]}},
              {"$ref": "#/components/parameters/limit"},
              components={"schemas": {"Pet": pet, "Cat": cat}, "parameters": {"limit": limit}},
              **{"x-lib": {"Pet": pet, "CatAlias": {"$ref": "#/components/schemas/Cat"}}})
    assert _findings(old, new) == []
    broken = json.loads(json.dumps(new))
    broken["x-lib"]["Pet"]["properties"]["tag"]["maxLength"] = 4
    broken["components"]["parameters"]["limit"]["schema"]["maximum"] = 10
    assert _findings(old, broken) == [("schema.constraint-tightened", "/components/parameters/limit/schema/maximum"),
                                      ("schema.constraint-tightened", "/x-lib/Pet/properties/tag/maxLength")]


def test_references_with_keywords_beside_them_that_fan_out_compare_each_pair_once(tmp_path: Path) -> None:
    """The fan-out above with `nullable` written beside every `$ref`: each spelling laid over its target is one
    node, however many paths reach it (the same pair, not a new object per path)."""
    def fan_out(leaf: str) -> dict[str, Any]:
        spec = _fan_out(leaf)
        for level in spec["x-lib"].values():
            for prop in level["properties"].values():
                if "$ref" in prop:
                    prop["nullable"] = True
        return spec

    (tmp_path / "old.json").write_text(json.dumps(fan_out("string")))
    (tmp_path / "new.json").write_text(json.dumps(fan_out("integer")))
    _each_leaf_found_once(tmp_path)


def test_refs_inside_a_parameter_a_response_and_a_path_item_from_another_file_resolve_in_that_file(
        tmp_path: Path) -> None:
    """`params.json#/Limit` holds `schema: {$ref: '#/Int'}`: `#/Int` is params.json's, not the spec's; so for a
    response and a whole path item written in other files."""
    for side, most in (("old", 100), ("new", 10)):
        api = _api({})
        api["paths"] = {"/a": {"get": {"parameters": [{"$ref": "params.json#/Limit"}],
                                       "responses": {"200": {"$ref": "params.json#/Ok"}}}},
                        "/b": {"$ref": "paths.json#/B"}}
        _files(tmp_path, side, {
            "api.json": api,
            "params.json": {"Limit": {"name": "limit", "in": "query", "schema": {"$ref": "#/Int"}},
                            "Int": {"type": "integer", "maximum": most},
                            "Ok": {"description": "ok",
                                   "content": {"application/json": {"schema": {"$ref": "#/Body"}}}},
                            "Body": {"type": "object", "properties": {"n": {"type": "integer", "maximum": most}}}},
            "paths.json": {"B": {"post": {"requestBody": {"content": {"application/json": {"schema": {
                "$ref": "#/Item"}}}}, "responses": {"204": {"description": "done"}}}},
                           "Item": {"type": "string", "maxLength": most}}})
    assert _findings_in(tmp_path) == [("schema.constraint-tightened", "/Body/properties/n/maximum"),
                                      ("schema.constraint-tightened", "/Int/maximum"),
                                      ("schema.constraint-tightened", "/Item/maxLength")]


def test_node_identities_of_each_spelling() -> None:
    """What the differ memoises by: a named schema's name, else the final target's (document key, pointer), with
    what is laid over it; the node's schema is the target with the keywords beside each ref laid over it."""
    from specdiff.graph import graph_of as build

    spec = _api({}, components={"schemas": {"Pet": _foo("string")}},
                **{"x-lib": {"Foo": _foo("string"), "Alias": {"$ref": "#/x-lib/Foo", "nullable": True},
                             "PetAlias": {"$ref": "#/components/schemas/Pet"}}})
    doc = load_text(json.dumps(spec), "api.json", None)
    normal = build(doc).normal

    def node(schema: dict[str, Any]) -> tuple[Any, str | None, str]:
        found = normal.node(*normal.unwrap(schema, "/here"), doc)
        return found.identity, found.named, found.pointer

    assert node({"type": "string"}) == (("", "/here"), None, "/here")
    assert node({"$ref": "#/x-lib/Foo"}) == (("", "/x-lib/Foo"), None, "/x-lib/Foo")
    assert node({"$ref": "#/x-lib/Foo", "description": "said"}) == (("", "/x-lib/Foo"), None, "/x-lib/Foo")
    assert node({"allOf": [{"$ref": "#/x-lib/Foo"}]}) == (("", "/x-lib/Foo"), None, "/x-lib/Foo")
    assert node({"$ref": "#/x-lib/Alias"}) == ((("", "/x-lib/Foo"), '{"nullable":true}'), None, "/x-lib/Foo")
    assert node({"allOf": [{"$ref": "#/x-lib/Foo"}], "nullable": True}) == node({"$ref": "#/x-lib/Alias"})
    assert node({"$ref": "#/components/schemas/Pet"}) == (("schema", "Pet"), "Pet", "/components/schemas/Pet")
    assert node({"$ref": "#/x-lib/PetAlias"}) == node({"$ref": "#/components/schemas/Pet"})
    assert normal.node({"$ref": "#/x-lib/Alias"}, "/here", doc).schema == {**_foo("string"), "nullable": True}


# -- a named schema of the spec and one of the same name in another file are two schemas -----------------------
def _two_pets(tmp_path: Path, spec_kinds: tuple[str, str], file_kinds: tuple[str, str], swagger: bool = False
              ) -> list[tuple[str, str, str | None]]:
    """`/a` uses the spec's own `Pet`, `/b` the `Pet` of common.json; each changes from the first kind to the
    second. The findings as (rule, pointer, schema)."""
    named = ("definitions",) if swagger else ("components", "schemas")

    def holding(schema: dict[str, Any]) -> dict[str, Any]:
        return {"definitions": {"Pet": schema}} if swagger else {"components": {"schemas": {"Pet": schema}}}

    for side, index in (("old", 0), ("new", 1)):
        spec = _api({"a": {"$ref": f"#/{'/'.join(named)}/Pet"}, "b": {"$ref": f"common.json#/{'/'.join(named)}/Pet"}},
                    **holding(_foo(spec_kinds[index])))
        if swagger:
            spec = {"swagger": "2.0", "info": spec["info"], "definitions": spec["definitions"], "paths": {
                path: {"post": {"parameters": [{"name": "body", "in": "body", "schema": item["post"]["requestBody"][
                    "content"]["application/json"]["schema"]}], "responses": {"200": {"description": "ok"}}}}
                for path, item in spec["paths"].items()}}
        _files(tmp_path, side, {"api.json": spec, "common.json": holding(_foo(file_kinds[index]))})
    from specdiff.load import load

    report = run(load(str(tmp_path / "old" / "api.json")), load(str(tmp_path / "new" / "api.json")), grouped=False)
    return sorted((f.rule, f.change.pointer, f.change.context.schema) for f in report.findings)


def test_a_change_to_a_files_schema_is_not_hidden_by_the_specs_schema_of_the_same_name(tmp_path: Path) -> None:
    """Only common.json's `Pet` changed: found there, under the file's name for it, not paired with the spec's."""
    assert _two_pets(tmp_path, ("string", "string"), ("string", "integer")) == [
        ("schema.type-changed", "/components/schemas/Pet/properties/name",
         "common.json#/components/schemas/Pet")]


def test_a_change_to_the_specs_schema_is_found_under_its_plain_name(tmp_path: Path) -> None:
    assert _two_pets(tmp_path, ("string", "integer"), ("string", "string")) == [
        ("schema.type-changed", "/components/schemas/Pet/properties/name", "Pet")]


def test_swagger_definitions_of_one_name_in_the_spec_and_a_file_each_report_their_own_change(
        tmp_path: Path) -> None:
    assert _two_pets(tmp_path, ("string", "integer"), ("string", "boolean"), swagger=True) == [
        ("schema.type-changed", "/definitions/Pet/properties/name", "Pet"),
        ("schema.type-changed", "/definitions/Pet/properties/name", "common.json#/definitions/Pet")]


def test_a_schema_moved_from_a_file_into_the_spec_is_the_same_schema(tmp_path: Path) -> None:
    """Bundling common.json's `Pet` into the spec's components: no rename, no removal, no `$ref` change; a
    change made on the way is still found."""
    for side, ref, kind in (("old", "common.json#/components/schemas/Pet", "string"),
                            ("new", "#/components/schemas/Pet", "integer")):
        _files(tmp_path, side, {
            "api.json": _api({"a": {"$ref": ref}}, **({"components": {"schemas": {"Pet": _foo(kind)}}}
                                                      if side == "new" else {})),
            "common.json": {"components": {"schemas": {"Pet": _foo("string")}}}})
    assert _findings_in(tmp_path) == [("schema.type-changed", "/components/schemas/Pet/properties/name")]


def test_a_ref_to_a_null_written_in_the_document_finds_that_null_and_a_ref_past_it_finds_nothing() -> None:
    from specdiff.errors import InputError
    from specdiff.graph.refs import Resolver

    doc = load_text(json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
                                "x-unset": None}), "spec.json", None)
    resolver = Resolver(doc)
    assert resolver.lookup("#/x-unset", doc, "/x-a/$ref") == (None, doc, "/x-unset")
    with pytest.raises(InputError) as raised:
        resolver.lookup("#/x-unset/type", doc, "/x-b/$ref")
    assert str(raised.value) == "spec.json:/x-b/$ref: $ref '#/x-unset/type' points at nothing"
