"""A Python client generated from openapi.yaml by openapi-python-client plays a whole match
against the real server, with the generated models only."""

import random

import pytest

pytestmark = pytest.mark.slow


def test_generated_client_plays_a_whole_match(asnas_client, server_url):
    from asnas_client import AuthenticatedClient, Client
    from asnas_client.api.v1 import (
        matches_act,
        matches_create,
        matches_events,
        matches_hint,
        matches_list,
        matches_next_deal,
        matches_resign,
        players_create,
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
        PaginatedMatchSummaryList,
        PlayerCreated,
        PlayerCreateRequest,
        Problem,
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

    given_up = ok(
        matches_resign.sync(
            ok(matches_create.sync(client=client, body=MatchCreateRequest())).id,
            client=client,
        )
    )
    assert given_up.status is MatchStatus.FINISHED and 0 not in given_up.winners
    assert [event.type_.value for event in given_up.events] == ["resigned", "match_finished"]

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
