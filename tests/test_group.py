"""One finding per logical change: the grouping stage on real releases, its fingerprints, and the policy stage
matching a whole group or one member."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from conftest import corpus, real_pair

from specdiff import notation
from specdiff.classify import message_values
from specdiff.config import BaselineEntry, Config, ScopedIgnore
from specdiff.group import TypeUses, group_fingerprint, holds, operations_phrase
from specdiff.group import group as grouped_findings
from specdiff.load import load_text
from specdiff.load.document import Document
from specdiff.notation import finding_scope
from specdiff.pipeline import run
from specdiff.records import Context, Finding, Report, field_path
from specdiff.report import render
from specdiff.report.sections import sentence

V2 = "kubernetes/v2/swagger-v1.{}.json"
ROUTES = "crds/gateway-api/httproutes.standard.{}.yaml"


compare = real_pair


def _only(report: Report, rule: str) -> Finding:
    found = [f for f in report.findings if f.rule == rule]
    assert len(found) == 1, [f.message for f in found]
    return found[0]


def test_shard_selector_is_one_finding_listing_its_402_operations() -> None:
    report = compare(V2.format(35), V2.format(36))
    shard = _only(report, "parameter.optional-added")
    assert shard.message == ("optional query parameter shardSelector added to 402 operations: list, watch and "
                             "deletecollection of 66 resources in 33 group-versions of 21 API groups")
    assert len(shard.members) == len(shard.operations) == 402
    assert {field_path(m.change.context) for m in shard.members} == {"query parameter shardSelector"}
    assert {"GET /api/v1/pods", "GET /api/v1/watch/namespaces/{namespace}/pods"} <= set(shard.operations)
    assert shard.fingerprint == group_fingerprint(shard.members[0]) != shard.members[0].fingerprint
    ungrouped = compare(V2.format(35), V2.format(36), grouped=False)
    assert len([f for f in ungrouped.findings if f.rule == "parameter.optional-added"]) == 402
    assert sum(len(f.members) or 1 for f in report.findings) == len(ungrouped.findings) == 527


def test_a_group_is_written_alike_from_the_values_classify_carried_or_from_the_changes() -> None:
    """Classify hands each finding the values its message was written from, and a group reads them rather than
    working them out again for each member; findings made without them (by hand) group to the same words and
    fingerprints, and the values are no part of what a finding is (equality, repr). Grouping only reads them: the
    two groupings agree even when it writes into a member's values, so that is checked on its own."""
    carried = list(compare(V2.format(35), V2.format(36), grouped=False).findings)
    assert all(finding.values == message_values(finding.change) for finding in carried)
    bare = [replace(finding, values={}) for finding in carried]
    assert bare == carried and repr(bare[0]) == repr(carried[0])

    def said(findings: list[Finding]) -> list[tuple[str, str, int]]:
        found = grouped_findings(findings, kinds=True, api_server=True)
        return [(f.message, f.fingerprint, len(f.members)) for f in found]

    shown = said(carried)
    assert shown == said(bare)
    assert ("optional query parameter shardSelector added to 402 operations: list, watch and deletecollection of 66 "
            "resources in 33 group-versions of 21 API groups") in {message for message, _, _ in shown}
    # the dict classify handed each finding is the finding's own: grouping reads it and never writes into it
    assert all(finding.values == message_values(finding.change) for finding in carried)


def test_a_findings_place_is_named_once_by_classify() -> None:
    """Classify hands each finding its place as the notation names it, and grouping and the reports read it
    rather than naming it again; findings made without it (by hand) group and read to the same words, and the
    place is no part of what a finding is. A parameter's `location` fact (query, path) takes the message's
    `{location}`, never the finding's place."""
    carried = list(compare(V2.format(35), V2.format(36), grouped=False).findings)
    assert all(finding.place == notation.name(finding.change.context) for finding in carried)
    shard = next(f for f in carried if f.rule == "parameter.optional-added")
    assert (shard.place, shard.values["location"]) == (
        "DELETE /apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations query parameter shardSelector",
        "query")
    bare = [replace(finding, place="") for finding in carried]
    assert bare == carried and repr(bare[0]) == repr(carried[0])

    def said(findings: list[Finding]) -> list[tuple[str, str, str]]:
        found = grouped_findings(findings, kinds=True, api_server=True)
        return [(f.message, f.fingerprint, sentence(f)) for f in found]

    assert said(carried) == said(bare)
    assert [sentence(f) for f in carried] == [sentence(f) for f in bare]
    assert sentence(shard) == ("Optional query parameter shardSelector added to DELETE "
                               "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations")


def test_the_shard_selector_counts_agree_with_the_spec() -> None:
    """Counted from what each operation declares (its x-kubernetes-group-version-kind and action), not from the
    path reading the phrase uses: a resource is a group and a plural name, served in one or more versions."""
    shard = _only(compare(V2.format(35), V2.format(36)), "parameter.optional-added")
    spec = json.loads(corpus(V2.format(36)).read_text())
    declared = []
    for label in shard.operations:
        method, _, path = label.partition(" ")
        operation = spec["paths"][path][method.lower()]
        plural = [part for part in path.split("/") if part and not part.startswith("{")][-1]
        declared.append((operation["x-kubernetes-action"], operation["x-kubernetes-group-version-kind"], plural))
    assert {action for action, _, _ in declared} == {"list", "watch", "watchlist", "deletecollection"}
    assert len({(gvk["group"], plural) for _, gvk, plural in declared}) == 66
    assert len({(gvk["group"], gvk["version"]) for _, gvk, _ in declared}) == 33
    assert len({gvk["group"] for _, gvk, _ in declared}) == 21
    assert len({(gvk["group"], gvk["version"], plural) for _, gvk, plural in declared}) == 82  # resource versions


def test_the_same_change_in_each_version_of_a_type_is_one_finding() -> None:
    report = compare(V2.format(35), V2.format(36))
    grouped = {(finding_scope(f), f.message): sorted(m.change.context.schema or "" for m in f.members)
               for f in report.findings if f.members and f.rule == "schema.property.added"}
    assert grouped[("resource.k8s.io/{v1, v1beta1, v1beta2}", "optional property DeviceAttribute.bools added")
                   ] == [f"io.k8s.api.resource.{v}.DeviceAttribute" for v in ("v1", "v1beta1", "v1beta2")]


def test_enum_values_added_to_each_inlined_copy_of_a_type_in_both_served_versions_are_one_finding() -> None:
    """HTTPRoute inlines HTTPRouteFilter under rules[].filters[] and again under rules[].backendRefs[].filters[]
    in both served versions: the values one change adds to it are one finding, its places kept as members."""
    report = compare(ROUTES.format("v1.4.0"), ROUTES.format("v1.6.1"))
    enums = sorted((f.message, len(f.members)) for f in report.findings if f.rule == "schema.enum.value-added")
    assert {finding_scope(f) for f in report.findings if f.rule == "schema.enum.value-added"} == {
        "gateway.networking.k8s.io/{v1, v1beta1}"}
    where = "HTTPRoute.spec.rules[]"
    assert enums == [
        (f"enum value `CORS` added to 2 places: {where}.backendRefs[].filters[].type and {where}.filters[].type", 4),
        (f"enum values `303`, `307` and `308` added to 2 places: "
         f"{where}.backendRefs[].filters[].requestRedirect.statusCode and {where}.filters[].requestRedirect.statusCode",
         12),
    ]


