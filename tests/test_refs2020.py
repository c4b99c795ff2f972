"""OpenAPI 3.1 schema references resolved as JSON Schema 2020-12 does (graph/refs2020.py), through the command
line as users run it: `$id` resources and references relative to them, `$anchor`, `$dynamicRef` against the
dynamic scope, the dialect a document or schema names; one identity whatever the spelling; a URI that no schema
declares is a one-line error, never a fetch; and a 3.0 document resolves as it always has."""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from specdiff.cli import main
from specdiff.errors import InputError
from specdiff.load import Document, load
from specdiff.pipeline import run
from tests.test_budgets import run_specdiff
from tests.test_lazy_imports import _compare, _imported_after


def _api(schemas: dict[str, Any], body: dict[str, Any], version: str = "3.1.0", **top: Any) -> dict[str, Any]:
    """One POST /pets whose request body is `body`, with the named schemas given."""
    return {"openapi": version, "info": {"title": "pets", "version": "1"}, **top,
            "paths": {"/pets": {"post": {"requestBody": {"content": {"application/json": {"schema": body}}},
                                         "responses": {"200": {"description": "ok"}}}}},
            "components": {"schemas": schemas}}


def _run(folder: Path, old: Any, new: Any, *options: str) -> tuple[int, Any, str]:
    """(exit code, JSON report or None, stderr) of `specdiff old.yaml new.yaml` in `folder`."""
    for name, data in (("old.yaml", old), ("new.yaml", new)):
        (folder / name).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    result = CliRunner().invoke(main, [str(folder / "old.yaml"), str(folder / "new.yaml"), "--no-config",
                                       "--format", "json", *options])
    report = json.loads(result.stdout) if result.exit_code in (0, 1) else None
    return result.exit_code, report, result.stderr


def _found(folder: Path, old: Any, new: Any) -> list[tuple[str, str]]:
    code, report, stderr = _run(folder, old, new)
    assert code in (0, 1), stderr
    return sorted((f["rule"], f["pointer"]) for f in report["findings"])


def _pet(name_type: str = "string", **extra: Any) -> dict[str, Any]:
    return {**extra, "type": "object", "required": ["name"], "properties": {"name": {"type": name_type}}}


# -- $anchor ----------------------------------------------------------------------------------------------------
def test_a_ref_to_an_anchor_reaches_the_schema_that_declares_it(tmp_path: Path) -> None:
    def spec(kind: str) -> dict[str, Any]:
        return _api({"Pet": _pet(kind, **{"$anchor": "pet"})}, {"$ref": "#pet"})

    assert _found(tmp_path, spec("string"), spec("integer")) == [
        ("schema.type-changed", "/components/schemas/Pet/properties/name")]


def test_an_anchor_inside_a_named_schema_reads_its_place(tmp_path: Path) -> None:
    """`#name` declared on a property: the change is found where that property is written."""
    def spec(limit: int) -> dict[str, Any]:
        pet = _pet()
        pet["properties"]["name"] = {"$anchor": "name", "type": "string", "maxLength": limit}
        return _api({"Pet": pet}, {"type": "object", "properties": {"name": {"$ref": "#name"}}})

    assert _found(tmp_path, spec(10), spec(5)) == [
        ("schema.constraint-tightened", "/components/schemas/Pet/properties/name/maxLength")]


# -- $id: embedded resources and references relative to them ------------------------------------------------------
def _tagged(limit: int) -> dict[str, Any]:
    """Pet and Tag as resources of their own; Pet names its sibling by a reference relative to its `$id`."""
    pet = _pet(**{"$id": "https://example.com/schemas/pet"})
    pet["properties"]["tag"] = {"$ref": "tag"}
    tag = {"$id": "https://example.com/schemas/tag", "type": "object",
           "properties": {"label": {"type": "string", "maxLength": limit}}}
    return _api({"Pet": pet, "Tag": tag}, {"$ref": "https://example.com/schemas/pet"})


def test_a_relative_ref_resolves_against_the_id_of_its_resource(tmp_path: Path) -> None:
    assert _found(tmp_path, _tagged(10), _tagged(5)) == [
        ("schema.constraint-tightened", "/components/schemas/Tag/properties/label/maxLength")]


