import pytest

from games.models import Deal, Match, MatchEvent
from games.services import match_restart


@pytest.fixture
def restarted_match(make_match):
    """A match restarted over and over until it holds `events` events, the way a player who
    keeps restarting makes one: restarted_match(events=13_000). One real restart is copied,
    series after series, straight into the tables, since thousands of service calls would
    take minutes."""

    def make(*, events: int) -> Match:
        match = make_match(deals=0)
        match = match_restart(match_id=match.id, player=match.owner).row
        block = list(match.events.filter(seq__gte=_restart_seq(match)).order_by("seq"))
        deal = match.deals.get(series=2)
        new_events, new_deals, seq, series = [], [], match.version, 2
        while seq < events:
            series += 1
            for event in block:
                seq += 1
                payload = {**event.payload}
                if "series" in payload:
                    payload["series"] = series
                new_events.append(
                    MatchEvent(match=match, seq=seq, type=event.type, payload=payload)
                )
            new_deals.append(
                Deal(match=match, series=series, number=1, dealer=deal.dealer, deck=deal.deck)
            )
        MatchEvent.objects.bulk_create(new_events, batch_size=2000)
        Deal.objects.bulk_create(new_deals, batch_size=2000)
        Match.objects.filter(pk=match.pk).update(version=seq, series=series)
        match.refresh_from_db()
        return match

    return make


def _restart_seq(match: Match) -> int:
    return match.events.filter(type="match_restarted").values_list("seq", flat=True).get()
