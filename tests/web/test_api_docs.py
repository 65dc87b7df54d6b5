"""The API's docs pages in a browser: they ask no other host for anything and break no rule
of their own content policy (Redoc's footer once asked the Redocly CDN for its logo)."""

import pytest

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("path", ["/api/docs/", "/api/redoc/"])
def test_a_docs_page_asks_only_its_own_server(browser, api_origin, path):
    context = browser.new_context()
    page = context.new_page()
    requests, complaints = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on(
        "console",
        lambda message: complaints.append(message.text) if message.type == "error" else None,
    )
    page.goto(f"{api_origin}{path}")
    # Drawn from the schema: the operations are listed, so every part of the page has loaded.
    page.get_by_text("/api/v1/matches/{id}/actions").first.wait_for()
    page.wait_for_load_state("networkidle")
    context.close()
    # Redoc's search runs in a worker made from a blob of the page's own origin.
    own = (api_origin, f"blob:{api_origin}", "data:")
    assert requests and all(url.startswith(own) for url in requests), requests
    assert complaints == []