def test_a_resource_nested_in_another_takes_its_base_from_the_one_around_it(tmp_path: Path) -> None:
    """`$id: item` inside `https://example.com/list/` is `https://example.com/list/item`; a pointer fragment
    reads inside that resource, not the document."""
    def spec(kind: str) -> dict[str, Any]:
        listing = {"$id": "https://example.com/list/", "type": "array",
                   "items": {"$ref": "item#/properties/value"},
                   "$defs": {"item": {"$id": "item", "type": "object",
                                      "properties": {"value": {"type": kind}}}}}
        return _api({"List": listing}, {"$ref": "#/components/schemas/List"})

    assert _found(tmp_path, spec("string"), spec("integer")) == [
        ("schema.type-changed", "/components/schemas/List/$defs/item/properties/value")]


def test_a_pointer_fragment_reads_inside_the_resource_its_base_names(tmp_path: Path) -> None:
    """Inside a schema with `$id`, `#/properties/name` is that schema's property, not the document's."""
    def spec(kind: str) -> dict[str, Any]:
        owner = {"$id": "https://example.com/owner", "type": "object",
                 "properties": {"name": {"type": kind}, "alias": {"$ref": "#/properties/name"}}}
        return _api({"Owner": owner}, {"$ref": "#/components/schemas/Owner"})

    assert _found(tmp_path, spec("string"), spec("integer")) == [
        ("schema.type-changed", "/components/schemas/Owner/properties/name")]


# -- identity: one schema whatever the spelling -------------------------------------------------------------------
def test_moving_from_a_pointer_to_an_id_or_an_anchor_is_no_change(tmp_path: Path) -> None:
    old = _api({"Pet": _pet(), "Tag": {"type": "string"}},
               {"type": "object", "properties": {"pet": {"$ref": "#/components/schemas/Pet"},
                                                 "tag": {"$ref": "#/components/schemas/Tag"}}})
    new = _api({"Pet": _pet(**{"$id": "https://example.com/pet"}),
                "Tag": {"$anchor": "tag", "type": "string"}},
               {"type": "object", "properties": {"pet": {"$ref": "https://example.com/pet"},
                                                 "tag": {"$ref": "#tag"}}})
    assert _found(tmp_path, old, new) == []
    assert _found(tmp_path, new, old) == []


def test_a_changed_schema_behind_a_new_spelling_is_still_found(tmp_path: Path) -> None:
    """The near miss of the above: the spelling moved and the schema changed; only the change is reported."""
    old = _api({"Pet": _pet()}, {"$ref": "#/components/schemas/Pet"})
    new = _api({"Pet": _pet("integer", **{"$id": "https://example.com/pet"})}, {"$ref": "https://example.com/pet"})
    assert _found(tmp_path, old, new) == [("schema.type-changed", "/components/schemas/Pet/properties/name")]


