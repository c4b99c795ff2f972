"""A small headless-Chromium driver for page tests: the DevTools protocol over a pipe, no ports, no websockets.

Chromium started with --remote-debugging-pipe reads commands from fd 3 and writes replies to fd 4, each a JSON
message ended by a NUL byte. That is enough to load a page, click with a real mouse event, read what is
rendered (`document.body.innerText` leaves out what is hidden) and take a screenshot.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
# What Chromium needs on this machine: no sandbox as root, no GPU, and nothing that calls out to the network.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1200,900", "--remote-debugging-pipe"]


def available() -> bool:
    return shutil.which(CHROMIUM) is not None


class Browser:
    def __init__(self, profile: Path, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self._next = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []
        commands_read, self._commands = os.pipe()
        self._replies, replies_write = os.pipe()

        def wire_pipes() -> None:  # in the child, before exec: our pipe ends become fds 3 and 4
            read_end = fcntl.fcntl(commands_read, fcntl.F_DUPFD, 10)  # above 3 and 4, so nothing is overwritten
            write_end = fcntl.fcntl(replies_write, fcntl.F_DUPFD, 10)
            os.dup2(read_end, 3)
            os.dup2(write_end, 4)

        self.process = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank"], pass_fds=(3, 4),
            preexec_fn=wire_pipes, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable", session=True)

    def call(self, method: str, params: dict[str, Any] | None = None, session: bool = False) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        reply = self._wait(lambda m: m.get("id") == self._next)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    def open(self, url: str) -> None:
        self._events.clear()
        self.call("Page.navigate", {"url": url}, session=True)
        self._wait(lambda m: m.get("method") == "Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def click(self, selector: str) -> None:
        """A left click in the middle of the element, as the mouse would make it."""
        box = self.evaluate(f"(function () {{ var r = document.querySelector({json.dumps(selector)})"
                            ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1], "button": "left",
                                                   "clickCount": 1}, session=True)

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}, session=True)
        path.write_bytes(base64.b64decode(data["data"]))

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (RuntimeError, OSError, TimeoutError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        os.close(self._replies)

    def _wait(self, wanted: Any) -> dict[str, Any]:
        for event in self._events:
            if wanted(event):
                self._events.remove(event)
                return event
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                message = json.loads(raw)
                if wanted(message):
                    return message
                self._events.append(message)
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._replies], [], [], left)[0]:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self._replies, 1 << 16)
            if not chunk:
                raise RuntimeError(f"Chromium exited (code {self.process.poll()})")
            self._buffer += chunk
