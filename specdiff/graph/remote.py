"""Fetching a remote `$ref` over http(s): only with --allow-remote-refs, within the size limit and a timeout.

Kept apart from `specdiff.graph.refs` (which it serves) so that the HTTP client is imported only when a remote
ref is fetched. The timeout bounds the whole fetch, connecting, headers and body: a socket timeout alone bounds
each read, and a server that trickles a byte at a time never lets one time out.
"""

from __future__ import annotations

import http.client
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from http.client import HTTPException
from typing import Any
from urllib.parse import urlsplit

from specdiff.errors import InputError
from specdiff.load.document import REMOTE_SCHEMES


class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects to http and https addresses only (never to ftp or anything else)."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> urllib.request.Request | None:
        if urlsplit(newurl).scheme.lower() not in REMOTE_SCHEMES:
            raise urllib.error.HTTPError(newurl, code, f"redirect to {newurl!r} refused", headers, fp)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class _Deadline:
    """Shuts down every socket the fetch opened when the time is up, which ends any read blocked on it."""

    def __init__(self, timeout: float) -> None:
        self.expired = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(timeout, self._expire)
        self._timer.daemon = True

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)
            if self.expired:
                _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)

    def __enter__(self) -> _Deadline:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed


def _opener(deadline: _Deadline) -> urllib.request.OpenerDirector:
    """urllib's opener, with connections that hand their socket to the deadline as soon as they connect."""

    class Http(http.client.HTTPConnection):
        def connect(self) -> None:
            super().connect()
            deadline.watch(self.sock)

    class Https(http.client.HTTPSConnection):
        def connect(self) -> None:
            super().connect()
            deadline.watch(self.sock)

    class HttpHandler(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> Any:
            return self.do_open(Http, req)

    class HttpsHandler(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> Any:
            return self.do_open(Https, req)

    return urllib.request.build_opener(HttpHandler, HttpsHandler, _HttpOnlyRedirects)


def fetch(url: str, max_bytes: int, timeout: float, error: Callable[[str], InputError]) -> bytes:
    """The body at an http(s) URL, read within `timeout` seconds in all and `max_bytes`; `error(why)` makes
    the error."""
    chunks: list[bytes] = []
    size = 0
    with _Deadline(timeout) as deadline:
        try:
            with _opener(deadline).open(url, timeout=timeout) as answer:
                while chunk := answer.read1(65536):
                    size += len(chunk)
                    if size > max_bytes:
                        raise error(f"more than {max_bytes} bytes (--max-bytes)")
                    chunks.append(chunk)
            if deadline.expired:
                raise TimeoutError  # the body was cut short at the deadline
        except urllib.error.HTTPError as err:
            raise error(f"HTTP {err.code} {err.reason}") from None
        except (OSError, HTTPException, ValueError) as err:
            reason = err.reason if isinstance(err, urllib.error.URLError) else err
            if deadline.expired or isinstance(reason, TimeoutError):
                raise error(f"no answer within {timeout:g} s (--remote-ref-timeout)") from None
            raise error(str(reason) or type(reason).__name__) from None
    return b"".join(chunks)
