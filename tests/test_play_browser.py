"""End-to-end: the play page in a real headless Chromium against a live server whose sessions
live in a SQLite file. Each game is played through its page (long hands quickly, by taking
the first legal move the page offers); a replay; the server restarted mid-session.

Screenshots of each page at desktop and phone width are written to ``artefacts/play/`` (or
``$ARTEFACTS_DIR/play``), which git ignores. Browser discovery and the skip-or-fail rule
come from ``browser_support.py`` (the ``browser`` fixture is in ``conftest.py``).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from browser_support import DESKTOP

from solver.games import get_game
from solver.games.capsa.splits import Arrangement, is_foul

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
ARTEFACTS = Path(os.environ.get("ARTEFACTS_DIR", Path(__file__).resolve().parents[1] / "artefacts")) / "play"


# ---------------------------------------------------------------- helpers
def _symbols(card: str) -> str:
    """A card as the page's logs write it: ``Tc`` -> ``10♣``."""
    return ("10" if card[0] == "T" else card[0]) + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[card[1]]


def _open(page, live) -> None:
    page.goto(live.url + "/static/play.html")
    page.wait_for_selector("body[data-ready=true]")


def _idle(page) -> None:
    page.wait_for_function("() => !document.body.hasAttribute('aria-busy')")


def _start(page, game: str, players: int | None = None, bots: str | None = None,
           seed: int | None = None, seat_bots: dict[int, str] | None = None) -> None:
    page.select_option("#game", game)
    if players is not None:
        page.select_option("#players", str(players))
    if bots is not None:
        page.select_option("#bots", bots)
    if seat_bots or seed is not None:  # your seat, the seed, each bot: under More options
        page.evaluate("document.getElementById('more-setup').open = true")
    for seat, bot in (seat_bots or {}).items():
        page.select_option(f"#bot-seat-{seat}", bot)
    if seed is not None:
        page.fill("#seed", str(seed))
    page.click("#start-btn")
    page.wait_for_selector("#table:not([hidden])")
    _idle(page)


def _token(page) -> str:
    return page.evaluate("localStorage.getItem('capsa-play-token')")


