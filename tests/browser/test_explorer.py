"""The GraphQL explorer (GET /api/v1/api/graphql as a browser asks for it),
reached from the playground with the key the playground keeps."""

import json

from playwright.sync_api import expect

from helpers import API_URL, DEMO_KEY, screenshot, search_total


def is_query_run(response):
    request = response.request
    if request.method != "POST" or not response.url.endswith("/api/v1/api/graphql"):
        return False
    body = request.post_data or ""
    return "IntrospectionQuery" not in body and "__schema" not in body


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
