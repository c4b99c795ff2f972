"""Record classes made without running `dataclasses.dataclass` at each start.

A dataclass compiles its `__init__`, and for a frozen class its `__setattr__` and `__delattr__`, from source
text, and inspects every field's annotation: for the 44 record classes a small comparison imports, that was a
tenth of its instructions. `record` makes the same class (a dataclass to `dataclasses.fields`, `replace` and
`asdict`) with the methods that are the same for every record as closures over its fields: only `__init__` is
still compiled, from a shorter text."""

from __future__ import annotations

import dataclasses
from dataclasses import MISSING, Field, FrozenInstanceError, fields
from functools import cache
from operator import attrgetter
from reprlib import recursive_repr
from types import FunctionType
from typing import TYPE_CHECKING, Any, TypeVar

from specdiff.record_inits import COMPILED

__all__ = ["record", "refilled"]

T = TypeVar("T")

if TYPE_CHECKING:  # what a reader, and mypy, should take it for
    from dataclasses import dataclass as record
else:
    def record(cls=None, /, *, init=True, repr=True, eq=True, order=False, frozen=False, slots=False):
        """`dataclasses.dataclass` with these options (the ones records use), making the same class.

        Unlike a dataclass, a record without a docstring is left without one (a dataclass writes its
        signature there), and its fields are plain string annotations (`from __future__ import
        annotations`): no `ClassVar`, `InitVar`, `KW_ONLY` or keyword-only field."""
        options = {"init": init, "repr": repr, "eq": eq, "order": order, "frozen": frozen, "slots": slots}

        def wrap(cls):
            return _made(cls, **options)

        return wrap if cls is None else wrap(cls)


def _made(cls: Any, *, init: bool, repr: bool, eq: bool, order: bool, frozen: bool, slots: bool) -> Any:
    if any(hasattr(base, "__dataclass_fields__") for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__qualname__}: a record does not extend another dataclass")
    every = _fields(cls)
    if slots:
        cls = _slotted(cls, every)
    names = tuple(f.name for f in every)
    cls.__dataclass_fields__ = dict(zip(names, every, strict=True))
    cls.__dataclass_params__ = _parameters(init=init, repr=repr, eq=eq, order=order, frozen=frozen, slots=slots)
    own = cls.__dict__
    if init and "__init__" not in own:
        cls.__init__ = _init(cls, every)
    # most records leave every field to `__init__`, `__repr__`, `__eq__` and `__hash__`: their names serve all four
    plain = all(f.init and f.repr and f.compare and f.hash is None for f in every)
    if "__match_args__" not in own:
        cls.__match_args__ = names if plain else tuple(f.name for f in every if f.init)  # type: ignore[misc]
    if repr and "__repr__" not in own:
        cls._shown_fields = names if plain else tuple(f.name for f in every if f.repr)
        cls.__repr__ = _repr
    compared = _key(names if plain else tuple(f.name for f in every if f.compare))
    if eq:
        hashed = compared if plain else _key(tuple(f.name for f in every if (f.compare if f.hash is None else f.hash)))
        _with_equality(cls, compared, hashed, frozen)
    if order:
        _with_order(cls, compared)
    if frozen:
        _with_frozen_guards(cls, frozenset(names), slots)
    return cls


def _fields(cls: Any) -> list[Field[Any]]:
    """The class's fields, as `dataclass` reads them from its annotations and class attributes; a class
    attribute that is a `field(...)` is replaced with its default, as `dataclass` does. Every record class of a
    run passes here at start, so the common case, a plain annotation with or without a plain default, takes
    the fewest steps."""
    own = cls.__dict__
    # the class's own annotations: read from its dictionary up to Python 3.13; from 3.14 (PEP 649) the dictionary
    # holds them only as an implementation detail, and the attribute reads them (not a base's: the class has some)
    annotations = own.get("__annotations__") or (cls.__annotations__ if "__annotate__" in own else {})
    for name, value in own.items():
        if isinstance(value, Field) and name not in annotations:
            raise TypeError(f"{cls.__qualname__}.{name} is a field but has no type annotation")
    every = []
    defaulted = False  # whether an earlier field of `__init__` has a default
    misplaced = None  # the first field of `__init__` without one after one with one
    for name, annotation in annotations.items():
        if not isinstance(annotation, str) or (("ClassVar" in annotation or "InitVar" in annotation
                                                 or "KW_ONLY" in annotation)
                                                and annotation.split(".")[-1].startswith(_SPECIAL)):
            raise TypeError(f"{cls.__qualname__}.{name}: a record's fields are plain annotations ({annotation!r})")
        default = own.get(name, MISSING)
        if isinstance(default, Field):
            made = default
            if made.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, made.default)
            if made.kw_only is True:
                raise TypeError(f"{cls.__qualname__}.{name}: a record's fields are not keyword-only")
        else:
            made = dataclasses.field(default=default)
        made.name, made.type = name, annotation
        made._field_type = dataclasses._FIELD  # type: ignore[attr-defined]  # what `fields()` lists
        made.kw_only = False  # (as `dataclass` leaves it, for a class that is not keyword-only)
        if made.default is not MISSING and made.default.__class__.__hash__ is None:
            raise ValueError(f"{cls.__qualname__}.{name}: mutable default {type(made.default)}: use "
                             "default_factory")
        if made.init:
            if made.default is not MISSING or made.default_factory is not MISSING:
                defaulted = True
            elif defaulted and misplaced is None:
                misplaced = name
        every.append(made)
    if misplaced is not None:
        raise TypeError(f"{cls.__qualname__}: non-default argument {misplaced!r} follows default argument")
    return every


