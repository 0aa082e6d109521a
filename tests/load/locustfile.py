"""Mixed traffic for the load test (infra/scripts/load-test.sh): every endpoint,
with words drawn at random from the dictionaries the local stack serves, sent
back to back by each simulated client. Besides Locust's own statistics it
writes the number of answers that count against the quota (all but
`me/usage` and 429s), by status, so that the driver can hold the key's usage
against them."""

import json
import os
import random
from collections import Counter
from pathlib import Path

from locust import HttpUser, events, task

KEY = os.environ["LOAD_KEY"]
COUNTS_FILE = os.environ["LOAD_COUNTS_FILE"]
FIXTURE = Path(__file__).resolve().parents[2] / "data" / "fixture" / "freedict"
SOURCES = {
    "freedict-eng-fra": "en",
    "freedict-fra-eng": "fr",
    "freedict-deu-eng": "de",
    "freedict-eng-spa": "en",
}


def headwords(source):
    """The headwords of a fixture dictionary's dictd index (its metadata
    entries, `00database…`, left out)."""
    lines = (FIXTURE / f"{source}.index").read_text(encoding="utf-8").splitlines()
    words = [line.split("\t", 1)[0] for line in lines]
    return [w for w in words if w and not w.startswith("00database")]


WORDS = {source: headwords(source) for source in SOURCES}
ALL_WORDS = [w for words in WORDS.values() for w in words]
# Answers by endpoint and status, as the server saw them.
STATUSES = Counter()


def typo(word):
    """`word` with one letter changed, as a user mistypes it."""
    if len(word) < 4:
        return word
    i = random.randrange(len(word))
    return word[:i] + random.choice("aeiourstln") + word[i + 1 :]


# `cargo lambda watch` now and then answers a 500 of its own, a problem
# document the functions never write (their 500 is the envelope's
# "Internal error"): told apart so that the driver can report it as the
# emulator's.
EMULATOR_500 = "https://httpstatuses.com/500"


@events.request.add_listener
def count(name, response, exception, **_):
    status = getattr(response, "status_code", 0) or 0
    if status == 500 and EMULATOR_500 in (getattr(response, "text", "") or ""):
        status = "emulator 500"
    STATUSES[(name, status)] += 1


@events.quitting.add_listener
def write_counts(environment, **_):
    rows = [
        {"endpoint": name, "status": status, "count": n}
        for (name, status), n in sorted(STATUSES.items(), key=str)
    ]
    Path(COUNTS_FILE).write_text(json.dumps(rows, indent=1))


class ApiClient(HttpUser):
    """One API client sending requests back to back."""

    def on_start(self):
        self.client.headers["Authorization"] = f"Bearer {KEY}"
        self.entry_ids = []

    def get(self, path, name, **params):
        return self.client.get(path, params=params, name=name)

    @task(20)
    def search(self):
        word = random.choice(ALL_WORDS)
        shape = random.choice(["prefix", "exact", "typo", "contains"])
        if shape == "typo":
            reply = self.get("/api/v1/api/search", "search", q=typo(word), matchType="exact", fuzzy="true")
        elif shape == "contains":
            reply = self.get("/api/v1/api/search", "search", q=word[1:4] or word, matchType="contains")
        elif shape == "prefix":
            reply = self.get("/api/v1/api/search", "search", q=word[:3], limit=10)
        else:
            reply = self.get("/api/v1/api/search", "search", q=word, matchType="exact")
        if reply.status_code == 200:
            for hit in reply.json()["data"][:3]:
                self.entry_ids.append((hit["dictionaryId"], hit["id"], hit["hasAudio"]))
            del self.entry_ids[:-50]

    @task(10)
    def reverse(self):
        # English words, as the translations of French and German headwords
        # and the definitions of English ones say them; now and then two.
        words = WORDS["freedict-eng-fra"] + WORDS["freedict-eng-spa"]
        q = " ".join(random.sample(words, random.choice([1, 1, 2])))
        lang = random.choice([None, "fr-en", "de-en", "en"])
        params = {"q": q, "limit": 10} if lang is None else {"q": q, "lang": lang, "limit": 10}
        self.get("/api/v1/api/reverse", "reverse", **params)

    @task(15)
    def autocomplete(self):
        self.get("/api/v1/api/autocomplete", "autocomplete", q=random.choice(ALL_WORDS)[:2])

    @task(15)
    def entry_by_word(self):
        source = random.choice(list(SOURCES))
        word = random.choice(WORDS[source])
        self.client.get(f"/api/v1/api/entry/{source}/word/{word}", name="entry-by-word")

    @task(10)
    def entry(self):
        if self.entry_ids:
            source, entry_id, _ = random.choice(self.entry_ids)
            self.client.get(f"/api/v1/entry/{source}/{entry_id}", name="entry")

    @task(5)
    def audio(self):
        with_audio = [e for e in self.entry_ids if e[2]]
        source, entry_id, _ = random.choice(with_audio or self.entry_ids or [("freedict-eng-fra", "0", False)])
        self.client.get(f"/api/v1/api/audio/{source}/{entry_id}", name="audio", allow_redirects=False)

    @task(5)
    def thesaurus(self):
        self.client.get(f"/api/v1/api/thesaurus/{random.choice(WORDS['freedict-eng-fra'])}", name="thesaurus")

    @task(5)
    def random_entries(self):
        self.get("/api/v1/random", "random", count=random.randint(1, 5))

    @task(3)
    def dictionaries(self):
        self.get("/api/v1/api/dictionaries", "dictionaries")

    @task(3)
    def baseline(self):
        """The unknown-path function: no key, no storage, the same emulator
        queue. The other endpoints' times are read against it."""
        self.client.get("/api/v1/api/no-such-endpoint", name="not-found (baseline)")

    @task(2)
    def usage(self):
        self.get("/api/v1/api/me/usage", "usage")

    @task(10)
    def graphql(self):
        word = random.choice(ALL_WORDS)
        query = """query($q: String!) {
            search(q: $q) { total }
            reverse(q: $q, limit: 5) { total }
            autocomplete(q: $q)
        }"""
        self.client.post(
            "/api/v1/api/graphql",
            json={"query": query, "variables": {"q": word}},
            name="graphql",
        )
