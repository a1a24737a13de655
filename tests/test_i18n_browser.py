"""End-to-end in Chromium: the pages take the browser's language by default, the picker in
each page's header changes it and the choice is remembered (localStorage and the cookie)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from browser_support import DESKTOP, watched_page

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PAGES = ("/", "/static/play.html", "/static/review.html")


@pytest.mark.parametrize("path", PAGES)
def test_accept_language_gives_the_page_language(browser, live, path):
    with watched_page(browser, live.url, PHONE, locale="vi-VN", has_touch=True,
                      is_mobile=True) as page:
        page.goto(live.url + path)
        page.wait_for_selector("#lang-picker")
        assert page.get_attribute("html", "lang") == "vi"
        assert page.input_value("#lang-picker") == "vi"
        assert page.inner_text("label.lang-picker").startswith("Ngôn ngữ")


def test_the_picker_is_remembered(browser, live):
    with watched_page(browser, live.url, DESKTOP, locale="en-US") as page:
        page.goto(live.url + "/")
        page.wait_for_selector("#lang-picker")
        assert page.get_attribute("html", "lang") == "en"
        with page.expect_navigation():
            page.select_option("#lang-picker", "id")
        page.wait_for_selector("#lang-picker")
        assert page.get_attribute("html", "lang") == "id"
        assert page.evaluate("localStorage.getItem('capsa.lang')") == "id"
        cookies = {c["name"]: c["value"] for c in page.context.cookies()}
        assert cookies.get("lang") == "id"
        for path in PAGES:  # every page, and after a reload
            page.goto(live.url + path)
            page.wait_for_selector("#lang-picker")
            assert page.get_attribute("html", "lang") == "id", path
        page.reload()
        page.wait_for_selector("#lang-picker")
        assert page.input_value("#lang-picker") == "id"


# ---------------------------------------------------------------- no English in the others
ARTEFACTS = Path(os.environ.get("ARTEFACTS_DIR", Path(__file__).resolve().parents[1] / "artefacts")) / "i18n"
# Names players use as they are in every language, and notation: not English words to them.
PROPER = {"capsa", "susun", "banting", "big", "two", "san", "bai", "fen", "monte", "carlo",
          "api", "http", "json", "openapi", "english", "bahasa", "indonesia", "tiếng", "việt",
          "chinese"}  # the rules cite the article "Chinese poker" by its title
# The visible text nodes of the page (what a player reads), cards' faces and code aside.
VISIBLE_TEXT = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const p = n.parentElement;
    if (!p || !n.textContent.trim() || p.closest("script, style, code, kbd, .card, [hidden]")) continue;
    if (!p.getClientRects().length || getComputedStyle(p).visibility === "hidden") continue;
    out.push(n.textContent.trim());
  }
  document.querySelectorAll("input[placeholder]").forEach((i) => out.push(i.placeholder));
  out.push(document.title);
  return out;
}"""


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", " ", text))}


def _english_words(lang: str) -> set[str]:
    """Every word of the English catalog that the other language's catalog does not use."""
    from api import i18n

    english = set().union(*(_words(t) for t in i18n.messages("en").values()))
    theirs = set().union(*(_words(t) for t in i18n.catalog(lang).messages.values()))
    return english - theirs - PROPER


def _english_on(page, lang: str, where: str) -> list[str]:
    english = _english_words(lang)
    found = sorted({f"{w!r} in {text[:80]!r}" for text in page.evaluate(VISIBLE_TEXT)
                    for w in _words(text) if w in english})
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{lang}-{where}-phone.png"), full_page=True)
    # the longer words of a language must not push the page wider than the phone
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"] + 1:
        found.append(f"the page is {width}px wide")
    return [f"{where}: {f}" for f in found]


def _idle(page) -> None:
    page.wait_for_function("() => !document.body.hasAttribute('aria-busy')")


