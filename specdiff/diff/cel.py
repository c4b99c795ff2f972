"""What CEL validation rules say, from cel-python's parse tree: whether one rule only widens another, and whether
a rule holds on every object that lacks the fields a release adds.

A rule that does not parse proves nothing: it widens nothing and may reject anything.
"""

from __future__ import annotations

from functools import lru_cache

from celpy.celparser import CELParser
from lark import Token, Tree

_ROOTS = ("self", "oldSelf")


@lru_cache(maxsize=4096)
def parse(rule: str) -> Tree[Token] | None:
    """The parse tree, or None for anything that is not a CEL expression."""
    try:
        tree = CELParser().parse(rule)
    except Exception:  # cel-python raises its own and lark's errors; malformed input must never crash
        return None
    return tree if isinstance(tree, Tree) else None


def _root(node: object) -> str | None:
    """`self` or `oldSelf` when node is that bare identifier (through single-child wrappers)."""
    node = _strip(node)
    if isinstance(node, Tree) and node.data == "ident" and node.children and str(node.children[0]) in _ROOTS:
        return str(node.children[0])
    return None


def _strip(node: object) -> object:
    """The node under its chain of single-child wrappers (expr, conditionalor, relation, primary, ...)."""
    while isinstance(node, Tree) and len(node.children) == 1 and isinstance(node.children[0], Tree):
        node = node.children[0]
    return node


def _disjuncts(node: object) -> list[object]:
    """The operands of a chain of `||` (through parentheses), each stripped of its wrappers."""
    if isinstance(node, Tree) and node.data == "conditionalor" and len(node.children) == 2:
        return _disjuncts(node.children[0]) + _disjuncts(node.children[1])
    inner = _strip(node)
    if isinstance(inner, Tree) and inner.data == "paren_expr":
        return _disjuncts(inner.children[0])
    if isinstance(inner, Tree) and inner.data == "conditionalor" and inner is not node:
        return _disjuncts(inner)
    return [inner]


def widens(old: object, new: object) -> bool:
    """The new rule is the old one OR-ed with more (every `||` operand of the old is one of the new)."""
    before = parse(old) if isinstance(old, str) else None
    after = parse(new) if isinstance(new, str) else None
    if before is None or after is None:
        return False
    wider = _disjuncts(after)
    return all(term in wider for term in _disjuncts(before))


def holds_without(rule: object, absent: frozenset[str], fixed: dict[str, frozenset[str]]) -> bool:
    """The rule is true on every object that lacks the fields `absent` and whose field f, when in `fixed`, is
    always set to one of those strings: `has(self.f)` is false for an absent f, `self.f == 'x'` false for a
    fixed f without 'x', and `!`, `&&`, `||` and `?:` combine what is known (anything else is unknown)."""
    tree = parse(rule) if isinstance(rule, str) else None
    return tree is not None and _value(tree, absent, fixed) is True


def _value(node: object, absent: frozenset[str], fixed: dict[str, frozenset[str]]) -> bool | None:
    """True, False, or None when unknown, of a node on every object described by `absent` and `fixed`."""
    def value(child: object) -> bool | None:
        return _value(child, absent, fixed)

    if not isinstance(node, Tree):
        return None
    if node.data == "expr" and len(node.children) == 3:  # cond ? a : b
        test = value(node.children[0])
        return None if test is None else value(node.children[1 if test else 2])
    if node.data in ("conditionalor", "conditionaland") and len(node.children) == 2:
        left, right = value(node.children[0]), value(node.children[1])
        decisive = node.data == "conditionalor"  # true decides an OR, false an AND (CEL ignores errors then)
        if decisive in (left, right):
            return decisive
        return None if None in (left, right) else not decisive
    if node.data == "unary" and len(node.children) == 2 and _is(node.children[0], "unary_not"):
        inner = value(node.children[1])
        return None if inner is None else not inner
    if node.data == "ident_arg" and len(node.children) == 2 and str(node.children[0]) == "has":
        field = _field(node.children[1])
        return False if field in absent else None
    if node.data == "literal" and node.children and str(node.children[0]) in ("true", "false"):
        return str(node.children[0]) == "true"
    if node.data == "relation" and len(node.children) == 2 and isinstance(node.children[0], Tree):
        return _compare(node.children[0], node.children[1], fixed)
    if len(node.children) == 1:
        return value(node.children[0])
    if node.data == "paren_expr":
        return value(node.children[0])
    return None


def _compare(operator: Tree[Token], right: object, fixed: dict[str, frozenset[str]]) -> bool | None:
    """`self.f == 'x'` (or `!=`) for a field f that always holds one of fixed[f]."""
    if operator.data not in ("relation_eq", "relation_ne") or len(operator.children) != 1:
        return None
    field, literal = _field(operator.children[0]), _strip(right)
    if field not in fixed or not isinstance(literal, Tree) or literal.data != "literal":
        return None
    text = str(literal.children[0]) if literal.children else ""
    if len(text) < 2 or text[0] not in "'\"" or text[-1] != text[0] or "\\" in text:
        return None
    if text[1:-1] in fixed[field]:
        return None
    return operator.data == "relation_ne"


def _field(node: object) -> str | None:
    """f when node is `self.f` (through wrappers and an argument list of one)."""
    node = _strip(node)
    if isinstance(node, Tree) and node.data == "member_dot" and len(node.children) == 2 and _root(node.children[0]):
        return str(node.children[1]) if _root(node.children[0]) == "self" else None
    return None


def _is(node: object, name: str) -> bool:
    return isinstance(node, Tree) and node.data == name
