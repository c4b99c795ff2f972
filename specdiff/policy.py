"""policy: [Finding] -> [Finding] plus notes, from a Config.

Applied after classify, in this order: level overrides (`off` drops), select/ignore by rule id or dotted prefix,
scoped ignores (expired ones stop applying and say so), baseline fingerprints. It runs before grouping: a
baseline entry holds a finding's own fingerprint or the fingerprint of the group it belongs to (so one entry
accepts one place or the whole change), and an ignore's location matches one place. Whether an ignore or a baseline
entry is *used* is decided against every classified finding, so narrowing `--select` does not make the lists
look stale; unused entries are reported so the lists shrink.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from specdiff.config import Config, ScopedIgnore
from specdiff.group import group_fingerprint
from specdiff.records import Finding, Level


@dataclass(frozen=True, slots=True)
class Outcome:
    findings: tuple[Finding, ...]
    notes: tuple[str, ...]


def matches_rule(selector: str, rule: str) -> bool:
    """`schema` and `schema.enum` select `schema.enum.value-added`; `schema.en` does not."""
    return rule == selector or rule.startswith(selector + ".")


def _most_specific(selectors: Iterable[str], rule: str) -> str | None:
    found = [s for s in selectors if matches_rule(s, rule)]
    return max(found, key=len) if found else None


def selected(rule: str, select: Sequence[str], ignore: Sequence[str]) -> bool:
    """The most specific matching selector decides (ruff's rule); with no `select`, everything is selected."""
    chosen, dropped = _most_specific(select, rule), _most_specific(ignore, rule)
    if dropped is not None and (chosen is None or len(dropped) >= len(chosen)):
        return False
    return chosen is not None or not select


def level_override(rule: str, levels: Mapping[str, str]) -> str | None:
    key = _most_specific(levels, rule)
    return levels[key] if key is not None else None


@lru_cache(maxsize=256)
def _glob(pattern: str) -> re.Pattern[str]:
    """`*` is any run of characters, `?` one character; everything else (`[]`, `{}`) is literal."""
    return re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern), re.S)


def ignore_matches(entry: ScopedIgnore, finding: Finding) -> bool:
    if entry.rule is not None and not matches_rule(entry.rule, finding.rule):
        return False
    if entry.location is None:
        return True
    pattern = _glob(entry.location)
    ctx = finding.change.context
    return any(pattern.fullmatch(text) for text in (ctx.label(), ctx.long_label(), finding.change.pointer))


def apply(findings: Iterable[Finding], config: Config, today: dt.date | None = None) -> Outcome:
    """The policy stage; `today` decides expiry (injected so the result depends on inputs only)."""
    today = today or dt.date.today()
    findings = list(findings)
    notes: list[str] = []
    active: list[ScopedIgnore] = []
    for entry in config.ignores:
        if entry.expires is not None and entry.expires < today:
            notes.append(f"expired ignore ({entry.origin}): {entry.describe()} expired on "
                         f"{entry.expires.isoformat()} and no longer applies ({entry.reason})")
        else:
            active.append(entry)
    baseline = {entry.fingerprint for entry in config.baseline}
    used_ignores: set[int] = set()
    used_baseline: set[str] = set()
    kept: list[Finding] = []
    for finding in findings:
        hits = [i for i, entry in enumerate(active) if ignore_matches(entry, finding)]
        used_ignores.update(hits)
        # (hashing every finding twice is skipped when there is no baseline to look them up in)
        matched = baseline.intersection((finding.fingerprint, group_fingerprint(finding))) if baseline else set()
        in_baseline = bool(matched)
        used_baseline.update(matched)
        override = level_override(finding.rule, config.levels)
        if override == "off" or not selected(finding.rule, config.select, config.ignore) or hits or in_baseline:
            continue
        if override is not None and override != finding.level.value:
            finding = replace(finding, level=Level(override))
        kept.append(finding)
    for index, entry in enumerate(active):
        if index not in used_ignores:
            notes.append(f"unused ignore ({entry.origin}): {entry.describe()} matched no finding; remove it")
    for baseline_entry in config.baseline:
        if baseline_entry.fingerprint not in used_baseline:
            what = f" ({baseline_entry.comment})" if baseline_entry.comment else ""
            notes.append(f"unused baseline entry ({baseline_entry.origin}): {baseline_entry.fingerprint}{what} "
                         "matched no finding; remove it")
    return Outcome(tuple(sorted(kept, key=Finding.sort_key)), tuple(notes))
