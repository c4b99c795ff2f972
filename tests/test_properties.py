"""Properties over generated OpenAPI 3 documents: a spec never differs from itself, the output is the same bytes
on every run and under every PYTHONHASHSEED, and swapping old and new turns each addition into a removal.

`SPECDIFF_PROPERTIES=long pytest tests/test_properties.py` runs many more examples than CI does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from specdiff.load import load_text
from specdiff.pipeline import run
from specdiff.records import Change, Report
from specdiff.report import render

settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROFILE = settings.get_profile(os.environ.get("SPECDIFF_PROPERTIES", "ci"))

SCHEMA_NAMES = ("Pet", "Owner", "Tag", "Error")
PROPERTY_NAMES = ("id", "name", "kind", "tags", "size")
ENUM_VALUES = ("a", "b", "c", "d")
PATHS = {"/pets": [], "/pets/{id}": ["id"], "/owners/{owner}/pets": ["owner"], "/tags": []}
METHODS = ("get", "post", "put", "delete")


def _leaf(names: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    options: list[st.SearchStrategy[dict[str, Any]]] = [
        st.sampled_from([{"type": "string"}, {"type": "integer"}, {"type": "integer", "format": "int64"},
                         {"type": "boolean"}, {"type": "string", "maxLength": 10}]),
        st.lists(st.sampled_from(ENUM_VALUES), min_size=1, max_size=4, unique=True).map(
            lambda values: {"type": "string", "enum": values}),
    ]
    if names:
        options.append(st.sampled_from(names).map(lambda n: {"$ref": f"#/components/schemas/{n}"}))
    return st.one_of(options)


def _schema(names: list[str], depth: int = 2) -> st.SearchStrategy[dict[str, Any]]:
    if depth == 0:
        return _leaf(names)
    inner = _schema(names, depth - 1)
    return st.one_of(_leaf(names), _object(inner), inner.map(lambda items: {"type": "array", "items": items}))


def _object(inner: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        properties = draw(st.dictionaries(st.sampled_from(PROPERTY_NAMES), inner, max_size=4))
        schema: dict[str, Any] = {"type": "object", "properties": properties}
        required = draw(st.lists(st.sampled_from(sorted(properties)), unique=True)) if properties else []
        if required:
            schema["required"] = required
        return schema

    return build()


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(SCHEMA_NAMES), unique=True, max_size=len(SCHEMA_NAMES)))
    schemas = {name: draw(_object(_schema(names, 1))) for name in names}
    paths: dict[str, Any] = {}
    for path in draw(st.lists(st.sampled_from(sorted(PATHS)), unique=True, max_size=3)):
        item: dict[str, Any] = {}
        for method in draw(st.lists(st.sampled_from(METHODS), unique=True, min_size=1, max_size=3)):
            operation: dict[str, Any] = {"responses": {}}
            parameters = [{"name": n, "in": "path", "required": True, "schema": {"type": "string"}}
                          for n in PATHS[path]]
            for name in draw(st.lists(st.sampled_from(("limit", "q", "X-Trace")), unique=True, max_size=2)):
                parameters.append({"name": name, "in": "header" if name.startswith("X-") else "query",
                                   "required": draw(st.booleans()), "schema": draw(_leaf(names))})
            if parameters:
                operation["parameters"] = parameters
            if method in ("post", "put") and draw(st.booleans()):
                operation["requestBody"] = {"required": draw(st.booleans()), "content": {
                    "application/json": {"schema": draw(_schema(names))}}}
            for status in draw(st.lists(st.sampled_from(("200", "404")), unique=True, min_size=1)):
                response: dict[str, Any] = {"description": status}
                if draw(st.booleans()):
                    response["content"] = {"application/json": {"schema": draw(_schema(names))}}
                operation["responses"][status] = response
            item[method] = operation
        paths[path] = item
    document: dict[str, Any] = {"openapi": "3.0.3", "info": {"title": "generated", "version": "1"}, "paths": paths}
    if schemas:
        document["components"] = {"schemas": schemas}
    return document


@st.composite
def pairs(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two documents that share most of their paths and schemas, so that changes inside them show up."""
    a, c = draw(documents()), draw(documents())
    b = json.loads(json.dumps(a))
    for section, source in (("paths", c["paths"]), ("schemas", c.get("components", {}).get("schemas", {}))):
        target = b["paths"] if section == "paths" else b.setdefault("components", {}).setdefault("schemas", {})
        for name in draw(st.lists(st.sampled_from(sorted(source)), unique=True)) if source else []:
            target[name] = source[name]
    names = set(b.get("components", {}).get("schemas", {}))
    if not all(ref.rsplit("/", 1)[-1] in names for ref in _refs(b)):
        return a, c  # a borrowed schema refers to one that b does not have
    return a, b


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [ref for key, value in node.items() for ref in ([value] if key == "$ref" else _refs(value))]
    return [ref for item in node for ref in _refs(item)] if isinstance(node, list) else []


