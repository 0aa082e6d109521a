"""The playground page at /, driven in headless Chromium against the running
stack. Every expected figure is asked of the API itself in the test."""

import re

import pytest
from playwright.sync_api import expect

from helpers import API_URL, DEMO_KEY, KEY_NAME, api, api_ok, screenshot, search_keys, search_total


def test_page_is_served_with_its_security_policy(playground, page):
    response = playground.open(key=None)
    csp = response.headers.get("content-security-policy", "")
    assert "script-src 'self'" in csp and "connect-src 'self'" in csp, csp
    expect(page).to_have_title(re.compile("playground", re.I))
    expect(page.locator("label[for=api-key]")).to_have_text("API key")
    # Every asset the page loads comes from this origin.
    origins = page.evaluate("performance.getEntriesByType('resource').map(e => new URL(e.name).origin)")
    assert origins and set(origins) == {API_URL}, origins
    assert page.problems == []


def test_search_as_you_type_shows_the_api_total(playground, page):
    playground.open()
    # No Enter, no button: the results follow the typing.
    playground.type_query("ho")
    playground.expect_total("ho", search_total(q="ho"))
    playground.type_query("us")
    total = search_total(q="hous")
    assert total > 0
    playground.expect_total("hous", total)
    expect(playground.results).to_have_count(min(total, 20))
    expect(playground.results.first.locator(".result__word")).to_contain_text(re.compile("^hous", re.I))
    # The entry panel says what to do until a result is picked.
    expect(page.locator("#entry-status")).to_contain_text("Pick a result")
    playground.results.first.click()
    expect(playground.entry_word).to_have_text(playground.results.first.locator(".result__word").inner_text())
    expect(page.locator("#thesaurus-status")).not_to_contain_text("Looking up")
    page.locator("#q").blur()
    screenshot(page, "playground-search")
    # The live region announces the count.
    assert page.locator("#status").get_attribute("aria-live") == "polite"
    assert page.problems == []


def test_an_older_answer_never_overwrites_a_newer_query(playground, page):
    held = []

    def hold_first(route):
        if "q=hou&" in route.request.url + "&" and not held:
            held.append(route)  # answered only after the newer query's results
        else:
            route.fallback()

    page.route("**/api/v1/api/search?*", hold_first)
    playground.open()
    playground.wait_usage()  # the key is taken: no search from the key field's own delay
    playground.type_query("hou", delay=20)
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the search for 'hou' was never sent"
    playground.type_query("se", delay=20)
    total = search_total(q="house")
    playground.expect_total("house", total)
    try:
        held[0].fallback()  # the stale answer arrives now (unless the page aborted it)
    except Exception:  # noqa: BLE001 - an aborted request cannot be continued
        pass
    page.wait_for_timeout(1500)
    playground.expect_total("house", total)
    assert playground.results.count() == min(total, 20)


def test_filters_change_the_results(playground, page):
    playground.open()
    playground.type_query("house")
    all_total = playground.expect_results("house")

    # The dictionary select is filled from GET /api/dictionaries.
    dictionaries = api_ok("/api/v1/api/dictionaries")["data"]
    values = page.locator("#source option").evaluate_all("os => os.map(o => o.value)")
    assert set(values) == {""} | {d["dictionaryId"] for d in dictionaries}

    page.locator("#source").select_option("freedict-eng-fra")
    one_total = playground.expect_results("house", source="freedict-eng-fra")
    assert 0 < one_total < all_total
    assert {s for s, _ in playground.result_keys()} == {"freedict-eng-fra"}

    page.locator("#source").select_option("")
    page.locator("#matchType").select_option("exact")
    exact_total = playground.expect_results("house", matchType="exact")
    assert exact_total != all_total

    page.locator("#matchType").select_option("contains")
    playground.expect_results("house", matchType="contains")
    page.locator("#matchType").select_option("exact")

    page.locator("#hasAudio").check()
    audio_total = playground.expect_results("house", matchType="exact", hasAudio="true")
    assert 0 < audio_total < exact_total
    # Every result shown (the first page of them) has the audio badge.
    shown = playground.results.count()
    assert 0 < shown <= audio_total
    expect(playground.results.locator(".badge--audio")).to_have_count(shown)

    page.locator("#hasAudio").uncheck()
    page.locator("#lang").select_option("en-es")
    playground.expect_results("house", matchType="exact", lang="en-es")
    assert {s for s, _ in playground.result_keys()} == {"freedict-eng-spa"}

    page.locator("#lang").select_option("")
    page.locator("#pos").fill("verb")
    pos_total = playground.expect_results("house", matchType="exact", pos="verb")
    assert 0 < pos_total < exact_total
    expect(playground.results.locator(".badge", has_text="verb")).to_have_count(pos_total)

    # Fuzzy matching forgives a typo; turned off, the typo finds nothing.
    page.locator("#pos").fill("")
    playground.replace_query("hosue")
    assert playground.expect_results("hosue", matchType="exact") > 0
    page.locator("#fuzzy").uncheck()
    assert playground.expect_results("hosue", matchType="exact", fuzzy="false") == 0
    expect(playground.results).to_have_count(0)
    assert page.problems == []


