"""End-to-end in Chromium, at a desktop (1280x800) and a phone (390x844, touch) viewport: the
pages fit the screen and their controls fit a fingertip; moves are picked by tapping cards
(Big Two, Da Bai Fen); leaving a running game asks first; the four-colour deck is remembered
and every card colour passes WCAG AA, computed from the CSS custom properties; the others'
leftover cards are laid down at the end; a deal played again meets the same bot moves; the
table gets the focus after Start; the bots are named by difficulty; the hand sorts by suit;
the Capsa reveal names each row's kind and result; the solver page's counter never says
"14 / 13"."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from browser_support import watched_page

from api import i18n
from solver.cards import format_cards
from solver.games import get_game

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = {"desktop": (DESKTOP, {}), "phone": (PHONE, {"has_touch": True, "is_mobile": True})}
ARTEFACTS = Path(os.environ.get("ARTEFACTS_DIR", Path(__file__).resolve().parents[1] / "artefacts")) / "play"
MIN_TARGET = 24  # px, WCAG 2.2 target size (minimum)
PHONE_BUTTON = 44  # px high, on a phone


@pytest.fixture(params=sorted(VIEWPORTS))
def screen(request, browser, live):
    viewport, options = VIEWPORTS[request.param]
    with watched_page(browser, live.url, viewport, **options) as pg:
        yield request.param, pg


@pytest.fixture()
def phone(browser, live):
    viewport, options = VIEWPORTS["phone"]
    with watched_page(browser, live.url, viewport, **options) as pg:
        yield pg


# ---------------------------------------------------------------- helpers
def _idle(page) -> None:
    page.wait_for_function("() => !document.body.hasAttribute('aria-busy')")


def _open(page, live) -> None:
    page.goto(live.url + "/static/play.html")
    page.wait_for_selector("body[data-ready=true]")


def _start(page, live, game: str, seed: int, bots: str | None = None,
           players: int | None = None) -> None:
    _open(page, live)
    page.select_option("#game", game)
    if players is not None:
        page.select_option("#players", str(players))
    if bots is not None:
        page.select_option("#bots", bots)
    page.click("#more-setup summary")
    page.fill("#seed", str(seed))
    page.click("#start-btn")
    page.wait_for_selector("#table:not([hidden])")
    _idle(page)


def _view(live, page) -> dict:
    token = page.evaluate("localStorage.getItem('capsa-play-token')")
    r = live.app.test_client().post("/v1/sessions/state", json={"token": token})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def _press(page, selector: str) -> None:
    """A tap on a touch screen, a click elsewhere."""
    if page.evaluate("navigator.maxTouchPoints > 0"):
        page.tap(selector)
    else:
        page.click(selector)


def _first_moves_to_the_end(page, limit: int = 400) -> None:
    """Take the first legal move of the full list until the hand is over."""
    for _ in range(limit):
        if page.locator("#result:not([hidden])").count():
            return
        page.evaluate("document.getElementById('all-moves').open = true")
        page.click("#moves button.move >> nth=0")
        _idle(page)
    raise AssertionError("the hand did not end")


SIZES = """() => {
  const out = [];
  const seen = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; };
  document.querySelectorAll('button, a[href], select, summary, input, .card').forEach((e) => {
    if (!seen(e)) return;
    const r = e.getBoundingClientRect();
    out.push({ tag: e.tagName, id: e.id, cls: e.className, text: (e.textContent || '').trim().slice(0, 30),
               w: r.width, h: r.height, type: e.type || '' });
  });
  return { scroll: document.documentElement.scrollWidth, inner: innerWidth, targets: out };
}"""


def _check_fits(page, where: str, phone: bool) -> None:
    """No sideways scrolling; every visible control and card at least 24x24 px; at phone
    width every button at least 44 px high."""
    got = page.evaluate(SIZES)
    assert got["scroll"] <= got["inner"], f"{where}: the page is {got['scroll']}px wide in {got['inner']}"
    small = [t for t in got["targets"] if t["w"] < MIN_TARGET - 0.5 or t["h"] < MIN_TARGET - 0.5]
    assert not small, f"{where}: targets under {MIN_TARGET}px: {small[:5]}"
    if phone:
        low = [t for t in got["targets"] if (t["tag"] == "BUTTON" or t["tag"] == "SELECT")
               and t["h"] < PHONE_BUTTON - 0.5]
        assert not low, f"{where}: buttons under {PHONE_BUTTON}px high: {low[:5]}"


# ---------------------------------------------------------------- fits the screen
def test_every_page_fits_the_screen_and_the_fingertip(screen, live):
    name, page = screen
    phone = name == "phone"
    for path in ("/", "/static/review.html", "/static/play.html"):
        page.goto(live.url + path)
        page.wait_for_load_state("networkidle")
        _check_fits(page, f"{name} {path}", phone)
    # the landing header gives the title the width of the screen (not a narrow column)
    page.goto(live.url + "/")
    page.wait_for_load_state("networkidle")
    title = page.locator(".top h1").bounding_box()
    assert title["width"] >= 0.5 * page.viewport_size["width"]  # it was 90 px of 390
    page.fill("#hand-text", "As Kd Qh Jc Ts 9s 8d 7h 6c 5s 4d 3h 2c")  # and its answer
    page.click("#solve-btn")
    page.wait_for_selector("#arrangements li")
    _check_fits(page, f"{name} / solved", phone)
    # setup on one screen: Start shows without scrolling, the rest folded away
    _open(page, live)
    start = page.locator("#start-btn").bounding_box()
    assert start["y"] + start["height"] <= page.viewport_size["height"] * (1.35 if phone else 1)
    assert page.is_hidden("#seed") and page.is_hidden("#seat-bots")
    _check_fits(page, f"{name} setup", phone)
    # every game's table, and a settled hand (Capsa's settlement against each opponent)
    for game in ("big-two", "da-san", "da-bai-fen", "capsa"):
        _start(page, live, game, seed=3)
        _check_fits(page, f"{name} {game} table", phone)
        # the moves (and on a phone the log) scroll with the page, never in a box of their own
        for box in ("#moves", "#pick-moves") + (("#log",) if phone else ()):
            style = page.eval_on_selector(box, "e => [getComputedStyle(e).overflowY, "
                                               "getComputedStyle(e).maxHeight]")
            assert style == ["visible", "none"], (name, game, box, style)
        page.click("#new-btn")
        page.click("#leave-ok")
    _open(page, live)  # the drill's table of rows
    page.select_option("#game", "capsa")
    page.select_option("#mode", "drill")
    page.click("#start-btn")
    page.wait_for_selector("#drill:not([hidden])")
    _idle(page)
    _check_fits(page, f"{name} drill", phone)
    page.click("#drill-new-btn")
    page.click("#leave-ok")
    _start(page, live, "capsa", seed=4, players=4, bots="table")
    page.click("#best-btn")
    page.wait_for_selector("#set-rows-btn:not([disabled])")
    page.click("#set-rows-btn")
    page.wait_for_selector("#result:not([hidden])")
    _idle(page)
    _check_fits(page, f"{name} capsa settled", phone)
    points = page.locator(".breakdown td[data-label]").last.bounding_box()
    assert points["x"] + points["width"] <= page.viewport_size["width"]  # Points not clipped


@pytest.mark.parametrize("locale", ["id-ID", "vi-VN"])
def test_every_page_and_game_fits_a_phone_in_each_language(browser, live, locale):
    """The longer words of Bahasa Indonesia and Vietnamese still fit: each page and each
    game's table at the phone viewport (screenshots in ``artefacts/play/``)."""
    lang = locale[:2]
    with watched_page(browser, live.url, PHONE, locale=locale, has_touch=True,
                      is_mobile=True) as page:
        for path in ("/", "/static/review.html", "/static/play.html"):
            page.goto(live.url + path)
            page.wait_for_load_state("networkidle")
            assert page.get_attribute("html", "lang") == lang
            _check_fits(page, f"{lang} {path}", True)
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        for game in ("big-two", "da-san", "da-bai-fen", "capsa"):
            _start(page, live, game, seed=3)
            _check_fits(page, f"{lang} {game} table", True)
            page.screenshot(path=str(ARTEFACTS / f"{game}-{lang}-phone.png"), full_page=True)
            page.click("#new-btn")
            page.click("#leave-ok")


