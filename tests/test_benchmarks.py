"""The benchmark harness and the synthetic spec generator run, and the generator's known changes are found.

Timings are never asserted here; `make bench` prints them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks import synthetic
from benchmarks.harness import ROOT, Case, run_case, specdiff_command
from specdiff.load import load
from specdiff.pipeline import run
from specdiff.records import Report


def compare_pair(pair: synthetic.SpecPair, folder: Path) -> Report:
    old, new = synthetic.write(pair, folder)
    return run(load(str(old)), load(str(new)))


def test_tiny_synthetic_pair_gives_exactly_the_scattered_changes(tmp_path: Path) -> None:
    report = compare_pair(synthetic.generate(scale=0.01, seed=1, changes=7), tmp_path)
    schemas = "/components/schemas"
    assert sorted((f.change.kind, f.change.pointer) for f in report.findings) == [
        ("added", f"{schemas}/Layer3Type00000/properties/status/enum/5"),
        ("added", f"{schemas}/Layer3Type00003/properties/comment"),
        ("added", "/paths/~1resources2~1{id}/delete"),
        ("modified", f"{schemas}/Layer0Type00001/required"),
        ("modified", f"{schemas}/Layer2Type00001/properties/count"),
        ("removed", f"{schemas}/Layer3Type00002/properties/note"),
        ("removed", "/paths/~1resources0~1{id}/put"),
    ]
    rules = {f.change.pointer: f.rule for f in report.findings}
    assert rules[f"{schemas}/Layer3Type00000/properties/status/enum/5"] == "schema.enum.value-added"
    assert rules[f"{schemas}/Layer3Type00002/properties/note"] == "schema.property.removed"
    assert rules["/paths/~1resources0~1{id}/put"] == "operation.removed"
    assert rules["/paths/~1resources2~1{id}/delete"] == "operation.added"


def test_generator_knows_every_finding_at_a_small_scale(tmp_path: Path) -> None:
    pair = synthetic.generate(scale=0.05, seed=7)
    report = compare_pair(pair, tmp_path)
    places = [(f.rule, m) for f in report.findings for m in f.members or (f,)]  # fields one edit changed: a group
    assert sorted((m.change.kind, m.change.pointer) for _, m in places) == sorted(
        (e.change, e.pointer) for e in pair.expected)
    rules = {m.change.pointer: rule for rule, m in places}
    assert {e.pointer: e.rule for e in pair.expected if e.rule} == {
        e.pointer: rules[e.pointer] for e in pair.expected if e.rule}
    assert {e.what for e in pair.expected} == set(synthetic.KINDS)


def test_generator_is_deterministic_from_seed_and_scale(tmp_path: Path) -> None:
    first = synthetic.write(synthetic.generate(scale=0.02, seed=3), tmp_path / "a")
    second = synthetic.write(synthetic.generate(scale=0.02, seed=3), tmp_path / "b")
    other = synthetic.write(synthetic.generate(scale=0.02, seed=4), tmp_path / "c")
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]
    assert first[1].read_bytes() != other[1].read_bytes()


def test_full_scale_has_the_advertised_shape() -> None:
    pair = synthetic.generate()
    assert pair.stats["schemas"] == 3000 and pair.stats["operations"] == 2000 and pair.stats["changes"] == 200
    assert 10_500 <= pair.stats["refs"] <= 11_500, pair.stats
    top = pair.old["paths"]["/resources0"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert top == {"$ref": "#/components/schemas/Layer0Type00000"}
    assert "$ref" not in json.dumps(pair.old["components"]["schemas"]["Layer5Type00000"])


def test_exit_code_two_is_reported_as_unsupported_not_as_a_crash() -> None:
    row = run_case(Case("missing", lambda: [*specdiff_command(), "missing.json", "missing.json"]), runs=1,
                   warmup=False)
    assert row.note == "unsupported (exit 2): specdiff: error: missing.json: no such file"


def test_quick_run_prints_the_table_and_skips_absent_corpora(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--corpora", str(tmp_path / "none"),
         "--cache", str(tmp_path / "cache"), "--case", "kubernetes v2", "--case", "synthetic", "--case=--help"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    rows = {line.split("  ")[0]: line for line in result.stdout.splitlines()}
    assert rows["kubernetes v2 1.35->1.36"].endswith(
        f"skipped: {tmp_path / 'none' / 'kubernetes' / 'v2' / 'swagger-v1.35.json'} not found")
    assert rows["synthetic x0.1"].endswith("1 run")
    assert rows["specdiff --help"].endswith("1 run")


def test_the_stages_of_a_pair_are_timed_each() -> None:
    from benchmarks.stages import STAGES, stages

    specs = ROOT / "tests" / "specs"
    spent = stages(specs / "frob-old.yaml", specs / "frob-new.yaml")
    assert list(spent) == list(STAGES)
    assert all(seconds >= 0 for seconds in spent.values())


def test_the_stages_say_where_the_corpora_are_not(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "benchmarks.stages", "--corpora", str(tmp_path / "none")],
                            cwd=ROOT, capture_output=True, text=True, check=False)
    assert (result.returncode, result.stderr) == (2, f"corpora not found at {tmp_path / 'none'}\n")


def test_a_case_runs_beside_its_floor_run_by_run() -> None:
    """The floor is run after each run of the case set against it, and the ratio is taken run by run: on a
    shared machine two runs a second apart see the same speed, two series a minute apart may not."""
    from benchmarks.harness import ratios, run_cases

    floor = Case("bare", lambda: [sys.executable, "-c", "pass"])
    case = Case("work", lambda: [sys.executable, "-c", "sum(range(10 ** 5))"], floor="bare")
    alone = Case("alone", lambda: [sys.executable, "-c", "pass"])
    rows = run_cases([case, floor, alone], runs=2, warmup=False)
    assert [(row.case, len(row.samples), len(row.against_floor)) for row in rows] == [
        ("work", 2, 2), ("bare", 2, 0), ("alone", 2, 0)]
    [line] = ratios(rows, {"work": "bare"})
    assert line.startswith("work / bare = ") and "median of 2 runs each beside a floor run" in line