def _drill(page, lang: str) -> list[str]:
    """The Capsa drill: a hand set as the solver sets it (keys 1, 2, 3), its answer, figures."""
    import solver

    page.evaluate("document.getElementById('new-btn').click()")
    if page.locator("#leave-ok").is_visible():
        page.click("#leave-ok")
    page.wait_for_selector("#setup:not([hidden])")
    page.select_option("#game", "capsa")
    page.select_option("#mode", "drill")
    page.click("#start-btn")
    page.wait_for_selector("#drill:not([hidden])")
    _idle(page)
    out = _english_on(page, lang, "drill")
    hand = page.locator("#drill-hand button.card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    best = solver.arrange(" ".join(hand), rules="standard", opponents=1).best.to_dict()
    for key, row in (("1", "front"), ("2", "middle"), ("3", "back")):
        for card in best[row]:
            page.locator(f'#drill-hand button[data-card="{card}"]').press(key)
    page.wait_for_selector("#set-rows-btn:not([disabled])")
    page.click("#set-rows-btn")
    page.wait_for_selector("#drill-answer:not([hidden])")
    _idle(page)
    return out + _english_on(page, lang, "drill-answer")


@pytest.mark.parametrize("lang, locale", [("id", "id-ID"), ("vi", "vi-VN")])
def test_every_page_and_a_hand_of_each_game_in_the_language(browser, live, lang, locale):
    """At a phone, in Bahasa Indonesia or Vietnamese: the solver page and an answer, a hand of
    Capsa played through to its settlement and review, a hand of Big Two, Da San and Da Bai
    Fen played through, the review page and the rules; no visible English word."""
    problems: list[str] = []
    with watched_page(browser, live.url, PHONE, locale=locale, has_touch=True,
                      is_mobile=True) as page:
        page.goto(live.url + "/")
        page.wait_for_selector("#lang-picker")
        assert page.get_attribute("html", "lang") == lang
        page.fill("#hand-text", "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h")
        page.click("#solve-btn")
        page.wait_for_selector("#arrangements li")
        problems += _english_on(page, lang, "solver")
        page.fill("#hand-text", "As As Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h")  # a card twice
        page.click("#solve-btn")
        page.wait_for_selector("#error:not([hidden])")
        from api import i18n
        assert page.inner_text("#error").startswith(i18n.t(lang, "error.invalid_cards"))
        problems += _english_on(page, lang, "solver-error")

        page.goto(live.url + "/static/play.html")
        page.wait_for_selector("body[data-ready=true]")
        problems += _english_on(page, lang, "setup")
        for game, seed in (("capsa", 7), ("big-two", 5), ("da-san", 3), ("da-bai-fen", 2)):
            if page.locator("#table:not([hidden])").count():
                page.evaluate("document.getElementById('new-btn').click()")
                ok = page.locator("#leave-ok")
                if ok.count() and ok.is_visible():
                    ok.click()
                page.wait_for_selector("#setup:not([hidden])")
            page.select_option("#game", game)
            page.evaluate("document.getElementById('more-setup').open = true")
            page.fill("#seed", str(seed))
            page.click("#start-btn")
            page.wait_for_selector("#table:not([hidden])")
            _idle(page)
            problems += _english_on(page, lang, f"{game}-start")
            if game == "big-two" and page.is_visible("#hint-btn"):  # the advisor's words
                page.click("#hint-btn")
                page.wait_for_selector("#hint-box:not([hidden])")
                _idle(page)
                problems += _english_on(page, lang, "big-two-hint")
            for _ in range(400):
                if page.locator("#result:not([hidden])").count():
                    break
                if game == "capsa":
                    page.click("#best-btn")
                    _idle(page)
                    page.wait_for_selector("#hint-box:not([hidden])")
                    problems += _english_on(page, lang, "capsa-hint")
                    primary = page.locator("#natural-btn.primary")
                    (primary if primary.count() else page.locator("#set-rows-btn")).click()
                else:
                    page.evaluate("document.getElementById('all-moves').open = true")
                    page.click("#moves button.move >> nth=0")
                _idle(page)
            page.wait_for_selector("#result:not([hidden])")
            problems += _english_on(page, lang, f"{game}-settled")
            if game == "big-two":  # the replay: its board and each move in words
                page.click("#history-list button.replay >> nth=0")
                page.wait_for_selector("#replay:not([hidden])")
                page.click("#replay-next")
                page.click("#replay-next")
                problems += _english_on(page, lang, "big-two-replay")
        page.goto(live.url + "/static/review.html")
        page.wait_for_selector("#lang-picker")
        problems += _english_on(page, lang, "review")
        page.goto(live.url + "/static/play.html")
        page.wait_for_selector("body[data-ready=true]")
        problems += _drill(page, lang)
        for name in ("capsa-susun", "big-two", "da-san", "da-bai-fen"):
            page.goto(live.url + "/rules/" + name)
            page.wait_for_selector("#lang-picker")
            assert page.get_attribute("html", "lang") == lang
            problems += _english_on(page, lang, "rules-" + name)
    assert not problems, "\n".join(problems)
