"""Cards, your play, the others' play through the API (docs/skill.md): shown only where every
hand of the deal may be seen, stored by the write that ends the deal and never by a read."""

import copy
from fractions import Fraction

import jsonschema
import pytest

from games.ai import skill
from games.engine.record import check_record
from games.match import log as match_log
from games.models import Deal, Match
from tests.match.test_record import SCHEMA, record_of
from tests.spectating.test_spectators import post, watch

pytestmark = pytest.mark.django_db

PARTS = ("cards", "play", "table")


def every_hand_seen(deal: dict, viewer: int | None) -> bool:
    return all(seat["hand"] is not None or seat["seat"] == viewer for seat in deal["seats"])


def adds_up(deal: dict) -> bool:
    return all(
        sum(Fraction(seat["skill"][part]) for part in PARTS) == Fraction(seat["delta"])
        for seat in deal["seats"]
    )


def read_both_ways(client, url: str, match_id: str) -> dict:
    """The read of the match, which shows the figures its row keeps, checked against the read
    of a series begun before rows kept them, which finds them in the deal rows."""
    read = client.get(url).json()
    kept = Match.objects.get(id=match_id).skill
    Match.objects.filter(id=match_id).update(skill=None)
    assert client.get(url).json() == read
    Match.objects.filter(id=match_id).update(skill=kept)
    return read


def play_reading(client, view: dict, code: str | None = None, humans=None) -> tuple[dict, int, int]:
    """Look, then call or hold, to the end (`humans`: the clients by seat, else `client`
    alone); after each deal, read the match as `client` (and watch it with `code`) and check
    its figures against the hands the reader saw. Returns the last read and how many deals
    showed figures and how many hid them."""
    url = f"/api/v1/matches/{view['id']}"
    humans = humans or [client]
    shown = hidden = 0
    while view["status"] != "finished":
        if view["status"] == "deal_over":
            view = client.post(f"{url}/next-deal", {}, format="json").json()
            continue
        player = humans[view["turn"]]
        legal = player.get(url).json()["legal_actions"]
        action = next(a for a in ("look", "call", "hold") if a in legal)
        view = player.post(f"{url}/actions", {"action": action}, format="json").json()
        if view["status"] == "deal_over":
            # A write works no figures out.
            assert all(seat["skill"] is None for seat in view["last_deal"]["seats"])
            assert view["skill"] is None
            read = read_both_ways(client, url, view["id"])
            deal = read["last_deal"]
            if every_hand_seen(deal, 0):
                shown += 1
                assert adds_up(deal)
            else:
                hidden += 1
                assert all(seat["skill"] is None for seat in deal["seats"])
            if code:
                watched = watch(code).json()["last_deal"]
                if every_hand_seen(watched, None):
                    assert adds_up(watched)
                else:
                    assert all(seat["skill"] is None for seat in watched["seats"])
    return client.get(url).json(), shown, hidden


def test_a_match_that_is_not_verifiable_shows_only_deals_whose_hands_were_all_shown(
    client, make_client
):
    view = client.post("/api/v1/matches", {"humans": 2, "seed": 4}, format="json").json()
    friend = make_client("Babak")
    url = f"/api/v1/matches/{view['id']}"
    view = friend.post(f"{url}/join", {"invite": view["invite"]}, format="json").json()
    assert view["fairness"]["verifiable"] is False
    final, shown, hidden = play_reading(client, view, humans=[client, friend])
    assert hidden > 0  # the check met a deal with a hidden hand
    # Its seed is never revealed: the sums stay hidden, and so does the last deal with a fold.
    assert final["skill"] is None


