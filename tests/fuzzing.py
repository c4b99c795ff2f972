"""Mutation fuzzing of real specs: every run must end with exit 0 or 1, or a one-line exit-2 error naming a file.

Structural mutations (delete, duplicate, retype, rename, graft a node from elsewhere, replace with a `$ref`)
work on the parsed document and go back through the loader as text; byte mutations (truncate, flip, insert,
cut, repeat a line) attack the loader itself. Each case runs in-process through the loader, the pipeline and
the text, json and markdown formatters, as the command line does. Case `i` of seed `s` draws from its own
random generator, so one failure replays alone:

    python tests/fuzzing.py --seed 1 --count 10000       # the long run (make fuzz)
    python tests/fuzzing.py --seed 1 --case 4242 -v      # replay one case and print its traceback
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from specdiff.errors import SpecdiffError
from specdiff.load import Document, load_text
from specdiff.load.parse import decode
from specdiff.pipeline import run
from specdiff.records import Level
from specdiff.report import RenderOptions, render

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
#: small real specs of every dialect, so a CI-sized run is fast; the long run may add more with --corpus
SEEDS = (
    "openapi/twilio-numbers-v1/twilio_numbers_v1-1.56.1.json",  # OpenAPI 3.0, JSON
    "kubernetes/live-with-enums/v2_apiextensions.k8s.io.v1.v1.24.0.json",  # Swagger 2.0 with enums
    "kubernetes/live-with-enums/v3_apiextensions.k8s.io.v1.v1.24.0.json",  # Kubernetes OpenAPI 3.0
    "crds/cert-manager/certificates.v1.12.0.yaml",  # a CustomResourceDefinition, YAML
)
PROJECT_SEEDS = ("corpora/demo/frobber-v6.yaml",)  # OpenAPI 3.0, YAML; bundled with the project
FORMATS = ("text", "json", "markdown")
CASE_TIMEOUT = 60.0  # seconds: a hang guard, far above what any case takes

Path_ = tuple[Any, ...]


@dataclass(frozen=True)
class Seed:
    name: str
    raw: bytes
    data: Any
    format: str  # json | yaml
    nodes: tuple[Path_, ...]  # every node's path, the root excluded
    containers: tuple[Path_, ...]  # the paths of mappings and lists: most of the structure, few of the nodes
    document: Document


@dataclass(frozen=True)
class Outcome:
    case: int
    mutation: str
    code: int | str  # 0, 1, 2, or "crash" / "hang"
    detail: str = ""


def seed_paths(extra: tuple[str, ...] = ()) -> list[Path]:
    """The seed files that exist here: project seeds always, corpus seeds when ../shared/corpora is there."""
    paths = [ROOT / p for p in PROJECT_SEEDS]
    paths += [CORPORA / p for p in SEEDS + extra if (CORPORA / p).exists()]
    return paths


def read_seed(path: Path) -> Seed:
    raw = path.read_bytes()
    document = load_text(decode(raw, path.name), path.name, None)
    data = document.data
    nodes = tuple(_walk(data, ()))
    containers = tuple(p for p in nodes if isinstance(_at(data, p), dict | list))
    return Seed(path.name, raw, data, document.format, nodes, containers, document)


def _walk(node: Any, path: Path_) -> Iterator[Path_]:
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        yield path + (key,)
        yield from _walk(child, path + (key,))


# -- structural mutations ---------------------------------------------------------------------------------------
KEYS = ("$ref", "type", "properties", "items", "enum", "required", "allOf", "oneOf", "anyOf", "additionalProperties",
        "parameters", "responses", "requestBody", "content", "schema", "in", "name", "get", "post", "200", "default",
        "definitions", "components", "schemas", "paths", "x-kubernetes-list-type", "format", "nullable", "")
VALUES: tuple[Any, ...] = (None, True, False, 0, -1, 3.5, "", "x", "string", [], {}, ["x"], {"x": 1},
                           {"$ref": "#/"}, {"$ref": "#/nowhere"}, {"$ref": "other.yaml"}, {"$ref": 7},
                           {"type": "object"}, {"type": ["string", "null"]}, {"enum": [1, "a", None]})


def _pointer(path: Path_) -> str:
    return "#" + "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in path)


def _at(root: Any, path: Path_) -> Any:
    for key in path:
        root = root[key]
    return root


def _edit(root: Any, path: Path_, change: Callable[[Any, Any], None]) -> Any:
    """A copy of `root` in which `change(parent, key)` was applied at `path`; only the spine is copied."""
    top = copy.copy(root)
    parent = top
    for key in path[:-1]:
        child = copy.copy(parent[key])
        parent[key] = child
        parent = child
    change(parent, path[-1])
    return top


def _delete(parent: Any, key: Any) -> None:
    del parent[key]


def mutate_data(seed: Seed, rng: random.Random) -> tuple[Any, str]:
    data, done = seed.data, []
    for _ in range(rng.randint(1, 4)):
        path = rng.choice(seed.containers if seed.containers and rng.random() < 0.5 else seed.nodes)
        try:
            _at(data, path)
            if not path or not isinstance(_at(data, path[:-1]), dict | list):
                continue  # the root, or a character of a string that an earlier mutation put here
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed or retyped this node
        kind = rng.choice(("delete", "duplicate", "retype", "rename", "graft", "ref"))
        value: Any
        if kind == "delete":
            data = _edit(data, path, _delete)
        elif kind == "duplicate":
            node = _at(data, path)
            data = _edit(data, path, lambda p, k, node=node: p.insert(k, node) if isinstance(p, list)
                         else p.__setitem__(f"{k}-copy", node))
        elif kind == "retype":
            value = rng.choice(VALUES)
            data = _edit(data, path, lambda p, k, value=value: p.__setitem__(k, copy.deepcopy(value)))
        elif kind == "rename":
            new_key = rng.choice(KEYS + (f"{path[-1]}x", str(path[-1]).upper()))
            data = _edit(data, path, lambda p, k, new_key=new_key: p.__setitem__(new_key, p.pop(k))
                         if isinstance(p, dict) else p.__setitem__(k, new_key))
        elif kind == "graft":
            other = rng.choice(seed.nodes)
            value = _at(seed.data, other)
            data = _edit(data, path, lambda p, k, value=value: p.__setitem__(k, value))
        else:
            value = {"$ref": _pointer(rng.choice(seed.nodes + ((),)))}
            data = _edit(data, path, lambda p, k, value=value: p.__setitem__(k, value))
        done.append(f"{kind} {_pointer(path)}")
    return data, "; ".join(done) or "none"


def dump(data: Any, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(data, default=str)
    return yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True)  # type: ignore[no-any-return]


# -- byte mutations ---------------------------------------------------------------------------------------------
TOKENS = (b"{", b"}", b"[", b"]", b'"', b"'", b"\x00", b"\xff", b"\xc3", b"&a ", b"*a", b"*b ", b"\t", b": ", b"- ",
          b"\n", b"? ", b"---\n", b"%YAML 1.1\n", b"<<: *a\n", b"\xef\xbb\xbf", b"!!python/object:os.system ",
          b"!!binary ", b"!custom ", b"9" * 5000, b"[" * 2000, b"\\u0000", b"\\ud800", b'"$ref": "#/"', b"$ref: '#/'\n")


def mutate_bytes(raw: bytes, rng: random.Random) -> tuple[bytes, str]:
    kind = rng.choice(("truncate", "flip", "insert", "cut", "repeat-line"))
    at = rng.randrange(len(raw) + 1)
    if kind == "truncate":
        return raw[:at], f"truncate at {at}"
    if kind == "flip":
        data = bytearray(raw)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data), "flip bytes"
    if kind == "insert":
        token = rng.choice(TOKENS)
        return raw[:at] + token + raw[at:], f"insert {token[:20]!r} at {at}"
    if kind == "cut":
        end = min(len(raw), at + rng.randint(1, 400))
        return raw[:at] + raw[end:], f"cut {at}:{end}"
    start = raw.rfind(b"\n", 0, at) + 1
    end = raw.find(b"\n", at)
    end = len(raw) if end == -1 else end + 1
    return raw[:end] + raw[start:end] + raw[end:], f"repeat line at {start}"


# -- running ----------------------------------------------------------------------------------------------------
class _Hang(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang


def compare_documents(old: Document, new: Document) -> int:
    """What the command line does after loading: run the pipeline, render every format, pick the exit code."""
    report = run(old, new, "auto")
    for name in FORMATS:
        render(report, name, RenderOptions(old_doc=old, new_doc=new))
    return 1 if any(f.level is Level.BREAKING for f in report.findings) else 0


def run_case(seeds: list[Seed], seed: int, case: int) -> Outcome:
    rng = random.Random(f"{seed}:{case}")
    chosen = rng.choice(seeds)
    mutation = ""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, CASE_TIMEOUT)
    try:
        if rng.random() < 0.7:
            data, mutation = mutate_data(chosen, rng)
            text = dump(data, chosen.format)
        else:
            raw, mutation = mutate_bytes(chosen.raw, rng)
            text = decode(raw, f"mutated-{chosen.name}")
        mutation = f"{chosen.name}: {mutation}"
        mutated = load_text(text, f"mutated-{chosen.name}", None)
        old, new = (chosen.document, mutated) if rng.random() < 0.5 else (mutated, chosen.document)
        return Outcome(case, mutation, compare_documents(old, new))
    except SpecdiffError as err:
        line = err.one_line()
        if "\n" in line or not err.file:
            return Outcome(case, mutation, "crash", f"exit-2 error without a file or on several lines: {line!r}")
        return Outcome(case, mutation, 2, line)
    except _Hang:
        return Outcome(case, mutation, "hang", f"no result within {CASE_TIMEOUT:g} s")
    except Exception:  # noqa: BLE001 - any other exception is what the fuzzer looks for
        return Outcome(case, mutation, "crash", traceback.format_exc())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def fuzz(seeds: list[Seed], seed: int, count: int, first: int = 0) -> list[Outcome]:
    return [run_case(seeds, seed, case) for case in range(first, first + count)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--case", type=int, default=None, help="replay this one case")
    parser.add_argument("--corpus", action="append", default=[], help="another seed file under ../shared/corpora")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every crash's traceback")
    args = parser.parse_args(argv)
    seeds = [read_seed(p) for p in seed_paths(tuple(args.corpus))]
    first, count = (args.case, 1) if args.case is not None else (0, args.count)
    started = time.perf_counter()
    outcomes = []
    for case in range(first, first + count):
        outcomes.append(run_case(seeds, args.seed, case))
        if args.case is None and (case + 1) % 1000 == 0:
            print(f"  {case + 1} mutations, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    codes = Counter(str(o.code) for o in outcomes)
    bad = [o for o in outcomes if o.code in ("crash", "hang")]
    print(f"seeds: {', '.join(s.name for s in seeds)}")
    print(f"mutations run: {len(outcomes)} (seed {args.seed}) in {time.perf_counter() - started:.0f} s")
    print("outcomes: " + ", ".join(f"{code}: {codes[code]}" for code in ("0", "1", "2", "crash", "hang")))
    for outcome in bad:
        print(f"{outcome.code}: case {outcome.case} ({outcome.mutation}); replay: python tests/fuzzing.py "
              f"--seed {args.seed} --case {outcome.case} -v")
        print(outcome.detail if args.verbose else outcome.detail.strip().splitlines()[-1])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
