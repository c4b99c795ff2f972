"""Bad input on the real command line: exit code 2, exactly one line on stderr naming the file and the place,
never a traceback; a few inputs that look bad but are fine are accepted.

Most cases run through click's CliRunner; the ones that could crash the interpreter itself (deep YAML, alias
and merge bombs, object-constructing tags) and a sample of the others run as real subprocesses.
"""

from __future__ import annotations

import http.server
import json
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import specdiff.load
from specdiff.cli import main
from specdiff.errors import InputError
from specdiff.load import Limits

GOOD = """openapi: 3.0.3
info: {title: Frob, version: "1"}
paths:
  /frobs:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Frobber"}
components:
  schemas:
    Frobber:
      type: object
      properties:
        mode: {type: string, enum: [Fast, Slow]}
"""
HEAD = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\n'
NOT_FINITE = "a number that is not finite (NaN or an infinity), which JSON cannot hold"


def _schemas(body: str) -> str:
    return HEAD + "components:\n  schemas:\n" + body


def _alias_bomb(levels: int) -> str:
    lines = [HEAD + "x-lol:", '  l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"  l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def _merge_bomb(levels: int) -> str:
    lines = [HEAD + "x-merge:", "  m0: &m0 {k: 1}"]
    lines += [f"  m{i}: &m{i} {{<<: [{', '.join([f'*m{i - 1}'] * 9)}]}}" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def _nested_schema(levels: int) -> str:
    doc: dict[str, object] = {"type": "string"}
    for _ in range(levels):
        doc = {"type": "object", "properties": {"p": doc}}
    return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
                       "components": {"schemas": {"Deep": doc}}})


