"""requirements.txt, the lock the GitHub action installs: the entries of the development lock (versions and
hashes as they are) that specdiff needs to run and to be built, and nothing of the development tools.

`python tests/runtime_lock.py` rewrites it from requirements-dev.txt and the packages installed from it
(`make lock` runs it); tests/test_goldens.py fails when it is stale.
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
DEV_LOCK = ROOT / "requirements-dev.txt"
RUNTIME_LOCK = ROOT / "requirements.txt"
#: the Pythons the action may run on (its python-version input): a dependency any of them needs is kept
PYTHONS = ("3.11", "3.12", "3.13", "3.14")
HEADER = ("# The lock the GitHub action installs (pip install --require-hashes -r requirements.txt): specdiff's\n"
          "# dependencies and its build backend, cut from requirements-dev.txt by tests/runtime_lock.py (make lock).\n")
_ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==", re.M)


def entries(lock: str) -> dict[str, str]:
    """Each pinned package of a pip-compile lock, by canonical name: its pin line and its hashes (the `# via`
    comments speak of the development tools, so they stay behind)."""
    starts = [(m.start(), canonicalize_name(m.group(1))) for m in _ENTRY.finditer(lock)]
    ends = [start for start, _ in starts[1:]] + [len(lock)]
    blocks: dict[str, str] = {}
    for (start, name), end in zip(starts, ends, strict=True):
        pin, *rest = lock[start:end].splitlines()
        blocks[name] = "\n".join([pin, *(line for line in rest if line.lstrip().startswith("--hash="))]) + "\n"
    return blocks


def needed() -> set[str]:
    """specdiff's run-time dependencies and its build requirements, with everything they need in turn."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    todo = [Requirement(r) for r in project["project"]["dependencies"] + project["build-system"]["requires"]]
    seen: set[str] = set()
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        if requirement.marker and not any(requirement.marker.evaluate({"python_version": v, "extra": ""})
                                          for v in PYTHONS):
            continue
        seen.add(name)
        todo.extend(Requirement(r) for r in importlib.metadata.requires(name) or [])
    return seen


def runtime_lock() -> str:
    blocks = entries(DEV_LOCK.read_text(encoding="utf-8"))
    wanted = needed()
    missing = sorted(wanted - set(blocks))
    if missing:
        raise SystemExit(f"{DEV_LOCK.name} does not pin {', '.join(missing)}: run make lock")
    return HEADER + "".join(blocks[name] for name in sorted(wanted))


if __name__ == "__main__":
    RUNTIME_LOCK.write_text(runtime_lock(), encoding="utf-8")
