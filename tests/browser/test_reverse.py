"""The playground's reverse mode ("find words meaning…", GET
/api/v1/api/reverse) and the translation chips that open it.

The tests of the page's own side (which request it sends, what it keeps in
the URL, what it offers) answer the reverse requests with a stand-in: search's
answer to the same parameters, real entries in the shape reverse shares, so
they hold whatever the endpoint finds. The tests named `..._finds_...` ask the
real endpoint and compare the page with it."""

import json
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import expect

from helpers import api, api_ok, reverse_ok, screenshot

REVERSE_GLOB = "**/api/v1/api/reverse?*"


def query_of(url):
    return dict(parse_qsl(urlsplit(url).query))


def hash_of(url):
    return dict(parse_qsl(urlsplit(url).fragment))


def stand_in_for_reverse(page):
    """Answers the page's reverse requests with search's answer to the same
    parameters; returns the list of the requests' parameters, in order."""
    sent = []

    def answer(route):
        params = query_of(route.request.url)
        sent.append(params)
        status, envelope = api("/api/v1/api/search", **params)
        try:
            route.fulfill(
                status=status,
                headers={"Content-Type": "application/json; charset=utf-8"},
                body=json.dumps(envelope),
            )
        except Exception:  # noqa: BLE001 - the page aborted it (a newer query)
            pass

    page.route(REVERSE_GLOB, answer)
    return sent


def requests_to(page, path):
    """The parameters of every request the page sends to `path`, in order."""
    seen = []
    page.on("request", lambda r: seen.append(query_of(r.url)) if urlsplit(r.url).path == path else None)
    return seen


def wait_for(page, predicate, what, seconds=20):
    for _ in range(seconds * 10):
        if predicate():
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never happened: {what}")


def shown_keys(playground):
    return [list(k) for k in playground.result_keys()]


def test_reverse_mode_asks_the_reverse_endpoint_and_renders_its_answer(playground, page):
    sent = stand_in_for_reverse(page)
    searches = requests_to(page, "/api/v1/api/search")
    playground.open()
    playground.wait_usage()
    expect(playground.mode_search).to_be_checked()
    playground.switch_mode("reverse")
    expect(page.locator("#search-help")).to_contain_text("definition or translation")
    playground.type_query("house")
    wait_for(page, lambda: sent and sent[-1].get("q") == "house", "a reverse request for house")
    # Search's parameters but matchType and fuzzy; nothing went to search.
    assert sent[-1] == {"q": "house", "limit": "20", "offset": "0"}, sent[-1]
    assert not [s for s in searches if s.get("q", "").startswith("h")], searches

    answer = api_ok("/api/v1/api/search", q="house", limit=20)
    expect(playground.query_echo).to_have_text("house")
    expect(playground.total).to_have_attribute("data-total", str(answer["meta"]["total"]))
    expect(page.locator("#status")).to_contain_text(re.compile(r"words? meaning “house”"))
    assert shown_keys(playground) == [[r["dictionaryId"], r["id"]] for r in answer["data"]]
    expect(playground.range).to_have_text(re.compile(r"^Results 1–"))

    # A result opens its entry as in search, from the keyboard.
    first = playground.results.first
    first.focus()
    page.keyboard.press("Enter")
    expect(playground.entry_word).to_have_text(answer["data"][0]["word"])
    expect(first).to_have_attribute("aria-current", "true")
    assert page.problems == []


