import pytest

from games.engine import MatchRestarted, encode_event, event_from_dict
from games.match import log as match_log
from games.match.commands import match_move
from games.models import Deal, EventBatch, Match


@pytest.fixture
def restarted_match(make_match):
    """A match restarted over and over until it holds `events` events, the way a player who
    keeps restarting makes one: restarted_match(events=13_000). One real restart is copied,
    series after series, straight into the tables, since thousands of service calls would
    take minutes."""

    def make(*, events: int) -> Match:
        match = make_match(deals=0)
        match = match_move(move="restart", match_id=match.id, player=match.owner).row
        block = [
            event.to_dict()
            for _, event in match_log.match_events(match_id=match.id, first=_restart_seq(match))
        ]
        deal = match.deals.get(series=2)
        new_batches, new_deals, seq, series = [], [], match.version, 2
        while seq < events:
            series += 1
            lines = [encode_event(event_from_dict({**p, "series": series})) for p in block]
            # The copied deal_started is the block's second event, after match_restarted.
            new_deals.append(
                Deal(
                    match=match,
                    series=series,
                    deal_number=1,
                    dealer=deal.dealer,
                    started_seq=seq + 2,
                )
            )
            seq += len(lines)
            new_batches.append(
                EventBatch(
                    match=match, seq=seq, events="\n".join(lines), created_at=match.updated_at
                )
            )
        EventBatch.objects.bulk_create(new_batches, batch_size=2000)
        Deal.objects.bulk_create(new_deals, batch_size=2000)
        Match.objects.filter(pk=match.pk).update(version=seq, series=series)
        match.refresh_from_db()
        return match

    return make


def _restart_seq(match: Match) -> int:
    events = match_log.match_events(match_id=match.id)
    return next(seq for seq, event in events if isinstance(event, MatchRestarted))
