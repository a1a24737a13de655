"""End-to-end: the web page in a real headless Chromium against a live server.

Chromium is the system browser (see ``browser_support.py``), driven by Playwright's Python
package; nothing is downloaded. Without the browser the tests skip locally but fail when
``CI`` is set, so CI cannot pass by skipping them.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest
from browser_support import watched_page

pytestmark = pytest.mark.browser


HAND = ["As", "Kd", "Qh", "Jc", "Ts", "9s", "8d", "7h", "6c", "5s", "4d", "3h", "2c"]
PASTED = "10h, as ♦7 Kc 2s 3d 4c 5h 6s 8c 9d Jh kS"
PASTED_CANONICAL = ["Th", "As", "7d", "Kc", "2s", "3d", "4c", "5h", "6s", "8c", "9d", "Jh", "Ks"]


@pytest.fixture(scope="module")
def live_url(app) -> Iterator[str]:
    """The app served on a free loopback port by werkzeug in a daemon thread."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)




@pytest.fixture()
def page(browser, live_url):
    with watched_page(browser, live_url, {"width": 1200, "height": 900}) as pg:
        pg.base_url = live_url  # type: ignore[attr-defined]
        yield pg


@pytest.fixture()
def capsa_route(app) -> None:
    assert any(rule.rule == "/v1/capsa/arrange" for rule in app.url_map.iter_rules())


def _open(page) -> None:
    page.goto(page.base_url + "/")
    page.wait_for_selector("#deck button.pick >> nth=51")


def _solve(page) -> None:
    page.click("#solve-btn")
    page.wait_for_selector("#arrangements li.arrangement")


def _pressed(page) -> list[str]:
    return page.eval_on_selector_all(
        '#deck button[aria-pressed="true"]', "els => els.map(e => e.dataset.card)")


def _check_arrangements(page, hand: list[str], top: int) -> None:
    items = page.locator("#arrangements li.arrangement")
    assert 1 <= items.count() <= top
    evs = []
    for i in range(items.count()):
        item = items.nth(i)
        rows = {}
        for name, size in (("front", 3), ("middle", 5), ("back", 5)):
            row = item.locator(f'.row[data-row="{name}"]')
            assert row.count() == 1
            cards = row.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)")
            assert len(cards) == size, (name, cards)
            rows[name] = cards
            kind = row.locator(".kind").inner_text().strip()
            assert kind, f"row {name} shows no hand kind"
            assert re.search(r"win \d+(\.\d+)?%", row.locator(".prob-text").inner_text())
        shown = rows["front"] + rows["middle"] + rows["back"]
        assert len(set(shown)) == 13 and sorted(shown) == sorted(hand)
        ev_text = item.locator(".ev").inner_text()
        assert re.fullmatch(r"EV [+-]?\d+\.\d{3}", ev_text), ev_text
        evs.append(float(item.locator(".ev").get_attribute("data-ev")))
    assert evs == sorted(evs, reverse=True), "arrangements must be listed best first"


def test_click_thirteen_cards_and_solve(page, capsa_route, app):
    _open(page)
    for card in HAND:
        page.click(f'#deck button[data-card="{card}"]')
    assert sorted(_pressed(page)) == sorted(HAND)
    assert page.inner_text("#count-n") == "13"
    assert page.input_value("#hand-text").split() == HAND
    # Unpicking and re-picking a card through the keyboard keeps the hand in step.
    page.focus('#deck button[data-card="As"]')
    page.keyboard.press("Space")
    assert page.inner_text("#count-n") == "12"
    page.keyboard.press("Space")
    assert page.inner_text("#count-n") == "13"
    page.select_option("#rules", "standard")
    page.select_option("#opponents", "3")
    _solve(page)
    _check_arrangements(page, HAND, top=5)
    assert page.is_hidden("#error")
    # The page shows what the API answers for the same request.
    api = app.test_client().post("/v1/capsa/arrange", json={
        "hand": " ".join(HAND), "rules": "standard", "opponents": 3, "method": "table", "top": 5})
    assert api.status_code == 200
    first = api.get_json()["arrangements"][0]
    shown = page.locator("#arrangements li.arrangement").first
    for name in ("front", "middle", "back"):
        cards = shown.locator(f'.row[data-row="{name}"] .card').evaluate_all(
            "els => els.map(e => e.dataset.card)")
        assert sorted(cards) == sorted(first[name])
    assert float(shown.locator(".ev").get_attribute("data-ev")) == pytest.approx(first["ev"])
    # One card of each rank: a dragon, shown above the rows.
    assert api.get_json()["natural"]["kind"] == "dragon"
    assert page.locator("#results .natural").inner_text().startswith("Natural: Dragon")
    assert page.locator("#summary").inner_text().startswith(
        f"{api.get_json()['valid_arrangements']:,} valid arrangements")
    # Without card removal the page asks for, and shows, the faster strategy's answer.
    plain = app.test_client().post("/v1/capsa/arrange", json={
        "hand": " ".join(HAND), "opponents": 3, "top": 5, "card_removal": False}).get_json()
    assert plain["card_removal"] is False and plain["arrangements"][0]["ev"] != first["ev"]
    page.uncheck("#card-removal")
    page.click("#solve-btn")
    page.wait_for_function(
        "ev => Math.abs(Number(document.querySelector('#arrangements li.arrangement .ev')"
        ".dataset.ev) - ev) < 1e-6", arg=plain["arrangements"][0]["ev"])