#: name -> (files to write, arguments after OLD NEW=bad file, the exact stderr line)
CASES: dict[str, tuple[dict[str, str | bytes], list[str], str]] = {
    "missing file": ({}, ["missing.yaml"], "missing.yaml: no such file"),
    "empty file": ({"bad.yaml": ""}, ["bad.yaml"], "bad.yaml: empty file"),
    "only comments": ({"bad.yaml": "# nothing here\n\n"}, ["bad.yaml"], "bad.yaml: empty file"),
    "only white space": ({"bad.json": " \n\t\r\n\u3000\n"}, ["bad.json"], "bad.json: empty file"),
    "binary data": ({"bad.yaml": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}, ["bad.yaml"],
                    "bad.yaml: binary data, not a JSON or YAML text"),
    "invalid UTF-8": ({"bad.yaml": b"openapi: 3.0.3\ninfo: {title: caf\xe9}\n"}, ["bad.yaml"],
                      "bad.yaml:2:18: not valid UTF-8 (byte 0xe9)"),
    "malformed JSON": ({"bad.json": '{"openapi": "3.0.3",\n "info": {"title": }\n}'}, ["bad.json"],
                       "bad.json:2:20: malformed JSON: Expecting value"),
    "malformed YAML": ({"bad.yaml": "openapi: 3.0.3\ninfo: [title\npaths: {}\n"}, ["bad.yaml"],
                       "bad.yaml:3:6: malformed YAML: did not find expected ',' or ']'"),
    "lone surrogate escape, JSON": ({"bad.json": '{"openapi": "3.0.3",\n "info": {"title": "a\\ud800"}}'},
                                    ["bad.json"],
                                    "bad.json:2:22: \\ud800 escapes half of a UTF-16 surrogate pair, not a character"),
    "lone surrogate escape after an escaped backslash, JSON": (
        {"bad.json": '{"openapi": "3.0.3",\n "info": {"title": "a\\\\\\ud800"}}'}, ["bad.json"],
        "bad.json:2:24: \\ud800 escapes half of a UTF-16 surrogate pair, not a character"),
    "low surrogate escape alone, JSON": ({"bad.json": '{"openapi": "3.0.3",\n "info": {"title": "\\udc00 a"}}'},
                                         ["bad.json"],
                                         "bad.json:2:21: \\udc00 escapes half of a UTF-16 surrogate pair, not a "
                                         "character"),
    "duplicate key, JSON": ({"bad.json": '{"openapi": "3.0.3",\n "paths": {},\n "paths": {}}'}, ["bad.json"],
                            "bad.json:3:2: duplicate key 'paths'"),
    "duplicate key, YAML": ({"bad.yaml": HEAD + "paths: {}\n"}, ["bad.yaml"], "bad.yaml:4:1: duplicate key 'paths'"),
    "duplicate key, YAML quoted and plain": (
        {"bad.yaml": HEAD.replace("paths: {}", "paths:\n  /a: {get: {responses: {200: {description: a}, "
                                               '"200": {description: b}}}}')},
        ["bad.yaml"], "bad.yaml:4:49: duplicate key '200'"),
    "YAML scalar document": ({"bad.yaml": "just some text\n"}, ["bad.yaml"],
                             "bad.yaml:1:1: the document is a str, not a mapping"),
    "YAML list document": ({"bad.yaml": "- openapi\n- 3.0.3\n"}, ["bad.yaml"],
                           "bad.yaml:1:1: the document is a list, not a mapping (nor a list of "
                           "CustomResourceDefinitions)"),
    "JSON array document": ({"bad.json": "[1, 2]"}, ["bad.json"],
                            "bad.json:1:1: the document is a list, not a mapping (nor a list of "
                            "CustomResourceDefinitions)"),
    "no known dialect": ({"bad.yaml": "title: not a spec\npaths: {}\n"}, ["bad.yaml"],
                         "bad.yaml: not an OpenAPI 2.0/3.x document or a CustomResourceDefinition (no 'swagger', "
                         "'openapi' or 'kind: CustomResourceDefinition')"),
    "wrong swagger version": ({"bad.yaml": 'swagger: "1.2"\npaths: {}\n'}, ["bad.yaml"],
                              "bad.yaml:/swagger: unsupported swagger version '1.2' (only 2.0 is Swagger)"),
    "wrong openapi version": ({"bad.yaml": HEAD.replace("3.0.3", "4.0.0")}, ["bad.yaml"],
                              "bad.yaml:/openapi: unsupported openapi version '4.0.0' "
                              "(3.0, 3.1 and 3.2 are understood)"),
    "dangling $ref": ({"bad.yaml": _schemas("    A:\n      $ref: '#/components/schemas/Nope'\n")}, ["bad.yaml"],
                      "bad.yaml:7:7: $ref '#/components/schemas/Nope' points at nothing"),
    "$ref cycle with no schema": (
        {"bad.yaml": _schemas("    A: {$ref: '#/components/schemas/B'}\n    B: {$ref: '#/components/schemas/A'}\n")},
        ["bad.yaml"], "bad.yaml:6:9: $ref cycle with no schema in it: /components/schemas/B -> "
                      "/components/schemas/A -> /components/schemas/B"),
    "$ref to itself": ({"bad.yaml": _schemas("    A: {$ref: '#/components/schemas/A'}\n")}, ["bad.yaml"],
                       "bad.yaml:6:9: $ref cycle with no schema in it: /components/schemas/A -> "
                       "/components/schemas/A"),
    "$ref through a file and back": (
        {"bad.yaml": _schemas("    A: {$ref: 'other.yaml#/B'}\n"),
         "other.yaml": "B: {$ref: 'bad.yaml#/components/schemas/A'}\n"},
        ["bad.yaml"], "bad.yaml:6:9: $ref cycle with no schema in it: /B -> /components/schemas/A -> /B"),
    "$ref outside the spec's folder": (
        {"api/bad.yaml": _schemas("    A: {$ref: '../secret.yaml'}\n"), "secret.yaml": "type: string\n"},
        ["api/bad.yaml"], "api/bad.yaml:6:9: $ref '../secret.yaml' leaves the spec's folder (refused)"),
    "$ref to an absolute path": ({"bad.yaml": _schemas("    A: {$ref: '/etc/passwd'}\n")}, ["bad.yaml"],
                                 "bad.yaml:6:9: $ref '/etc/passwd' leaves the spec's folder (refused)"),
    "$ref with a file: URL": ({"bad.yaml": _schemas("    A: {$ref: 'file:///etc/passwd'}\n")}, ["bad.yaml"],
                              "bad.yaml:6:9: $ref 'file:///etc/passwd' refused: only http and https addresses can "
                              "be fetched"),
    "remote $ref without --allow-remote-refs": (
        {"bad.yaml": _schemas("    A: {$ref: 'https://example.com/pet.yaml#/Pet'}\n")}, ["bad.yaml"],
        "bad.yaml:6:9: remote $ref 'https://example.com/pet.yaml' refused (remote references are fetched only "
        "with --allow-remote-refs)"),
    "YAML alias bomb": ({"bad.yaml": _alias_bomb(10)}, ["bad.yaml"],
                        "bad.yaml: YAML aliases expand to more than 1000000 nodes (alias budget exceeded, "
                        "--max-aliases)"),
    "small alias bomb under a lowered budget": ({"bad.yaml": _alias_bomb(4)}, ["bad.yaml", "--max-aliases", "1000"],
                                                "bad.yaml: YAML aliases expand to more than 1000 nodes (alias budget "
                                                "exceeded, --max-aliases)"),
    "YAML alias inside itself": ({"bad.yaml": HEAD + "x-loop: &loop [a, *loop]\n"}, ["bad.yaml"],
                                 "bad.yaml: a YAML alias refers to a node that contains it (a structure that contains "
                                 "itself)"),
    "JSON nested too deep": ({"bad.json": '{"openapi": "3.0.3", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"},
                             ["bad.json"], "bad.json: nesting deeper than 256 levels (--max-depth)"),
    "JSON nested past the limit": ({"bad.json": '{"openapi": "3.0.3", "x": ' + "[" * 300 + "]" * 300 + "}"},
                                   ["bad.json"], "bad.json: nesting deeper than 256 levels (--max-depth)"),
    "schema nested past a lowered depth": ({"bad.json": _nested_schema(10)}, ["bad.json", "--max-depth", "20"],
                                           "bad.json: nesting deeper than 20 levels (--max-depth)"),
    "file over --max-bytes": ({"good.yaml": HEAD, "bad.yaml": GOOD}, ["bad.yaml", "--max-bytes", "100"],
                              f"bad.yaml: file is {len(GOOD)} bytes, over the 100-byte limit (--max-bytes)"),
    "$ref'd file over --max-bytes": (
        {"good.yaml": HEAD, "bad.yaml": _schemas("    A: {$ref: 'big.yaml'}\n"),
         "big.yaml": "type: string\n" + "# padding\n" * 20},
        ["bad.yaml", "--max-bytes", "150"],
        "bad.yaml:6:9: $ref 'big.yaml': file is 213 bytes, over the 150-byte limit (--max-bytes)"),
    "$ref to a file that is not there": (
        {"bad.yaml": _schemas("    A:\n      properties:\n        p: {$ref: 'common.yaml#/components/schemas/B'}\n")},
        ["bad.yaml"], "bad.yaml:8:13: $ref 'common.yaml': no such file"),
    "object-constructing YAML tag": (
        {"bad.yaml": HEAD + "x-run: !!python/object/apply:os.system ['touch PWNED']\n"}, ["bad.yaml"],
        "bad.yaml:4:8: YAML tag '!!python/object/apply:os.system' refused: only plain data (no objects, sets or "
        "binary) is read"),
    "object-creating YAML tag": (
        {"bad.yaml": HEAD + "x-new: !!python/object/new:pathlib.Path [PWNED]\n"}, ["bad.yaml"],
        "bad.yaml:4:8: YAML tag '!!python/object/new:pathlib.Path' refused: only plain data (no objects, sets or "
        "binary) is read"),
    "binary YAML tag": ({"bad.yaml": HEAD + "x-data: !!binary aGVsbG8=\n"}, ["bad.yaml"],
                        "bad.yaml:4:9: YAML tag '!!binary' refused: only plain data (no objects, sets or binary) is "
                        "read"),
    "custom YAML tag": ({"bad.yaml": HEAD + "x-thing: !Ref Other\n"}, ["bad.yaml"],
                        "bad.yaml:4:10: YAML tag '!Ref' refused: only plain data (no objects, sets or binary) is read"),
    "explicit tag on a value it cannot read": ({"bad.yaml": HEAD + "x-n: !!int twelve\n"}, ["bad.yaml"],
                                               "bad.yaml:4:6: YAML value refused: 'twelve' is not a valid int"),
    "integer too long, JSON": ({"bad.json": '{"openapi": "3.0.3",\n "x": ' + "9" * 5000 + "}"}, ["bad.json"],
                               "bad.json:2:7: a number with more than 4300 digits"),
    "integer too long, YAML": ({"bad.yaml": HEAD + "x: " + "9" * 5000 + "\n"}, ["bad.yaml"],
                               "bad.yaml:4:4: YAML value refused: a number with more than 4300 digits"),
    "hexadecimal integer too long, YAML": ({"bad.yaml": HEAD + "x: 0x" + "f" * 4000 + "\n"}, ["bad.yaml"],
                                           "bad.yaml:4:4: YAML value refused: a number with more than 4300 digits"),
    "octal integer too long, YAML": ({"bad.yaml": HEAD + "x: 0" + "7" * 5000 + "\n"}, ["bad.yaml"],
                                     "bad.yaml:4:4: YAML value refused: a number with more than 4300 digits"),
    "sexagesimal integer too long, YAML": ({"bad.yaml": HEAD + "x: 1" + ":59" * 3000 + "\n"}, ["bad.yaml"],
                                           "bad.yaml:4:4: YAML value refused: a number with more than 4300 digits"),
    "!!str on a list": ({"bad.yaml": _schemas("    A: {type: string, enum: !!str [a, b]}\n")}, ["bad.yaml"],
                        "bad.yaml:6:29: YAML value refused: the tag '!!str' does not fit a list"),
    "!!str on a mapping": ({"bad.yaml": _schemas("    A: !!str {type: string}\n")}, ["bad.yaml"],
                           "bad.yaml:6:8: YAML value refused: the tag '!!str' does not fit a mapping"),
    "!!map on a plain value": ({"bad.yaml": HEAD + "x: !!map text\n"}, ["bad.yaml"],
                               "bad.yaml:4:4: YAML value refused: the tag '!!map' does not fit a plain value"),
    "NaN in a numeric keyword, YAML": ({"bad.yaml": _schemas("    A: {type: number, maximum: .nan}\n")},
                                       ["bad.yaml"], f"bad.yaml:6:32: YAML value refused: {NOT_FINITE}"),
    "infinity in a numeric keyword, YAML": ({"bad.yaml": _schemas("    A: {type: number, minimum: -.inf}\n")},
                                            ["bad.yaml"], f"bad.yaml:6:32: YAML value refused: {NOT_FINITE}"),
    "a float too large, YAML": ({"bad.yaml": _schemas("    A: {type: number, maximum: 1.0e+400}\n")},
                                ["bad.yaml"], f"bad.yaml:6:32: YAML value refused: {NOT_FINITE}"),
    "-Infinity, JSON": ({"bad.json": '{"openapi": "3.0.3",\n "x": {"minimum": -Infinity}}'}, ["bad.json"],
                        f"bad.json:2:19: {NOT_FINITE}"),
    "NaN, JSON": ({"bad.json": '{"openapi": "3.0.3", "x": "NaN",\n "y": [1, NaN]}'}, ["bad.json"],
                  f"bad.json:2:11: {NOT_FINITE}"),
    "a float too large, JSON": ({"bad.json": '{"openapi": "3.0.3", "x": 1e40,\n "y": 1e400}'}, ["bad.json"],
                                f"bad.json:2:7: {NOT_FINITE}"),
    "$ref with a NUL character": ({"bad.yaml": _schemas('    A: {$ref: "other\\0.yaml"}\n')}, ["bad.yaml"],
                                  "bad.yaml:6:9: $ref 'other\\x00.yaml' holds a NUL character, which no file name "
                                  "can"),
    "$ref index in superscript digits": (
        {"bad.yaml": _schemas("    A: {$ref: '#/components/schemas/B/enum/²'}\n    B: {enum: [a]}\n")}, ["bad.yaml"],
        "bad.yaml:6:9: $ref '#/components/schemas/B/enum/²' points at nothing"),
    "$ref index in Arabic-Indic digits": (
        {"bad.yaml": _schemas("    A: {$ref: '#/components/schemas/B/enum/٠'}\n    B: {enum: [a]}\n")}, ["bad.yaml"],
        "bad.yaml:6:9: $ref '#/components/schemas/B/enum/٠' points at nothing"),
    "$ref index with a leading zero": (
        {"bad.yaml": _schemas("    A: {$ref: '#/components/schemas/B/enum/00'}\n    B: {enum: [a]}\n")},
        ["bad.yaml"], "bad.yaml:6:9: $ref '#/components/schemas/B/enum/00' points at nothing"),
    "$ref index of 5,000 digits": (
        {"bad.yaml": _schemas(f"    A: {{$ref: '#/components/schemas/B/enum/{'9' * 5000}'}}\n    B: {{enum: [a]}}\n")},
        ["bad.yaml"], f"bad.yaml:6:9: $ref '#/components/schemas/B/enum/{'9' * 5000}' points at nothing"),
    "Swagger collectionFormat as a list": (
        {"bad.yaml": 'swagger: "2.0"\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      parameters:\n'
                     "        - {name: q, in: query, type: array, items: {type: string}, collectionFormat: [csv]}\n"
                     '      responses: {"200": {description: ok}}\n'}, ["bad.yaml"],
        "bad.yaml:/paths/~1a/get/parameters/0/collectionFormat: 'collectionFormat' must be a string"),
    "OpenAPI style as a list": (
        {"bad.yaml": HEAD.replace("paths: {}", "paths:\n  /a:\n    get:\n      parameters:\n"
                                               "        - {name: q, in: query, schema: {type: string}, style: [form]}\n"
                                               '      responses: {"200": {description: ok}}')}, ["bad.yaml"],
        "bad.yaml:/paths/~1a/get/parameters/0/style: 'style' must be a string"),
    "a mapping that merges itself": ({"bad.yaml": HEAD + "x-a: &a {<<: *a}\n"}, ["bad.yaml"],
                                     "bad.yaml:4:6: YAML value refused: a recursive alias: a merge key (<<) merges a "
                                     "mapping into itself"),
    "a mapping merged into one it contains": ({"bad.yaml": HEAD + "x-b: &b {<<: {<<: *b}}\n"}, ["bad.yaml"],
                                              "bad.yaml:4:6: YAML value refused: a recursive alias: a merge key (<<) "
                                              "merges a mapping into itself"),
    "mapping as a YAML key": ({"bad.yaml": HEAD + "? {a: 1}\n: b\n"}, ["bad.yaml"],
                              "bad.yaml:4:3: YAML value refused: a mapping key must be a plain value, not a list or a "
                              "mapping"),
    "--config names a directory": ({"adir/x.txt": ""}, ["good.yaml", "--config", "adir"],
                                   "adir: configuration file is not a regular file"),
    "--output names a directory": ({"adir/x.txt": ""}, ["good.yaml", "-o", "adir"],
                                   "adir: cannot write the report: is a directory, not a file"),
}

#: the cases that run as real subprocesses: everything that could crash or hang the interpreter, and one error
#: from each stage (loader, resolver, output)
SUBPROCESS = ["$ref cycle with no schema", "YAML alias bomb", "a mapping that merges itself",
              "JSON nested too deep", "object-constructing YAML tag", "object-creating YAML tag",
              "--output names a directory"]


def _write(folder: Path, files: dict[str, str | bytes]) -> None:
    (folder / "good.yaml").write_text(GOOD)
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


def _cli(folder: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["good.yaml", *args, "--no-config"])
    return result.exit_code, result.stdout, result.stderr


def _subprocess(folder: Path, args: list[str], *extra: str) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "specdiff", "good.yaml", *args, "--no-config", *extra],
                          cwd=folder, capture_output=True, text=True, timeout=120)  # a hang guard, not a timing
    return done.returncode, done.stdout, done.stderr


