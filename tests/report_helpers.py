"""Helpers for the report tests: run the pipeline on two files and keep the documents for the formatters."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import yaml

from specdiff.classify import card, rule_info
from specdiff.load import load
from specdiff.pipeline import run
from specdiff.records import Report, RuleInfo
from specdiff.report import RenderOptions, render

SPECS = Path(__file__).parent / "specs"
HOSTILE_OLD, HOSTILE_NEW = "tests/specs/hostile-old.yaml", "tests/specs/hostile-new.yaml"


def card_info(rule: str) -> RuleInfo:
    """What classify tells a finding of `rule` about its card, for findings a test makes by hand (nothing for a
    rule no card describes)."""
    chosen = card(rule)
    return rule_info(chosen) if chosen is not None else RuleInfo()
#: the reference date the report tests are judged on and their headers name
TODAY = dt.date(2026, 1, 15)


def compare(old: str | Path, new: str | Path, policy: str = "auto") -> tuple[Report, RenderOptions]:
    old_doc, new_doc = load(str(old)), load(str(new))
    return run(old_doc, new_doc, policy, today=TODAY), RenderOptions(old_doc=old_doc, new_doc=new_doc)


def rendered(fmt: str, old: str | Path, new: str | Path, policy: str = "auto") -> str:
    report, options = compare(old, new, policy)
    return render(report, fmt, options)


def as_json(source: Path, target: Path) -> Path:
    """The same spec written as JSON, to check that JSON and YAML inputs give the same places."""
    data: Any = yaml.safe_load(source.read_text(encoding="utf-8"))
    target.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return target