def test_header_values_of_two_different_inlined_types_are_two_findings() -> None:
    """Header values of HTTPHeaderMatch (matches[].headers[]) and of HTTPHeader (the filters' add[] and set[])
    gain the same pattern, but they are different types, written out differently: two findings."""
    report = compare("crds/gateway-api/httproutes.experimental.v1.0.0.yaml",
                     "crds/gateway-api/httproutes.experimental.v1.6.1.yaml")
    patterns = sorted((len(f.members), sorted({field_path(m.change.context) or "" for m in f.members}))
                      for f in report.findings if f.rule == "schema.constraint-tightened"
                      and f.change.attribute == "pattern")
    filters = [f".spec.rules[]{copy}.filters[].{modifier}HeaderModifier.{verb}[].value"
               for copy in ("", ".backendRefs[]") for modifier in ("request", "response") for verb in ("add", "set")]
    assert patterns == [(2, [".spec.rules[].matches[].headers[].value"]), (16, sorted(filters))]


def _routes(rules: dict[str, list[str]]) -> Document:
    """A CRD that inlines one filter type in two lists (`rules[].filters`, `rules[].backendRefs[].filters`) and
    one header type in two others; `rules` maps a list's name to the validation rules written on it."""
    def listed(name: str, item: dict[str, Any]) -> dict[str, Any]:
        checks = [{"rule": rule, "message": "too many"} for rule in rules.get(name, [])]
        return {"type": "array", "items": item, **({"x-kubernetes-validations": checks} if checks else {})}

    text = {"type": "string"}
    filter_type = {"type": "object", "properties": {"type": text, "value": text}}
    header = {"type": "object", "properties": {"name": text, "value": text}}
    backend = {"type": "object", "properties": {"name": text, "filters": listed("backend-filters", filter_type)}}
    rule = {"type": "object", "properties": {"filters": listed("filters", filter_type),
                                             "backendRefs": {"type": "array", "items": backend}}}
    spec = {"type": "object", "properties": {"rules": {"type": "array", "items": rule},
                                             "requestHeaders": listed("requestHeaders", header),
                                             "responseHeaders": listed("responseHeaders", header)}}
    version = {"name": "v1", "served": True, "storage": True,
               "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}}}
    crd = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
           "metadata": {"name": "routes.example.com"},
           "spec": {"group": "example.com", "names": {"kind": "Route", "plural": "routes"}, "scope": "Namespaced",
                    "versions": [version]}}
    return load_text(json.dumps(crd), "routes.json", None)


def test_a_rule_added_to_each_list_of_one_inlined_type_is_one_finding() -> None:
    """Both lists of the filter type gain a rule, the second list writing another rule before it (its index
    differs): one finding, both lists its members. The same rule on a list of the header type is another
    change, although that type too is written out twice."""
    once, twice = "self.filter(f, f.type == 'Redirect').size() <= 1", "self.size() <= 16"
    old = _routes({"backend-filters": [twice]})
    new = _routes({"filters": [once, twice], "backend-filters": [twice, once], "requestHeaders": [twice]})
    report = run(old, new)
    at = "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties"
    filters = f"{at}/rules/items/properties/filters"
    backend_filters = f"{at}/rules/items/properties/backendRefs/items/properties/filters"
    assert sorted((f.rule, f.level.value, f.change.new, [m.change.pointer for m in f.members or [f]])
                  for f in report.findings) == [
        ("kubernetes.validation.rule-added", "breaking", once,
         [f"{backend_filters}/x-kubernetes-validations/1", f"{filters}/x-kubernetes-validations/0"]),
        ("kubernetes.validation.rule-added", "breaking", twice, [f"{at}/requestHeaders/x-kubernetes-validations/0"]),
        ("kubernetes.validation.rule-added", "breaking", twice, [f"{filters}/x-kubernetes-validations/1"]),
    ]
    record = next(r for r in json.loads(render(report, "json"))["findings"] if r["new"] == once)
    assert (record["count"], [m["location"]["label"] for m in record["members"]]) == (
        2, ["example.com/v1 Route.spec.rules[].backendRefs[].filters", "example.com/v1 Route.spec.rules[].filters"])


def test_the_httproute_filter_lists_gaining_rules_are_one_finding() -> None:
    """Gateway API 0.8.0 adds `self.filter(f, f.type == 'RequestHeaderModifier').size() <= 1` and the same check
    of RequestRedirect to both lists of HTTPRouteFilter; the backendRefs list writes another rule twice before
    them: one finding, each rule at each list a member."""
    report = compare(ROUTES.format("v0.6.0"), ROUTES.format("v0.8.0"))
    rules = [f"self.filter(f, f.type == '{kind}').size() <= 1" for kind in ("RequestHeaderModifier", "RequestRedirect")]
    found = [f for f in report.findings if f.rule == "kubernetes.validation.rule-added"
             and {m.change.new for m in f.members} & set(rules)]
    at = "/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/rules/items/properties"
    assert [(f.level.value, holds(f), sorted((m.change.new, m.change.pointer) for m in f.members)) for f in found] == [
        ("breaking", {"rules": 4}, sorted([
            (rules[0], f"{at}/backendRefs/items/properties/filters/x-kubernetes-validations/2"),
            (rules[1], f"{at}/backendRefs/items/properties/filters/x-kubernetes-validations/4"),
            (rules[0], f"{at}/filters/x-kubernetes-validations/1"),
            (rules[1], f"{at}/filters/x-kubernetes-validations/3")]))]
    assert found[0].message == ("validation rules added to 2 places: HTTPRoute.spec.rules[].backendRefs[].filters "
                                f"and HTTPRoute.spec.rules[].filters: `{rules[0]}` and `{rules[1]}`")


def test_json_keeps_the_members_with_their_own_fingerprints() -> None:
    report = compare(ROUTES.format("v1.4.0"), ROUTES.format("v1.6.1"))
    data = json.loads(render(report, "json"))
    record = next(r for r in data["findings"] if r["rule"] == "schema.enum.value-added" and r["count"] == 4)
    assert [(m["location"]["schema"], m["location"]["path"], m["new"]) for m in record["members"]] == [
        (f"httproutes.gateway.networking.k8s.io/{version}", f".spec.rules[]{copy}.filters[].type", "CORS")
        for version in ("v1", "v1beta1") for copy in (".backendRefs[]", "")]
    assert len({record["fingerprint"], *(m["fingerprint"] for m in record["members"])}) == 5


def _three_operations(old: bool) -> Document:
    parameter = [] if old else [{"name": "trace", "in": "query", "schema": {"type": "string"}}]
    ops = {f"/{name}": {"get": {"parameters": parameter, "responses": {"200": {"description": "ok"}}}}
           for name in ("a", "b", "c")}
    return load_text(json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": ops}),
                     f"{'old' if old else 'new'}.json", None)


def test_a_baseline_entry_accepts_the_whole_group_or_one_member() -> None:
    old, new = _three_operations(True), _three_operations(False)
    whole = run(old, new).findings
    assert [(f.message, len(f.members)) for f in whole] == [
        ("optional query parameter trace added to 3 operations: GET /a, GET /b and GET /c", 3)]
    group_entry = Config(baseline=(BaselineEntry(whole[0].fingerprint, "", "b:1"),))
    assert run(old, new, config=group_entry).findings == ()
    member = whole[0].members[1]
    one = run(old, new, config=Config(baseline=(BaselineEntry(member.fingerprint, "", "b:1"),))).findings
    assert [(f.message, [m.change.context.operation for m in f.members]) for f in one] == [
        ("optional query parameter trace added to 2 operations: GET /a and GET /c", ["GET /a", "GET /c"])]
    ignored = run(old, new, config=Config(ignores=(ScopedIgnore("parameter", "GET /b*", "why"),))).findings
    assert [len(f.members) for f in ignored] == [2]


