"""End-to-end in Chromium through each front (nginx, the embedded one), at a desktop and a
phone viewport: /docs arrives gzipped in under 700 KB, a reload costs a 304 and not the page
again, and "Try it out" on a route sends the document's example and gets a 200."""

from __future__ import annotations

import json

import pytest
from browser_support import DESKTOP, watched_page
from test_serve import FRONTS

pytestmark = pytest.mark.browser

DOCS_BUDGET = 700_000
PHONE = {"width": 390, "height": 844}
VIEWPORTS = {"desktop": (DESKTOP, {}), "phone": (PHONE, {"has_touch": True, "is_mobile": True})}
TRIED = ("operations-capsa-capsa_arrange", "operations-capsa-capsa_review")


@pytest.fixture(scope="module", params=FRONTS)
def stack(request, served_stacks):
    return served_stacks.get(request.param)


def _navigation(page) -> dict:
    return json.loads(page.evaluate(
        "JSON.stringify(performance.getEntriesByType('navigation')[0])"))


@pytest.mark.parametrize("view", list(VIEWPORTS))
def test_docs_are_light_cached_and_their_examples_work(browser, stack, view):
    base = f"http://127.0.0.1:{stack.port}"
    viewport, options = VIEWPORTS[view]
    with watched_page(browser, base, viewport, **options) as page:
        page.goto(base + "/docs")
        page.wait_for_selector(".opblock")
        nav = _navigation(page)
        assert nav["encodedBodySize"] < nav["decodedBodySize"] / 3  # gzipped
        assert nav["transferSize"] < DOCS_BUDGET, nav["transferSize"]
        for block in TRIED:
            op = page.locator(f"#{block}")
            op.locator(".opblock-summary").first.click()
            op.locator(".try-out__btn").click()
            sent = json.loads(op.locator("textarea.body-param__text").input_value())
            assert sent and "string" not in json.dumps(sent)  # the example, not a made-up sample
            op.locator(".execute").click()
            status = op.locator(".live-responses-table tbody .response-col_status").first
            status.wait_for()
            assert status.inner_text().strip() == "200", block
    # Chromium's own cache (a context without the watch, whose request routing turns it off)
    context = browser.new_context(viewport=viewport, **options)
    try:
        page = context.new_page()
        page.goto(base + "/docs")
        page.wait_for_selector(".opblock")
        page.goto(base + "/docs")  # a new visit: the stored page, revalidated
        page.wait_for_selector(".opblock")
        again = _navigation(page)
        assert again["transferSize"] < 5_000, again  # a 304, not 544 KB again
        assert again["decodedBodySize"] > 2 * DOCS_BUDGET
    finally:
        context.close()
