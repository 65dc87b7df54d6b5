"""Every point of the rules is its own catalogue key (#35 item 2), present, non-empty and
translated in every catalogue, with the Persian names of the hands as docs/rules.md spells
them."""

import re

import pytest
from django.conf import settings

LANGUAGES = ("en", "es", "pl", "da", "fr", "fa")
TABLE = settings.WHITENOISE_ROOT
RULES_TEXT = (TABLE / "rules-text.js").read_text()
# Every key the rules' module says, headings and points, in its order.
RULES_KEYS = list(dict.fromkeys(re.findall(r'"(rules_\w+)"', RULES_TEXT)))
FIRST_SCREEN = ["rules_show_hands", "start_game", "start_tagline", "start_players", "start_more"]
FIRST_SCREEN += ["start_lobby", "wikipedia_short", "default_name", "rename", "renamed"]


def catalogue(language: str) -> dict[str, str]:
    text = (TABLE / "i18n" / f"{language}.js").read_text()
    return dict(re.findall(r'^  (\w+): "((?:[^"\\]|\\.)*)",$', text, flags=re.MULTILINE))


def test_the_rules_say_each_section_and_every_point_the_seed_cards_state():
    headings = [key for key in RULES_KEYS if key.endswith("_h")]
    assert headings == [f"rules_{s}_h" for s in ("goal", "setup", "turn", "ranks", "score")]
    for point in (
        "rules_setup_shuffle",  # the whole deck shuffled for each deal
        "rules_setup_dealer",  # the dealer moves to the right
        "rules_setup_none",  # no community cards, exchanges or draws
        "rules_turn_blind",  # call, raise or fold without looking
        "rules_turn_order",  # turns skip folded players
        "rules_turn_raise",  # a raise makes the others match again or fold
    ):
        assert point in RULES_KEYS, point
    assert len(RULES_KEYS) == 31


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rules_key_is_present_non_empty_and_its_own_in_every_catalogue(language):
    words = catalogue(language)
    missing = [key for key in RULES_KEYS + FIRST_SCREEN if not words.get(key, "").strip()]
    assert missing == []
    texts = [words[key] for key in RULES_KEYS]
    assert len(set(texts)) == len(texts), "two points say the same"
    if language != "en":
        english = catalogue("en")
        same = [key for key in RULES_KEYS if words[key] == english[key]]
        assert same == [], f"left in English: {same}"


def test_the_persian_names_are_spelled_as_docs_rules_md_spells_them():
    table = (settings.BASE_DIR / "docs" / "rules.md").read_text()
    documented = dict(re.findall(r"^\| ([a-z ]+?) \| ([a-z ]+?) \| [\d +]+ \|$", table, re.M))
    shown = dict(re.findall(r'\["(\w+)", "([a-z ]+)", "[\d +]+"\]', RULES_TEXT))
    names = {category.replace("_", " "): name for category, name in shown.items()}
    assert (
        documented
        == names
        == {
            "full house": "she va juft",
            "three of a kind": "sehta",
            "two pair": "do juft",
            "pair": "juft",
        }
    )