def _assert_one_line_error(outcome: tuple[int, str, str], expected: str) -> None:
    code, stdout, stderr = outcome
    assert "Traceback" not in stderr
    assert (code, stdout, stderr) == (2, "", f"specdiff: error: {expected}\n")


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_one_line_and_exit_2(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files, args, expected = CASES[case]
    _write(tmp_path, files)
    if case in SUBPROCESS:
        outcome = _subprocess(tmp_path, args)
    else:
        outcome = _cli(tmp_path, args, monkeypatch)
    _assert_one_line_error(outcome, expected)
    assert not (tmp_path / "PWNED").exists()


#: YAML nested past --max-depth, as flow collections and as block mappings, each deep enough to crash a parser
#: that recursed once per level; the place is where the parser stopped, which depends on the YAML library
TOO_DEEP_YAML = {"flow": "openapi: 3.0.3\nx: " + "[" * 100_000 + "]" * 100_000 + "\n",
                 "flow, within libyaml's own limit": "openapi: 3.0.3\nx: " + "[" * 900 + "]" * 900 + "\n",
                 "block": "openapi: 3.0.3\nx:\n" + "".join(" " * i + "a:\n" for i in range(1, 600))}
#: PyYAML as it is when built without libyaml (an sdist on a machine without its headers)
WITHOUT_LIBYAML = ("import sys, yaml; del yaml.CSafeLoader; from specdiff.command import entry; "
                   "sys.argv[0] = 'specdiff'; entry()")


@pytest.mark.parametrize("loader", ["libyaml", "pure Python"])
@pytest.mark.parametrize("shape", list(TOO_DEEP_YAML))
def test_yaml_nested_past_the_limit_is_refused_whatever_the_yaml_library(shape: str, loader: str,
                                                                         tmp_path: Path) -> None:
    """PyYAML 6.0.4's libyaml stops at its own nesting limit, reading ahead; 6.0.3's does not; PyYAML without
    libyaml parses in Python. Each must end in the one-line depth error naming the file and a line:column."""
    _write(tmp_path, {"bad.yaml": TOO_DEEP_YAML[shape]})
    python = [sys.executable, "-m", "specdiff"] if loader == "libyaml" else [sys.executable, "-c", WITHOUT_LIBYAML]
    done = subprocess.run([*python, "good.yaml", "bad.yaml", "--no-config"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)  # a hang guard, not a timing
    assert (done.returncode, done.stdout) == (2, "")
    assert re.fullmatch(r"specdiff: error: bad\.yaml:[0-9]+:[0-9]+: nesting deeper than 256 levels \(--max-depth\)\n",
                        done.stderr), done.stderr


def test_bad_input_on_the_old_side_and_on_stdin(tmp_path: Path) -> None:
    _write(tmp_path, {"bad.yaml": "openapi: [\n"})
    done = subprocess.run([sys.executable, "-m", "specdiff", "bad.yaml", "good.yaml", "--no-config"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (2, "specdiff: error: bad.yaml:2:1: malformed YAML: did not find "
                                                 "expected node content\n")
    done = subprocess.run([sys.executable, "-m", "specdiff", "-", "good.yaml", "--no-config"], cwd=tmp_path,
                          input='{"openapi": ', capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (2, "specdiff: error: <stdin>:2:1: malformed YAML: did not find "
                                                 "expected node content\n")


@pytest.mark.parametrize("spec", ["NEW", "a folder entry"])
def test_a_file_name_that_is_not_utf8_is_one_line(spec: str, tmp_path: Path) -> None:
    """Every report prints the name, and none can encode the bytes Python keeps as surrogate escapes."""
    (tmp_path / "good.yaml").write_text(GOOD)
    if spec == "NEW":
        os.link(tmp_path / "good.yaml", os.fsencode(tmp_path) + b"/\xff.yaml")
        args, shown = [b"\xff.yaml"], "\\udcff.yaml"
    else:
        for folder in (b"old", b"new"):
            (tmp_path / folder.decode()).mkdir()
            os.link(tmp_path / "good.yaml", os.fsencode(tmp_path) + b"/" + folder + b"/apis__a__v1_openapi.yaml")
        os.link(tmp_path / "good.yaml", os.fsencode(tmp_path) + b"/new/apis__b\xff__v1_openapi.yaml")
        args, shown = [b"old", b"new"], "new/apis__b\\udcff__v1_openapi.yaml"
    for fmt in ("json", "markdown"):
        command = [sys.executable.encode(), b"-m", b"specdiff", *([b"good.yaml"] if spec == "NEW" else []), *args,
                   b"--no-config", b"--format", fmt.encode()]
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, timeout=120)  # a hang guard
        assert (done.returncode, done.stdout, done.stderr.decode()) == (
            2, b"", f"specdiff: error: {shown}: the file name is not UTF-8, so no report could name it; rename "
                    "the file\n")


@pytest.mark.parametrize("where", ["OLD", "$ref"])
def test_a_fifo_is_refused_before_it_is_opened(where: str, tmp_path: Path) -> None:
    """A plain open of a FIFO waits for a writer for ever."""
    os.mkfifo(tmp_path / "pipe.yaml")
    if where == "OLD":
        args, expected = ["pipe.yaml", "good.yaml"], "pipe.yaml: is a FIFO, not a file"
    else:
        _write(tmp_path, {"bad.yaml": _schemas("    A: {$ref: 'pipe.yaml'}\n")})
        args, expected = ["good.yaml", "bad.yaml"], "bad.yaml:6:9: $ref 'pipe.yaml': is a FIFO, not a file"
    done = subprocess.run([sys.executable, "-m", "specdiff", *args, "--no-config"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)  # a hang guard, not a timing
    _assert_one_line_error((done.returncode, done.stdout, done.stderr), expected)


def test_baseline_naming_a_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, {"adir/x.txt": ""})
    code, stdout, stderr = _cli(tmp_path, ["good.yaml", "--baseline", "adir"], monkeypatch)
    assert (code, stdout, stderr.count("\n")) == (2, "", 1)
    assert stderr == "specdiff: error: adir: baseline file is not a regular file\n"


def test_a_directory_with_no_spec_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A directory is a valid input (per-group documents), so only an empty one is an error."""
    _write(tmp_path, {"specs/notes.txt": "not a spec\n"})
    code, stdout, stderr = _cli(tmp_path, ["specs"], monkeypatch)
    assert (code, stdout, stderr.count("\n")) == (2, "", 1)
    assert stderr.startswith("specdiff: error: specs: ") and "Traceback" not in stderr


def test_crd_with_no_versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One line naming the file. CRD input is being built elsewhere: today's "not supported yet" error and a
    future message about the missing versions are both accepted; only the shape of the error is pinned here."""
    crd = ("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: frobs.example.com}\n"
           "spec:\n  group: example.com\n  names: {kind: Frob, plural: frobs}\n  scope: Namespaced\n  versions: []\n")
    _write(tmp_path, {"crd.yaml": crd})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["crd.yaml", "crd.yaml", "--no-config"])
    assert (result.exit_code, result.stdout, result.stderr.count("\n")) == (2, "", 1)
    assert result.stderr.startswith("specdiff: error: crd.yaml") and "Traceback" not in result.stderr
    assert "not supported" in result.stderr or "version" in result.stderr


# -- inputs that look odd but are fine --------------------------------------------------------------------------
def _compare(folder: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, [old, new, "--no-config", *args])
    return result.exit_code, result.stdout, result.stderr


def test_a_utf8_bom_is_accepted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = json.dumps({"openapi": "3.0.3", "info": {"title": "Frob", "version": "1"}, "paths": {}})
    _write(tmp_path, {"bom.yaml": b"\xef\xbb\xbf" + GOOD.encode(), "bom.json": b"\xef\xbb\xbf" + plain.encode(),
                      "plain.json": plain})
    for old, new in (("good.yaml", "bom.yaml"), ("plain.json", "bom.json")):
        assert _compare(tmp_path, monkeypatch, old, new, "--today", "2026-01-15") == (
            0, f"specdiff {old} -> {new} (spec: OpenAPI (no Kubernetes markers); policy: openapi; response readers: "
            "validating; as of 2026-01-15)\n"
            "0 breaking, 0 dangerous, 0 safe\n"
            "\nNo changes found.\n",
            "")


def test_yaml_flow_style_dates_and_numeric_keys_are_plain_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A .yaml file may start with `{`; a date stays a string; `200:` is the status "200" as in JSON."""
    flow = ('{openapi: 3.0.3, info: {title: Frob, version: 2024-01-31}, paths: {/frobs: {get: {responses: '
            '{200: {description: ok}}}}}}\n')
    quoted = HEAD.replace('"1"', '"2024-01-31"').replace("paths: {}", 'paths:\n  /frobs:\n    get:\n      '
                                                                         'responses: {"200": {description: ok}}')
    _write(tmp_path, {"flow.yaml": flow, "quoted.yaml": quoted})
    code, stdout, stderr = _compare(tmp_path, monkeypatch, "flow.yaml", "quoted.yaml", "--format", "json")
    assert (code, stderr) == (0, "")
    envelope = json.loads(stdout)
    assert (envelope["old"]["version"], envelope["findings"]) == ("2024-01-31", [])


def test_merge_keys_of_merges_stay_small(tmp_path: Path) -> None:
    """Merging a merge of merges nine times over would repeat keys 9**12 times; each key is kept once."""
    _write(tmp_path, {"merge.yaml": _merge_bomb(12)})
    done = subprocess.run([sys.executable, "-m", "specdiff", "merge.yaml", "merge.yaml", "--no-config"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")


def test_limits_can_be_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, {"deep.json": _nested_schema(140), "bomb.yaml": _alias_bomb(4)})
    assert _compare(tmp_path, monkeypatch, "deep.json", "deep.json")[0] == 2
    assert _compare(tmp_path, monkeypatch, "deep.json", "deep.json", "--max-depth", "300")[0] == 0
    assert _compare(tmp_path, monkeypatch, "bomb.yaml", "bomb.yaml", "--max-aliases", "1000")[0] == 2
    assert _compare(tmp_path, monkeypatch, "bomb.yaml", "bomb.yaml")[0] == 0


def test_max_depth_has_a_ceiling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, stderr = _compare(tmp_path, monkeypatch, "good.yaml", "good.yaml", "--max-depth", "5000")
    assert code == 2 and "5000 is not in the range 1<=x<=1000" in stderr


# -- remote $refs -----------------------------------------------------------------------------------------------
class _Fragments(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        if self.path != "/pet.yaml":
            self.send_error(404, "Not Found")
            return
        body = b"Pet:\n  type: object\n  properties:\n    name: {type: integer}\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def fragment_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Fragments)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def silent_server() -> Iterator[str]:
    """Accepts connections (the kernel completes the handshake) and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"


def _remote_pair(folder: Path, url: str) -> None:
    _write(folder, {
        "old.yaml": _schemas("    Pet:\n      type: object\n      properties:\n        name: {type: string}\n"),
        "new.yaml": _schemas(f"    Pet: {{$ref: '{url}#/Pet'}}\n"),
    })


def test_remote_ref_is_fetched_when_allowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            fragment_server: str) -> None:
    _remote_pair(tmp_path, f"{fragment_server}/pet.yaml")
    code, stdout, stderr = _compare(tmp_path, monkeypatch, "old.yaml", "new.yaml", "--format", "json")
    assert (code, stdout) == (2, "")
    assert stderr.startswith("specdiff: error: new.yaml:6:11: remote $ref ")
    code, stdout, stderr = _compare(tmp_path, monkeypatch, "old.yaml", "new.yaml", "--format", "json",
                                    "--allow-remote-refs")
    assert stderr == ""
    changes = [(f["change"], f["pointer"], f["old"], f["new"]) for f in json.loads(stdout)["findings"]]
    assert changes == [("modified", "/Pet/properties/name", "string", "integer")]


def test_remote_ref_that_is_not_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fragment_server: str) -> None:
    _remote_pair(tmp_path, f"{fragment_server}/gone.yaml")
    assert _compare(tmp_path, monkeypatch, "old.yaml", "new.yaml", "--allow-remote-refs") == (
        2, "", f"specdiff: error: new.yaml:6:11: remote $ref '{fragment_server}/gone.yaml' could not be fetched: "
               "HTTP 404 Not Found\n")


def test_remote_ref_times_out(tmp_path: Path, silent_server: str) -> None:
    _remote_pair(tmp_path, f"{silent_server}/pet.yaml")
    outcome = _subprocess(tmp_path, ["new.yaml"], "--allow-remote-refs", "--remote-ref-timeout", "0.5")
    _assert_one_line_error(outcome, f"new.yaml:6:11: remote $ref '{silent_server}/pet.yaml' could not be fetched: "
                                    "no answer within 0.5 s (--remote-ref-timeout)")


def test_a_surrogate_pair_escape_and_an_escaped_backslash_are_fine(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, {"pair.json": '{"openapi": "3.0.3", "info": {"title": "\\ud83d\\ude00 \\\\ud800 \\\\\\\\udc00", '
                                   '"version": "1"}, "paths": {}}'})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["pair.json", "pair.json", "--no-config"])
    assert result.exit_code == 0, result.output


