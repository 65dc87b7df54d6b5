"""Verify a single-player match end to end, written from the text of issue #25 alone.

It imports nothing of the service (the standard library only) and talks HTTP to a running
server: it draws a commitment, creates a single-player match on it with its own client
seed, plays it to the end (or resigns), then checks, from what the server answered:

- the revealed server seed hashes (SHA-256, lowercase hex) to the commitment published
  before the client seed was given, and is the one the ending event reveals;
- no answer before the reveal held the server seed;
- every deal's dealer: deal 1's is one draw in [0, 4) from the stream of (s, 0), each
  later one the seat after the previous dealer (the rules' "to the right", seat + 1);
- every deal's deck, dealt again from the seeds, gives every hand shown: the player's own
  cards during play, each showdown's hands, and every hand of the record.

    python examples/verify_from_spec.py http://127.0.0.1:8000 [--client-seed TEXT]
        [--resign-after DEALS] [--tamper seed|card] [--save-record FILE]

`--resign-after N` resigns in deal N + 1 instead of playing all twelve deals (with `--tamper
card`, not before a hand has been shown: deals can end before the player's turn, leaving no
card to change). `--tamper` changes what was fetched before checking it (a wrong seed, or one
card of the first hand shown): the check must then fail. Exits 0 when everything agrees, 1
otherwise.
"""

import argparse
import hashlib
import hmac
import json
import secrets
import sys
import urllib.error
import urllib.request

RANKS_IN_ORDER = ("As", "Shah", "Bibi", "Sarbaz", "Couli")


# --- The algorithm, as the issue states it ---------------------------------------------------


def material(client_seeds: list[str], series: int, deal: int) -> str:
    return ":".join(client_seeds) + f":{series}:{deal}"


def byte_stream(key: bytes, message: str):
    counter = 0
    while True:
        yield from hmac.new(key, (message + ":" + str(counter)).encode(), hashlib.sha256).digest()
        counter += 1


