"""The Python client that openapi-python-client generates from
docs/openapi.json (infra/scripts/client-test.sh), used as a caller would:
every operation it has, against the running stack with the fixture, and the
types it parses each answer into, successes and errors alike.

Every operation module of the generated package has a case here; a new
operation without one fails `test_every_operation_has_a_case`."""

import datetime
import importlib
import pkgutil

import pytest

import dictionary_api_client.api as api
from conftest import API_URL, DEMO_KEY, EmulatorRetrying
from dictionary_api_client import AuthenticatedClient, Client
from dictionary_api_client.api.account import usage
from dictionary_api_client.api.dictionary import (
    autocomplete,
    get_audio,
    get_entry,
    get_entry_by_word,
    list_dictionaries,
    random,
    reverse,
    rhymes,
    search,
    thesaurus,
)
from dictionary_api_client.api.documentation import asset, openapi, playground
from dictionary_api_client.api.graph_ql import graphql, graphql_explorer
from dictionary_api_client.models import (
    AudioFormat,
    AutocompleteResponse200,
    Dictionary,
    Entry,
    Error,
    GetEntryByWordResponse200,
    GetEntryResponse200,
    GraphQLError,
    GraphQLFailure,
    GraphQLRequest,
    GraphQLRequestVariablesType0,
    GraphQLResponse,
    ListDictionariesResponse200,
    OpenapiResponse200,
    RandomItem,
    RandomResponse200,
    ReverseResponse200,
    RhymeResult,
    RhymesKind,
    RhymesResponse200,
    SearchMatchType,
    SearchResponse200,
    SearchResult,
    ThesaurusItem,
    ThesaurusResponse200,
    UsageRecord,
    UsageResponse200,
)
from dictionary_api_client.types import UNSET


def keyed(key=DEMO_KEY):
    # Undocumented statuses raise instead of parsing to None.
    return AuthenticatedClient(
        base_url=API_URL, token=key, raise_on_unexpected_status=True, timeout=60, httpx_args={"transport": EmulatorRetrying()}
    )


def keyless():
    return Client(base_url=API_URL, raise_on_unexpected_status=True, timeout=60, httpx_args={"transport": EmulatorRetrying()})


def answer(operation, *args, status, parsed, **kwargs):
    """Calls operation.sync_detailed; asserts the status and the type the
    client parsed the body into; returns the parsed body."""
    response = operation.sync_detailed(*args, **kwargs)
    assert response.status_code == status, response.content[:500]
    assert isinstance(response.parsed, parsed), (type(response.parsed), response.content[:500])
    return response.parsed


def refused(operation, *args, status, says, **kwargs):
    """An error in the envelope, parsed as Error."""
    error = answer(operation, *args, status=status, parsed=Error, **kwargs)
    assert error.ok is False
    assert says in error.error, error.error
    return error


def bank_entry():
    found = answer(get_entry_by_word, "freedict-eng-fra", "bank", client=keyed(), status=200, parsed=GetEntryByWordResponse200)
    return found.data


def test_search():
    page = answer(search, client=keyed(), q="bank", lang="en", match_type=SearchMatchType.EXACT, limit=5, status=200, parsed=SearchResponse200)
    assert page.ok is True and page.data and all(isinstance(r, SearchResult) for r in page.data)
    assert page.meta.total >= len(page.data) and page.meta.took_ms >= 0
    refused(search, client=keyed(), q="bank", limit=0, status=400, says="limit")
    refused(search, client=keyed("dk_notAKeyAtAll00000000000000000000"), q="bank", status=401, says="")


def test_reverse():
    page = answer(reverse, client=keyed(), q="house", lang="fr-en", limit=5, status=200, parsed=ReverseResponse200)
    assert page.ok is True and all(isinstance(r, SearchResult) for r in page.data)
    assert page.meta.total >= len(page.data) and page.meta.limit == 5 and page.meta.offset == 0
    refused(reverse, client=keyed(), q="house", limit=0, status=400, says="limit")
    refused(reverse, client=keyed(), q="house", source="not-a-dictionary", status=404, says="Unknown dictionary")
    refused(reverse, client=keyed("dk_notAKeyAtAll00000000000000000000"), q="house", status=401, says="")