def test_a_type_list_holding_a_mapping_is_not_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by the mutation fuzz: a parameter schema whose `type` list holds a mapping."""
    def spec(types: object) -> str:
        return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/x": {"get": {
            "parameters": [{"name": "q", "in": "query", "schema": {"type": types}}],
            "responses": {"200": {"description": "ok"}}}}}})
    _write(tmp_path, {"old.json": spec(["string", {"a": 1}]), "new.json": spec(["string"])})
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["old.json", "new.json", "--no-config", "--format", "json"])
    assert result.exit_code in (0, 1) and "Traceback" not in result.output
    assert [f["rule"] for f in json.loads(result.stdout)["findings"]] == ["schema.type-changed"]


# -- found by the two-sided fuzz and by hand (issue 16) ---------------------------------------------------------
def test_a_ref_to_a_symlink_loop_names_no_absolute_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, {"bad.yaml": _schemas("    A: {$ref: 'loop.yaml'}\n")})
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    _assert_one_line_error(_cli(tmp_path, ["bad.yaml"], monkeypatch),
                           "bad.yaml:6:9: $ref 'loop.yaml' is a symlink loop")


def test_stdin_over_max_bytes_says_so(tmp_path: Path) -> None:
    _write(tmp_path, {"small.yaml": HEAD})
    done = subprocess.run([sys.executable, "-m", "specdiff", "small.yaml", "-", "--no-config", "--max-bytes", "100"],
                          cwd=tmp_path, input=GOOD, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "specdiff: error: <stdin>: input is over the 100-byte limit (--max-bytes)\n")


def _parameter_chain(end: str) -> str:
    """An operation's parameter reached through 33 `$ref`s in a row, the last one pointing at `end`."""
    lines = [HEAD.replace("paths: {}", "paths:\n  /a:\n    get:\n"
                                       "      parameters: [{$ref: '#/components/parameters/p0'}]\n"
                                       "      responses: {'200': {description: ok}}"), "components:\n  parameters:"]
    lines += [f"    p{i}: {{$ref: '#/components/parameters/p{i + 1}'}}" for i in range(33)]
    return "\n".join(lines + [f"    p33: {end}"]) + "\n"