def test_pattern_match_explains_its_wildcards(playground, page):
    playground.open()
    playground.wait_usage()
    help_text = page.locator("#search-help")
    usual = help_text.inner_text()
    page.locator("#matchType").select_option("pattern")
    expect(help_text).to_contain_text("? stands for one letter")
    expect(help_text).to_contain_text("* for any letters")
    expect(page.locator("#q")).to_have_attribute("placeholder", re.compile("h\\?use"))
    # Fewer than 2 letters is not sent while it is typed: the page says why.
    playground.type_query("h?")
    expect(page.locator("#status")).to_contain_text("at least 2 letters")
    expect(playground.error).to_be_hidden()
    playground.type_query("use")
    total = playground.expect_results("h?use", matchType="pattern")
    assert total > 0
    shown = playground.results.locator(".result__word").all_inner_texts()
    assert "house" in [w.lower() for w in shown], shown
    assert all(re.fullmatch(r"h.use", w, re.I) for w in shown), shown
    # The match type is kept in the link, and the usual help comes back.
    assert "matchType=pattern" in page.url
    playground.replace_query("*tion")
    playground.expect_results("*tion", matchType="pattern")
    page.locator("#matchType").select_option("prefix")
    expect(help_text).to_have_text(usual)
    assert page.problems == []


def test_sounds_like_mode_finds_a_word_written_as_it_sounds(playground, page):
    playground.open()
    playground.wait_usage()
    help_text = page.locator("#search-help")
    usual = help_text.inner_text()
    page.locator("#matchType").select_option("soundsLike")
    expect(help_text).to_contain_text("write the word as you hear it")
    expect(page.locator("#q")).to_have_attribute("placeholder", re.compile("fizicks"))
    playground.type_query("kof")
    assert playground.expect_results("kof", matchType="soundsLike") > 0
    shown = playground.results.locator(".result__word").all_inner_texts()
    assert shown[0].lower() == "cough", shown
    assert "matchType=soundsLike" in page.url
    page.locator("#matchType").select_option("prefix")
    expect(help_text).to_have_text(usual)
    assert page.problems == []


def test_entry_view_shows_the_rendered_entry(playground, page):
    playground.open()
    playground.type_query("house")
    page.locator("#source").select_option("freedict-eng-fra")
    page.locator("#matchType").select_option("exact")
    playground.expect_total("house", search_total(q="house", source="freedict-eng-fra", matchType="exact"))
    # Keyboard: the result is a button reached with Tab, opened with Enter.
    first = playground.results.first
    first.focus()
    page.keyboard.press("Enter")
    source, entry_id = first.get_attribute("data-source"), first.get_attribute("data-id")
    entry = api_ok(f"/api/v1/entry/{source}/{entry_id}")["data"]

    expect(playground.entry_word).to_have_text(entry["word"])
    expect(playground.entry_word).to_be_focused()
    expect(page.locator("#entry-dictionary")).to_contain_text(entry["dictionaryName"])
    expect(page.locator("#entry-langs")).to_contain_text("en-fr")
    expect(page.locator("#entry-phonetic")).to_have_text(f"/{entry['phonetic']}/")
    expect(page.locator("#entry-dictionary-id")).to_have_text(source)
    # htmlContent rendered as HTML, not shown as markup.
    sense = playground.entry_html.locator("ol.senses li .definition").first
    expect(sense).to_be_visible()
    expect(sense).to_have_text(entry["translations"][0])
    expect(playground.entry_html).not_to_contain_text("<li>")
    expect(page.locator(".entry-list--translations .chip")).to_have_text(entry["translations"])
    expect(first).to_have_attribute("aria-current", "true")
    assert f"entry={source}%2F{entry_id}" in page.url
    assert page.problems == []