# -- files, dialects, and what is refused -------------------------------------------------------------------------
def test_an_anchor_in_a_file_beside_the_spec(tmp_path: Path) -> None:
    """A file of schemas reached by its path: its anchors resolve against the file's own location."""
    def schemas(kind: str) -> dict[str, Any]:
        return {"$defs": {"Pet": _pet(kind, **{"$anchor": "pet"})}}

    spec = _api({}, {"$ref": "pets.yaml#pet"})
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "old" / "pets.yaml").write_text(yaml.safe_dump(schemas("string")), encoding="utf-8")
    (tmp_path / "new" / "pets.yaml").write_text(yaml.safe_dump(schemas("integer")), encoding="utf-8")
    for side in ("old", "new"):
        (tmp_path / side / "api.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
    result = CliRunner().invoke(main, [str(tmp_path / "old" / "api.yaml"), str(tmp_path / "new" / "api.yaml"),
                                       "--no-config", "--format", "json"])
    assert result.exit_code == 1, result.stderr
    assert [(f["rule"], f["pointer"]) for f in json.loads(result.stdout)["findings"]] == [
        ("schema.type-changed", "/$defs/Pet/properties/name")]


def test_a_schema_naming_draft_07_has_its_plain_name_ids_read_as_anchors(tmp_path: Path) -> None:
    """`$schema` chooses the dialect: in draft-07 `$id: "#pet"` names the schema as 2020-12's `$anchor` does."""
    def spec(kind: str) -> dict[str, Any]:
        return _api({"Pet": _pet(kind, **{"$schema": "http://json-schema.org/draft-07/schema#", "$id": "#pet"})},
                    {"$ref": "#pet"})

    assert _found(tmp_path, spec("string"), spec("integer")) == [
        ("schema.type-changed", "/components/schemas/Pet/properties/name")]


def test_the_document_dialect_chooses_how_ids_are_read(tmp_path: Path) -> None:
    """`jsonSchemaDialect` for every schema of the document that names none."""
    def spec(kind: str) -> dict[str, Any]:
        return _api({"Pet": _pet(kind, **{"$id": "#pet"})}, {"$ref": "#pet"},
                    jsonSchemaDialect="http://json-schema.org/draft-07/schema#")

    assert _found(tmp_path, spec("string"), spec("integer")) == [
        ("schema.type-changed", "/components/schemas/Pet/properties/name")]


def test_a_ref_to_an_id_no_schema_declares_is_a_one_line_error_and_no_fetch(tmp_path: Path) -> None:
    spec = _tagged(10)
    spec["components"]["schemas"]["Pet"]["properties"]["tag"] = {"$ref": "tags"}
    code, _, stderr = _run(tmp_path, spec, spec)
    assert code == 2
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert stderr.startswith(f"specdiff: error: {tmp_path / 'old.yaml'}:")
    assert "'https://example.com/schemas/tags'" in stderr and "$id" in stderr


def test_an_anchor_no_schema_declares_points_at_nothing(tmp_path: Path) -> None:
    spec = _api({"Pet": _pet(**{"$anchor": "pet"})}, {"$ref": "#cat"})
    code, _, stderr = _run(tmp_path, spec, spec)
    assert code == 2
    assert stderr == f"specdiff: error: {tmp_path / 'old.yaml'}:12:15: $ref '#cat' points at nothing\n"


def test_a_file_url_is_refused_as_in_any_document(tmp_path: Path) -> None:
    spec = _api({"Pet": _pet(**{"$anchor": "pet"})}, {"$ref": "file:///etc/hostname"})
    code, _, stderr = _run(tmp_path, spec, spec)
    assert code == 2
    assert "'file:///etc/hostname' refused: only http and https" in stderr and stderr.count("\n") == 1


def test_an_id_that_moves_the_base_out_of_the_folder_reads_nothing_there(tmp_path: Path) -> None:
    """`$id: file:///etc/` makes `hostname` mean /etc/hostname: the file is still confined to the spec's folder."""
    spec = _api({"Etc": {"$id": "file:///etc/", "properties": {"host": {"$ref": "hostname"}}}},
                {"$ref": "#/components/schemas/Etc"})
    code, _, stderr = _run(tmp_path, spec, spec)
    assert code == 2
    assert "leaves the spec's folder (refused)" in stderr and stderr.count("\n") == 1


def test_a_3_0_document_keeps_its_resolution(tmp_path: Path) -> None:
    """`$id` and `$anchor` mean nothing in OpenAPI 3.0: `#pet` is a JSON pointer that points at nothing."""
    spec = _api({"Pet": _pet(**{"$anchor": "pet"})}, {"$ref": "#pet"}, version="3.0.3")
    code, _, stderr = _run(tmp_path, spec, spec)
    assert code == 2
    assert stderr.endswith("$ref '#pet' points at nothing\n")


# -- $dynamicRef: generics bound by the dynamic scope -------------------------------------------------------------
def _generic_list(number: dict[str, Any], extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 specification's generic array: numberArray and stringArray bind its items."""
    schemas = {
        "genericArrayComponent": {"$id": "fully_generic_array", "type": "array",
                                  "items": {"$dynamicRef": "#generic-array"},
                                  "$defs": {"allowAll": {"$dynamicAnchor": "generic-array"}}},
        "numberArray": {"$id": "array_of_numbers", "$ref": "fully_generic_array",
                        "$defs": {"numbersOnly": number}},
        "stringArray": {"$id": "array_of_strings", "$ref": "fully_generic_array",
                        "$defs": {"stringsOnly": {"$dynamicAnchor": "generic-array", "type": "string"}}},
        **(extra or {})}
    spec = _api(schemas, {"$ref": "#/components/schemas/numberArray"})
    operation = spec["paths"]["/pets"]["post"]
    spec["paths"]["/strings"] = {"post": {**operation, "requestBody": {"content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/stringArray"}}}}}}
    spec["paths"]["/numbers"] = {"get": {"responses": {"200": {"description": "ok", "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/numberArray"}}}}}}}
    return spec


def _numbers(kind: str) -> dict[str, Any]:
    return {"$dynamicAnchor": "generic-array", "type": kind}


