"""End-to-end in Chromium, at a desktop (1280x800) and a phone (390x844, touch) viewport: the
review page takes a history of hands shown by two players (plain text rows with the player's
name first, and JSON lines naming the player), builds one profile a player, shows each one's
words (the server's, as the profile route answers them for the same lines) and its chart,
keeps one "for this table"; the advice page then offers it and answers Monte Carlo against
it, the same answer the arrange route gives with that profile, and says whom it is against;
the play page's Hint asks against it as well, and the drill deals against it. The pages stay within the viewport's width. Screenshots go to ``artefacts/profiles/``."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
import pytest
from browser_support import watched_page

import solver
from api.i18n import t as say

pytestmark = pytest.mark.browser

VIEWPORTS = {
    "desktop": ({"width": 1280, "height": 800}, {}, "en"),
    "phone": ({"width": 390, "height": 844}, {"has_touch": True, "is_mobile": True}, "id"),
}
ARTEFACTS = Path(os.environ.get("ARTEFACTS_DIR", Path(__file__).resolve().parents[1] / "artefacts")) / "profiles"
HAND = "As Ad Kh Kd Qc Js Ts 9h 7c 6d 5s 3c 2h"
SAMPLES = 200
# English words of the profiles' panel that must not be left in the other languages ("player"
# is left out: it is the JSON field a line names its player in, notation in every language)
ENGLISH = re.compile(r"\b(Hands?|hands|Player|profiles?|Profile|habits|table|Table|Fouls|naive|"
                     r"random|Save|Use|against|Lines?|front|back|natural|strongest)\b")


def _no_english_left(page, lang: str) -> None:
    """The page's words are translated (what the server sends in English is marked so and
    removed first)."""
    if lang == "en":
        return
    page.evaluate("document.querySelectorAll('body [lang=en]').forEach(e => e.remove())")
    left = sorted(set(ENGLISH.findall(page.evaluate("document.body.innerText"))))
    assert not left, f"{lang}: English left on the page: {left}"


def _history() -> tuple[str, dict[str, list[str]]]:
    """A history of two players: Budi sets every hand by the naive rule (plain text rows, his
    name first), Lan as table does (JSON lines naming her); a line naming nobody between."""
    import solver
    from solver.cards import format_cards
    from solver.games.capsa.splits import unpack_split
    from solver.games.capsa.strategy.play import deal, naive_play

    rules = solver.resolve_rules("standard")
    hands = deal(np.random.default_rng(7), 50, 2)
    packed, _ = naive_play(hands[:25, 0], rules)
    budi = []
    for h, p in zip(hands[:25, 0], packed):
        rows = unpack_split(h, int(p)).to_dict()
        budi.append("Budi | " + " | ".join(" ".join(rows[r]) for r in ("front", "middle", "back")))
    lan = []
    for h in hands[25:, 1]:
        best = solver.arrange(" ".join(format_cards(h)), opponents=1, top=1).best.to_dict()
        lan.append(json.dumps({"player": "Lan", "front": best["front"], "middle": best["middle"],
                               "back": best["back"]}))
    lines = [x for pair in zip(budi, lan) for x in pair]
    lines.insert(3, "5s 3c 2h | As Ad Kh 7c 6d | Kd Qc Js Ts 9h")  # names no player
    dragon = "Budi | natural | 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ad"  # his declared natural
    lines.append(dragon)
    budi.append(dragon)
    per = {"Budi": budi, "Lan": [json.dumps({"id": "Lan", **{k: v for k, v in json.loads(x).items()
                                                            if k != "player"}}) for x in lan]}
    return "\n".join(["# Friday's table", *lines, ""]), per


@pytest.fixture(scope="module")
def history():
    return _history()


@pytest.mark.parametrize("view", list(VIEWPORTS))
def test_profiles_from_a_history_then_advice_against_one(browser, live, history, view, tmp_path):
    text, per = history
    client = live.app.test_client()
    want = {name: client.post("/v1/capsa/profile", json={"text": "\n".join(lines)}).get_json()
            for name, lines in per.items()}
    assert want["Budi"]["hands"] == 25 and want["Lan"]["hands"] == 25
    assert want["Budi"]["naturals_declared"] == 1 and not want["Budi"]["errors"]
    viewport, options, lang = VIEWPORTS[view]
    with watched_page(browser, live.url, viewport, **options) as page:
        page.goto(f"{live.url}/static/review.html?lang={lang}")
        page.wait_for_selector("body[data-ready=true]")
        assert page.inner_text("#profiles-heading") == say(lang, "profile.heading")
        shown = tmp_path / "shown.txt"
        shown.write_text(text, encoding="utf-8")
        page.set_input_files("#shown-file", str(shown))
        page.wait_for_selector("body[data-shown-loaded='shown.txt']")
        (page.tap if view == "phone" else page.click)("#profile-btn")
        page.wait_for_selector("body[data-profiles='2']")

        # the line naming no player is listed (line 5 of the file: the comment is line 1)
        assert not page.locator("#pf-skipped-box").is_hidden()
        assert "5" in page.inner_text("#pf-skipped")
        facts = page.locator('.pf-player[data-player="Budi"] .pf-facts').inner_text()
        assert say(lang, "profile.player.naturals.one", n=1) in facts
        for name in ("Budi", "Lan"):
            card = page.locator(f'.pf-player[data-player="{name}"]')
            words = card.locator(".pf-words li").all_inner_texts()
            # the server's words in the page's language (the English ones word for word)
            assert words == [say(lang, m["key"], **m["params"])
                             for m in want[name]["words_i18n"]], name
            if lang == "en":
                assert words == want[name]["words"], name
            assert card.locator(".pf-words").get_attribute("lang") is None
            assert card.locator("svg.pf-chart rect.pf-bar").count() >= 10
            naive = card.locator('rect.pf-bar[data-habit="naive"][data-who="mine"]')
            assert float(naive.get_attribute("data-value")) == pytest.approx(want[name]["shares"]["naive"])
        # the naive player looks naive, the table player does not
        assert want["Budi"]["shares"]["naive"] > 0.5 > want["Lan"]["shares"]["naive"]
        assert any("naive rule" in w for w in want["Budi"]["words"])

        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"] + 1, f"{view}: the review page is {width}px wide"
        if view == "phone":  # fingertip-sized controls
            for sel in ("#profile-btn", '.pf-player[data-player="Budi"] .pf-save',
                        '.pf-player[data-player="Budi"] .pf-use'):
                box = page.locator(sel).bounding_box()
                assert box and box["height"] >= 44 and box["width"] >= 44, (sel, box)
        _no_english_left(page, lang)
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTEFACTS / f"review-profiles-{lang}-{view}.png"), full_page=True)
        page.locator("#profiles").screenshot(path=str(ARTEFACTS / f"profiles-{lang}-{view}.png"))

        # the profile saved as a file is the profile
        with page.expect_download() as dl:
            page.locator('.pf-player[data-player="Budi"] .pf-save').click()
        saved = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
        assert saved["format"] == "capsa-profile" and saved["params"] == want["Budi"]["params"]

        page.locator('.pf-player[data-player="Budi"] .pf-use').click()
        page.wait_for_selector('.pf-player[data-player="Budi"][data-stored="true"]')
        assert "Budi" in page.inner_text("#stored-line")

        # the advice page offers it, and asks Monte Carlo against it
        page.goto(f"{live.url}/?lang={lang}")
        page.wait_for_selector("#against-box:not([hidden])")
        page.fill("#hand-text", HAND)
        page.select_option("#opponents", "1")
        page.check("#against-use")
        assert page.input_value("#method") == "montecarlo"
        assert page.input_value("#against-1") == "Budi"
        page.fill("#samples", str(SAMPLES))
        with page.expect_response("**/v1/capsa/arrange") as res:
            (page.tap if view == "phone" else page.click)("#solve-btn")
        sent = res.value.request.post_data_json
        assert sent["method"] == "montecarlo" and sent["samples"] == SAMPLES
        assert len(sent["opponent_profiles"]) == 1
        assert sent["opponent_profiles"][0]["params"] == want["Budi"]["params"]
        answer = res.value.json()
        assert res.value.status == 200 and answer["method"] == "montecarlo"
        page.wait_for_selector("#results:not([hidden]) li.arrangement")
        assert say(lang, "profile.advice.against", names="Budi") in page.inner_text("#summary")
        first = page.locator('li.arrangement[data-rank="1"] .ev').get_attribute("data-ev")
        assert float(first) == pytest.approx(answer["arrangements"][0]["ev"])
        # the same request answers by the profile: with a seed, it is the solver's answer

        seeded = client.post("/v1/capsa/arrange", json={**sent, "seed": 3}).get_json()
        direct = solver.arrange(HAND, opponents=1, method="montecarlo", samples=SAMPLES, seed=3,
                                opponent_profiles=[want["Budi"]])
        assert seeded["arrangements"][0]["ev"] == pytest.approx(direct.best.ev, abs=1e-3)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"] + 1, f"{view}: the advice page is {width}px wide"
        _no_english_left(page, lang)
        page.screenshot(path=str(ARTEFACTS / f"advice-against-{lang}-{view}.png"), full_page=True)

        # the play page's Hint asks against it too (Capsa, heads-up)
        page.goto(f"{live.url}/static/play.html?lang={lang}")
        page.select_option("#game", "capsa")
        page.select_option("#players", "2")
        page.click("#start-btn")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_selector("#hint-against:not([hidden])")
        page.check("#hint-against-use")
        assert page.input_value("#hint-against-1") == "Budi"
        with page.expect_response("**/v1/sessions/advice") as res:
            page.click("#hint-btn")
        sent = res.value.request.post_data_json
        assert sent["opponent_profiles"][0]["params"] == want["Budi"]["params"]
        assert res.value.status == 200 and res.value.json()["method"] == "montecarlo"
        page.wait_for_selector("#hint-against-line")
        assert page.inner_text("#hint-against-line") == say(lang, "profile.advice.hint_against",
                                                            names="Budi")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"] + 1, f"{view}: the play page is {width}px wide"
        _no_english_left(page, lang)
        page.screenshot(path=str(ARTEFACTS / f"play-hint-against-{lang}-{view}.png"), full_page=True)

        # the drill deals against the profile: every opponent set as Budi, graded so
        page.evaluate("localStorage.removeItem('capsa-play-token')")
        page.goto(f"{live.url}/static/play.html?lang={lang}")
        page.select_option("#game", "capsa")
        page.select_option("#mode", "drill")
        page.select_option("#players", "2")
        page.wait_for_selector("#drill-against-field:not([hidden])")
        page.select_option("#drill-against", "Budi")
        with page.expect_response("**/v1/sessions/drill") as res:
            page.click("#start-btn")
        sent = res.value.request.post_data_json
        assert [p["params"] for p in sent["opponent_profiles"]] == [want["Budi"]["params"]]
        drill = res.value.json()
        assert drill["against_profiles"] == 1 and drill["method"] == "montecarlo"
        page.wait_for_selector("#drill:not([hidden])")
        rows = solver.arrange(" ".join(drill["own_cards"]), opponents=1).best.to_dict()
        for c in rows["front"]:
            page.click(f'#drill-hand button[data-card="{c}"]')
        for key, row in (("2", "middle"), ("3", "back")):
            for c in rows[row]:
                page.focus(f'#drill-hand button[data-card="{c}"]')
                page.keyboard.press(key)
        page.wait_for_selector("#drill #foul.good")
        with page.expect_response("**/v1/sessions/drill/move") as res:
            page.click("#drill #set-rows-btn")
        answer = res.value.json()["answer"]
        assert answer["method"] == "montecarlo"
        page.wait_for_selector("#drill-answer:not([hidden])")
        assert page.inner_text("#drill-model") == say(lang, "profile.drill.model.one", n=1, name="Budi")
        assert float(page.inner_text("#drill-best-ev")) == pytest.approx(answer["best_ev"], abs=1e-3)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"] + 1, f"{view}: the drill is {width}px wide"
        page.screenshot(path=str(ARTEFACTS / f"drill-against-{lang}-{view}.png"), full_page=True)


def test_the_page_reads_the_player_as_the_coach_reads_the_id(history):
    """The first of four fields, or the one before ``natural``, is what the coach keeps as the
    line's id: the page's player is that id."""
    from solver.games.capsa.coach import text_hand

    assert text_hand("Budi | 5s 3c 2h | As Ad Kh 7c 6d | Kd Qc Js Ts 9h")["id"] == "Budi"
    assert text_hand("Lan | natural | 2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac")["id"] == "Lan"
    assert "id" not in text_hand("5s 3c 2h | As Ad Kh 7c 6d | Kd Qc Js Ts 9h")
