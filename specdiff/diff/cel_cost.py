"""What the Kubernetes API server estimates a CRD validation rule costs, so that a rule it would refuse is found.

The figures are Kubernetes' own: the API server refuses a CRD whose rule costs more than `RULE_BUDGET`
(`StaticEstimatedCostLimit`) once multiplied by how many times it can run, or whose rules together cost more than
`CRD_BUDGET` (`StaticEstimatedCRDCostLimit`), k8s.io/apiextensions-apiserver `pkg/apis/apiextensions/validation`.
A rule's cost is cel-go's static estimate (`checker/cost.go`: 1 per identifier and field read, a comprehension is
its range size times its step and condition, `matches` is the string length times a tenth times the regex length
times a quarter, `==` of strings a tenth of the shorter one...) with Kubernetes' library costs
(k8s.io/apiserver `pkg/cel/library/cost.go`) and presence tests free. Sizes come from the schema as Kubernetes'
`SchemaDeclType` reads it (k8s.io/apiserver `pkg/cel/common/schemas.go`): `maxItems`, `maxProperties`, four bytes
per character of `maxLength`, the longest enum value, and for what is unbounded the 3 MiB request divided by the
smallest serialized item (`estimateMaxArrayItemsFromMinSize`, `estimateMaxStringLengthPerRequest`). A rule inside
lists or maps runs once per item: its cost is multiplied by their `maxItems` and `maxProperties`, or, when one is
unbounded, by the 3 MiB request divided by the smallest serialized form of the rule's node (`maxCardinality`).

What this module cannot follow as the API server does (a function it does not model, a field the schema does not
expose) gives no estimate: the rule is unchecked, neither within nor over budget.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

from lark import Token, Tree

from specdiff.diff.cel import parse
from specdiff.frozen import record

RULE_BUDGET = 10_000_000
CRD_BUDGET = 100_000_000
MAX_REQUEST_BYTES = 3 * 1024 * 1024
#: what Kubernetes counts as one rule's share worth naming when the total is over budget (1 % of it)
NOTABLE = CRD_BUDGET // 100
_MAX = 2 ** 64 - 1  # cel-go's unknown size, and where its arithmetic saturates
_SCALARS = frozenset({"int", "uint", "double", "bool", "duration", "timestamp", "null"})


@record(frozen=True, eq=False)
class Decl:
    """A value's type as Kubernetes declares it to CEL: its kind, its largest size (`MaxElements`: characters,
    items, entries; 0 for objects and scalars read from the schema) and its smallest serialized size."""

    kind: str  # object, map, list, string, bytes, int, uint, double, bool, duration, timestamp, null, dyn
    size: int = 0
    min_size: int = 0
    fields: Mapping[str, Decl] = field(default_factory=dict)
    elem: Decl | None = None
    least: int = 0  # its smallest size (a literal's own; 0 for what the schema declares)


class Unchecked(Exception):
    """The rule reads or calls something the estimate does not follow."""


def decl(schema: Any, root: bool = False, memo: dict[tuple[int, bool], Decl | None] | None = None) -> Decl | None:
    """The schema as Kubernetes declares it to CEL (`SchemaDeclType`), or None where it exposes nothing; `memo`
    keeps what was read of each schema object, for the many rules of one CRD version."""
    if memo is None:
        memo = {}
    key = (id(schema), root)
    if key not in memo:
        memo[key] = _declared(schema, root, memo)
    return memo[key]


def _declared(schema: Any, root: bool, memo: dict[tuple[int, bool], Decl | None]) -> Decl | None:
    if not isinstance(schema, dict):
        return None
    if schema.get("x-kubernetes-int-or-string") is True:
        length = _count(schema.get("maxLength"))
        return Decl("dyn", length * 4 if length is not None else MAX_REQUEST_BYTES - 2, 1)
    kind = schema.get("type")
    if root or schema.get("x-kubernetes-embedded-resource") is True:
        schema = _with_type_and_object_meta(schema)
    if kind == "array":
        items = decl(schema.get("items"), _embedded(schema.get("items")), memo)
        if items is None:
            return None
        limit = _count(schema.get("maxItems"))
        return Decl("list", limit if limit is not None else (MAX_REQUEST_BYTES - 2) // (items.min_size + 1), 2,
                    elem=items)
    if kind == "object":
        values = schema.get("additionalProperties")
        if isinstance(values, dict):
            inner = decl(values, _embedded(values), memo)
            if inner is None:
                return None
            limit = _count(schema.get("maxProperties"))
            return Decl("map", limit if limit is not None else (MAX_REQUEST_BYTES - 2) // (inner.min_size + 6), 2,
                        elem=inner)
        return _object(schema, memo)
    if kind == "string":
        return _string(schema)
    return {"boolean": Decl("bool", 0, 4), "number": Decl("double", 0, 1), "integer": Decl("int", 0, 1)}.get(
        str(kind))


def _object(schema: dict[str, Any], memo: dict[tuple[int, bool], Decl | None]) -> Decl:
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    required = schema.get("required")
    required = set(required) if isinstance(required, list) else set()
    fields, min_size = {}, 2  # `{}`
    for name, prop in properties.items():
        found = decl(prop, _embedded(prop), memo)
        if found is None:
            continue
        fields[str(name)] = found
        if name in required and isinstance(prop, dict) and prop.get("default") is None:
            min_size += len(str(name)) + found.min_size + 4  # "name": value,
    return Decl("object", 0, min_size, fields)


def _string(schema: dict[str, Any]) -> Decl:
    length, text_format = _count(schema.get("maxLength")), schema.get("format")
    if text_format == "byte":
        return Decl("bytes", length if length is not None else MAX_REQUEST_BYTES - 2, 2)
    if text_format == "duration":
        return Decl("duration", 32, 3)
    if text_format in ("date", "date-time"):
        return Decl("timestamp", 12 if text_format == "date" else 32, 12 if text_format == "date" else 21)
    enum = schema.get("enum")
    if length is not None:
        size = length * 4  # maxLength counts characters, the request bytes: up to four per character
    elif isinstance(enum, list) and enum:
        size = max((len(v) for v in enum if isinstance(v, str)), default=0)
    else:
        size = MAX_REQUEST_BYTES - 2
    return Decl("string", size, 2)


#: what every resource's root lets a rule read (module constants: `decl` remembers schemas by their identity)
_TEXT: dict[str, Any] = {"type": "string"}
_META: dict[str, Any] = {"type": "object", "properties": {"name": _TEXT, "generateName": _TEXT}}


def _with_type_and_object_meta(schema: dict[str, Any]) -> dict[str, Any]:
    """A resource's root: `apiVersion`, `kind` and `metadata.name` / `generateName` are always readable."""
    properties = dict(schema.get("properties") or {})
    meta = properties.get("metadata")
    inner = meta.get("properties") if isinstance(meta, dict) else None
    named = [properties.get("kind"), properties.get("apiVersion"),
             *(inner.get(n) for n in ("name", "generateName") if isinstance(inner, dict))]
    if isinstance(meta, dict) and meta.get("type") == "object" and isinstance(inner, dict) and all(
            isinstance(p, dict) and p.get("type") == "string" for p in named) and len(named) == 4:
        return schema
    properties.update(kind=_TEXT, apiVersion=_TEXT, metadata=_META)
    return {**schema, "properties": properties}