def test_reverse_mode_sends_the_filters_and_pages(playground, page):
    sent = stand_in_for_reverse(page)
    playground.open(hash_="#mode=reverse")
    playground.wait_usage()
    expect(playground.mode_reverse).to_be_checked()
    page.locator("#limit").select_option("5")
    playground.type_query("a")
    total = api_ok("/api/v1/api/search", q="a", limit=5)["meta"]["total"]
    assert total > 10
    playground.expect_total("a", total)
    expect(playground.range).to_have_text(f"Results 1–5 of {total:,}")
    page.locator("#next").click()
    expect(playground.range).to_have_text(f"Results 6–10 of {total:,}")
    assert sent[-1] == {"q": "a", "limit": "5", "offset": "5"}, sent[-1]
    assert hash_of(page.url).get("offset") == "5"
    page.locator("#prev").click()
    expect(playground.range).to_have_text(f"Results 1–5 of {total:,}")

    page.locator("#lang").select_option("en-fr")
    page.locator("#source").select_option("freedict-eng-fra")
    page.locator("#pos").fill("noun")
    page.locator("#hasAudio").check()
    wait_for(page, lambda: sent[-1].get("hasAudio") == "true", "a reverse request with hasAudio")
    assert sent[-1] == {
        "q": "a", "lang": "en-fr", "source": "freedict-eng-fra", "pos": "noun",
        "hasAudio": "true", "limit": "5", "offset": "0",
    }, sent[-1]
    playground.expect_total("a", api_ok("/api/v1/api/search", **sent[-1])["meta"]["total"])
    assert page.problems == []


def test_reverse_mode_is_kept_in_the_url_and_restored_on_reload(playground, page):
    sent = stand_in_for_reverse(page)
    playground.open()
    playground.wait_usage()
    playground.switch_mode("reverse")
    page.locator("#lang").select_option("fr-en")
    playground.type_query("house")
    wait_for(page, lambda: hash_of(page.url).get("q") == "house", "q=house in the URL")
    assert hash_of(page.url) == {"mode": "reverse", "q": "house", "lang": "fr-en"}, page.url

    sent.clear()
    page.reload()
    expect(playground.mode_reverse).to_be_checked()
    expect(page.locator("#q")).to_have_value("house")
    expect(page.locator("#lang")).to_have_value("fr-en")
    expect(page.locator("#matchType")).to_be_hidden()
    # The reload asks the reverse lookup again, not search.
    wait_for(page, lambda: sent, "a reverse request after the reload")
    assert sent[-1] == {"q": "house", "lang": "fr-en", "limit": "20", "offset": "0"}, sent[-1]
    expect(playground.query_echo).to_have_text("house")

    # Back to search: the mode leaves the URL, and search is asked.
    searches = requests_to(page, "/api/v1/api/search")
    playground.switch_mode("search")
    wait_for(page, lambda: searches and searches[-1].get("q") == "house", "a search for house")
    assert "mode" not in hash_of(page.url), page.url
    assert page.problems == []


def test_match_type_and_fuzzy_are_not_offered_in_reverse_mode(playground, page):
    sent = stand_in_for_reverse(page)
    searches = requests_to(page, "/api/v1/api/search")
    playground.open(hash_="#q=house&matchType=exact&fuzzy=false")
    playground.wait_usage()
    match = page.locator("#matchType")
    fuzzy = page.locator("#fuzzy")
    expect(match).to_be_visible()
    expect(match).to_have_value("exact")

    playground.switch_mode("reverse")
    expect(match).to_be_hidden()
    expect(match).to_be_disabled()
    expect(page.locator("label[for=matchType]")).to_be_hidden()
    expect(fuzzy).to_be_hidden()
    expect(fuzzy).to_be_disabled()
    wait_for(page, lambda: sent, "a reverse request")
    assert sent[-1] == {"q": "house", "limit": "20", "offset": "0"}, sent[-1]
    assert hash_of(page.url) == {"mode": "reverse", "q": "house"}, page.url
    # No headword suggestions either: q is a meaning, not the start of a word.
    suggestions = requests_to(page, "/api/v1/api/autocomplete")
    playground.type_query("s")
    wait_for(page, lambda: sent[-1].get("q") == "houses", "a reverse request for houses")
    page.wait_for_timeout(500)
    assert suggestions == [], suggestions
    expect(page.locator("#suggestions option")).to_have_count(0)

    # Search comes back with the choices it had.
    searches.clear()
    playground.switch_mode("search")
    expect(match).to_be_visible()
    expect(match).to_have_value("exact")
    expect(fuzzy).not_to_be_checked()
    wait_for(page, lambda: searches, "a search")
    assert searches[-1].get("matchType") == "exact" and searches[-1].get("fuzzy") == "false", searches[-1]
    assert page.problems == []


