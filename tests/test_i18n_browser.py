"""End-to-end in Chromium: the pages take the browser's language by default, the picker in
each page's header changes it and the choice is remembered (localStorage and the cookie)."""

from __future__ import annotations

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