def test_entry_lists_synonyms_antonyms_and_examples(playground, page):
    playground.open()
    playground.open_entry("wordnet-en", "good")
    entry = api_ok("/api/v1/api/entry/wordnet-en/word/good")["data"]
    expect(page.locator(".entry-list--synonyms .chip")).to_have_text(entry["synonyms"])
    expect(page.locator(".entry-list--antonyms .chip")).to_have_text(entry["antonyms"])
    expect(page.locator(".entry-list--examples li")).to_have_count(len(entry["examples"]))
    expect(page.locator("#entry-pos")).to_have_text(entry["partOfSpeech"])


AUDIO_ENTRIES = [
    ("freedict-eng-fra", "house"),  # MP3 is the primary format
    ("freedict-fra-eng", "maison"),  # Speex dictionaries play through their MP3 rendition
    ("freedict-fra-eng", "chat"),
    ("freedict-deu-eng", "Haus"),
    # Recorded by a person (data/fixture/recorded-audio/): Ogg Vorbis and WAV
    # recordings, each re-encoded as every rendition its dictionary asks for.
    ("freedict-eng-fra", "hat"),
    ("freedict-fra-eng", "lapin"),
]


@pytest.mark.parametrize(("source", "word"), AUDIO_ENTRIES, ids=[f"{s}:{w}" for s, w in AUDIO_ENTRIES])
def test_entry_audio_plays(playground, page, source, word):
    playground.open()
    playground.open_entry(source, word)
    entry = api_ok(f"/api/v1/api/entry/{source}/word/{word}")["data"]
    assert entry["hasAudio"], entry
    audio = page.locator("#entry-audio-player")
    expect(audio).to_be_visible()
    # Who speaks, as the API labels it: a person's recording, or espeak-ng.
    if entry["audioSource"]["kind"] == "recorded":
        assert word in ("hat", "lapin"), entry["audioSource"]
        expected = "Recorded (ktuberling)"
    else:
        expected = f"Synthesized voice (espeak-ng, {entry['sourceLang']})"
    expect(page.locator("#entry-audio-source")).to_have_text(expected)
    # MP3 is offered first, as audio/mpeg, so that every browser finds one it plays.
    first_type = audio.locator("source").first.get_attribute("type")
    assert first_type == "audio/mpeg", first_type
    state = audio.evaluate(
        """a => new Promise(resolve => {
            const report = how => resolve({how, readyState: a.readyState, src: a.currentSrc,
                                           error: a.error && a.error.code, duration: a.duration});
            if (a.readyState >= 3) return report('already');
            a.addEventListener('canplay', () => report('canplay'), {once: true});
            const sources = a.querySelectorAll('source');
            sources[sources.length - 1].addEventListener('error', () => report('error'), {once: true});
            setTimeout(() => report('timeout'), 15000);
            a.load();
        })"""
    )
    assert state["readyState"] >= 3, f"{source}/{word}: audio not playable: {state}"
    assert ".mp3" in state["src"], state
    assert state["duration"] > 0, state
    played = audio.evaluate(
        """a => a.play().then(() => new Promise(r => setTimeout(() => r({t: a.currentTime, paused: a.paused}), 600)),
                              e => ({error: String(e)}))"""
    )
    assert "error" not in played and played["t"] > 0, played
    if source == "freedict-fra-eng" and word == "maison":
        screenshot(page, "playground-entry-audio")
    assert page.problems == []


def test_paging_moves_through_the_results(playground, page):
    playground.open()
    page.locator("#limit").select_option("5")
    playground.type_query("a")
    total = search_total(q="a", limit=5)
    assert total > 10
    playground.expect_total("a", total)
    expect(playground.range).to_have_text(f"Results 1–5 of {total:,}")
    expect(page.locator("#prev")).to_be_disabled()
    first_page = playground.result_keys()
    assert len(first_page) == 5

    page.locator("#next").click()
    expect(playground.range).to_have_text(f"Results 6–10 of {total:,}")
    second_page = playground.result_keys()
    api_second = [(r["dictionaryId"], r["id"]) for r in api_ok("/api/v1/api/search", q="a", limit=5, offset=5)["data"]]
    assert second_page == api_second
    assert not set(first_page) & set(second_page)

    page.locator("#prev").click()
    expect(playground.range).to_have_text(f"Results 1–5 of {total:,}")
    assert playground.result_keys() == first_page


