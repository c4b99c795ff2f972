"""A version's graph built knowing the version before takes the records of the path items both write alike
(graph.reuse): findings are those of graphs built apart, and point into the new document."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from specdiff.cli import main
from specdiff.errors import InputError
from specdiff.graph import graph_of
from specdiff.graph.build import Builder
from specdiff.graph.model import SpecGraph
from specdiff.load import load, load_text
from specdiff.load.document import Document
from specdiff.pipeline import compare_graphed, graphed, run

OWNER = {"type": "object", "properties": {"name": {"type": "string"}}}


def swagger() -> dict[str, Any]:
    return {
        "swagger": "2.0", "info": {"title": "pets", "version": "1"}, "produces": ["application/json"],
        "paths": {
            "/pets": {"get": {"parameters": [{"$ref": "#/parameters/limit"}],
                              "responses": {"200": {"$ref": "#/responses/Pets"}}}},
            "/owners": {"get": {"responses": {"200": {"description": "ok",
                                                      "schema": {"$ref": "#/definitions/Owner"}}}}},
        },
        "parameters": {"limit": {"name": "limit", "in": "query", "type": "integer"}},
        "responses": {"Pets": {"description": "pets", "schema": {"type": "array",
                                                                  "items": {"$ref": "#/definitions/Pet"}}}},
        "definitions": {"Pet": {"type": "object", "properties": {"id": {"type": "integer"}}},
                        "Owner": copy.deepcopy(OWNER)},
    }


def document(spec: dict[str, Any], name: str) -> Document:
    return load_text(json.dumps(spec, indent=1), name, None)


def graphs(old: dict[str, Any], new: dict[str, Any]) -> tuple[SpecGraph, SpecGraph]:
    earlier = graph_of(document(old, "old.json"))
    return earlier, graph_of(document(new, "new.json"), earlier)


def taken(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The operations the new graph took from the old one."""
    earlier, later = graphs(old, new)
    return [key for key, op in later.operations.items() if earlier.operations.get(key) is op]


def findings(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str]]:
    """The findings of the pair, which must be those of graphs built apart."""
    old_doc, new_doc = document(old, "old.json"), document(new, "new.json")
    found = sorted((f.rule, f.change.pointer) for f in run(old_doc, new_doc).findings)
    apart = compare_graphed(graphed(old_doc), graphed(new_doc))
    assert sorted((f.rule, f.change.pointer) for f in apart.findings) == found
    return found


def test_items_written_alike_are_taken_and_a_named_schema_they_use_is_compared_where_it_is() -> None:
    new = swagger()
    new["definitions"]["Owner"]["properties"]["age"] = {"type": "integer"}
    assert taken(swagger(), new) == ["GET /pets", "GET /owners"]
    assert findings(swagger(), new) == [("schema.property.added", "/definitions/Owner/properties/age")]


def test_a_changed_shared_parameter_is_read_again_in_the_items_that_use_it() -> None:
    new = swagger()
    new["parameters"]["limit"]["type"] = "string"
    assert taken(swagger(), new) == []
    assert findings(swagger(), new) == [("schema.type-changed", "/parameters/limit")]


def test_a_changed_shared_response_is_read_again() -> None:
    new = swagger()
    new["responses"]["Pets"]["schema"]["items"] = {"$ref": "#/definitions/Owner"}
    assert taken(swagger(), new) == []
    assert findings(swagger(), new) == [("schema.body-type-replaced", "/responses/Pets/schema/items/$ref")]


def test_what_the_document_says_for_every_operation_changed() -> None:
    produces = swagger()
    produces["produces"] = ["application/xml"]
    assert taken(swagger(), produces) == []
    assert findings(swagger(), produces) == [
        ("response.media-type-added", "/paths/~1owners/get/responses/200/schema"),
        ("response.media-type-removed", "/paths/~1owners/get/responses/200/schema")]
    secured = swagger()
    secured["securityDefinitions"] = {"key": {"type": "apiKey", "name": "key", "in": "header"}}
    secured["security"] = [{"key": []}]
    assert taken(swagger(), secured) == []
    assert findings(swagger(), secured) == [("security.authentication-required", "/security"),
                                            ("security.scheme-added", "/securityDefinitions/key")]


