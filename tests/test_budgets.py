"""Inputs under 1 MB that once made specdiff hang or eat memory: each runs in a subprocess under a hang guard and
an address-space cap, as on a CI runner, and must end in the correct result or a one-line error.

The guards are generous and never a timing: a fixed run takes a second or two, the old one took minutes or hours
(a quadratic walk) or gigabytes.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from specdiff.report import yaml_envelope

#: the address space a run may take: a CI runner's budget, well above what these inputs need when handled
MEMORY_CAP = 1536 * 1024 * 1024
HANG_GUARD = 120  # seconds; a hang guard, not a timing


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Runs a script in a fresh interpreter under the memory cap and the hang guard."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, capture_output=True, text=True,
                          timeout=HANG_GUARD, preexec_fn=_cap_memory)


def run_specdiff(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command line in a fresh interpreter under the memory cap and the hang guard."""
    return subprocess.run([sys.executable, "-m", "specdiff", *args, "--no-config"], cwd=cwd, capture_output=True,
                          text=True, timeout=HANG_GUARD, preexec_fn=_cap_memory)


def test_the_json_source_map_scans_a_long_array_once(tmp_path: Path) -> None:
    """Every element of a 100,000-element array located: a rescan per element was 5 billion skips."""
    done = run_python("""
        import json
        from specdiff.load.sourcemap import JsonSourceMap
        n = 100_000
        source = JsonSourceMap(json.dumps({"a": list(range(n))}, indent=0))
        found = [source.locate(f"/a/{i}") for i in range(n)]
        assert found == [(i + 3, 1) for i in range(n)], found[:3]
        assert source.locate(f"/a/{n}") is None and source.locate("/a/01") is None
        print("ok")
        """, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "ok\n", "")


def test_the_yaml_source_map_indexes_a_wide_mapping_once(tmp_path: Path) -> None:
    """Every key of a 100,000-key mapping located: a scan per key was 5 billion comparisons."""
    done = run_python("""
        from specdiff.load.sourcemap import YamlSourceMap
        n = 100_000
        source = YamlSourceMap("a:\\n" + "".join(f"  k{i}: {i}\\n" for i in range(n)))
        found = [source.locate(f"/a/k{i}") for i in range(n)]
        assert found == [(i + 2, 3) for i in range(n)], found[:3]
        assert source.locate(f"/a/k{n}") is None
        print("ok")
        """, tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "ok\n", "")


def test_sarif_locates_thousands_of_parameters_in_one_pass(tmp_path: Path) -> None:
    """The whole command: 20,000 parameters whose type changed, each found at its schema in the new file."""
    def spec(kind: str) -> str:
        parameters = [{"name": f"p{i}", "in": "query", "schema": {"type": kind}} for i in range(20_000)]
        return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                           "paths": {"/a": {"get": {"parameters": parameters,
                                                    "responses": {"200": {"description": "ok"}}}}}}, indent=1)

    (tmp_path / "old.json").write_text(spec("string"))
    (tmp_path / "new.json").write_text(spec("integer"))
    done = run_specdiff(tmp_path, "old.json", "new.json", "--format", "sarif", "--no-group")
    assert done.returncode == 1, done.stderr
    lines = [result["locations"][0]["physicalLocation"]["region"]["startLine"]
             for result in json.loads(done.stdout)["runs"][0]["results"]]
    new = (tmp_path / "new.json").read_text().splitlines()
    assert len(lines) == len(set(lines)) == 20_000
    assert sorted(lines) == [i for i, text in enumerate(new, 1) if text.strip() == '"schema": {']


HEAD = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\n'


def test_a_yaml_byte_bomb_is_refused_before_it_expands(tmp_path: Path) -> None:
    """A 140 KB file whose 20,000 aliases of one 100 KB string expand to 2 GB: few nodes, so the node budget
    never trips; the text budget (--max-bytes, as if written out without aliases) does."""
    (tmp_path / "good.yaml").write_text(HEAD)
    (tmp_path / "bomb.yaml").write_text(HEAD + f'x-big: &b "{"x" * 100_000}"\nx-many: [{", ".join(["*b"] * 20_000)}]\n')
    done = run_specdiff(tmp_path, "good.yaml", "bomb.yaml")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "specdiff: error: bomb.yaml: YAML aliases expand to more than 67108864 bytes of text "
               "(alias budget exceeded, --max-bytes)\n")


