"""End-to-end in Chromium: on a hand whose natural is worth more than the best rows, the play
page's Hint and Best advise declaring it (the primary button), the rows stay unset, and the
review of the declared natural says what it was worth; the solver page says the same."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

SEED = 61  # the first hand of a four-seat session of seed 61 holds three flushes
HAND = "2c 3s 4c 4d 5s 7d 9s Tc Td Jc Js Qs Ac"


def _idle(page) -> None:
    page.wait_for_function("() => !document.body.hasAttribute('aria-busy')")


def _start(page, live) -> None:
    page.goto(live.url + "/static/play.html")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#game", "capsa")
    _idle(page)
    page.select_option("#players", "4")
    page.select_option("#bots", "table")
    page.evaluate("document.getElementById('more-setup').open = true")
    page.fill("#seed", str(SEED))
    page.click("#start-btn")
    page.wait_for_selector("#table:not([hidden])")
    _idle(page)


def _placed(page) -> int:
    return page.locator("#capsa-rows button.card").count()


def test_hint_and_best_advise_declaring_the_natural(page, live):
    _start(page, live)
    assert page.locator("#my-hand button.card").count() == 13
    assert "secondary" in page.get_attribute("#natural-btn", "class")  # no advice asked yet
    for how in ("hint", "best"):
        if how == "hint":
            page.keyboard.press("h")
        else:
            page.click("#best-btn")
        page.wait_for_selector("#hint-natural")
        _idle(page)
        advice = page.inner_text("#hint-natural")
        assert advice.startswith("Declare the natural (three flushes): EV +")
        assert "more than the best rows" in advice
        assert "declare the natural" in page.inner_text("#hint-box h3")
        assert _placed(page) == 0  # the rows are not filled
        assert "primary" in page.get_attribute("#natural-btn", "class")
        assert "secondary" in page.get_attribute("#set-rows-btn", "class")
    page.click("#natural-btn")
    page.wait_for_selector("#review:not([hidden])")
    text = page.inner_text("#review")
    assert "You declared a natural (three flushes): the right choice." in text
    assert "no arrangement to review" not in text
    assert page.inner_text("#review-natural").startswith("+")
    assert page.inner_text("#review-cost").startswith("0.000")
    assert page.locator("#review ol.top5 li").count() == 5


def test_the_solver_page_says_to_declare(page, live):
    page.goto(live.url + "/")
    page.wait_for_selector("#hand-text")
    page.fill("#hand-text", HAND)
    page.click("#solve-btn")
    page.wait_for_selector("#natural-advice")
    text = page.inner_text("#natural-advice")
    assert text.startswith("Natural: Three flushes (3 units per opponent). Declare it: EV +")
    assert "more than the best rows below" in text
