"""`serve` serves the table at / from table/, beside the API and its docs."""

import re

from django.conf import settings
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


def test_every_module_the_table_imports_is_served_as_javascript():
    # The screens are fetched by import() when first shown (table/core.js): a module the
    # server did not serve would break its screen only when a player first opens it.
    table = settings.WHITENOISE_ROOT
    found, queue = set(), ["app.js"]
    while queue:
        name = queue.pop()
        found.add(name)
        source = (table / name).read_text()
        for imported in re.findall(r"""(?:from|import\()\s*["']\./([\w-]+\.js)["']""", source):
            if imported not in found:
                queue.append(imported)
    expected = {"core.js", "start.js", "rules-text.js", "login.js", "lobby.js", "rename.js"}
    assert expected | {"invitation.js", "match.js", "rules.js"} <= found
    client = Client()
    for name in sorted(found):
        script = client.get(f"/{name}")
        assert script.status_code == 200, name
        assert script.headers["Content-Type"].startswith("text/javascript"), name


def test_the_api_docs_stay_where_they_were(db):
    assert Client().get("/api/docs/").status_code == 200


def test_every_catalogue_has_every_string_of_the_english_one():
    # A missing key would show the key itself in place of the words.
    def keys(language: str) -> list[str]:
        catalogue = (settings.WHITENOISE_ROOT / "i18n" / f"{language}.js").read_text()
        return re.findall(r"^  (\w+):", catalogue, flags=re.MULTILINE)

    english = keys("en")
    assert len(english) > 100
    for language in ("es", "pl", "da", "fr", "fa"):
        assert keys(language) == english, language


def test_every_page_has_an_icon_and_the_site_answers_favicon_ico():
    # Without one, each page's load logged a 404 for /favicon.ico (admin and docs pages too).
    client = Client()
    for page in ("index.html", "watch.html"):
        html = (settings.WHITENOISE_ROOT / page).read_text()
        assert '<link rel="icon" href="favicon.svg" type="image/svg+xml">' in html, page
    for path, kind in (("/favicon.svg", "image/svg+xml"), ("/favicon.ico", "image/")):
        icon = client.get(path)
        assert icon.status_code == 200 and icon.headers["Content-Type"].startswith(kind), path


def test_the_catalogues_keep_each_language_s_typography():
    """Curly apostrophes everywhere; in French a no-break space before : ; ! ? (never a plain
    one, where a line could break) and plural forms rather than "place(s)"."""
    for language in ("en", "es", "pl", "da", "fr", "fa"):
        catalogue = (settings.WHITENOISE_ROOT / "i18n" / f"{language}.js").read_text()
        texts = re.findall(r'"((?:[^"\\]|\\.)*)"', catalogue)
        assert len(texts) > 100, language
        assert [text for text in texts if "'" in text] == [], language
        if language == "fr":
            assert [text for text in texts if re.search(r" [:;!?]", text)] == []
            assert [text for text in texts if "(s)" in text] == []
            assert r"\u00a0:" in catalogue and r"\u202f?" in catalogue