@pytest.mark.parametrize("spectators", ["live", "delayed"])
def test_a_verifiable_match_shows_every_deal_and_the_sums_once_it_ended(client, spectators):
    view = client.post("/api/v1/matches", {"client_seed": "kept"}, format="json").json()
    code = post(client, f"/api/v1/matches/{view['id']}/spectators", {"spectators": spectators})
    code = code.json()["watch_code"]
    final, shown, hidden = play_reading(client, view, code)
    assert hidden > 0
    assert final["status"] == "finished" and adds_up(final["last_deal"])
    for seat, sums in zip(final["seats"], final["skill"], strict=True):
        assert sum(Fraction(sums[part]) for part in PARTS) == Fraction(seat["total"])
    assert watch(code).json()["skill"] == final["skill"]  # a spectator sees what all see
    record = record_of(client, view["id"])  # valid against docs/record.schema.json
    seats = [seat for deal in record["series"][0]["deals"] for seat in deal["result"]["seats"]]
    assert all(seat["skill"] is not None for seat in seats) and len(seats) == 48
    assert check_record(record) == []
    old = copy.deepcopy(record)  # a record of version 1, from before the figures, still holds
    old["format"] = "asnas-record/1"
    for deal in old["series"][0]["deals"]:
        for seat in deal["result"]["seats"]:
            del seat["skill"]
    jsonschema.validate(old, SCHEMA)
    assert check_record(old) == []
    seats[5]["skill"]["play"] = str(Fraction(seats[5]["skill"]["play"]) + 1)
    assert check_record(record) == ["series 1 deal 2: seat 1's skill figures miss its result"]
    # Kept by the writes that ended the deals.
    assert Deal.objects.filter(match_id=view["id"], skill__isnull=True).count() == 0


def test_a_record_mid_series_gives_no_figures_for_a_deal_with_a_hidden_hand(client):
    view = client.post("/api/v1/matches", {"client_seed": "kept"}, format="json").json()
    url = f"/api/v1/matches/{view['id']}"
    while view["deal_number"] < 4:
        if view["status"] == "deal_over":
            view = client.post(f"{url}/next-deal", {}, format="json").json()
            continue
        action = next(a for a in ("look", "call", "hold") if a in view["legal_actions"])
        view = client.post(f"{url}/actions", {"action": action}, format="json").json()
    record = client.get(f"{url}/record").json()
    deals = [deal for deal in record["series"][0]["deals"] if deal["result"]]
    assert any(None in deal["hands"] for deal in deals)
    for deal in deals:
        figures = [seat["skill"] for seat in deal["result"]["seats"]]
        if None in deal["hands"]:
            assert figures == [None] * 4
        else:
            assert None not in figures


def test_a_resignation_mid_deal_shows_the_figures_of_the_deals_that_ended(client):
    view = client.post("/api/v1/matches", {"client_seed": "kept"}, format="json").json()
    url = f"/api/v1/matches/{view['id']}"
    # A random deal may end before the human's turn comes, so "deal 3" is "deal 3 or later".
    while not (view["deal_number"] >= 3 and view["status"] == "in_deal"):
        if view["status"] == "deal_over":
            view = client.post(f"{url}/next-deal", {}, format="json").json()
            continue
        action = next(a for a in ("look", "call", "hold") if a in view["legal_actions"])
        view = client.post(f"{url}/actions", {"action": action}, format="json").json()
    client.post(f"{url}/resign", {}, format="json")
    read = client.get(url).json()
    assert read["status"] == "finished"
    assert read["last_deal"]["deal_number"] == view["deal_number"] - 1
    assert adds_up(read["last_deal"])
    for seat, sums in zip(read["seats"], read["skill"], strict=True):
        assert sum(Fraction(sums[part]) for part in PARTS) == Fraction(seat["total"])


def figures_from_events(match_id: str, series: int) -> dict[int, dict]:
    return skill.stored_figures((e for _, e in match_log.match_events(match_id=match_id)), series)


def stored(match_id: str, series: int, deal_number: int) -> dict | None:
    deal = Deal.objects.get(match_id=match_id, series=series, deal_number=deal_number)
    return deal.skill


