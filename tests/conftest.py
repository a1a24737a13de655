"""Shared fixtures: the Flask app (kernels warmed once per session) and its test client."""

from __future__ import annotations

import os

import pytest
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