def draw(stream, n: int) -> int:
    while True:
        u = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if u < (2**32 // n) * n:
            return u % n


def first_dealer(key: bytes, client_seeds: list[str], series: int) -> int:
    return draw(byte_stream(key, material(client_seeds, series, 0)), 4)


def deck(key: bytes, client_seeds: list[str], series: int, deal: int) -> list[str]:
    cards = [rank for rank in RANKS_IN_ORDER for _ in range(4)]
    stream = byte_stream(key, material(client_seeds, series, deal))
    for i in range(19, 0, -1):
        j = draw(stream, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def hands_of(cards: list[str], dealer: int) -> list[list[str]]:
    hands: list[list[str]] = [[], [], [], []]
    for k, card in enumerate(cards):
        hands[(dealer + 1 + k) % 4].append(card)
    return hands


# --- HTTP ------------------------------------------------------------------------------------


class Api:
    def __init__(self, base: str):
        self.base = base.rstrip("/") + "/api/v1"
        self.token = ""
        self.bodies: list[str] = []  # every answer, as received
        self.reveal_from = 0  # the index of the answer that ended the series

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(
            self.base + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json"}
            | ({"Authorization": f"Bearer {self.token}"} if self.token else {}),
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as error:
            sys.exit(f"{method} {path}: {error.code} {error.read().decode()}")
        self.bodies.append(text)
        return json.loads(text)


# --- Playing ---------------------------------------------------------------------------------


class Seen:
    """Every dealer and every hand the player was shown, by (series, deal)."""

    def __init__(self) -> None:
        self.dealers: dict[tuple[int, int], int] = {}
        self.hands: list[tuple[str, tuple[int, int], int, list[str]]] = []

    def view(self, view: dict) -> None:
        at = (view["series"], view["deal_number"])
        if view["deal_number"]:
            self.dealers[at] = view["dealer"]
        if view.get("your_cards"):
            self.hands.append(("own cards", at, view["your_seat"], view["your_cards"]))
        last = view.get("last_deal")
        for seat in (last or {}).get("seats", []):
            if seat.get("hand"):
                place = (last["series"], last["deal_number"])
                self.hands.append(("last deal", place, seat["seat"], seat["hand"]))
        for event in view.get("events", []):
            self.event(event, view["series"])

    def event(self, event: dict, series: int) -> None:
        if event["type"] == "deal_started":
            self.dealers[(series, event["deal_number"])] = event["dealer"]
        if event["type"] == "deal_ended":
            for seat in event["seats"]:
                if seat.get("hand"):
                    at = (series, event["deal_number"])
                    self.hands.append(("showdown", at, seat["seat"], seat["hand"]))


def play(api: Api, view: dict, seen: Seen, resign_after: int | None, needs_a_hand: bool) -> dict:
    url = f"/matches/{view['id']}"
    seen.view(view)
    while view["status"] not in ("finished", "resigned"):
        resigns = resign_after is not None and view["deal_number"] > resign_after
        if resigns and (seen.hands or not needs_a_hand):
            view = api.call("POST", f"{url}/resign", {})
        elif view["status"] == "deal_over":
            view = api.call("POST", f"{url}/next-deal", {})
        else:
            legal = view["legal_actions"]
            action = next(a for a in ("look", "call", "hold", "fold") if a in legal)
            view = api.call("POST", f"{url}/actions", {"action": action})
        seen.view(view)
        if view["status"] in ("finished", "resigned") or view["fairness"]["server_seed"]:
            break
    return view


# --- Checking --------------------------------------------------------------------------------


def check(committed: dict, client_seed: str, final: dict, events: list, record: dict, seen, api):
    problems: list[str] = []
    fair = final["fairness"]
    seed = fair["server_seed"]
    if not seed:
        return ["the server seed was not revealed"], {}
    key = bytes.fromhex(seed)
    if hashlib.sha256(key).hexdigest() != committed["commitment"]:
        problems.append("the revealed seed does not hash to the commitment")
    if fair["commitment"] != committed["commitment"]:
        problems.append("the match's commitment is not the one drawn first")
    client_seeds = fair["client_seeds"]
    if client_seeds != [client_seed, "", "", ""]:
        problems.append(f"client seeds {client_seeds}, not ours")
    ending = [event for event in events if event.get("server_seed")]
    if [event["server_seed"] for event in ending] != [seed]:
        problems.append("the ending event does not reveal the seed once")
    if any(seed in body for body in api.bodies[: api.reveal_from]):
        problems.append("the seed was in an answer before the series ended")
    if not any(seed in body for body in api.bodies[api.reveal_from :]):
        problems.append("the seed is in no answer of the server")

    series = 1
    record_series = next(s for s in record["series"] if s["series"] == series)
    if record_series["server_seed"] != seed or record_series["commitment"] != fair["commitment"]:
        problems.append("the record's fairness block differs")
    dealers, hands = {}, {}
    dealer = None
    numbers = sorted(
        {d for s, d in seen.dealers if s == series}
        | {deal["deal_number"] for deal in record_series["deals"]}
    )
    for number in range(1, max(numbers) + 1):
        dealer = first_dealer(key, client_seeds, series) if number == 1 else (dealer + 1) % 4
        dealers[number] = dealer
        hands[number] = hands_of(deck(key, client_seeds, series, number), dealer)
    checked = {"deals": len(dealers), "dealers": 0, "hands": 0, "seats": set()}

    def dealer_is(source: str, number: int, shown: int) -> None:
        checked["dealers"] += 1
        if dealers[number] != shown:
            expected = dealers[number]
            problems.append(f"{source}: deal {number} dealt by {shown}, seeds say {expected}")

    def hand_is(source: str, number: int, seat: int, hand: list[str]) -> None:
        checked["hands"] += 1
        checked["seats"].add((number, seat))
        if sorted(hand) != sorted(hands[number][seat]):
            expected = hands[number][seat]
            problems.append(f"{source}: deal {number} seat {seat} {hand}, seeds {expected}")

    for (s, number), shown in sorted(seen.dealers.items()):
        if s == series:
            dealer_is("view", number, shown)
    for source, (s, number), seat, hand in seen.hands:
        if s == series:
            hand_is(source, number, seat, hand)
    for deal in record_series["deals"]:
        dealer_is("record", deal["deal_number"], deal["dealer"])
        for seat, hand in enumerate(deal["hands"]):
            if hand:
                hand_is("record", deal["deal_number"], seat, hand)
        for seat in (deal["result"] or {}).get("seats", []):
            if seat.get("hand"):
                hand_is("record result", deal["deal_number"], seat["seat"], seat["hand"])
    return problems, checked


def tamper(how: str, final: dict, seen: Seen) -> str:
    """Change what was fetched; say what was changed, as the check's finding will name it (the
    first hand seen is of whichever deal first showed one)."""
    if how == "seed":
        final["fairness"]["server_seed"] = secrets.token_hex(32)
        return "seed"
    if not seen.hands:
        sys.exit("no hand was shown in the whole match: no card to change")
    source, at, seat, hand = seen.hands[0]
    # Another rank for its first card: the hand is then another hand (one of each of the
    # five ranks leaves no rank outside it to take).
    other = next(rank for rank in RANKS_IN_ORDER if rank != hand[0])
    seen.hands[0] = (source, at, seat, [other, *hand[1:]])
    return f"card, {source}: deal {at[1]} seat {seat}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url")
    parser.add_argument("--client-seed", default="from the issue's text, " + secrets.token_hex(4))
    parser.add_argument("--resign-after", type=int)
    parser.add_argument("--tamper", choices=("seed", "card"))
    parser.add_argument("--save-record", metavar="FILE", help="keep the match's record there")
    options = parser.parse_args()

    api = Api(options.base_url)
    api.token = api.call("POST", "/players", {"name": "Verifier"})["token"]
    committed = api.call("POST", "/commitments", {})
    print(f"commitment {committed['commitment']} (expires {committed['expires_at']})")
    view = api.call(
        "POST",
        "/matches",
        {"commitment": committed["id"], "client_seed": options.client_seed},
    )
    print(f"match {view['id']}, client seed {options.client_seed!r}")
    seen = Seen()
    final = play(api, view, seen, options.resign_after, needs_a_hand=options.tamper == "card")
    api.reveal_from = len(api.bodies) - 1  # the answer that ended the series
    final = api.call("GET", f"/matches/{final['id']}")
    events = api.call("GET", f"/matches/{final['id']}/events")["events"]
    record = api.call("GET", f"/matches/{final['id']}/record")
    if options.save_record:
        with open(options.save_record, "w") as kept:
            json.dump(record, kept, indent=1)
    print(f"ended: {final['status']} after deal {final['deal_number']}; record {record['format']}")
    print(f"revealed server seed {final['fairness']['server_seed']}")
    if options.tamper:
        print(f"tampered: {tamper(options.tamper, final, seen)}")
    problems, checked = check(committed, options.client_seed, final, events, record, seen, api)
    for problem in problems[:5]:
        print("FAIL", problem)
    if problems:
        print(f"FAIL: {len(problems)} disagreements in all")
        return 1
    print(
        f"verified: commitment, {checked['deals']} decks, {checked['dealers']} dealers shown "
        f"and {checked['hands']} hands shown ({len(checked['seats'])} distinct deal and seat) "
        "agree with the seeds"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