def test_operations_phrase_names_kubernetes_verbs_and_falls_back_to_labels() -> None:
    def at(label: str, group_version: str | None = None, resource: str | None = None) -> Context:
        method, _, route = label.partition(" ")
        return Context(group_version=group_version, resource=resource, method=method, route=route)

    assert operations_phrase([at("GET /api/v1/pods", "core/v1", "pods"),
                              at("GET /api/v1/watch/pods", "core/v1", "pods"),
                              at("DELETE /api/v1/namespaces/{n}/pods", "core/v1", "pods"),
                              at("GET /apis/apps/v1/deployments", "apps/v1", "deployments"),
                              at("GET /apis/apps/v1/namespaces/{n}/deployments/{name}/status", "apps/v1",
                                 "deployments/status")]) == (
        "5 operations: list, watch and deletecollection of 2 resources in 2 API groups")
    assert operations_phrase([at("GET /apis/resource.k8s.io/v1/deviceclasses", "resource.k8s.io/v1", "deviceclasses"),
                              at("GET /apis/resource.k8s.io/v1beta1/deviceclasses", "resource.k8s.io/v1beta1",
                                 "deviceclasses"),
                              at("GET /apis/resource.k8s.io/v1beta1/resourceslices", "resource.k8s.io/v1beta1",
                                 "resourceslices")]) == (
        "3 operations: list of 2 resources in 2 versions of resource.k8s.io")
    assert operations_phrase([at("GET /apis/apps/v1/deployments", "apps/v1", "deployments"),
                              at("GET /apis/apps/v1beta1/deployments", "apps/v1beta1", "deployments"),
                              at("GET /api/v1/pods", "core/v1", "pods")]) == (
        "3 operations: list of 2 resources in 3 group-versions of 2 API groups")
    assert operations_phrase([at(label, resource="a") for label in ("GET /a", "GET /b", "PUT /c", "PUT /d",
                                                                    "PUT /e")]) == (
        "5 operations: GET /a, GET /b, PUT /c and 2 more")


def _deletes(answer: str) -> Document:
    """DELETE of a core/v1 Frob and an apps/v1 Gadget, each answering `answer` (Status, or "own": its kind)."""
    def kind(group: str, name: str) -> dict[str, str]:
        return {"group": group, "version": "v1", "kind": name}
    status = {"type": "object", "properties": {"code": {"type": "integer"}},
              "x-kubernetes-group-version-kind": [kind("", "Status")]}
    paths, definitions = {}, {"io.k8s.apimachinery.pkg.apis.meta.v1.Status": status}
    for path, group, name in (("/api/v1/namespaces/{namespace}/frobs/{name}", "", "Frob"),
                              ("/apis/apps/v1/namespaces/{namespace}/gadgets/{name}", "apps", "Gadget")):
        type_name = f"io.k8s.api.{group or 'core'}.v1.{name}"
        definitions[type_name] = {"type": "object", "properties": {"kind": {"type": "string"}},
                                  "x-kubernetes-group-version-kind": [kind(group, name)]}
        returned = "io.k8s.apimachinery.pkg.apis.meta.v1.Status" if answer == "Status" else type_name
        paths[path] = {"delete": {"x-kubernetes-group-version-kind": kind(group, name), "responses": {
            "200": {"description": "OK", "schema": {"$ref": f"#/definitions/{returned}"}}}}}
    spec = {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": paths, "definitions": definitions}
    return load_text(json.dumps(spec), f"{answer}.json", None)


def test_deletes_that_answer_their_own_kind_instead_of_status_are_one_group() -> None:
    report = run(_deletes("Status"), _deletes("own"))
    [returned] = report.findings
    assert (returned.rule, returned.message) == (
        "kubernetes.delete-returns-object",
        "2 operations: delete of 2 resources in 2 API groups now return the deleted object instead of Status "
        "(response 200)")
    assert [(m.change.context.operation, m.change.new) for m in returned.members] == [
        ("DELETE /api/v1/namespaces/{namespace}/frobs/{name}", "io.k8s.api.core.v1.Frob"),
        ("DELETE /apis/apps/v1/namespaces/{namespace}/gadgets/{name}", "io.k8s.api.apps.v1.Gadget")]
    assert returned.fingerprint == group_fingerprint(returned.members[1])


def test_the_same_media_type_added_to_several_responses_of_the_operations_is_one_finding() -> None:
    report = compare(V2.format(30), V2.format(32))
    [cbor] = [f for f in report.findings
              if f.rule == "response.media-type-added" and f.change.new == "application/cbor"]
    assert cbor.message.startswith("response 200, response 201 and response 202 can now also be application/cbor "
                                   "in 717 operations: ")
    assert {field_path(m.change.context) for m in cbor.members} == {"response 200", "response 201", "response 202"}
    assert {m.change.new for m in cbor.members} == {"application/cbor"}


def _texts(value: object) -> list[str]:
    """Every text of a reason written as one value or as a mapping by policy, stability and/or direction."""
    return [text for item in value.values() for text in _texts(item)] if isinstance(value, dict) else [str(value)]


#: words that point at one member of a group: operations never take part in a group's key, enum values fold
#: together on one field, and a `group: rule` card folds one correction over many schemas
_ONE_OPERATION = re.compile(r"\b(?:this|the|that) operation\b|\bthese resources\b", re.IGNORECASE)
_ONE_VALUE = re.compile(r"\b(?:this|the|that) value\b", re.IGNORECASE)
_ONE_SCHEMA = re.compile(r"\b(?:this|the|that) schema\b", re.IGNORECASE)


def test_every_reason_reads_for_one_place_and_for_many() -> None:
    """A group gives its members' shared reason once, so no reason may point at one operation, one enum value
    (for cards on enum values) or one schema (for cards that fold over schemas)."""
    from specdiff.classify import catalogue

    wrong = []
    for card in catalogue():
        words = [_ONE_OPERATION]
        words += [_ONE_VALUE] if card.match.get("node") == "enum-value" else []
        words += [_ONE_SCHEMA] if card.group == "rule" else []
        texts = _texts(card.reasons if card.reasons is not None else card.reason)
        texts += [text for exception in card.when for text in _texts(exception.get("reason", ""))]
        wrong += [(card.id, found.group(0)) for text in texts for pattern in words for found in pattern.finditer(text)]
    assert wrong == []


def test_a_resource_that_comes_or_goes_gives_one_reason_for_all_its_operations() -> None:
    report = compare(V2.format("32"), V2.format("35"))
    said = [(f.rule, f.change.context.resource, holds(f)["operations"], f.reason) for f in report.findings
            if f.rule.startswith("operation.") and f.members and f.level.value == "breaking"
            or f.rule == "operation.added" and f.change.context.resource == "servicecidrs"]
    gone = "Clients that call a removed operation get 404 or 405 instead of a response."
    assert said == [("operation.removed", "validatingadmissionpolicies", 12, gone),
                    ("operation.removed", "validatingadmissionpolicybindings", 9, gone),
                    ("operation.added", "servicecidrs", 12, "Adding operations changes nothing that existing clients "
                                                            "call.")]


def _pet_kinds(*kinds: str) -> Document:
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"Pet": {"type": "object", "properties": {
                "kind": {"type": "string", "enum": list(kinds)}}}}}}
    return load_text(json.dumps(spec), f"{len(kinds)}.json", None)