def test_a_long_chain_of_parameter_refs_is_no_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, {"old.yaml": _parameter_chain("{name: q, in: query, schema: {type: string}}"),
                      "new.yaml": _parameter_chain("{name: q, in: query, required: true, schema: {type: string}}"),
                      "cycle.yaml": _parameter_chain("{$ref: '#/components/parameters/p31'}")})
    code, stdout, stderr = _compare(tmp_path, monkeypatch, "old.yaml", "new.yaml", "--format", "json")
    assert (code, stderr) == (1, "")
    assert [(f["rule"], f["pointer"]) for f in json.loads(stdout)["findings"]] == [
        ("parameter.became-required", "/components/parameters/p33/schema")]
    code, stdout, stderr = _compare(tmp_path, monkeypatch, "old.yaml", "cycle.yaml")
    assert (code, stdout) == (2, "")
    assert stderr.startswith("specdiff: error: cycle.yaml:6:20: $ref cycle with no schema in it: /components/"
                             "parameters/p0 -> ") and stderr.endswith("/p33 -> /components/parameters/p31\n")


def test_nesting_too_deep_to_compare_names_the_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each file nests within --max-depth, but their `$ref`s stack them 300 files deep."""
    for side, leaf in (("a", "string"), ("b", "integer")):
        for i in range(300):
            inner = {"$ref": f"s{i + 1}.json"} if i < 299 else {"type": leaf}
            _write(tmp_path, {f"{side}/s{i}.json": json.dumps({"type": "object", "properties": {"p": inner}})})
        _write(tmp_path, {f"{side}/api.yaml": _schemas("    A: {$ref: 's0.json'}\n")})
    assert _compare(tmp_path, monkeypatch, "a/api.yaml", "b/api.yaml", "--max-depth", "10") == (
        2, "", "specdiff: error: a/api.yaml and b/api.yaml: schemas nest too deeply to compare (more than 10 "
               "levels through $refs, --max-depth)\n")


def test_deep_schemas_within_max_depth_are_compared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """480 nested properties are 960 levels of JSON: within --max-depth 1000, so they are compared."""
    def spec(leaf: str) -> str:
        deep = '{"type": "object", "properties": {"p": ' * 480 + f'{{"type": "{leaf}"}}' + "}}" * 480
        used = ('{"200": {"description": "ok", '
                '"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Deep"}}}}}')
        return ('{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, '
                f'"paths": {{"/deep": {{"get": {{"responses": {used}}}}}}}, '
                f'"components": {{"schemas": {{"Deep": {deep}}}}}}}')
    _write(tmp_path, {"old.json": spec("string"), "new.json": spec("integer")})
    code, stdout, stderr = _compare(tmp_path, monkeypatch, "old.json", "new.json", "--max-depth", "1000",
                                    "--format", "json")
    assert (code, stderr) == (1, "")
    assert [(f["rule"], f["pointer"]) for f in json.loads(stdout)["findings"]] == [
        ("schema.type-changed", "/components/schemas/Deep" + "/properties/p" * 480)]


@pytest.mark.parametrize("fmt", ["html", "release-notes", "markdown", "json"])
def test_odd_shapes_the_reports_read(fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A response whose `content` is a string, and a CRD with a top-level `paths: [1]`: reports that read the
    documents to group findings skip what is not a mapping, as the graph does."""
    path = "paths:\n  /apis/example.com/v1/frobs:\n    get:\n      responses: {'200': {description: ok%s}}"
    crd = ("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: frobs.example.com}\n"
           "%sspec:\n  group: example.com\n  names: {kind: Frob, plural: frobs}\n  scope: Namespaced\n  versions:\n"
           "    - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: %s}}}\n")
    _write(tmp_path, {"old.yaml": HEAD.replace("paths: {}", path % ""),
                      "new.yaml": HEAD.replace("paths: {}", path % ", content: hello"),
                      "crd-old.yaml": crd % ("", "object"), "crd-new.yaml": crd % ("paths: [1]\n", "string")})
    assert _compare(tmp_path, monkeypatch, "old.yaml", "new.yaml", "--format", fmt)[0::2] == (0, "")
    code, stdout, stderr = _compare(tmp_path, monkeypatch, "crd-old.yaml", "crd-new.yaml", "--format", fmt)
    assert (code, stderr) == (1, "")
    assert "openAPIV3Schema" in stdout or "frobs.example.com" in stdout or "example.com/v1 Frob" in stdout