def test_paging_ends_at_the_last_result(playground, page):
    total = search_total(q="house", matchType="exact")
    # Enough for a few pages, few enough to click through (typos of the
    # fixture's inflected forms, `houses` among them, add to the exact match).
    assert 4 < total <= 40
    playground.open(hash_="#q=house&matchType=exact&limit=2")
    playground.expect_total("house", total)
    for start in range(1, total + 1, 2):
        expect(playground.range).to_have_text(f"Results {start}–{min(start + 1, total)} of {total}")
        if start + 2 <= total:
            page.locator("#next").click()
    expect(page.locator("#next")).to_be_disabled()
    expect(page.locator("#prev")).to_be_enabled()


def test_thesaurus_links_search_their_word(playground, page):
    playground.open()
    playground.open_entry("wordnet-en", "good")
    links = api_ok("/api/v1/api/thesaurus/good", lang="en")["data"]
    synonyms = list(dict.fromkeys(l["word"] for l in links if l["relationshipType"] == "synonym"))
    assert synonyms
    group = page.locator('.thesaurus-group[data-relationship="synonym"]')
    expect(group.locator(".chip")).to_have_text(synonyms)
    types = list(dict.fromkeys(l["relationshipType"] for l in links))
    assert page.locator(".thesaurus-group").evaluate_all("gs => gs.map(g => g.dataset.relationship)") == types

    word = synonyms[0]
    group.locator(".chip", has_text=word).first.click()
    expect(page.locator("#q")).to_have_value(word)
    # The filters stay as they were (wordnet-en, exact).
    playground.expect_total(word, search_total(q=word, source="wordnet-en", matchType="exact"))


def test_rhymes_of_the_entry_search_their_word(playground, page):
    playground.open()
    playground.open_entry("freedict-eng-fra", "cat")
    rhymes = api_ok("/api/v1/api/rhymes/cat", lang="en", kind="perfect", limit=40)
    words = [r["word"] for r in rhymes["data"]]
    assert "hat" in words and "rat" in words, words
    perfect = page.locator('.rhyme-group[data-rhyme-kind="perfect"]')
    expect(perfect.locator("li .chip")).to_have_text(words)
    # Each pronunciation is labelled with where it comes from.
    expect(page.locator("#rhymes-status")).to_contain_text("synthesized by espeak-ng")
    expect(page.locator("#rhymes-status")).to_contain_text("from the dictionary")
    hat = perfect.locator(".chip", has_text=re.compile("^hat$"))
    assert "synthesized by espeak-ng" in hat.get_attribute("title")

    # Near rhymes on demand, none of them perfect.
    page.locator(".rhymes-near").click()
    near = page.locator('.rhyme-group[data-rhyme-kind="near"]')
    near_words = [r["word"] for r in api_ok("/api/v1/api/rhymes/cat", lang="en", kind="near", limit=40)["data"]]
    assert near_words and not set(near_words) & set(words)
    expect(near.locator(".chip")).to_have_text(near_words)

    hat.click()
    expect(page.locator("#q")).to_have_value("hat")
    assert page.problems == []


def test_a_word_without_a_pronunciation_says_so(playground, page):
    # The API's 404 for a word no dictionary and no synthesizer pronounces
    # (every language of the fixture has a voice, so it is played here).
    def no_pronunciation(route):
        route.fulfill(
            status=404,
            content_type="application/json; charset=utf-8",
            body='{"ok":false,"error":"No pronunciation found for this word"}',
        )

    page.route("**/api/v1/api/rhymes/**", no_pronunciation)
    playground.open()
    playground.open_entry("wordnet-en", "good")
    expect(page.locator("#rhymes-status")).to_have_text("No pronunciation of this word to rhyme with.")
    expect(page.locator("#rhymes-groups .chip")).to_have_count(0)


def test_a_bad_key_says_invalid_api_key(playground, page):
    playground.open(key="dk_" + "0" * 32)
    expect(playground.error).to_be_visible()
    expect(page.locator("#error-title")).to_have_text("Invalid API key")
    expect(page.locator("#error-hint")).to_contain_text("Paste a valid API key")
    expect(page.locator("#api-key")).to_have_attribute("aria-invalid", "true")
    playground.type_query("house")
    expect(page.locator("#status")).to_contain_text("failed")
    expect(playground.results).to_have_count(0)
    expect(page.locator("#error-title")).to_have_text("Invalid API key")
    assert "{" not in playground.error.inner_text()

    # Pasting the right key clears the error and searches.
    page.locator("#api-key").fill(DEMO_KEY)
    playground.expect_total("house", search_total(q="house"))
    expect(playground.error).to_be_hidden()
    expect(page.locator("#api-key")).not_to_have_attribute("aria-invalid", "true")


