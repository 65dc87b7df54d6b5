"""`serve` serves the table at / from table/, beside the API and its docs."""

from django.test import Client


def test_the_table_is_served_at_the_root():
    client = Client()
    page = client.get("/")
    assert page.status_code == 200
    html = b"".join(page.streaming_content).decode()
    assert '<script type="module" src="app.js"></script>' in html
    script = client.get("/app.js")
    assert script.status_code == 200
    assert script.headers["Content-Type"].startswith("text/javascript")
    assert client.get("/i18n/fa.js").status_code == 200
    assert client.get("/style.css").headers["Content-Type"].startswith("text/css")


def test_the_api_docs_stay_where_they_were(db):
    assert Client().get("/api/docs/").status_code == 200
