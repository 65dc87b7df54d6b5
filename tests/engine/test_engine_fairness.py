"""Verifiable dealing (docs/fairness.md): the engine deals exactly what a verifier written
from the published algorithm alone deals, reveals each verifiable series' server seed once
as it ends and never before, and matches dealt as before stay as they were."""

import hashlib
import hmac
import random
import re
from pathlib import Path

import pytest

from games.engine import (
    DECK,
    Join,
    Leave,
    MatchFinished,
    MatchState,
    NextDeal,
    Resign,
    Restart,
    RevealSeed,
    RuleError,
    SeedRevealed,
    StartMatch,
    decode_event,
    encode_event,
    event_view,
    fairness,
    legal_actions,
    replay,
)
from games.engine.commands import Seeds
from games.engine.events import DealStarted
from games.engine.state import SNAPSHOT_FORMAT
from games.engine.turns import Step
from games.engine.views import Role, Viewer, visible_events
from tests.engine.support import Table

# --- A verifier written from the algorithm's text, sharing no code with the engine ----------


def _stream(key: bytes, message: str):
    counter = 0
    while True:
        yield from hmac.new(key, f"{message}:{counter}".encode(), hashlib.sha256).digest()
        counter += 1


def _draw(stream, n: int) -> int:
    while True:
        u = int.from_bytes(bytes([next(stream), next(stream), next(stream), next(stream)]), "big")
        if u < (2**32 // n) * n:
            return u % n


def verify_deal(server_seed: str, client_seeds, series: int, deal: int, dealer_before):
    key = bytes.fromhex(server_seed)
    material = ":".join(client_seeds)
    if dealer_before is None:
        dealer = _draw(_stream(key, f"{material}:{series}:0"), 4)
    else:
        dealer = (dealer_before + 1) % 4
    cards = ["As"] * 4 + ["Shah"] * 4 + ["Bibi"] * 4 + ["Sarbaz"] * 4 + ["Couli"] * 4
    stream = _stream(key, f"{material}:{series}:{deal}")
    for i in range(19, 0, -1):
        j = _draw(stream, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return dealer, tuple(cards)


# --------------------------------------------------------------------------------------------


def seeds(rng: random.Random, client_seed: str = "", verifiable: bool = True) -> Seeds:
    return Seeds(rng.randbytes(32).hex(), rng.randbytes(32).hex(), client_seed, verifiable)


def play_out(table: Table, rng: random.Random, deals: int = 12) -> None:
    """Random legal play until `deals` more deals have ended or the match is over."""
    for _ in range(deals):
        while table.state.status.value == "in_deal":
            seat = table.deal.turn
            table.act(seat, rng.choice(legal_actions(table.state, seat)))
        if table.state.status.value != "deal_over":
            return
        table.do(NextDeal())


def test_the_verifier_s_deck_starts_from_the_engine_s_deck_order():
    assert tuple(["As"] * 4 + ["Shah"] * 4 + ["Bibi"] * 4 + ["Sarbaz"] * 4 + ["Couli"] * 4) == DECK


@pytest.mark.parametrize("seed", range(8))
def test_every_deal_of_a_verifiable_match_is_the_verifier_s(seed):
    rng = random.Random(seed)
    start = seeds(rng, client_seed=f"roya-{seed} :,\"'")
    table = Table()
    table.do(StartMatch(seed, seeds=start))
    play_out(table, rng)
    client = [start.client_seed, "", "", ""]
    dealer = None
    deals = [event for event in table.events if isinstance(event, DealStarted)]
    assert len(deals) == 12
    for event in deals:
        expected = verify_deal(start.server_seed, client, 1, event.deal_number, dealer)
        assert (event.dealer, event.deck) == expected
        dealer = event.dealer
    finished = table.events[-1]
    assert isinstance(finished, MatchFinished) and finished.server_seed == start.server_seed


def test_the_commitment_is_published_first_and_the_seed_only_at_the_end():
    rng = random.Random(4)
    start = seeds(rng, client_seed="mine")
    table = Table()
    table.do(StartMatch(4, seeds=start))
    created = event_view(table.events[0], 0)
    assert created["commitment"] == hashlib.sha256(bytes.fromhex(start.server_seed)).hexdigest()
    assert (
        created["next_commitment"]
        == hashlib.sha256(bytes.fromhex(start.next_server_seed)).hexdigest()
    )
    assert created["scheme"] == "hmac-sha256/1" and created["verifiable"] is True
    play_out(table, rng)
    *before, last = table.events
    for event in before:
        for viewer in (0, 1, 2, 3, None):
            shown = repr(event_view(event, viewer))
            assert start.server_seed not in shown and start.next_server_seed not in shown
    assert event_view(last, None)["server_seed"] == start.server_seed


def test_a_restart_deals_from_the_committed_next_seed_and_reveals_an_unended_series():
    rng = random.Random(8)
    start = seeds(rng)
    table = Table()
    table.do(StartMatch(8, seeds=start))
    following = rng.randbytes(32).hex()
    restarted, dealt = table.do(Restart(0, client_seed="again", next_server_seed=following))
    assert restarted.server_seed == start.server_seed  # series 1 ended here, unfinished
    shown = event_view(restarted, 0)
    assert shown["commitment"] == hashlib.sha256(bytes.fromhex(start.next_server_seed)).hexdigest()
    assert shown["next_commitment"] == hashlib.sha256(bytes.fromhex(following)).hexdigest()
    assert following not in repr(shown) and start.next_server_seed not in repr(shown)
    expected = verify_deal(start.next_server_seed, ["again", "", "", ""], 2, 1, None)
    assert (dealt.dealer, dealt.deck) == expected
    # A series that finished revealed its seed then; the restart after it reveals nothing.
    play_out(table, rng)
    assert table.events[-1].server_seed == start.next_server_seed
    again, _ = table.do(Restart(0, next_server_seed=rng.randbytes(32).hex()))
    assert again.server_seed is None


def test_a_table_mixes_in_every_joiner_s_client_seed_and_reveals_when_abandoned():
    rng = random.Random(2)
    start = seeds(rng, client_seed="owner")
    table = Table()
    table.do(StartMatch(2, humans=3, seeds=start))
    table.do(Join("Roya", client_seed="roya"))
    (joined, dealt) = table.do(Join("Babak", client_seed="babak"))
    assert event_view(joined, 0)["client_seed"] == "babak"
    expected = verify_deal(start.server_seed, ["owner", "roya", "babak", ""], 1, 1, None)
    assert (dealt.dealer, dealt.deck) == expected
    table.do(Leave(0))
    table.do(Leave(1))
    (left,) = table.do(Leave(2))
    assert left.abandoned and left.server_seed == start.server_seed


def test_a_match_that_is_not_verifiable_never_reveals_nor_commits():
    rng = random.Random(6)
    start = seeds(rng, verifiable=False)
    table = Table()
    table.do(StartMatch(6, seeds=start))
    created = event_view(table.events[0], 0)
    assert created["verifiable"] is False and created["commitment"] is None
    table.do(Resign(0))
    assert table.events[-1].server_seed is None
    assert all(start.server_seed not in repr(event_view(e, 0)) for e in table.events)


def test_every_new_event_form_is_stored_and_read_back_exactly():
    rng = random.Random(9)
    table = Table()
    table.do(StartMatch(9, humans=2, seeds=seeds(rng, client_seed='a,"b"\\c')))
    table.do(Join("Ro,ya\n", client_seed=" ~,:"))
    play_out(table, rng)  # to the end: only then may a table's owner restart
    table.do(Restart(0, ai_level="easy", client_seed="x", next_server_seed=rng.randbytes(32).hex()))
    table.do(Leave(1))
    table.do(Leave(0))
    for event in table.events:
        line = encode_event(event)
        assert decode_event(line) == event, line
        assert "\n" not in line
    assert replay(table.events).to_dict() == table.state.to_dict()
    assert MatchState.from_dict(table.state.to_dict()).to_dict() == table.state.to_dict()


@pytest.mark.parametrize(
    "command",
    [
        StartMatch(1, seeds=Seeds("ab" * 31, "cd" * 32)),
        StartMatch(1, seeds=Seeds("zz" * 32, "cd" * 32)),
        StartMatch(1, seeds=Seeds("ab" * 32, "cd" * 32, client_seed="é")),
        StartMatch(1, seeds=Seeds("ab" * 32, "cd" * 32, client_seed="x" * 65)),
    ],
)
def test_bad_seeds_are_refused(command):
    with pytest.raises(RuleError) as refused:
        Table().do(command)
    assert refused.value.code in {"invalid_seed", "invalid_client_seed"}


def test_a_match_dealt_as_before_is_dealt_as_before():
    table = Table.started(7)
    assert table.state.seeds is None
    assert encode_event(table.events[0]) == "C7,1"
    view = event_view(table.events[0], 0)
    assert view["scheme"] == "python-random/0" and view["commitment"] is None
    restarted, _ = table.do(Restart(0))
    assert encode_event(restarted) == "R2"


def test_the_worked_example_of_docs_fairness_md():
    """Every number of the page's worked example, read from the page, is what the verifier
    above and the engine compute."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text()
    example = docs.split("## A worked example", 1)[1].split("\n## ", 1)[0]
    text = " ".join(example.split())  # the page wraps its lines anywhere
    server_seed = re.search(r"Server seed `([0-9a-f]{64})`", text)[1]
    assert server_seed == bytes(range(32)).hex()
    key = bytes.fromhex(server_seed)
    assert re.search(r"client seeds `\[\"roya\", \"\", \"\", \"\"\]`, series 1", text)
    assert re.search(r"commitment: `([0-9a-f]{64})`", text)[1] == hashlib.sha256(key).hexdigest()

    material = re.search(r"`material\(1, 0\)` = `([^`]*)`", text)[1]
    assert material == "roya::::1:0"
    block = re.search(r"first HMAC block \(counter 0\) is `([0-9a-f]{64})`", text)[1]
    assert block == hmac.new(key, f"{material}:0".encode(), hashlib.sha256).hexdigest()
    first_four, u, limit, dealer = re.search(
        r"first four bytes `([0-9a-f]{8})` = ([\d,]+) < ([\d,]+), and [\d,]+ mod 4 = \*\*(\d)\*\*",
        text,
    ).groups()
    assert first_four == block[:8] and int(u.replace(",", "")) == int(first_four, 16)
    assert int(limit.replace(",", "")) == (2**32 // 4) * 4
    assert int(dealer) == int(first_four, 16) % 4
    assert f"seat {dealer} deals" in text

    deal_material, first, u, limit, j = re.search(
        r"`material\(1, 1\)` = `([^`]*)`; its first block begins `([0-9a-f]{8})`: for `i = 19`, "
        r"u = ([\d,]+) < ([\d,]+) = \(2\^32 // 20\) \* 20, so `j` = [\d,]+ mod 20 = \*\*(\d+)\*\*",
        text,
    ).groups()
    assert deal_material == "roya::::1:1"
    digest = hmac.new(key, f"{deal_material}:0".encode(), hashlib.sha256).hexdigest()
    assert first == digest[:8] and int(u.replace(",", "")) == int(first, 16)
    assert int(limit.replace(",", "")) == (2**32 // 20) * 20 and int(j) == int(first, 16) % 20
    expected_dealer, cards = verify_deal(server_seed, ["roya", "", "", ""], 1, 1, None)
    deck = re.search(r"deal 1's deck: ((?:\w+ ){19}\w+);", text)[1].split()
    assert (int(dealer), tuple(deck)) == (expected_dealer, cards)
    assert fairness.deck(key, ["roya", "", "", ""], 1, 1) == cards
    hands = fairness.hands_of(cards, expected_dealer)
    shown = re.search(
        r"seat 1 holds ((?:\w+ ){5})seat 2 ((?:\w+ ){5})seat 3 ((?:\w+ ){5})and the dealer "
        r"((?:\w+ ){4}\w+)\.",
        text.replace(",", ""),
    ).groups()
    by_seat = {1: shown[0], 2: shown[1], 3: shown[2], expected_dealer: shown[3]}
    assert {seat: tuple(hand.split()) for seat, hand in by_seat.items()} == dict(enumerate(hands))


def test_verify_works_each_dealer_out_from_its_deal_number_when_a_deal_is_missing():
    rng = random.Random(12)
    start = seeds(rng, client_seed="gap")
    table = Table()
    table.do(StartMatch(12, seeds=start))
    play_out(table, rng, deals=4)
    table.do(Restart(0, next_server_seed=rng.randbytes(32).hex()))  # reveals series 1
    shown = [{"seq": n, **event_view(e, None)} for n, e in enumerate(table.events, 1)]
    whole = fairness.verify(shown)
    assert whole.ok and whole.deals >= 4
    without_deal_2 = [e for e in shown if e.get("deal_number") != 2]
    found = fairness.verify(without_deal_2)
    assert found.ok and found.deals == whole.deals - 1, found.problems


def test_a_held_seed_waits_for_seed_revealed_and_then_verifies():
    """A tournament's match (#37): its series' end reveals nothing, seed_revealed reveals
    the seed once, and verify and the record read it like any reveal. Its snapshot is of
    format 6, which older code refuses rather than misread."""
    server_seed = bytes(range(32)).hex()
    step = Step(MatchState())
    step.apply(StartMatch(1, seeds=Seeds(server_seed, "ab" * 32, held=True)))
    step.apply(Resign(0))
    assert step.state.seeds.held and not step.state.seeds.revealed
    assert step.state.to_dict()["format"] == SNAPSHOT_FORMAT == 6
    public = visible_events(list(enumerate(step.events, start=1)), Viewer(Role.LIVE))
    assert not fairness.verify(public).ok  # nothing revealed: nothing verified
    assert server_seed not in str(public)
    step.apply(RevealSeed())
    assert isinstance(step.events[-1], SeedRevealed) and step.state.seeds.revealed
    with pytest.raises(RuleError):
        step.apply(RevealSeed())  # once
    public = visible_events(list(enumerate(step.events, start=1)), Viewer(Role.LIVE))
    found = fairness.verify(public)
    assert found.ok and found.series == [1]
    assert MatchState.from_dict(step.state.to_dict()).seeds.held
