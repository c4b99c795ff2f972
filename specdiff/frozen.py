"""A quicker constructor for the frozen records the graph makes by the ten thousand."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, TypeVar

T = TypeVar("T")


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
