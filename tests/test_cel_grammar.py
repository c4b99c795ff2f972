"""The CEL parser loaded from tables (specdiff/diff/cel_grammar.py) parses as cel-python's own parser does: the
same trees for every rule of the real CRDs and for hand-written ones, and the same place for a syntax error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from celpy.celparser import CELParser
from lark import Lark

from specdiff.diff import cel_grammar, cel_tables

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"

WRITTEN = [
    "self.a > 0 || has(self.b)",
    "true && !false",  # `true` and `false` lex as identifiers; a callback makes them literals
    "self.all(f, f.type == 'CORS' ? has(f.cors) : !has(f.cors))",
    "self.filter(x, x.startsWith(\"a\\\"b\")).size() <= 1 && 0x1F < 3u && 1.5e3 > -2.0",
    "'''multi\nline''' in ['a', b'bytes', r'raw\\d']",
    "self.m.exists_one(k, self.m[k] == null) ? {'a': 1}.a : [1, 2][0]",
    "// a comment\nself.x\n  .y",
    "oldSelf == self",
]
MALFORMED = ["self.a >", "self.a > || b", "(self.a", "self.a ]", "'unclosed", "self.@", "a ? b"]


@pytest.fixture(scope="module")
def theirs() -> Iterator[Lark]:
    """cel-python's own parser, analysed from the grammar by `CELParser` (once for the module: 0.2 s each time).
    `specdiff manifests` hands cel-python the parser loaded from tables as the process's single parser, which a
    test run may have done already; it is put back afterwards."""
    kept = CELParser.CEL_PARSER
    CELParser.CEL_PARSER = None
    try:
        CELParser()
        made = CELParser.CEL_PARSER
        assert made is not None and made.source_path != "<deserialized>"
        yield made
    finally:
        CELParser.CEL_PARSER = kept


def test_manifests_evaluate_with_the_parser_loaded_from_tables() -> None:
    from specdiff.manifests import evaluate

    assert evaluate("self.size > 0 && true", {"size": 2}) == (True, "")
    assert CELParser.CEL_PARSER is cel_grammar.cel_parser()


def _rules(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for rule in node.get("x-kubernetes-validations") or ():
            if isinstance(rule, dict) and isinstance(rule.get("rule"), str):
                yield rule["rule"]
        for value in node.values():
            yield from _rules(value)
    elif isinstance(node, list):
        for value in node:
            yield from _rules(value)


def _real_rules() -> list[str]:
    found: set[str] = set()
    for path in sorted((CORPORA / "crds").rglob("*.yaml")):
        for document in yaml.load_all(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader):
            found.update(_rules(document))
    return sorted(found)


def test_the_tables_are_made_from_the_grammar_lark_and_options_in_use() -> None:
    assert cel_tables.DIGEST == cel_grammar._digest(cel_grammar._grammar()), "stale: run `make docs`"
    assert cel_grammar.TABLES.read_text(encoding="utf-8") == cel_grammar.tables_text(), "stale: run `make docs`"
    assert cel_grammar.cel_parser().source_path == "<deserialized>"  # the tables are what is loaded


@pytest.mark.parametrize("rule", WRITTEN)
def test_a_written_rule_parses_to_cel_pythons_tree(rule: str, theirs: Lark) -> None:
    assert cel_grammar.cel_parser().parse(rule) == theirs.parse(rule)


def test_every_rule_of_the_real_crds_parses_to_cel_pythons_tree(theirs: Lark) -> None:
    if not (CORPORA / "crds").is_dir():
        pytest.skip(f"the real CRDs are not at {CORPORA / 'crds'}")
    rules = _real_rules()
    assert {"!(!has(self.cors) && self.type == 'CORS')", "self.mode == 'Terminate' ? size(self.certificateRefs) > 0 "
            ": true"} <= set(rules)  # (the walk finds the rules: two the Gateway API releases write)
    ours = cel_grammar.cel_parser()
    assert [rule for rule in rules if ours.parse(rule) != theirs.parse(rule)] == []


@pytest.mark.parametrize("rule", MALFORMED)
def test_a_syntax_error_is_placed_where_cel_python_places_it(rule: str, theirs: Lark) -> None:
    with pytest.raises(Exception) as their_error:
        theirs.parse(rule)
    with pytest.raises(Exception) as ours:
        cel_grammar.cel_parser().parse(rule)
    assert (ours.value.line, ours.value.column) == (their_error.value.line,  # type: ignore[attr-defined]
                                                    their_error.value.column)  # type: ignore[attr-defined]


def test_stale_tables_are_not_used(monkeypatch: pytest.MonkeyPatch, theirs: Lark) -> None:
    """Tables made from another grammar, lark or options: the grammar is analysed instead, to the same parser."""
    monkeypatch.setattr(cel_tables, "DIGEST", "made from another grammar")
    cel_grammar.cel_parser.cache_clear()
    try:
        analysed = cel_grammar.cel_parser()
        assert analysed.source_path != "<deserialized>"
        assert [analysed.parse(rule) for rule in WRITTEN] == [theirs.parse(rule) for rule in WRITTEN]
    finally:
        cel_grammar.cel_parser.cache_clear()


def test_a_cel_python_without_its_grammar_file_lends_its_own_parser(monkeypatch: pytest.MonkeyPatch,
                                                                      theirs: Lark) -> None:
    """A cel-python that keeps its grammar elsewhere than 0.5 does: its own parser, as it makes it, not a crash."""
    monkeypatch.setattr(cel_grammar, "_grammar", lambda: None)
    monkeypatch.setattr(CELParser, "CEL_PARSER", None)
    cel_grammar.cel_parser.cache_clear()
    try:
        lent = cel_grammar.cel_parser()
        assert lent is CELParser.CEL_PARSER and lent.source_path != "<deserialized>"
        assert [lent.parse(rule) for rule in WRITTEN] == [theirs.parse(rule) for rule in WRITTEN]
    finally:
        cel_grammar.cel_parser.cache_clear()
