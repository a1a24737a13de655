"""The message catalogs (``api/i18n``) and their routes: every key in all three languages with
a real text and the same placeholders, every key a page names present, and the language
chosen from ``?lang=``, the cookie and ``Accept-Language``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from api import i18n

STATIC = Path(i18n.__file__).resolve().parent.parent / "static"
# Keys whose text may be the same in a language as in English: names and notation a player
# of that language uses as they are.
SAME_AS_ENGLISH = {
    # Indonesian players say flush and straight flush as they are (seed: "straight flush")
    "id": {"kind.flush", "kind.straight_flush", "game.big-two", "option.capsa.preset.indonesia"},
    "vi": set(),
}
# text that is the same in every language: placeholders, numbers, signs, a team's letter,
# the games' own names
_SAME_OK = re.compile(r"^[\s\d\W]*[A-Z]?[\s\d\W]*$|^(EV|OK|Capsa Susun|Capsa Banting|Big Two|Da San|Da Bai Fen)$")


@pytest.fixture(scope="module")
def catalogs():
    return {lang: i18n.catalog(lang) for lang in i18n.LANGUAGES}


def test_every_key_is_in_every_language(catalogs):
    keys = {lang: set(c.messages) for lang, c in catalogs.items()}
    for lang in i18n.LANGUAGES:
        missing = keys["en"] - keys[lang]
        extra = keys[lang] - keys["en"]
        assert not missing, f"{lang} lacks {sorted(missing)}"
        assert not extra, f"{lang} has keys English lacks: {sorted(extra)}"


def test_every_key_is_in_the_same_file_in_each_language(catalogs):
    moved = [f"{key}: {c.lang}/{c.origin[key]} vs en/{catalogs['en'].origin[key]}"
             for c in catalogs.values() for key in c.messages
             if key in catalogs["en"].origin and c.origin[key] != catalogs["en"].origin[key]]
    assert not moved, moved


def test_no_message_is_empty_and_placeholders_agree(catalogs):
    en = catalogs["en"].messages
    for c in catalogs.values():
        for key, text in c.messages.items():
            assert text.strip(), f"{c.lang}: {key} is empty"
            assert i18n.placeholders(text) == i18n.placeholders(en.get(key, text)), (
                f"{c.lang}: {key} has placeholders {sorted(i18n.placeholders(text))}, English "
                f"{sorted(i18n.placeholders(en[key]))}")


def test_translations_are_translated(catalogs):
    """A text left in English is a text not translated, names and notation aside."""
    en = catalogs["en"].messages
    for lang in ("id", "vi"):
        same = [key for key, text in catalogs[lang].messages.items()
                if text == en[key] and not _SAME_OK.match(re.sub(r"\{\w+\}", "", text))
                and key not in SAME_AS_ENGLISH[lang]]
        assert not same, f"{lang}: left in English: {same}"


OWN_FILES = ("table", "review", "profile")  # areas whose keys live in a file of their own


def test_keys_are_dotted_and_areas_keep_to_their_file(catalogs):
    """``table.*`` only in table.json and nothing else there; the same for ``review.*``."""
    for key, name in catalogs["en"].origin.items():
        assert re.fullmatch(r"[a-z0-9_]+(\.[A-Za-z0-9_-]+)+", key), key
        area, stem = key.split(".")[0], name.removesuffix(".json")
        if area in OWN_FILES or stem in OWN_FILES:
            assert area == stem, f"{key} is in {name}"


def test_a_key_in_two_files_is_refused(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({"a.x": "one"}))
    (tmp_path / "b.json").write_text(json.dumps({"a.x": "two"}))
    with pytest.raises(ValueError, match="a.x.*a.json.*b.json"):
        i18n.read_catalog(tmp_path, "en")


def test_a_catalog_must_be_flat_strings(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps({"a.x": {"nested": "no"}}))
    with pytest.raises(ValueError, match="not a string"):
        i18n.read_catalog(tmp_path, "en")


def _static_keys() -> dict[str, set[str]]:
    """The literal keys each page and script names: t("key"...), tn("key"...), data-i18n*."""
    found: dict[str, set[str]] = {}
    call = re.compile(r"""\btn?\(\s*["']([a-z0-9_]+(?:\.[A-Za-z0-9_-]+)+)["']""")
    mark = re.compile(r"""data-i18n(?:-[a-z-]+)?=["']([^"']+)["']""")
    for path in sorted(STATIC.glob("*.js")) + sorted(STATIC.glob("*.html")):
        if path.name == "i18n.js":  # its comments show made-up keys
            continue
        text = path.read_text(encoding="utf-8")
        keys = set(call.findall(text)) | set(mark.findall(text))
        if keys:
            found[path.name] = keys
    return found


def test_every_key_a_page_names_is_in_the_catalog(catalogs):
    en = catalogs["en"].messages
    missing = {name: sorted(k for k in keys if k not in en and f"{k}.one" not in en)
               for name, keys in _static_keys().items()}
    missing = {name: keys for name, keys in missing.items() if keys}
    assert not missing, missing


def test_t_fills_placeholders_and_refuses_unknown_keys():
    assert i18n.t("vi", "common.language") == "Ngôn ngữ"
    with pytest.raises(KeyError, match="no.such"):
        i18n.t("en", "no.such.key")


@pytest.mark.parametrize("query, cookie, accept, want", [
    (None, None, "vi-VN,vi;q=0.9,en;q=0.8", "vi"),
    (None, None, "en-US,en;q=0.9,id;q=0.8", "en"),
    (None, None, "fr-FR, in-ID;q=0.5", "id"),
    (None, None, "vi;q=0, id;q=0.2", "id"),
    (None, None, "*", "en"),
    (None, None, "", "en"),
    (None, "id", "vi", "id"),
    ("vi", "id", "en", "vi"),
    ("VI", None, None, "vi"),
    ("xx", "zz", "id;q=banana, vi;q=0.4", "vi"),
])
def test_the_language_is_chosen(query, cookie, accept, want):
    assert i18n.choose(query, cookie, accept) == want


@pytest.fixture(scope="module")
def http(tmp_path_factory):
    from api import create_app

    db = tmp_path_factory.mktemp("i18n") / "s.sqlite3"
    return create_app({"TESTING": True, "WARMUP": False, "SESSIONS_DB": str(db)}).test_client()


def test_accept_language_picks_the_catalog(http):
    res = http.get("/i18n.json", headers={"Accept-Language": "vi-VN,vi;q=0.9"})
    assert res.status_code == 200
    body = res.get_json()
    assert body["lang"] == "vi"
    assert body["messages"]["common.language"] == "Ngôn ngữ"
    assert [lang["code"] for lang in body["languages"]] == ["en", "id", "vi"]
    assert "Accept-Language" in res.headers["Vary"]


def test_the_cookie_beats_accept_language(http):
    http.set_cookie("lang", "id")
    try:
        res = http.get("/i18n.json", headers={"Accept-Language": "vi"})
        assert res.get_json()["lang"] == "id"
    finally:
        http.delete_cookie("lang")
    assert http.get("/i18n.json").get_json()["lang"] == "en"


def test_a_named_catalog_and_an_unknown_one(http):
    assert http.get("/i18n/id.json").get_json()["messages"]["common.language"] == "Bahasa"
    res = http.get("/i18n/fr.json")
    assert res.status_code == 404
    assert res.get_json()["error"]["code"] == "unknown_language"
    assert "fr" in res.get_json()["error"]["message"]


def test_a_catalog_the_browser_has_costs_a_304(http):
    first = http.get("/i18n/vi.json")
    assert first.headers["Cache-Control"] == "no-cache" and first.headers["ETag"]
    again = http.get("/i18n/vi.json", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and not again.data
    assert http.get("/i18n/id.json", headers={"If-None-Match": first.headers["ETag"]}).status_code == 200


@pytest.mark.parametrize("module", ["api.i18n", "api.rules_page"])
def test_the_examples_in_the_docstrings_hold(module):
    """``make test`` collects the doctests of ``solver`` only: these modules' run here."""
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted and not result.failed