def _embedded(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("x-kubernetes-embedded-resource") is True


def _count(value: Any) -> int | None:
    return max(value, 0) if isinstance(value, int) and not isinstance(value, bool) else None


def cardinality(ancestors: Sequence[Any], node: Decl) -> int:
    """How many times a rule on `node` can run in one object: the product of the `maxItems` and `maxProperties`
    of the lists and maps above it (`ancestors`, root first), else the request size over the node's smallest
    serialized form plus a comma."""
    product = 1
    for schema in ancestors:
        if not isinstance(schema, dict):
            continue
        kind = schema.get("type")
        if kind == "array" or (kind == "object" and schema.get("additionalProperties") is not None):
            limit = _count(schema.get("maxItems" if kind == "array" else "maxProperties"))
            if limit is None:
                return MAX_REQUEST_BYTES // (node.min_size + 1)
            product = _mul(product, limit)
    return product


def estimate(rule: object, node: Decl | None) -> int | None:
    """cel-go's largest estimated cost of `rule` on a value of type `node` (`self` and `oldSelf`), or None when it
    cannot be estimated."""
    tree = parse(rule) if isinstance(rule, str) else None
    if tree is None or node is None:
        return None
    try:
        return _Coster({"self": node, "oldSelf": node}).cost(tree)[0]
    except (Unchecked, RecursionError):
        return None


# -- the estimate --------------------------------------------------------------------------------------------
Costed = tuple[int, Decl]  # the cost of an expression and the type of its value
_UNKNOWN_TEXT = Decl("string", _MAX)
_BOOL, _COUNT = Decl("bool", 1), Decl("int", 1)
#: the parts of a duration or timestamp, each read in constant time
_ACCESSORS = frozenset({"getHours", "getMinutes", "getSeconds", "getMilliseconds", "getDate", "getDayOfMonth",
                        "getDayOfWeek", "getDayOfYear", "getFullYear", "getMonth"})
_MACROS = {"all": (1, 3), "exists": (1, 4), "exists_one": (2, 2), "filter": (11, 13), "map": (11, 12)}


class _Coster:
    def __init__(self, env: dict[str, Decl]) -> None:
        self.env = env

    def cost(self, node: object) -> Costed:
        node = _unwrap(node)
        if isinstance(node, Token):
            raise Unchecked(str(node))
        if not isinstance(node, Tree):
            raise Unchecked(repr(node))
        data, kids = node.data, node.children
        handler = getattr(self, f"_{data}", None)
        if handler is None:
            raise Unchecked(str(data))
        result: Costed = handler(kids)
        return result

    # primaries
    def _literal(self, kids: list[Any]) -> Costed:
        token = kids[0]
        kind = token.type if isinstance(token, Token) else ""
        if kind in ("STRING_LIT", "MLSTRING_LIT"):
            length = _text_length(str(token))
            return 0, Decl("string", length, least=length)
        if kind == "BYTES_LIT":
            return 0, Decl("bytes", _text_length(str(token)[1:]))
        return 0, Decl({"INT_LIT": "int", "UINT_LIT": "uint", "FLOAT_LIT": "double", "BOOL_LIT": "bool",
                        "NULL_LIT": "null"}.get(kind, "dyn"), 1)

    def _ident(self, kids: list[Any]) -> Costed:
        bound = self.env.get(str(kids[0]))
        if bound is None:
            raise Unchecked(str(kids[0]))
        return 1, bound

    def _paren_expr(self, kids: list[Any]) -> Costed:
        return self.cost(kids[0])

    def _list_lit(self, kids: list[Any]) -> Costed:
        items = [self.cost(item) for item in _arguments(kids[0] if kids else None)]
        elem = Decl("dyn", max((d.size for _, d in items), default=0))
        return _add(10, *(c for c, _ in items)), Decl("list", len(items), elem=elem)

    def _map_lit(self, kids: list[Any]) -> Costed:
        entries = [self.cost(item) for item in (kids[0].children if kids and isinstance(kids[0], Tree) else [])]
        return _add(30, *(c for c, _ in entries)), Decl("map", len(entries) // 2)

    # operators
    def _expr(self, kids: list[Any]) -> Costed:  # cond ? a : b
        (test, _), (then, first), (otherwise, second) = (self.cost(k) for k in kids)
        kind = first.kind if first.kind == second.kind else "dyn"
        return _add(test, max(then, otherwise)), Decl(kind, max(first.size, second.size), elem=first.elem,
                                                      fields=first.fields)

    def _conditionalor(self, kids: list[Any]) -> Costed:
        return _add(self.cost(kids[0])[0], self.cost(kids[1])[0]), _BOOL

    _conditionaland = _conditionalor

    def _unary(self, kids: list[Any]) -> Costed:
        inner, kind = self.cost(kids[1])
        return _add(1, inner), kind if isinstance(kids[0], Tree) and kids[0].data == "unary_neg" else _BOOL

    def _relation(self, kids: list[Any]) -> Costed:
        operator = kids[0]
        assert isinstance(operator, Tree)
        (left, ltype), (right, rtype) = self.cost(operator.children[0]), self.cost(kids[1])
        arguments = _add(left, right)
        if operator.data == "relation_in":
            return _add(arguments, rtype.size if rtype.kind == "list" else 1), _BOOL
        textual = ltype.kind in ("string", "bytes") and rtype.kind in ("string", "bytes")
        if operator.data in ("relation_eq", "relation_ne") or textual:
            return _add(arguments, _factor(min(ltype.size, rtype.size), 0.1)), _BOOL
        return _add(arguments, 1), _BOOL

    def _addition(self, kids: list[Any]) -> Costed:
        operator = kids[0]
        assert isinstance(operator, Tree)
        (left, ltype), (right, rtype) = self.cost(operator.children[0]), self.cost(kids[1])
        size = _add(ltype.size, rtype.size)
        if operator.data == "addition_add" and ltype.kind in ("string", "bytes"):
            return _add(left, right, _factor(size, 0.1)), Decl(ltype.kind, size)
        if operator.data == "addition_add" and ltype.kind == "list":
            return _add(left, right, 1), Decl("list", size, elem=ltype.elem)
        return _add(left, right, 1), Decl(ltype.kind if ltype.kind in _SCALARS else "dyn", 1)

    def _multiplication(self, kids: list[Any]) -> Costed:
        operator = kids[0]
        assert isinstance(operator, Tree)
        (left, ltype), (right, _) = self.cost(operator.children[0]), self.cost(kids[1])
        return _add(left, right, 1), Decl(ltype.kind, 1)

    # members
    def _member_dot(self, kids: list[Any]) -> Costed:
        cost, owner = self.cost(kids[0])
        return _add(cost, 1), _field(owner, str(kids[1]))

    def _member_index(self, kids: list[Any]) -> Costed:
        (cost, owner), (index, _) = self.cost(kids[0]), self.cost(kids[1])
        if owner.elem is None:
            raise Unchecked("index")
        return _add(cost, index, 1), owner.elem

    def _ident_arg(self, kids: list[Any]) -> Costed:
        name, arguments = str(kids[0]), _arguments(kids[1] if len(kids) > 1 else None)
        if name == "has" and len(arguments) == 1:
            target = _unwrap(arguments[0])
            if not (isinstance(target, Tree) and target.data == "member_dot"):
                raise Unchecked("has")
            _field(self.cost(target.children[0])[1], str(target.children[1]))
            return self.cost(target.children[0])[0], _BOOL  # a presence test costs nothing more in Kubernetes
        costed = [self.cost(argument) for argument in arguments]
        total = _add(*(c for c, _ in costed)) if costed else 0
        if name == "size" and len(costed) == 1:
            return _add(total, 1), _COUNT
        if name == "dyn" and len(costed) == 1:
            return _add(total, 1), costed[0][1]
        if name in ("int", "uint", "double", "bool", "string", "duration", "timestamp", "type", "matches"):
            kind = "string" if name == "string" else name if name in _SCALARS else "dyn"
            return _add(total, 1), Decl(kind, _MAX if kind == "string" else 1)
        raise Unchecked(name)

    def _member_dot_arg(self, kids: list[Any]) -> Costed:
        name, arguments = str(kids[1]), _arguments(kids[2] if len(kids) > 2 else None)
        if name in _MACROS:
            return self._macro(name, kids[0], arguments)
        target, owner = self.cost(kids[0])
        costed = [self.cost(argument) for argument in arguments]
        args = _add(*(c for c, _ in costed)) if costed else 0
        call = _method(name, owner, [d for _, d in costed])
        return _add(target, args, call[0]), call[1]

    def _macro(self, name: str, target: object, arguments: list[object]) -> Costed:
        if len(arguments) not in (2, 3) or (len(arguments) == 3 and name != "map"):
            raise Unchecked(name)
        variable = _unwrap(arguments[0])
        if not (isinstance(variable, Tree) and variable.data == "ident"):
            raise Unchecked(name)
        range_cost, over = self.cost(target)
        if over.kind == "list" and over.elem is not None:
            bound = over.elem
        elif over.kind == "map":
            bound = Decl("string", 0)  # a map's keys: Kubernetes declares them without a size
        else:
            raise Unchecked(name)
        inner = _Coster({**self.env, str(variable.children[0]): bound})
        bodies = [inner.cost(argument) for argument in arguments[1:]]
        fixed, step = _MACROS[name]
        per_item = _add(step, *(c for c, _ in bodies))
        if name in ("all", "exists", "exists_one"):
            result = _BOOL
        else:
            result = Decl("list", over.size, elem=bodies[-1][1] if name == "map" else bound)
        return _add(range_cost, fixed, _mul(over.size, per_item)), result


def _method(name: str, owner: Decl, arguments: list[Decl]) -> Costed:
    """The cost of a member function beyond its target and arguments, and its result (cel-go's defaults with
    Kubernetes' library estimates)."""
    size, sizes = owner.size, [argument.size for argument in arguments]
    if name == "replace" and owner.kind == "string" and len(arguments) >= 2:
        return _factor(size, 0.2), Decl("string", _replaced(size, arguments[0], arguments[1]))
    if name == "join" and owner.kind == "list" and owner.elem is not None:
        joined = _mul(size, owner.elem.size)
        if sizes:
            joined = _add(joined, _mul(sizes[0], max(size - 1, 0)))
        return _factor(joined, 0.1), Decl("string", joined)
    if name == "size" and not sizes:
        return 1, _COUNT
    if name in _ACCESSORS and owner.kind in ("duration", "timestamp"):
        return 1, _COUNT
    if name in ("hasValue", "value", "orValue"):  # an optional `oldSelf` (`optionalOldSelf`): constant time
        return 1, _BOOL if name == "hasValue" else owner
    if name == "matches" and len(sizes) == 1:
        return _mul(_factor(_add(size, 1), 0.1), _factor(sizes[0], 0.25)), _BOOL
    if name == "contains" and len(sizes) == 1:
        return _mul(_factor(size, 0.1), _factor(sizes[0], 0.1)), _BOOL
    if name in ("startsWith", "endsWith") and len(sizes) == 1:
        return _factor(sizes[0], 0.1), _BOOL
    if name in ("lowerAscii", "upperAscii", "trim", "substring") and owner.kind == "string":
        return _factor(size, 0.1), Decl("string", size)
    if name in ("find", "findAll") and sizes:
        found = Decl("string", size) if name == "find" else Decl("list", size, elem=Decl("string", size))
        return _mul(_factor(_add(size, 1), 0.1), _factor(sizes[0], 0.25)), found
    if name == "split" and owner.kind == "string":
        return _factor(size, 0.2), Decl("list", size, elem=_UNKNOWN_TEXT)
    if name in ("indexOf", "lastIndexOf", "isSorted", "sum", "min", "max"):
        if owner.kind == "list" and owner.elem is not None:
            each = _add(1, _factor(owner.elem.size, 0.1)) if owner.elem.kind in ("string", "bytes") else 1
            return _mul(size, each), (owner.elem if name in ("sum", "min", "max") else _COUNT)
        if owner.kind == "string" and name in ("indexOf", "lastIndexOf"):
            return _factor(size, 0.1), _COUNT
    raise Unchecked(name)


def _replaced(size: int, old: Decl, new: Decl) -> int:
    """The longest result of `replace` (Kubernetes' estimate): every shortest match replaced by the longest
    replacement, or each character surrounded when the text replaced may be empty."""
    if old.least == 0:
        return _add(_mul(_add(size, 1) if size < _MAX else size, new.size), size)
    if new.size <= old.least:
        return size
    return _mul(math.ceil(size / old.least), new.size)


def _field(owner: Decl, name: str) -> Decl:
    """The type of `owner.name`. On a map, Kubernetes' size lookup finds no field: a scalar counts as 1 and
    anything else as unknown (an index, `m['name']`, finds the map's values instead)."""
    if owner.kind == "map" and owner.elem is not None:
        elem = owner.elem
        return Decl(elem.kind, 1 if elem.kind in _SCALARS else _MAX, elem.min_size, elem.fields, elem.elem)
    found = owner.fields.get(_unescaped(name)) if owner.kind == "object" else None
    if found is None:
        raise Unchecked(name)
    return found


_ESCAPES = (("__underscores__", "__"), ("__dot__", "."), ("__dash__", "-"), ("__slash__", "/"))


def _unescaped(name: str) -> str:
    """A property name as the schema writes it, from the identifier a rule reads it by (`__dash__` for `-`)."""
    if name.startswith("__") and name.endswith("__") and name.strip("_").isalpha() and name.count("__") == 2:
        keyword = name[2:-2]
        if keyword not in ("underscores", "dot", "dash", "slash"):
            return keyword
    for escaped, plain in _ESCAPES:
        name = name.replace(escaped, plain)
    return name


def _text_length(literal: str) -> int:
    """The characters of a string literal, its quotes and prefix taken off (an escape counted as one)."""
    raw = literal[:1] in "rR"
    body = literal[1:] if raw else literal
    quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
    body = body[len(quote):len(body) - len(quote)]
    if raw:
        return len(body)
    count, at = 0, 0
    while at < len(body):
        at += 2 if body[at] == "\\" else 1
        count += 1
    return count


def _unwrap(node: object) -> object:
    while isinstance(node, Tree) and len(node.children) == 1 and node.data not in (
            "literal", "ident", "list_lit", "map_lit", "paren_expr"):
        node = node.children[0]
    return node


def _arguments(exprlist: object) -> list[object]:
    return list(exprlist.children) if isinstance(exprlist, Tree) and exprlist.data == "exprlist" else []


def _add(*values: int) -> int:
    return min(sum(values), _MAX)


def _mul(left: int, right: int) -> int:
    return min(left * right, _MAX)


def _factor(value: int, factor: float) -> int:
    """cel-go's `multiplyByCostFactor`: the product rounded up, saturating."""
    product = math.ceil(float(value) * factor)
    return _MAX if product >= 2 ** 64 else product