def test_autocomplete():
    words = answer(autocomplete, client=keyed(), q="ban", status=200, parsed=AutocompleteResponse200)
    assert words.data and all(isinstance(w, str) for w in words.data)
    refused(autocomplete, client=keyed(), q="ban", limit=51, status=400, says="limit")


def test_get_entry_by_word():
    entry = bank_entry()
    assert isinstance(entry, Entry) and entry.word == "bank" and entry.has_audio is True
    assert entry.audio_formats and entry.audio_url is not UNSET
    inflected = answer(get_entry_by_word, "freedict-eng-fra", "banks", client=keyed(), status=200, parsed=GetEntryByWordResponse200)
    assert inflected.meta.lemma == "bank" and inflected.meta.inflection == "banks"
    missing = refused(get_entry_by_word, "freedict-eng-fra", "bnak", client=keyed(), status=404, says="Entry not found")
    assert isinstance(missing.suggestions, list)


def test_get_entry():
    entry = bank_entry()
    by_id = answer(get_entry, "freedict-eng-fra", entry.id, client=keyed(), status=200, parsed=GetEntryResponse200)
    assert isinstance(by_id.data, Entry) and by_id.data.id == entry.id
    refused(get_entry, "freedict-eng-fra", "0123456789abcdef", client=keyed(), status=404, says="not found")
    refused(get_entry, "not-a-dictionary", entry.id, client=keyed(), status=404, says="Unknown dictionary")
    refused(get_entry, "freedict-eng-fra", "x" * 129, client=keyed(), status=400, says="id")


def test_thesaurus():
    related = answer(thesaurus, "good", client=keyed(), lang="en", status=200, parsed=ThesaurusResponse200)
    assert all(isinstance(item, ThesaurusItem) for item in related.data)
    refused(thesaurus, "x" * 101, client=keyed(), status=400, says="word")


def test_rhymes():
    found = answer(rhymes, "cat", client=keyed(), lang="en", status=200, parsed=RhymesResponse200)
    assert found.data and all(isinstance(rhyme, RhymeResult) for rhyme in found.data)
    assert "hat" in [rhyme.word for rhyme in found.data]
    assert {p.source for p in found.meta.pronunciations} == {"dictionary", "espeak-ng"}
    near = answer(rhymes, "cat", client=keyed(), lang="en", kind=RhymesKind.NEAR, status=200, parsed=RhymesResponse200)
    assert near.meta.kind == "near"
    refused(rhymes, "zzzqqq", client=keyed(), status=404, says="No pronunciation")
    refused(rhymes, "cat", client=keyed(), lang="en-fr", status=400, says="lang")


def test_random():
    drawn = answer(random, client=keyed(), count=3, status=200, parsed=RandomResponse200)
    assert 1 <= len(drawn.data) <= 3 and all(isinstance(item, RandomItem) for item in drawn.data)
    refused(random, client=keyed(), count=11, status=400, says="count")


def test_get_audio():
    entry = bank_entry()
    response = get_audio.sync_detailed("freedict-eng-fra", entry.id, client=keyed(), format_=AudioFormat.MP3)
    assert response.status_code == 302, response.content[:300]
    assert ".mp3" in response.headers["location"]
    refused(get_audio, "freedict-eng-fra", "0123456789abcdef", client=keyed(), status=404, says="")


def test_list_dictionaries():
    listed = answer(list_dictionaries, client=keyed(), status=200, parsed=ListDictionariesResponse200)
    assert any(d.dictionary_id == "freedict-eng-fra" for d in listed.data)
    assert all(isinstance(d, Dictionary) and d.entry_count > 0 for d in listed.data)


