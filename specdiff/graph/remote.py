"""Fetching a remote `$ref` over http(s): only with --allow-remote-refs, within the size limit and a timeout.

Kept apart from `specdiff.graph.refs` (which it serves) so that the HTTP client is imported only when a remote
ref is fetched.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Callable
from http.client import HTTPException
from typing import Any
from urllib.parse import urlsplit

from specdiff.errors import InputError
from specdiff.graph.refs import REMOTE_SCHEMES


class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects to http and https addresses only (never to ftp or anything else)."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> urllib.request.Request | None:
        if urlsplit(newurl).scheme.lower() not in REMOTE_SCHEMES:
            raise urllib.error.HTTPError(newurl, code, f"redirect to {newurl!r} refused", headers, fp)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def fetch(url: str, max_bytes: int, timeout: float, error: Callable[[str], InputError]) -> bytes:
    """The body at an http(s) URL, read within `timeout` seconds and `max_bytes`; `error(why)` makes the error."""
    deadline = time.monotonic() + timeout
    opener = urllib.request.build_opener(_HttpOnlyRedirects)
    chunks: list[bytes] = []
    size = 0
    try:
        with opener.open(url, timeout=timeout) as answer:
            while chunk := answer.read1(65536):
                size += len(chunk)
                if size > max_bytes:
                    raise error(f"more than {max_bytes} bytes (--max-bytes)")
                if time.monotonic() > deadline:
                    raise TimeoutError
                chunks.append(chunk)
    except urllib.error.HTTPError as err:
        raise error(f"HTTP {err.code} {err.reason}") from None
    except (TimeoutError, urllib.error.URLError) as err:
        if isinstance(err, TimeoutError) or isinstance(err.reason, TimeoutError):
            raise error(f"no answer within {timeout:g} s (--remote-ref-timeout)") from None
        raise error(str(err.reason)) from None
    except (OSError, HTTPException, ValueError) as err:
        raise error(str(err) or type(err).__name__) from None
    return b"".join(chunks)