def test_a_moved_item_is_read_where_it_is_now_and_the_operations_follow_the_new_order() -> None:
    moved = swagger()
    moved["paths"] = {"/animals": moved["paths"]["/pets"], "/owners": moved["paths"]["/owners"]}
    assert taken(swagger(), moved) == ["GET /owners"]
    assert findings(swagger(), moved) == [("operation.added", "/paths/~1animals/get"),
                                          ("operation.removed", "/paths/~1pets/get")]
    reordered = swagger()
    reordered["paths"] = dict(reversed(reordered["paths"].items()))
    assert taken(swagger(), reordered) == ["GET /owners", "GET /pets"]
    assert findings(swagger(), reordered) == []


def test_a_named_schema_the_document_does_not_list_is_added_as_the_item_is_read() -> None:
    """A `$ref` to `#/definitions/Legacy` in an OpenAPI 3 document names a schema `components` does not list: the
    builder adds it as it reads the item, so the item is read again."""
    spec = {"openapi": "3.0.3", "info": {"title": "legacy", "version": "1"}, "definitions": {"Legacy": OWNER},
            "paths": {"/old": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": "#/definitions/Legacy"}}}}}}}}}
    earlier, later = graphs(spec, spec)
    assert "Legacy" in later.schemas and later.operations["GET /old"] is not earlier.operations["GET /old"]
    assert later.operations_reaching("Legacy") == ("GET /old",)


def test_callbacks_are_operations_of_their_own_and_are_read_again() -> None:
    spec = {"openapi": "3.0.3", "info": {"title": "hooks", "version": "1"}, "paths": {"/subscribe": {"post": {
        "responses": {"201": {"description": "ok"}},
        "callbacks": {"event": {"{$request.body#/url}": {"post": {"responses": {"200": {"description": "ok"}}}}}},
    }}, "/plain": {"get": {"responses": {"200": {"description": "ok"}}}}}}
    earlier, later = graphs(spec, spec)
    assert [key for key, op in later.operations.items() if earlier.operations.get(key) is op] == ["GET /plain"]
    assert list(later.operations) == list(earlier.operations)


def test_a_history_checks_what_the_version_before_took_too(tmp_path: Path, monkeypatch: Any) -> None:
    """v2 takes `/pets` from v1, so it does not read `#/parameters/limit` itself; v3 changes that parameter, and
    the step from v2 finds it."""
    v3 = swagger()
    v3["parameters"]["limit"]["type"] = "string"
    v2 = swagger()
    v2["definitions"]["Owner"]["properties"]["age"] = {"type": "integer"}
    v3["definitions"]["Owner"] = v2["definitions"]["Owner"]
    assert taken(swagger(), v2) == ["GET /pets", "GET /owners"]
    for name, spec in (("v1", swagger()), ("v2", v2), ("v3", v3)):
        (tmp_path / f"{name}.json").write_text(json.dumps(spec, indent=1), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(main, ["history", "--no-config", "v1.json", "v2.json", "v3.json", "--format", "json",
                                     "--jobs", "1"])
    steps = [[(f["rule"], f["pointer"]) for f in step["findings"]] for step in json.loads(done.stdout)["steps"]]
    assert steps == [[("schema.property.added", "/definitions/Owner/properties/age")],
                     [("schema.type-changed", "/parameters/limit")]]
    assert steps == [findings(swagger(), v2), findings(v2, v3)]


def test_findings_point_at_the_lines_of_the_new_file(tmp_path: Path, monkeypatch: Any) -> None:
    """The new file writes a path item first, so every line after it moves: the records taken name no document
    (each reader takes the graph's own), and the annotation is on the new file's line."""
    new = swagger()
    new["paths"] = {"/shops": {"get": {"responses": {"200": {"description": "ok"}}}}, **new["paths"]}
    new["definitions"]["Owner"]["properties"]["age"] = {"type": "integer"}
    earlier, later = graphs(swagger(), new)
    owners = later.operations["GET /owners"]
    assert owners is earlier.operations["GET /owners"] and owners.document is None
    assert [media.document for response in owners.responses.values() for media in response.media.values()] == [None]
    assert all(parameter.document is None for parameter in later.operations["GET /pets"].parameters.values())
    for name, spec in (("old.json", swagger()), ("new.json", new)):
        (tmp_path / name).write_text(json.dumps(spec, indent=1), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(main, ["old.json", "new.json", "--no-config", "--format", "github", "--fail-on",
                                     "never", "--annotate-level", "safe"])
    text = (tmp_path / "new.json").read_text(encoding="utf-8").splitlines()
    lines = {name: next(number for number, line in enumerate(text, 1) if f'"{name}"' in line)
             for name in ("/shops", "age")}
    assert re.findall(r"file=new\.json,line=(\d+),col=\d+,title=([\w.-]+)", done.stdout) == [
        (str(lines["/shops"] + 1), "operation.added"), (str(lines["age"]), "schema.property.added")]


def test_a_route_another_item_took_in_the_old_document_is_read_from_its_own() -> None:
    """`/pets/{id}` and `/pets/{name}` are one route, whose operation the old graph read from the first; the new
    document keeps the second alone, written as before, and its operation is read from it."""
    old = swagger()
    old["paths"] = {f"/pets/{{{name}}}": {"get": {"description": f"by {name}", "responses": {"200": {
        "description": "ok"}}}} for name in ("id", "name")}
    new = copy.deepcopy(old)
    del new["paths"]["/pets/{id}"]
    assert graphs(old, new)[1].operations["GET /pets/{}"].pointer == "/paths/~1pets~1{name}/get"


def test_a_schema_reached_through_a_ref_to_no_named_schema_is_read_again() -> None:
    """Such a schema is compared on its own (`Normaliser.opaque`), and the builder reads it as it reads the item."""
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {
        "parameters": [{"name": "q", "in": "query", "schema": {"$ref": "#/components/parameters/p/schema"}}],
        "responses": {"200": {"description": "ok"}}}}},
        "components": {"parameters": {"p": {"name": "p", "in": "query", "schema": {"type": "string"}}}}}
    assert list(graphs(spec, spec)[1].normal.opaque) == [("", "/components/parameters/p/schema")]


def test_a_ref_that_cannot_be_followed_is_noted_again() -> None:
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/b": {"get": {
        "x-links": {"$ref": "#/components/missing"}, "responses": {"200": {"description": "ok"}}}}}}
    assert graphs(spec, spec)[1].notes == (
        "new.json:11:6: $ref '#/components/missing' points at nothing: not followed, so what it points at is not "
        "compared",)


