"""Both sides of a comparison, read at once when that pays: two large YAML files on a machine with two cores.

Parsing YAML is CPU-bound and holds the interpreter lock, so the old file is parsed in a forked child while this
process parses the new one; the child sends the plain data back with `marshal` (which carries exactly what the
loader builds: mappings, lists, strings, numbers, booleans, null, and shared subtrees). Any input error is
reported as if the old file had been read here; anything else the child meets makes this process read the
old file itself. Output is the same bytes either way.
"""

from __future__ import annotations

import marshal
import os
from typing import Any

from specdiff.errors import InputError
from specdiff.load import Document, Limits, folder_of, load, load_text, read_file
from specdiff.load.parse import parse_text

#: below this, forking costs more than it saves
_WORTH_FORKING = 1_000_000
_YAML = (".yaml", ".yml")


def load_pair(old: str, new: str, limits: Limits) -> tuple[Document, Document]:
    if not _both_large_yaml(old, new):
        return load(old, limits), load(new, limits)
    old_text = read_file(old, old, limits)  # read here: the child parses this very text
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child, which leaves through os._exit
        os.close(reading)
        _parse_and_send(old_text, old, limits, writing)
    os.close(writing)
    try:
        new_doc = load(new, limits)
    finally:
        with os.fdopen(reading, "rb") as answer:
            sent = answer.read()
        os.waitpid(child, 0)
    return _receive(sent, old_text, old, limits), new_doc


def _both_large_yaml(old: str, new: str) -> bool:
    if not hasattr(os, "fork") or (os.cpu_count() or 1) < 2:
        return False
    try:
        return all(name.endswith(_YAML) and os.path.isfile(name) and os.stat(name).st_size >= _WORTH_FORKING
                   for name in (old, new))
    except OSError:
        return False


def _parse_and_send(text: str, old: str, limits: Limits, fd: int) -> None:  # pragma: no cover - the child's side
    try:
        data, fmt = parse_text(text, old, limits)
        message: Any = ("data", data, fmt)
    except InputError as err:
        message = ("input-error", err.detail, err.file, err.place)
    except BaseException:  # noqa: BLE001 - the parent reads the file itself and reports what it finds
        message = ("retry",)
    try:
        payload = marshal.dumps(message)
    except ValueError:  # nested too deep for marshal: let the parent read it
        payload = marshal.dumps(("retry",))
    with os.fdopen(fd, "wb") as out:
        out.write(payload)
    os._exit(0)


def _receive(sent: bytes, text: str, old: str, limits: Limits) -> Document:
    try:
        message = marshal.loads(sent)
    except (EOFError, ValueError, TypeError):
        message = ("retry",)
    if message[0] == "input-error":
        _, detail, file, place = message
        raise InputError(detail, file=file, place=place)
    parsed = (message[1], message[2]) if message[0] == "data" else None  # else parse it here
    return load_text(text, old, folder_of(old), limits, reader=lambda path, name: read_file(path, name, limits),
                     parsed=parsed)
