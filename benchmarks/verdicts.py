"""Findings of every real pair in the corpora, one text file a pair, for a before/after comparison of verdicts.

    python -m benchmarks.verdicts OUT_DIR [--corpora ../shared/corpora] [--tool "specdiff"] [--only SUBSTRING]
    diff -r BEFORE_DIR AFTER_DIR        # or: --against BEFORE_DIR, which exits 1 when any file differs

Each line is one finding: level, rule, pointer, message, and the number of members of a group. A change of
verdict, wording or grouping shows as a changed line; the files are sorted, so the same findings give the same
bytes.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

_TAG = re.compile(r"v?(\d+(?:\.\d+)*)")


def _version_key(name: str) -> tuple[int, ...]:
    found = _TAG.findall(name)
    return tuple(int(part) for part in found[-1].split(".")) if found else ()


def real_pairs(corpora: Path) -> list[tuple[str, str]]:
    """Consecutive versions of each real spec, as paths relative to the corpora."""
    pairs: list[tuple[str, str]] = []

    def consecutive(files: list[str]) -> None:
        pairs.extend(zip(files, files[1:], strict=False))

    for folder in sorted((corpora / "openapi").iterdir()):
        files = sorted(p.name for p in folder.iterdir() if p.suffix in (".json", ".yaml", ".yml"))
        consecutive([f"openapi/{folder.name}/{name}" for name in files])
    v2 = sorted((corpora / "kubernetes/v2").glob("swagger-v*.json"), key=lambda p: _version_key(p.stem))
    consecutive([f"kubernetes/v2/{p.name}" for p in v2])
    v3 = sorted((corpora / "kubernetes/v3").iterdir(), key=lambda p: _version_key(p.name))
    consecutive([f"kubernetes/v3/{p.name}" for p in v3])
    series: dict[str, list[Path]] = defaultdict(list)
    for crd in (corpora / "crds").glob("*/*.yaml"):
        plural = crd.name.split(".")[0]
        channel = crd.name.split(".")[1] if crd.parent.name == "gateway-api" else ""
        series[f"{crd.parent.name}/{plural}.{channel}"].append(crd)
    for _, crds in sorted(series.items()):
        crds.sort(key=lambda p: _version_key(p.stem))
        consecutive([f"crds/{p.parent.name}/{p.name}" for p in crds])
    return pairs


def place(finding: dict[str, Any]) -> str:
    """The finding's pointer, or where that names only what held the place: a CRD version removed points at
    the version list it left, so it is named by where it was; a document of a directory added or removed has
    the empty pointer, so it is named by the document. Labels match findings by rule and place."""
    pointer: str = finding.get("pointer", "")
    if finding["rule"] == "crd.version.removed":
        return str(finding.get("old_pointer") or pointer)
    document = finding.get("location", {}).get("document")
    return f"{document}#{pointer}" if document and not pointer else pointer


def _lines(report: dict[str, Any]) -> list[str]:
    lines = []
    for finding in report["findings"]:
        members = len(finding.get("members", []))
        lines.append(f"{finding['level']}\t{finding['rule']}\t{place(finding)}\t{finding['message']}\t{members}")
    return sorted(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared/corpora")
    parser.add_argument("--tool", default=f"{sys.executable} -m specdiff")
    parser.add_argument("--only", default="", help="pairs whose old path contains this text")
    parser.add_argument("--against", type=Path, default=None,
                        help="an OUT_DIR written before: print what differs, exit 1 if any pair does")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    written: list[str] = []
    for old, new in real_pairs(args.corpora):
        if args.only not in old:
            continue
        command = [*shlex.split(args.tool), str(args.corpora / old), str(args.corpora / new),
                   "--format", "json", "--no-config", "--today", "2026-01-15"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        name = f"{old}__{Path(new).name}".replace("/", "_") + ".txt"
        if done.returncode > 1:
            text = f"exit {done.returncode}: {done.stderr.strip()}\n"
        else:
            text = "".join(f"{line}\n" for line in _lines(json.loads(done.stdout)))
        (args.out / name).write_text(text)
        written.append(name)
        print(f"{old} -> {new}: {text.count(chr(10))} findings", flush=True)
    return 0 if args.against is None else _differences(args.against, args.out, written, not args.only)


def _differences(before: Path, after: Path, written: list[str], every: bool) -> int:
    """Each pair's findings against those written before (`diff -N`, so a pair on one side only shows whole;
    `every`: the pairs written before only too): 0 when every pair is the same."""
    names = sorted(set(written) | ({p.name for p in before.iterdir()} if every else set()))
    differ = [name for name in names
              if subprocess.run(["diff", "-N", str(before / name), str(after / name)], check=False).returncode]
    print(f"{len(differ)} of {len(names)} pairs differ from {before}{': ' if differ else ''}{', '.join(differ)}")
    return 1 if differ else 0

if __name__ == "__main__":
    sys.exit(main())