def test_a_file_a_taken_item_would_refer_to_is_read(tmp_path: Path) -> None:
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {
        "parameters": [{"$ref": "common.json#/parameters/q"}], "responses": {"200": {"description": "ok"}}}}}}
    for version in ("old", "new"):
        (tmp_path / version).mkdir()
        (tmp_path / version / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
        (tmp_path / version / "common.json").write_text(
            json.dumps({"parameters": {"q": {"name": "q", "in": "query"}}}), encoding="utf-8")
    earlier = graph_of(load(str(tmp_path / "old" / "spec.json")))
    later = graph_of(load(str(tmp_path / "new" / "spec.json")), earlier)
    parameter = later.operations["GET /a"].parameters["query", "q"]
    assert parameter.document is later.normal.resolver.externals["common.json"] is not None


def test_an_operation_written_alike_but_for_its_parameters_takes_the_rest_of_its_reading() -> None:
    """`/pets` gains a parameter, as a Kubernetes release adds one to every list operation: its record is new, with
    the new parameter, and its responses are the earlier graph's; the findings are those of graphs built apart."""
    new = swagger()
    new["parameters"]["shard"] = {"name": "shard", "in": "query", "type": "string"}
    new["paths"]["/pets"]["get"]["parameters"].append({"$ref": "#/parameters/shard"})
    new["definitions"]["Pet"]["properties"]["name"] = {"type": "string"}
    earlier, later = graphs(swagger(), new)
    before, after = earlier.operations["GET /pets"], later.operations["GET /pets"]
    assert after is not before and after.responses is before.responses
    assert list(after.parameters) == [("query", "limit"), ("query", "shard")]
    assert after.parameters["query", "limit"] is before.parameters["query", "limit"]  # read from one shared place
    assert later.operations_reaching("Pet") == ("GET /pets",)
    assert findings(swagger(), new) == [("parameter.optional-added", "/parameters/shard"),
                                        ("schema.property.added", "/definitions/Pet/properties/name")]


def test_an_operation_whose_object_changed_beside_its_parameters_is_read_again() -> None:
    """Its responses are read again; the parameter it reads through a `$ref` to a place both documents write alike
    is the earlier graph's record, as every operation that refers to it takes it."""
    new = swagger()
    new["paths"]["/pets"]["get"]["parameters"].append({"name": "shard", "in": "query", "type": "string"})
    new["paths"]["/pets"]["get"]["responses"]["404"] = {"description": "none"}
    earlier, later = graphs(swagger(), new)
    assert later.operations["GET /pets"].responses is not earlier.operations["GET /pets"].responses
    assert later.operations["GET /pets"].parameters["query", "limit"] is \
        earlier.operations["GET /pets"].parameters["query", "limit"]
    assert later.referred_parameters == {"/parameters/limit": earlier.operations["GET /pets"].parameters[
        "query", "limit"]}
    assert findings(swagger(), new) == [("parameter.optional-added", "/paths/~1pets/get/parameters/1"),
                                        ("response.error-status-added", "/paths/~1pets/get/responses/404")]


def test_a_named_schema_written_alike_takes_its_references_and_they_still_reach(monkeypatch: Any) -> None:
    """`Pet` is written alike and refers to `Owner`, which changed: the edge is taken from the earlier graph (the
    new graph walks only `Owner` for its `$ref`s), so the change to `Owner` reaches the operation through `Pet`."""
    old = swagger()
    old["definitions"]["Pet"]["properties"]["owner"] = {"$ref": "#/definitions/Owner"}
    old["paths"].pop("/owners")
    new = copy.deepcopy(old)
    new["definitions"]["Owner"]["properties"]["age"] = {"type": "integer"}
    walked: list[str] = []
    walk = Builder._walk_refs

    def watched(self: Builder, schema: Any, pointer: str, doc: Document) -> set[str]:
        walked.append(pointer)
        return walk(self, schema, pointer, doc)

    monkeypatch.setattr(Builder, "_walk_refs", watched)
    earlier = graph_of(document(old, "old.json"))
    assert walked == ["/definitions/Pet", "/definitions/Owner", "/responses/Pets/schema"]
    walked.clear()
    later = graph_of(document(new, "new.json"), earlier)
    assert walked == ["/definitions/Owner"]
    assert later.graph.out_edges(("schema", "Pet")) == [(("schema", "Pet"), ("schema", "Owner"))]
    assert later.operations_reaching("Owner") == ("GET /pets",)
    assert findings(old, new) == [("schema.property.added", "/definitions/Owner/properties/age")]


def test_a_named_schema_whose_reference_went_is_read_again_and_refused() -> None:
    old = swagger()
    old["definitions"]["Pet"]["properties"]["owner"] = {"$ref": "#/definitions/Owner"}
    new = copy.deepcopy(old)
    del new["definitions"]["Owner"]
    new["paths"].pop("/owners")
    earlier = graph_of(document(old, "old.json"))
    with pytest.raises(InputError, match="'#/definitions/Owner' points at nothing"):
        graph_of(document(new, "new.json"), earlier)


def test_an_operation_written_alike_but_for_parameters_moved_removed_and_added_says_each() -> None:
    """The differ passes over the parameter records the new graph took whole and reads the others: one moved from
    the query to a header, one removed and one added are each found, as graphs built apart find them."""
    old, new = swagger(), swagger()
    old["paths"]["/pets"]["get"]["parameters"] += [{"name": "page", "in": "query", "type": "integer"},
                                                   {"name": "token", "in": "query", "type": "string"}]
    new["paths"]["/pets"]["get"]["parameters"] += [{"name": "token", "in": "header", "type": "string"},
                                                   {"name": "shard", "in": "query", "type": "string"}]
    earlier, later = graphs(old, new)
    before, after = earlier.operations["GET /pets"], later.operations["GET /pets"]
    assert after.responses is before.responses
    assert after.parameters["query", "limit"] is before.parameters["query", "limit"]
    assert findings(old, new) == [("parameter.moved", "/paths/~1pets/get/parameters/1"),
                                  ("parameter.optional-added", "/paths/~1pets/get/parameters/2"),
                                  ("parameter.removed", "/paths/~1pets/get/parameters/1")]


def test_a_parameter_referred_to_under_paths_of_other_parameters_is_one_record_in_both_graphs() -> None:
    """Only its key depends on the path's parameters: routes with other path parameters name the record read
    first, and the next version's graph takes that one, so the differ meets one object in every operation."""
    old = swagger()
    old["paths"]["/owners/{id}/pets"] = {"get": {"parameters": [
        {"name": "id", "in": "path", "required": True, "type": "string"}, {"$ref": "#/parameters/limit"}],
        "responses": {"200": {"description": "ok"}}}}
    new = copy.deepcopy(old)
    for item in new["paths"].values():
        item["get"].setdefault("parameters", []).append({"name": "shard", "in": "query", "type": "string"})
    earlier, later = graphs(old, new)
    limits = {id(graph.operations[key].parameters["query", "limit"]) for graph in (earlier, later)
              for key in ("GET /pets", "GET /owners/{}/pets")}
    assert len(limits) == 1


def test_an_operation_taking_the_earlier_responses_has_the_edges_of_a_graph_built_apart() -> None:
    """Its responses' edges are read off the earlier graph's, in their order and with whether XML carries each;
    where its body uses a schema its responses use too, they are read again."""
    old = swagger()
    old["definitions"]["Query"] = {"type": "object"}
    pet = {"$ref": "#/definitions/Pet"}
    old["paths"]["/pets"]["post"] = {"parameters": [{"name": "pet", "in": "body", "schema": pet}],
                                     "responses": {"200": {"description": "ok", "schema": pet}}}
    listing = old["paths"]["/pets"]["get"]
    listing["produces"] = ["application/xml", "application/json"]
    listing["responses"]["404"] = {"description": "none", "schema": {"$ref": "#/definitions/Owner"}}
    new = copy.deepcopy(old)
    for operation in new["paths"]["/pets"].values():
        operation["parameters"].append({"name": "q", "in": "query", "type": "array",
                                        "items": {"$ref": "#/definitions/Query"}})
    earlier, later = graphs(old, new)
    apart = graph_of(document(new, "new.json"))
    for key in ("GET /pets", "POST /pets"):
        assert later.operations[key] is not earlier.operations[key]
        assert later.operations[key].responses is earlier.operations[key].responses
        assert list(later.graph.succ["op", key].items()) == list(apart.graph.succ["op", key].items())
    assert later.graph.succ["op", "GET /pets"]["schema", "Owner"] == {"directions": {"response"}, "xml": True}


def test_an_operation_that_only_gained_a_plain_parameter_takes_the_earlier_edges(monkeypatch: Any) -> None:
    """Its edges are the earlier operation's, body and parameter uses included, as a graph built apart gives them;
    where its parameters name their schemas in another order, or it gained one that names a schema, they are read
    again, in the new order."""
    old = swagger()
    old["definitions"].update({"Query": {"type": "object"}, "Sort": {"type": "object"}})
    pet = {"$ref": "#/definitions/Pet"}
    query, sort = ({"name": name, "in": "query", "type": "array", "items": {"$ref": f"#/definitions/{schema}"}}
                   for name, schema in (("q", "Query"), ("sort", "Sort")))
    old["paths"]["/pets"]["get"]["parameters"] += [query, sort]
    old["paths"]["/pets"]["post"] = {"parameters": [{"name": "pet", "in": "body", "schema": pet}, query],
                                     "produces": ["application/xml"],
                                     "responses": {"200": {"description": "ok", "schema": pet}}}
    gained = copy.deepcopy(old)
    for operation in gained["paths"]["/pets"].values():
        operation["parameters"].append({"name": "shard", "in": "query", "type": "string"})
    reordered = copy.deepcopy(gained)
    reordered["paths"]["/pets"]["get"]["parameters"][1:3] = [sort, query]
    named = copy.deepcopy(old)
    named["paths"]["/pets"]["post"]["parameters"].append(sort)
    linked: list[str] = []
    link = Builder._link_operation
    monkeypatch.setattr(Builder, "_link_operation", lambda self, op, *rest: linked.append(op.key) or link(
        self, op, *rest))
    for new, kept in ((gained, {"GET /pets", "POST /pets"}), (reordered, {"POST /pets"}), (named, {"GET /pets"})):
        earlier = graph_of(document(old, "old.json"))
        linked.clear()
        later = graph_of(document(new, "new.json"), earlier)
        assert linked == [key for key in ("GET /pets", "POST /pets") if key not in kept]
        apart = graph_of(document(new, "new.json"))
        for key in ("GET /pets", "POST /pets"):
            assert later.operations[key] is not earlier.operations[key]
            assert list(later.graph.succ["op", key].items()) == list(apart.graph.succ["op", key].items())
    assert list(graphs(old, reordered)[1].graph.succ["op", "GET /pets"]) == [
        ("schema", "Sort"), ("schema", "Query"), ("schema", "Pet")]


def test_an_operation_of_a_path_item_that_gained_or_lost_a_shared_parameter_takes_the_rest_of_its_reading() -> None:
    """The operation object is written alike, so its record takes the earlier responses and has the path item's
    parameters; an item that only lost a key is not taken whole. Findings are those of graphs built apart."""
    shard = {"name": "shard", "in": "query", "type": "string"}
    shared = swagger()
    shared["paths"]["/pets"]["parameters"] = [shard]
    at = "/paths/~1pets/parameters/0"
    for old, new, found in ((swagger(), shared, ("parameter.optional-added", at)),
                            (shared, swagger(), ("parameter.removed", at))):
        earlier, later = graphs(old, new)
        before, after = earlier.operations["GET /pets"], later.operations["GET /pets"]
        assert after is not before and after.responses is before.responses
        assert (("query", "shard") in after.parameters) == ("parameters" in new["paths"]["/pets"])
        assert findings(old, new) == [found]
    assert taken(swagger(), shared) == taken(shared, swagger()) == ["GET /owners"]


def test_an_operation_written_alike_but_for_its_parameters_takes_its_servers_unless_its_path_items_changed() -> None:
    """The same context gives the same servers: the earlier record's are taken, unless the path item's `servers`
    changed too, where the operation is read again and is called at the new ones."""
    def spec(url: str) -> dict[str, Any]:
        return {"openapi": "3.0.3", "info": {"title": "pets", "version": "1"}, "servers": [{"url": "https://x.example"}],
                "paths": {"/pets": {"servers": [{"url": url}],
                                    "get": {"responses": {"200": {"description": "ok"}}}}}}
    shard = {"name": "shard", "in": "query", "schema": {"type": "string"}}
    for url in ("https://a.example", "https://b.example"):
        new = spec(url)
        new["paths"]["/pets"]["get"]["parameters"] = [shard]
        earlier, later = graphs(spec("https://a.example"), new)
        before, after = earlier.operations["GET /pets"], later.operations["GET /pets"]
        assert [server.url for server in after.servers] == [url]
        assert (after.servers is before.servers, after.responses is before.responses) == (
            (True, True) if url == "https://a.example" else (False, False))
        assert findings(spec("https://a.example"), new) == [
            ("parameter.optional-added", "/paths/~1pets/get/parameters/0/schema"),
            *([] if url == "https://a.example" else [("server.url-changed", "/paths/~1pets/servers/0/url")])]



def test_a_path_item_that_stops_writing_its_servers_calls_its_operations_at_the_documents() -> None:
    """A key the new path item no longer writes differs as one written otherwise does: with or without a new
    parameter, the operation is read again and is called at the document's servers."""
    old = {"openapi": "3.0.3", "info": {"title": "pets", "version": "1"}, "servers": [{"url": "https://doc.example"}],
           "paths": {"/pets": {"servers": [{"url": "https://item.example"}],
                               "get": {"responses": {"200": {"description": "ok"}}}}}}
    for parameters in ([], [{"name": "shard", "in": "query", "schema": {"type": "string"}}]):
        new = copy.deepcopy(old)
        del new["paths"]["/pets"]["servers"]
        if parameters:
            new["paths"]["/pets"]["get"]["parameters"] = parameters
        _, later = graphs(old, new)
        assert [server.url for server in later.operations["GET /pets"].servers] == ["https://doc.example"]
        assert findings(old, new) == [
            *([("parameter.optional-added", "/paths/~1pets/get/parameters/0/schema")] if parameters else []),
            ("server.url-changed", "/servers/0/url")]

def openapi_pets() -> dict[str, Any]:
    """An OpenAPI 3 path item as the Kubernetes v3 documents write one: the path's parameters shared by its
    operations, each operation's own written inline."""
    def query(name: str) -> dict[str, Any]:
        return {"name": name, "in": "query", "description": f"the {name}", "schema": {"type": "string"}}

    return {"openapi": "3.0.3", "info": {"title": "pets", "version": "1"},
            "paths": {"/pets/{id}": {
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                               query("pretty"), query("limit")],
                "get": {"parameters": [query("watch"), query("continue")],
                        "responses": {"200": {"description": "ok"}}},
                "put": {"parameters": [query("dryRun")],
                        "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
                        "responses": {"200": {"description": "ok"}}}}}}


