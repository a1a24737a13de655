"""Security headers on every answer, set once in the app so that every front passes the same.

- ``X-Content-Type-Options: nosniff``: a browser takes each answer as its declared type (a
  JSON answer holding markup is never run as a page, a text file never as a script).
- ``Content-Security-Policy``: the pages (``api/static/*.html``) load only their own files
  from this origin and call only this API; no inline script or style, no plugin, no ``<base>``,
  no framing (``frame-ancestors 'none'``, with ``X-Frame-Options: DENY`` for browsers that
  predate it). The ``/docs`` page is Swagger UI shipped whole in one page: its inline scripts
  are allowed by their hashes, taken from the page the app serves (fixed text, no request data
  in it), so no other script runs there; its styles are inline (``'unsafe-inline'`` for style
  only: Swagger UI's React also adds ``<style>`` elements at run time, which no hash of the
  page covers). Every other answer (JSON, scripts, style sheets) is no document:
  ``default-src 'none'``.
- ``Referrer-Policy: no-referrer``: nothing here reads a Referer, and the pages never send
  one to another site (the session routes already keep tokens out of URLs; this keeps the
  pages' own URLs in too).
- ``Cache-Control: no-store`` on every ``/v1/sessions`` answer: they carry a session's token
  or its per-player state, which no cache, shared or the browser's, should keep.

The fronts' own refusals (nginx's and the embedded front's 400, 413, 414, 431, 502, ...) carry
:data:`FRONT_HEADERS`: the same headers as the app's JSON answers.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from html.parser import HTMLParser

from flask import Flask, Response, request

COMMON_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
PAGE_CSP = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'")
DATA_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
FRONT_HEADERS = {**COMMON_HEADERS, "Content-Security-Policy": DATA_CSP}
NO_STORE_PREFIX = "/v1/sessions"
# Pages whose inline scripts are the app's own text (no request data in them), allowed by
# hash: the Swagger UI page.
INLINE_PAGES = frozenset({"meta.docs"})


class _InlineScripts(HTMLParser):
    """The text of each inline ``<script>`` of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.scripts: list[str] = []
        self._parts: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script" and not dict(attrs).get("src"):
            self._parts = []

    def handle_data(self, data: str) -> None:
        if self._parts is not None:
            self._parts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._parts is not None:
            self.scripts.append("".join(self._parts))
            self._parts = None


def _source_hash(text: str) -> str:
    # browsers hash the element's text after turning CRLF and CR into LF
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    digest = hashlib.sha256(text.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


@functools.lru_cache(maxsize=4)
def inline_page_csp(page: bytes) -> str:
    """The policy of a page whose inline scripts are trusted: those scripts, by hash, inline
    styles, and this origin's API (``connect-src``), nothing else (parsed once per page)."""
    parser = _InlineScripts()
    parser.feed(page.decode())
    parser.close()
    scripts = " ".join(sorted({_source_hash(text) for text in parser.scripts})) or "'none'"
    return (f"default-src 'none'; script-src {scripts}; style-src 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")


def _policy(response: Response) -> str:
    if response.mimetype != "text/html":
        return DATA_CSP
    if request.endpoint in INLINE_PAGES and not response.direct_passthrough:
        return inline_page_csp(response.get_data())
    return PAGE_CSP


def add_security_headers(response: Response) -> Response:
    """Add the headers an answer lacks (a route's own value wins); ``no-store`` on sessions."""
    for name, value in COMMON_HEADERS.items():
        response.headers.setdefault(name, value)
    if "Content-Security-Policy" not in response.headers:
        response.headers["Content-Security-Policy"] = _policy(response)
    if request.path == NO_STORE_PREFIX or request.path.startswith(NO_STORE_PREFIX + "/"):
        response.headers["Cache-Control"] = "no-store"
    return response


def init_security_headers(app: Flask) -> None:
    """Every answer of ``app``, errors included, gets the security headers."""
    app.after_request(add_security_headers)
