"""Mutation fuzzing of real specs: every run must end with exit 0 or 1, or a one-line exit-2 error naming a file,
and every report format must be valid of its kind.

Each case mutates one side or both. Structural mutations (delete, duplicate, retype, rename, graft a node from
elsewhere, replace with a `$ref`, give a keyword a value of a type it never takes, put a huge number where a
number is, or write a hostile shape: servers whose variables double the URL, hundreds of servers, a long
reversed variable enum, hundreds of security alternatives, a long, reordered or deep extension value, a union of
hundreds of branches or an `allOf` that fans out to itself) work on the parsed document; a case may also run
with an `operations:` selection of path patterns that backtrack, that RE2 refuses, or that are drawn from the
pieces of a regular expression; a spec may then be split into several files
joined by file `$ref`s (with refs that dangle, leave the folder or meet a symlink loop), and written out as
JSON or YAML; byte mutations (truncate, flip, insert, cut, repeat a line) then attack the loader, with YAML's
own tricks: tags, anchors and merge keys, huge integers in every base, NaN and infinities, BOMs and control
characters. Each case runs in-process through the loader, the pipeline and every formatter, as the command
line does, and checks what each formatter wrote: strict JSON (no NaN), YAML, well-formed XML for junit, no raw
control characters in text, github and html. Case `i` of seed `s` draws from its own random generator, so one
failure replays alone:

    python tests/fuzzing.py --seed 1 --count 20000       # the long run (make fuzz)
    python tests/fuzzing.py --seed 1 --case 4242 -v      # replay one case and print its traceback
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import yaml

from specdiff.config import Config, config_from_mapping
from specdiff.errors import SpecdiffError
from specdiff.load import Document, load, load_text
from specdiff.load.parse import decode
from specdiff.pipeline import graphed, run
from specdiff.records import Level
from specdiff.report import FORMATS, RenderOptions, render
from specdiff.trace import locate

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
    code: int | str  # 0, 1, 2, or "crash" / "hang" / "invalid" (a report that is not what its format promises)
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
        "definitions", "components", "schemas", "paths", "x-kubernetes-list-type", "format", "nullable", "style",
        "collectionFormat", "maximum", "minimum", "multipleOf", "maxLength", "x-kubernetes-validations", "versions",
        "served", "storage", "shortNames", "",
        # names that try to break out of Markdown: a backtick at the end, and a link, a mention and a fence that a
        # line wrapped at 200 characters would put at a line's start
        "a`", "b [x](http://evil.example/x) @everyone ~~~" + "q" * 150, "v2`[gv](http://evil.example) @everyone`\x7f")
VALUES: tuple[Any, ...] = (None, True, False, 0, -1, 3.5, "", "x", "string", [], {}, ["x"], {"x": 1}, [1], ["csv"],
                           {"$ref": "#/"}, {"$ref": "#/nowhere"}, {"$ref": "other.yaml"}, {"$ref": 7},
                           {"$ref": "#/x/²"}, {"$ref": "#/x/01"}, {"$ref": "a\x00b.yaml"},
                           {"type": "object"}, {"type": ["string", "null"]}, {"enum": [1, "a", None]},
                           float("nan"), float("inf"), float("-inf"), 2**70, -(2**64), 1e308, 5e-324,
                           "\x1b]52;c;aGk=\x07", "\x1b[31mred\x1b[0m", "\u202egnp.exe", "a\x85b\x9bc", "::error::x",
                           "<script>x</script>", "]]>&amp;", "%0A::warning::x", "$x$", "GH-42")


#: keywords given a value of a type they never take (on one side, so the differ meets both types at one place)
WRONG_TYPES: dict[str, tuple[Any, ...]] = {
    "type": (5, ["string", 7], {"a": 1}, None), "enum": ("x", {"a": 1}, 7),
    "required": ({"a": 1}, "a", [{"a": 1}], [7]),
    "properties": ([], "x", 7, {"a": 7}), "items": ("x", 7, [[]]), "minimum": ("5", [], True), "maximum": ("5", {}),
    "maxLength": ("5", -1, 2.5), "minLength": ({}, None), "pattern": (7, [], {"a": 1}), "format": (7, []),
    "allOf": ({}, "x", [7]), "oneOf": ({}, [None]), "anyOf": ("x",), "additionalProperties": ("x", 7, []),
    "nullable": ("yes", 1), "default": (), "x-kubernetes-list-type": (7, ["map"]),
    "x-kubernetes-list-map-keys": ("a", 7),
    "x-kubernetes-validations": ({"rule": "x"}, "self > 0", [{"rule": 7}], [7]), "parameters": ({}, "x", [7]),
    "responses": ([], "x"), "requestBody": ([], 7), "content": ([], "x"), "schema": ([], "x"), "in": (7, []),
    "name": (7, None, []), "served": ("true", 1), "storage": ("yes",), "versions": ({}, "v1", [7]),
    "x-kubernetes-api-lifecycle": ("x", [1], {"minVersion": 10**4000}), "multipleOf": ("2", 0, -1),
}
#: numbers past what any platform holds natively, but within what the loader accepts (4,300 digits)
HUGE: tuple[Any, ...] = (10**4000, -(10**4000), 10**4299, 2**1023 * 3, 1e308, -1e308, 5e-324, 2**63, -(2**63) - 1)




# -- hostile shapes: what made pairing, substitution or the residue grow past linear ---------------------------
def _servers(rng: random.Random) -> Any:
    """Servers whose variables default to the next one twice, hundreds of servers, or a long reversed enum."""
    shape = rng.choice(("doubling", "many", "enum"))
    if shape == "doubling":
        names = [f"v{i:02d}" for i in range(rng.randint(2, 40))]
        variables = {name: {"default": "{" + names[i + 1] + "}{" + names[i + 1] + "}" if i + 1 < len(names)
                            else rng.choice(("a", "", "{v00}"))} for i, name in enumerate(names)}
        return [{"url": rng.choice(("https://h/{v00}", "{v00}", "//{v00}/x")), "variables": variables}]
    if shape == "many":
        tag = rng.choice("ab")
        return [{"url": f"https://h{i}.{tag}.example.com/{rng.choice(('v1', 'v2', ''))}"}
                for i in range(rng.randint(1, 400))]
    values = [str(i) for i in reversed(range(rng.randint(1, 3000)))]
    return [{"url": "https://{r}.example.com", "variables": {"r": {"default": rng.choice(values + ["none"]),
                                                                     "enum": values[rng.randint(0, 5):]}}}]


def _security(rng: random.Random) -> Any:
    """Hundreds of alternatives over a few schemes or many, some anonymous, some with scopes."""
    schemes = [f"s{i}" for i in range(rng.choice((3, 50, 600)))]
    return [{name: rng.sample(["read", "write", "admin"], rng.randint(0, 2))
             for name in rng.sample(schemes, rng.randint(0, min(3, len(schemes))))}
            for _ in range(rng.randint(1, 600))]


def _residue(rng: random.Random) -> Any:
    """An unmodelled value that is long, reordered or deep."""
    shape = rng.choice(("long", "deep", "records"))
    if shape == "long":
        values = list(range(rng.randint(1, 30_000)))
        return values[::-1] if rng.random() < 0.5 else values
    if shape == "deep":
        value: Any = rng.randint(0, 2)
        for _ in range(rng.randint(1, 200)):
            value = {"a": value} if rng.random() < 0.8 else [value]
        return value
    return [{"id": i, "v": rng.randint(0, 3)} for i in range(rng.randint(1, 3000))]


def _union(rng: random.Random) -> Any:
    """A `oneOf` or `anyOf` of hundreds of branches, or an `allOf` that fans out to itself."""
    if rng.random() < 0.3:
        return {"allOf": [{"$ref": "#/components/schemas/FuzzUnion"}] * rng.randint(2, 6)}
    keyword = rng.choice(("oneOf", "anyOf"))
    return {keyword: [rng.choice(({"type": "string", "enum": [f"v{rng.randint(0, 2000)}"]},
                                  {"type": "object", "required": [f"p{i}"], "properties": {f"p{i}": {"const": i}}},
                                  {"type": "integer", "maximum": i}, {"$ref": "#/components/schemas/FuzzUnion"}))
                      for i in range(rng.randint(1, 1500))]}


#: (operator, where it writes, what it writes there)
HOSTILE: tuple[tuple[str, Path_, Callable[[random.Random], Any]], ...] = (
    ("servers", ("servers",), _servers), ("security", ("security",), _security),
    ("residue", ("x-fuzz",), _residue), ("union", ("components", "schemas", "FuzzUnion"), _union))


def _hostile(data: Any, rng: random.Random) -> tuple[Any, str]:
    """One hostile shape written into the document (a spec that is a mapping)."""
    name, path, make = rng.choice(HOSTILE)
    if not isinstance(data, dict):
        return data, ""
    data = copy.copy(data)
    parent = data
    for key in path[:-1]:
        child = parent.get(key)
        parent[key] = child = copy.copy(child) if isinstance(child, dict) else {}
        parent = child
    parent[path[-1]] = make(rng)
    return data, f"{name} {_pointer(path)}"


#: path patterns an `operations:` selection may hold: what backtracks exponentially, what RE2 refuses, globs
PATTERNS = ("(a|a)*b", "(a?){28}a{28}", "\\w*" * 30 + "!", "(x+x+)+y", "re:a{4294967296}", "re:(a){1001}",
            "re:/(a)\\1", "re:(?=x)", "[", "glob:/**/*", "/api/*/x", "^/v1/", "re:.*", "re:\\", "re:\\p{Greek}+")


def _pattern(rng: random.Random) -> str:
    """A listed pattern, or one drawn from their pieces."""
    if rng.random() < 0.5:
        return rng.choice(PATTERNS)
    pieces = ("(", ")", "*", "+", "?", "{28}", "|", "a", "\\w", ".", "[a-z]", "^", "$", "/", "(?:", "{2,}")
    return "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))


def _keyword_nodes(seed: Seed) -> tuple[Path_, ...]:
    found = _KEYWORD_NODES.get(seed.name)
    if found is None:
        found = _KEYWORD_NODES[seed.name] = tuple(p for p in seed.nodes if p and p[-1] in WRONG_TYPES)
    return found


_KEYWORD_NODES: dict[str, tuple[Path_, ...]] = {}


def _number_nodes(seed: Seed) -> tuple[Path_, ...]:
    found = _NUMBER_NODES.get(seed.name)
    if found is None:
        found = _NUMBER_NODES[seed.name] = tuple(
            p for p in seed.nodes if type(_at(seed.data, p)) in (int, float)) or seed.nodes
    return found


_NUMBER_NODES: dict[str, tuple[Path_, ...]] = {}


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
        kind = rng.choice(("delete", "duplicate", "retype", "rename", "graft", "ref", "wrong-type", "huge",
                           "hostile"))
        value: Any
        if kind == "hostile":
            data, what = _hostile(data, rng)
            if what:
                done.append(f"hostile {what}")
            continue
        if kind == "wrong-type" and _keyword_nodes(seed):
            path = rng.choice(_keyword_nodes(seed))
        elif kind == "huge":
            path = rng.choice(_number_nodes(seed))
        if kind in ("wrong-type", "huge"):
            try:
                _at(data, path)
            except (KeyError, IndexError, TypeError):
                continue  # an earlier mutation removed or retyped this node
            choices = (WRONG_TYPES.get(path[-1]) or VALUES) if kind == "wrong-type" else HUGE
            value = rng.choice(choices or VALUES)
            data = _edit(data, path, lambda p, k, value=value: p.__setitem__(k, copy.deepcopy(value)))
            done.append(f"{kind} {_pointer(path)}")
            continue
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


#: refs a split spec may hold besides those to its parts: a dangling one, one into nothing in a part, one out of
#: the folder, one through a symlink loop, one that is a folder
ODD_FILE_REFS = ("missing.yaml", "part0.{ext}#/nowhere", "../outside.yaml", "loop.yaml", "sub", "part0.{ext}#/0/²",
                 "./part0.{ext}", "sub/../part0.{ext}")


def split(data: Any, rng: random.Random, ext: str) -> tuple[Any, dict[str, Any], str]:
    """Move a few mappings of `data` into files of their own, each replaced by a file `$ref` to it."""
    paths = [p for p in _walk(data, ()) if isinstance(_at(data, p), dict)]
    parts: dict[str, Any] = {}
    done = []
    for path in rng.sample(paths, min(len(paths), rng.randint(1, 3))):
        try:
            node = _at(data, path)
        except (KeyError, IndexError, TypeError):
            continue  # inside a part moved out already
        name = f"part{len(parts)}.{ext}"
        ref = rng.choice(ODD_FILE_REFS).format(ext=ext) if rng.random() < 0.15 else name
        parts[name] = node
        data = _edit(data, path, lambda p, k, ref=ref: p.__setitem__(k, {"$ref": ref}))
        done.append(f"{_pointer(path)} -> {ref}")
    return data, parts, "split " + ", ".join(done)


# -- byte mutations ---------------------------------------------------------------------------------------------
TOKENS = (b"{", b"}", b"[", b"]", b'"', b"'", b"\x00", b"\xff", b"\xc3", b"&a ", b"*a", b"*b ", b"\t", b": ", b"- ",
          b"\n", b"? ", b"---\n", b"%YAML 1.1\n", b"<<: *a\n", b"\xef\xbb\xbf", b"!!python/object:os.system ",
          b"!!binary ", b"!custom ", b"9" * 5000, b"[" * 2000, b"\\u0000", b"\\ud800", b'"$ref": "#/"', b"$ref: '#/'\n")
#: YAML's own tricks, written where a value starts
YAML_TOKENS = (b"!!str ", b"!!int ", b"!!float ", b"!!bool ", b"!!null ", b"!!map ", b"!!seq ", b"!!timestamp ",
               b"!!set ", b"!!omap ", b"!!merge ", b"&a ", b"*a ", b"&b [*b] ", b"&m {<<: *m} ", b"{<<: *a} ",
               b".nan ", b".inf ", b"-.inf ", b"1.0e+400 ", b"NaN ", b"-Infinity ", b"0x" + b"f" * 4000 + b" ",
               b"0" + b"7" * 5000 + b" ", b"1" + b":59" * 3000 + b" ", b"9" * 4301 + b" ", b"0b" + b"1" * 15000 + b" ",
               b"\xef\xbb\xbf", b"\x1b]52;c;aGk=\x07", b"\xc2\x85", b"\xe2\x80\xae", b"\x07", b"\x1b[2J", b"\r",
               b"\"\\x1b\\u202e\\0\" ", b"? [a]\n", b"!!str [a] ", b"!!str {a: 1} ", b"2001-12-14t21:59:43.10-05:00 ")


def mutate_bytes(raw: bytes, rng: random.Random) -> tuple[bytes, str]:
    kind = rng.choice(("truncate", "flip", "insert", "insert", "cut", "repeat-line"))
    at = rng.randrange(len(raw) + 1)
    if kind == "truncate":
        return raw[:at], f"truncate at {at}"
    if kind == "flip":
        data = bytearray(raw)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data), "flip bytes"
    if kind == "insert":
        token = rng.choice(TOKENS + YAML_TOKENS)
        value = raw.find(b": ", at)  # YAML's tricks mostly matter where a value starts
        if rng.random() < 0.6 and value != -1:
            at = value + 2
        return raw[:at] + token + raw[at:], f"insert {token[:20]!r} at {at}"
    if kind == "cut":
        end = min(len(raw), at + rng.randint(1, 400))
        return raw[:at] + raw[end:], f"cut {at}:{end}"
    start = raw.rfind(b"\n", 0, at) + 1
    end = raw.find(b"\n", at)
    end = len(raw) if end == -1 else end + 1
    return raw[:end] + raw[start:end] + raw[end:], f"repeat line at {start}"


# -- what each format promises ----------------------------------------------------------------------------------
#: raw C0 (but tab and newline), DEL, C1 and bidi controls: a terminal or a CI log must never receive them
_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: every format but YAML, whose dumper writes what YAML allows and reads back the same
CONTROL_FREE = tuple(name for name in FORMATS if name != "yaml")
MARKDOWN = ("markdown", "job-summary", "release-notes")
#: what GitHub's renderer must never make of a spec's text: a link, an image, a block of code, a script; and,
#: outside code, a mention or a URL it would link
_LIVE_HTML = re.compile(r"<(?:a|img|pre|script)\b")
_LIVE_TEXT = re.compile(r"@\w|https?:|www\.")


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def check_output(fmt: str, text: str) -> str | None:
    """Why `text` is not what format `fmt` promises, or None."""
    try:
        if fmt in ("json", "jsonpatch", "sarif"):
            json.loads(text, parse_constant=_no_constants)
        elif fmt == "yaml":
            yaml.load(text, Loader=yaml.CSafeLoader)
        elif fmt == "junit":
            ElementTree.fromstring(text.encode("utf-8"))
    except (ValueError, yaml.YAMLError, ElementTree.ParseError) as err:
        return f"{fmt} output is not valid: {' '.join(str(err).split())[:200]}"
    if fmt in CONTROL_FREE:
        found = _RAW_CONTROL.search(text)
        if found:
            return f"{fmt} output holds the raw control character {found.group()!r}"
    if fmt in MARKDOWN:
        import cmarkgfm

        html = cmarkgfm.github_flavored_markdown_to_html(text)
        found = _LIVE_HTML.search(html) or _LIVE_TEXT.search(re.sub(r"<code>.*?</code>", "", html, flags=re.S))
        if found:
            return f"{fmt} output renders live: {found.group()!r}"
    return None


#: named schemas whose THING (`Name`, `Name.field`, `Name.x[].y{}`) a case looks up as `--trace` does
TRACED = 40


def trace_documents(*documents: Document) -> None:
    """`history --trace` looks a THING up in each version's graph, through `$ref`s, `allOf` and `properties`
    that the mutations may have given any type."""
    for document in documents:
        graph = graphed(document).graph
        for name in list(graph.schemas)[:TRACED]:
            properties = graph.schemas[name].schema.get("properties") if isinstance(
                graph.schemas[name].schema, dict) else None
            first = next(iter(properties), "x") if isinstance(properties, dict) else "x"
            for thing in (name, f"{name}.{first}", f"{name}.x[].y{{}}"):
                locate(graph, thing)


# -- running ----------------------------------------------------------------------------------------------------
class _Hang(BaseException):
    pass


class _Invalid(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang


def compare_documents(old: Document, new: Document, config: Config | None = None) -> int:
    """What the command line does after loading: run the pipeline, render every format and check it, pick the
    exit code."""
    trace_documents(old, new)
    report = run(old, new, "auto", config)
    for name in FORMATS:
        why = check_output(name, render(report, name, RenderOptions(old_doc=old, new_doc=new)))
        if why:
            raise _Invalid(why)
    return 1 if any(f.level is Level.BREAKING for f in report.findings) else 0


def _side(seed: Seed, rng: random.Random, folder: Path, label: str) -> tuple[Document, str]:
    """A mutation of the seed, written to `folder`/`label` (split into several files, sometimes) and loaded."""
    done = []
    data: Any = seed.data
    if rng.random() < 0.7:
        data, mutation = mutate_data(seed, rng)
        done.append(mutation)
    bytewise = rng.random() < 0.4 or not done
    # the byte tricks are YAML's: a side mutated bytewise is written as YAML three times in four
    fmt = "yaml" if bytewise and rng.random() < 0.75 else seed.format if rng.random() < 0.7 else "json"
    ext = "yaml" if fmt == "yaml" else "json"
    files: dict[str, bytes] = {}
    if rng.random() < 0.25:
        data, parts, mutation = split(data, rng, ext)
        done.append(mutation)
        files.update({name: dump(part, fmt).encode() for name, part in parts.items()})
    main_name = f"{seed.name.rsplit('.', 1)[0]}.{ext}"
    files[main_name] = dump(data, fmt).encode()
    if bytewise:
        target = rng.choice(sorted(files))
        files[target], mutation = mutate_bytes(files[target], rng)
        done.append(f"{target}: {mutation}")
    side = folder / label
    side.mkdir()
    for name, content in files.items():
        (side / name).write_bytes(content)
    (side / "loop.yaml").symlink_to("loop.yaml")
    (side / "sub").mkdir()
    return load(os.path.relpath(side / main_name)), f"{label}: " + "; ".join(done)


def run_case(seeds: list[Seed], seed: int, case: int) -> Outcome:
    """Both sides mutated, or one of them against the pristine seed."""
    rng = random.Random(f"{seed}:{case}")
    chosen = rng.choice(seeds)
    mutation = f"{chosen.name}:"
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, CASE_TIMEOUT)
    here = os.getcwd()
    try:
        with tempfile.TemporaryDirectory(prefix="specdiff-fuzz-") as temporary:
            os.chdir(temporary)  # errors then name files as the command line would: relative to where it runs
            Path("outside.yaml").write_text("type: string\n")
            pristine = rng.choice((None, "old", "new"))
            documents = []
            for label in ("old", "new"):
                if label == pristine:
                    documents.append(chosen.document)
                    continue
                document, done = _side(chosen, rng, Path(temporary), label)
                mutation += f" {done};"
                documents.append(document)
            config = None
            if rng.random() < 0.1:  # a selection of operations by path pattern, as `operations:` writes it
                chosen_patterns = [_pattern(rng) for _ in range(rng.randint(1, 3))]
                mutation += f" operations: exclude-path {chosen_patterns!r};"
                config = config_from_mapping({"operations": {"exclude-path": chosen_patterns}})
            return Outcome(case, mutation, compare_documents(documents[0], documents[1], config))
    except SpecdiffError as err:
        line = err.one_line()
        if "\n" in line or not err.file:
            return Outcome(case, mutation, "crash", f"exit-2 error without a file or on several lines: {line!r}")
        return Outcome(case, mutation, 2, line)
    except _Invalid as err:
        return Outcome(case, mutation, "invalid", str(err))
    except _Hang:
        return Outcome(case, mutation, "hang", f"no result within {CASE_TIMEOUT:g} s")
    except Exception:  # noqa: BLE001 - any other exception is what the fuzzer looks for
        return Outcome(case, mutation, "crash", traceback.format_exc())
    finally:
        os.chdir(here)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def fuzz(seeds: list[Seed], seed: int, count: int, first: int = 0) -> list[Outcome]:
    return [run_case(seeds, seed, case) for case in range(first, first + count)]


BAD = ("crash", "hang", "invalid")


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
            print(f"  {case + 1} cases, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    codes = Counter(str(o.code) for o in outcomes)
    bad = [o for o in outcomes if o.code in BAD]
    print(f"seeds: {', '.join(s.name for s in seeds)}")
    print(f"cases run: {len(outcomes)} (seed {args.seed}) in {time.perf_counter() - started:.0f} s")
    print("outcomes: " + ", ".join(f"{code}: {codes[code]}" for code in ("0", "1", "2") + BAD))
    for outcome in bad:
        print(f"{outcome.code}: case {outcome.case} ({outcome.mutation}); replay: python tests/fuzzing.py "
              f"--seed {args.seed} --case {outcome.case} -v")
        print(outcome.detail if args.verbose else outcome.detail.strip().splitlines()[-1])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