def test_a_link_to_reverse_mode_leaves_its_match_type_out(playground, page):
    # A pattern of one letter is never sent to search; reverse has no patterns.
    sent = stand_in_for_reverse(page)
    playground.open(hash_="#mode=reverse&q=h%3F&matchType=pattern&fuzzy=false")
    expect(playground.mode_reverse).to_be_checked()
    expect(page.locator("#matchType")).to_be_hidden()
    wait_for(page, lambda: sent, "a reverse request")
    assert sent[-1] == {"q": "h?", "limit": "20", "offset": "0"}, sent[-1]
    expect(page.locator("#status")).not_to_contain_text("at least 2 letters")
    assert page.problems == []


# (dictionary, headword, one of its translations, the dictionary's pair)
CHIPS = [
    ("freedict-fra-eng", "maison", "house", "fr-en"),
    ("freedict-eng-fra", "house", "maison", "en-fr"),
]


@pytest.mark.parametrize(("source", "word", "translation", "pair"), CHIPS, ids=[f"{s}:{w}" for s, w, _, _ in CHIPS])
def test_a_translation_chip_opens_the_reverse_lookup_of_its_pair(playground, page, source, word, translation, pair):
    sent = stand_in_for_reverse(page)
    entry = api_ok(f"/api/v1/api/entry/{source}/word/{word}")["data"]
    assert translation in entry["translations"], entry["translations"]
    assert f"{entry['sourceLang']}-{entry['targetLang']}" == pair, entry
    playground.open()
    playground.open_entry(source, word)  # with the dictionary filter and an exact match chosen

    chips = page.locator(".entry-list--translations .chip")
    expect(chips).to_have_text(entry["translations"])
    chip = page.locator(".entry-list--translations").get_by_role("link", name=translation, exact=True)
    # A real link, to the state it opens (a new tab shows the same).
    assert hash_of(chip.get_attribute("href"))["mode"] == "reverse"
    assert hash_of(chip.get_attribute("href"))["q"] == translation
    assert hash_of(chip.get_attribute("href"))["lang"] == pair

    # From the keyboard.
    open_entry = hash_of(page.url)["entry"]
    chip.focus()
    page.keyboard.press("Enter")
    expect(playground.mode_reverse).to_be_checked()
    expect(page.locator("#q")).to_have_value(translation)
    expect(page.locator("#q")).to_be_focused()
    expect(page.locator("#lang")).to_have_value(pair)
    # The dictionary filter chosen before is dropped: the pair says where to look.
    expect(page.locator("#source")).to_have_value("")
    expect(page.locator("#matchType")).to_be_hidden()
    wait_for(page, lambda: sent and sent[-1].get("q") == translation, f"a reverse request for {translation}")
    assert sent[-1] == {"q": translation, "lang": pair, "limit": "20", "offset": "0"}, sent[-1]
    state = hash_of(page.url)
    assert (state["mode"], state["q"], state["lang"]) == ("reverse", translation, pair), page.url
    # The entry stays open beside the results.
    expect(playground.entry_word).to_have_text(word)
    assert state["entry"] == open_entry
    assert page.problems == []


def test_monolingual_entries_have_no_reverse_chips(playground, page):
    playground.open()
    playground.open_entry("wordnet-en", "good")
    entry = api_ok("/api/v1/api/entry/wordnet-en/word/good")["data"]
    assert entry["targetLang"] is None
    expect(page.locator(".entry-lists a.chip")).to_have_count(0)
    expect(page.locator(".entry-lists [data-reverse-lang]")).to_have_count(0)