def test_usage_and_the_quota(new_key):
    record = answer(usage, client=keyed(), status=200, parsed=UsageResponse200).data
    assert isinstance(record, UsageRecord) and isinstance(record.reset_date, datetime.datetime)
    assert record.usage + record.remaining == record.limit
    # A key with one unit: the second counted request is 429, in the envelope.
    one = new_key(limit=1)
    answer(list_dictionaries, client=keyed(one), status=200, parsed=ListDictionariesResponse200)
    refused(list_dictionaries, client=keyed(one), status=429, says="")
    refused(usage, client=keyed("dk_notAKeyAtAll00000000000000000000"), status=401, says="")


def test_graphql():
    query = GraphQLRequest(query="query($q: String!) { search(q: $q, limit: 2) { total } }")
    query.variables = GraphQLRequestVariablesType0.from_dict({"q": "bank"})
    ran = answer(graphql, client=keyed(), body=query, status=200, parsed=GraphQLResponse)
    assert ran.data["search"]["total"] > 0 and ran.errors is UNSET
    partial = answer(graphql, client=keyed(), body=GraphQLRequest(query='{ search(q: "bank", limit: 0) { total } }'), status=200, parsed=GraphQLResponse)
    assert isinstance(partial.errors[0], GraphQLError) and partial.errors[0].extensions.code.value == "BAD_USER_INPUT"
    # The answers the generator used to drop: a request refused whole.
    failed = answer(graphql, client=keyed(), body=GraphQLRequest(query="{ search(q: "), status=400, parsed=GraphQLFailure)
    assert failed.data is None and failed.errors[0].extensions.code.value == "BAD_USER_INPUT"
    unknown = answer(graphql, client=keyed("dk_notAKeyAtAll00000000000000000000"), body=GraphQLRequest(query="{ __typename }"), status=401, parsed=GraphQLFailure)
    assert unknown.errors[0].extensions.code.value == "UNAUTHENTICATED"


def test_graphql_quota(new_key):
    one = new_key(limit=1)
    two_fields = GraphQLRequest(query='{ a: autocomplete(q: "ba") b: autocomplete(q: "ho") }')
    over = answer(graphql, client=keyed(one), body=two_fields, status=429, parsed=GraphQLFailure)
    assert over.errors[0].extensions.code.value == "QUOTA_EXCEEDED"


def test_graphql_explorer():
    page = answer(graphql_explorer, client=keyless().with_headers({"Accept": "text/html"}), status=200, parsed=str)
    assert "graphiql" in page
    not_a_browser = answer(graphql_explorer, client=keyless().with_headers({"Accept": "application/json"}), status=405, parsed=GraphQLFailure)
    assert not_a_browser.data is None


def test_openapi():
    document = answer(openapi, client=keyless(), status=200, parsed=OpenapiResponse200)
    assert document.openapi == "3.1.0" and "/api/v1/api/search" in document.additional_properties["paths"]


def test_playground():
    page = answer(playground, client=keyless(), status=200, parsed=str)
    assert "playground.js" in page


def test_asset():
    script = answer(asset, "playground.js", client=keyless(), status=200, parsed=str)
    assert script.strip()
    refused(asset, "nope.js", client=keyless(), status=404, says="Not found")


CASES = {
    usage: test_usage_and_the_quota,
    autocomplete: test_autocomplete,
    get_audio: test_get_audio,
    get_entry: test_get_entry,
    get_entry_by_word: test_get_entry_by_word,
    list_dictionaries: test_list_dictionaries,
    random: test_random,
    search: test_search,
    reverse: test_reverse,
    thesaurus: test_thesaurus,
    rhymes: test_rhymes,
    asset: test_asset,
    openapi: test_openapi,
    playground: test_playground,
    graphql: test_graphql,
    graphql_explorer: test_graphql_explorer,
}


def generated_operations():
    for group in pkgutil.iter_modules(api.__path__):
        package = importlib.import_module(f"{api.__name__}.{group.name}")
        for module in pkgutil.iter_modules(package.__path__):
            yield importlib.import_module(f"{package.__name__}.{module.name}")


@pytest.mark.parametrize("operation", list(generated_operations()), ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_every_operation_has_a_case(operation):
    assert operation in CASES, f"{operation.__name__}: the generated client has it, this file does not call it"