def play_checking_each_deal_end(client, view: dict, humans) -> tuple[int, int]:
    """Look, then call or hold, to the end; after each write that ends a deal, and before
    any read, check what its row keeps (`humans`: the clients by seat, None at an AI seat).
    Returns how many deals kept figures, how many not."""
    url = f"/api/v1/matches/{view['id']}"
    kept = unseen = 0
    while view["status"] != "finished":
        if view["status"] == "deal_over":
            view = client.post(f"{url}/next-deal", {}, format="json").json()
            continue
        player = humans[view["turn"]]
        legal = player.get(url).json()["legal_actions"]
        action = next(a for a in ("look", "call", "hold") if a in legal)
        view = player.post(f"{url}/actions", {"action": action}, format="json").json()
        if view["status"] in ("deal_over", "finished"):
            number, series = view["last_deal"]["deal_number"], view["series"]
            expected = figures_from_events(view["id"], series)[number]
            row = stored(view["id"], series, number)
            assert row["shown"] == expected["shown"]
            present = [seat for seat, human in enumerate(humans) if human is not None]
            seen = view["fairness"]["verifiable"] or any(
                skill.visible(row["shown"], viewer, False) for viewer in (None, *present)
            )
            assert row["seats"] == (expected["seats"] if seen else None)
            kept, unseen = kept + seen, unseen + (not seen)
    return kept, unseen


def test_the_write_that_ends_a_deal_keeps_its_figures_only_when_a_viewer_may_see_them(
    client, make_client
):
    """Not verifiable: a deal keeps its figures when its hands were all shown, but maybe a
    present human's own; of the others, only which hands were shown."""
    view = client.post("/api/v1/matches", {"humans": 2, "seed": 4}, format="json").json()
    friend = make_client("Babak")
    url = f"/api/v1/matches/{view['id']}"
    view = friend.post(f"{url}/join", {"invite": view["invite"]}, format="json").json()
    kept, unseen = play_checking_each_deal_end(client, view, [client, friend, None, None])
    assert kept > 0 and unseen > 0  # the check met both


def test_a_verifiable_series_keeps_every_deals_figures_as_it_ends(client):
    view = client.post("/api/v1/matches", {"client_seed": "kept"}, format="json").json()
    kept, unseen = play_checking_each_deal_end(client, view, [client, None, None, None])
    assert unseen == 0 and kept > 0
    # Deals that a create or a next-deal ended (before the human's turn) too.
    rows = Deal.objects.filter(match_id=view["id"]).values_list("skill", flat=True)
    assert len(rows) == 12 and all(row["seats"] is not None for row in rows)


def test_a_series_begun_before_the_figures_were_kept_shows_them_all_the_same(client):
    """A series begun before writes kept figures (no match row's, and deals with none, as
    rows rebuilt since): the read works them out and shows what it always showed, and
    writes nothing."""
    view = client.post("/api/v1/matches", {"client_seed": "kept"}, format="json").json()
    play_reading(client, view)
    url = f"/api/v1/matches/{view['id']}"
    before = client.get(url).json()
    assert before["skill"] is not None
    Match.objects.filter(id=view["id"]).update(skill=None)
    Deal.objects.filter(match_id=view["id"], deal_number__in=[2, 12]).update(skill=None)
    assert client.get(url).json() == before
    assert Deal.objects.filter(match_id=view["id"], skill__isnull=True).count() == 2
    assert Match.objects.get(id=view["id"]).skill is None


def test_the_match_row_keeps_the_series_figures_so_far(client):
    """What a read shows from the match row is what the deal rows give."""
    view = client.post("/api/v1/matches", {"client_seed": "kept"}, format="json").json()
    final, _, _ = play_reading(client, view)
    kept = Match.objects.get(id=view["id"]).skill
    deals = figures_from_events(view["id"], 1)
    assert (kept["series"], kept["deal_number"]) == (1, 12)
    assert kept["last"] == deals[12]["seats"] == [s["skill"] for s in final["last_deal"]["seats"]]
    assert kept["sums"] == skill.sums(deals.values()) == final["skill"]
