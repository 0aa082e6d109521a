"""The API as the tests ask it directly (to know the right answer), and the
playground page as a person uses it."""

import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

API_URL = os.environ.get("API_URL", "http://127.0.0.1:9000").rstrip("/")
DEMO_KEY = os.environ.get("DEMO_KEY", "dk_localDemoKey00000000000000000000")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = os.environ.get("SCREENSHOTS") == "1"
IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
KEY_NAME = "dictionary-api-key"


def api(path, key=DEMO_KEY, **params):
    """GET API_URL + path with the key; returns (status, envelope)."""
    query = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
    url = API_URL + path + ("?" + query if query else "")
    headers = {"Accept": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(url, headers=headers)
    for attempt in range(4):
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as err:
            status, body = err.code, json.loads(err.read() or b"null")
        if attempt < 3 and is_emulator_failure(status, body):
            time.sleep(0.5)
            continue
        return status, body
    raise AssertionError("unreachable")


def is_emulator_failure(status, body):
    """cargo lambda watch now and then answers a 500 of its own (a problem
    document) without the function seeing the request; the functions' own
    500 is the `Internal error` envelope, which is never retried."""
    return status == 500 and isinstance(body, dict) and body.get("type") == "https://httpstatuses.com/500"


def api_ok(path, **params):
    status, envelope = api(path, **params)
    assert status == 200 and envelope["ok"], f"{path} {params}: {status} {envelope}"
    return envelope


def search_total(**params):
    return api_ok("/api/v1/api/search", **params)["meta"]["total"]


def reverse_ok(**params):
    """The envelope of GET /api/v1/api/reverse (the reverse lookup), or a
    failure that says the endpoint is missing when the stack has none."""
    status, envelope = api("/api/v1/api/reverse", **params)
    if status == 404 and isinstance(envelope, dict) and envelope.get("error") == "Not found":
        raise AssertionError("the stack has no /api/v1/api/reverse (404 Not found): the endpoint is not in this build")
    assert status == 200 and envelope["ok"], f"/api/v1/api/reverse {params}: {status} {envelope}"
    return envelope


def search_keys(**params):
    """(dictionaryId, id) of the results of a search, in order."""
    return [(r["dictionaryId"], r["id"]) for r in api_ok("/api/v1/api/search", **params)["data"]]


def screenshot(page: Page, name: str):
    """With SCREENSHOTS=1, docs/images/<name>.png of the page as it is."""
    if not SCREENSHOTS:
        return
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMAGES / f"{name}.png"), full_page=False)


class Playground:
    """The page at / driven through its controls, as a person would."""

    def __init__(self, page: Page):
        self.page = page
        self.total = page.locator("#result-total")
        self.query_echo = page.locator("#status .status__query")
        self.results = page.locator("#results .result")
        self.range = page.locator("#range")
        self.error = page.locator("#error")
        self.entry_word = page.locator("#entry-word")
        self.entry_html = page.locator("#entry-html")
        self.mode_search = page.locator("#mode-search")
        self.mode_reverse = page.locator("#mode-reverse")

    def open(self, key=DEMO_KEY, hash_=""):
        response = self.goto(API_URL + "/" + hash_)
        assert response is not None and response.status == 200, f"GET / answered {response and response.status}"
        if key is not None:
            self.page.locator("#api-key").fill(key)
        return response

    def goto(self, url):
        """page.goto, once more if the load timed out: cargo lambda watch now
        and then never answers a request (the page's assets are asked again
        by the page fixture's route; the page itself is not routed, as
        Chromium then stalls its audio). A page that hangs on every load
        still fails."""
        try:
            return self.page.goto(url)
        except PlaywrightTimeoutError:
            print(f"the load of {url} timed out; loading it once more", file=sys.stderr)
            return self.page.goto(url)

    def wait_usage(self):
        expect(self.page.locator("#usage-plan")).not_to_be_empty()

    def type_query(self, text, delay=60):
        box = self.page.locator("#q")
        box.click()
        box.press_sequentially(text, delay=delay)

    def replace_query(self, text):
        box = self.page.locator("#q")
        box.fill("")
        box.press_sequentially(text, delay=30)

    def expect_total(self, query, total):
        """The status says `total` results for `query` (the echoed query ends
        the wait: an earlier query's total may be equal)."""
        try:
            expect(self.query_echo).to_have_text(query)
            expect(self.total).to_have_attribute("data-total", str(total))
            expect(self.total).to_have_text(f"{total:,}")
        except AssertionError as err:
            shown = self.page.locator("#status").inner_text()
            error = self.error.inner_text() if self.error.is_visible() else "(none)"
            raise AssertionError(f"{total} results for {query!r} expected; the page says {shown!r}, error {error!r}\n{err}") from None

    def expect_results(self, query, endpoint="search", **params):
        """The page shows exactly what the API answers for `query` and
        `params` (page size 20 unless given) at `endpoint` (search, or
        reverse for the reverse lookup): the echoed query, the total and the
        results' ids in order. Returns the total."""
        params.setdefault("limit", 20)
        if endpoint == "reverse":
            envelope = reverse_ok(q=query, **params)
        else:
            envelope = api_ok(f"/api/v1/api/{endpoint}", q=query, **params)
        want = {
            "echo": query,
            "total": str(envelope["meta"]["total"]),
            "keys": [[r["dictionaryId"], r["id"]] for r in envelope["data"]],
        }
        deadline = time.monotonic() + 20
        while True:
            shown = self.page.evaluate(
                """() => ({
                    echo: (document.querySelector('#status .status__query') || {}).textContent || null,
                    total: (document.querySelector('#result-total') || {dataset: {}}).dataset.total || null,
                    keys: [...document.querySelectorAll('#results .result')].map(b => [b.dataset.source, b.dataset.id]),
                })"""
            )
            if shown == want:
                return envelope["meta"]["total"]
            if time.monotonic() > deadline:
                error = self.error.inner_text() if self.error.is_visible() else "(none)"
                raise AssertionError(f"{query!r} {params}: the page shows {shown}, the API {want}; error {error!r}")
            self.page.wait_for_timeout(100)

    def result_keys(self):
        return [
            (b.get_attribute("data-source"), b.get_attribute("data-id"))
            for b in self.results.element_handles()
        ]

    def switch_mode(self, mode):
        """Picks search or reverse lookup by its label (the radios are drawn
        as a segmented control, the inputs themselves out of sight)."""
        label = self.page.locator(f"label[for=mode-{mode}]")
        label.click()
        expect(self.page.locator(f"#mode-{mode}")).to_be_checked()

    def open_entry(self, source, word):
        """Searches `word` exactly in `source` and opens the first result."""
        self.page.locator("#source").select_option(source)
        self.page.locator("#matchType").select_option("exact")
        self.replace_query(word)
        total = search_total(q=word, source=source, matchType="exact")
        assert total >= 1, f"{word} is not in {source}"
        self.expect_total(word, total)
        first = self.results.first
        expect(first).to_have_attribute("data-source", source)
        first.click()
        expect(self.entry_word).to_have_text(word)
