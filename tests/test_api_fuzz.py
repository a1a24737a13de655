"""Property-based fuzz of the whole HTTP API against its own ``/openapi.json`` (schemathesis).

Every documented operation is exercised in-process through the Flask app (WSGI), with
valid and invalid bodies generated from the schema. Checks: never a 5xx, only documented
status codes and content types, bodies that match the documented response schema, and
schema-invalid input rejected with a 4xx. Nothing is excluded: an operation that appears
in the document is fuzzed.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from api import create_app

# Bounded so the whole module stays well under a minute on two cores.
MAX_EXAMPLES = 50

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


# The schema is read from the app at import (schemathesis' lazy ``from_fixture`` loader does
# not run under pytest 9); this app skips the warm-up, which the session ``app`` fixture
# does once for the process (compiled kernels are shared by every app).
FUZZ_APP = create_app({"TESTING": True, "WARMUP": False})
schema = schemathesis.openapi.from_wsgi("/openapi.json", FUZZ_APP)


@pytest.fixture(autouse=True, scope="module")
def _warm_kernels(app):
    """Compile the kernels before fuzzing so no example pays the compile time."""


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_openapi_document(case):
    case.call_and_validate(checks=CHECKS)


def test_every_route_is_documented(app):
    """The fuzz only reaches what /openapi.json lists, so every JSON route must be in it."""
    documented = set(app.test_client().get("/openapi.json").get_json()["paths"])
    undocumented_ok = {"/", "/docs", "/static/<path:filename>"}
    routes = {rule.rule for rule in app.url_map.iter_rules()}
    missing = sorted(r.replace("<", "{").replace(">", "}") for r in routes - undocumented_ok
                     if r not in documented)
    assert not missing, f"routes missing from /openapi.json (the fuzz cannot reach them): {missing}"