def test_a_group_of_values_is_worded_by_the_cards_group_message() -> None:
    """`group_message` of schema.enum.value-added says it for many; one value keeps the card's own message."""
    many = run(_pet_kinds("cat"), _pet_kinds("cat", "dog", "eel"), policy="openapi").findings
    assert [(f.rule, f.message, len(f.members)) for f in many] == [
        ("schema.enum.value-added", "enum values `dog` and `eel` added to Pet.kind", 2)]
    assert dict(many[0].rule_info.group_messages) == {"value": "enum values {value} added to {location}"}
    one = run(_pet_kinds("cat"), _pet_kinds("cat", "dog"), policy="openapi").findings
    assert [(f.rule, f.message) for f in one] == [("schema.enum.value-added", "enum value `dog` added to Pet.kind")]


def _run_texts(old: dict[str, object], new: dict[str, object]) -> Report:
    return run(load_text(json.dumps(old), "old.json", None), load_text(json.dumps(new), "new.json", None))


def _replaced_body(fork_item: dict[str, object]) -> dict[str, object]:
    """Two operations answering a gist; the old spec names `GistFull`, the new `Gist`, so each body is compared
    where it is used: every change inside them is reached once per operation, with its own field path."""
    full = {"allOf": [{"$ref": "#/components/schemas/Gist"}, {"type": "object", "properties": {
        "forks": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"},
                                                                             "url": {"type": "string"}}}}}}]}
    gist = {"type": "object", "properties": {"id": {"type": "string"}, "url": {"type": "string"}}}
    return {"openapi": "3.0.3", "info": {"title": "gists", "version": "1"}, "paths": {
        path: {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/" + ("GistFull" if not fork_item else "Gist")}}}}}}}
        for path in ("/gists/{id}", "/gists/{id}/{sha}")},
        "components": {"schemas": {"Gist": ({**gist, "properties": {**gist["properties"], "forks": {
            "type": "array", "items": fork_item}}} if fork_item else gist), "GistFull": full}}}


def test_one_change_at_one_place_reached_by_several_operations_is_one_finding() -> None:
    report = _run_texts(_replaced_body({}), _replaced_body({"type": "object", "properties": {
        "id": {"type": "string"}}}))
    removed = [f for f in report.findings if f.rule == "schema.property.removed"]
    assert [(f.change.pointer, f.level.value, f.operations) for f in removed] == [
        ("/components/schemas/GistFull/allOf/1/properties/forks/items/properties/url", "breaking",
         ("GET /gists/{id}", "GET /gists/{id}/{sha}"))]
    assert {field_path(m.change.context) for m in removed[0].members} == {"response 200.forks[].url"}


def test_a_shared_schema_that_many_inline_copies_became_is_one_finding() -> None:
    """Thirteen requests of OpenAI's spec each wrote `metadata` inline and now refer to one `Metadata` whose
    values are strings: one tightening, listed once with every request it reaches."""
    def spec(metadata: dict[str, object], shared: dict[str, object] | None) -> dict[str, object]:
        body = {"type": "object", "properties": {"metadata": metadata}}
        return {"openapi": "3.0.3", "info": {"title": "m", "version": "1"}, "paths": {
            path: {"post": {"requestBody": {"content": {"application/json": {"schema": {
                "$ref": f"#/components/schemas/{name}"}}}}, "responses": {"200": {"description": "ok"}}}}
            for path, name in (("/assistants", "CreateAssistant"), ("/threads", "CreateThread"))},
            "components": {"schemas": {"CreateAssistant": body, "CreateThread": body,
                                       **({"Metadata": shared} if shared else {})}}}
    report = _run_texts(spec({"type": "object"}, None),
                        spec({"$ref": "#/components/schemas/Metadata"},
                             {"type": "object", "additionalProperties": {"type": "string"}}))
    tightened = [f for f in report.findings if f.rule == "schema.constraint-tightened"]
    assert [(f.change.pointer, f.level.value, f.operations) for f in tightened] == [
        ("/components/schemas/Metadata/additionalProperties", "breaking", ("POST /assistants", "POST /threads"))]
    assert sorted(m.change.old_pointer for m in tightened[0].members) == [  # each inline copy it replaced
        "/components/schemas/CreateAssistant/properties/metadata",
        "/components/schemas/CreateThread/properties/metadata"]


def test_the_same_change_at_two_places_of_the_text_stays_two_findings() -> None:
    """Near miss: two named schemas each losing a property of the same name and type are two changes."""
    def spec(props: dict[str, object]) -> dict[str, object]:
        return {"openapi": "3.0.3", "info": {"title": "m", "version": "1"}, "paths": {
            f"/{name.lower()}": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": f"#/components/schemas/{name}"}}}}}}} for name in ("Cat", "Dog")},
            "components": {"schemas": {name: {"type": "object", "properties": props} for name in ("Cat", "Dog")}}}
    report = _run_texts(spec({"id": {"type": "string"}, "tag": {"type": "string"}}), spec({"id": {"type": "string"}}))
    removed = [(f.change.pointer, f.level.value, len(f.members)) for f in report.findings
               if f.rule == "schema.property.removed"]
    assert removed == [("/components/schemas/Cat/properties/tag", "breaking", 0),
                       ("/components/schemas/Dog/properties/tag", "breaking", 0)]


def _event_spec(event: dict[str, object], shapes: dict[str, object]) -> dict[str, object]:
    return {"openapi": "3.0.3", "info": {"title": "events", "version": "1"}, "paths": {"/events": {"get": {
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/Event"}}}}}}}},
        "components": {"schemas": {"Event": event, **shapes}}}


def test_the_alternatives_a_union_gains_are_one_finding() -> None:
    """GitHub's issue event became an anyOf of fifteen kinds of event: one change, every new kind named."""
    shape = {"type": "object", "properties": {"id": {"type": "integer"}}}
    shapes = {name: shape for name in ("Labeled", "Locked", "Renamed")}
    report = _run_texts(_event_spec(shape, {}), _event_spec(
        {"anyOf": [{"$ref": f"#/components/schemas/{name}"} for name in shapes]}, shapes))
    added = [f for f in report.findings if f.rule == "schema.any-of.member-added"]
    assert [(f.change.pointer, f.level.value, len(f.members)) for f in added] == [
        ("/components/schemas/Event/anyOf/1", "breaking", 2)]
    assert added[0].message == "Event may now also be Locked and Renamed"


def test_an_inline_alternative_that_lists_a_few_values_is_named_by_them() -> None:
    """Stripe's form fields that become `anyOf: [string, {type: string, enum: [""]}]` take the empty string to
    clear them: "may now also be string" would say nothing of a field that was a string already."""
    status = {"anyOf": [{"type": "string"}, {"type": "string", "enum": ["none", "auto"]}]}
    report = _run_texts(_event_spec({"type": "object", "properties": {"label": {"type": "string"},
                                                                       "status": {"type": "string"}}}, {}),
                        _event_spec({"type": "object", "properties": {
                            "label": {"anyOf": [{"type": "string"}, {"type": "string", "enum": [""]}]},
                            "status": status}}, {}))
    assert sorted(f.message for f in report.findings if f.rule == "schema.any-of.member-added") == [
        'Event.label may now also be the empty string', 'Event.status may now also be "none" or "auto"']


def test_the_same_enum_values_added_to_fields_of_several_schemas_are_one_finding() -> None:
    """Stripe adds the same tax ID types to `tax_id.type` and `invoice_tax_id.type`: one change, both places
    named. Near miss: one value alone added to two fields of other names (`mode`, `kind`) is two changes."""
    def spec(types: list[str], other: list[str]) -> dict[str, object]:
        field = {"type": "string", "enum": types}
        return _event_spec({"type": "object", "properties": {
            "tax": {"$ref": "#/components/schemas/TaxId"}, "invoice": {"$ref": "#/components/schemas/InvoiceTaxId"},
            "mode": {"type": "string", "enum": other}, "kind": {"type": "string", "enum": other}}},
            {"TaxId": {"type": "object", "properties": {"type": field}},
             "InvoiceTaxId": {"type": "object", "properties": {"type": field}}})
    report = _run_texts(spec(["eu_vat"], ["a"]), spec(["eu_vat", "ad_nrt", "cn_tin"], ["a", "other"]))
    added = sorted((f.change.pointer, len(f.members), f.message) for f in report.findings
                   if f.rule == "schema.enum.value-added")
    assert added == [
        ("/components/schemas/Event/properties/kind/enum/1", 0, "enum value `other` added to Event.kind"),
        ("/components/schemas/Event/properties/mode/enum/1", 0, "enum value `other` added to Event.mode"),
        ("/components/schemas/InvoiceTaxId/properties/type/enum/1", 4,
         "enum values `ad_nrt` and `cn_tin` added to 2 places: InvoiceTaxId.type and TaxId.type")]


def test_unions_two_operations_write_in_place_stay_two_findings() -> None:
    """Near miss: each operation's own inline union gaining an alternative labelled alike (#1) is its own change."""
    def spec(members: list[dict[str, object]]) -> dict[str, object]:
        return {"openapi": "3.0.3", "info": {"title": "u", "version": "1"}, "paths": {
            path: {"post": {"requestBody": {"content": {"application/json": {"schema": {"oneOf": members}}}},
                            "responses": {"200": {"description": "ok"}}}} for path in ("/labels", "/runs")}}
    report = _run_texts(spec([{"type": "string"}]), spec([{"type": "string"}, {"type": "integer"}]))
    added = [(f.change.pointer, f.level.value, len(f.members)) for f in report.findings
             if f.rule == "schema.one-of.member-added"]
    assert added == [("/paths/~1labels/post/requestBody/content/application~1json/schema/oneOf/1", "safe", 0),
                     ("/paths/~1runs/post/requestBody/content/application~1json/schema/oneOf/1", "safe", 0)]


def test_a_property_an_allof_part_loses_is_reported_where_it_is_written_once() -> None:
    """Box's Collaborations: GET /b now answers another type that lacks `order` too; compared on the wire, the
    loss is at the part that writes `order`, the same place and change as Collaborations' own, so one finding."""
    def spec(b_answers: str, page: list[dict[str, object]]) -> dict[str, object]:
        entries = {"properties": {"entries": {"type": "array", "items": {"type": "string"}}}}
        answer = {"description": "ok", "content": {"application/json": {"schema": {"$ref": ""}}}}
        return {"openapi": "3.0.3", "info": {"title": "p", "version": "1"}, "paths": {
            path: {"get": {"responses": {"200": json.loads(json.dumps(answer).replace(
                '"$ref": ""', f'"$ref": "#/components/schemas/{name}"'))}}}
            for path, name in (("/a", "Page"), ("/b", b_answers))},
            "components": {"schemas": {"Page": {"type": "object", "allOf": [*page, entries]},
                                       "OffsetPage": {"type": "object", "allOf": [
                                           {"properties": {"offset": {"type": "integer"}}}, entries]}}}}
    paged = {"properties": {"offset": {"type": "integer"}, "order": {"type": "string"}}}
    report = _run_texts(spec("Page", [paged]), spec("OffsetPage", [{"properties": {"limit": {"type": "integer"}}}]))
    removed = sorted((f.change.pointer, f.level.value, f.operations, f.message) for f in report.findings
                     if f.rule == "schema.property.removed")
    assert removed == [
        ("/components/schemas/Page/allOf/0/properties/offset", "breaking", ("GET /a",), "property Page.offset removed"),
        ("/components/schemas/Page/allOf/0/properties/order", "breaking", ("GET /a", "GET /b"),
         "2 properties: Page.order and GET /b response 200: order removed")]


def test_the_same_named_alternative_added_to_the_bodies_of_several_operations_is_one_finding() -> None:
    """Stripe's GET and POST /v1/terminal/readers/{reader} may both now answer deleted_terminal.reader."""
    def spec(members: list[str]) -> dict[str, object]:
        body = {"anyOf": [{"$ref": f"#/components/schemas/{name}"} for name in members]}
        return {"openapi": "3.0.3", "info": {"title": "r", "version": "1"}, "paths": {"/readers/{id}": {
            method: {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": body}}}}}
            for method in ("get", "post")}},
            "components": {"schemas": {"Reader": {"type": "object"}, "DeletedReader": {"type": "object"}}}}
    report = _run_texts(spec(["Reader"]), spec(["Reader", "DeletedReader"]))
    added = [(f.change.pointer, f.level.value, f.operations) for f in report.findings
             if f.rule == "schema.any-of.member-added"]
    assert added == [("/paths/~1readers~1{id}/get/responses/200/content/application~1json/schema/anyOf/1", "breaking",
                      ("GET /readers/{id}", "POST /readers/{id}"))]


def test_names_dropped_from_one_required_list_are_one_finding() -> None:
    """One edit of one `required` list, however many names it drops, is one change; the same names dropped from
    the lists of two schemas are two."""
    def spec(required: list[str]) -> dict[str, object]:
        schema = {"type": "object", "required": required, "properties": {
            name: {"type": "string"} for name in ("id", "tz", "color")}}
        return {"openapi": "3.0.3", "info": {"title": "u", "version": "1"}, "paths": {
            f"/{name.lower()}": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": f"#/components/schemas/{name}"}}}}}}} for name in ("User", "Bot")},
            "components": {"schemas": {"User": schema, "Bot": schema}}}
    report = _run_texts(spec(["id", "tz", "color"]), spec(["id"]))
    optional = [f for f in report.findings if f.rule == "schema.property.became-optional"]
    assert [(f.change.pointer, f.level.value, sorted(m.change.fact("name") for m in f.members)) for f in optional] == [
        ("/components/schemas/Bot/required", "breaking", ["color", "tz"]),
        ("/components/schemas/User/required", "breaking", ["color", "tz"])]
    assert optional[1].message == "2 places: User.color and User.tz became optional"


def _moved(ref: str, schemas: dict[str, Any]) -> Document:
    ops = {"/repos": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"type": "object", "properties": {"repo": {"$ref": f"#/components/schemas/{ref}"}}}}}}}}}}
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": ops,
            "components": {"schemas": schemas}}
    return load_text(json.dumps(spec), f"{ref}.json", None)


