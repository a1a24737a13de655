"""Shared fixtures: the Flask app (kernels warmed once per session), its test client, one
headless Chromium for the browser tests, and the match benchmark as a module."""

from __future__ import annotations

import os

import pytest
from bench_support import load_benchmark
from browser_support import CHROMIUM_ARGS, chromium_path, unavailable
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