def test_a_generic_reads_its_items_as_the_scope_that_uses_it_binds_them(tmp_path: Path) -> None:
    """The binding of numberArray changed: its uses (a request and a response) see it, one change; stringArray,
    bound by its own scope, and the generic itself do not."""
    code, report, stderr = _run(tmp_path, _generic_list(_numbers("number")), _generic_list(_numbers("integer")))
    assert code == 1, stderr
    assert [(f["rule"], f["pointer"], f["location"]["label"], f["operations"]) for f in report["findings"]] == [
        ("schema.type-changed", "/components/schemas/numberArray/$defs/numbersOnly", "numberArray[]",
         ["GET /numbers", "POST /pets"])]


def test_a_generic_unchanged_in_every_scope_is_no_change(tmp_path: Path) -> None:
    """The near miss: the binding keeps its meaning while the `$defs` entry holding it is renamed."""
    old, new = _generic_list(_numbers("number")), _generic_list(_numbers("number"))
    numbers = new["components"]["schemas"]["numberArray"]["$defs"]
    numbers["numbers"] = numbers.pop("numbersOnly")
    assert _found(tmp_path, old, new) == []


def test_a_dynamic_anchor_that_goes_leaves_the_generic_default(tmp_path: Path) -> None:
    """numberArray no longer declares the anchor: its items are bound by the generic's own, which takes any
    value; a request accepts more, a response may carry what readers never met."""
    code, report, stderr = _run(tmp_path, _generic_list(_numbers("number")), _generic_list({"type": "number"}))
    assert code == 1, stderr
    assert [(f["rule"], f["old_pointer"], f["new_pointer"], f["location"]["label"]) for f in report["findings"]] == [
        ("schema.type-changed", "/components/schemas/numberArray/$defs/numbersOnly",
         "/components/schemas/genericArrayComponent/$defs/allowAll", "numberArray[]")]


def _tree(data: str) -> dict[str, Any]:
    """The specification's tree: strictTree binds `node` to itself, so its children are strict trees, a cycle
    through `$dynamicRef`."""
    return _api({"tree": {"$id": "https://example.com/tree", "$dynamicAnchor": "node", "type": "object",
                          "properties": {"data": {"type": data},
                                         "children": {"type": "array", "items": {"$dynamicRef": "#node"}}}},
                  "strictTree": {"$id": "https://example.com/strict-tree", "$dynamicAnchor": "node",
                                 "$ref": "tree", "unevaluatedProperties": False}},
                {"$ref": "https://example.com/strict-tree"})


def test_a_cycle_through_dynamic_refs_is_compared_once(tmp_path: Path) -> None:
    assert _found(tmp_path, _tree("string"), _tree("integer")) == [
        ("schema.type-changed", "/components/schemas/tree/properties/data")]


# -- bounds (docs/security-model.md): each through the command line, under the hang guard and the memory cap ----------
def _bounded(folder: Path, make: Any) -> subprocess.CompletedProcess[str]:
    for side, kind in (("old", "string"), ("new", "integer")):
        (folder / f"{side}.json").write_text(json.dumps(make(kind)), encoding="utf-8")
    return run_specdiff(folder, "old.json", "new.json", "--format", "json")


def _pointers(done: subprocess.CompletedProcess[str]) -> list[tuple[str, str]]:
    assert done.returncode == 1, done.stderr
    return [(f["rule"], place["pointer"]) for f in json.loads(done.stdout)["findings"]
            for place in f.get("members") or [f]]  # each place a group folded in, as it is written


def _id_chain(links: int) -> Any:
    """Named schemas each a resource whose `$ref` names the next relative to its own `$id`."""
    def make(kind: str) -> dict[str, Any]:
        schemas = {f"S{i}": {"$id": f"https://example.com/s{i}/", "$ref": f"../s{i + 1}/"} for i in range(links)}
        schemas[f"S{links}"] = {"$id": f"https://example.com/s{links}/", "type": "object",
                                "properties": {"v": {"type": kind}}}
        return _api(schemas, {"$ref": "https://example.com/s0/"})
    return make


def test_a_chain_of_ids_is_followed_to_its_end(tmp_path: Path) -> None:
    assert _pointers(_bounded(tmp_path, _id_chain(200))) == [
        ("schema.type-changed", "/components/schemas/S200/properties/v")]