def test_a_synonym_chip_searches_even_in_reverse_mode(playground, page):
    stand_in_for_reverse(page)
    playground.open()
    playground.open_entry("wordnet-en", "good")
    entry = api_ok("/api/v1/api/entry/wordnet-en/word/good")["data"]
    playground.switch_mode("reverse")
    expect(page.locator("#matchType")).to_be_hidden()
    synonym = entry["synonyms"][0]
    page.locator(".entry-list--synonyms").get_by_role("button", name=synonym, exact=True).first.click()
    # A synonym is a headword: it is searched, with the filters as they were.
    expect(playground.mode_search).to_be_checked()
    expect(page.locator("#matchType")).to_be_visible()
    playground.expect_results(synonym, source="wordnet-en", matchType="exact")


# Real behaviour of the endpoint on the fixture: these pass once
# GET /api/v1/api/reverse is in the build the stack serves.

# (what is meant, the language filter or None for any, a word it must find)
MEANINGS = [
    ("house", "fr-en", "maison"),
    # The fixture's WordNet has cat ("feline mammal usually having thick soft
    # fur…") but not puppy: a few words of a definition, in English only.
    ("feline mammal", "en", "cat"),
    ("house", None, "Haus"),
]


@pytest.mark.parametrize(("meaning", "lang", "word"), MEANINGS, ids=[f"{q}:{l or 'any'}" for q, l, _ in MEANINGS])
def test_reverse_lookup_finds_words_by_meaning(playground, page, meaning, lang, word):
    expected = reverse_ok(q=meaning, lang=lang, limit=20)
    assert word in [r["word"] for r in expected["data"]], expected["data"]
    playground.open()
    playground.wait_usage()
    playground.switch_mode("reverse")
    if lang:
        page.locator("#lang").select_option(lang)
    playground.type_query(meaning)
    playground.expect_results(meaning, endpoint="reverse", lang=lang)
    found = playground.results.filter(has=page.locator(".result__word", has_text=re.compile(f"^{word}$")))
    expect(found.first).to_be_visible()
    found.first.click()
    expect(playground.entry_word).to_have_text(word)
    if word == "Haus":
        expect(page.locator("#thesaurus-status")).not_to_contain_text("Looking up")
        page.locator("#q").blur()
        screenshot(page, "playground-reverse")
    assert page.problems == []


def test_a_translation_chip_finds_the_entry_it_came_from(playground, page):
    playground.open()
    playground.open_entry("freedict-fra-eng", "maison")
    page.locator(".entry-list--translations").get_by_role("link", name="house", exact=True).click()
    playground.expect_results("house", endpoint="reverse", lang="fr-en")
    # maison is among the French words that translate "house", marked as the open entry.
    current = page.locator('#results .result[aria-current="true"]')
    expect(current).to_have_count(1)
    expect(current.locator(".result__word")).to_have_text("maison")


def test_reverse_lookup_pages_and_filters_like_search(playground, page):
    probe = reverse_ok(q="house", limit=2)
    total = probe["meta"]["total"]
    assert total > 2, f"house finds {total} entries by meaning; the test needs more than a page of 2"
    playground.open(hash_="#mode=reverse&q=house&limit=2")
    playground.expect_results("house", endpoint="reverse", limit=2)
    expect(playground.range).to_have_text(f"Results 1–2 of {total:,}")
    page.locator("#next").click()
    playground.expect_results("house", endpoint="reverse", limit=2, offset=2)
    page.locator("#source").select_option("freedict-fra-eng")
    one = playground.expect_results("house", endpoint="reverse", limit=2, source="freedict-fra-eng")
    assert 0 < one <= total
    assert {s for s, _ in playground.result_keys()} == {"freedict-fra-eng"}
    assert page.problems == []