def test_aliased_text_within_the_budget_is_read(tmp_path: Path) -> None:
    """The same shape, raised past its expansion with --max-bytes, is compared (and short aliases never count)."""
    (tmp_path / "old.yaml").write_text(HEAD + f'x-big: "{"x" * 100}"\nx-short: "y"\nx-many: [y, y]\n'  # the same
                                       "components:\n  schemas:\n    A: {type: string, enum: [a]}\n")  # unaliased
    (tmp_path / "new.yaml").write_text(HEAD + f'x-big: &b "{"x" * 100}"\nx-short: &s "y"\nx-many: [*s, *s]\n'
                                       "components:\n  schemas:\n    A: {type: string, enum: [*b, *b]}\n")
    refused = run_specdiff(tmp_path, "old.yaml", "new.yaml", "--max-bytes", "299")
    assert refused.stderr == ("specdiff: error: new.yaml: YAML aliases expand to more than 299 bytes of text "
                              "(alias budget exceeded, --max-bytes)\n")
    done = run_specdiff(tmp_path, "old.yaml", "new.yaml", "--max-bytes", "100000", "--format", "json",
                        "--fail-on", "dangerous")  # (nothing uses A: dangerous at most)
    assert done.returncode == 1, done.stderr
    assert [f["rule"] for f in json.loads(done.stdout)["findings"]] == ["schema.enum.value-removed",
                                                                         "schema.enum.value-added"]


def test_a_pattern_of_wide_character_classes_is_compared_in_little_memory(tmp_path: Path) -> None:
    """20,000 classes of 65,536 characters each: expanded into sets they took tens of gigabytes."""
    wide = "[\\\\x00-\\\\uffff]" * 20_000
    for side, end in (("old", "a"), ("new", "b")):
        (tmp_path / f"{side}.yaml").write_text(
            HEAD + f'components:\n  schemas:\n    A: {{type: string, pattern: "^{wide}{end}$"}}\n')
    done = run_specdiff(tmp_path, "old.yaml", "new.yaml", "--format", "json")
    assert done.returncode == 0, done.stderr  # a schema no operation uses: not breaking
    assert [(f["rule"], f["pointer"]) for f in json.loads(done.stdout)["findings"]] == [
        ("schema.pattern-changed", "/components/schemas/A/pattern")]


#: text for the emitters: YAML's indicators, line breaks, quotes, NEL, the BOM, astral and control characters
_TEXT = st.one_of(st.text(st.sampled_from(list(" \n\t\r\"'#:-?[]{}|>&*!%@`,\\~=aZ09é\x85\u2028\ufeff\U0001F600\x00"
                                               "\x7f\xa0\ud7ff\ue000")), max_size=150),
                  st.text(max_size=40), st.sampled_from(["yes", "null", "~", "1", "0x1", "- a", "--- a", "...", ""]))
_DATA = st.recursive(st.one_of(_TEXT, st.integers(), st.booleans(), st.none()),
                     lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=4)),
                     max_leaves=20)


@pytest.mark.skipif(yaml_envelope._C_DUMPER is None, reason="PyYAML built without libyaml")
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.dictionaries(_TEXT, _DATA, max_size=5))
def test_libyaml_writes_what_the_python_dumper_writes_whenever_it_is_chosen(data: dict[str, Any]) -> None:
    """The YAML report takes libyaml's emitter for speed only where both emitters write the same bytes."""
    text = json.dumps(data, ensure_ascii=False)
    python = yaml_envelope.dump(json.loads(text), yaml_envelope._Dumper)
    if not yaml_envelope._EMITTERS_DIFFER.search(text):
        assert yaml_envelope.dump(json.loads(text), yaml_envelope._C_DUMPER) == python
    assert yaml.safe_load(python) == json.loads(text)


