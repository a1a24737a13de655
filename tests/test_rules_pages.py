"""The rules help pages: every game's rules file served at /rules/<game> in the language
asked for (a translation where there is one), rendered from its Markdown with everything in
it escaped; the translations keep the original's structure and every rule token."""

from __future__ import annotations

import re

import pytest

from api import i18n
from api.rules_page import GAMES, ORDER, RULES_DIR, inline, render, rules_file


@pytest.fixture(scope="module")
def http(tmp_path_factory):
    from api import create_app

    db = tmp_path_factory.mktemp("rules") / "s.sqlite3"
    return create_app({"TESTING": True, "WARMUP": False, "SESSIONS_DB": str(db)}).test_client()


def _text(page: str) -> str:
    return re.sub(r"<[^>]+>", " ", page)


def test_markup_in_a_rules_file_is_shown_not_run():
    out = render('# <script>alert(1)</script>\n- a <img src=x onerror="y"> `<b>`\n| a | <i> |\n|---|---|\n| 1 | 2 |')
    assert "<script>" not in out and "<img" not in out and "<i>" not in out
    assert "&lt;script&gt;" in out and "<code>&lt;b&gt;</code>" in out
    assert "<th scope=\"col\">&lt;i&gt;</th>" in out


def test_lists_tables_and_inline_marks():
    out = render("Intro line\ngoes on.\n\n- one\n  two\n  - inner\n- three\n\n| x | y |\n|---|---|\n| 1 | **2** |")
    assert out.startswith("<p>Intro line goes on.</p>")
    assert "<ul><li>one two<ul><li>inner</li></ul></li><li>three</li></ul>" in out
    assert "<td><strong>2</strong></td>" in out
    assert inline("`a*b*` **c**") == "<code>a*b*</code> <strong>c</strong>"


@pytest.mark.parametrize("name", ORDER)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_game_has_its_rules_in_every_language(name, lang):
    found = rules_file(name, lang)
    assert found is not None and found.lang == lang, f"{name} has no {lang} rules file"


@pytest.mark.parametrize("name", ORDER)
@pytest.mark.parametrize("lang", ["id", "vi"])
def test_a_translation_keeps_the_structure_and_every_rule_token(name, lang):
    """Same headings, list items and table rows; every `code` token of the English (card
    notation, option names and values) is in the translation."""
    en = (RULES_DIR / f"{name}.md").read_text(encoding="utf-8")
    tr = (RULES_DIR / lang / f"{name}.md").read_text(encoding="utf-8")

    def shape(text: str) -> list[str]:
        return [m.group(0)[:3].strip() for m in re.finditer(r"(?m)^(#+|\s*- |\|)", text)]

    assert shape(tr) == shape(en)
    missing = sorted(set(re.findall(r"`[^`]+`", en)) - set(re.findall(r"`[^`]+`", tr)))
    assert not missing, f"{lang}/{name}.md lacks {missing}"


def test_accept_language_picks_the_rules_language(http):
    res = http.get("/rules/capsa", headers={"Accept-Language": "vi-VN,vi;q=0.9"})
    assert res.status_code == 200 and res.mimetype == "text/html"
    page = res.get_data(as_text=True)
    assert '<html lang="vi"' in page and "Mậu Binh" in page and "chi 1" in page
    assert res.headers["Content-Language"] == "vi"
    assert "Accept-Language" in res.headers["Vary"]
    assert "script-src" not in res.headers["Content-Security-Policy"]  # no inline script


def test_query_and_cookie_pick_the_language(http):
    assert '<html lang="id"' in http.get("/rules/big-two?lang=id").get_data(as_text=True)
    http.set_cookie("lang", "vi")
    try:
        page = http.get("/rules/da-san", headers={"Accept-Language": "id"}).get_data(as_text=True)
        assert '<html lang="vi"' in page
    finally:
        http.delete_cookie("lang")


def test_the_index_links_every_game(http):
    page = http.get("/rules/?lang=id").get_data(as_text=True)
    for name in ORDER:
        assert f'href="/rules/{name}"' in page
    assert "Aturan permainan" in page


def test_registry_names_and_file_names_both_work(http):
    for name in GAMES:
        assert http.get(f"/rules/{name}").status_code == 200, name


def test_an_unknown_game_is_a_404_naming_it(http):
    res = http.get("/rules/chess")
    assert res.status_code == 404
    err = res.get_json()["error"]
    assert err["code"] == "unknown_game" and "chess" in err["message"]


def test_an_install_without_the_rules_files_says_so(tmp_path):
    from api import create_app

    app = create_app({"TESTING": True, "WARMUP": False, "SESSIONS_DB": str(tmp_path / "s"),
                      "RULES_DIR": tmp_path / "nowhere"})
    res = app.test_client().get("/rules/big-two")
    assert res.status_code == 404 and res.get_json()["error"]["code"] == "rules_missing"


def test_english_rules_are_the_files_word_for_word(http):
    page = _text(http.get("/rules/big-two?lang=en").get_data(as_text=True))
    assert "The holder of" in page and "3d" in page


def test_a_rules_page_the_browser_has_costs_a_304(http):
    first = http.get("/rules/da-san?lang=vi")
    tag = first.headers["ETag"]
    assert http.get("/rules/da-san?lang=vi", headers={"If-None-Match": tag}).status_code == 304
    assert http.get("/rules/da-san?lang=id", headers={"If-None-Match": tag}).status_code == 200
