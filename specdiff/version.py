"""specdiff's version, in a module of its own: formatters that name it need not import the package's root,
whose `render()` imports them."""

from __future__ import annotations

__version__ = "0.1.0"