def test_a_list_of_parameters_written_alike_at_its_place_is_the_earlier_records_and_so_is_each_item_of_one() -> None:
    """The path's `pretty` became required and `put` changed its body: the operations' own lists are written alike
    and name the earlier records, and so do the path's other parameters, each written alike at its position; the
    changed one and those after a parameter inserted before them are read again, with their new places. Findings
    are those of graphs built apart."""
    new = openapi_pets()
    shared = new["paths"]["/pets/{id}"]["parameters"]
    shared[1]["required"] = True
    new["paths"]["/pets/{id}"]["put"]["requestBody"]["content"]["application/yaml"] = {"schema": {"type": "object"}}
    earlier, later = graphs(openapi_pets(), new)
    for key in ("GET /pets/{}", "PUT /pets/{}"):
        before, after = earlier.operations[key].parameters, later.operations[key].parameters
        assert [name for name, param in after.items() if param is not before[name]] == [("query", "pretty")]
    assert later.operations["PUT /pets/{}"].parameters["query", "pretty"].required
    assert findings(openapi_pets(), new) == [
        ("parameter.became-required", "/paths/~1pets~1{id}/parameters/1/schema"),
        ("request.media-type-added", "/paths/~1pets~1{id}/put/requestBody/content/application~1yaml/schema")]

    moved = openapi_pets()
    moved["paths"]["/pets/{id}"]["get"]["parameters"].insert(0, {"name": "shard", "in": "query",
                                                                 "schema": {"type": "string"}})
    earlier, later = graphs(openapi_pets(), moved)
    before, after = earlier.operations["GET /pets/{}"].parameters, later.operations["GET /pets/{}"].parameters
    assert [name for name, param in after.items() if name in before and param is before[name]] == [
        ("path", "0"), ("query", "pretty"), ("query", "limit")]
    assert [after["query", name].pointer for name in ("shard", "watch", "continue")] == [
        f"/paths/~1pets~1{{id}}/get/parameters/{i}/schema" for i in range(3)]
    assert findings(openapi_pets(), moved) == [
        ("parameter.optional-added", "/paths/~1pets~1{id}/get/parameters/0/schema")]


