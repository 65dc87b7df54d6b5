"""Ratings written as matches finish (docs/ratings.md), through the match services on real
Postgres: who is rated, in what place, once."""

import uuid
from datetime import timedelta
from fractions import Fraction

import pytest
from django.utils import timezone

from games.engine import Status, legal_actions
from games.match.commands import match_clock_tick, match_create, match_join, match_move
from players.models import Rating, RatingChange
from players.rating import START, places
from players.rating_anchors import ANCHORS
from players.services import match_rate, player_create
from tests.matches import play_until, seated

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    return [player_create(name=name)[0] for name in ("Roya", "Babak", "Nima", "Sara")]


def fold_to_the_end(match, player, *, until=lambda state: state.status is Status.FINISHED):
    """The owner folds (or holds, when folding is not theirs to do) through every deal, or
    until `until(state)`."""
    while not until(match.state):
        if match.state.status is Status.DEAL_OVER:
            match = match_move(move="next_deal", match_id=match.row.id, player=player)
        else:
            legal = legal_actions(match.state, 0)
            action = "fold" if "fold" in legal else legal[0]
            match = match_move(move="act", match_id=match.row.id, player=player, action=action)
    return match


def changes(player) -> list[RatingChange]:
    return list(RatingChange.objects.filter(player=player).order_by("finished_at", "id"))


def rating_of(player) -> tuple[float, float]:
    row = Rating.objects.get(player=player)
    return row.mu, row.sigma


def alone_at(ai_level: str, totals, *, resigned: bool) -> tuple[float, float]:
    """The rating a new player would have after a single-player match at `ai_level` that
    ended with `totals`, played to the end or resigned, rated by the service itself."""
    newcomer = player_create(name="Newcomer")[0]
    match_rate(
        match_id=uuid.uuid4(),
        series=1,
        ai_level=ai_level,
        humans={0: newcomer.pk},
        totals=totals,
        quit=[resigned, False, False, False],
        finished_at=timezone.now(),
    )
    return rating_of(newcomer)


def at_deal_11(state) -> bool:
    return state.deal_number == 11


def test_a_finished_match_rates_its_human_once_by_the_exact_totals(people):
    roya = people[0]
    match = fold_to_the_end(match_create(owner=roya, ai_level="normal"), roya)
    totals = [Fraction(total) for total in match.row.totals]
    (change,) = changes(roya)
    assert (change.match_id, change.series) == (match.row.id, 1)
    assert change.place == places(totals, [False] * 4)[0]
    assert (change.mu_before, change.sigma_before) == (START.mu, START.sigma)
    rating = Rating.objects.get(player=roya)
    assert (rating.mu, rating.sigma, rating.matches) == (change.mu_after, change.sigma_after, 1)
    assert rating.displayed == pytest.approx(rating.mu - 3 * rating.sigma)
    assert rating.sigma < START.sigma
    # Rated once: finishing it again is not possible, and rating it again changes nothing.
    again = match_rate(
        match_id=match.row.id,
        series=1,
        ai_level="normal",
        humans={0: roya.pk},
        totals=totals,
        quit=[False] * 4,
        finished_at=change.finished_at,
    )
    assert again is False
    assert len(changes(roya)) == 1 and Rating.objects.get(player=roya).mu == rating.mu


def test_each_finished_series_is_rated_and_follows_the_last(people):
    roya = people[0]
    match = fold_to_the_end(match_create(owner=roya, ai_level="hard"), roya)
    match = match_move(move="restart", match_id=match.row.id, player=roya)
    fold_to_the_end(match, roya)
    first, second = changes(roya)
    assert (first.series, second.series) == (1, 2)
    assert (second.mu_before, second.sigma_before) == (first.mu_after, first.sigma_after)
    assert Rating.objects.get(player=roya).matches == 2


def test_a_resignation_ranks_last_whatever_the_totals(people):
    roya = people[0]
    match = match_create(owner=roya, ai_level="easy")
    totals_before = list(match.state.totals)
    match_move(move="resign", match_id=match.row.id, player=roya)
    (change,) = changes(roya)
    # Every total is 0 before deal 1 ends: by totals alone all four would share place 1.
    assert set(totals_before) == {0}
    assert change.place == 4 and change.mu_after < change.mu_before


def test_seeded_matches_and_tables_never_dealt_are_not_rated(people):
    roya, babak = people[:2]
    fold_to_the_end(match_create(owner=roya, ai_level="easy", seed=3), roya)
    seeded = match_create(owner=roya, ai_level="easy", seed=4)
    match_move(move="leave", match_id=seeded.row.id, player=roya)
    waiting = match_create(owner=roya, ai_level="easy", humans=3)
    match_join(match_id=waiting.row.id, player=babak, invite=waiting.row.invite)
    match_move(
        move="leave", match_id=waiting.row.id, player=babak
    )  # the seat is freed: never dealt
    closed = match_move(move="leave", match_id=waiting.row.id, player=roya)
    assert closed.state.status is Status.ABANDONED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_leaving_a_losing_series_alone_is_rated_as_a_resignation(people):
    roya = people[0]
    match = fold_to_the_end(match_create(owner=roya, ai_level="normal"), roya, until=at_deal_11)
    left = match_move(move="leave", match_id=match.row.id, player=roya)
    assert left.state.status is Status.ABANDONED
    (change,) = changes(roya)
    assert (change.match_id, change.series, change.place) == (match.row.id, 1, 4)
    # The totals as they stood: deal 11, unfinished, counts for nobody.
    assert rating_of(roya) == alone_at("normal", left.state.totals, resigned=True)