def test_paste_hand_and_solve_with_enter(page, capsa_route):
    _open(page)
    page.fill("#hand-text", PASTED)
    assert sorted(_pressed(page)) == sorted(PASTED_CANONICAL)
    page.select_option("#rules", "two-four")
    page.select_option("#opponents", "1")
    page.select_option("#top", "3")
    page.press("#hand-text", "Enter")
    page.wait_for_selector("#arrangements li.arrangement")
    _check_arrangements(page, PASTED_CANONICAL, top=3)
    assert page.locator("#results .natural").count() == 0  # a pair of kings: no natural


def test_bad_hand_shows_the_api_message(page, capsa_route, app):
    _open(page)
    page.fill("#hand-text", "As Ks Zz Qd")
    page.click("#solve-btn")
    page.wait_for_selector("#error:not([hidden])")
    shown = page.inner_text("#error").strip()
    expected = app.test_client().post(
        "/v1/capsa/arrange", json={"hand": "As Ks Zz Qd", "rules": "standard", "opponents": 3,
                                   "method": "table", "top": 5}).get_json()["error"]["message"]
    assert shown == expected and "Zz" in shown
    assert page.is_hidden("#results")
    # Fixing the hand clears the message and solves.
    page.fill("#hand-text", " ".join(HAND))
    assert page.is_hidden("#error")
    _solve(page)
    _check_arrangements(page, HAND, top=5)


def test_grid_refuses_a_fourteenth_card(page):
    _open(page)
    page.click("#random-btn")
    assert page.inner_text("#count-n") == "13"
    free = page.eval_on_selector('#deck button[aria-pressed="false"]', "e => e.dataset.card")
    page.click(f'#deck button[data-card="{free}"]')
    assert page.inner_text("#count-n") == "13"
    assert "13 cards" in page.inner_text("#error")
    page.click("#clear-btn")
    assert page.inner_text("#count-n") == "0" and _pressed(page) == []


def test_docs_page_lists_every_endpoint(page, app):
    """/docs is Swagger UI, served with its files (no outside request: ``watched_page``):
    every operation of the document, and the request body's fields of one of them."""
    spec = app.test_client().get("/openapi.json").get_json()
    page.goto(page.base_url + "/docs")
    page.wait_for_selector(".opblock")
    listed = page.eval_on_selector_all(
        ".opblock", "els => els.map(e => [e.querySelector('.opblock-summary-method').innerText,"
        " e.querySelector('.opblock-summary-path').dataset.path])")
    expected = [[method.upper(), path] for path, ops in spec["paths"].items() for method in ops]
    assert sorted(listed) == sorted(expected)
    op = page.locator('.opblock:has(.opblock-summary-path[data-path="/v1/capsa/arrange"])')
    op.locator(".opblock-summary-control").click()
    body = op.locator(".opblock-section-request-body")
    body.get_by_text("Schema", exact=True).click()
    # OpenAPI 3.1: Swagger UI draws the JSON Schema 2020-12 view, one article per level
    model = body.locator('article[data-json-schema-level="0"]')
    assert model.locator(".json-schema-2020-12__title").first.inner_text() == "ArrangeRequest"
    shown = model.locator('article[data-json-schema-level="1"] > .json-schema-2020-12-head '
                          '.json-schema-2020-12__title').all_inner_texts()
    assert sorted(shown) == sorted(spec["components"]["schemas"]["ArrangeRequest"]["properties"])