REPOSITORY = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                                               "starred_at": {"type": "string"}}}


def test_what_a_reference_moved_to_a_schema_that_differs_brings_is_one_finding_at_its_worst_level() -> None:
    minimal = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string",
                                                                                  "nullable": True}}}
    report = run(_moved("repository", {"repository": REPOSITORY}),
                 _moved("minimal-repository", {"repository": REPOSITORY, "minimal-repository": minimal}))
    [move] = [f for f in report.findings if f.level.value != "safe"]
    assert (move.rule, move.level.value, move.change.pointer) == (
        "schema.reference-changed", "breaking", "/paths/~1repos/get/responses/200/content/application~1json/schema"
        "/properties/repo/$ref")
    assert {(m.rule, m.change.pointer) for m in move.members} == {
        ("schema.reference-changed", move.change.pointer),
        ("schema.property.removed", "/components/schemas/repository/properties/starred_at"),
        ("schema.nullable-added", "/components/schemas/minimal-repository/properties/name")}
    assert move.message.endswith("the swap brings: value may be null (1), property removed (1)")


def test_near_miss_a_reference_moved_to_a_schema_sending_the_same_json_holds_nothing() -> None:
    report = run(_moved("repository", {"repository": REPOSITORY}),
                 _moved("full-repository", {"repository": REPOSITORY, "full-repository": REPOSITORY}))
    assert [(f.rule, f.level.value, f.change.pointer, f.members) for f in report.findings] == [
        ("schema.reference-changed", "safe",
         "/paths/~1repos/get/responses/200/content/application~1json/schema/properties/repo/$ref", ()),
        ("schema.added", "safe", "/components/schemas/full-repository", ())]


