"""Moves through the table's UI, as a person would make them."""

from playwright.sync_api import Page, expect

PREFERRED = ("call", "hold", "raise", "fold")


def sit_down(page: Page, name: str = "Roya") -> None:
    page.locator("#player-name").fill(name)
    page.locator("#login button[type=submit]").click()
    expect(page.locator("#new-match")).to_be_visible()


def new_match(page: Page, level: str = "easy") -> None:
    page.locator("#ai-level").select_option(level)
    page.locator("#new-match").click()
    expect(page.locator("#table")).to_be_visible()


def settled(page: Page) -> str:
    """Waits until the table shows a turn of yours, a deal over or the end; returns the status."""
    expect(page.locator("body")).not_to_have_attribute("aria-busy", "true")
    page.wait_for_function(
        "() => { const t = document.getElementById('table');"
        " return t && (t.dataset.status !== 'in_deal'"
        " || document.querySelector('#actions button.play')); }"
    )
    return page.locator("#table").get_attribute("data-status")


def button(page: Page, command: str):
    return page.locator(f'button[data-command="{command}"]')


def play_on(page) -> str:
    """One move of yours: a look first when there is one, then call, hold, raise or fold."""
    offered = page.locator("#actions button.play").evaluate_all(
        "buttons => buttons.map(b => b.dataset.command)"
    )
    choice = "look" if "look" in offered else next(a for a in PREFERRED if a in offered)
    button(page, choice).click()
    return choice


def fresh_turn(page) -> None:
    """Plays on until it is your turn with your cards still face down."""
    while True:
        status = settled(page)
        if status == "in_deal" and button(page, "look").count():
            return
        if status == "deal_over":
            button(page, "next").click()
        else:
            play_on(page)
