"""cel-python's CEL grammar as a lark LALR parser, made from tables analysed ahead of time.

cel-python's `CELParser` analyses its grammar into LALR tables in every process that parses a rule (130 ms), and
importing it imports its evaluator too (pendulum, dateutil: 50-80 ms): twice the rest of a Gateway API
comparison whose CEL rules changed. The parser here is the same one, from the same grammar file and options (but
`debug`, which only logs and numbers the states otherwise), loaded from the tables `make docs` writes into
`cel_tables.py`. The tables are used only while their digest matches the grammar, lark's version and the options;
otherwise the grammar is analysed as cel-python does it, so they can make a start slower but a parse never
different (tests/test_cel_grammar.py parses every rule of the real CRDs both ways).
"""

from __future__ import annotations

import hashlib
import importlib.util
import pprint
import re
from functools import cache
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token
from lark.grammar import Rule
from lark.lexer import TerminalDef

#: the options cel-python's `CELParser` builds its parser with (celpy/celparser.py), `debug` left at False
OPTIONS: dict[str, Any] = {"parser": "lalr", "start": "expr", "g_regex_flags": re.M, "propagate_positions": True,
                           "maybe_placeholders": False, "priority": "invert"}
TABLES = Path(__file__).with_name("cel_tables.py")


def _literal(token: Token) -> Token:
    """`true` and `false` lex as identifiers; cel-python's lexer callback makes them boolean literals."""
    return Token("BOOL_LIT", token.value) if token.value in ("true", "false") else token


#: what lark runs as it lexes, given again when the tables are loaded (they hold no code)
_CALLBACKS = {"lexer_callbacks": {"IDENT": _literal}}


@cache
def cel_parser() -> Lark:
    """The parser, from the tables while they are current, else from the grammar (made once a process); with a
    cel-python that keeps no grammar file where 0.5 does, cel-python's own parser, as it makes it."""
    # (by its whole name: `from specdiff.diff import` would depend on the package, whose differ imports this)
    import specdiff.diff.cel_tables as cel_tables

    grammar = _grammar()
    if grammar is None:
        from celpy.celparser import CELParser

        CELParser()  # (cel-python keeps the one parser it makes on the class)
        made = CELParser.CEL_PARSER
        assert made is not None
        return made
    if cel_tables.DIGEST == _digest(grammar):
        # (what the parsers lark's standalone tool writes load their tables with; lark leaves it unannotated)
        loaded: Lark = Lark._load_from_dict(cel_tables.DATA, cel_tables.MEMO,  # type: ignore[no-untyped-call]
                                            g_regex_flags=OPTIONS["g_regex_flags"], **_CALLBACKS)
        return loaded
    return Lark(grammar, **OPTIONS, **_CALLBACKS)


def _grammar() -> str | None:
    """cel-python's grammar file, found without importing cel-python (its package imports the evaluator); None
    where there is none."""
    spec = importlib.util.find_spec("celpy")
    folders = spec.submodule_search_locations if spec is not None else None
    try:
        return (Path(next(iter(folders or ()))) / "cel.lark").read_text(encoding="utf-8")
    except (StopIteration, OSError):
        return None


def _digest(grammar: str) -> str:
    """What the tables were made from: the grammar, the lark that analysed it and the options it was given."""
    made_from = "\0".join((grammar, lark.__version__, repr(sorted(OPTIONS.items()))))
    return hashlib.sha256(made_from.encode()).hexdigest()


def tables_text() -> str:
    """The text of `cel_tables.py`: the analysed parser as lark serialises it, as Python literals, its states and
    tokens numbered in one order (`_numbered`), so that the same grammar writes the same text."""
    grammar = _grammar()
    if grammar is None:
        raise FileNotFoundError("cel-python's grammar file (celpy/cel.lark) is not where cel-python 0.5 keeps it")
    data, memo = Lark(grammar, **OPTIONS).memo_serialize([TerminalDef, Rule])
    data["parser"]["parser"] = _numbered(data["parser"]["parser"])
    return ('"""CEL\'s LALR tables for lark, written by `make docs` (specdiff/diff/cel_grammar.py): not edited by '
            'hand."""\n\n'
            f"DIGEST = {_digest(grammar)!r}\n"
            f"DATA = {pprint.pformat(_plain(data), width=120, compact=True, sort_dicts=False)}\n"
            f"MEMO = {pprint.pformat(_plain(memo), width=120, compact=True, sort_dicts=False)}\n")


def _numbered(table: dict[str, Any]) -> dict[str, Any]:
    """A serialised LALR table with its tokens numbered in name order and its states in the order a walk from the
    start states meets them (each state's moves in token order). lark numbers both in the order sets of
    objects iterate, which changes from one run to the next: the same parser, written differently each time."""
    names = table["tokens"]
    token_ids = {old: new for new, old in enumerate(sorted(names, key=lambda token: names[token]))}
    states: dict[int, dict[int, tuple[int, Any]]] = table["states"]
    order: dict[int, int] = {}  # old state number -> new
    pending = [table["start_states"][start] for start in sorted(table["start_states"])]
    while pending:
        state = pending.pop(0)
        if state in order:
            continue
        order[state] = len(order)
        moves = sorted(states[state].items(), key=lambda move: names[move[0]])
        pending += [argument for _, (action, argument) in moves if action == 0]  # 0: shift to that state
    order.update((state, len(order) + i) for i, state in enumerate(sorted(set(states) - set(order))))

    def moved(action: int, argument: Any) -> tuple[int, Any]:
        return (action, order[argument]) if action == 0 else (action, argument)

    return {"tokens": {token_ids[old]: name for old, name in sorted(names.items(), key=lambda item: item[1])},
            "states": {order[state]: {token_ids[token]: moved(*move)
                                      for token, move in sorted(states[state].items(), key=lambda m: names[m[0]])}
                       for state in sorted(states, key=order.__getitem__)},
            "start_states": {start: order[state] for start, state in sorted(table["start_states"].items())},
            "end_states": {start: order[state] for start, state in sorted(table["end_states"].items())}}


def _plain(value: Any) -> Any:
    """The serialised parser with the regular-expression flags as the numbers they are, so it is all literals."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(map(_plain, value))
    return int(value) if isinstance(value, re.RegexFlag) else value


def write_tables() -> None:
    """`make docs`: analyse the grammar into `cel_tables.py`."""
    TABLES.write_text(tables_text(), encoding="utf-8")
