"""The browser of the end-to-end tests: the system Chromium driven by Playwright's Python
package, nothing downloaded. Without it the tests skip locally but fail when ``CI`` is set, so
CI cannot pass by skipping them."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

TIMEOUT_MS = 30_000
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DESKTOP = {"width": 1200, "height": 900}  # the viewport of the browser tests
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def unavailable(reason: str) -> None:
    """Skip, or fail when ``CI`` is set."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the end-to-end browser test must not be skipped)")
    pytest.skip(reason)


def chromium_path() -> str | None:
    for path in CHROMIUM_CANDIDATES:
        if os.path.exists(path):
            return path
    return shutil.which("chromium")


@contextmanager
def watched_page(browser: Any, base_url: str, viewport: dict[str, int],
                 **options: Any) -> Iterator[Any]:
    """A page that may reach only ``base_url`` (and data:/blob: URLs); after the test, no
    outside request, page error or console error (Chromium's log of a 4xx answer aside, an
    error answer being part of the error flow) may have happened. ``options`` go to the
    browser context (``locale="vi-VN"``, ``has_touch=True``, ...)."""
    context = browser.new_context(viewport=viewport, **options)
    outside: list[str] = []

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith(base_url) or url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            outside.append(url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type == "error" and "status of 4" not in m.text else None)
    yield page
    context.close()
    assert not outside, f"the page requested outside resources: {outside}"
    assert not problems, problems


class LiveServer:
    """The app (sessions in the SQLite file ``db``) on a loopback port in a daemon thread;
    ``restart()`` stops it and serves a new app on the same port and the same database file
    (a restart of the service)."""

    def __init__(self, db: str):
        self.db = db
        self.port = 0
        self._start()

    def _start(self) -> None:
        from werkzeug.serving import make_server

        from api import create_app

        self.app = create_app({"TESTING": True, "WARMUP": False, "SESSIONS_DB": self.db})
        self.server = make_server("127.0.0.1", self.port, self.app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

    def restart(self) -> None:
        self.stop()
        self._start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"