def test_an_operation_whose_request_body_changed_takes_the_earlier_responses_and_reads_its_body() -> None:
    """`put` gained a media type for its body: its record takes the earlier responses and parameters and has the
    new body, and a third version writing the first body again is read against the second, not the first."""
    new = openapi_pets()
    new["paths"]["/pets/{id}"]["put"]["requestBody"]["content"]["application/yaml"] = {"schema": {"type": "object"}}
    first = graph_of(document(openapi_pets(), "old.json"))
    second = graph_of(document(new, "new.json"), first)
    third = graph_of(document(openapi_pets(), "third.json"), second)
    before, after, again = (graph.operations["PUT /pets/{}"] for graph in (first, second, third))
    assert after.responses is before.responses and after.body is not None and before.body is not None
    assert (list(before.body.media), list(after.body.media)) == (
        ["application/json"], ["application/json", "application/yaml"])
    assert again.responses is before.responses and again.body is not None
    assert list(again.body.media) == ["application/json"]
    assert findings(openapi_pets(), new) == [
        ("request.media-type-added", "/paths/~1pets~1{id}/put/requestBody/content/application~1yaml/schema")]
    assert findings(new, openapi_pets()) == [
        ("request.media-type-removed", "/paths/~1pets~1{id}/put/requestBody/content/application~1yaml/schema")]