# ---------------------------------------------------------------- picking by cards
def _big_two_seed(live) -> tuple[int, dict]:
    """A seed whose first view asks seat 0 to play, with a legal single."""
    c = live.app.test_client()
    for seed in range(60):
        v = c.post("/v1/sessions", json={"game": "big-two", "seed": seed,
                                           "bots": "baseline"}).get_json()
        if v["your_turn"] and any(m["kind"] == "single" for m in v["legal_moves"]):
            return seed, v
    raise AssertionError("no seed in 60")


def test_picking_cards_plays_a_big_two_move(screen, live):
    _, page = screen
    seed, first = _big_two_seed(live)
    _start(page, live, "big-two", seed=seed, bots="baseline")
    view = _view(live, page)
    assert page.is_hidden("#moves")  # the long list is a fallback, folded away
    single = next(m for m in view["legal_moves"] if m["kind"] == "single")
    # a pair or more holding that card, if any: the selection offers it, with the single first
    card = single["cards"][0]
    _press(page, f'#my-hand button[data-card="{card}"]')
    offered = page.locator("#pick-moves button.move")
    holding = [m for m in view["legal_moves"] if card in (m["cards"] or [])]
    indices = [int(i) for i in offered.evaluate_all("els => els.map(e => e.dataset.index)")]
    cardless = [i for i, m in enumerate(view["legal_moves"]) if not m["cards"]]
    assert set(indices) - set(cardless) <= {view["legal_moves"].index(m) for m in holding}
    assert indices[0] == view["legal_moves"].index(single)  # the exact match first
    assert page.is_enabled("#play-sel-btn")
    _press(page, "#play-sel-btn")
    _idle(page)
    after = _view(live, page)
    mine = [h for h in after["observation"]["history"] if h["player"] == 0]
    assert mine[0]["move"]["cards"] == [card]


