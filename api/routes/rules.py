"""The rules help pages: ``GET /rules/`` lists the games, ``GET /rules/<game>`` shows a game's
rules (``capsa`` or ``capsa-susun``, ``big-two``, ``da-san``, ``da-bai-fen``), each in the
language the request asks for (``?lang=``, the ``lang`` cookie, ``Accept-Language``), from
the rules files (:mod:`api.rules_page`). An unknown game is 404 ``unknown_game``."""

from __future__ import annotations

import html

from flask import Blueprint, current_app, make_response, request
from flask.typing import ResponseReturnValue

from api import i18n
from api.caching import revalidated
from api.endpoint import ApiError
from api.rules_page import GAMES, ORDER, RULES_DIR, render, rules_file

bp = Blueprint("rules", __name__)

# the registry name of each rules file, for the page's game titles (game.<name> in the catalog)
_GAME_OF = {"capsa-susun": "capsa", "big-two": "big-two", "da-san": "da-san",
            "da-bai-fen": "da-bai-fen"}


def _lang() -> str:
    return i18n.choose(request.args.get("lang"), request.cookies.get(i18n.COOKIE),
                       request.headers.get("Accept-Language"))


def _page(lang: str, title: str, body: str) -> ResponseReturnValue:
    def t(key: str) -> str:
        return html.escape(i18n.t(lang, key))

    nav = " · ".join(f'<a href="{href}" data-i18n="{key}">{t(key)}</a>' for href, key in (
        ("/", "nav.solver"), ("/static/play.html", "nav.play"),
        ("/static/review.html", "nav.review"), ("/rules/", "nav.rules")))
    page = f"""<!doctype html>
<html lang="{lang}" data-rendered-lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css">
<script type="module" src="/static/i18n.js"></script>
</head>
<body>
<a class="skip" href="#rules-main">{t("rules.skip")}</a>
<header class="top">
  <h1>{html.escape(title)}</h1>
  <nav>{nav}</nav>
</header>
<main id="rules-main" class="rules">
{body}
</main>
</body>
</html>
"""
    response = make_response(page, 200, {"Content-Type": "text/html; charset=utf-8",
                                         "Vary": "Cookie, Accept-Language",
                                         "Content-Language": lang})
    return revalidated(response)


@bp.get("/rules/")
def index() -> ResponseReturnValue:
    lang = _lang()
    items = "".join(
        f'<li><a href="/rules/{name}">{html.escape(i18n.t(lang, "game." + _GAME_OF[name]))}</a></li>'
        for name in ORDER)
    body = (f'<section class="panel"><p>{html.escape(i18n.t(lang, "rules.intro"))}</p>'
            f'<ul class="rules-games">{items}</ul></section>')
    return _page(lang, i18n.t(lang, "rules.title"), body)


@bp.get("/rules/<game>")
def game(game: str) -> ResponseReturnValue:
    lang = _lang()
    root = current_app.config.get("RULES_DIR", RULES_DIR)
    if game not in GAMES:
        raise ApiError(404, "unknown_game", f"no rules for {game!r}: one of "
                       f"{', '.join(sorted(GAMES))}")
    found = rules_file(game, lang, root)
    if found is None:  # an install without the docs folder
        raise ApiError(404, "rules_missing", f"the rules files are not installed (no {root})")
    body = render(found.path.read_text(encoding="utf-8"))
    note = "" if found.lang == lang else (
        f'<p class="notice">{html.escape(i18n.t(lang, "rules.english_only"))}</p>')
    title = i18n.t(lang, "rules.of", game=i18n.t(lang, "game." + _GAME_OF[found.game]))
    return _page(lang, title, f'{note}<article class="panel" lang="{found.lang}">{body}</article>')
