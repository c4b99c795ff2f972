"""The pull-request comment the GitHub action keeps: one per spec, created once and updated on every push.

Talks to the REST API at `$GITHUB_API_URL` with urllib, so the action needs nothing beyond Python on the runner.
A comment is ours when its first line is the marker naming the spec and the token's user wrote it: comments by
people, or by other bots quoting the marker, are never edited.
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import quote

from specdiff.frozen import record
from specdiff.report.markdown import MARKER, code_span

#: what GET /user cannot tell for the Actions token (an app installation token has no user): its comments'
#: author is this bot
ACTIONS_BOT = "github-actions[bot]"
_NEXT = re.compile(r'<([^>]+)>;\s*rel="next"')
_MAX_PAGES = 50  # 5,000 comments: a bound on what a hostile pull request can make the action read


class ApiError(Exception):
    """A REST call that failed; the action warns and goes on (the job summary has the report)."""


def marker(spec: str) -> str:
    """The hidden first line that names the spec, so two specs in one repository keep two comments."""
    name = quote(spec, safe="/._~@+=,")  # no `-->`, no line break: the comment cannot be closed early
    if len(name) > 200:
        name = f"{name[:150]}#{hashlib.sha256(spec.encode()).hexdigest()[:16]}"
    return f"<!-- specdiff: {name} -->"


def comment(spec: str, report: str) -> str:
    """The body posted for SPEC: its marker in place of the report's generic one. `github-comment --print`
    prints this very text, so what a user previews is what the pull request gets."""
    return marker(spec) + "\n" + report.removeprefix(MARKER + "\n")


def failure_report(message: str) -> str:
    """The comment when specdiff could not compare: it replaces an earlier verdict, which no longer holds."""
    reason = code_span(message.strip() or "no message")
    return ("### specdiff: API compatibility\n\n**The comparison failed**, so this pull request was not checked: "
            f"{reason}\n")


@record(frozen=True)
class Api:
    url: str
    token: str
    timeout: float = 30.0

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[Any, str]:
        """One request: the decoded JSON answer and the Link header (pagination)."""
        address = path if path.startswith(("http://", "https://")) else f"{self.url.rstrip('/')}/{path}"
        request = urllib.request.Request(address, method=method, data=None if body is None else json.dumps(
            body).encode("utf-8"), headers={"Authorization": f"Bearer {self.token}", "User-Agent": "specdiff",
                                            "Accept": "application/vnd.github+json",
                                            "X-GitHub-Api-Version": "2022-11-28", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:  # noqa: S310 - the API's URL
                return json.loads(answer.read() or b"null"), answer.headers.get("Link", "")
        except urllib.error.HTTPError as err:
            raise ApiError(f"{method} {path}: HTTP {err.code}") from None
        except (urllib.error.URLError, OSError, ValueError) as err:
            raise ApiError(f"{method} {path}: {getattr(err, 'reason', err)}") from None


def login(api: Api) -> str:
    """Who the token writes as: GET /user, or the Actions bot for the job's own token, which has no user."""
    try:
        user, _ = api.call("GET", "user")
    except ApiError:
        return ACTIONS_BOT
    return str(user.get("login")) if isinstance(user, dict) and user.get("login") else ACTIONS_BOT


def publish(api: Api, repository: str, number: int, spec: str, report: str) -> str:
    """Create or update the spec's comment; says which it did."""
    head = marker(spec)
    body = comment(spec, report)
    author = login(api)
    path: str | None = f"repos/{repository}/issues/{number}/comments?per_page=100"
    for _ in range(_MAX_PAGES):
        if path is None:
            break
        comments, link = api.call("GET", path)
        for found in comments if isinstance(comments, list) else []:
            text, user = found.get("body") or "", (found.get("user") or {}).get("login")
            if user == author and text.split("\n", 1)[0] == head:
                api.call("PATCH", f"repos/{repository}/issues/comments/{int(found['id'])}", {"body": body})
                return f"updated comment {int(found['id'])}"
        following = _NEXT.search(link)
        path = following.group(1) if following and following.group(1).startswith(api.url.rstrip("/") + "/") else None
    created, _ = api.call("POST", f"repos/{repository}/issues/{number}/comments", {"body": body})
    return f"posted comment {int(created['id'])}" if isinstance(created, dict) and "id" in created else "posted"
