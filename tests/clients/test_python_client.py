"""A Python client generated from openapi.yaml by openapi-python-client plays a whole match
against the real server, with the generated models only."""

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import httpx
import httpx_sse
import pytest

# The review it reads is worked out only once the coach's tables are built (tests/conftest.py).
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("coach_tables_built")]


def test_generated_client_plays_a_whole_match(asnas_client, server_url):
    from asnas_client import AuthenticatedClient, Client
    from asnas_client.api.v1 import (
        leaderboard_list,
        matches_act,
        matches_create,
        matches_events,
        matches_hint,
        matches_list,
        matches_next_deal,
        matches_resign,
        matches_review,
        players_create,
        players_me,
        players_me_update,
        players_tokens_issue,
        players_tokens_revoke_current,
    )
    from asnas_client.models import (
        ActionName,
        ActionRequest,
        DealEndedEvent,
        Hint,
        MatchCreateRequest,
        MatchEvents,
        MatchFinishedEvent,
        MatchStatus,
        MatchWriteView,
        PaginatedLeaderboardEntryList,
        PaginatedMatchSummaryList,
        PlayerCreated,
        PlayerCreateRequest,
        PlayerProfile,
        PlayerRenameRequest,
        Problem,
        Review,
    )

    player = players_create.sync(
        client=Client(server_url), body=PlayerCreateRequest(name="Generated")
    )
    assert isinstance(player, PlayerCreated), player
    client = AuthenticatedClient(server_url, token=player.token, raise_on_unexpected_status=True)

    def ok(view):
        assert isinstance(view, MatchWriteView), view
        replies.extend(view.events)
        return view

    replies = []
    view = ok(matches_create.sync(client=client, body=MatchCreateRequest(seed=8)))

    # The coach: before looking it says look; after, exact figures. The version stands.
    blind = matches_hint.sync(view.id, client=client)
    assert isinstance(blind, Hint) and blind.version == view.version, blind
    assert {a.action.value: a.hard_probability for a in blind.actions}["look"] == "1"
    view = ok(matches_act.sync(view.id, client=client, body=ActionRequest(action=ActionName.LOOK)))
    seen = matches_hint.sync(view.id, client=client)
    assert isinstance(seen, Hint) and 1 <= seen.hand_rank <= 121, seen
    assert [a.action.value for a in seen.actions] == [a.value for a in view.legal_actions]
    assert all(a.expected_value is not None for a in seen.actions)

    rng = random.Random(8)
    while view.status is not MatchStatus.FINISHED:
        if view.status is MatchStatus.DEAL_OVER:
            view = ok(matches_next_deal.sync(view.id, client=client))
        else:
            assert view.turn == view.your_seat
            action = rng.choice(view.legal_actions)
            body = ActionRequest(action=action, expected_version=view.version)
            view = ok(matches_act.sync(view.id, client=client, body=body))
    assert view.deal_number == 12 and view.winners

    # An error comes back as the typed Problem.
    refused = matches_next_deal.sync(view.id, client=client)
    assert isinstance(refused, Problem) and refused.code == "match_finished"

    events = []
    while True:
        page = matches_events.sync(view.id, client=client, after=events[-1].seq if events else 0)
        assert isinstance(page, MatchEvents), page
        events += page.events
        if not page.has_more:
            break
    assert [event.seq for event in events] == list(range(1, view.version + 1))
    # Every event was parsed as the union member that its `type` names.
    for event in events:
        assert type(event).__name__ == event.type_.value.title().replace("_", "") + "Event"
    assert sum(isinstance(event, DealEndedEvent) for event in events) == 12
    (finished,) = [event for event in events if isinstance(event, MatchFinishedEvent)]
    assert finished.totals == [seat.total for seat in view.seats]
    assert finished.winners == view.winners

    # The writes' answers carried every event, each as its union member.
    assert [event.to_dict() for event in replies] == [event.to_dict() for event in events]

    # The review: worked out by the server's worker after each deal ended, so it is ready
    # within seconds of the last one (503 review_pending, a typed Problem, until then). The
    # bound is far above that: this session server reviews every client test's matches on
    # its worker, and a table of several humans' review costs seconds of CPU the first time on
    # a machine, so on a loaded one this review may wait its turn (a fresh-clone run found
    # all 12 deals still pending after 30 s while the worker wrote three of those, #34).
    waited_until = time.monotonic() + 120
    while isinstance(review := matches_review.sync(view.id, client=client), Problem):
        assert review.code == "review_pending" and time.monotonic() < waited_until, review
        time.sleep(0.2)
    assert isinstance(review, Review) and review.your_seat == 0, review
    (mine,) = review.seats
    assert [deal.deal_number for deal in mine.deals] == list(range(1, 13))
    decisions = [decision for deal in mine.deals for decision in deal.decisions]
    assert decisions and all(d.by.value == "player" and d.grade is not None for d in decisions)
    assert sum(mine.counts.to_dict().values()) == len(decisions)
    assert Fraction(mine.lost) == sum(Fraction(d.lost) for d in decisions)

    given_up = ok(
        matches_resign.sync(
            ok(matches_create.sync(client=client, body=MatchCreateRequest())).id,
            client=client,
        )
    )
    assert given_up.status is MatchStatus.FINISHED and 0 not in given_up.winners
    assert [event.type_.value for event in given_up.events] == ["resigned", "match_finished"]

    # The unseeded one is rated (the seeded one is not): the resignation ranks last.
    profile = players_me.sync(client=client)
    assert isinstance(profile, PlayerProfile), profile
    assert profile.rating.matches == 1
    (change,) = profile.rating.history
    assert (change.match_id, change.place) == (given_up.id, 4)
    assert change.after.mu == profile.rating.mu < change.before.mu
    # A new name, in the profile from then on; a blank one is a problem that changes nothing.
    renamed = players_me_update.sync(client=client, body=PlayerRenameRequest(name=" Roya "))
    assert isinstance(renamed, PlayerProfile) and renamed.name == "Roya"
    blank = players_me_update.sync_detailed(client=client, body=PlayerRenameRequest(name=" "))
    assert blank.status_code == 400 and isinstance(blank.parsed, Problem)
    assert blank.parsed.code == "validation_error"
    assert players_me.sync(client=client).name == "Roya"
    board = leaderboard_list.sync(client=client)
    # Other tests' players may be on the board; this one, with one rated match, is not.
    assert isinstance(board, PaginatedLeaderboardEntryList)
    assert not any(entry.you for entry in board.results)

    # A second token works on its own; revoking the first leaves it working.
    second = players_tokens_issue.sync(client=client)
    assert players_tokens_revoke_current.sync_detailed(client=client).status_code == 204
    client = AuthenticatedClient(server_url, token=second.token, raise_on_unexpected_status=True)

    listed = matches_list.sync(client=client)
    assert isinstance(listed, PaginatedMatchSummaryList)
    assert [(match.id, match.status) for match in listed.results] == [
        (given_up.id, MatchStatus.FINISHED),
        (view.id, MatchStatus.FINISHED),
    ]