def test_a_chain_of_ids_past_the_depth_bound_is_refused_by_name(tmp_path: Path) -> None:
    done = _bounded(tmp_path, _id_chain(2000))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--max-depth" in done.stderr


def test_thousands_of_anchors_are_each_resolved_once(tmp_path: Path) -> None:
    def make(kind: str) -> dict[str, Any]:
        schemas = {f"A{i}": {"$anchor": f"a{i}", "type": "object",
                             "properties": {"v": {"type": kind if i == 2999 else "string"}}} for i in range(3000)}
        return _api(schemas, {"type": "object", "properties": {f"p{i}": {"$ref": f"#a{i}"} for i in range(3000)}})

    assert _pointers(_bounded(tmp_path, make)) == [("schema.type-changed", "/components/schemas/A2999/properties/v")]


def test_a_thousand_bindings_of_one_generic_are_each_read_once(tmp_path: Path) -> None:
    def make(kind: str) -> dict[str, Any]:
        schemas: dict[str, Any] = {"G": {"$id": "https://example.com/g", "type": "array",
                                         "items": {"$dynamicRef": "#t"}, "$defs": {"any": {"$dynamicAnchor": "t"}}}}
        for i in range(1000):
            schemas[f"L{i}"] = {"$id": f"https://example.com/l{i}", "$ref": "g", "$defs": {
                "t": {"$dynamicAnchor": "t", "type": kind if i == 999 else "string"}}}
        return _api(schemas, {"type": "object", "properties": {f"p{i}": {"$ref": f"https://example.com/l{i}"}
                                                               for i in range(1000)}})

    assert _pointers(_bounded(tmp_path, make)) == [("schema.type-changed", "/components/schemas/L999/$defs/t")]


def test_a_cycle_of_dynamic_refs_with_no_schema_in_it_is_a_one_line_error(tmp_path: Path) -> None:
    def make(kind: str) -> dict[str, Any]:
        return _api({"A": {"$dynamicAnchor": "a", "$dynamicRef": "#b"}, "B": {"$dynamicAnchor": "b",
                                                                              "$dynamicRef": "#a"}},
                    {"$ref": "#/components/schemas/A"})

    done = _bounded(tmp_path, make)
    assert done.returncode == 2
    assert done.stderr == "specdiff: error: old.json:1:296: $dynamicRef cycle with no schema in it, at '#b'\n"


