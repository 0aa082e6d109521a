"""The GraphQL explorer (GET /api/v1/api/graphql as a browser asks for it),
reached from the playground with the key the playground keeps."""

import json
import re

from playwright.sync_api import expect

from helpers import API_URL, DEMO_KEY, screenshot, search_total


def is_graphql_post(response):
    request = response.request
    return request.method == "POST" and response.url.endswith("/api/v1/api/graphql")


def is_introspection(response):
    body = response.request.post_data or ""
    return is_graphql_post(response) and ("IntrospectionQuery" in body or "__schema" in body)


def is_query_run(response):
    return is_graphql_post(response) and not is_introspection(response)


QUERY_FIELDS = [
    "search", "reverse", "autocomplete", "examples", "thesaurus", "rhymes", "random", "entry", "wordEntry",
    "dictionaries", "usage",
]


def test_explorer_loads_the_schema_for_its_docs_and_completion(playground, page):
    """GraphiQL's first request is its introspection query: it is answered,
    and what the explorer builds from it shows: the documentation pane lists
    Query's fields, and the editor completes them."""
    playground.open()
    playground.wait_usage()
    with page.expect_response(is_introspection, timeout=30_000) as answered:
        page.locator("#graphql-link").click()
    response = answered.value
    assert response.request.headers.get("authorization") == f"Bearer {DEMO_KEY}"
    assert response.status == 200, response.text()
    body = response.json()
    assert not body.get("errors"), body
    assert body["data"]["__schema"]["queryType"]["name"] == "Query"

    # The documentation pane: the root type, then Query's fields.
    page.get_by_role("button", name="Show Documentation Explorer").click()
    docs = page.locator(".graphiql-doc-explorer")
    docs.locator("a.graphiql-doc-explorer-type-name", has_text=re.compile("^Query$")).first.click()
    expect(docs.locator(".graphiql-doc-explorer-title")).to_have_text("Query")
    for field in QUERY_FIELDS:
        name = docs.locator(".graphiql-doc-explorer-field-name", has_text=re.compile(f"^{field}$"))
        expect(name).to_be_visible()

    # Completion: typing the start of a field offers it.
    page.locator(".graphiql-query-editor .CodeMirror").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type("{ sea")
    hint = page.locator(".CodeMirror-hints .CodeMirror-hint", has_text=re.compile("^search$"))
    expect(hint).to_be_visible(timeout=10_000)


def test_explorer_runs_a_query_with_the_playground_key(playground, page):
    playground.open()
    playground.wait_usage()
    page.locator("#graphql-link").click()
    page.wait_for_url(API_URL + "/api/v1/api/graphql")
    run = page.locator(".graphiql-execute-button")
    expect(run).to_be_visible(timeout=30_000)
    # The editor holds the default query before it is run.
    expect(page.locator(".graphiql-query-editor")).to_contain_text("search")

    with page.expect_response(is_query_run, timeout=30_000) as answered:
        run.click()
    response = answered.value
    # The Authorization header was prefilled from the playground's session storage.
    assert response.request.headers.get("authorization") == f"Bearer {DEMO_KEY}"
    assert response.status == 200, response.text()
    body = response.json()
    assert not body.get("errors"), body
    query = json.loads(response.request.post_data)["query"]
    assert 'search(q: "house"' in query, query
    total = body["data"]["search"]["total"]
    assert total == search_total(q="house")

    # And the result is shown.
    result = page.locator(".graphiql-response")
    expect(result).to_contain_text('"total"')
    expect(result).to_contain_text(f'"total": {total}')
    screenshot(page, "graphql-explorer")


def test_explorer_keeps_to_its_security_policy(page):
    """GraphiQL loads nothing the page's CSP blocks (its stylesheet embeds
    fonts as data: URLs, for one)."""
    page.goto(API_URL + "/api/v1/api/graphql")
    expect(page.locator(".graphiql-execute-button")).to_be_visible(timeout=30_000)
    page.wait_for_load_state("networkidle")
    blocked = sorted({p[:160] for p in page.problems})
    assert blocked == [], f"{len(page.problems)} CSP violations or errors, e.g. {blocked[:3]}"