def _dbf_follow(live) -> tuple[int, dict]:
    """A Da Bai Fen seed and session whose human turn in play offers many moves (following
    a lead of several cards): reached by the human taking the first legal move."""
    c = live.app.test_client()
    for seed in range(40):
        v = c.post("/v1/sessions", json={"game": "da-bai-fen", "seed": seed,
                                           "bots": "greedy"}).get_json()
        for _ in range(200):
            if v["terminal"]:
                break
            if v["observation"]["phase"] == "play" and len(v["legal_moves"]) >= 20:
                return seed, v
            v = c.post("/v1/sessions/move", json={"token": v["token"],
                                                  "move": v["legal_moves"][0]}).get_json()
    raise AssertionError("no long move list in 40 deals")


def test_picking_cards_plays_a_da_bai_fen_move_among_many(screen, live):
    _, page = screen
    seed, target = _dbf_follow(live)
    _start(page, live, "da-bai-fen", seed=seed, bots="greedy")
    # the same human moves up to the long list: each by its cards where it has any
    for _ in range(200):
        view = _view(live, page)
        if view["observation"]["phase"] == "play" and len(view["legal_moves"]) >= 20:
            break
        move = view["legal_moves"][0]
        if move.get("cards"):
            for c in move["cards"]:
                _press(page, f'#my-hand button[data-card="{c}"]')
            exact = page.locator("#pick-moves button.move.exact")
            assert exact.count() >= 1
            _press(page, "#play-sel-btn" if page.is_enabled("#play-sel-btn") else
                     "#pick-moves button.move.exact >> nth=0")
        else:
            _press(page, '#pick-moves button.move[data-index="0"]')
        _idle(page)
    legal = view["legal_moves"]
    assert len(legal) >= 20
    # not 20+ buttons: before a card is tapped only the moves without cards are offered
    assert page.locator("#pick-moves button.move").count() <= len([m for m in legal if not m.get("cards")]) + 1
    # the cards no legal move uses are set back; the others are not
    spare = set(page.locator("#my-hand .card.spare").evaluate_all("els => els.map(e => e.dataset.card)"))
    used = {c for m in legal for c in m["cards"]}
    assert spare == set(view["own_cards"]) - used
    want = legal[len(legal) // 2]
    for c in want["cards"]:
        _press(page, f'#my-hand button[data-card="{c}"]')
    assert page.locator("#pick-moves button.move").count() <= 8
    assert page.is_enabled("#play-sel-btn")
    before = len(view["observation"]["tricks"]) * 4 + len(view["observation"]["trick"])
    _press(page, "#play-sel-btn")
    _idle(page)
    after = _view(live, page)["observation"]
    plays = [p for t in after["tricks"] for p in t["plays"]] + list(after["trick"])
    assert sorted(plays[before]) == sorted(want["cards"])


# ---------------------------------------------------------------- leaving asks first
def test_leaving_a_running_game_asks_first_and_new_session_is_not_by_hint(screen, live):
    _, page = screen
    _start(page, live, "big-two", seed=5, bots="baseline")
    assert page.evaluate("document.activeElement.id") == "table-heading"  # focus at the table
    new, hint = page.locator("#new-btn").bounding_box(), page.locator("#hint-btn").bounding_box()
    assert abs(new["y"] - hint["y"]) > 200  # not next to Hint
    token = page.evaluate("localStorage.getItem('capsa-play-token')")
    _press(page, "#new-btn")
    assert page.is_visible("#confirm-leave")
    assert page.evaluate("document.activeElement.id") == "leave-cancel"  # the safe default
    _press(page, "#leave-cancel")
    assert page.is_hidden("#confirm-leave") and page.is_visible("#table")
    assert page.evaluate("localStorage.getItem('capsa-play-token')") == token
    page.keyboard.press("Escape")
    _press(page, "#new-btn")
    _press(page, "#leave-ok")
    assert page.is_visible("#setup") and page.is_hidden("#table")
    assert page.evaluate("localStorage.getItem('capsa-play-token')") is None


# ---------------------------------------------------------------- colours
def _rgb(text: str) -> tuple[float, float, float]:
    text = text.strip()
    if text.startswith("#"):
        h = text[1:]
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]
    nums = [float(x) for x in re.findall(r"[\d.]+", text)[:3]]
    return nums[0], nums[1], nums[2]


