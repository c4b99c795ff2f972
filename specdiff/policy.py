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
from dataclasses import replace

from specdiff.classify.calendar import utc_today
from specdiff.config import Config, ScopedIgnore
from specdiff.frozen import record
from specdiff.group import InlinedCopies, group_fingerprint
from specdiff.notation import long_where, type_where, where
from specdiff.records import Finding, Level


@record(frozen=True, slots=True)
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


def extension_level(finding: Finding, extensions: Mapping[str, str]) -> str | None:
    """The level the configuration gives the vendor extension a finding is about (`extensions:`), if any: more
    specific than a rule's, since it names the very keyword."""
    change = finding.change
    if not extensions or change.node != "extension":
        return None
    return extensions.get(str(change.fact("name") or change.attribute.partition("/")[0]))


@record(frozen=True, slots=True)
class Glob:
    """A location glob: `*` is any run of characters, `?` one character; everything else (`[]`, `{}`) is literal.

    Matched piece by piece between the stars, each at its leftmost place (what a star skips never needs a
    second look), so a match costs at most text length x pattern length. A regex of `.*` runs backtracks
    instead: `*a*a*a*a*a*b` from a configuration took hours on a long location.
    """

    pieces: tuple[re.Pattern[str], ...]  # the fixed-length runs between stars; `?` is `.` in them
    last: int  # the length of the last run, which must end the text

    @classmethod
    def of(cls, pattern: str) -> Glob:
        runs = pattern.split("*")
        pieces = tuple(re.compile("".join("." if c == "?" else re.escape(c) for c in run), re.S) for run in runs)
        return cls(pieces, len(runs[-1]))

    def fullmatch(self, text: str) -> bool:
        first, *middle = self.pieces
        if not middle:
            return first.fullmatch(text) is not None
        head = first.match(text)
        if head is None:
            return False
        at = head.end()
        for piece in middle[:-1]:
            found = piece.search(text, at)
            if found is None:
                return False
            at = found.end()
        start = len(text) - self.last
        return start >= at and middle[-1].fullmatch(text, start) is not None


def _located(finding: Finding) -> tuple[str, str, str, str]:
    """The texts an ignore's location may name a finding by: as reports write it, by its type (as they wrote it
    before the kind notation), in full, or its pointer."""
    ctx = finding.change.context
    return where(ctx), type_where(ctx), long_where(ctx), finding.change.pointer


class _Ignores:
    """The active ignores, indexed so that a finding is checked against few of them: by rule prefix when they
    name no location, by text when the location has no wildcard; only wildcard locations are tried one by one
    (thousands of entries against thousands of findings were matched pair by pair, each glob compiled again)."""

    def __init__(self, entries: Sequence[ScopedIgnore]) -> None:
        self.by_rule: dict[str | None, list[int]] = {}
        self.by_text: dict[str, list[int]] = {}
        self.globs: list[tuple[int, Glob]] = []
        self.entries = entries
        for index, entry in enumerate(entries):
            if entry.location is None:
                self.by_rule.setdefault(entry.rule, []).append(index)
            elif "*" in entry.location or "?" in entry.location:
                self.globs.append((index, Glob.of(entry.location)))
            else:
                self.by_text.setdefault(entry.location, []).append(index)

    def hits(self, finding: Finding) -> list[int]:
        """The indexes of the entries that match the finding, in order."""
        parts = finding.rule.split(".")
        found = [i for key in (None, *(".".join(parts[:n]) for n in range(1, len(parts) + 1)))
                 for i in self.by_rule.get(key, ())]
        texts = _located(finding)
        found += [i for text in set(texts) for i in self.by_text.get(text, ()) if self._rule_fits(i, finding)]
        found += [i for i, glob in self.globs
                  if self._rule_fits(i, finding) and any(glob.fullmatch(text) for text in texts)]
        return sorted(set(found))

    def _rule_fits(self, index: int, finding: Finding) -> bool:
        rule = self.entries[index].rule
        return rule is None or matches_rule(rule, finding.rule)


def apply(findings: Iterable[Finding], config: Config, today: dt.date | None = None,
          copies: InlinedCopies | None = None) -> Outcome:
    """The policy stage; `today` decides expiry (injected so the result depends on inputs only; default: the
    system date in UTC); `copies` are the inlined copies grouping will fold, so a baseline entry holding a group's
    fingerprint matches its members as grouping will gather them."""
    today = today or utc_today()
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
    ignores = _Ignores(active)
    for finding in findings:
        hits = ignores.hits(finding)
        used_ignores.update(hits)
        # (hashing every finding twice is skipped when there is no baseline to look them up in)
        matched = (baseline.intersection((finding.fingerprint, group_fingerprint(finding, copies))) if baseline
                   else set())
        in_baseline = bool(matched)
        used_baseline.update(matched)
        override = extension_level(finding, config.extensions) or level_override(finding.rule, config.levels)
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


def accepted(findings: Iterable[Finding]) -> list[tuple[str, Finding]]:
    """The fingerprints a baseline lists to accept reported findings, each with the finding it stands for: a
    group's own, which covers the members that share its key, and the own fingerprint of each member that joined
    the group through another place it shares (its key is not the group's), which the group's does not cover."""
    entries: list[tuple[str, Finding]] = []
    for finding in findings:
        entries.append((finding.fingerprint, finding))
        entries += [(member.fingerprint, member) for member in finding.members
                    if finding.fingerprint not in (member.fingerprint, group_fingerprint(member))]
    return entries