class _Trickle:
    """A server on 127.0.0.1 that sends its answer one byte every 0.2 s: the headers, or the body."""

    def __init__(self, headers_slowly: bool) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.headers_slowly = headers_slowly
        self.stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        body = b"Pet: {type: object}\n" * 100
        head = b"HTTP/1.1 200 OK\r\nX-Padding: %s\r\nContent-Length: %d\r\n\r\n" % (b"x" * 400, len(body))
        slow, fast = (head, b"") if self.headers_slowly else (b"", head)
        with connection:
            try:
                connection.sendall(fast)
                for byte in slow + body:
                    if self.stop.wait(0.2):
                        return
                    connection.sendall(bytes([byte]))
            except OSError:
                return  # the client gave up, as it should


@pytest.mark.parametrize("part", ["headers", "body"])
def test_remote_ref_timeout_bounds_the_whole_fetch(part: str, tmp_path: Path) -> None:
    """One byte every 0.2 s keeps every read within a socket timeout; the answer would take minutes."""
    server = _Trickle(headers_slowly=part == "headers")
    url = f"http://127.0.0.1:{server.listener.getsockname()[1]}/pet.yaml"
    try:
        _remote_pair(tmp_path, url)
        done = subprocess.run([sys.executable, "-m", "specdiff", "old.yaml", "new.yaml", "--no-config",
                               "--allow-remote-refs", "--remote-ref-timeout", "1"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)  # a hang guard
    finally:
        server.stop.set()
        server.listener.close()
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"specdiff: error: new.yaml:6:11: remote $ref '{url}' could not be fetched: no answer within 1 s "
               "(--remote-ref-timeout)\n")