def test_no_key_asks_for_one(playground, page):
    playground.open(key=None)
    playground.type_query("house")
    expect(page.locator("#status")).to_contain_text("Paste an API key")
    expect(playground.results).to_have_count(0)


def test_quota_exceeded_says_when_to_retry(playground, page):
    # The demo key has a million requests: the 429 itself is the API's own
    # answer shape, served in its place.
    def quota(route):
        route.fulfill(
            status=429,
            headers={"Content-Type": "application/json; charset=utf-8", "Retry-After": "7200",
                     "Access-Control-Expose-Headers": "Retry-After"},
            body='{"ok":false,"error":"Quota exceeded"}',
        )

    page.route("**/api/v1/api/search?*", quota)
    playground.open()
    playground.type_query("house")
    expect(page.locator("#error-title")).to_have_text("Quota exceeded")
    expect(page.locator("#error-hint")).to_contain_text("Try again in 2 hours")


def test_key_lives_in_session_storage_only(playground, page):
    playground.open()
    playground.type_query("house")
    playground.expect_total("house", search_total(q="house"))
    assert page.evaluate(f"sessionStorage.getItem('{KEY_NAME}')") == DEMO_KEY
    assert page.evaluate("localStorage.length") == 0
    assert page.context.cookies() == []
    assert DEMO_KEY not in page.url
    # A reload in the same tab keeps it; the field is a password field.
    page.reload()
    expect(page.locator("#api-key")).to_have_value(DEMO_KEY)
    expect(page.locator("#api-key")).to_have_attribute("type", "password")
    # The reload restores the search from the URL.
    playground.expect_total("house", search_total(q="house"))
    page.locator("#key-forget").click()
    assert page.evaluate(f"sessionStorage.getItem('{KEY_NAME}')") is None


def test_usage_is_shown_and_follows_requests(playground, page):
    playground.open()
    playground.wait_usage()
    usage = api_ok("/api/v1/api/me/usage")["data"]
    expect(page.locator("#usage-plan")).to_have_text(usage["plan"])
    expect(page.locator("#usage-used")).to_contain_text(f"/ {usage['limit']:,}")
    expect(page.locator("#usage-reset")).to_contain_text(usage["resetDate"][:4])

    def used():
        return int(page.locator("#usage-used").inner_text().split("/")[0].replace(",", "").strip())

    before = used()
    playground.type_query("water")
    playground.expect_total("water", search_total(q="water"))
    expect(page.locator("#usage-used")).not_to_have_text(re.compile(rf"^{before:,} /"))
    assert used() > before


def test_links_to_the_explorer_and_the_openapi_document(playground, page):
    playground.open(key=None)
    assert page.locator("#graphql-link").get_attribute("href") == "/api/v1/api/graphql"
    assert page.locator("#openapi-link").get_attribute("href") == "/api/v1/openapi.json"
    status, _ = api("/api/v1/openapi.json", key="")
    assert status == 200


def test_one_result_per_word_lists_each_words_entries(playground, page):
    """With "one result per word" the page shows the API's words
    (group=word) in order, each with its language, its entry count and its
    entries, which open as results do; the choice is kept in the link."""
    playground.open()
    page.locator("label", has_text="one result per word").click()
    playground.type_query("hous")
    envelope = api_ok("/api/v1/api/search", q="hous", group="word", limit=20)
    words = envelope["data"]
    assert words and envelope["meta"]["totalEntries"] > len(words)
    playground.expect_total("hous", envelope["meta"]["total"])
    expect(page.locator("#status")).to_contain_text("words for")
    shown = page.locator("#results .word")
    expect(shown).to_have_count(len(words))
    expect(shown.locator(".word__word")).to_have_text([w["word"] for w in words])
    first = shown.first
    expect(first.locator(".word__count")).to_have_text(re.compile(f"^{words[0]['entryCount']} entr"))
    keys = [[e["dictionaryId"], e["id"]] for e in words[0]["entries"]]
    shown_keys = [
        [b.get_attribute("data-source"), b.get_attribute("data-id")]
        for b in first.locator(".result").element_handles()
    ]
    assert shown_keys == keys
    first.locator(".result").first.click()
    expect(playground.entry_word).to_have_text(words[0]["entries"][0]["word"])
    assert "group=word" in page.url
    screenshot(page, "playground-words")
    assert page.problems == []
