"""Two large YAML files are read at once (the old one in a forked child): same documents, same errors."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest
import yaml

from specdiff.errors import InputError
from specdiff.load import DEFAULT_LIMITS, load
from specdiff.load.pair import _WORTH_FORKING, load_pair

#: schemas enough to pass the size worth forking (1 MB) by a little: each read costs, and reading a larger file
#: takes the same path
SCHEMAS = 2400


@cache
def _large_text(version: str) -> str:
    """A spec large enough to be read in a child, written once per test run: PyYAML's writer is slow."""
    schemas = {f"S{i}": {"type": "object", "description": "x" * 200, "properties": {
        "a": {"type": "string", "enum": ["on", "off", "yes"]}, "n": {"type": "integer", "default": 0x10}}}
        for i in range(SCHEMAS)}
    return yaml.dump({"openapi": "3.0.3", "info": {"title": "t", "version": version}, "paths": {},
                      "components": {"schemas": schemas}}, Dumper=yaml.CSafeDumper, sort_keys=False)


def _large_spec(path: Path, version: str, tail: str = "") -> str:
    text = _large_text(version) + tail
    assert len(text) >= _WORTH_FORKING
    path.write_text(text)
    return str(path)


def test_the_forked_read_gives_the_documents_a_plain_read_gives(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    old = _large_spec(tmp_path / "old.yaml", "1")
    new = _large_spec(tmp_path / "new.yaml", "2")
    forks: list[int] = []
    real_fork = os.fork
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or real_fork())
    old_doc, new_doc = load_pair(old, new, DEFAULT_LIMITS)
    assert forks == [1]  # the old file was parsed in a child
    plain = {path: load(path) for path in (old, new)}
    for got, path in ((old_doc, old), (new_doc, new)):
        read = plain[path]
        assert (got.name, got.dialect, got.format, got.data) == (read.name, read.dialect, read.format, read.data)
        assert list(got.data["components"]["schemas"]) == list(read.data["components"]["schemas"])  # key order
    last = f"/components/schemas/S{SCHEMAS - 1}"
    assert old_doc.sourcemap.locate(last) == plain[old].sourcemap.locate(last)


def test_an_error_in_the_old_file_is_the_error_a_plain_read_reports(tmp_path: Path) -> None:
    old = _large_spec(tmp_path / "old.yaml", "1", tail="openapi: 3.0.3\n")  # a duplicate key at the end
    new = _large_spec(tmp_path / "new.yaml", "2")
    with pytest.raises(InputError) as plain:
        load(old)
    with pytest.raises(InputError) as paired:
        load_pair(old, new, DEFAULT_LIMITS)
    assert str(paired.value) == str(plain.value)
    assert str(plain.value).endswith(": duplicate key 'openapi'")


def test_small_or_other_inputs_are_read_one_after_the_other(tmp_path: Path) -> None:
    specs = Path(__file__).parent / "specs"
    old_doc, new_doc = load_pair(str(specs / "frob-old.yaml"), str(specs / "frob-new.yaml"), DEFAULT_LIMITS)
    assert (old_doc.data, new_doc.data) == (load(str(specs / "frob-old.yaml")).data,
                                            load(str(specs / "frob-new.yaml")).data)


def test_a_child_that_fails_otherwise_leaves_the_reading_to_this_process(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    old = _large_spec(tmp_path / "old.yaml", "1")
    new = _large_spec(tmp_path / "new.yaml", "2")

    def broken(*args: object) -> None:
        raise MemoryError

    monkeypatch.setattr("specdiff.load.pair.parse_text", broken)  # only the child parses through this name
    old_doc, _ = load_pair(old, new, DEFAULT_LIMITS)
    assert old_doc.data == load(old).data
