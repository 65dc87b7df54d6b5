"""A tournament is rated once, at its close, from its standings (docs/ratings.md,
"Tournaments"): every human entrant a team of one in one OpenSkill ranking, the AI seats not
entrants; its matches are never rated alone; a bot entrant is left out of the ranking, so
that it moves nobody's rating (docs/bots.md)."""

import time
import uuid
from fractions import Fraction

import pytest
from django.utils import timezone

from games.engine import duplicate
from games.tournaments.commands import tournament_close
from players import rating
from players.models import Rating, RatingChange
from players.services import tournament_rate
from tests.tournaments.support import BASE, create, enter, past_deadline, play, steady

pytestmark = pytest.mark.django_db
HUMANS = ("Roya", "Babak")


def folding(decision: int, legal: list[str]) -> str:
    """Fold wherever it may: a weak entrant."""
    return "fold" if "fold" in legal else steady(decision, legal)


def after_the_last_deal() -> None:
    """past_deadline puts the deadline a second ago: a match of folds ends its deals within
    that second, which would then count as not played by the deadline."""
    time.sleep(1.1)


def standings(client, tournament: dict) -> dict[str, dict]:
    response = client.get(f"{BASE}/{tournament['id']}/standings")
    assert response.status_code == 200, response.json()
    return {row["name"]: row for row in response.json()["standings"]}


def changes(*clients) -> dict[str, RatingChange]:
    found = RatingChange.objects.filter(player__in=[c.player for c in clients])
    return {change.player.name: change for change in found.select_related("player")}


def test_a_tournament_is_rated_once_from_its_standings_and_its_matches_not_alone(make_client):
    tournament = create(make_client("Owner"))
    roya, babak, cyrus = make_client("Roya"), make_client("Babak"), make_client("Cyrus")
    roya_match = play(roya, enter(roya, tournament), steady)
    cyrus_match = play(cyrus, enter(cyrus, tournament), folding)
    enter(babak, tournament)  # and plays nothing: resigned at the close
    # Two matches finished, neither rated alone, as a single-player match would have been.
    assert roya_match["status"] == cyrus_match["status"] == "finished"
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    after_the_last_deal()
    past_deadline(tournament)
    rows = standings(roya, tournament)  # the read closes it, and rates it
    rated = changes(roya, babak, cyrus)
    assert set(rated) == {"Roya", "Babak", "Cyrus"}
    assert {name: change.place for name, change in rated.items()} == {
        name: row["rank"] for name, row in rows.items()
    }
    assert {str(change.match_id) for change in rated.values()} == {
        row["match"] for row in rows.values()
    }
    # One OpenSkill ranking of the three, from the starting rating, the AI seats not in it.
    names = sorted(rated)
    expected = rating.rate([rating.Entrant(rating.START, rows[name]["rank"]) for name in names])
    for name, after in zip(names, expected, strict=True):
        assert (rated[name].mu_after, rated[name].sigma_after) == (after.mu, after.sigma)
        row = Rating.objects.get(player__name=name)
        assert (row.mu, row.sigma, row.matches) == (after.mu, after.sigma, 1)
    # Once: neither a second close nor a second rating changes anything.
    assert not tournament_close(tournament_id=tournament["id"])
    again = [(c.player_id, c.match_id, c.place) for c in rated.values()]
    assert not tournament_rate(entrants=again, finished_at=rated["Roya"].finished_at)
    assert RatingChange.objects.count() == 3
    assert Rating.objects.get(player__name="Roya").matches == 1
    me = roya.get("/api/v1/players/me").json()["rating"]
    assert me["matches"] == 1 and me["history"][0]["match_id"] == roya_match["id"]


def test_a_bot_entrant_is_left_out_of_the_ranking_and_rated_by_nobody(make_client):
    tournament = create(make_client("Owner"), bots=True)
    roya, babak, shirbot = make_client("Roya"), make_client("Babak"), make_client("Shirbot")
    assert shirbot.post("/api/v1/players/me/bot", {}, format="json").status_code == 200
    play(roya, enter(roya, tournament), steady)
    play(shirbot, enter(shirbot, tournament), folding)
    play(babak, enter(babak, tournament), folding)
    after_the_last_deal()
    past_deadline(tournament)
    rows = standings(roya, tournament)
    assert rows["Shirbot"]["bot"]
    # The humans ranked among themselves, as if the bot had not entered.
    humans = {name: [Fraction(d["result"]) for d in rows[name]["deals"]] for name in HUMANS}
    alone = {row.entrant: row.rank for row in duplicate.standings(humans)}
    rated = changes(roya, babak, shirbot)
    assert {name: change.place for name, change in rated.items()} == alone
    assert not Rating.objects.filter(player=shirbot.player).exists()


def test_the_first_place_gains_and_the_last_loses_tied_places_alike(make_client):
    players = [make_client(name).player for name in ("Roya", "Babak", "Cyrus", "Dara")]
    entrants = [(p.pk, uuid.uuid4(), place) for p, place in zip(players, (1, 2, 2, 4), strict=True)]
    assert tournament_rate(entrants=entrants, finished_at=timezone.now())
    mu = {row.player.name: row.mu for row in Rating.objects.select_related("player")}
    assert mu["Roya"] > mu["Babak"] == mu["Cyrus"] > mu["Dara"]
    assert mu["Roya"] > rating.START.mu > mu["Dara"]
    assert not tournament_rate(entrants=entrants, finished_at=timezone.now())  # once


def test_a_lone_entrant_has_nobody_to_be_ranked_against(make_client):
    tournament = create(make_client("Owner"))
    roya = make_client("Roya")
    play(roya, enter(roya, tournament), steady)
    past_deadline(tournament)
    assert standings(roya, tournament)["Roya"]["percentage"] == "50"
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
