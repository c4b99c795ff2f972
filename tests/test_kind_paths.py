"""A Kubernetes field named by its kind's path (specdiff/graph/kind_paths.py, specdiff/notation.py): the one kind
whose fields reach a type names the place (`Frobber.status.phase`); a type several kinds use keeps its type name
and says which kinds; nothing but the words changes (fingerprints, sort order, ignores)."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from specdiff.config import Config, ScopedIgnore
from specdiff.graph import kind_paths
from specdiff.graph.kind_paths import held_by, held_by_each
from specdiff.load import load, load_text
from specdiff.load.limits import Limits
from specdiff.notation import type_where, where
from specdiff.pipeline import graphed, run
from specdiff.records import fingerprint
from tests.conftest import real_pair

V1 = "io.k8s.api.demo.v1"
META = "io.k8s.apimachinery.pkg.apis.meta.v1"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/definitions/{name}"}


def _kind(kind: str, **properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties,
            "x-kubernetes-group-version-kind": [{"group": "demo", "version": "v1", "kind": kind}]}


def _object(**properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties}


STRING = {"type": "string"}
SPEC: dict[str, Any] = {"swagger": "2.0", "info": {"title": "Kubernetes", "version": "v1"}, "paths": {},
                        "definitions": {
    f"{V1}.Frobber": _kind("Frobber", metadata=_ref(f"{META}.ObjectMeta"), spec=_ref(f"{V1}.FrobberSpec"),
                           status=_ref(f"{V1}.FrobberStatus")),
    f"{V1}.FrobberList": _kind("FrobberList", items={"type": "array", "items": _ref(f"{V1}.Frobber")},
                               metadata=_ref(f"{META}.ListMeta")),
    f"{V1}.Widget": _kind("Widget", metadata=_ref(f"{META}.ObjectMeta"), spec=_object(shared=_ref(f"{V1}.Shared"))),
    f"{V1}.FrobberSpec": _object(parts={"type": "array", "items": _ref(f"{V1}.Part")},
                                 byName={"type": "object", "additionalProperties": _ref(f"{V1}.Labelled")},
                                 shared={"allOf": [_ref(f"{V1}.Shared")]}),
    f"{V1}.FrobberStatus": _object(phase=STRING, observed=STRING),
    f"{V1}.Part": _object(size=STRING, next=_ref(f"{V1}.Part")),  # refers to itself: the walk stops
    f"{V1}.Labelled": _object(label=STRING, deep={"type": "array", "items": _ref(f"{V1}.Part")}),
    f"{V1}.Shared": _object(x=STRING, y=STRING),
    f"{V1}.Loose": _object(z=STRING, w=STRING),  # no kind reaches it
    f"{META}.ObjectMeta": _object(name=STRING, uid=STRING),
    f"{META}.ListMeta": _object(continue_=STRING, more=STRING),
}}


def _pair(tmp_path: Path) -> tuple[Path, Path]:
    """The spec, and a release that drops one field of each type."""
    new = copy.deepcopy(SPEC)
    for name, field in ((f"{V1}.FrobberStatus", "observed"), (f"{V1}.Part", "size"), (f"{V1}.Labelled", "label"),
                        (f"{V1}.Shared", "y"), (f"{V1}.Loose", "w"), (f"{META}.ObjectMeta", "uid"),
                        (f"{META}.ListMeta", "more")):
        del new["definitions"][name]["properties"][field]
    (tmp_path / "old.json").write_text(json.dumps(SPEC))
    (tmp_path / "new.json").write_text(json.dumps(new))
    return tmp_path / "old.json", tmp_path / "new.json"


def test_each_type_knows_the_kinds_whose_fields_reach_it_by_the_shortest_path(tmp_path: Path) -> None:
    old, _ = _pair(tmp_path)
    graph = graphed(load(str(old))).graph
    assert {name.rpartition(".")[2]: held_by(graph, name) for name in SPEC["definitions"]} == {
        "Frobber": (), "FrobberList": (), "Widget": (),  # a kind is named by itself, a list stops at its items
        "FrobberSpec": (("demo/v1/Frobber", (".spec",)),),
        "FrobberStatus": (("demo/v1/Frobber", (".status",)),),
        "Part": (("demo/v1/Frobber", (".spec", ".parts", "[]")),),  # not through byName{}.deep[]: longer
        "Labelled": (("demo/v1/Frobber", (".spec", ".byName", "{}")),),
        "Shared": (("demo/v1/Frobber", (".spec", ".shared")), ("demo/v1/Widget", (".spec", ".shared"))),
        "Loose": (),
        "ObjectMeta": (("demo/v1/Frobber", (".metadata",)), ("demo/v1/Widget", (".metadata",))),
        "ListMeta": (("demo/v1/FrobberList", (".metadata",)),),
    }


def test_a_kind_s_walk_goes_as_far_as_asked_and_answers_alike_whatever_the_order(tmp_path: Path) -> None:
    """Each walk stops at the schema asked about and goes on from there for the next: a type asked about alone, or
    after others deeper or shallower in the same kinds, is held alike."""
    old, _ = _pair(tmp_path)
    names = list(SPEC["definitions"])
    alone = {name: held_by(graphed(load(str(old))).graph, name) for name in names}
    for order in (names, names[::-1], sorted(names, key=len)):
        graph = graphed(load(str(old))).graph
        assert {name: held_by(graph, name) for name in order} == alone


class _Counted(dict[Any, Any]):
    """A graph's parents by node, counting how often any are read."""

    reads = 0

    def __getitem__(self, node: Any) -> Any:
        _Counted.reads += 1
        return super().__getitem__(node)

    def get(self, node: Any, default: Any = None) -> Any:
        _Counted.reads += 1
        return super().get(node, default)


