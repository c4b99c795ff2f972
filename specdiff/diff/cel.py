"""What CEL validation rules say, from cel-python's parse tree, about the objects the old schema allows: whether a
changed rule accepts every such object the old rule accepted, and whether an added rule holds on all of them.

Both questions are answered by folding what the old schema says into the expression (`Shape`): a field the old
schema does not have is absent (`has(self.cors)` is false), a required field is present (`has(self.value)` is
true), a required string enum field holds an old value (`self.type == 'CORS'` is false for a value the old enum
lacks), and each item of a list is described the same way, so `self.filter(f, f.type == 'CORS').size() <= 1`
folds to `0 <= 1`. `!`, `&&`, `||`, `?:`, the list macros (`all`, `exists`, `exists_one`, `filter`), `size` and
comparisons of known numbers combine what is known; anything else is kept as written.

A rule that does not parse proves nothing: it widens nothing and may reject anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from celpy.celparser import CELParser
from lark import Token, Tree


@dataclass(frozen=True)
class Shape:
    """What every object valid under the old schema is at one place (`self`, or an item of a list)."""

    absent: frozenset[str] = frozenset()  # fields it never has
    present: frozenset[str] = frozenset()  # fields it always has
    fixed: Mapping[str, frozenset[str]] = field(default_factory=dict)  # present fields holding one of these strings
    items: Shape | None = None  # each item, when it is a list


NOTHING_KNOWN = Shape()


@lru_cache(maxsize=4096)
def parse(rule: str) -> Tree[Token] | None:
    """The parse tree, or None for anything that is not a CEL expression."""
    try:
        tree = CELParser().parse(rule)
    except Exception:  # cel-python raises its own and lark's errors; malformed input must never crash
        return None
    return tree if isinstance(tree, Tree) else None


def holds(rule: object, shape: Shape) -> bool:
    """The rule is true on every object `shape` describes."""
    tree = parse(rule) if isinstance(rule, str) else None
    return tree is not None and _fold(tree, {"self": shape}) is True


def widens(old: object, new: object, shape: Shape = NOTHING_KNOWN) -> bool:
    """The new rule accepts every object `shape` describes that the old rule accepted: with what is known folded
    into both, the old one implies the new one (`_implies`), e.g. the new one is the old one OR-ed with more."""
    before = parse(old) if isinstance(old, str) else None
    after = parse(new) if isinstance(new, str) else None
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
Env = dict[str, Shape | None]  # what each variable in scope is (`self`, the variable of a macro)
_MACROS = ("all", "exists", "exists_one", "filter")


def _fold(node: object, env: Env) -> Folded:
    node = _strip(node)
    if not isinstance(node, Tree):
        return node
    data, children = node.data, node.children
    if data == "paren_expr":
        return _fold(children[0], env)
    if data == "expr" and len(children) == 3:  # cond ? a : b
        test = _fold(children[0], env)
        if isinstance(test, bool):
            return _fold(children[1 if test else 2], env)
        return Tree(data, [test, _fold(children[1], env), _fold(children[2], env)])
    if data in ("conditionalor", "conditionaland") and len(children) == 2:
        return _junction(data, _fold(children[0], env), _fold(children[1], env))
    if data == "unary" and len(children) == 2 and _is(children[0], "unary_not"):
        inner = _fold(children[1], env)
        return (not inner) if isinstance(inner, bool) else Tree(data, [children[0], inner])
    if data == "literal" and children:
        return _literal(str(children[0]), node)
    if data == "ident_arg" and len(children) == 2 and str(children[0]) in ("has", "size"):
        return _function(str(children[0]), children[1], node, env)
    if data == "relation" and len(children) == 2 and isinstance(children[0], Tree) and len(children[0].children) == 1:
        return _relation(children[0].data, _fold(children[0].children[0], env), _fold(children[1], env), node, env)
    if data == "member_dot_arg" and len(children) >= 2:
        return _method(children, node, env)
    return Tree(data, [_fold(child, env) if isinstance(child, Tree) else child for child in children])


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


def _literal(text: str, node: Tree[Token]) -> Folded:
    if text in ("true", "false"):
        return text == "true"
    if text.isdigit():
        return int(text)
    if len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0] and "\\" not in text and text[0] not in text[1:-1]:
        return _Text(text[1:-1])
    return _fold_children(node)


@dataclass(frozen=True)
class _Text:
    """A string literal (kept apart from lark's tokens, which are strings too)."""

    value: str


def _function(name: str, arguments: object, node: Tree[Token], env: Env) -> Folded:
    """`has(v.f)` for a field the shape of v says is absent or present; `size(x)` of an empty list."""
    argument = _only_argument(arguments)
    if name == "has":
        shape, member = _field(argument, env)
        if shape is not None and member in shape.absent:
            return False
        if shape is not None and member in shape.present:
            return True
        return _fold_children(node, env)
    return 0 if argument is not None and _fold(argument, env) is EMPTY else _fold_children(node, env)


def _relation(operator: str, left: Folded, right: Folded, node: Tree[Token], env: Env) -> Folded:
    """Comparisons of two known numbers; `v.f == 'x'` (or `!=`) for a field always set to an old value."""
    names = {"relation_eq": "==", "relation_ne": "!=", "relation_lt": "<", "relation_le": "<=",
             "relation_gt": ">", "relation_ge": ">="}
    symbol = names.get(operator)
    numbers = all(isinstance(side, int) and not isinstance(side, bool) for side in (left, right))
    if symbol is not None and numbers:
        assert isinstance(left, int) and isinstance(right, int)
        return {"==": left == right, "!=": left != right, "<": left < right, "<=": left <= right,
                ">": left > right, ">=": left >= right}[symbol]
    if symbol in ("==", "!="):
        for member, text in ((node.children[0].children[0], right), (node.children[1], left)):  # type: ignore[union-attr]
            shape, name = _field(member, env)
            known = shape.fixed.get(name) if shape is not None and name is not None else None
            if known is not None and isinstance(text, _Text) and text.value not in known:
                return symbol == "!="  # the field holds an old value, never this one
    return Tree("relation", [Tree(operator, [left]), right])


def _method(children: list[object], node: Tree[Token], env: Env) -> Folded:
    """`list.size()` of an empty list; the macros over a list whose items are described, with the body folded
    for the variable bound to an item."""
    target, name = children[0], str(children[1])
    if name == "size" and len(children) == 2:
        return 0 if _fold(target, env) is EMPTY else _fold_children(node, env)
    arguments = _arguments(children[2]) if len(children) == 3 else []
    variable = _variable(arguments[0]) if len(arguments) == 2 else None
    if name not in _MACROS or variable is None:
        return _fold_children(node, env)
    shape = _shape(target, env)
    body = _fold(arguments[1], {**env, variable: shape.items if shape is not None else None})
    if shape is not None and shape.items is not None:
        if name == "filter" and body is False:
            return EMPTY
        if name in ("exists", "exists_one") and body is False:
            return False
        if name == "all" and body is True:
            return True
    return Tree(node.data, [_fold(target, env), children[1], Tree("exprlist", [_fold(arguments[0], env), body])])


def _fold_children(node: Tree[Token], env: Env | None = None) -> Folded:
    return Tree(node.data, [_fold(child, env or {}) if isinstance(child, Tree) else child for child in node.children])


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


def _shape(node: object, env: Env) -> Shape | None:
    """What a variable in scope is."""
    name = _variable(node)
    return env.get(name) if name is not None else None


def _field(node: object, env: Env) -> tuple[Shape | None, str | None]:
    """(what v is, f) when node is `v.f` for a variable v in scope."""
    node = _strip(node)
    if isinstance(node, Tree) and node.data == "member_dot" and len(node.children) == 2:
        return _shape(node.children[0], env), str(node.children[1])
    return None, None


def _is(node: object, name: str) -> bool:
    return isinstance(node, Tree) and node.data == name