def test_what_aliases_expand_to_is_bounded_by_max_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five schemas share one aliased set of three properties: fifteen changes from a few lines of YAML."""
    shared = "    S0: {type: object, properties: &p {a: {type: string}, b: {type: string}, c: {type: string}}}\n"
    _write(tmp_path, {
        "old.yaml": _schemas("".join(f"    S{i}: {{type: object}}\n" for i in range(5))),
        "new.yaml": _schemas(shared + "".join(f"    S{i}: {{type: object, properties: *p}}\n" for i in range(1, 5))),
    })
    assert _compare(tmp_path, monkeypatch, "old.yaml", "new.yaml", "--max-changes", "10") == (
        2, "", "specdiff: error: old.yaml and new.yaml: more than 10 changes found (--max-changes)\n")
    code, stdout, stderr = _compare(tmp_path, monkeypatch, "old.yaml", "new.yaml", "--format", "json",
                                    "--no-group")
    assert (code, stderr) == (0, "")
    assert sorted(f["pointer"] for f in json.loads(stdout)["findings"]) == [
        f"/components/schemas/S{i}/properties/{p}" for i in range(5) for p in "abc"]


def test_max_changes_stops_the_comparison_at_the_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound ends the work when it is passed (an expansion may hold millions of changes), not after it."""
    from specdiff.diff import Changes
    from specdiff.records import Change

    shared = "    S0: {type: object, properties: &p {a: {type: string}, b: {type: string}, c: {type: string}}}\n"
    _write(tmp_path, {
        "old.yaml": _schemas("".join(f"    S{i}: {{type: object}}\n" for i in range(200))),
        "new.yaml": _schemas(shared + "".join(f"    S{i}: {{type: object, properties: *p}}\n" for i in range(1, 200))),
    })
    appended: list[int] = []
    real_append = Changes.append

    def counted(self: Changes, item: Change) -> None:
        appended.append(len(self))
        real_append(self, item)

    monkeypatch.setattr(Changes, "append", counted)
    assert _compare(tmp_path, monkeypatch, "old.yaml", "new.yaml", "--max-changes", "10")[0] == 2
    assert len(appended) == 11  # ten kept, the eleventh refused: none of the other 589 was looked for


@pytest.mark.parametrize("measured", [0, 10])
def test_a_file_longer_than_it_was_measured_is_read_whole_up_to_the_limit(measured: int, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A file is read in a size taken from fstat; one that grew since, or that reports no size (/proc), is
    read to its end all the same, and refused when it passed the limit."""
    spec = tmp_path / "api.json"
    spec.write_text(json.dumps({"openapi": "3.0.3", "info": {"title": "t" * 200, "version": "1"}, "paths": {}}))
    opened = specdiff.load.open_regular
    monkeypatch.setattr(specdiff.load, "open_regular", lambda path: (opened(path)[0], measured))
    assert specdiff.load.load(str(spec)).data["info"]["title"] == "t" * 200
    with pytest.raises(InputError, match=r"input is over the 100-byte limit \(--max-bytes\)"):
        specdiff.load.load(str(spec), Limits(max_bytes=100))