def test_asked_together_the_walks_read_the_fields_of_the_types_above_the_schemas_asked_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind's walk to `Shared` asked alone reads `ObjectMeta`, which comes first breadth first and leads nowhere
    near it; asked with the others changed, it goes through the types above them only, and finds the same."""
    old, _ = _pair(tmp_path)
    read: list[str] = []
    fields = kind_paths._fields
    monkeypatch.setattr(kind_paths, "_fields", lambda graph, named: read.append(named.name) or fields(graph, named))
    asked = [f"{V1}.Shared", f"{V1}.Loose"]
    found = held_by_each(graphed(load(str(old))).graph, asked)
    assert sorted(name.rpartition(".")[2] for name in read) == ["Frobber", "FrobberSpec", "Widget"]
    assert found == {name: held_by(graphed(load(str(old))).graph, name) for name in asked}


def test_asked_together_then_one_by_one_every_type_is_held_alike(tmp_path: Path) -> None:
    """A type beyond those asked about together, asked after them, is walked to again through every type."""
    old, _ = _pair(tmp_path)
    names = list(SPEC["definitions"])
    alone = {name: held_by(graphed(load(str(old))).graph, name) for name in names}
    for first in ([f"{V1}.FrobberSpec"], [f"{V1}.Part", f"{META}.ListMeta"], names[::2]):
        graph = graphed(load(str(old))).graph
        assert held_by_each(graph, first) == {name: alone[name] for name in first}
        assert {name: held_by(graph, name) for name in names} == alone


def test_the_kinds_above_every_type_of_a_long_chain_are_found_reading_each_type_s_parents_a_few_times() -> None:
    """A kind over 1,000 types each holding the next, asked about bottom first and top first: a walk up to the
    kinds from each type asked, stopping only at kinds, would read the parents of 500,000 types."""
    links = 1000
    definitions: dict[str, Any] = {f"{V1}.T{i}": _object(next=_ref(f"{V1}.T{i + 1}")) for i in range(links)}
    definitions[f"{V1}.T{links}"] = _object(size=STRING)
    definitions[f"{V1}.Top"] = _kind("Top", next=_ref(f"{V1}.T0"))
    text = json.dumps({**SPEC, "definitions": definitions})
    for order in (range(links, -1, -1), range(links + 1)):
        graph = graphed(load_text(text, "spec.json", None, Limits(max_depth=links))).graph
        graph.graph.pred = _Counted(graph.graph.pred)
        _Counted.reads = 0
        for i in order:
            assert held_by(graph, f"{V1}.T{i}") == (("demo/v1/Top", (".next",) * (i + 1)),)
        assert _Counted.reads < 5 * links, _Counted.reads


def test_a_field_is_named_from_its_one_kind_and_a_shared_type_says_which_kinds_use_it(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)
    report = run(load(str(old)), load(str(new)), grouped=False)
    assert [(f.rule, where(f.change.context), f.message) for f in report.findings if f.level.value == "breaking"] == [
        ("schema.property.removed", "demo/v1 Frobber.status.observed", "property Frobber.status.observed removed"),
        ("schema.property.removed", "demo/v1 Frobber.spec.byName{}.label",
         "property Frobber.spec.byName{}.label removed"),
        ("schema.property.removed", "demo/v1 Loose.w", "property Loose.w removed"),
        ("schema.property.removed", "demo/v1 Frobber.spec.parts[].size", "property Frobber.spec.parts[].size removed"),
        ("schema.property.removed", "demo/v1 Shared.y (used by 2 kinds: Frobber, Widget)",
         "property Shared.y (used by 2 kinds: Frobber, Widget) removed"),
        ("schema.property.removed", "demo/v1 FrobberList.metadata.more",  # in its kind's group-version
         "property FrobberList.metadata.more removed"),
        ("schema.property.removed", "meta/v1 ObjectMeta.uid (used by 2 kinds: Frobber, Widget)",
         "property ObjectMeta.uid (used by 2 kinds: Frobber, Widget) removed"),
    ]


def test_only_the_words_change_not_fingerprints_order_or_ignores(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)
    report = run(load(str(old)), load(str(new)), grouped=False)
    findings = report.findings
    assert all(f.fingerprint == fingerprint(f.rule, replace(f.change, context=replace(f.change.context, held_by=())))
               for f in findings)
    assert [type_where(f.change.context) for f in findings] == sorted(type_where(f.change.context)
                                                                        for f in findings)
    by_type = Config(ignores=(ScopedIgnore(rule="schema.property.removed", location="demo/v1 FrobberStatus.observed",
                                           reason="written before the kind notation"),
                              ScopedIgnore(rule="schema.property.removed", location="demo/v1 Frobber.spec.parts[].size",
                                           reason="written as reports write it now")))
    kept = run(load(str(old)), load(str(new)), config=by_type, grouped=False)
    assert sorted(set(f.fingerprint for f in findings) - set(f.fingerprint for f in kept.findings)) == sorted(
        f.fingerprint for f in findings if type_where(f.change.context) in (
            "demo/v1 FrobberStatus.observed", "demo/v1 Part.size"))
    assert [note for note in kept.notes if "unused" in note] == []


def test_kubernetes_1_35_to_1_36_names_fields_by_their_kind() -> None:
    report = real_pair("kubernetes/v2/swagger-v1.35.json", "kubernetes/v2/swagger-v1.36.json", grouped=False)
    labels = {(f.rule, where(f.change.context)) for f in report.findings}
    assert ("schema.property.became-optional", "policy/v1 PodDisruptionBudget.status.currentHealthy") in labels
    assert ("schema.property.became-required",
            "admissionregistration.k8s.io/v1 ValidatingAdmissionPolicyBinding.spec.policyName") in labels
    assert ("schema.property.removed",
            "core/v1 PodSpec.workloadRef (used by 9 kinds: CronJob, DaemonSet, Deployment, ...)") in labels


def test_a_change_to_a_type_itself_is_named_like_its_fields(tmp_path: Path) -> None:
    """A type made atomic or given a validation rule is named by its one kind's path to it, or by its Go type
    with the kinds that use it; a type added is still named by its Go type, its place in the kind being a field
    reported on its own. Only the words change: fingerprints and order are those of the type notation."""
    new = copy.deepcopy(SPEC)
    definitions = new["definitions"]
    definitions[f"{V1}.FrobberStatus"]["x-kubernetes-map-type"] = "atomic"
    definitions[f"{V1}.Shared"]["x-kubernetes-map-type"] = "atomic"
    definitions[f"{V1}.Part"]["x-kubernetes-validations"] = [{"rule": "self.size != ''"}]
    definitions[f"{V1}.FrobberStatus"]["properties"]["gauge"] = _ref(f"{V1}.Gauge")
    definitions[f"{V1}.Gauge"] = _object(level=STRING)
    (tmp_path / "old.json").write_text(json.dumps(SPEC))
    (tmp_path / "new.json").write_text(json.dumps(new))
    report = run(load(str(tmp_path / "old.json")), load(str(tmp_path / "new.json")), grouped=False)
    assert [(f.rule, f.level.value, where(f.change.context), f.message) for f in report.findings] == [
        ("kubernetes.validation.rule-added", "breaking", "demo/v1 Frobber.spec.parts[]",
         "validation rule added to Frobber.spec.parts[]: `self.size != ''`"),
        ("kubernetes.map-type-made-atomic", "safe", "demo/v1 Frobber.status",
         "Frobber.status becomes atomic (was granular)"),
        ("schema.property.added", "safe", "demo/v1 Frobber.status.gauge",
         "optional property Frobber.status.gauge added"),
        ("schema.added", "safe", "demo/v1 Gauge", "schema Gauge added"),
        ("kubernetes.map-type-made-atomic", "safe", "demo/v1 Shared (used by 2 kinds: Frobber, Widget)",
         "Shared (used by 2 kinds: Frobber, Widget) becomes atomic (was granular)"),
    ]
    findings = report.findings
    assert all(f.fingerprint == fingerprint(f.rule, replace(f.change, context=replace(f.change.context, held_by=())))
               for f in findings)
    assert [type_where(f.change.context) for f in findings] == [  # by level, then by type: as before
        "demo/v1 Part", "demo/v1 FrobberStatus", "demo/v1 FrobberStatus.gauge", "demo/v1 Gauge", "demo/v1 Shared"]


def test_kubernetes_1_30_to_1_32_names_a_type_made_atomic_by_its_kind() -> None:
    report = real_pair("kubernetes/v2/swagger-v1.30.json", "kubernetes/v2/swagger-v1.32.json", grouped=False)
    assert [(where(f.change.context), f.message, type_where(f.change.context)) for f in report.findings
            if f.rule == "kubernetes.map-type-made-atomic"] == [
        ("networking.k8s.io/v1 Ingress.spec.defaultBackend.service.port",
         "Ingress.spec.defaultBackend.service.port becomes atomic (was granular)",
         "networking.k8s.io/v1 ServiceBackendPort")]