def test_restarting_a_series_alone_rates_it_as_a_resignation_at_its_level(people):
    roya = people[0]
    match = fold_to_the_end(match_create(owner=roya, ai_level="easy"), roya, until=at_deal_11)
    totals = list(match.state.totals)
    restarted = match_move(move="restart", match_id=match.row.id, player=roya, ai_level="expert")
    assert restarted.state.series == 2 and restarted.row.ai_level == "expert"
    (change,) = changes(roya)
    assert (change.series, change.place) == (1, 4)
    # Rated against the level series 1 was played at, not the one the restart chose.
    assert rating_of(roya) == alone_at("easy", totals, resigned=True)
    match_move(
        move="restart", match_id=match.row.id, player=roya
    )  # at once: deal 1 of series 2 is dealt
    assert [change.series for change in changes(roya)] == [1, 2]


def test_the_last_human_to_leave_rates_every_human_of_the_table_as_resigned(people):
    roya, babak = people[:2]
    table = seated(people, humans=2, seed=None)
    match_move(move="leave", match_id=table.row.id, player=babak)
    assert not RatingChange.objects.exists()  # the match goes on: rated when it ends
    abandoned = match_move(move="leave", match_id=table.row.id, player=roya)
    assert abandoned.state.status is Status.ABANDONED
    by_player = {change.player_id: change for change in RatingChange.objects.all()}
    assert set(by_player) == {roya.pk, babak.pk}
    assert {change.place for change in by_player.values()} == {3}  # behind both AI seats
    assert Rating.objects.filter(player__in=[roya, babak], matches=1).count() == 2


def test_every_human_of_a_table_is_rated_and_one_who_left_comes_last(people):
    roya, babak, nima = people[:3]
    table = seated(people, humans=3, seed=None)
    table = match_move(move="leave", match_id=table.row.id, player=nima)
    play_until(table, people, lambda state: state.status is Status.FINISHED)
    by_player = {change.player_id: change for change in RatingChange.objects.all()}
    assert set(by_player) == {roya.pk, babak.pk, nima.pk}
    assert by_player[nima.pk].place == 4
    assert {change.place for change in by_player.values()} <= {1, 2, 3, 4}
    assert all(change.match_id == table.row.id for change in by_player.values())


def test_one_who_left_an_earlier_series_is_not_rated_for_the_next(people):
    """Babak leaves series 1 and is rated for it, as a resignation; the owner plays it out
    and restarts. The AI plays Babak's seat through series 2, which is not his to lose."""
    roya, babak = people[:2]
    table = match_move(
        move="leave", match_id=seated(people, humans=2, seed=None).row.id, player=babak
    )
    table = fold_to_the_end(table, roya)
    table = fold_to_the_end(match_move(move="restart", match_id=table.row.id, player=roya), roya)
    assert table.state.series == 2
    (left,) = changes(babak)
    assert left.series == 1 and Rating.objects.get(player=babak).matches == 1
    first, second = changes(roya)
    assert (first.series, second.series) == (1, 2)
    # The seat the AI played all of series 2 is an anchor placed by its total, as at a
    # single-player table.
    totals = [Fraction(total) for total in table.row.totals]
    assert second.place == places(totals, [False] * 4)[0]


def test_the_anchors_stay_whoever_wins(people):
    roya = people[0]
    before = dict(ANCHORS)
    fold_to_the_end(match_create(owner=roya, ai_level="expert"), roya)
    assert ANCHORS == before
    assert not Rating.objects.exclude(player=roya).exists()  # the AI personas have no row


def test_a_match_the_clock_finishes_is_rated_too(people):
    roya, babak = people[:2]
    table = seated(people, humans=2, seed=None, turn_seconds=60)
    far_future = timezone.now() + timedelta(days=365)
    while match_clock_tick(now=far_future) is not None:
        pass
    (change,) = changes(roya)
    assert change.match_id == table.row.id and len(changes(babak)) == 1
    assert Rating.objects.filter(player__in=[roya, babak], matches=1).count() == 2


def test_three_who_leave_at_once_cannot_buy_the_fourth_first_place(people):
    """The collusion of issue #31: three humans leave in deal 1 and the fourth folds every
    deal. The seats the AI played on count by their totals, as at a single-player table."""
    owner, *colluders = people
    table = seated(people, humans=4, seed=None)
    for colluder in colluders:
        table = match_move(move="leave", match_id=table.row.id, player=colluder)
    table = fold_to_the_end(table, owner)
    totals = [Fraction(total) for total in table.row.totals]
    assert places(totals, [False] * 4)[0] > 1, "folding every deal, the owner cannot lead"
    assert rating_of(owner) == alone_at("easy", totals, resigned=False)
    assert changes(owner)[0].place == places(totals, [False] * 4)[0]
    for colluder in colluders:  # each rated as a resignation: down, behind the one who stayed
        (change,) = changes(colluder)
        assert change.place == 2 and change.mu_after < change.mu_before