@pytest.mark.skipif(yaml_envelope._C_DUMPER is None, reason="PyYAML built without libyaml")
def test_a_large_yaml_report_is_written_by_libyaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A report of 200 findings (the pure-Python dumper takes seconds per megabyte) is written by libyaml, and the
    report is the JSON report's data. What chooses the emitter is the text, never the size, so a few hundred
    findings of one shape take the path that thousands do."""
    from click.testing import CliRunner

    from specdiff.cli import main

    def spec(kind: str) -> str:
        parameters = [{"name": f"p{i}", "in": "query", "schema": {"type": kind}} for i in range(200)]
        return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                           "paths": {"/a": {"get": {"parameters": parameters,
                                                    "responses": {"200": {"description": "ok"}}}}}})

    (tmp_path / "old.json").write_text(spec("string"))
    (tmp_path / "new.json").write_text(spec("integer"))
    monkeypatch.chdir(tmp_path)
    every_place = ["old.json", "new.json", "--no-config", "--no-group", "--format"]
    reports = {fmt: CliRunner().invoke(main, [*every_place, fmt]).stdout for fmt in ("json", "yaml")}

    class Refused(yaml_envelope._Dumper):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise AssertionError("the pure-Python dumper was used")

    monkeypatch.setattr(yaml_envelope, "_Dumper", Refused)
    assert CliRunner().invoke(main, [*every_place, "yaml"]).stdout == reports["yaml"]
    assert yaml.load(reports["yaml"], Loader=yaml.CSafeLoader) == json.loads(reports["json"])
    assert len(json.loads(reports["json"])["findings"]) == 200


def _write_pair(folder: Path, make: Any) -> None:
    for side, kind in (("old", "string"), ("new", "integer")):
        (folder / f"{side}.json").write_text(json.dumps(make(kind)))


def test_a_long_chain_of_bare_refs_is_walked_once(tmp_path: Path) -> None:
    """100,000 `$ref`s each to the next, outside any named schema: the cycle check searched the chain per link."""
    def spec(kind: str) -> dict[str, Any]:
        links: dict[str, Any] = {f"a{i}": {"$ref": f"#/x-defs/a{i + 1}"} for i in range(100_000)}
        links["a100000"] = {"type": kind}
        used = {"200": {"description": "ok",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}
        return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "x-defs": links,
                "paths": {"/a": {"get": {"responses": used}}},
                "components": {"schemas": {"A": {"type": "object", "properties": {"p": {"$ref": "#/x-defs/a0"}}}}}}

    _write_pair(tmp_path, spec)
    done = run_specdiff(tmp_path, "old.json", "new.json", "--format", "json")
    assert done.returncode == 1, done.stderr
    assert [(f["rule"], f["pointer"]) for f in json.loads(done.stdout)["findings"]] == [
        ("schema.type-changed", "/x-defs/a100000")]


def test_a_long_chain_of_named_schemas_finds_the_operation_above_each(tmp_path: Path) -> None:
    """1,000 schemas each holding the next, each changed: the operations above each are summed once per
    schema from the one above it, not walked up the whole chain per schema."""
    def spec(kind: str) -> dict[str, Any]:
        schemas: dict[str, Any] = {f"S{i}": {"type": "object", "properties": {
            "next": {"$ref": f"#/components/schemas/S{i + 1}"}, "v": {"type": kind}}} for i in range(1000)}
        schemas["S1000"] = {"type": "object", "properties": {"v": {"type": kind}}}
        ok = {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}
        return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                "paths": {"/a": {"get": {"responses": {"200": ok}}}}, "components": {"schemas": schemas}}

    _write_pair(tmp_path, spec)
    done = run_specdiff(tmp_path, "old.json", "new.json", "--format", "json", "--max-depth", "1000", "--no-group")
    assert done.returncode == 1, done.stderr
    found = {(f["rule"], f["pointer"], tuple(f["operations"])) for f in json.loads(done.stdout)["findings"]}
    assert found == {("schema.type-changed", f"/components/schemas/S{i}/properties/v", ("GET /a",))
                     for i in range(1001)}


def _crd(versions: int) -> str:
    listed = "".join(f"  - name: v{i}\n    served: true\n    storage: {str(i == 1).lower()}\n    schema:\n"
                     f"      openAPIV3Schema: {{type: object, properties: {{f{i}: {{type: string}}}}}}\n"
                     for i in range(1, versions + 1))
    return ("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: frobs.example.com}\n"
            "spec:\n  group: example.com\n  scope: Namespaced\n"
            "  names: {plural: frobs, singular: frob, kind: Frob, listKind: FrobList}\n  versions:\n" + listed)


def test_a_crd_with_thousands_of_versions_is_refused_by_name(tmp_path: Path) -> None:
    """5,000 served versions, each with a field the others lack: 25 million round-trip gaps to work out."""
    (tmp_path / "old.yaml").write_text(_crd(2))
    (tmp_path / "new.yaml").write_text(_crd(5000))
    done = run_specdiff(tmp_path, "old.yaml", "new.yaml")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "specdiff: error: new.yaml:8:3: CustomResourceDefinition frobs.example.com lists 5000 versions, "
               "more than 100 (--max-versions)\n")


def test_max_versions_can_be_raised(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text(_crd(2))
    (tmp_path / "new.yaml").write_text(_crd(3))
    refused = run_specdiff(tmp_path, "old.yaml", "new.yaml", "--max-versions", "2")
    assert refused.stderr == ("specdiff: error: new.yaml:8:3: CustomResourceDefinition frobs.example.com lists "
                              "3 versions, more than 2 (--max-versions)\n")
    done = run_specdiff(tmp_path, "old.yaml", "new.yaml", "--max-versions", "3", "--format", "json")
    assert done.returncode == 0, done.stderr  # a version added, and round trips: not breaking
    assert ("crd.version.added", "/spec/versions/2") in {(f["rule"], f["pointer"])
                                                          for f in json.loads(done.stdout)["findings"]}
