"""Your rating and the leaderboard at the terminal (docs/ratings.md): mu - 3 sigma is the
figure shown, with mu and sigma beside it."""

from rich.console import Group
from rich.table import Table
from rich.text import Text

from terminal.api import Api

LEADERBOARD_ROWS = 20


def rating_line(rating: dict) -> str:
    """One line: the displayed figure, mu and sigma, and how many matches were rated."""
    matches = rating["matches"]
    rated = f"{matches} rated match" + ("" if matches == 1 else "es")
    return (
        f"Your rating {rating['displayed']:.1f} "
        f"(μ {rating['mu']:.1f}, σ {rating['sigma']:.1f}) · {rated}"
    )


def leaderboard_table(page: dict) -> Table:
    table = Table(
        title=f"Leaderboard ({page['count']} player{'' if page['count'] == 1 else 's'})",
        title_justify="left",
        title_style="bold green",
        caption=None if page["results"] else "Nobody yet: 5 rated matches put a player on it.",
        caption_justify="left",
    )
    for column in ("Rank", "Player", "Rating", "μ", "σ", "Matches"):
        table.add_column(column, justify="left" if column == "Player" else "right")
    for entry in page["results"]:
        table.add_row(
            str(entry["rank"]),
            entry["name"] + (" (you)" if entry["you"] else ""),
            f"{entry['displayed']:.1f}",
            f"{entry['mu']:.1f}",
            f"{entry['sigma']:.1f}",
            str(entry["matches"]),
            style="bold" if entry["you"] else None,
        )
    return table


def ratings_screen(api: Api) -> Group:
    """Your rating over the leaderboard's first page."""
    me = api("GET", "/players/me")
    page = api("GET", f"/leaderboard?page_size={LEADERBOARD_ROWS}")
    return Group(Text(rating_line(me["rating"])), leaderboard_table(page))