def _luminance(rgb: tuple[float, float, float]) -> float:
    lin = [c / 255 for c in rgb]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in lin]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two CSS colours."""
    hi, lo = sorted((_luminance(_rgb(a)), _luminance(_rgb(b))), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula():
    assert contrast("#000", "#fff") == pytest.approx(21.0)
    assert contrast("#c0262d", "#1d2521") == pytest.approx(2.66, abs=0.01)  # the old red/black
    assert contrast("rgb(255, 255, 255)", "#ffffff") == pytest.approx(1.0)


PROPS = """() => { const s = getComputedStyle(document.documentElement);
  return Object.fromEntries(['--card-bg', '--card-on-bg', '--card-spare-bg', '--card-on-edge', '--hint-edge',
    '--suit-s', '--suit-h', '--suit-d', '--suit-c', '--ink', '--muted', '--bg', '--felt',
    '--focus', '--focus-ring']
    .map((k) => [k, s.getPropertyValue(k).trim()])); }"""


def _check_card_colours(p: dict[str, str], four: bool) -> None:
    suits = ("--suit-s", "--suit-h", "--suit-d", "--suit-c")
    for s in suits:  # the ink of each suit on a card's face, plain, selected, set back: text
        for face in ("--card-bg", "--card-on-bg", "--card-spare-bg"):
            assert contrast(p[s], p[face]) >= 4.5, (s, p[s], face, four)
    # the selected card's edge, and the hint's, against a plain face: graphics
    assert contrast(p["--card-on-edge"], p["--card-bg"]) >= 3
    assert contrast(p["--card-on-edge"], p["--card-on-bg"]) >= 3
    assert contrast(p["--hint-edge"], p["--card-bg"]) >= 3
    # red against black: told apart at 3:1 (it was 2.66:1)
    assert contrast(p["--suit-h"], p["--suit-s"]) >= 3
    if four:
        assert len({p[s].lower() for s in suits}) == 4
    else:
        assert p["--suit-d"] == p["--suit-h"] and p["--suit-c"] == p["--suit-s"]
    # the page's text
    assert contrast(p["--ink"], p["--bg"]) >= 4.5 and contrast(p["--muted"], p["--bg"]) >= 4.5
    assert contrast("#ffffff", p["--felt"]) >= 4.5  # the board's words on the felt
    # the focus ring: its dark tone on the page and the cards, its amber on the felt
    assert min(contrast(p["--focus-ring"], x) for x in (p["--bg"], p["--card-bg"], p["--card-on-bg"])) >= 3
    assert contrast(p["--focus"], p["--felt"]) >= 3 and contrast(p["--focus"], p["--focus-ring"]) >= 3


def test_four_colour_deck_is_remembered_and_every_colour_passes_aa(screen, live):
    _, page = screen
    _start(page, live, "big-two", seed=5, bots="baseline")
    _check_card_colours(page.evaluate(PROPS), four=False)
    assert page.get_attribute("html", "data-deck") == "two"
    page.check("#four-colour")
    assert page.get_attribute("html", "data-deck") == "four"
    props = page.evaluate(PROPS)
    _check_card_colours(props, four=True)
    # the cards on the page wear those colours, and a selected card keeps its suit's ink
    diamonds = page.locator('#my-hand .card[data-card$="d"]')
    if diamonds.count():
        first = diamonds.first
        colour = first.evaluate("e => getComputedStyle(e).color")
        assert contrast(colour, props["--suit-d"]) == pytest.approx(1.0)
        _press(page, f'#my-hand .card[data-card="{first.get_attribute("data-card")}"]')
        on = first.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
        assert contrast(on[0], props["--suit-d"]) == pytest.approx(1.0)
        assert contrast(on[1], props["--card-on-bg"]) == pytest.approx(1.0)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute("html", "data-deck") == "four" and page.is_checked("#four-colour")
    page.goto(live.url + "/")  # every page follows the choice
    page.wait_for_selector("#four-colour")
    assert page.get_attribute("html", "data-deck") == "four"
    spade = page.locator('#deck .card[data-card="As"]').evaluate("e => getComputedStyle(e).color")
    club = page.locator('#deck .card[data-card="Ac"]').evaluate("e => getComputedStyle(e).color")
    assert contrast(club, props["--suit-c"]) == pytest.approx(1.0) and spade != club


# ---------------------------------------------------------------- what players expect
@pytest.mark.parametrize("game", ["big-two", "da-san"])
def test_the_others_leftover_cards_are_shown_at_the_end(game, screen, live):
    name, page = screen
    _start(page, live, game, seed=7, bots="random")
    _first_moves_to_the_end(page)
    final = _view(live, page)
    obs = final["observation"]
    kept = (obs.get("result") or obs.get("settlement"))["hands"]
    assert final["leftovers"] == kept
    shown = {int(x.get_attribute("data-seat")): x.locator(".card").evaluate_all(
        "els => els.map(e => e.dataset.card)")
        for x in page.locator("#leftovers .leftover").all()}
    assert shown == {q: kept[q] for q in range(len(kept)) if q != final["seat"]}
    assert sum(len(v) for v in shown.values()) > 0
    _check_fits(page, f"{name} {game} settled", name == "phone")


def test_replaying_a_deal_meets_the_same_bot_moves(browser, live):
    with watched_page(browser, live.url, DESKTOP) as page:
        _start(page, live, "big-two", seed=11, bots="search", players=4)
        _first_moves_to_the_end(page)
        first = _view(live, page)["observation"]["history"]
        page.click("#again-btn")
        _idle(page)
        assert page.is_hidden("#result")
        _first_moves_to_the_end(page)
        again = _view(live, page)
        assert again["replay_of"] == 1
        assert again["observation"]["history"] == first


def test_bots_by_difficulty_last_plays_sorting_and_the_score(browser, live):
    with watched_page(browser, live.url, DESKTOP) as page:
        _open(page, live)
        page.select_option("#game", "big-two")
        options = page.locator("#bots option").evaluate_all(
            "els => els.map(e => [e.value, e.textContent, e.title])")
        levels = live.app.test_client().get("/v1/sessions/games").get_json()
        big_two = next(g for g in levels["games"] if g["name"] == "big-two")
        assert {v: (t, ti) for v, t, ti in options} == {
            b: ({"beginner": "Beginner", "easy": "Easy", "normal": "Normal", "hard": "Hard",
                 "expert": "Expert"}[big_two["bot_levels"][b]], b) for b in big_two["bots"]}
        assert page.input_value("#bots") == "net"  # a new player meets the middle level
        _start(page, live, "big-two", seed=5, bots="search")
        view = _view(live, page)
        assert all(s["level"] == "expert" for s in view["seats"] if s["player"] != "you")
        cell = page.locator("#seats tbody tr").nth(1).locator("td").first
        assert cell.inner_text().startswith("Expert") and cell.get_attribute("title") == "search"
        # each seat's last play at its seat
        for p in range(1, 4):
            done = [h for h in view["observation"]["history"] if h["player"] == p]
            last = page.locator(f'#seats .last[data-seat="{p}"]')
            if done:
                cards = last.locator(".card").evaluate_all("els => els.map(e => e.dataset.card)")
                assert cards == (done[-1]["move"]["cards"] or [])
        # sort by suit: the suits grouped, remembered
        page.click("#sort-suit")
        hand = page.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        suits = [c[1] for c in hand]
        assert suits == sorted(suits, key="shcd".index)
        assert sorted(hand) == sorted(view["own_cards"])
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        assert page.get_attribute("#sort-suit", "aria-pressed") == "true"
        page.click("#sort-rank")
        hand = page.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert hand == view["own_cards"]
        # the running score across hands
        _first_moves_to_the_end(page)
        page.click("#next-btn")
        _idle(page)
        v2 = _view(live, page)
        assert v2["hands_played"] == 1
        assert "after 1 hand" in page.inner_text("#session-score")


def test_capsa_reveal_names_each_rows_kind_and_result(browser, live):
    with watched_page(browser, live.url, DESKTOP) as page:
        _start(page, live, "capsa", seed=9, players=3, bots="table")
        page.click("#best-btn")
        page.wait_for_selector("#set-rows-btn:not([disabled])")
        page.click("#set-rows-btn")
        page.wait_for_selector("#result:not([hidden])")
        res = _view(live, page)["observation"]["result"]
        assert page.locator("#seats .last").count() == 0  # the rows are in the reveal
        words = i18n.catalog("en").messages
        for q, seat in enumerate(page.locator(".reveal-seat").all()):
            kinds = seat.locator(".reveal-row .row-kind").all_inner_texts()
            if res["players"][q]["kinds"]:
                assert [k.lower() for k in kinds] == [  # the CSS capitalises them
                    words.get(f"kind.{k}", k.replace("_", " ")).lower()
                    for k in res["players"][q]["kinds"]]
            rows = seat.locator(".reveal-row .row-res").all_inner_texts()
            mine = res["players"][0]["vs"]
            for i, text in enumerate(rows):
                n = (sum(x["rows"][i] for x in mine) if q == 0 else
                     -next(x for x in mine if x["opponent"] == q)["rows"][i])
                assert text.endswith(f"{'+' if n > 0 else ''}{n}")


def test_solver_page_counter_never_says_more_than_13(phone, live):
    page = phone
    page.goto(live.url + "/")
    page.wait_for_selector("#deck .card")
    cards = format_cards(range(14))
    page.fill("#hand-text", " ".join(cards))
    text = page.inner_text("#count")
    assert "/ 13" not in text and "14" in text and "too many" in text
    page.fill("#hand-text", " ".join(cards[:13]))
    assert page.inner_text("#count").replace("\u00a0", " ").startswith("13 / 13")
    assert get_game("capsa")  # the registry serves the solver page's game