#: the annotations `dataclass` treats as other than a field, which a record refuses
_SPECIAL = ("ClassVar", "InitVar", "KW_ONLY")


def _slotted(cls: Any, every: list[Field[Any]]) -> Any:
    """The class again with `__slots__` for its fields, as `dataclass(slots=True)` makes it."""
    names = tuple(f.name for f in every)
    body = {key: value for key, value in cls.__dict__.items()
            if key not in names and key not in ("__dict__", "__weakref__")}
    body["__slots__"] = names
    made = type(cls)(cls.__name__, cls.__bases__, body)
    made.__qualname__ = cls.__qualname__
    return made


@cache
def _parameters(**options: bool) -> Any:
    """The `__dataclass_params__` of a dataclass with these options, which `pprint` reads. Their class is private
    and its attributes change between Python versions, so they are those of an empty dataclass with these options
    set."""
    given = _empty_parameters()
    made = object.__new__(type(given))
    for name in type(given).__slots__:
        setattr(made, name, options.get(name, getattr(given, name)))
    return made


@cache
def _empty_parameters() -> Any:
    """The `__dataclass_params__` of an empty dataclass made with no method to compile, made once rather than once
    for each set of options (five in a comparison, 0.1 M instructions each)."""
    empty: Any = dataclasses.dataclass(type("Empty", (), {"__doc__": "(not inspected for a signature)"}),
                                       init=False, repr=False, eq=False)
    return empty.__dataclass_params__


def _init(cls: Any, every: list[Field[Any]]) -> Any:
    """The `__init__` `dataclass` would write. A class with a `__dict__` gets it filled in one step rather than
    through `object.__setattr__` once a field: records are made by the hundred thousand (docs/performance.md).

    Its text names no default (a function's defaults are its own, not its code's), so the code compiled with the
    package for that text (`record_inits.py`) serves; compiling the 40-odd texts at each start took 6 ms."""
    scope: dict[str, object] = {"_set": object.__setattr__, "_MISSING": MISSING}
    parameters, defaults, made, values = [], [], [], []
    for f in every:
        if f.default is not MISSING:
            scope[f"_default_{f.name}"] = f.default
        elif f.default_factory is not MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
        if f.init:
            parameters.append(f.name)
            if f.default is not MISSING:
                defaults.append(f.default)
            elif f.default_factory is not MISSING:
                defaults.append(MISSING)
                made.append(f"    if {f.name} is _MISSING:\n        {f.name} = _factory_{f.name}()\n")
            values.append((f.name, f.name))
        elif f.default is not MISSING:
            values.append((f.name, f"_default_{f.name}"))
        elif f.default_factory is not MISSING:
            values.append((f.name, f"_factory_{f.name}()"))
    if hasattr(cls, "__slots__"):
        made.extend(f"    _set(self, {name!r}, {value})\n" for name, value in values)
    elif values:
        made.append(f"    _set(self, '__dict__', {{{', '.join(f'{name!r}: {value}' for name, value in values)}}})\n")
    if hasattr(cls, "__post_init__"):
        made.append("    self.__post_init__()\n")
    source = f"def __init__(self, {', '.join(parameters)}):\n{''.join(made) or '    pass'}\n"
    INIT_TEXTS.setdefault(source, cls.__module__)
    code = COMPILED.get(source)
    if code is None:
        exec(source, scope)  # noqa: S102 - the text is made from the class's own field names, as dataclasses does
        compiled: Any = scope.pop("__init__")
        code = compiled.__code__
    init: Any = FunctionType(code, scope, "__init__", tuple(defaults) or None)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


#: every `__init__` text made in this process, with the module of the first class made from it (`init_texts`
#: imports every module of specdiff to make all of theirs)
INIT_TEXTS: dict[str, str] = {}


