"""Validators for the answers that stay the same until the service is updated: the docs page,
the OpenAPI document and the pages and files under ``/static`` (Flask's own file serving
gives those an ETag and ``no-cache``).

Each gets a strong ETag of its bytes and ``Cache-Control: no-cache``: a browser keeps the
answer and asks again with ``If-None-Match``, and the service answers 304 with no body while
the bytes are unchanged. The names are not fingerprinted, so no answer may be kept without
asking (``max-age``), or an updated page would meet an old script. Both fronts compress
these answers (:mod:`api.proxy`), turning the ETag weak as nginx does; a weak ETag sent back
still matches (``If-None-Match`` compares weakly).
"""

from __future__ import annotations

import functools
import hashlib

from flask import Response, request

REVALIDATE = "no-cache"


@functools.lru_cache(maxsize=8)
def etag_of(body: bytes) -> str:
    """The ETag of a body (kept for the few fixed bodies this module serves: the docs page
    is 2 MB)."""
    return hashlib.sha256(body).hexdigest()[:32]


def revalidated(response: Response, etag: str | None = None) -> Response:
    """``response`` with a strong ETag (``etag``, else one of its body), ``no-cache``, and
    turned into a 304 when the request's ``If-None-Match`` holds that ETag."""
    response.headers["Cache-Control"] = REVALIDATE
    response.set_etag(etag or etag_of(response.get_data()))
    response.make_conditional(request)  # in place: a 304 keeps this response's headers
    return response
