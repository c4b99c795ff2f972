"""Records made quicker: classes whose comparison, hash and text are not compiled at each start, and a quicker
constructor for the frozen records the graph makes by the ten thousand."""

from __future__ import annotations

import dataclasses
from dataclasses import MISSING, fields
from operator import attrgetter
from reprlib import recursive_repr
from typing import TYPE_CHECKING, Any, TypeVar

__all__ = ["filled_at_once", "record"]

T = TypeVar("T")

if TYPE_CHECKING:  # what a reader, and mypy, should take it for
    from dataclasses import dataclass as record
else:
    def record(cls=None, /, *, eq=True, repr=True, **options):
        """`dataclasses.dataclass`, with the same options and the same methods, but `__eq__`, `__hash__` and
        `__repr__` made as closures over the fields instead of compiled from text.

        Python 3.11 compiles each method a dataclass writes from source, six for a frozen class: for the fifty
        record classes a run imports, that compiling was a tenth of a small comparison's instructions. The
        comparison, the hash and the text are the same for every record, so only the constructor and the
        frozen guards are still written per class."""
        def wrap(cls):
            made = dataclasses.dataclass(cls, eq=False, repr=False, **options)
            return _with_methods(made, eq, repr, options.get("frozen", False), options.get("unsafe_hash", False))

        return wrap if cls is None else wrap(cls)


def _with_methods(cls: Any, eq: bool, shown: bool, frozen: bool, unsafe_hash: bool) -> Any:
    """The methods `dataclass` would add with these options, where the class writes none of its own."""
    own = cls.__dict__
    every = fields(cls)
    if shown and "__repr__" not in own:
        cls.__repr__ = _repr(tuple(f.name for f in every if f.repr))
    if not eq:
        return cls
    written = own.get("__hash__", MISSING)  # (a class that writes `__eq__` has `__hash__ = None` from Python)
    explicit = not (written is MISSING or (written is None and "__eq__" in own))
    if "__eq__" not in own:
        compared = _key(tuple(f.name for f in every if f.compare))

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return compared(self) == compared(other)
            return NotImplemented

        cls.__eq__ = __eq__
    if unsafe_hash or (frozen and not explicit):
        hashed = _key(tuple(f.name for f in every if (f.compare if f.hash is None else f.hash)))
        cls.__hash__ = lambda self: hash(hashed(self))
    elif not frozen and not explicit:
        cls.__hash__ = None  # (mutable and compared by value: unhashable)
    return cls


def _key(names: tuple[str, ...]) -> Any:
    """The tuple of these attributes of a record, as the methods `dataclass` writes compare and hash it."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    return lambda self: ()


def _repr(names: tuple[str, ...]) -> Any:
    @recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def filled_at_once(cls: type[T]) -> type[T]:
    """A frozen dataclass whose `__init__` sets the instance's attributes in one step, as one dictionary.

    The one `dataclass(frozen=True)` writes sets each field through `object.__setattr__`, a call per field: the
    graph of a Kubernetes spec makes about 20,000 media types, responses and parameters, and those calls were a
    seventh of building it. Equality, hashing, `replace` and refusing assignment stay the dataclass's own."""
    given = [f for f in fields(cls) if f.init]  # type: ignore[arg-type]
    # a field left out of __init__ is one __post_init__ sets
    assert all(f.init or f.default is f.default_factory is MISSING for f in fields(cls)), cls  # type: ignore[arg-type]
    names = [f.name for f in given]
    scope: dict[str, object] = {"_set": object.__setattr__, "_MISSING": MISSING}
    parameters, made = [], []
    for f in given:
        if f.default is not MISSING:
            scope[f"_default_{f.name}"] = f.default
            parameters.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            parameters.append(f"{f.name}=_MISSING")
            made.append(f"    if {f.name} is _MISSING:\n        {f.name} = _factory_{f.name}()\n")
        else:
            parameters.append(f.name)
    values = ", ".join(f"{name!r}: {name}" for name in names)
    source = (f"def __init__(self, {', '.join(parameters)}):\n{''.join(made)}"
              f"    _set(self, '__dict__', {{{values}}})\n"
              + ("    self.__post_init__()\n" if hasattr(cls, "__post_init__") else ""))
    exec(source, scope)  # noqa: S102 - the text is made from the class's own field names, as dataclasses does
    init: Any = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 - (mypy refuses assigning a method)
    return cls
