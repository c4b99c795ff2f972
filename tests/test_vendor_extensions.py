"""Vendor extensions as users meet them through the command: metadata reported safe and once per extension,
the extensions that change the wire judged by their own rules (AutoRest's `x-ms-paths` operations)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from specdiff.cli import main


def _swagger(ms_paths: dict[str, object], extra: dict[str, object] | None = None) -> str:
    ok = {"200": {"description": "ok"}}
    return json.dumps({"swagger": "2.0", "info": {"title": "jobs", "version": "1"},
                       "paths": {"/jobs/{id}": {"get": {"parameters": [
                           {"name": "id", "in": "path", "required": True, "type": "string"}],
                           "responses": ok, **(extra or {})}}},
                       "x-ms-paths": {path: {"post": {"responses": ok, **(extra or {})}} for path in ms_paths}})


def _run(tmp_path: Path, old: str, new: str, *options: str) -> tuple[int, list[tuple[str, str, str]]]:
    (tmp_path / "old.json").write_text(old, encoding="utf-8")
    (tmp_path / "new.json").write_text(new, encoding="utf-8")
    result = CliRunner().invoke(main, [str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--no-config",
                                       "--format", "json", *options])
    report = json.loads(result.stdout)
    return result.exit_code, [(f["level"], f["rule"], f["pointer"]) for f in report["findings"]]


def test_an_operation_autorest_writes_under_x_ms_paths_is_an_operation(tmp_path: Path) -> None:
    """`/jobs?op=cancel` is called like any path: removing it is a removed operation, adding one a new one,
    and the keyword itself is never compared as data."""
    code, found = _run(tmp_path, _swagger({"/jobs/{id}?op=cancel": {}}), _swagger({"/jobs/{id}?op=restart": {}}))
    assert found == [("breaking", "operation.removed", "/x-ms-paths/~1jobs~1{id}?op=cancel/post"),
                     ("safe", "operation.added", "/x-ms-paths/~1jobs~1{id}?op=restart/post")]
    assert code == 1


def test_metadata_extensions_are_safe_and_one_finding_each(tmp_path: Path) -> None:
    """An SDK annotation rewritten on every operation is one safe finding; --fail-on dangerous passes."""
    paths = {"/jobs/{id}?op=cancel": {}, "/jobs/{id}?op=restart": {}}
    code, found = _run(tmp_path, _swagger(paths, {"x-codegen": {"group": "jobs"}}),
                       _swagger(paths, {"x-codegen": {"group": "work"}}), "--fail-on", "dangerous")
    assert found == [("safe", "extension.changed", "/paths/~1jobs~1{id}/get/x-codegen/group")]
    assert code == 0


def test_x_ms_paths_that_is_no_mapping_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "old.json").write_text(_swagger({}), encoding="utf-8")
    (tmp_path / "new.json").write_text(json.dumps({**json.loads(_swagger({})), "x-ms-paths": ["/jobs"]}),
                                       encoding="utf-8")
    result = CliRunner().invoke(main, [str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--no-config"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"specdiff: error: {tmp_path / 'new.json'}:/x-ms-paths: 'x-ms-paths' must be a mapping\n"
