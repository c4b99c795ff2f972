"""Running rule-card cases: each case is an (old, new) pair of small documents and the exact findings."""

from __future__ import annotations

import datetime as dt
import json
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from specdiff.config import config_from_mapping
from specdiff.load import Document, load, load_text
from specdiff.pipeline import run
from specdiff.records import Finding, Report

SKELETON = {"openapi": "3.0.3", "info": {"title": "case", "version": "1"}, "paths": {}}


def expand(document: Any) -> Any:
    """A case may give only the interesting parts of an OpenAPI 3.0 document; the rest is filled in."""
    if isinstance(document, dict) and not {"openapi", "swagger", "kind"} & set(document):
        return {**SKELETON, **document}
    return document


def run_case(case: dict[str, Any]) -> Report:
    """`old_files` and `new_files` (path -> document) are the files each side's `$ref`s reach, written beside it."""
    with tempfile.TemporaryDirectory() as folder:
        old = _side(case, "old", Path(folder))
        new = _side(case, "new", Path(folder))
        config = config_from_mapping(case["config"], "case") if case.get("config") else None
        return run(old, new, case.get("policy", "auto"), config, reference_date(case),
                   include_docs=bool(case.get("include_docs")))


def _side(case: dict[str, Any], side: str, folder: Path) -> Document:
    text = json.dumps(expand(case[side]))
    files = case.get(f"{side}_files")
    if not files:
        return load_text(text, f"{side}.json", None)
    base = folder / side
    for name, document in files.items():
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        (base / name).write_text(json.dumps(document), encoding="utf-8")
    (base / f"{side}.json").write_text(text, encoding="utf-8")
    return load(str(base / f"{side}.json"))


def reference_date(case: dict[str, Any]) -> dt.date | None:
    """A case that judges how far away a date is names its reference date (`today:`); others run on today's."""
    return dt.date.fromisoformat(case["today"]) if case.get("today") else None


def observed(report: Report, with_level: bool) -> list[tuple[str, ...]]:
    return sorted((f.rule, f.change.pointer, f.level.value) if with_level else (f.rule, f.change.pointer)
                  for f in _judged(report))


def _judged(report: Report) -> list[Finding]:
    """The findings as each card judged them: a reference moved to a schema that differs holds what the swap
    brings as members of other rules (tests/test_group.py), each judged by its own card."""
    out: list[Finding] = []
    for finding in report.findings:
        brought = [member for member in finding.members if member.rule != finding.rule]
        if not brought or finding.change.attribute != "$ref":  # (a type added with its field is one change)
            out.append(finding)
            continue
        own = next(member for member in finding.members if member.rule == finding.rule)
        out.append(replace(finding, level=own.level))
        out.extend(brought)
    return out


def expected(case: dict[str, Any], with_level: bool) -> list[tuple[str, ...]]:
    return sorted((e["rule"], e["pointer"], e["level"]) if with_level else (e["rule"], e["pointer"])
                  for e in case.get("expect") or [])


#: a minimal valid rule card, for tests that write catalogues of their own
EXAMPLE_CARD = """\
id: schema.test.example
title: Example
level: safe
match: {node: property, change: added}
message: "property {name} added to {location}"
reason: An example.
docs: {what: w, why: y, example: e}
"""
