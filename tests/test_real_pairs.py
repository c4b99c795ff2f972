"""The pipeline on real specs: known changes between releases, and nothing between a spec and a re-shaped copy
of itself (the same API written in another shape, so the comparison itself runs, not only the loader)."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import CORPORA, corpus, real_graphed, real_pair

from specdiff.diff.schemas import SchemaDiffer
from specdiff.load import load_text
from specdiff.pipeline import compare_graphed, graphed
from specdiff.records import Report

compare = real_pair


def found(report: Report, rule: str) -> dict[str, str]:
    """pointer -> level of the findings of one rule."""
    return {f.change.pointer: f.level.value for f in report.findings if f.rule == rule}


def test_kubernetes_1_35_to_1_36_removes_podspec_workload_ref() -> None:
    report = compare("kubernetes/v2/swagger-v1.35.json", "kubernetes/v2/swagger-v1.36.json")
    removed = found(report, "schema.property.removed")
    # "a reference to the Workload object": only the alpha scheduling.k8s.io/v1alpha1 serves Workload
    assert removed["/definitions/io.k8s.api.core.v1.PodSpec/properties/workloadRef"] == "dangerous"


def test_kubernetes_1_28_to_1_30_host_alias_ip_required_as_merged_and_flowcontrol_v1beta2_removed() -> None:
    """HostAlias.ip becoming required only writes down what the API server needed: 1.28 already merged
    PodSpec.hostAliases by ip."""
    report = compare("kubernetes/v2/swagger-v1.28.json", "kubernetes/v2/swagger-v1.30.json")
    required = [f for f in report.findings if f.rule == "schema.property.became-required"
                and f.change.pointer == "/definitions/io.k8s.api.core.v1.HostAlias/required"]
    assert [(dict(f.change.detail)["name"], f.level.value, f.reason) for f in required] == [
        ("ip", "safe", "Documentation correction, not a new requirement: the old spec already merged "
                       "PodSpec.hostAliases by ip (x-kubernetes-patch-merge-key), so the API server needed it in "
                       "every item.")]
    # a whole beta group-version goes: one breaking finding that names every one of its operations
    gone = [f for f in report.findings if f.rule == "group-version.removed"
            and f.change.old == "flowcontrol.apiserver.k8s.io/v1beta2"]
    assert [f.level.value for f in gone] == ["breaking"]
    spec = json.loads(corpus("kubernetes/v2/swagger-v1.28.json").read_text())
    written = sorted(f"{method.upper()} {path}" for path, item in spec["paths"].items()
                     if path.startswith("/apis/flowcontrol.apiserver.k8s.io/v1beta2/")
                     for method in item if method in ("get", "put", "post", "delete", "patch"))
    assert sorted(gone[0].operations) == written  # every v1beta2 operation 1.28 has, and nothing else
    assert "GET /apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas" in written
    assert not [f for f in report.findings if f.rule == "operation.removed" and "v1beta2" in f.change.pointer]


def test_stripe_2022_03_31_to_04_01_removes_eu_bank_transfer_as_breaking() -> None:
    report = compare("openapi/stripe/spec3-2022-03-31.json", "openapi/stripe/spec3-2022-04-01.json")
    removed = found(report, "schema.property.removed")
    named = "/components/schemas/invoice_payment_method_options_customer_balance_bank_transfer"
    assert removed[named + "/properties/eu_bank_transfer"] == "breaking"


def test_github_2020_12_to_2021_05_alert_number_read_only_in_a_path_parameter_is_safe() -> None:
    """`alert-number` is written only as a path parameter's value and read in alert bodies: `readOnly` there
    takes nothing from writers."""
    report = compare("openapi/github/api.github.com-2020-12-03.json", "openapi/github/api.github.com-2021-05-12.json")
    assert found(report, "schema.read-only-added") == {"/components/schemas/alert-number/readOnly": "safe"}


def test_slack_2020_04_to_2020_10_removes_the_channels_methods() -> None:
    report = compare("openapi/slack-web-api-swagger2/slack_web_openapi_v2-2020-04-03.json",
                     "openapi/slack-web-api-swagger2/slack_web_openapi_v2-2020-10-06.json", grouped=False)
    removed = sorted(p for p in found(report, "operation.removed") if p.startswith("/paths/~1channels."))
    assert removed == [f"/paths/~1channels.{name}" for name in (
        "archive/post", "create/post", "history/get", "info/get", "invite/post", "join/post", "kick/post",
        "leave/post", "list/get", "mark/post", "rename/post", "replies/get", "setPurpose/post", "setTopic/post",
        "unarchive/post")]


def test_stripe_json_and_yaml_of_the_same_release_compare_equal() -> None:
    report = compare("openapi/stripe/spec3-2022-04-01.json", "openapi/stripe/spec3-2022-04-01.yaml")
    assert [(f.rule, f.change.pointer) for f in report.findings] == []


def _corpus_files() -> list[str]:
    if not CORPORA.is_dir():
        return ["(corpora absent)"]
    return sorted(str(p.relative_to(CORPORA)) for p in CORPORA.rglob("*")
                  if p.suffix in (".json", ".yaml") and p.is_file())


_VERSION = re.compile(r"\d+|-[0-9a-f]{7}(?=\.)")


def _natural(name: str) -> list[Any]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _series_extremes(names: list[str]) -> list[str]:
    """The oldest and the newest file of each series (one spec's versions, told apart only by the numbers, dates
    and commits in their paths): the versions between them are written by the same generator, so they take the
    same code paths, and a check that runs every file of every series would re-run those paths hundreds of
    times."""
    series: dict[str, list[str]] = {}
    for name in names:
        series.setdefault(_VERSION.sub("#", name), []).append(name)
    return sorted({kept for members in series.values()
                   for kept in (min(members, key=_natural), max(members, key=_natural))})


# -- a spec against a re-shaped copy of itself ----------------------------------------------------------
MOVED = "specdiffMovedParameter"


def _reversed_keys(value: Any) -> Any:
    """Every mapping with its keys in reverse order: order carries no meaning."""
    if isinstance(value, dict):
        return {key: _reversed_keys(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(item) for item in value]
    return value


def _operations(data: dict[str, Any]) -> list[dict[str, Any]]:
    paths = data.get("paths")
    return [op for item in (paths.values() if isinstance(paths, dict) else []) if isinstance(item, dict)
            for op in item.values() if isinstance(op, dict)]


def _inline_one_named_schema(data: dict[str, Any]) -> bool:
    """The first use of a named schema inside an operation becomes a copy of that schema."""
    prefix = "#/definitions/" if "swagger" in data else "#/components/schemas/"
    named = data.get("definitions") if "swagger" in data else (data.get("components") or {}).get("schemas")
    stack: list[Any] = list(_operations(data))
    while stack:
        node = stack.pop(0)
        if isinstance(node, dict):
            for key, value in node.items():
                ref = value.get("$ref") if isinstance(value, dict) and len(value) == 1 else None
                if isinstance(ref, str) and ref.startswith(prefix) and isinstance(named, dict) \
                        and isinstance(named.get(ref[len(prefix):]), dict):
                    node[key] = copy.deepcopy(named[ref[len(prefix):]])
                    return True
                stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _move_one_parameter(data: dict[str, Any]) -> bool:
    """The first parameter written inside an operation moves to the reusable parameters, referred to by `$ref`."""
    for op in _operations(data):
        for i, param in enumerate(op.get("parameters") or []):
            if isinstance(param, dict) and "$ref" not in param and "name" in param:
                if "swagger" in data:
                    data.setdefault("parameters", {})[MOVED] = param
                    op["parameters"][i] = {"$ref": f"#/parameters/{MOVED}"}
                else:
                    data.setdefault("components", {}).setdefault("parameters", {})[MOVED] = param
                    op["parameters"][i] = {"$ref": f"#/components/parameters/{MOVED}"}
                return True
    return False


def _redescribe_schemas(data: dict[str, Any]) -> bool:
    """A description (which says nothing to clients) changed on the first named schema, or on the schema of every
    version of a CRD (an unserved version is not compared): the pair must be walked."""
    versions = (data.get("spec") or {}).get("versions") if data.get("kind") == "CustomResourceDefinition" else None
    if isinstance(versions, list):
        schemas = [(v.get("schema") or {}).get("openAPIV3Schema") for v in versions if isinstance(v, dict)]
    else:
        schemas = list((data.get("definitions") or (data.get("components") or {}).get("schemas") or {}).values())[:1]
    found = [schema for schema in schemas if isinstance(schema, dict)]
    for schema in found:
        schema["description"] = f"{schema.get('description', '')} (re-shaped)"
    return bool(found)


#: the size above which a JSON spec's copy stays JSON. Writing and reading back a YAML copy of a 3-4 MB spec was
#: two thirds of the sweep; the YAML reader takes the same path through a generator's output whatever its size,
#: which the dozens of smaller JSON specs cross, and a large real YAML spec is compared with its JSON release
#: (`test_stripe_json_and_yaml_of_the_same_release_compare_equal`).
CROSS_FORMAT_BYTES = 1_000_000


def reshaped(path: Path, data: Any) -> tuple[str, str, list[str]]:
    """(text, name, what was done): keys reversed, one named schema inlined at a use site, one parameter moved into
    the reusable ones (a schema description changed when none applies), in the other format (a JSON spec over
    CROSS_FORMAT_BYTES in JSON again)."""
    data = _reversed_keys(data)  # a copy, which the edits change
    done = [what for what, edit in (("inlined a named schema", _inline_one_named_schema),
                                    ("moved a parameter", _move_one_parameter)) if edit(data)]
    if not done and _redescribe_schemas(data):
        done.append("changed a description")
    if path.suffix == ".json" and path.stat().st_size <= CROSS_FORMAT_BYTES:
        return yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True), path.stem + ".yaml", done
    return json.dumps(data), path.stem + ".copy.json", done


def reshaped_copy(path: Path, data: Any, cache: pytest.Cache | None) -> tuple[str, str, list[str]]:
    """`reshaped`, kept in pytest's cache under the digest of the spec and of this file (which says how a copy is
    made), on which alone a copy depends: writing the YAML copies of the large JSON specs is about a quarter of
    the sweep's time."""
    if cache is None:
        return reshaped(path, data)
    digest = hashlib.sha256(path.read_bytes() + Path(__file__).read_bytes() + yaml.__version__.encode()).hexdigest()
    folder = cache.mkdir("reshaped-copies")
    kept = folder / f"{digest}.json"
    if kept.is_file():
        text, name, done = json.loads(kept.read_text(encoding="utf-8"))
        return text, name, done
    made = reshaped(path, data)
    partial = folder / f"{digest}.{os.getpid()}.tmp"  # two workers may write the same copy: the last rename wins
    partial.write_text(json.dumps(made), encoding="utf-8")
    partial.replace(kept)
    return made


@pytest.mark.parametrize("name", _series_extremes(_corpus_files()))
def test_every_corpus_file_against_a_reshaped_copy_reports_nothing(name: str, monkeypatch: pytest.MonkeyPatch,
                                                                   request: pytest.FixtureRequest) -> None:
    """JSON <-> YAML (a large JSON spec stays JSON), keys reversed, a named schema inlined, a parameter moved: the
    same API, no findings, and the differ had to compare schemas that are not equal as text (equality alone
    cannot answer)."""
    path = corpus(name)
    original = real_graphed(name)  # read and graphed once for every test of this run that compares the file
    text, shaped_name, done = reshaped_copy(path, original.document.data, getattr(request.config, "cache", None))
    assert done, f"{name}: nothing to re-shape"
    walked: list[int] = []
    compare = SchemaDiffer._compare

    def counting(self: SchemaDiffer, *args: Any) -> None:
        walked.append(1)
        compare(self, *args)

    monkeypatch.setattr(SchemaDiffer, "_compare", counting)
    report = compare_graphed(original, graphed(load_text(text, shaped_name, None)))
    assert [(f.rule, f.change.pointer) for f in report.findings] == [], done
    assert walked, f"{name}: the equality shortcut answered alone ({', '.join(done)})"
