"""What CEL validation rules say, from cel-python's parse tree, about the objects the old schema allows: whether a
changed rule accepts every such object the old rule accepted, and whether an added rule holds on all of them.

Both questions are answered by folding what the old schema says into the expression (`Shape`): a field the old
schema does not have is absent (`has(self.cors)` is false), a required field is present (`has(self.value)` is
true), a string enum field that is there holds an old value (`self.type == 'CORS'` is false for a value the old
enum lacks), each field, each item of a list and each value of a map is described the same way at any depth, so
`self.filter(f, f.type == 'CORS').size() <= 1` folds to `0 <= 1` and `self.m.all(k, !has(self.m[k].cors))` to
true. A path is only followed through fields that are there: `self.a.b` is an error on an object without `a`.
What a guard says holds where it guards: after `has(self.a) &&`, `!has(self.a) ||` or in `has(self.a) ? ... :`,
`a` is there, so `has(self.a.cors)` is known too. `!`, `&&`, `||`, `?:`, `in` a list of strings, the macros
(`all`, `exists`, `exists_one`, `filter`, over lists and maps), `size` and comparisons of known numbers combine
what is known; anything else is kept as written.

A rule that does not parse proves nothing: it widens nothing and may reject anything.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import field, replace
from functools import lru_cache

from lark import Token, Tree

from specdiff.diff.cel_grammar import cel_parser
from specdiff.frozen import record


@record(frozen=True, eq=False)
class Shape:
    """What every value valid under the old schema is at one place (`self`, a field, an item of a list, a value of
    a map). Compared by identity: two shapes are the same place only when they are the same object."""

    absent: frozenset[str] = frozenset()  # fields it never has
    present: frozenset[str] = frozenset()  # fields it always has
    fields: Mapping[str, Shape] = field(default_factory=dict)  # what each field is, where it is set
    items: Shape | None = None  # each item, when it is a list
    values: Shape | None = None  # each value, when it is a map
    enum: frozenset[str] | None = None  # the strings it can be, when it is a string enum
    fielded: bool = True  # it may be an object (not a string, number or list, on which `has(x.f)` is an error)
    keys: frozenset[str] | None = None  # a list-map's keys: no two items share their values
    min_items: int = 0  # how many items it has at least and at most, when it is a list
    max_items: int | None = None

    def member(self, name: str) -> Shape:
        return self.fields.get(name, NOTHING_KNOWN)


NOTHING_KNOWN = Shape()


#: how deeply operators may nest in a rule whose meaning is folded: folding recurses per level and re-reads the
#: guards before each `&&` or `||`, so a chain of 1,800 `||` took hours; a deeper rule proves nothing
MAX_NESTING = 100


def parse(rule: str) -> Tree[Token] | None:
    """The parse tree, or None for anything that is not a CEL expression or nests past MAX_NESTING."""
    tree = _parsed(rule)
    return tree if isinstance(tree, Tree) and _nesting(tree) <= MAX_NESTING else None


def compile_error(rule: object) -> str | None:
    """Why the rule is not a CEL expression, as the API server would refuse it (its syntax only: what the rule
    names is not checked against the schema), or None when it parses."""
    if not isinstance(rule, str):
        return "the rule is not a string"
    found = _parsed(rule)
    return found if isinstance(found, str) else None


@lru_cache(maxsize=4096)
def _parsed(rule: str) -> Tree[Token] | str:
    """The parse tree, or why there is none."""
    if not _strings_close(rule):
        return "a string literal is not closed"
    try:
        tree = cel_parser().parse(rule)
    except Exception as err:  # lark's errors, with where the rule stops parsing; malformed input must never crash
        line, column = getattr(err, "line", None), getattr(err, "column", None)
        if not isinstance(line, int) or not isinstance(column, int):
            return "syntax error"
        lines = rule.split("\n")
        at = lines[line - 1][column - 1:column + 9] if 0 < line <= len(lines) else ""
        where = f"line {line}, column {column}" if len(lines) > 1 else f"column {column}"
        near = f"near {at!r}" if at.strip() else "the rule ends too soon"
        return f"syntax error at {where}: {near}"
    return tree if isinstance(tree, Tree) else "syntax error"


def _strings_close(rule: str) -> bool:
    """Whether every string literal the lexer meets ends where the lexer first looks for its end.

    cel-python's string regexes let a backslash be read alone or as an escape, so when that first reading
    finds no closing quote they try every other reading: a quote and 40 backslashes took hours. Such a rule
    does not lex as CEL anyway, and this linear scan finds it first (comments and both quotes, single and
    triple, as the lexer reads them)."""
    at = 0
    while at < len(rule):
        char = rule[at]
        if rule.startswith("//", at):
            at = _line_end(rule, at)
        elif char in "\"'":
            at = _string_end(rule, at)
            if at < 0:
                return False
        else:
            at += 1
    return True


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _string_end(text: str, at: int) -> int:
    """Where the literal opening at `at` ends as read escape first, or -1 when it does not end (a one-quote
    literal at the end of its line, a triple-quoted one at the end of the text)."""
    quote = text[at] * 3 if text.startswith(text[at] * 3, at) else text[at]
    at += len(quote)
    while at < len(text):
        if text.startswith(quote, at):
            return at + len(quote)
        if text[at] == "\n" and len(quote) == 1:
            return -1
        at += 2 if text[at] == "\\" and at + 1 < len(text) and text[at + 1] != "\n" else 1
    return -1


def _nesting(tree: Tree[Token]) -> int:
    """How deeply operators nest: the most nodes of two or more children on one path (wrappers not counted).
    Walked with a stack, since the tree may be far deeper than the bound."""
    deepest, stack = 0, [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        depth += len(node.children) > 1
        deepest = max(deepest, depth)
        if deepest > MAX_NESTING:
            break
        stack.extend((child, depth) for child in node.children if isinstance(child, Tree))
    return deepest


def holds(rule: object, shape: Shape) -> bool:
    """The rule is true on every object `shape` describes."""
    return proof(rule, shape) is not None


#: what the schema facts used while folding a rule say, in a reviewer's words ("self.type is one of ..."):
#: the proof given when the rule holds; cleared before each rule
_NOTES: list[str] = []
#: the proof of a rule that holds whatever the object, or only through facts no note names
_ANYWAY = "it constrains only what the release adds"


def proof(rule: object, shape: Shape) -> str | None:
    """Why the rule is true on every object `shape` describes (the schema facts it rests on), or None when it
    may be false, or an error, on one of them."""
    tree = parse(rule) if isinstance(rule, str) else None
    _NOTES.clear()
    if tree is None or _fold(tree, {"self": shape}) is not True:
        return None
    return "; ".join(dict.fromkeys(_NOTES)) or _ANYWAY


def _note(text: str) -> None:
    _NOTES.append(text)


def widens(old: object, new: object, shape: Shape = NOTHING_KNOWN) -> bool:
    """The new rule accepts every object `shape` describes that the old rule accepted: with what is known folded
    into both, the old one implies the new one (`_implies`), e.g. the new one is the old one OR-ed with more."""
    before = parse(old) if isinstance(old, str) else None
    after = parse(new) if isinstance(new, str) else None
    _NOTES.clear()
    if before is None or after is None:
        return False
    env: Env = {"self": shape}
    return _implies(_fold(before, env), _fold(after, env))


def _implies(old: Folded, new: Folded) -> bool:
    """Whatever makes `old` true makes `new` true, read from their structure: the same expression; an OR whose
    every operand implies the new one, or one operand of a new OR; an AND with one operand that does; each
    operand of a new AND implied; `!a` of `!b` when b implies a; `all` or `exists` over the same list with the
    same variable and an implied body; `?:` on the same condition with implied branches."""
    if old == new or new is True or old is False:
        return True
    if _is(old, "conditionalor"):
        return all(_implies(term, new) for term in _disjuncts(old))
    if _is(new, "conditionaland"):
        assert isinstance(new, Tree)
        return all(_implies(old, term) for term in new.children)
    if _is(new, "conditionalor") and any(_implies(old, term) for term in _disjuncts(new)):
        return True
    if _is(old, "conditionaland"):
        assert isinstance(old, Tree)
        return any(_implies(term, new) for term in old.children)
    if not (isinstance(old, Tree) and isinstance(new, Tree) and old.data == new.data):
        return False
    if old.data == "unary" and _is(old.children[0], "unary_not") and len(old.children) == len(new.children) == 2:
        return _implies(new.children[1], old.children[1])
    if old.data == "expr" and len(old.children) == len(new.children) == 3 and old.children[0] == new.children[0]:
        return _implies(old.children[1], new.children[1]) and _implies(old.children[2], new.children[2])
    if (old.data == "member_dot_arg" and len(old.children) == len(new.children) == 3
            and old.children[:2] == new.children[:2] and str(old.children[1]) in ("all", "exists")):
        before, after = _arguments(old.children[2]), _arguments(new.children[2])
        return (len(before) == len(after) == 2 and before[0] == after[0]) and _implies(before[1], after[1])
    return False


# -- folding ------------------------------------------------------------------------------------------------
class _Empty:
    """The value of a list that is empty on every object described (what `filter` leaves of no matches)."""

    def __repr__(self) -> str:
        return "[]"


EMPTY = _Empty()
#: a folded node: a value known on every object described (bool, int, str, EMPTY), else the node as written,
#: stripped of wrappers and parentheses so that two spellings of one expression compare equal
Folded = object


@record(frozen=True)
class _Key:
    """A macro variable bound to each key of a map (`k` in `m.all(k, ...)`): `m[k]` is one of its values."""

    target: object  # the map's node as written
    map: Shape  # what the map is


Env = dict[str, Shape | _Key]  # what each variable in scope is (`self`, the variable of a macro)
_MACROS = ("all", "exists", "exists_one", "filter")


def _fold(node: object, env: Env) -> Folded:
    node = _strip(node)
    if not isinstance(node, Tree):
        return node
    data, children = node.data, node.children
    if data == "paren_expr":
        return _fold(children[0], env)
    if data == "expr" and len(children) == 3:  # cond ? a : b, each branch read where the condition is as it picks
        test = _fold(children[0], env)
        if isinstance(test, bool):
            return _fold(children[1 if test else 2], _assume(children[0], env, test))
        then, otherwise = (_fold(children[1], _assume(children[0], env, True)),
                           _fold(children[2], _assume(children[0], env, False)))
        if isinstance(then, bool) and then is otherwise and _never_fails(children[0], env):
            return then
        return Tree(data, [test, then, otherwise])
    if data in ("conditionalor", "conditionaland") and len(children) == 2:  # the right side matters only when
        if data == "conditionalor" and _covers(node, env):
            return True
        right = _fold(children[1], _assume(children[0], env, data == "conditionaland"))  # the left one does not decide
        return _junction(data, _fold(children[0], env), right)
    if data == "unary" and len(children) == 2 and _is(children[0], "unary_not"):
        inner = _fold(children[1], env)
        return (not inner) if isinstance(inner, bool) else Tree(data, [children[0], inner])
    if data == "literal" and children:
        return _literal(str(children[0]), node)
    if data == "ident_arg" and len(children) == 2 and str(children[0]) in ("has", "size"):
        return _function(str(children[0]), children[1], node, env)
    if data == "relation" and len(children) == 2 and isinstance(children[0], Tree) and len(children[0].children) == 1:
        return _relation(children[0].data, children[0].children[0], children[1], env)
    if data == "member_dot_arg" and len(children) >= 2:
        return _method(children, node, env)
    return _fold_children(node, env)


def _junction(data: str, left: Folded, right: Folded) -> Folded:
    """`a || b`, `a && b`: true decides an OR and false an AND whatever the other side (CEL's commutative
    logic ignores an error there), the other constant leaves the other side."""
    decisive = data == "conditionalor"
    if left is decisive or right is decisive:
        return decisive
    if left is (not decisive):
        return right
    if right is (not decisive):
        return left
    return Tree(data, [left, right])


#: an int literal CEL accepts (64 bits): a longer one is a compile error there, and left unfolded here
_INT64 = re.compile(r"[0-9]{1,19}")


def _literal(text: str, node: Tree[Token]) -> Folded:
    if text in ("true", "false"):
        return text == "true"
    if _INT64.fullmatch(text) and int(text) < 2 ** 63:
        return int(text)
    if len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0] and "\\" not in text and text[0] not in text[1:-1]:
        return _Text(text[1:-1])
    return _fold_children(node, {})


@record(frozen=True)
class _Text:
    """A string literal (kept apart from lark's tokens, which are strings too)."""

    value: str


def _function(name: str, arguments: object, node: Tree[Token], env: Env) -> Folded:
    """`has(x.f)` where x is always there and its shape says f is absent or present; `size(x)` of an empty list."""
    argument = _only_argument(arguments)
    if name == "has":
        known = _has(argument, env)
        return known if known is not None else _fold_children(node, env)
    return 0 if argument is not None and _fold(argument, env) is EMPTY else _fold_children(node, env)


def _has(argument: object, env: Env) -> bool | None:
    target = _strip(argument)
    if not (_is(target, "member_dot") and isinstance(target, Tree) and len(target.children) == 2):
        return None
    parent, name = _resolve(target.children[0], env), str(target.children[1])
    if parent is None or not (name in parent.absent or name in parent.present):
        return None
    _note(f"{_spelled(target)} is always set (required or defaulted)" if name in parent.present
          else f"{_spelled(target)} is new, so old objects lack it")
    return name in parent.present


def _relation(operator: str, left_node: object, right_node: object, env: Env) -> Folded:
    """Comparisons of two known numbers; `x == 'v'` (or `!=`) and `x in ['v', ...]` for an x that is always there
    and holds one of the strings of an old enum."""
    left, right = _fold(left_node, env), _fold(right_node, env)
    names = {"relation_eq": "==", "relation_ne": "!=", "relation_lt": "<", "relation_le": "<=",
             "relation_gt": ">", "relation_ge": ">="}
    symbol = names.get(operator)
    numbers = all(isinstance(side, int) and not isinstance(side, bool) for side in (left, right))
    if symbol is not None and numbers:
        assert isinstance(left, int) and isinstance(right, int)
        return {"==": left == right, "!=": left != right, "<": left < right, "<=": left <= right,
                ">": left > right, ">=": left >= right}[symbol]
    if symbol in ("==", "!="):
        for member, text in ((left_node, right), (right_node, left)):
            known = _resolve(member, env)
            if known is not None and known.enum is not None and isinstance(text, _Text) \
                    and text.value not in known.enum:
                _note_enum(member, known)
                return symbol == "!="  # it holds an old value, never this one
    if operator == "relation_in":
        known, listed = _resolve(left_node, env), _strings(right_node)
        if known is not None and known.enum is not None and listed is not None:
            if known.enum <= listed or known.enum.isdisjoint(listed):
                _note_enum(left_node, known)
                return known.enum <= listed
    if symbol in ("<", "<=", ">", ">="):
        noted = len(_NOTES)
        decided = _ordered(symbol, _bound(left_node, env, frozenset()), _bound(right_node, env, frozenset()))
        if decided is not None:
            return decided
        del _NOTES[noted:]  # the bounds decided nothing, so they prove nothing
    return Tree("relation", [Tree(operator, [left]), right])


def _note_enum(member: object, known: Shape) -> None:
    assert known.enum is not None
    _note(f"{_spelled(member)} is one of {', '.join(sorted(known.enum))} (its enum, or the default)")


def _covers(node: object, env: Env) -> bool:
    """`x == 'a' || x in ['b', 'c'] || ...`: the values the tests of one field allow, together, take in every
    value its old enum (and new default) gives it, so one of them is true whatever the object (an OR is true
    when any side is, even where another side is an error)."""
    allowed: dict[int, tuple[Shape, set[str], object]] = {}
    for term in _raw_disjuncts(node):
        tested = _tested(term, env)
        if tested is not None:
            field, values, member = tested
            allowed.setdefault(id(field), (field, set(), member))[1].update(values)
    for field, together, tested_node in allowed.values():
        if field.enum is not None and field.enum <= together:
            _note_enum(tested_node, field)
            return True
    return False


def _tested(term: object, env: Env) -> tuple[Shape, frozenset[str], object] | None:
    """(the enum field, the values that make `term` true, the field's node) for `x == 'v'`, `'v' == x` and
    `x in ['v', ...]` on a field that is always there and has an enum."""
    term = _strip(term)
    if not (_is(term, "relation") and isinstance(term, Tree) and len(term.children) == 2
            and isinstance(term.children[0], Tree) and len(term.children[0].children) == 1):
        return None
    operator, left, right = term.children[0].data, term.children[0].children[0], term.children[1]
    if operator == "relation_in":
        known, listed = _resolve(left, env), _strings(right)
        return (known, listed, left) if known is not None and known.enum is not None and listed is not None else None
    if operator != "relation_eq":
        return None
    for member, other in ((left, right), (right, left)):
        known, text = _resolve(member, env), _fold(other, {})
        if known is not None and known.enum is not None and isinstance(text, _Text):
            return known, frozenset({text.value}), member
    return None


def _raw_disjuncts(node: object) -> list[object]:
    """The operands of a chain of `||` as written."""
    node = _strip(node)
    if isinstance(node, Tree) and node.data == "paren_expr":
        return _raw_disjuncts(node.children[0])
    if isinstance(node, Tree) and node.data == "conditionalor" and len(node.children) == 2:
        return _raw_disjuncts(node.children[0]) + _raw_disjuncts(node.children[1])
    return [node]


# -- bounds: what integers an expression takes, from the old schema's maxItems ---------------------------
#: what the branches being read have checked, so what they read cannot fail: ("size", list, n) the list has
#: more than n items, so `list[n]` is there; ("has", field) the field is set
Guards = frozenset[tuple[object, ...]]


def _ordered(symbol: str, left: tuple[int, int] | None, right: tuple[int, int] | None) -> bool | None:
    """A comparison that the two ranges decide, else None."""
    if left is None or right is None:
        return None
    if symbol in (">", ">="):
        symbol, left, right = {">": "<", ">=": "<="}[symbol], right, left
    strict = symbol == "<"
    if left[1] < right[0] or (not strict and left[1] == right[0]):
        _note(f"the left side is at most {left[1]}" if right[0] == right[1] else "the ranges never cross")
        return True
    if left[0] > right[1] or (strict and left[0] == right[1]):
        return False
    return None


def _bound(node: object, env: Env, guards: Guards) -> tuple[int, int] | None:
    """The least and greatest integer `node` is on every object described, when it is never an error there:
    literals, `+`, `size()` of a list the old schema bounds with maxItems, and `c ? a : b` where `c` checks a
    list's size or that a field is set (what `a` then reads is there)."""
    node = _strip(node)
    if not isinstance(node, Tree):
        return None
    data, children = node.data, node.children
    if data == "paren_expr":
        return _bound(children[0], env, guards)
    if data == "literal":
        value = _fold(node, {})
        return (value, value) if isinstance(value, int) and not isinstance(value, bool) else None
    if data == "addition" and len(children) == 2 and _is(children[0], "addition_add"):
        left_side = children[0]
        assert isinstance(left_side, Tree)
        left, right = _bound(left_side.children[0], env, guards), _bound(children[1], env, guards)
        return None if left is None or right is None else (left[0] + right[0], left[1] + right[1])
    if data == "expr" and len(children) == 3:
        checked = _guard(children[0], env, guards)
        if checked is None:
            return None
        then, otherwise = _bound(children[1], env, checked), _bound(children[2], env, guards)
        return None if then is None or otherwise is None else (min(then[0], otherwise[0]), max(then[1], otherwise[1]))
    listed = _sized(node)
    known = _within(listed, env, guards) if listed is not None else None
    if known is not None and known.max_items is not None:
        _note(f"{_spelled(listed, generic=True)} has at most {known.max_items} items (maxItems)")
        return known.min_items, known.max_items
    return None


def _sized(node: Tree[Token]) -> object | None:
    """`x` of `x.size()` or `size(x)`."""
    if node.data == "member_dot_arg" and len(node.children) == 2 and str(node.children[1]) == "size":
        return node.children[0]
    if node.data == "ident_arg" and len(node.children) == 2 and str(node.children[0]) == "size":
        return _only_argument(node.children[1])
    return None


def _guard(condition: object, env: Env, guards: Guards) -> Guards | None:
    """The guards that hold where `condition` is true, when it is never an error: `list.size() > n` (or `>=`)
    on a list that is there, `has(x.f)` on an object x that is there. None for any other condition."""
    condition = _strip(condition)
    if not isinstance(condition, Tree):
        return None
    if condition.data == "ident_arg" and len(condition.children) == 2 and str(condition.children[0]) == "has":
        field = _strip(_only_argument(condition.children[1]))
        if _is(field, "member_dot") and isinstance(field, Tree) and len(field.children) == 2:
            parent = _within(field.children[0], env, guards)
            if parent is not None and parent.fielded:
                return guards | {("has", field)}
        return None
    operator = condition.children[0] if condition.data == "relation" and len(condition.children) == 2 else None
    if isinstance(operator, Tree) and operator.data in ("relation_gt", "relation_ge") and len(operator.children) == 1:
        left, count = _strip(operator.children[0]), _fold(condition.children[1], {})
        listed = _sized(left) if isinstance(left, Tree) else None
        if listed is not None and isinstance(count, int) and not isinstance(count, bool) \
                and _within(listed, env, guards) is not None:
            more_than = count if operator.data == "relation_gt" else count - 1
            return guards | {("size", _strip(listed), more_than)}
    return None


def _within(node: object, env: Env, guards: Guards) -> Shape | None:
    """`_resolve`, also through what `guards` make sure of: `list[n]` of a list known to have more than n items,
    `x.f` where `has(x.f)` was checked."""
    node = _strip(node)
    if isinstance(node, Tree) and len(node.children) == 2 and node.data in ("member_dot", "member_index"):
        if node.data == "member_dot":
            parent, name = _within(node.children[0], env, guards), str(node.children[1])
            if parent is not None and (name in parent.present or (("has", node) in guards and parent.fielded)):
                return parent.member(name)
            return None
        target, index = _strip(node.children[0]), _fold(node.children[1], {})
        if isinstance(index, int) and not isinstance(index, bool) and any(
                guard[0] == "size" and guard[1] == target and isinstance(guard[2], int) and guard[2] >= index
                for guard in guards):
            listed = _within(target, env, guards)
            if listed is not None and listed.items is not None:
                return listed.items
    return _resolve(node, env)


def _spelled(node: object, generic: bool = False) -> str:
    """A field path as a rule writes it (`self.spec.type`, `self[0].matches`; `self[].matches` when `generic`),
    for proofs; `the value` for anything else."""
    node = _strip(node)
    if _is(node, "ident"):
        return str(_variable(node))
    if isinstance(node, Tree) and len(node.children) == 2 and node.data == "member_dot":
        return f"{_spelled(node.children[0], generic)}.{node.children[1]}"
    if isinstance(node, Tree) and len(node.children) == 2 and node.data == "member_index":
        index = _fold(node.children[1], {})
        return f"{_spelled(node.children[0], generic)}[{'' if generic else index}]"
    return "the value"


def _strings(node: object) -> frozenset[str] | None:
    """The strings of a list literal of string literals."""
    while isinstance(node, Tree) and node.data != "list_lit" and len(node.children) == 1:
        node = node.children[0]
    if not (_is(node, "list_lit") and isinstance(node, Tree) and node.children):
        return None
    texts = [_fold(item, {}) for item in _arguments(node.children[0])]
    return frozenset(t.value for t in texts if isinstance(t, _Text)) if all(isinstance(t, _Text) for t in texts) \
        else None


def _method(children: list[object], node: Tree[Token], env: Env) -> Folded:
    """`list.size()` of an empty list; the macros over a list or map that is always there and whose items or
    values are described, with the body folded for the variable bound to an item (or to a key)."""
    target, name = children[0], str(children[1])
    if name == "size" and len(children) == 2:
        return 0 if _fold(target, env) is EMPTY else _fold_children(node, env)
    arguments = _arguments(children[2]) if len(children) == 3 else []
    variable = _variable(arguments[0]) if len(arguments) == 2 else None
    if name not in _MACROS or variable is None:
        return _fold_children(node, env)
    if name == "all" and _keyed_unique(target, variable, arguments[1], env):
        return True
    shape = _resolve(target, env)
    bound: Shape | _Key = NOTHING_KNOWN  # still hides the same name outside
    if shape is not None and shape.items is not None:
        bound = shape.items
    elif shape is not None and shape.values is not None:
        bound = _Key(_strip(target), shape)
    body = _fold(arguments[1], {**env, variable: bound})
    if shape is not None and (shape.items is not None or shape.values is not None):
        if name == "filter" and body is False:
            return EMPTY
        if name in ("exists", "exists_one") and body is False:
            return False
        if name == "all" and body is True:
            return True
    return Tree(node.data, [_fold(target, env), children[1], Tree("exprlist", [_fold(arguments[0], env), body])])


def _keyed_unique(target: object, first: str, body: object, env: Env) -> bool:
    """`list.all(a, list.exists_one(b, a.k == b.k && ...))` on a list the old schema makes a list-map: when the
    fields compared take in all its keys and are always set, only `a` itself matches, since the API server
    keeps list-map keys unique."""
    listed = _resolve(target, env)
    if listed is None or listed.keys is None or listed.items is None:
        return False
    inner = _strip(body)
    if not (_is(inner, "member_dot_arg") and isinstance(inner, Tree) and len(inner.children) == 3
            and str(inner.children[1]) == "exists_one" and _strip(inner.children[0]) == _strip(target)):
        return False
    arguments = _arguments(inner.children[2])
    second = _variable(arguments[0]) if len(arguments) == 2 else None
    compared = _equal_fields(arguments[1], first, second) if second not in (None, first) else None
    if compared is None or not listed.keys <= compared <= listed.items.present:
        return False
    _note(f"{_spelled(target)} is a list-map keyed by {', '.join(sorted(listed.keys))}, whose keys the API server "
          "keeps unique")
    return True


def _equal_fields(node: object, first: str, second: str | None) -> frozenset[str] | None:
    """The fields k of `a.k == b.k && ...` (either way round), or None for anything else."""
    node = _strip(node)
    if isinstance(node, Tree) and node.data == "paren_expr":
        return _equal_fields(node.children[0], first, second)
    if isinstance(node, Tree) and node.data == "conditionaland" and len(node.children) == 2:
        left, right = _equal_fields(node.children[0], first, second), _equal_fields(node.children[1], first, second)
        return None if left is None or right is None else left | right
    if not (_is(node, "relation") and isinstance(node, Tree) and len(node.children) == 2
            and _is(node.children[0], "relation_eq")):
        return None
    operator = node.children[0]
    assert isinstance(operator, Tree)
    sides = [_strip(operator.children[0]), _strip(node.children[1])]
    owners, names = [], set()
    for side in sides:
        if not (_is(side, "member_dot") and isinstance(side, Tree) and len(side.children) == 2):
            return None
        owners.append(_variable(side.children[0]))
        names.add(str(side.children[1]))
    return frozenset(names) if len(names) == 1 and sorted(map(str, owners)) == sorted((first, str(second))) else None


def _fold_children(node: Tree[Token], env: Env) -> Folded:
    return Tree(node.data, [_fold(child, env) if isinstance(child, Tree) else child for child in node.children])


# -- what is known where ------------------------------------------------------------------------------------
def _resolve(node: object, env: Env) -> Shape | None:
    """What `node` is on every object described, when it is there on all of them: a variable in scope, a field
    that is always there of something resolved (`v.f`), or a map's value at one of its own keys (`m[k]` inside
    `m.all(k, ...)`). None for anything else, and for what may be missing (reading it is an error)."""
    node = _strip(node)
    if _is(node, "ident"):  # a variable bound to nothing known may be anything, even a string (`has()` errs)
        bound = env.get(str(_variable(node)))
        return bound if isinstance(bound, Shape) and bound is not NOTHING_KNOWN else None
    if not (isinstance(node, Tree) and len(node.children) == 2):
        return None
    if node.data == "member_dot":
        parent, name = _resolve(node.children[0], env), str(node.children[1])
        return parent.member(name) if parent is not None and name in parent.present else None
    if node.data == "member_index":
        key = env.get(str(_variable(node.children[1])))
        if isinstance(key, _Key) and _strip(node.children[0]) == key.target \
                and _resolve(node.children[0], env) is key.map:
            return key.map.values
    return None


def _assume(node: object, env: Env, truth: bool) -> Env:
    """What `env` says where `node` is known to be `truth` (where a guard has let the evaluation through):
    `has(x.f)` makes f present (or absent) in x when x is always there, so that the guard itself is never an
    error; `!`, `a && b` being true and `a || b` being false combine guards."""
    node = _strip(node)
    if not isinstance(node, Tree):
        return env
    data, children = node.data, node.children
    if data == "paren_expr":
        return _assume(children[0], env, truth)
    if data == "unary" and len(children) == 2 and _is(children[0], "unary_not"):
        return _assume(children[1], env, not truth)
    if data == ("conditionaland" if truth else "conditionalor") and len(children) == 2:
        return _assume(children[1], _assume(children[0], env, truth), truth)
    if data == "ident_arg" and len(children) == 2 and str(children[0]) == "has":
        return _refine(_only_argument(children[1]), env, truth)
    return env


def _never_fails(node: object, env: Env) -> bool:
    """`node` is true or false on every object, never an error: `has(x.f)` with x always there, and `!`, `&&`,
    `||` of such guards (each read where the ones before it let the evaluation through)."""
    node = _strip(node)
    if not isinstance(node, Tree):
        return isinstance(node, bool)
    data, children = node.data, node.children
    if data == "paren_expr":
        return _never_fails(children[0], env)
    if data == "unary" and len(children) == 2 and _is(children[0], "unary_not"):
        return _never_fails(children[1], env)
    if data in ("conditionalor", "conditionaland") and len(children) == 2:
        return _never_fails(children[0], env) and _never_fails(
            children[1], _assume(children[0], env, data == "conditionaland"))
    if data == "ident_arg" and len(children) == 2 and str(children[0]) == "has":
        return _guarded(_only_argument(children[1]), env) is not None
    return False


def _guarded(argument: object, env: Env) -> Tree[Token] | None:
    """The field access `x.f` that `has(argument)` tests, when x is always there and an object (so the test is
    never an error); None otherwise."""
    node = _strip(argument)
    if isinstance(node, Tree) and node.data == "member_dot" and len(node.children) == 2:
        parent = _resolve(node.children[0], env)
        return node if parent is not None and parent.fielded else None
    return None


def _refine(target: object, env: Env, present: bool) -> Env:
    """`env` with `v.f1...fn` known present or absent, v a variable and v.f1...fn-1 always there."""
    node: object = _guarded(target, env)
    if node is None:
        return env
    path: list[str] = []
    while isinstance(node, Tree) and node.data == "member_dot" and len(node.children) == 2:
        path.insert(0, str(node.children[1]))
        node = _strip(node.children[0])
    name = _variable(node)
    bound = env.get(name) if name is not None else None
    return {**env, name: _with(bound, path, present)} if name is not None and isinstance(bound, Shape) else env


def _with(shape: Shape, path: list[str], present: bool) -> Shape:
    name = path[0]
    if len(path) > 1:
        return replace(shape, fields=_Overlay(shape.fields, name, _with(shape.member(name), path[1:], present)))
    return replace(shape, present=shape.present | {name}) if present else replace(shape, absent=shape.absent | {name})


class _Overlay(Mapping[str, Shape]):
    """An object's field shapes with one of them replaced, leaving the others as they are (made when first read:
    copying them would build every sibling's shape)."""

    def __init__(self, fields: Mapping[str, Shape], name: str, shape: Shape) -> None:
        self._fields, self._name, self._shape = fields, name, shape

    def __getitem__(self, name: str) -> Shape:
        return self._shape if name == self._name else self._fields[name]

    def __iter__(self) -> Iterator[str]:
        yield from self._fields
        if self._name not in self._fields:
            yield self._name

    def __len__(self) -> int:
        return len(self._fields) + (self._name not in self._fields)


# -- reading the tree ---------------------------------------------------------------------------------------
def _strip(node: object) -> object:
    """The node under its chain of single-child wrappers (expr, conditionalor, relation, primary, ...)."""
    while isinstance(node, Tree) and len(node.children) == 1 and isinstance(node.children[0], Tree):
        node = node.children[0]
    return node


def _disjuncts(node: Folded) -> list[Folded]:
    """The operands of a chain of `||` in a folded node."""
    if isinstance(node, Tree) and node.data == "conditionalor" and len(node.children) == 2:
        return _disjuncts(node.children[0]) + _disjuncts(node.children[1])
    return [node]


def _arguments(exprlist: object) -> list[object]:
    return list(exprlist.children) if isinstance(exprlist, Tree) and exprlist.data == "exprlist" else []


def _only_argument(exprlist: object) -> object:
    arguments = _arguments(exprlist)
    return arguments[0] if len(arguments) == 1 else None


def _variable(node: object) -> str | None:
    """x when node is the bare identifier x."""
    node = _strip(node)
    if isinstance(node, Tree) and node.data == "ident" and node.children:
        return str(node.children[0])
    return None


def _is(node: object, name: str) -> bool:
    return isinstance(node, Tree) and node.data == name