# -- the document's own base: `$self` (OpenAPI 3.2) ---------------------------------------------------------------
def _self_based(folder: Path, kind: str) -> Document:
    """A 3.2 document whose `$self` puts it at https://example.com/api/openapi.yaml: `schemas/pet.yaml` is the
    file beside it that this URI names, and `$id: schemas/tag` a resource under the same base.

    The version gate reads 3.1 and 3.0 only, so the document is read as 3.1 and given 3.2's `$self` and version
    afterwards: what is tested is the resolution, not the reading."""
    (folder / "schemas").mkdir(parents=True, exist_ok=True)
    (folder / "schemas" / "pet.yaml").write_text(yaml.safe_dump(_pet(kind)), encoding="utf-8")
    spec = _api({"Tag": {"$id": "schemas/tag", "type": "string", "maxLength": 10 if kind == "string" else 5}},
                {"type": "object", "properties": {"pet": {"$ref": "schemas/pet.yaml"},
                                                  "tag": {"$ref": "https://example.com/api/schemas/tag"}}})
    (folder / "openapi.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    doc = load(str(folder / "openapi.yaml"))
    return replace(doc, data={**doc.data, "openapi": "3.2.0", "$self": "https://example.com/api/openapi.yaml"})


def test_self_gives_the_document_its_base(tmp_path: Path) -> None:
    report = run(_self_based(tmp_path / "old", "string"), _self_based(tmp_path / "new", "integer"))
    assert sorted((f.rule, f.change.pointer) for f in report.findings) == [
        ("schema.constraint-tightened", "/components/schemas/Tag/maxLength"),
        ("schema.type-changed", "/properties/name")]


def test_without_self_the_same_uri_is_no_schema_of_the_spec(tmp_path: Path) -> None:
    """The near miss: read as 3.1, `$self` means nothing, and https://example.com/api/schemas/tag is not fetched."""
    doc = _self_based(tmp_path, "string")
    plain = replace(doc, data={key: value for key, value in doc.data.items() if key != "$self"})
    with pytest.raises(InputError, match="no schema of the spec declares 'https://example.com/api/schemas/tag'"):
        run(plain, plain)


# -- which keywords are keywords: the 2020-12 metaschema ----------------------------------------------------------
def test_keywords_that_only_name_or_hold_schemas_change_nothing_in_3_1(tmp_path: Path) -> None:
    """`$vocabulary` and an unused `$defs` entry added, in a 3.1 document that declares no identifier; a
    `$comment` is a note for readers, reported as the metadata it is."""
    old = _api({"Pet": _pet()}, {"$ref": "#/components/schemas/Pet"})
    new = _api({"Pet": _pet(**{"$vocabulary": {}, "$defs": {"Legacy": {"type": "string"}}})},
               {"$ref": "#/components/schemas/Pet"})
    assert _found(tmp_path, old, new) == []
    noted = _api({"Pet": _pet(**{"$comment": "kept in step with the store"})}, {"$ref": "#/components/schemas/Pet"})
    assert _found(tmp_path, old, noted) == [("docs.metadata-changed", "/components/schemas/Pet/$comment")]


def test_a_dialect_change_is_still_reported(tmp_path: Path) -> None:
    """The near miss: `$schema` changes what every keyword of the schema means, so it is not one of them."""
    old = _api({"Pet": _pet()}, {"$ref": "#/components/schemas/Pet"})
    new = _api({"Pet": _pet(**{"$schema": "http://json-schema.org/draft-07/schema#"})},
               {"$ref": "#/components/schemas/Pet"})
    assert _found(tmp_path, old, new) == [("specdiff.unclassified", "/components/schemas/Pet/$schema")]


def test_in_3_0_those_keywords_are_data_as_before(tmp_path: Path) -> None:
    old = _api({"Pet": _pet()}, {"$ref": "#/components/schemas/Pet"}, version="3.0.3")
    new = _api({"Pet": _pet(**{"$comment": "kept in step with the store"})}, {"$ref": "#/components/schemas/Pet"},
               version="3.0.3")
    assert _found(tmp_path, old, new) == [("docs.metadata-changed", "/components/schemas/Pet/$comment")]


def test_wrong_typed_naming_keywords_name_nothing(tmp_path: Path) -> None:
    """`$id: 5`, `$anchor: [pet]`, `$defs: none` beside real identifiers: they name and hold nothing, and the
    rest of the document resolves and compares as ever."""
    def spec(kind: str) -> dict[str, Any]:
        return _api({"Pet": _pet(kind, **{"$anchor": "pet", "$defs": "none"}),
                     "Odd": {"$id": 5, "$anchor": ["pet"], "type": "string"}}, {"$ref": "#pet"})

    assert _found(tmp_path, spec("string"), spec("integer")) == [
        ("schema.type-changed", "/components/schemas/Pet/properties/name")]


def test_a_wrong_typed_dialect_is_a_one_line_error(tmp_path: Path) -> None:
    spec = _api({"Pet": _pet(**{"$anchor": "pet", "$schema": 7})}, {"$ref": "#pet"})
    code, _, stderr = _run(tmp_path, spec, spec)
    assert code == 2
    assert stderr.startswith(f"specdiff: error: {tmp_path / 'old.yaml'}: the schemas cannot be read as the JSON "
                             "Schema dialects they name") and stderr.count("\n") == 1


def test_a_pointer_through_a_plain_value_points_at_nothing(tmp_path: Path) -> None:
    spec = _api({"Pet": _pet(**{"$anchor": "pet"})}, {"$ref": "#/components/schemas/Pet/type/x"})
    code, _, stderr = _run(tmp_path, spec, spec)
    assert code == 2
    assert stderr == (f"specdiff: error: {tmp_path / 'old.yaml'}:12:15: $ref '#/components/schemas/Pet/type/x' "
                      "points at nothing\n")


def test_a_schema_dialect_written_on_the_document_itself_does_not_make_it_a_schema(tmp_path: Path) -> None:
    """`$schema` is no field of an OpenAPI document: its schemas are still found where OpenAPI holds them."""
    def spec(kind: str) -> dict[str, Any]:
        return {**_api({"Pet": _pet(kind, **{"$anchor": "pet"})}, {"$ref": "#pet"}),
                "$schema": "https://json-schema.org/draft/2020-12/schema"}

    assert _found(tmp_path, spec("string"), spec("integer")) == [
        ("schema.type-changed", "/components/schemas/Pet/properties/name")]


def test_referencing_is_loaded_only_for_documents_that_declare_identifiers(tmp_path: Path) -> None:
    """Start-up is most of a small comparison's time: a 3.1 pair resolving pointers alone does without it."""
    plain = _api({"Pet": _pet(**{"$comment": "no identifier"})}, {"$ref": "#/components/schemas/Pet"})
    anchored = _api({"Pet": _pet(**{"$anchor": "pet"})}, {"$ref": "#pet"})
    loaded = {}
    for name, spec in (("plain", plain), ("anchored", anchored)):
        (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
        path = tmp_path / f"{name}.yaml"
        loaded[name] = _imported_after(_compare(path, path), tmp_path)
    assert "referencing" not in loaded["plain"] and "jsonschema_specifications" not in loaded["plain"]
    assert "referencing" in loaded["anchored"]


def test_a_changed_binding_is_reported_at_each_use_of_the_generic_folded_as_one(tmp_path: Path) -> None:
    """A page generic uses its item twice (`items[]` and `first`); PetPage binds the item to a pet whose name
    changed type: one change, at both places the generic reads it."""
    def spec(kind: str) -> dict[str, Any]:
        page = {"$id": "https://example.com/page", "type": "object",
                "properties": {"items": {"type": "array", "items": {"$dynamicRef": "#item"}},
                               "first": {"$dynamicRef": "#item"}},
                "$defs": {"anything": {"$dynamicAnchor": "item"}}}
        pets = {"$id": "https://example.com/pets", "$ref": "page",
                "$defs": {"pet": {"$dynamicAnchor": "item", "type": "object",
                                  "properties": {"name": {"type": kind}}}}}
        return _api({"Page": page, "PetPage": pets}, {"$ref": "https://example.com/pets"})

    code, report, stderr = _run(tmp_path, spec("string"), spec("integer"))
    assert code == 1, stderr
    assert [(f["rule"], f["pointer"], [m["location"]["label"] for m in f["members"]]) for f in report["findings"]] == [
        ("schema.type-changed", "/components/schemas/PetPage/$defs/pet/properties/name",
         ["PetPage.first.name", "PetPage.items[].name"])]


def test_dynamic_refs_that_fan_out_compare_each_pair_once(tmp_path: Path) -> None:
    """Six levels of ten properties, each a `$dynamicRef` to the next level's anchor: a million paths to the
    leaves, each leaf changed found once, under the hang guard and the memory cap."""
    def make(kind: str) -> dict[str, Any]:
        levels: dict[str, Any] = {f"L{n}": {"$dynamicAnchor": f"l{n}", "type": "object", "properties": {
            f"p{i}": {"$dynamicRef": f"#l{n + 1}"} for i in range(10)}} for n in range(1, 6)}
        levels["L6"] = {"$dynamicAnchor": "l6", "type": "object",
                        "properties": {f"p{i}": {"type": kind} for i in range(10)}}
        return _api(levels, {"$ref": "#/components/schemas/L1"})

    assert sorted(_pointers(_bounded(tmp_path, make))) == [
        ("schema.type-changed", f"/components/schemas/L6/properties/p{i}") for i in range(10)]


def test_a_32_documents_self_is_the_base_of_its_references_through_the_command(tmp_path: Path) -> None:
    """OpenAPI 3.2's `$self`: `https://example.com/api/pet.yaml` under `$self: https://example.com/api/...` is
    the file beside the document, read from disk, never fetched."""
    for side, kind in (("a", "string"), ("b", "integer")):
        (tmp_path / side).mkdir()
        spec = _api({}, {"$ref": "https://example.com/api/pet.yaml"}, version="3.2.0",
                     **{"$self": "https://example.com/api/openapi.yaml"})
        (tmp_path / side / "api.yaml").write_text(yaml.safe_dump(spec), encoding="utf-8")
        (tmp_path / side / "pet.yaml").write_text(yaml.safe_dump(_pet(kind)), encoding="utf-8")
    done = CliRunner().invoke(main, [str(tmp_path / "a/api.yaml"), str(tmp_path / "b/api.yaml"), "--no-config",
                                     "--format", "json"])
    assert done.exit_code == 1, done.output
    assert [(f["rule"], f["pointer"]) for f in json.loads(done.stdout)["findings"]] == [
        ("schema.type-changed", "/properties/name")]
