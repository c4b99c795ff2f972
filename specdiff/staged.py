"""What the pre-commit hook compares: the staged specs, and the specs that reach each staged fragment.

A spec split across files changes in its fragments (`resources/sizes/models/disk_info.yml`) more often than in its
root, and a hook whose pattern matches the fragments is handed them alone. A staged file that is an OpenAPI
document or a CRD is compared itself; for one that is not, the staged specs that reach it through `$ref`s are
compared in its place. Those specs are found by walking the staged tree: a `$ref` may not leave its spec's folder,
so a spec reaching a file lies directly in one of the folders above it; each spec found there is read and
graphed, and reaches the file when the file is among those its references read.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from specdiff.errors import InputError
from specdiff.frozen import record
from specdiff.graph import graph_of
from specdiff.load import detect_dialect, load
from specdiff.load.git import read_text, staged_files
from specdiff.load.parse import DEFAULT_LIMITS, Limits, parse_text


@record(frozen=True, slots=True)
class Staged:
    """The specs to compare (paths relative to the working directory, in the order found), and a note for each
    staged fragment that no staged spec reaches."""

    specs: tuple[str, ...]
    notes: tuple[str, ...] = ()


def specs_to_check(names: Sequence[str], limits: Limits = DEFAULT_LIMITS) -> Staged:
    """The staged specs among `names`, and the staged specs that reach the others (the fragments)."""
    specs: dict[str, None] = {}
    fragments: list[str] = []
    for name in names:
        if _is_spec(name, limits):
            specs.setdefault(name, None)
        elif name not in fragments:
            fragments.append(name)
    reached: set[str] = set()
    for candidate in _candidates(fragments):
        if candidate in specs or candidate in fragments or not _is_spec(candidate, limits):
            continue
        files = _reached(candidate, limits)
        hits = [fragment for fragment in fragments if os.path.normpath(fragment) in files]
        if hits:
            specs.setdefault(candidate, None)
            reached.update(hits)
    notes = tuple(f"{fragment}: not an OpenAPI document or CRD, and no staged spec refers to it; not compared"
                  for fragment in fragments if fragment not in reached)
    return Staged(tuple(specs), notes)


def _is_spec(name: str, limits: Limits) -> bool:
    """Whether the staged file is a spec of its own; a file that cannot be parsed is an error, not a fragment."""
    source = f":./{name}"
    data, _ = parse_text(read_text(source, limits), source, limits)
    try:
        detect_dialect(data, source)
    except InputError:
        return False
    return True


def _candidates(fragments: Sequence[str]) -> list[str]:
    """The staged spec files directly inside a folder above any fragment, nearest folders first."""
    folders: dict[str, None] = {}
    for fragment in fragments:
        folder = os.path.dirname(os.path.normpath(fragment))
        while True:
            folders.setdefault(folder or ".", None)
            if not folder or folder == os.path.dirname(folder):
                break
            folder = os.path.dirname(folder)
    return [os.path.normpath(os.path.join(folder, name)) for folder in folders for name in staged_files(folder)]


def _reached(spec: str, limits: Limits) -> frozenset[str]:
    """The files a staged spec's references read, as paths relative to the working directory."""
    graph = graph_of(load(f":./{spec}", limits))
    folder = os.path.dirname(spec)
    return frozenset(os.path.normpath(os.path.join(folder, key)) for key in graph.normal.resolver.externals
                     if "://" not in key)