def _view(live, page) -> dict:
    r = live.app.test_client().post("/v1/sessions/state", json={"token": _token(page)})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def _shoot(page, name: str) -> None:
    """Desktop and phone-width screenshots of the page as it is now."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(ARTEFACTS / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    assert width <= PHONE["width"] + 1, f"{name}: the page is {width}px wide at phone width"


def _all_moves(page) -> None:
    """Open the fallback list of every legal move (the picker by cards is the way in)."""
    page.evaluate("document.getElementById('all-moves').open = true")


def _play_first_moves(page, until: str = "#result:not([hidden])", limit: int = 400) -> int:
    """Take the first legal move the page offers until ``until`` shows; how many moves."""
    for n in range(limit):
        if page.locator(until).count():
            return n
        _all_moves(page)
        page.click("#moves button.move >> nth=0")
        _idle(page)
    raise AssertionError(f"{until} did not appear after {limit} moves")


def _shown_hand(page) -> list[str]:
    return page.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")


# ---------------------------------------------------------------- Capsa
def test_capsa_table_with_rows_foul_check_best_and_review(page, live):
    _open(page, live)
    _start(page, "capsa", players=3, bots="table", seed=17, seat_bots={2: "montecarlo"})
    assert [s["player"] for s in _view(live, page)["seats"]] == ["you", "table", "montecarlo"]
    hand = _shown_hand(page)
    assert len(hand) == 13 and page.is_visible("#hint-btn")
    # A fouling arrangement, set by clicks, keys and a drag: the page says it fouls.
    rng = random.Random(3)
    while True:
        cards = rng.sample(hand, 13)
        if is_foul(Arrangement.parse(cards[:3], cards[3:8], cards[8:])):
            break
    for c in cards[:3]:  # clicks go to the target row (front first)
        page.click(f'#my-hand button[data-card="{c}"]')
    for c in cards[3:7]:  # key 2: to the middle
        page.focus(f'#my-hand button[data-card="{c}"]')
        page.keyboard.press("2")
    page.drag_and_drop(f'#my-hand button[data-card="{cards[7]}"]', '.drop-row[data-row="middle"]')
    for c in cards[8:]:
        page.focus(f'#my-hand button[data-card="{c}"]')
        page.keyboard.press("3")
    page.wait_for_selector("#foul.bad")
    assert page.inner_text("#foul").startswith("Foul:")
    assert page.is_disabled("#set-rows-btn")
    rows = {r: page.locator(f'.drop-row[data-row="{r}"] .card').evaluate_all(
        "els => els.map(e => e.dataset.card)") for r in ("front", "middle", "back")}
    assert rows == {"front": cards[:3], "middle": cards[3:8], "back": cards[8:]}
    # A card clicked in a row goes back to the hand.
    page.click(f'.drop-row[data-row="back"] button[data-card="{cards[12]}"]')
    page.wait_for_function("() => !document.querySelector('#foul').classList.contains('bad')")
    assert page.locator("#my-hand button.card").count() == 1
    # "Best" fills the solver's choice: no foul, the rows can be set.
    page.click("#best-btn")
    page.wait_for_selector("#foul.good")
    assert page.is_enabled("#set-rows-btn")
    kinds = page.locator(".drop-row .row-kind").all_inner_texts()
    assert all(k.strip() for k in kinds)
    _shoot(page, "capsa-setting-rows")
    page.click("#set-rows-btn")
    page.wait_for_selector("#review:not([hidden])")
    view = _view(live, page)
    assert view["terminal"]
    rev = view["review"]
    # The review on the page is the server's review of the table just played.
    assert float(page.inner_text("#review-mine")) == pytest.approx(rev["mine"]["ev"], abs=1e-3)
    assert float(page.inner_text("#review-best")) == pytest.approx(rev["best"][0]["ev"], abs=1e-3)
    assert float(page.inner_text("#review-cost").split()[0]) == pytest.approx(rev["cost"], abs=1e-3)
    assert rev["mine"]["ev"] <= rev["best"][0]["ev"] + 1e-9
    assert page.locator("#review .top5 li").count() == 5
    assert page.locator(".breakdown tr").count() == 1 + 2  # a row per opponent
    assert page.locator(".reveal-seat").count() == 3  # every seat's rows revealed
    score = page.locator("#seats tbody tr").nth(0).locator("td").nth(2).inner_text()
    assert float(score) == pytest.approx(view["score"][0])
    _shoot(page, "capsa-review")
    # A second table: the running score adds up.
    page.keyboard.press("n")
    page.wait_for_selector("#best-btn")
    page.click("#best-btn")
    page.wait_for_selector("#set-rows-btn:not([disabled])")
    page.click("#set-rows-btn")
    page.wait_for_selector("#review:not([hidden])")
    second = _view(live, page)
    assert second["score"] == pytest.approx([a + b for a, b in zip(view["returns"],
                                                                   second["returns"])])
    assert page.locator("#history-list li").count() == 2


# ---------------------------------------------------------------- Big Two
def test_big_two_whole_hand_only_legal_selections_play(page, live):
    _open(page, live)
    _start(page, "big-two", players=4, bots="baseline", seed=5)
    view = _view(live, page)
    assert view["your_turn"]
    legal = {tuple(sorted(m["cards"])) for m in view["legal_moves"]}
    # A single card is playable from a selection only if the engine lists it.
    for c in _shown_hand(page)[:4]:
        if page.locator(f'#my-hand button[data-card="{c}"]').count() == 0:
            break  # nothing to select (only a pass is legal)
        page.click(f'#my-hand button[data-card="{c}"]')
        assert page.is_enabled("#play-sel-btn") == ((c,) in legal)
        if (c,) not in legal:
            assert page.inner_text("#sel-note").startswith(" Not a legal move") or \
                page.inner_text("#sel-note").startswith("Not a legal move")
        page.click(f'#my-hand button[data-card="{c}"]')
    shown = page.locator("#moves button.move").count()
    assert shown == len(view["legal_moves"])
    _shoot(page, "big-two")
    # After my move the page tells the bots' answers, in the order they came.
    _all_moves(page)
    page.click("#moves button.move >> nth=0")
    _idle(page)
    hist = _view(live, page)["observation"]["history"]
    mine = max(i for i, h in enumerate(hist) if h["player"] == 0)
    answers = hist[mine + 1:]
    if answers:
        since = page.inner_text("#since")
        parts = since.split(" · ")
        assert len(parts) == min(len(answers), 8)
        for part, h in zip(parts, answers[-8:]):
            assert part.startswith(f"Seat {h['player']} ")
            assert all(_symbols(c) in part for c in h["move"]["cards"])  # 4♣, as players write
    moves = _play_first_moves(page)
    assert moves > 0
    final = _view(live, page)
    assert final["terminal"] and final["observation"]["result"]
    assert "went out first" in page.inner_text("#result-body")
    assert page.locator("#log li").count() == len(final["observation"]["history"])
    _shoot(page, "big-two-settled")


# ---------------------------------------------------------------- Da San
def _da_san_seed(live) -> int:
    """A seed whose first hand asks the human seat to bid (so the page plays the auction)."""
    c = live.app.test_client()
    for seed in range(100):
        v = c.post("/v1/sessions", json={"game": "da-san", "seed": seed}).get_json()
        if v["your_turn"] and v["observation"]["phase"] == "auction" and any(
                m["kind"] == "bid" for m in v["legal_moves"]):
            return seed
    raise AssertionError("no seed in 100 lets seat 0 bid")


def test_da_san_whole_hand_with_auction_and_kitty(page, live):
    seed = _da_san_seed(live)
    _open(page, live)
    _start(page, "da-san", bots="greedy", seed=seed)
    assert "auction" in page.inner_text("#status")
    assert "face down" in page.inner_text("#board")
    _shoot(page, "da-san-auction")
    bids = page.locator('#pick-moves button.move[aria-label^="Bid"]')  # no cards: offered
    bids.nth(bids.count() - 1).click()  # the highest bid
    _idle(page)
    view = _view(live, page)
    obs = view["observation"]
    assert obs["phase"] != "auction" and obs["kitty"]
    board = page.inner_text("#board")
    assert "Bid" in board and "face down" not in board
    kitty_shown = page.locator("#board .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert set(obs["kitty"]) <= set(kitty_shown)
    _shoot(page, "da-san")
    _play_first_moves(page)
    final = _view(live, page)
    assert final["terminal"] and final["observation"]["settlement"]
    assert "went out first" in page.inner_text("#result-body")
    assert any("Bid" in t for t in page.locator("#log li").all_inner_texts())


# ---------------------------------------------------------------- Da Bai Fen
def _da_bai_fen_seed(live) -> int:
    """A seed whose first hand lets seat 0 show a trump-rank card while drawing."""
    c = live.app.test_client()
    for seed in range(200):
        v = c.post("/v1/sessions", json={"game": "da-bai-fen", "seed": seed}).get_json()
        if v["your_turn"] and v["observation"]["phase"] == "draw" and any(
                m["kind"] == "show" for m in v["legal_moves"]):
            return seed
    raise AssertionError("no seed in 200 lets seat 0 show")


def test_da_bai_fen_show_bury_tricks_to_settlement(page, live):
    seed = _da_bai_fen_seed(live)
    _open(page, live)
    _start(page, "da-bai-fen", bots="greedy", seed=seed)
    assert "draw" in page.inner_text("#status")
    _all_moves(page)
    page.click('#moves button.move[aria-label^="Show"]')  # show: seat 0 leads and buries
    _idle(page)
    assert "Shown" in page.inner_text("#board")
    assert "bury" in page.inner_text("#status")
    assert "Kitty (you lead)" in page.inner_text("#board")
    _shoot(page, "da-bai-fen-bury")
    for k in range(6):  # six cards, one at a time, chosen by selecting a card
        first = _shown_hand(page)[0]
        if k % 2:  # by the keyboard: Space selects, Enter plays the selection
            page.focus(f'#my-hand button[data-card="{first}"]')
            page.keyboard.press("Space")
            assert page.get_attribute(f'#my-hand button[data-card="{first}"]',
                                      "aria-pressed") == "true"
            page.keyboard.press("Enter")
        else:
            page.click(f'#my-hand button[data-card="{first}"]')
            page.click("#play-sel-btn")
        _idle(page)
        assert len(_view(live, page)["observation"]["buried"]) == k + 1
    view = _view(live, page)
    assert view["observation"]["phase"] in ("play", "over")
    assert len(view["observation"]["buried"]) == 6
    assert "Trump" in page.inner_text("#board") and "Levels" in page.inner_text("#board")
    _shoot(page, "da-bai-fen")
    _play_first_moves(page)
    final = _view(live, page)
    assert final["terminal"]
    assert "Defenders" in page.inner_text("#result-body")
    assert "{seat:" not in page.inner_text("#result-body")  # the seats are named on the page
    _shoot(page, "da-bai-fen-settled")
    # Its replay, from the draw to the last trick.
    page.click('#history-list li[data-n="1"] button.replay')
    page.wait_for_selector("#replay:not([hidden])")
    assert "Drawing" in page.inner_text("#replay-board")
    page.keyboard.press("End")
    assert "End of the hand" in page.inner_text("#replay-move")
    assert "Points" in page.inner_text("#replay-board")
    page.keyboard.press("Escape")
    assert page.is_hidden("#replay")
    # The next hand keeps the levels the rules give.
    page.click("#next-btn")
    _idle(page)
    nxt = _view(live, page)
    assert nxt["hand"] == 2 and nxt["observation"]["first_hand"] is False


# ---------------------------------------------------------------- history and replay
def test_replay_play_again_export_import(page, live):
    _open(page, live)
    _start(page, "big-two", players=3, bots="random", seed=8)
    dealt = _shown_hand(page)
    _play_first_moves(page)
    page.wait_for_selector("#history-list li")
    page.click("#history-list li button.replay")
    page.wait_for_selector("#replay:not([hidden])")
    hand = live.app.test_client().post("/v1/sessions/hand",
                                       json={"token": _token(page), "n": 1}).get_json()
    last = len(hand["frames"]) - 1
    assert page.inner_text("#replay-step") == f"Step 0 of {last}"
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#replay-step") == f"Step 1 of {last}"
    page.keyboard.press("End")
    assert page.inner_text("#replay-step") == f"Step {last} of {last}"
    assert "End of the hand" in page.inner_text("#replay-move")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#replay-step") == f"Step {last - 1} of {last}"
    page.click("#replay-first")
    shown = page.locator("#replay-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(hand["frames"][0]["observation"]["hand"])
    _shoot(page, "replay")
    # Play this deal again: the same cards, a new hand of the session.
    page.click("#again-btn")
    _idle(page)
    assert "hand 2" in page.inner_text("#table-heading")
    assert "deal of hand 1 again" in page.inner_text("#table-heading")
    assert sorted(_shown_hand(page)) == sorted(dealt)  # the bots replay their moves too
    again = _view(live, page)
    assert again["replay_of"] == 1
    # A Big Two hand ends with the others' cards unseen: it cannot be exported, and says so.
    item = page.locator('#history-list li[data-n="1"]')
    assert item.locator("button.export").count() == 0
    assert "hidden" in item.locator(".no-export").inner_text()


def test_export_and_import_a_capsa_table(page, live):
    _open(page, live)
    _start(page, "capsa", players=2, bots="montecarlo", seed=4)
    page.click("#best-btn")
    page.wait_for_selector("#set-rows-btn:not([disabled])")
    page.click("#set-rows-btn")
    page.wait_for_selector("#review:not([hidden])")
    page.click('#history-list li[data-n="1"] button.export')
    page.wait_for_selector("#export-box:not([hidden])")
    doc = json.loads(page.input_value("#export-text"))
    assert doc["game"] == "capsa" and len(doc["history"]) == 2
    assert page.get_attribute("#export-link", "href").startswith("blob:")
    page.click("#new-btn")
    page.click("#leave-ok")
    page.click("#import-box summary")
    page.fill("#import-text", "{not json")
    page.click("#import-btn")
    page.wait_for_selector("#error:not([hidden])")
    assert "not valid JSON" in page.inner_text("#error")
    page.fill("#import-text", json.dumps({**doc, "game": "chess"}))
    page.click("#import-btn")
    _idle(page)
    assert "chess" in page.inner_text("#error")
    page.fill("#import-text", json.dumps(doc))
    page.click("#import-btn")
    page.wait_for_selector("#table:not([hidden])")
    _idle(page)
    assert page.is_hidden("#error")
    assert page.is_visible("#result") and "Imported" in page.inner_text("#notice")


def test_errors_are_stated_in_words(page, live):
    _open(page, live)
    page.select_option("#game", "da-bai-fen")
    page.evaluate("document.getElementById('more-setup').open = true")
    page.fill("#opt-kitty_multiplier", "99")
    page.click("#start-btn")
    page.wait_for_selector("#error:not([hidden])")
    assert "kitty_multiplier" in page.inner_text("#error") and "99" in page.inner_text("#error")
    page.fill("#opt-kitty_multiplier", "2")
    page.fill("#seed", "twelve")
    page.click("#start-btn")
    assert "seed" in page.inner_text("#error") and "twelve" in page.inner_text("#error")
    _shoot(page, "setup-error")


# ---------------------------------------------------------------- restart
def test_server_restart_mid_session_then_continue(page, live):
    _open(page, live)
    _start(page, "big-two", players=4, bots="baseline", seed=23)
    _all_moves(page)
    page.click("#moves button.move >> nth=0")
    _idle(page)
    before = _view(live, page)
    assert not before["terminal"]
    live.restart()  # a new process' worth of app on the same database file and port
    page.click("#moves button.move >> nth=0")  # the page goes on against the new server
    _idle(page)
    assert page.is_hidden("#error")
    after = _view(live, page)
    assert len(after["observation"]["history"]) > len(before["observation"]["history"])
    assert after["observation"]["history"][:len(before["observation"]["history"])] == \
        before["observation"]["history"]
    # Reloading the page resumes the same session.
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert "continues" in page.inner_text("#notice")
    assert sorted(_shown_hand(page)) == sorted(after["observation"]["hand"])
    _play_first_moves(page)
    assert _view(live, page)["terminal"]


def test_every_game_is_offered_with_its_advisor_flag(page, live):
    _open(page, live)
    offered = page.locator("#game option").evaluate_all("els => els.map(e => e.value)")
    listing = live.app.test_client().get("/v1/sessions/games").get_json()
    games = listing["games"]
    assert sorted(offered) == sorted(g["name"] for g in games)
    assert page.input_value("#game") == listing["default"]  # the server names the default
    for g in games:
        _start(page, g["name"], seed=1)
        view = _view(live, page)
        if view["your_turn"]:
            assert page.is_visible("#hint-btn") == g["advisor"] == (
                get_game(g["name"]).has_advice)
        # each seat's roles, as the game gives them, in the seats table
        for p, roles in enumerate(view["seat_roles"]):
            cell = page.locator("#seats tbody tr").nth(p).locator("td").nth(0).inner_text()
            assert all(r in cell for r in roles), (g["name"], p, roles, cell)
        page.click("#new-btn")
        page.click("#leave-ok")  # leaving asks first
    page.goto(live.url + "/")
    page.click("text=Play against the bots")
    page.wait_for_selector("body[data-ready=true]")
    _shoot(page, "setup")


def test_hint_lights_up_for_a_game_with_an_advisor(page, live, monkeypatch):
    """A game that registers ``advise`` gets the hint button with no change to the page: here
    Big Two with a stand-in advisor that names one legal move (its fields and cards in
    another order than the legal list gives them)."""
    import dataclasses

    from solver.games import _LOADED

    info = get_game("big-two")
    seen: list[dict] = []
    wanted: dict = {}

    def advise(observation, seed=None, **_):
        seen.append(observation)
        move = wanted["move"]
        return {"moves": [{"move": {"kind": move["kind"], "cards": move["cards"][::-1]},
                           "value": 0.25, "stderr": 0.05}]}

    monkeypatch.setitem(_LOADED, "big-two", dataclasses.replace(info, advise=advise))
    _open(page, live)
    _start(page, "big-two", players=4, bots="baseline", seed=31)
    view = _view(live, page)
    assert view["advisor"] and view["your_turn"] and page.is_visible("#hint-btn")
    wanted["move"] = view["legal_moves"][-1]
    page.keyboard.press("h")
    page.wait_for_selector("#hint-box:not([hidden])")
    assert seen and seen[-1] == view["observation"]  # the advisor got my view only
    hinted = page.locator("#moves button.move.hinted")
    assert hinted.count() == 1
    assert int(hinted.get_attribute("data-index")) == len(view["legal_moves"]) - 1
    assert "value +0.25" in page.inner_text("#hint-box")
    # the hinted move's cards light up in the hand, and the move is offered first
    lit = page.locator("#my-hand .card.hinted").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(lit) == sorted(wanted["move"]["cards"])
    hinted = page.locator("#pick-moves button.move.hinted")
    assert int(hinted.get_attribute("data-index")) == len(view["legal_moves"]) - 1
    hinted.click()
    _idle(page)
    assert _view(live, page)["observation"]["history"][
        len(view["observation"]["history"])]["move"]["cards"] == wanted["move"]["cards"]


def test_capsa_natural_declared_from_the_page(page, live):
    c = live.app.test_client()
    seed = next(s for s in range(600) if c.post("/v1/sessions", json={
        "game": "capsa", "rules": {"players": 2}, "seed": s}).get_json()["natural_move"])
    _open(page, live)
    _start(page, "capsa", players=2, bots="table", seed=seed)
    natural = _view(live, page)["natural_move"]["natural"]
    assert natural.replace("_", " ") in page.inner_text("#natural-btn")
    page.click("#natural-btn")
    page.wait_for_selector("#review:not([hidden])")
    assert "declared a natural" in page.inner_text("#review")
    assert f"natural: {natural.replace('_', ' ')}" in page.inner_text("#result-body")


# ---------------------------------------------------------------- the Capsa drill
def _drill_state(live, page) -> dict:
    r = live.app.test_client().post("/v1/sessions/drill/state", json={"token": _token(page)})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def _drill_rows(page, rows: dict[str, list[str]]) -> None:
    """Set the rows in the drill's editor: the front by clicks, the middle by key 2, the back
    by a drag and key 3; then wait for the live check to pass."""
    for c in rows["front"]:
        page.click(f'#drill-hand button[data-card="{c}"]')
    for c in rows["middle"]:
        page.focus(f'#drill-hand button[data-card="{c}"]')
        page.keyboard.press("2")
    page.drag_and_drop(f'#drill-hand button[data-card="{rows["back"][0]}"]',
                       '#drill-rows .drop-row[data-row="back"]')
    for c in rows["back"][1:]:
        page.focus(f'#drill-hand button[data-card="{c}"]')
        page.keyboard.press("3")
    page.wait_for_selector("#drill #foul.good")


def _shown_rows(page, side: str) -> dict[str, list[str]]:
    return {r: page.locator(f'#{side} .reveal-row[data-row="{r}"] .card').evaluate_all(
        "els => els.map(e => e.dataset.card)") for r in ("front", "middle", "back")}


def _answer_shown(page, answer: dict) -> None:
    """The page shows the server's answer: EV lost, both EVs, the rows side by side."""
    assert float(page.inner_text("#drill-lost").split()[0]) == pytest.approx(answer["ev_lost"], abs=1e-3)
    assert float(page.inner_text("#drill-ev")) == pytest.approx(answer["ev"], abs=1e-3)
    assert float(page.inner_text("#drill-best-ev")) == pytest.approx(answer["best_ev"], abs=1e-3)
    assert _shown_rows(page, "drill-mine-rows") == answer["mine"]
    assert _shown_rows(page, "drill-best-rows") == answer["best"]