def _places(finding: Finding) -> tuple[str, ...]:
    """The places a group holds, by pointer: which findings were folded, not only how many."""
    return tuple(sorted(member.change.pointer for member in finding.members))


def _profiles(user: dict[str, object], bot: dict[str, object]) -> dict[str, object]:
    return {"openapi": "3.0.3", "info": {"title": "p", "version": "1"}, "paths": {
        f"/{name.lower()}": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{name}"}}}}}}} for name in ("User", "Bot")},
        "components": {"schemas": {"User": user, "Bot": bot}}}


def test_fields_of_one_schema_changed_by_one_rule_are_one_finding() -> None:
    """A profile whose fields all became nullable in one release is one change, each field named; the same
    change to a field of another schema stays its own finding (near miss)."""
    def schema(nullable: bool) -> dict[str, object]:
        return {"type": "object", "properties": {
            name: {"type": "string", "nullable": nullable} for name in ("email", "image", "name")}}
    report = _run_texts(_profiles(schema(False), schema(False)), _profiles(
        schema(True), {"type": "object", "properties": {"email": {"type": "string", "nullable": True},
                                                        **{n: {"type": "string"} for n in ("image", "name")}}}))
    nullable = sorted((f.change.pointer, _places(f), f.message) for f in report.findings
                      if f.rule == "schema.nullable-added")
    assert nullable == [
        ("/components/schemas/Bot/properties/email", (), "Bot.email may now be null"),
        ("/components/schemas/User/properties/email",
         tuple(f"/components/schemas/User/properties/{name}" for name in ("email", "image", "name")),
         "3 places: User.email, User.image and User.name may now be null")]


def test_fields_of_one_schema_given_defaults_say_each_default() -> None:
    """Defaults written for several fields of one schema, nested ones too, are one change; the message names each
    field's own."""
    def schema(defaults: dict[str, object]) -> dict[str, object]:
        def field(name: str) -> dict[str, object]:
            return {"type": "string", **({"default": defaults[name]} if name in defaults else {})}
        return {"type": "object", "properties": {"format": field("format"), "voice": field("voice"),
                                                 "turn": {"type": "object", "properties": {"mode": field("mode")}}}}
    report = _run_texts(_profiles(schema({}), schema({})), _profiles(
        schema({"format": "pcm16", "voice": "alloy", "mode": "vad"}), schema({})))
    defaults = [(f.change.pointer, _places(f), f.message) for f in report.findings
                if f.rule == "schema.default-added"]
    assert defaults == [("/components/schemas/User/properties/format/default",
                         ("/components/schemas/User/properties/format/default",
                          "/components/schemas/User/properties/turn/properties/mode/default",
                          "/components/schemas/User/properties/voice/default"),
                         "User.format now defaults to `pcm16`; User.turn.mode now defaults to `vad`; "
                         "User.voice now defaults to `alloy`")]


def test_patterns_changed_by_the_same_edit_are_one_finding() -> None:
    """Slack widening every ID pattern from `{8}` to `{8,}` is one change; a pattern edited another way (near
    miss) is its own."""
    def spec(user: str, bot: str) -> dict[str, object]:
        return _profiles({"type": "string", "pattern": user}, {"type": "string", "pattern": bot})
    report = _run_texts(spec("^U[A-Z0-9]{8}$", "^B[A-Z0-9]{8}$"), spec("^U[A-Z0-9]{8,}$", "^B[A-Z0-9]{8,}$"))
    assert [(f.change.pointer, _places(f)) for f in report.findings if f.rule == "schema.pattern-changed"] == [
        ("/components/schemas/Bot/pattern", ("/components/schemas/Bot/pattern", "/components/schemas/User/pattern"))]
    report = _run_texts(spec("^U[A-Z0-9]{8}$", "^B[A-Z0-9]{8}$"), spec("^U[A-Z0-9]{8,}$", "^B[A-Z0-9]{2,}$"))
    assert sorted((f.change.pointer, _places(f)) for f in report.findings
                  if f.rule == "schema.pattern-changed") == [
        ("/components/schemas/Bot/pattern", ()), ("/components/schemas/User/pattern", ())]


def test_fields_of_one_name_switched_to_the_same_type_are_one_finding() -> None:
    """Both verbose responses sending `duration` as a number instead of a string is one change; a field of another
    name switched the same way stays its own (near miss)."""
    def spec(old: str) -> dict[str, object]:
        return {"openapi": "3.0.3", "info": {"title": "p", "version": "1"}, "paths": {
            f"/{name.lower()}": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": f"#/components/schemas/{name}"}}}}}}} for name in ("Talk", "Song", "Clip")},
            "components": {"schemas": {name: {"type": "object", "properties": {field: {"type": old}}}
                                       for name, field in (("Talk", "duration"), ("Song", "duration"),
                                                           ("Clip", "length"))}}}
    report = _run_texts(spec("string"), spec("number"))
    switched = sorted((f.change.pointer, _places(f), f.message) for f in report.findings
                      if f.rule == "schema.type-changed")
    assert switched == [
        ("/components/schemas/Clip/properties/length", (), "type of Clip.length changed from string to number"),
        ("/components/schemas/Song/properties/duration",
         ("/components/schemas/Song/properties/duration", "/components/schemas/Talk/properties/duration"),
         "type of 2 places: Song.duration and Talk.duration changed from string to number")]


_POLICY = "io.k8s.api.policy.v1."


def _budgets(status: list[str], spec: list[str], eviction: list[str], stub: bool = False) -> dict[str, object]:
    """An API server's spec with two kinds: Budget (its spec and status types, each with a `required` list) and
    Eviction, whose spec has a field of the same name as one of Budget's status; `stub` adds a field to Budget's
    spec."""
    def kind(name: str, properties: dict[str, object]) -> dict[str, object]:
        return {"type": "object", "properties": properties,
                "x-kubernetes-group-version-kind": [{"group": "policy", "version": "v1", "kind": name}]}

    def ref(name: str) -> dict[str, str]:
        return {"$ref": f"#/definitions/{_POLICY}{name}"}

    integer = {"type": "integer"}
    definitions = {
        f"{_POLICY}Budget": kind("Budget", {"spec": ref("BudgetSpec"), "status": ref("BudgetStatus")}),
        f"{_POLICY}BudgetSpec": {"type": "object", "required": spec, "properties": {
            "minAvailable": integer, **({"stub": {"type": "string"}} if stub else {})}},
        f"{_POLICY}BudgetStatus": {"type": "object", "required": status, "properties": {
            name: integer for name in ("currentHealthy", "desiredHealthy", "expectedPods")}},
        f"{_POLICY}Eviction": kind("Eviction", {"spec": ref("EvictionSpec")}),
        f"{_POLICY}EvictionSpec": {"type": "object", "required": eviction, "properties": {"currentHealthy": integer}}}
    paths: dict[str, object] = {}
    for name, plural in (("Budget", "budgets"), ("Eviction", "evictions")):
        gvk = {"group": "policy", "version": "v1", "kind": name}
        paths[f"/apis/policy/v1/namespaces/{{namespace}}/{plural}/{{name}}"] = {
            "get": {"operationId": f"read{name}", "x-kubernetes-action": "get",
                    "x-kubernetes-group-version-kind": gvk, "responses": {"200": {"description": "OK",
                                                                                  "schema": ref(name)}}},
            "put": {"operationId": f"replace{name}", "x-kubernetes-action": "put",
                    "x-kubernetes-group-version-kind": gvk,
                    "parameters": [{"name": "body", "in": "body", "required": True, "schema": ref(name)}],
                    "responses": {"200": {"description": "OK", "schema": ref(name)}}}}
    return {"swagger": "2.0", "info": {"title": "Kubernetes", "version": "v1.36"}, "paths": paths,
            "definitions": definitions}


_HEALTH = ["currentHealthy", "desiredHealthy", "expectedPods"]


def test_the_required_markers_one_release_drops_from_a_kinds_types_are_one_finding() -> None:
    """A Kubernetes type's `required` list is generated from each Go field's marker: a release that drops the
    markers of a kind's status is one change, whichever type of the kind each field is in; the same field of
    another kind (near miss) stays its own."""
    report = _run_texts(_budgets(_HEALTH, ["minAvailable"], ["currentHealthy"]),
                        _budgets([], [], []))
    optional = sorted((f.change.pointer, _places(f), f.message) for f in report.findings
                      if f.rule == "schema.property.became-optional")
    status = f"/definitions/{_POLICY}BudgetStatus/required"
    assert optional == [
        (f"/definitions/{_POLICY}BudgetSpec/required", (f"/definitions/{_POLICY}BudgetSpec/required", *[status] * 3),
         "4 places: Budget.spec.minAvailable, Budget.status.currentHealthy, Budget.status.desiredHealthy and "
         "Budget.status.expectedPods became optional"),
        (f"/definitions/{_POLICY}EvictionSpec/required", (), "Eviction.spec.currentHealthy became optional")]


def test_a_required_field_added_with_markers_dropped_is_one_finding_at_its_worst_level() -> None:
    """A spec field made required where the others became optional is one edit of one kind, shown at the most
    severe rule: the other rule's places are said after it and kept as members with their own rule and level
    (`holds` counts each); without grouping, each place is a finding of its own."""
    old, new = _budgets(_HEALTH, ["minAvailable"], ["currentHealthy"]), _budgets(_HEALTH, ["stub"], [], stub=True)
    report = _run_texts(old, new)
    added = _only(report, "schema.property.required-added")
    assert (added.level.value, added.message) == (
        "breaking", "required property Budget.spec.stub added; Budget.spec.minAvailable became optional")
    assert [(m.rule, m.level.value, m.change.pointer) for m in added.members] == [
        ("schema.property.required-added", "breaking", f"/definitions/{_POLICY}BudgetSpec/properties/stub"),
        ("schema.property.became-optional", "dangerous", f"/definitions/{_POLICY}BudgetSpec/required")]
    assert holds(added) == {"places": 1, "schema.property.became-optional": 1}
    record = json.loads(render(report, "json"))["findings"]
    shown = next(f for f in record if f["rule"] == "schema.property.required-added")
    assert shown["holds"] == {"places": 1, "schema.property.became-optional": 1}
    assert [(m.get("rule"), m.get("level")) for m in shown["members"]] == [
        (None, None), ("schema.property.became-optional", "dangerous")]
    ungrouped = run(load_text(json.dumps(old), "old.json", None), load_text(json.dumps(new), "new.json", None),
                    grouped=False)
    assert sorted((f.rule, f.change.pointer, len(f.members)) for f in ungrouped.findings
                  if f.level.value != "safe") == [
        ("schema.property.became-optional", f"/definitions/{_POLICY}BudgetSpec/required", 0),
        ("schema.property.became-optional", f"/definitions/{_POLICY}EvictionSpec/required", 0),
        ("schema.property.required-added", f"/definitions/{_POLICY}BudgetSpec/properties/stub", 0)]


def test_the_pod_disruption_budget_status_and_token_request_markers_are_one_finding_each() -> None:
    """Kubernetes 1.36 drops the `required` list of PodDisruptionBudgetStatus and the markers of TokenRequest's
    three types: one finding each. TokenReview's token, made required in the same release, is another kind's
    change (near miss)."""
    report = compare(V2.format(35), V2.format(36))
    optional = {f.change.context.schema: _places(f) for f in report.findings
                if f.rule == "schema.property.became-optional" and f.level.value == "dangerous"}
    api = "/definitions/io.k8s.api."
    assert optional[f"{api[13:]}policy.v1.PodDisruptionBudgetStatus"] == (
        f"{api}policy.v1.PodDisruptionBudgetStatus",) * 4
    assert optional[f"{api[13:]}authentication.v1.TokenRequest"] == (
        f"{api}authentication.v1.TokenRequest", f"{api}authentication.v1.TokenRequestSpec",
        f"{api}authentication.v1.TokenRequestStatus", f"{api}authentication.v1.TokenRequestStatus")
    token = [f for f in report.findings if f.rule == "schema.property.became-required" and f.level.value == "breaking"]
    assert [(f.message, f.members) for f in token] == [("TokenReview.spec.token became required", ())]


def _issuer(alpha: list[str], stable: list[str], defaulted: str = "") -> Document:
    """A CRD served in v1alpha1 and v1 whose `solver` object lists the given `required` names in each; v1's has a
    field more, so the two are not copies of one type. In v1 the `defaulted` field's description says the server
    defaults it."""
    def version(name: str, required: list[str]) -> dict[str, object]:
        fields = ("key", "algorithm", *(("server",) if name == "v1" else ()))  # (no copy of one object)
        said = {"description": "Defaults to RSA."} if name == "v1" else {}
        solver = {"type": "object", "required": required,
                  "properties": {f: {"type": "string", **(said if f == defaulted else {})} for f in fields}}
        return {"name": name, "served": True, "storage": name == "v1", "schema": {"openAPIV3Schema": {
            "type": "object", "properties": {"spec": {"type": "object", "properties": {"solver": solver}}}}}}
    crd = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
           "metadata": {"name": "issuers.example.com"},
           "spec": {"group": "example.com", "names": {"kind": "Issuer", "plural": "issuers"}, "scope": "Namespaced",
                    "versions": [version("v1alpha1", alpha), version("v1", stable)]}}
    return load_text(json.dumps(crd), "issuers.json", None)


def test_the_same_change_in_an_alpha_and_a_stable_version_of_a_crd_is_one_finding() -> None:
    """The same field made optional in each served version is one change, though the alpha version's finding
    gives the alpha reason: shown at the stable version, the alpha member saying its own reason. Another field
    made optional in the alpha version only (near miss) stays its own finding."""
    report = run(_issuer(["key", "algorithm"], ["key"]), _issuer([], []))
    optional = sorted((f.message, f.level.value, _places(f)) for f in report.findings
                      if f.rule == "schema.property.became-optional")
    at = "/spec/versions/{}/schema/openAPIV3Schema/properties/spec/properties/solver/required"
    assert optional == [("Issuer.spec.solver.algorithm became optional", "dangerous", ()),
                        ("Issuer.spec.solver.key became optional", "dangerous", (at.format(0), at.format(1)))]
    shown = next(f for f in json.loads(render(report, "json"))["findings"]
                 if f["message"].endswith("key became optional"))
    assert shown["location"]["schema"] == "issuers.example.com/v1"
    assert [m["location"]["schema"] for m in shown["members"] if m.get("reason", "").startswith("allowed in alpha")
            ] == ["issuers.example.com/v1alpha1"]


def test_an_alpha_and_a_stable_versions_change_join_by_the_reason_a_stable_version_gives() -> None:
    """The alpha version's finding joins the stable version's by the reason it would have in a stable version,
    not by its own (which the alpha wording wraps): `key` made optional in both is one finding. `algorithm` made
    optional in both (near miss), where v1's old text said the server defaults it, is judged safe with its own
    reason in v1, so the two stay apart though they differ only in reason and level."""
    report = run(_issuer(["key", "algorithm"], ["key", "algorithm"], defaulted="algorithm"),
                 _issuer([], [], defaulted="algorithm"))
    at = "/spec/versions/{}/schema/openAPIV3Schema/properties/spec/properties/solver/required"
    optional = sorted((f.change.context.schema, f.message, f.level.value, f.reason[:40], _places(f))
                      for f in report.findings if f.rule == "schema.property.became-optional")
    assert optional == [
        ("issuers.example.com/v1", "Issuer.spec.solver.algorithm became optional", "safe",
         "Not breaking for readers: the API server", ()),
        ("issuers.example.com/v1", "Issuer.spec.solver.key became optional", "dangerous",
         "Clients decoding into Go structs read an", (at.format(0), at.format(1))),
        ("issuers.example.com/v1alpha1", "Issuer.spec.solver.algorithm became optional", "dangerous",
         "allowed in alpha, not compatible: alpha ", ())]
    alpha = next(f for f in report.findings if f.change.context.schema == "issuers.example.com/v1alpha1")
    stable = next(f for f in report.findings if f.message.endswith("key became optional"))
    assert alpha.stable_reason == stable.reason != alpha.reason


def test_a_field_that_became_optional_and_nullable_is_one_finding() -> None:
    """A response field made optional and nullable in one release is one change to its readers, who now meet no
    value: one finding holding both rules. In another schema, one field made optional and another nullable
    (near miss) stay two findings."""
    def schema(required: list[str], nullable: tuple[str, ...]) -> dict[str, object]:
        return {"type": "object", "required": required, "properties": {
            name: {"type": "string", **({"nullable": True} if name in nullable else {})} for name in ("email", "name")}}
    report = _run_texts(_profiles(schema(["email"], ()), schema(["email"], ())),
                        _profiles(schema([], ("email",)), schema([], ("name",))))
    found = sorted((f.rule, f.change.pointer, f.message, tuple((m.rule, m.change.pointer) for m in f.members))
                   for f in report.findings)
    users = "/components/schemas/User"
    assert found == [
        ("schema.nullable-added", "/components/schemas/Bot/properties/name", "Bot.name may now be null", ()),
        ("schema.nullable-added", f"{users}/properties/email",
         "User.email may now be null; User.email became optional",
         (("schema.nullable-added", f"{users}/properties/email"),
          ("schema.property.became-optional", f"{users}/required"))),
        ("schema.property.became-optional", "/components/schemas/Bot/required", "Bot.email became optional", ())]


def test_query_parameters_removed_from_the_same_operations_are_one_finding_fields_added_are_each_their_own() -> None:
    """On an API server's spec, two query parameters one release removes from the same operations are one change
    (Kubernetes 1.28 dropping `exact` and `export` from 25 reads); two fields added to one type (near miss) stay
    two findings, a feature each."""
    def spec(parameters: list[str], fields: list[str]) -> dict[str, object]:
        document = _budgets(_HEALTH, [], [])
        definitions: Any = document["definitions"]
        definitions[f"{_POLICY}BudgetSpec"]["properties"].update({name: {"type": "string"} for name in fields})
        paths: Any = document["paths"]
        for operations in paths.values():
            operations["get"]["parameters"] = [{"name": name, "in": "query", "type": "boolean"} for name in parameters]
        return document
    report = _run_texts(spec(["exact", "export", "pretty"], []), spec(["pretty"], ["paused", "maxUnavailable"]))
    removed = _only(report, "parameter.removed")
    route = "/paths/~1apis~1policy~1v1~1namespaces~1{namespace}~1{}~1{name}/get/parameters/{}"
    assert _places(removed) == tuple(sorted(route.replace("{}", plural, 1).replace("{}", index)
                                            for plural in ("budgets", "evictions") for index in ("0", "1")))
    added = sorted((f.change.pointer, f.members) for f in report.findings if f.rule == "schema.property.added")
    assert added == [(f"/definitions/{_POLICY}BudgetSpec/properties/{name}", ())
                     for name in ("maxUnavailable", "paused")]


def test_type_uses_finds_the_refs_at_under_or_named_by_the_places_given_and_no_other() -> None:
    data = {
        "definitions": {"A": {"type": "object"}, "B": {"properties": {"a": {"$ref": "#/definitions/A"},
                                                                      "b": {"items": {"$ref": "#/definitions/A"}}}},
                        "C": {"properties": {"a": {"$ref": "#/definitions/A"}}}},
        "paths": {"/x": {"get": {"responses": {"200": {"schema": {"$ref": "#/definitions/B"}}}}}},
    }
    uses = TypeUses([], [(None, data)])
    places = [("new", None, "/definitions/B"),  # both of B's refs to A
              ("new", None, "/definitions/B/properties/b"),  # inside B: not walked again
              ("new", None, "/paths/~1x/get/responses/200/schema/$ref"),  # the $ref itself
              ("old", None, "/definitions/C")]  # the other side
    assert {name: sorted(sites) for name, sites in uses.refs_under("new", places).items()} == {
        "A": [(None, "/definitions/B/properties/a"), (None, "/definitions/B/properties/b/items")],
        "B": [(None, "/paths/~1x/get/responses/200/schema")],
    }


def test_type_uses_finds_only_the_refs_to_the_names_asked_about() -> None:
    data = {"definitions": {"A": {}, "B": {},
                            "C": {"properties": {"a": {"$ref": "#/definitions/A"}, "b": {"$ref": "#/definitions/B"}}}}}
    uses = TypeUses([], [(None, data)])
    places = [("new", None, "/definitions/C"), ("new", None, "/definitions/C/properties/b/$ref")]
    assert uses.refs_under("new", places, {"A"}) == {"A": [(None, "/definitions/C/properties/a")]}
    assert uses.refs_under("new", [("new", None, "/definitions/C/properties/b/$ref")], {"A"}) == {}


def test_near_miss_type_uses_finds_no_ref_outside_the_places_given() -> None:
    data = {"definitions": {"A": {}, "C": {"properties": {"a": {"$ref": "#/definitions/A"}}}}}
    uses = TypeUses([], [(None, data)])
    assert uses.refs_under("new", [("new", None, "/definitions/A"), ("new", None, "/definitions/C/description"),
                                   ("new", None, "/nowhere/0")]) == {}


def test_type_uses_reads_a_place_under_a_key_yaml_would_read_as_a_number() -> None:
    """specdiff's YAML reader keeps `200:` as the text it is, as JSON writes it: the pointer's token names it."""
    data = load_text('swagger: "2.0"\ninfo: {title: t, version: "1"}\ndefinitions: {A: {}}\npaths:\n  /x:\n'
                     '    get:\n      responses:\n        200: {description: ok, schema: {$ref: "#/definitions/A"}}\n',
                     "spec.yaml", None).data
    uses = TypeUses([], [(None, data)])
    assert uses.refs_under("new", [("new", None, "/paths/~1x/get/responses/200")]) == {
        "A": [(None, "/paths/~1x/get/responses/200/schema")]}


def test_a_detail_is_written_once_yet_apart_from_an_equal_one_of_another_type() -> None:
    """`('required', False) == ('required', 0)`: a memo keyed by the detail alone would write one as the other."""
    from specdiff.group import _Known

    known = _Known(None)
    assert known.detail_text((("required", 0),)) == '[["required", 0]]'
    assert known.detail_text((("required", False),)) == '[["required", false]]'
    assert known.detail_text((("values", (1, True)),)) == '[["values", [1, true]]]'