def init_texts() -> str:
    """The text of `record_inits.py`: each record class's `__init__` as `_init` writes it, in text order, and a map
    from the text to its code. `make docs` writes it; a record edited since is compiled at start, as before."""
    import importlib
    import pkgutil
    from pathlib import Path

    for module in pkgutil.walk_packages([str(Path(__file__).parent)], "specdiff."):
        if module.name != "specdiff.__main__":  # (which runs the command)
            importlib.import_module(module.name)
    parts = ['"""The `__init__` of each record class (specdiff/frozen.py), by its text: written by `make docs`, '
             'not edited by hand.\nThe names they read are given when a record class is made."""\n'
             "# mypy: ignore-errors\n\n"
             "from types import CodeType\n\n"
             "COMPILED: dict[str, CodeType] = {}\n"]
    for text in sorted(text for text, module in INIT_TEXTS.items() if module.startswith("specdiff.")):
        parts.append(f"\n\n{text}\nCOMPILED[{text!r}] = __init__.__code__\n")  # (each text ends in a blank line)
    return "".join(parts)


def write_inits() -> None:
    """`make docs`: write `record_inits.py` beside this module."""
    from pathlib import Path

    Path(__file__).with_name("record_inits.py").write_text(init_texts(), encoding="utf-8")


def _with_equality(cls: Any, compared: Any, hashed: Any, frozen: bool) -> None:
    """`__eq__` and `__hash__` as `dataclass` adds them, where the class writes none of its own."""
    own = cls.__dict__
    written = own.get("__hash__", MISSING)  # (a class that writes `__eq__` has `__hash__ = None` from Python)
    explicit = not (written is MISSING or (written is None and "__eq__" in own))
    if "__eq__" not in own:
        def __eq__(self: Any, other: Any) -> Any:
            if other is self:  # (as a tuple compares a field with itself: a record taken over is one object)
                return True
            if other.__class__ is self.__class__:
                return compared(self) == compared(other)
            return NotImplemented

        cls.__eq__ = __eq__
    if frozen and not explicit:
        cls.__hash__ = lambda self: hash(hashed(self))
    elif not frozen and not explicit:
        cls.__hash__ = None  # (mutable and compared by value: unhashable)


def _with_order(cls: Any, compared: Any) -> None:
    """`__lt__`, `__le__`, `__gt__` and `__ge__`: the compared fields as a tuple, between records of one class."""
    def ordering(name: str, test: Any) -> Any:
        def method(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return test(compared(self), compared(other))
            return NotImplemented

        method.__name__ = name
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        return method

    for name, test in (("__lt__", tuple.__lt__), ("__le__", tuple.__le__), ("__gt__", tuple.__gt__),
                       ("__ge__", tuple.__ge__)):
        if name in cls.__dict__:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}. Consider using "
                            "functools.total_ordering")
        setattr(cls, name, ordering(name, test))


def _with_frozen_guards(cls: Any, names: frozenset[str], slots: bool) -> None:
    """Assigning or deleting a field raises `FrozenInstanceError`; a slotted record pickles by its values."""
    for name in ("__setattr__", "__delattr__"):
        if name in cls.__dict__:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    cls.__setattr__, cls.__delattr__ = __setattr__, __delattr__
    if slots:
        cls.__getstate__ = lambda self: [getattr(self, f.name) for f in fields(self)]
        cls.__setstate__ = _set_state


def _set_state(self: Any, state: list[Any]) -> None:
    for f, value in zip(fields(self), state, strict=True):
        object.__setattr__(self, f.name, value)


def _key(names: tuple[str, ...]) -> Any:
    """The tuple of these attributes of a record, as the methods `dataclass` writes compare and hash it."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    return lambda self: ()


@recursive_repr()
def _repr(self: Any) -> str:
    """The `__repr__` `dataclass` writes, one function for every record (the fields it shows are the class's):
    a wrapper and a closure made for each class cost 20,000 instructions a class at each start."""
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown_fields)
    return f"{self.__class__.__qualname__}({shown})"


#: the record classes `refilled` has copied a record of
_REFILLED: set[type] = set()


def refilled(made: T, **changes: Any) -> T:
    """`dataclasses.replace` for a record with a `__dict__` and no `__post_init__`: its attributes copied as one
    dictionary with `changes` (`replace` reads the class's fields and calls `__init__` with each, several times
    the cost, for the thousand parameters a Kubernetes document repeats with only their pointers their own). A
    value a `cached_property` keeps is copied too: change no field it is made from."""
    kind, made_fields = type(made), made.__dict__
    if kind not in _REFILLED:  # (asked once for each class)
        assert not hasattr(kind, "__post_init__"), kind
        _REFILLED.add(kind)
    fields = {**made_fields, **changes}
    if len(fields) != len(made_fields):  # a change that names no field of it, as `replace` refuses one
        unknown = changes.keys() - made_fields.keys()
        raise TypeError(f"{kind.__qualname__} has no field {sorted(unknown)[0]!r}")
    copy = object.__new__(kind)
    object.__setattr__(copy, "__dict__", fields)
    return copy
