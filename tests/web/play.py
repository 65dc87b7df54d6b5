"""Moves through the table's UI, as a person would make them."""

from playwright.sync_api import Page, expect


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