def test_capsa_drill_two_hands_figures_and_practise_again(page, live):
    from solver import arrange

    def ranked(hand, k):
        return arrange(hand, "standard", 2, "table", top=k + 1).arrangements[k].arrangement.to_dict()

    _open(page, live)
    page.select_option("#game", "capsa")
    assert page.is_visible("#mode-field")
    page.select_option("#mode", "drill")
    assert page.is_hidden("#bots-field") and page.is_hidden("#seat-field")
    assert page.is_hidden("#seat-bots")
    page.select_option("#players", "3")
    page.evaluate("document.getElementById('more-setup').open = true")
    page.fill("#seed", "21")
    assert page.inner_text("#start-btn") == "Start the drill"
    page.click("#start-btn")
    page.wait_for_selector("#drill:not([hidden])")
    _idle(page)
    assert page.is_hidden("#table") and page.is_hidden("#setup")
    v = _drill_state(live, page)
    first = page.locator("#drill-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert first == v["own_cards"] and v["opponents"] == 2
    assert page.locator("#drill #best-btn").count() == 0  # the best rows are the answer
    assert "No hand drilled yet" in page.inner_text("#drill-trend")
    # Hand 1: a costly arrangement (the table method's 5th best), set with the row editor.
    _drill_rows(page, ranked(first, 4))
    kinds = page.locator("#drill-rows .row-kind").all_inner_texts()
    assert all(k.strip() for k in kinds)
    _shoot(page, "drill-setting-rows")
    page.click("#drill #set-rows-btn")
    page.wait_for_selector("#drill-answer:not([hidden])")
    a1 = _drill_state(live, page)["answer"]
    assert a1["ev_lost"] > 0 and a1["mistake"]
    _answer_shown(page, a1)
    assert page.inner_text("#drill-lost").startswith(f"{a1['ev_lost']:.3f}")
    assert page.locator("#drill-mistake .strong").inner_text() != ""
    assert page.inner_text("#drill-hands") == "1"
    assert float(page.inner_text("#drill-mean")) == pytest.approx(a1["ev_lost"], abs=1e-3)
    assert page.locator("#drill-trend svg rect.lost-bar").count() == 1
    assert page.locator(f'#drill-classes tr[data-mistake="{a1["mistake"]}"] td').first.inner_text() == "1"
    assert page.locator("#drill-worst li").count() == 1
    _shoot(page, "drill-answer")
    # Hand 2 (key N): the best rows this time, so nothing is lost; the figures move.
    page.keyboard.press("n")
    page.wait_for_function("() => document.querySelector('#drill-heading').textContent.includes('hand 2')")
    _idle(page)
    second = page.locator("#drill-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(second) != sorted(first)
    assert page.is_disabled('#drill-worst li[data-n="1"] button.practise')  # set this hand first
    _drill_rows(page, ranked(second, 0))
    page.click("#drill #set-rows-btn")
    page.wait_for_selector("#drill-answer:not([hidden])")
    _idle(page)
    v2 = _drill_state(live, page)
    assert v2["answer"]["exact"] and v2["answer"]["ev_lost"] == 0
    _answer_shown(page, v2["answer"])
    assert page.inner_text("#drill-hands") == "2"
    assert float(page.inner_text("#drill-mean")) == pytest.approx(a1["ev_lost"] / 2, abs=1e-3)
    assert float(page.inner_text("#drill-mean-last").split()[0]) == pytest.approx(
        v2["stats"]["mean_ev_lost_last"], abs=1e-3)
    assert page.inner_text("#drill-exact").startswith("1 (50%)")
    assert page.locator("#drill-trend svg rect.lost-bar").count() == 2
    assert page.locator("#drill-trend svg polyline").count() == 2  # the two means
    # Practise the worst mistake again: the same 13 cards, dealt as hand 3.
    page.click('#drill-worst li[data-n="1"] button.practise')
    page.wait_for_function("() => document.querySelector('#drill-heading').textContent.includes('hand 1 again')")
    _idle(page)
    again = page.locator("#drill-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(again) == sorted(first)
    assert _drill_state(live, page)["replay_of"] == 1
    _drill_rows(page, ranked(again, 0))
    page.click("#drill #set-rows-btn")
    page.wait_for_selector("#drill-answer:not([hidden])")
    _idle(page)
    st = _drill_state(live, page)["stats"]
    assert st["hands"] == 3 and st["worst"][0]["fixed"]
    item = page.locator('#drill-worst li[data-n="1"]')
    assert "tried 2 times" in item.inner_text() and "fixed" in item.inner_text()
    assert page.locator("#drill-trend svg rect.lost-bar.again").count() == 1
    page.click("#drill-trend-table-box summary")
    assert page.locator("#drill-trend-table tr").count() == 1 + 3
    assert page.get_attribute("#drill-trend svg", "aria-describedby") == "drill-trend-caption"
    assert "hands 1 to 3" in page.inner_text("#drill-trend-caption")
    _shoot(page, "drill-figures")
    # A reload resumes the drill from the server.
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert "continues" in page.inner_text("#notice")
    assert page.is_visible("#drill") and page.inner_text("#drill-hands") == "3"
    # New session: back to the start panel; a play session after a drill is a table again.
    page.click("#drill-new-btn")
    page.click("#leave-ok")  # leaving asks first, as at the table
    assert page.is_visible("#setup") and page.is_hidden("#drill") and page.is_hidden("#drill-figures")
    page.select_option("#mode", "play")
    assert page.is_visible("#bots-field")
    _start(page, "capsa", players=2, bots="table", seed=3)
    assert page.is_hidden("#drill") and page.is_visible("#table")
    assert page.locator("#my-hand button.card").count() == 13 and page.is_visible("#best-btn")
