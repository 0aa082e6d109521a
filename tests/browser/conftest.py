"""Fixtures of the playground's browser tests.

Each test gets its own headless Chromium (Debian's /usr/bin/chromium, never a
browser Playwright downloads) with a fresh, empty profile, so session storage,
caches and cookies never leak from one test into another.

Environment: API_URL (the running stack, default http://127.0.0.1:9000),
DEMO_KEY (a key with quota), CHROMIUM (the browser binary), SCREENSHOTS=1
(also write docs/images/*.png).
"""

import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import sync_playwright

from helpers import API_URL, CHROMIUM, Playground, is_emulator_failure

# Without the background-networking flags Chromium keeps calling home, which on
# a machine without outside network is a stream of failing connections.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
]


def _get(path, accept="*/*", seconds=120):
    """GET API_URL + path: (content type, body). Retries what a stack that is
    just starting answers (refused connections, cargo lambda watch's own 500
    while a function starts), which a browser would not."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            request = urllib.request.Request(API_URL + path, headers={"Accept": accept})
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.headers.get("content-type", ""), response.read().decode("utf-8", "replace")
        except (urllib.error.URLError, ConnectionError) as err:
            retry = not isinstance(err, urllib.error.HTTPError) or err.code in (500, 502, 503)
            if not retry or time.monotonic() > deadline:
                raise
            time.sleep(1)


@pytest.fixture(scope="session")
def served():
    """The stack serves the playground at / (else every test would fail for
    the same reason, so say it once, plainly), and every page and asset has
    been asked once, so that no test meets a function's cold start."""
    try:
        kind, body = _get("/", "text/html")
    except Exception as err:  # noqa: BLE001 - any failure means the same thing here
        pytest.fail(f"the playground is not served at {API_URL}/ ({err}); is the stack up (make up)?")
    if "text/html" not in kind or "playground.js" not in body:
        pytest.fail(f"{API_URL}/ does not serve the playground page (content-type {kind!r})")
    pages = [body]
    try:
        pages.append(_get("/api/v1/api/graphql", "text/html")[1])
    except urllib.error.HTTPError:
        pass  # the explorer's own tests say what is wrong with it
    linked = {a for page in pages for a in re.findall(r'(?:src|href)="(/(?:assets/|api/v1/openapi)[^"]+)"', page)}
    for asset in sorted(linked):
        try:
            _get(asset)
        except urllib.error.HTTPError:
            pass  # a missing asset is the page tests' finding, not the warm-up's
    return True


@pytest.fixture(scope="session")
def playwright_driver():
    with sync_playwright() as driver:
        yield driver


@pytest.fixture
def context(playwright_driver, served, tmp_path):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: run infra/scripts/install-browser.sh")
    profile = tmp_path / "profile"
    profile.mkdir()
    ctx = playwright_driver.chromium.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        viewport={"width": 1280, "height": 900},
        locale="en-US",
        timezone_id="UTC",
    )
    ctx.set_default_timeout(20_000)
    yield ctx
    ctx.close()


# A static file is answered in milliseconds; far longer means it was lost.
STATIC_FILE_WAIT_MS = 5_000


def retry_emulator_failures(route):
    """What the page asks of the service, with cargo lambda watch's own 500 (a
    problem document the functions never send) retried, as the Rust
    black-box client does: it is the local emulator's, not the page's."""
    static = urllib.parse.urlsplit(route.request.url).path == "/" or "/assets/" in route.request.url
    for attempt in range(4):
        try:
            # The emulator also loses a request now and then: it never
            # answers. A static file is asked again (nothing is counted);
            # the API's requests are not, as they may have been counted.
            response = route.fetch(timeout=STATIC_FILE_WAIT_MS if static else None)
        except PlaywrightTimeoutError:
            if not static or attempt == 3:
                route.abort("timedout")  # the page meets the failure
                return
            print(f"cargo lambda watch never answered {route.request.url}; asking again")
            continue
        except Exception:  # noqa: BLE001 - refused, reset, aborted by the page
            try:
                route.continue_()  # let the browser meet it itself
            except Exception:  # noqa: BLE001 - the page no longer waits for it
                pass
            return
        if response.status != 500 or attempt == 3:
            break
        try:
            body = response.json()
        except Exception:  # noqa: BLE001 - not JSON: not the emulator's document
            break
        if not is_emulator_failure(500, body):
            break
        print(f"cargo lambda watch answered its own 500 for {route.request.url}; retrying")
        time.sleep(0.3)
    try:
        route.fulfill(response=response)
    except Exception:  # noqa: BLE001 - the page aborted the request meanwhile
        pass


@pytest.fixture
def page(context):
    page = context.pages[0] if context.pages else context.new_page()
    # Tests that route requests themselves pass them on with route.fallback().
    # The pages' assets too: cargo lambda watch also fails a page's parallel
    # asset loads now and then. Only these globs: a predicate (or a pattern
    # that takes in S3's audio) would route the media requests through this
    # process, and Chromium then stalls the audio.
    for pattern in ("**/api/v1/**", "**/assets/*"):
        page.route(pattern, retry_emulator_failures)
    problems = []
    # What the page must never do: break its own CSP, or throw.
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" and "Content Security Policy" in msg.text else None)
    page.on("pageerror", lambda err: problems.append(f"uncaught: {err}"))
    page.problems = problems
    yield page


@pytest.fixture
def playground(page):
    return Playground(page)
