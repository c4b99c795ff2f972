"""How many of the breaking and dangerous findings on the real pairs a reviewer judged right, from labels.

    python -m benchmarks.verdicts OUT_DIR            # the findings of every real pair
    python -m benchmarks.precision OUT_DIR [--labels benchmarks/labels] [--show unlabelled|wrong|lost]

A label file, `benchmarks/labels/<pair>.tsv` (the name of the pair's verdict file without `.txt`), holds one line
per breaking or dangerous finding a reviewer read against both documents, tab-separated:

    rule  pointer  level  change  reason

`level` is the level the reviewer judges right (breaking, dangerous, safe or docs); `change` names the logical
change the finding belongs to, so that findings naming the same change count once; `reason` says why, in a few
words. A finding is matched to its label by rule and pointer, so a label survives a change of wording or level.

Per pair it prints the breaking findings judged breaking, the dangerous findings judged dangerous or breaking
(a risk at least as large as reported), the breaking and dangerous findings per logical change, and the labels
whose finding was judged breaking but is now reported lower or not at all, when no other finding of the same
change is reported breaking (a real break lost; a place folded into a group shown at another keeps its change).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

LEVELS = ("breaking", "dangerous", "safe", "docs")
JUDGED = ("breaking", "dangerous")


@dataclass(frozen=True)
class Label:
    rule: str
    pointer: str
    level: str
    change: str
    reason: str


@dataclass
class Tally:
    pair: str
    breaking: int = 0
    breaking_right: int = 0
    dangerous: int = 0
    dangerous_right: int = 0
    changes: set[str] = field(default_factory=set)
    unlabelled: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)

    @property
    def findings(self) -> int:
        return self.breaking + self.dangerous


def read_labels(path: Path) -> dict[tuple[str, str], Label]:
    labels: dict[tuple[str, str], Label] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 5 or cells[2] not in LEVELS:
            raise SystemExit(f"{path}:{number}: expected rule, pointer, level ({', '.join(LEVELS)}), change, "
                             "reason, tab-separated")
        label = Label(*cells)
        labels[label.rule, label.pointer] = label
    return labels


def tally(verdicts: Path, labels: dict[tuple[str, str], Label]) -> Tally:
    found = Tally(verdicts.stem)
    reported: dict[tuple[str, str], str] = {}
    for line in verdicts.read_text(encoding="utf-8").splitlines():
        level, rule, pointer, message = line.split("\t")[:4]
        reported.setdefault((rule, pointer), level)
        if level not in JUDGED:
            continue
        label = labels.get((rule, pointer))
        if label is None:
            found.unlabelled.append(line)
            continue
        found.changes.add(label.change)
        if level == "breaking":
            found.breaking += 1
            found.breaking_right += label.level == "breaking"
        else:
            found.dangerous += 1
            found.dangerous_right += label.level in JUDGED
        if label.level != level:
            found.wrong.append(f"{level} judged {label.level}\t{rule}\t{pointer}\t{label.reason}")
    # a break is lost when nothing reports its change as breaking any more: a finding folded into a group shown at
    # another place of the same change keeps it
    kept = {label.change for key, label in labels.items() if reported.get(key) == "breaking"}
    for key, label in labels.items():
        if label.level == "breaking" and reported.get(key) != "breaking" and label.change not in kept:
            found.lost.append(f"{reported.get(key, 'absent')}\t{label.rule}\t{label.pointer}\t{label.reason}")
    return found


def _share(right: int, total: int) -> str:
    return f"{right}/{total} ({100 * right / total:.0f} %)" if total else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("verdicts", type=Path, help="a folder written by benchmarks.verdicts")
    parser.add_argument("--labels", type=Path, default=Path(__file__).parent / "labels")
    parser.add_argument("--only", default="", help="pairs whose name contains this text (openapi, kubernetes, crds)")
    parser.add_argument("--show", choices=("unlabelled", "wrong", "lost"), action="append", default=[])
    args = parser.parse_args(argv)
    rows = []
    for path in sorted(p for p in args.labels.glob("*.tsv") if args.only in p.stem):  # "**.tsv" is no pattern
        verdicts = args.verdicts / f"{path.stem}.txt"
        if not verdicts.exists():
            print(f"{path.stem}: no verdicts in {args.verdicts}", file=sys.stderr)
            continue
        rows.append(tally(verdicts, read_labels(path)))
    total = Tally("all labelled pairs")
    print("| pair | breaking judged breaking | dangerous judged a risk | findings per change | unlabelled | lost |")
    print("|---|---|---|---|---|---|")
    for row in [*rows, total]:
        if row is not total:
            total.breaking += row.breaking
            total.breaking_right += row.breaking_right
            total.dangerous += row.dangerous
            total.dangerous_right += row.dangerous_right
            total.changes |= {f"{row.pair}:{change}" for change in row.changes}
            total.unlabelled += row.unlabelled
            total.lost += row.lost
            total.wrong += row.wrong
        per_change = f"{row.findings / len(row.changes):.2f} ({row.findings}/{len(row.changes)})" \
            if row.changes else "-"
        print(f"| {row.pair} | {_share(row.breaking_right, row.breaking)} | "
              f"{_share(row.dangerous_right, row.dangerous)} | {per_change} | {len(row.unlabelled)} | "
              f"{len(row.lost)} |")
    shown: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        for kind in args.show:
            shown[kind] += [f"{row.pair}\t{line}" for line in getattr(row, kind)]
    for kind in args.show:
        print(f"\n{kind}:")
        print("\n".join(shown[kind]) or "(none)")
    return 1 if total.lost else 0


if __name__ == "__main__":
    sys.exit(main())
