"""Duplicate tournaments through the API (#37): creating, entering, playing the same deals
against the same AI, the close that reveals the seed, and the standings."""

import pytest
from django.core.management import CommandError, call_command

from games.engine import fairness
from games.match.integrity import check_matches
from games.models import Match, Tournament
from games.tournaments.commands import tournament_close
from tests.tournaments.support import (
    BASE,
    create,
    enter,
    past_deadline,
    play,
    played,
    record,
    steady,
)

pytestmark = pytest.mark.django_db


def test_a_tournament_commits_to_its_seed_at_creation_and_hides_it(client):
    tournament = create(client, cap=8)
    row = Tournament.objects.get(pk=tournament["id"])
    assert tournament["commitment"] == fairness.commitment(bytes.fromhex(row.server_seed))
    assert tournament["server_seed"] is None
    assert tournament["phase"] == "open" and tournament["entrants"] == 0
    assert tournament["turn_seconds"] == 60 and tournament["your_entry"] is None
    assert row.server_seed not in str(client.get(f"{BASE}/{tournament['id']}").json())
    assert row.server_seed not in str(client.get(BASE).json())


def test_an_entry_is_a_clocked_match_on_the_tournaments_seed_with_no_client_seed(client):
    tournament = create(client)
    view = enter(client, tournament)
    assert view["tournament"] == tournament["id"] and view["your_seat"] == 0
    assert view["turn_seconds"] == 60 and view["spectators"] == "off"
    assert view["fairness"]["client_seeds"] == ["", "", "", ""]
    # One pool: its seed derives from the tournament's, which the tournament committed to.
    seed = bytes.fromhex(Tournament.objects.get(pk=tournament["id"]).server_seed)
    pooled = fairness.commitment(fairness.pool_seed(seed, 0))
    assert view["fairness"]["commitment"] == pooled != tournament["commitment"]
    again = client.get(f"{BASE}/{tournament['id']}").json()
    assert again["entrants"] == 1 and again["your_entry"]["match"] == view["id"]


def test_a_tournament_match_refuses_hints_spectators_and_restart(client):
    match_id = enter(client, create(client))["id"]
    before = Match.objects.get(pk=match_id).version
    refusals = {
        "hint": client.get(f"/api/v1/matches/{match_id}/hint"),
        "spectators": client.post(
            f"/api/v1/matches/{match_id}/spectators", {"spectators": "live"}, format="json"
        ),
        "restart": client.post(f"/api/v1/matches/{match_id}/restart", {}, format="json"),
    }
    codes = {name: (r.status_code, r.json()["code"]) for name, r in refusals.items()}
    assert codes == {
        "hint": (409, "hints_not_allowed"),
        "spectators": (409, "spectators_not_allowed"),
        "restart": (409, "restart_not_allowed"),
    }
    row = Match.objects.get(pk=match_id)
    assert row.version == before and row.spectators == "off" and row.watch_code_hash == ""


def test_entrants_who_act_alike_meet_the_same_deals_and_the_same_ai(make_client):
    owner = make_client("Owner")
    tournament = create(owner, ai_level="hard")
    roya, babak = make_client("Roya"), make_client("Babak")
    matches = [play(c, enter(c, tournament), steady)["id"] for c in (roya, babak)]
    past_deadline(tournament)
    assert tournament_close(tournament_id=tournament["id"])
    first, second = (played(record(c, m)) for c, m in zip((roya, babak), matches, strict=True))
    assert len(first) == 12 and first == second


def test_entrants_who_differ_at_one_decision_differ_only_from_there(make_client):
    tournament = create(make_client("Owner"), ai_level="normal")
    roya, babak = make_client("Roya"), make_client("Babak")

    # Babak folds at his tenth decision where he may, where Roya goes on as ever.
    def babak_rule(decision, legal):
        return (
            "fold"
            if decision >= 9 and "fold" in legal and "look" not in legal
            else steady(decision, legal)
        )

    views = [play(roya, enter(roya, tournament), steady)]
    views.append(play(babak, enter(babak, tournament), babak_rule))
    past_deadline(tournament)
    tournament_close(tournament_id=tournament["id"])
    first, second = played(record(roya, views[0]["id"])), played(record(babak, views[1]["id"]))
    deal = next(n for n, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)
    a_moves, b_moves = first[deal][2], second[deal][2]
    split = next(n for n, (a, b) in enumerate(zip(a_moves, b_moves, strict=False)) if a != b)
    # Everything before the first different move is the same; that move is Babak's fold.
    assert first[:deal] == second[:deal] and a_moves[:split] == b_moves[:split]
    assert b_moves[split] == (0, "fold") and a_moves[split][0] == 0
    # The deals themselves stay the same: the hands and dealers of every deal.
    assert [(d, h) for d, h, _ in first] == [(d, h) for d, h, _ in second]


def test_the_close_reveals_the_seed_in_every_match_once_and_the_standings_appear(make_client):
    tournament = create(make_client("Owner"))
    roya, babak, cyrus = make_client("Roya"), make_client("Babak"), make_client("Cyrus")
    finished = play(roya, enter(roya, tournament), steady)
    assert finished["fairness"]["server_seed"] is None  # held for the close
    half = enter(babak, tournament)
    unplayed = cyrus.get(f"{BASE}/{tournament['id']}/standings")
    assert (unplayed.status_code, unplayed.json()["code"]) == (409, "tournament_not_closed")
    past_deadline(tournament)
    # The read closes it when no clock did: the seed is public now.
    seen = babak.get(f"{BASE}/{tournament['id']}").json()
    seed = Tournament.objects.get(pk=tournament["id"]).server_seed
    assert seen["phase"] == "closed" and seen["server_seed"] == seed
    pool_seed = fairness.pool_seed(bytes.fromhex(seed), 0).hex()
    assert not tournament_close(tournament_id=tournament["id"])  # once only
    for client, match_id in ((roya, finished["id"]), (babak, half["id"])):
        events = client.get(f"/api/v1/matches/{match_id}/events").json()["events"]
        revealed = [e for e in events if e["type"] == "seed_revealed"]
        assert [e["server_seed"] for e in revealed] == [pool_seed]
        assert fairness.verify(events).ok
        assert fairness.verify_record(record(client, match_id)).ok
    client_standings = cyrus.get(f"{BASE}/{tournament['id']}/standings").json()
    rows = {row["name"]: row for row in client_standings["standings"]}
    assert set(rows) == {"Roya", "Babak"}
    # Babak played nothing after deal 1: his deals 2 to 12 score as the field's lowest, so
    # at best tied with Roya's.
    later = rows["Babak"]["deals"][1:]
    assert not any(deal["played"] for deal in later)
    assert all(deal["matchpoints"] in ("0", "1/2") for deal in later)
    assert rows["Roya"]["rank"] == 1 and rows["Roya"]["percentage"] != "0"


def test_verify_match_and_check_matches_take_a_closed_tournaments_matches(make_client, capsys):
    tournament = create(make_client("Owner"))
    roya, babak = make_client("Roya"), make_client("Babak")
    finished = play(roya, enter(roya, tournament), steady)["id"]
    unfinished = enter(babak, tournament)["id"]
    with pytest.raises(CommandError):  # nothing revealed yet: nothing to verify
        call_command("verify_match", finished)
    past_deadline(tournament)
    assert tournament_close(tournament_id=tournament["id"])
    for match_id in (finished, unfinished):
        call_command("verify_match", match_id)
    assert capsys.readouterr().out.count("Every deal is the one its seeds deal.") == 2
    assert all(problems == [] for _, problems in check_matches([finished, unfinished]))