def _compare(old: dict[str, Any], new: dict[str, Any]) -> Report:
    return run(load_text(json.dumps(old), "old.json", None), load_text(json.dumps(new), "new.json", None))


@PROFILE
@given(documents())
def test_a_spec_never_differs_from_itself(document: dict[str, Any]) -> None:
    assert _compare(document, document).findings == ()


#: kinds that swap when old and new do; "modified" stays "modified" with old and new values swapped
_SWAPPED = {"added": "removed", "removed": "added", "modified": "modified"}


def _facts(report: Report, swapped: bool) -> list[tuple[Any, ...]]:
    """Each change as (kind, node, attribute, pointer into the first document, pointer into the second, values),
    seen from the first document's side; a group gives each of its members."""
    facts = []
    for finding in (member for f in report.findings for member in f.members or (f,)):
        change: Change = finding.change
        first, second = (change.new_pointer, change.old_pointer) if swapped else (change.old_pointer,
                                                                                  change.new_pointer)
        values = (change.new, change.old) if swapped else (change.old, change.new)
        kind = _SWAPPED[change.kind] if swapped else change.kind
        facts.append((kind, change.node, change.attribute, first, second, json.dumps(values, sort_keys=True)))
    return sorted(facts)


@PROFILE
@given(pairs())
def test_swapping_old_and_new_turns_additions_into_removals(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    a, b = pair
    forward, backward = _compare(a, b), _compare(b, a)
    assert _facts(forward, swapped=False) == _facts(backward, swapped=True)


@PROFILE
@given(pairs())
def test_output_is_the_same_bytes_on_every_run(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    a, b = pair
    first, second = _compare(a, b), _compare(a, b)  # two runs from the text on, each rendered in every format
    assert [render(second, name) for name in ("json", "text", "markdown")] == [
        render(first, name) for name in ("json", "text", "markdown")]


_RENDER_ALL = """
import sys
from pathlib import Path
from specdiff.load import load
from specdiff.pipeline import run
from specdiff.report import render
for folder in sorted(Path(sys.argv[1]).iterdir()):
    report = run(load(str(folder / "old.json")), load(str(folder / "new.json")))
    for name in ("json", "text", "markdown"):
        sys.stdout.write(render(report, name))
"""


@settings(max_examples=2, deadline=None)  # each example runs three interpreters
@given(pairs=st.lists(pairs(), min_size=10, max_size=10))
def test_output_is_the_same_bytes_under_every_hash_seed(pairs: list[tuple[dict[str, Any], dict[str, Any]]],
                                                         tmp_path_factory: Any) -> None:
    folder: Path = tmp_path_factory.mktemp("pairs")
    for i, (old, new) in enumerate(pairs):
        (folder / f"{i:02}").mkdir()
        (folder / f"{i:02}" / "old.json").write_text(json.dumps(old))
        (folder / f"{i:02}" / "new.json").write_text(json.dumps(new))
    outputs = set()
    for hash_seed in ("0", "1", "4242"):
        done = subprocess.run([sys.executable, "-c", _RENDER_ALL, str(folder)], capture_output=True, timeout=120,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert done.returncode == 0, done.stderr.decode()
        outputs.add(done.stdout)
    assert len(outputs) == 1 and b'"findings"' in next(iter(outputs))
