"""Shared fixtures: the Flask app (kernels warmed once per session), its test client, one
headless Chromium for the browser tests, the served stack behind each front, and the match
benchmark as a module."""

from __future__ import annotations

import os

import pytest
from bench_support import load_benchmark
from browser_support import (
    CHROMIUM_ARGS,
    DESKTOP,
    LiveServer,
    chromium_path,
    unavailable,
    watched_page,
)
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def app():
    from api import create_app

    return create_app({"TESTING": True})


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture()
def make_app(app, tmp_path):  # ``app`` warms the kernels once
    """``make(**config)``: a test app of its own, its sessions in this test's folder."""
    from api import create_app

    def make(**config):
        cfg = {"TESTING": True, "WARMUP": False, "SESSIONS_DB": str(tmp_path / "s.sqlite3")}
        cfg.update(config)
        return create_app(cfg)
    return make


@pytest.fixture(scope="session")
def match_bench():
    """``benchmarks/bench_advise_match.py`` as a module, loaded once."""
    return load_benchmark("bench_advise_match")


@pytest.fixture(scope="session")
def browser():
    executable = chromium_path()
    if executable is None:
        unavailable("chromium is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright Python package is not installed")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def served_stacks(tmp_path_factory):
    """``served_stacks.get(front)``: the served stack behind ``front`` (a gunicorn worker, no
    compute pool, sessions of its own), started on first use and shared by the modules that
    test what a front answers (a stack costs about 2 s of CPU to start and stop); stopped at
    the end of the test process, each with exit status 0. A test that stops workers or needs
    other options starts a ``test_serve.Server`` of its own."""
    from test_serve import SharedStacks

    stacks = SharedStacks(tmp_path_factory.mktemp("stacks"))
    try:
        yield stacks
    finally:
        stacks.stop()


@pytest.fixture(scope="module")
def live(app, tmp_path_factory):  # ``app`` warms the kernels once
    """The app served on a loopback port for a browser test module, with its own sessions."""
    server = LiveServer(str(tmp_path_factory.mktemp("live") / "sessions.sqlite3"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture()
def page(browser, live):
    """A page of the live server at a desktop viewport, watched for errors."""
    with watched_page(browser, live.url, DESKTOP) as pg:
        yield pg