def test_generated_clients_follow_a_table_by_stream_and_by_long_poll(asnas_client, server_url):
    """Two humans at one table with the generated client: the owner follows the match on its
    SSE stream (a ticket from stream_tickets_create, the events parsed into the generated
    models), the friend with long-polls (matches_events with `wait`). openapi-python-client
    makes no SSE reader (its matches_stream would parse the body as one JSON), so httpx-sse
    reads the stream over the generated client's own httpx client."""
    from asnas_client import AuthenticatedClient, Client, models
    from asnas_client.api.v1 import (
        matches_act,
        matches_create,
        matches_events,
        matches_join,
        matches_retrieve,
        players_create,
        stream_tickets_create,
    )
    from asnas_client.models import (
        ActionName,
        ActionRequest,
        DealEndedEvent,
        JoinRequest,
        MatchCreateRequest,
        MatchEvents,
        MatchStatus,
        PlayerCreateRequest,
        StreamTicketCreateRequest,
    )

    def player(name: str) -> AuthenticatedClient:
        token = players_create.sync(client=Client(server_url), body=PlayerCreateRequest(name=name))
        return AuthenticatedClient(
            server_url,
            token=token.token,
            raise_on_unexpected_status=True,
            timeout=httpx.Timeout(60),
        )

    owner, friend = player("Owner"), player("Friend")
    table = matches_create.sync(client=owner, body=MatchCreateRequest(humans=2, seed=8))
    assert table.status is MatchStatus.WAITING and table.invite

    ticket = stream_tickets_create.sync(
        client=owner, body=StreamTicketCreateRequest(match_id=table.id)
    ).ticket
    streamed = []

    def follow():
        # No token here: the ticket alone opens the owner's stream.
        with httpx_sse.connect_sse(
            Client(server_url, timeout=httpx.Timeout(60)).get_httpx_client(),
            "GET",
            f"/api/v1/matches/{table.id}/stream",
            params={"ticket": ticket},
        ) as source:
            for message in source.iter_sse():
                model = message.event.title().replace("_", "") + "Event"
                streamed.append((message.id, getattr(models, model).from_dict(message.json())))
                if isinstance(streamed[-1][1], DealEndedEvent):
                    return

    follower = threading.Thread(target=follow)
    follower.start()
    view = matches_join.sync(table.id, client=friend, body=JoinRequest(invite=table.invite))
    assert view.your_seat == 1 and view.status is MatchStatus.IN_DEAL
    seen = view.version

    # Deal 1 to its end: each acts at its turn; the friend waits for the owner's moves with a
    # long-poll that answers as soon as they are written.
    def long_poll(after: int) -> tuple[MatchEvents, float]:
        return matches_events.sync(table.id, client=friend, after=after, wait=20), time.monotonic()

    def act(seat: int):
        client = (owner, friend)[seat]
        legal = matches_retrieve.sync(table.id, client=client).legal_actions
        action = ActionName.HOLD if ActionName.HOLD in legal else ActionName.CALL
        return matches_act.sync(table.id, client=client, body=ActionRequest(action=action))

    with ThreadPoolExecutor(1) as pool:
        while view.status is MatchStatus.IN_DEAL:
            view = matches_retrieve.sync(table.id, client=owner)
            if view.turn == 1:
                view = act(1)
            else:
                polled = pool.submit(long_poll, seen)
                time.sleep(0.5)  # the long-poll is waiting by now
                written = time.monotonic()
                view = act(0)
                page, answered = polled.result()
                assert page.events and page.events[0].seq == seen + 1, page
                assert answered - written < 5, "the long-poll answers at the write, not at 20 s"
            seen = view.version
    follower.join(timeout=30)
    assert not follower.is_alive()

    # The stream gave exactly the owner's events, each as its union member, ids their seqs.
    listed = matches_events.sync(table.id, client=owner).events
    dealt = [event.to_dict() for event in listed if event.seq <= streamed[-1][1].seq]
    assert [event.to_dict() for _, event in streamed] == dealt
    assert [message_id for message_id, _ in streamed] == [str(event["seq"]) for event in dealt]
