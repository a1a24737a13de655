"""The pages' message catalogs over HTTP, for ``api/static/i18n.js``.

``GET /i18n.json`` answers the language the request asks for (``?lang=``, the ``lang``
cookie, ``Accept-Language``, English: :func:`api.i18n.choose`) and ``GET /i18n/<lang>.json``
a named one (404 ``unknown_language`` for another). Both answer ``{"lang", "languages",
"messages"}``: the catalog over the English one, so a page never shows a bare key; with an
ETag and ``no-cache``, so a page load costs a 304 once the browser has the catalog.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from api import i18n
from api.caching import revalidated
from api.endpoint import ApiError

bp = Blueprint("i18n", __name__)


def _answer(lang: str) -> ResponseReturnValue:
    body: dict[str, Any] = {
        "lang": lang,
        "languages": [{"code": code, "name": i18n.NATIVE_NAMES[code]} for code in i18n.LANGUAGES],
        "messages": dict(i18n.messages(lang)),
    }
    # the chosen language depends on the cookie and Accept-Language: a cache must key on them;
    # the browser keeps the catalog and asks again with its ETag (304 while unchanged)
    response = jsonify(body)
    response.headers["Vary"] = "Cookie, Accept-Language"
    return revalidated(response)


@bp.get("/i18n.json")
def chosen() -> ResponseReturnValue:
    return _answer(i18n.choose(request.args.get("lang"), request.cookies.get(i18n.COOKIE),
                               request.headers.get("Accept-Language")))


@bp.get("/i18n/<lang>.json")
def named(lang: str) -> ResponseReturnValue:
    if lang not in i18n.LANGUAGES:
        raise ApiError(404, "unknown_language",
                       f"no catalog for language {lang!r}: one of {', '.join(i18n.LANGUAGES)}")
    return _answer(lang)
