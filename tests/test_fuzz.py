"""A CI-sized mutation fuzz of real specs (tests/fuzzing.py; `make fuzz` runs the long one): no traceback, no hang."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from fuzzing import Outcome, Seed, check_output, dump, fuzz, mutate_bytes, mutate_data, read_seed, seed_paths

from specdiff.cli import main

SEED, COUNT = 20240601, 150


@pytest.fixture(scope="module")
def seeds() -> list[Seed]:
    return [read_seed(path) for path in seed_paths()]


@pytest.fixture(scope="module")
def outcomes(seeds: list[Seed]) -> list[Outcome]:
    return fuzz(seeds, SEED, COUNT)


def _report(outcomes: list[Outcome]) -> str:
    return "\n".join(f"case {o.case} ({o.mutation}): {o.code}\n{o.detail}" for o in outcomes)


def test_mutations_end_in_findings_or_one_line_errors(seeds: list[Seed], outcomes: list[Outcome]) -> None:
    failures = [o for o in outcomes if o.code not in (0, 1, 2)]
    assert not failures, _report(failures)
    names = {s.name.rsplit(".", 1)[0] for s in seeds}  # each side is written as JSON or YAML, maybe in parts
    errors = [o.detail for o in outcomes if o.code == 2]
    assert errors and all("\n" not in line for line in errors)
    named = ("old/", "new/", "<config>:operations.")  # a side, or the selection a case ran with
    assert all(line.startswith(named) or line.split(":")[0] in {s.name for s in seeds}
               for line in errors), [line for line in errors if not line.startswith(named)]
    assert any(line.split("/", 1)[1].rsplit(".", 1)[0].split(":")[0] in names for line in errors)


def test_the_short_run_gives_keywords_wrong_types_and_numbers_huge_values(outcomes: list[Outcome]) -> None:
    """The operators that found crashes last round are in the seeded run, not only in the long one."""
    mutations = " ".join(o.mutation for o in outcomes)
    assert "wrong-type #/" in mutations and "huge #/" in mutations
    assert {"hostile servers #/servers", "hostile security #/security", "hostile residue #/x-fuzz",
            "hostile union #/components/schemas/FuzzUnion", "operations: exclude-path"} <= {
        found for found in re.findall(r"hostile \w+ #/[\w/-]+|operations: exclude-path", mutations)}


def test_the_harness_reports_a_crash_with_the_case_to_replay(seeds: list[Seed],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*documents: object) -> int:
        raise KeyError("boom")

    import fuzzing

    monkeypatch.setattr(fuzzing, "compare_documents", broken)
    outcomes = [o for o in fuzz(seeds, SEED, 20) if o.code != 2]
    assert outcomes and {o.code for o in outcomes} == {"crash"}
    assert outcomes[0].detail.splitlines()[-1] == "KeyError: 'boom'"
    assert outcomes[0].mutation.split(":")[0] in {s.name for s in seeds}


@pytest.mark.parametrize("fmt, text, why", [
    ("release-notes", "- `a` b\n  ~~~ `c`\n", "release-notes output renders live: '<pre'"),
    ("markdown", "see [x](http://evil.example)\n", "markdown output renders live: '<a'"),
    ("job-summary", "hi @everyone\n", "job-summary output renders live: '@e'"),
    ("json", '{"a": "\x7f"}', "json output holds the raw control character '\\x7f'"),
    ("release-notes", "- `[x](http://evil.example) @everyone`\n", None),
])
def test_the_harness_finds_live_markdown_and_raw_controls(fmt: str, text: str, why: str | None) -> None:
    assert check_output(fmt, text) == why


def test_the_same_case_mutates_the_same_way(seeds: list[Seed]) -> None:
    assert fuzz(seeds, SEED, 5, first=100) == fuzz(seeds, SEED, 5, first=100)


def _mutated_files(seeds: list[Seed], folder: Path, count: int) -> list[tuple[Path, Path]]:
    rng = random.Random(SEED)
    pairs = []
    for i in range(count):
        seed = seeds[i % len(seeds)]
        original = folder / f"original-{seed.name}"
        original.write_bytes(seed.raw)
        mutated = folder / f"mutated-{i}-{seed.name}"
        if i % 2:
            mutated.write_bytes(mutate_bytes(seed.raw, rng)[0])
        else:
            mutated.write_text(dump(mutate_data(seed, rng)[0], seed.format))
        pairs.append((original, mutated))
    return pairs


def _assert_clean(code: int, stdout: str, stderr: str, original: Path, mutated: Path) -> None:
    assert code in (0, 1, 2), stderr
    if code == 2:
        assert (stdout, stderr.count("\n")) == ("", 1), stderr
        assert stderr.startswith((f"specdiff: error: {mutated}", f"specdiff: error: {original}")), stderr
        assert "Traceback" not in stderr
    else:
        assert stderr == ""


def test_mutated_files_on_the_command_line(seeds: list[Seed], tmp_path: Path) -> None:
    for original, mutated in _mutated_files(seeds, tmp_path, 40):
        result = CliRunner().invoke(main, [str(original), str(mutated), "--no-config", "--format", "markdown"])
        _assert_clean(result.exit_code, result.stdout, result.stderr, original, mutated)


def test_mutated_files_in_a_real_process(seeds: list[Seed], tmp_path: Path) -> None:
    for original, mutated in _mutated_files(seeds, tmp_path, 4):
        done = subprocess.run([sys.executable, "-m", "specdiff", str(mutated), str(original), "--no-config"],
                              capture_output=True, text=True, timeout=300)  # a hang guard, not a timing
        _assert_clean(done.returncode, done.stdout, done.stderr, original, mutated)
