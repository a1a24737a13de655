"""Property-based fuzz of the whole HTTP API against its own ``/openapi.json`` (schemathesis).

Every documented operation is exercised in-process through the Flask app (WSGI), with valid
and invalid bodies generated from the schema, and every schemathesis check on
(``tests/schemathesis.toml``): never a 5xx, only documented status codes and content types,
bodies that match the documented response schema, schema-invalid input rejected with a 4xx,
schema-valid input accepted (200, or 422 when the game refuses it: never a 400), and 405 with
``Allow`` for a method an operation does not have. Nothing is excluded: an operation that
appears in the document is fuzzed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig

from api import create_app

# Bounded so the whole module stays well under a minute on two cores; a longer run:
# CAPSA_FUZZ_EXAMPLES=500 pytest tests/test_api_fuzz.py
MAX_EXAMPLES = int(os.environ.get("CAPSA_FUZZ_EXAMPLES", "25"))
CONFIG_FILE = Path(__file__).with_name("schemathesis.toml")

# The schema is read from the app at import (schemathesis' lazy ``from_fixture`` loader does
# not run under pytest 9); this app skips the warm-up, which the session ``app`` fixture
# does once for the process (compiled kernels are shared by every app).
FUZZ_APP = create_app({"TESTING": True, "WARMUP": False})
schema = schemathesis.openapi.from_wsgi("/openapi.json", FUZZ_APP,
                                        config=SchemathesisConfig.from_path(CONFIG_FILE))


@pytest.fixture(autouse=True, scope="module")
def _warm_kernels(app):
    """Compile the kernels before fuzzing so no example pays the compile time."""


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate()


def test_every_check_is_on():
    """The settings file turns every check on, positive data acceptance included."""
    checks = schema.config.checks_config_for(operation=None, phase=None)
    assert checks.positive_data_acceptance.enabled and checks.negative_data_rejection.enabled
    assert set(checks.positive_data_acceptance.expected_statuses) == {"2xx", "422"}


def test_every_route_is_documented(app):
    """The fuzz only reaches what /openapi.json lists, so every JSON route must be in it."""
    documented = set(app.test_client().get("/openapi.json").get_json()["paths"])
    # pages, files and the Prometheus text figures: not JSON; the pages' message catalogs
    # (files for the pages, not an API: their hostile input is fuzzed below)
    undocumented_ok = {"/", "/docs", "/static/<path:filename>", "/metrics", "/rules/",
                       "/rules/<game>", "/i18n.json", "/i18n/<lang>.json"}
    routes = {rule.rule for rule in app.url_map.iter_rules()}
    missing = sorted(r.replace("<", "{").replace(">", "}") for r in routes - undocumented_ok
                     if r not in documented)
    assert not missing, f"routes missing from /openapi.json (the fuzz cannot reach them): {missing}"


@settings(max_examples=60, deadline=None)
@given(segment=st.text(max_size=40), query=st.text(max_size=40), cookie=st.text(max_size=40),
       accept=st.text(max_size=80))
def test_pages_and_catalogs_never_fail_on_what_a_client_sends(app, segment, query, cookie,
                                                              accept):
    """The routes outside /openapi.json (the rules pages, the message catalogs) with any path
    segment, ?lang=, lang cookie and Accept-Language: an answer or a 4xx, never a 5xx."""
    from urllib.parse import quote
    client = app.test_client()
    # any bytes a header can carry (a client cannot send a line break inside one)
    raw = accept.encode("utf-8", "surrogatepass").decode("latin-1")
    headers = {"Accept-Language": raw.replace("\r", " ").replace("\n", " ")}
    client.set_cookie("lang", quote(cookie, safe=""))
    for path in (f"/i18n/{quote(segment, safe='')}.json", f"/rules/{quote(segment, safe='')}",
                 "/i18n.json", "/rules/", "/"):
        r = client.get(path, query_string={"lang": query}, headers=headers)
        assert r.status_code < 500, (path, r.status_code)
