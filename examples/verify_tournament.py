"""Verify a closed duplicate tournament, written from docs/fairness.md and
docs/tournaments.md alone.

It imports nothing of the service (the standard library only). After the close it reads
the tournament (GET /tournaments/{id}) and every entrant's public match (GET
/tournaments/{id}/matches), and checks:

- the revealed seed hashes (SHA-256, lowercase hex) to the tournament's commitment, and to
  the one you noted at its creation if you give it (--commitment); each match's deal pool's
  seed is HMAC-SHA256 of "pool:<pool>" keyed with that seed; every match published the
  SHA-256 of its pool's seed in its match_created, with every client seed empty, and
  revealed that pool seed in its seed_revealed;
- every entrant's dealers: deal 1's is one draw in [0, 4) from the stream of (1, 0), each
  later one the seat after the previous dealer;
- every hand any match shows (its showdowns) against the deck dealt again from its pool's
  seed; so all entrants of a pool got the same deals: one seed, the same empty client
  seeds, every dealer and every shown hand the seed's;
- the AI: wherever two matches of a pool have the same public history in a deal up to an
  AI seat's decision, the AI seat took the same action in both (its random choices come
  from the seed, the deal, the seat and the step alone).

    python examples/verify_tournament.py http://127.0.0.1:8000 TOURNAMENT_ID
        [--token TOKEN] [--commitment HEX] [--tamper seed|card|ai]

Without --token it registers a player of its own to read with. `--tamper` changes what was
fetched before checking it (a wrong seed, one card of the first hand shown, or one AI
action that another match shares the history of): the check must then fail. Exits 0 when
everything agrees, 1 otherwise.
"""

import argparse
import hashlib
import hmac
import json
import sys
import urllib.request

RANKS_IN_ORDER = ("As", "Shah", "Bibi", "Sarbaz", "Couli")


# --- The dealing, as docs/fairness.md states it ----------------------------------------------


def material(client_seeds: list[str], series: int, deal: int) -> str:
    return ":".join(client_seeds) + f":{series}:{deal}"


def byte_stream(key: bytes, message: str):
    counter = 0
    while True:
        yield from hmac.new(key, f"{message}:{counter}".encode(), hashlib.sha256).digest()
        counter += 1


def draw(stream, n: int) -> int:
    while True:
        u = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if u < (2**32 // n) * n:
            return u % n


def first_dealer(key: bytes, client_seeds: list[str]) -> int:
    return draw(byte_stream(key, material(client_seeds, 1, 0)), 4)


def pool_seed(seed: bytes, pool: int) -> bytes:
    return hmac.new(seed, f"pool:{pool}".encode(), hashlib.sha256).digest()


def hands(key: bytes, client_seeds: list[str], deal: int, dealer: int) -> list[list[str]]:
    cards = [rank for rank in RANKS_IN_ORDER for _ in range(4)]
    stream = byte_stream(key, material(client_seeds, 1, deal))
    for i in range(19, 0, -1):
        j = draw(stream, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    dealt: list[list[str]] = [[], [], [], []]
    for k, card in enumerate(cards):
        dealt[(dealer + 1 + k) % 4].append(card)
    return dealt


# --- HTTP --------------------------------------------------------------------------------------


def call(base: str, method: str, path: str, token: str | None = None, body=None) -> dict:
    request = urllib.request.Request(
        base.rstrip("/") + "/api/v1" + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Bearer {token}"} if token else {}),
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


# --- The checks --------------------------------------------------------------------------------


class Findings:
    def __init__(self) -> None:
        self.failures: list[str] = []
        self.deals = self.dealers = self.hands = self.ai_compared = 0
        self.pools: set[int] = set()

    def fail(self, text: str) -> None:
        self.failures.append(text)
        print(f"FAIL {text}")


def check(tournament: dict, matches: dict, noted: str | None, found: Findings) -> None:
    seed = matches["server_seed"]
    commitment = tournament["commitment"]
    if noted and noted != commitment:
        found.fail("the tournament's commitment is not the one noted at its creation")
    if hashlib.sha256(bytes.fromhex(seed)).hexdigest() != commitment:
        found.fail("the revealed seed does not hash to the commitment")
        return
    client_seeds = ["", "", "", ""]
    ai_actions: dict[tuple, tuple[str, str]] = {}  # (pool, deal, history, seat): (action, match)
    for entry in matches["matches"]:
        name = f"{entry['name']} ({entry['match']})"
        pool = entry["pool"]
        if not 0 <= pool < tournament["pools"]:
            found.fail(f"{name}: pool {pool} is not one of the tournament's")
        key = pool_seed(bytes.fromhex(seed), pool)
        first = first_dealer(key, client_seeds)
        found.pools.add(pool)
        histories: dict[int, list] = {}
        for event in entry["events"]:
            kind = event["type"]
            if kind == "match_created":
                pooled = hashlib.sha256(key).hexdigest()
                if event.get("commitment") != pooled or event.get("client_seed") != "":
                    found.fail(f"{name}: not dealt from its pool's seed alone")
            elif kind == "player_joined" and event.get("client_seed"):
                found.fail(f"{name}: a client seed was mixed in")
            elif kind == "seed_revealed" and event["server_seed"] != key.hex():
                found.fail(f"{name}: it revealed another seed than its pool's")
            elif kind == "deal_started":
                deal = event["deal_number"]
                histories[deal] = []
                found.deals += 1
                found.dealers += 1
                if event["dealer"] != (first + deal - 1) % 4:
                    found.fail(f"{name}: deal {deal} dealt by seat {event['dealer']}")
            elif kind == "action":
                deal = max(histories)
                history = tuple(histories[deal])
                if event.get("by") == "ai":
                    place = (pool, deal, history, event["seat"])
                    seen = ai_actions.setdefault(place, (event["action"], name))
                    if seen[1] != name:
                        found.ai_compared += 1
                    if seen[0] != event["action"]:
                        found.fail(
                            f"{name}: deal {deal} seat {event['seat']} took {event['action']} "
                            f"where {seen[1]} took {seen[0]} after the same history"
                        )
                histories[deal].append((event["seat"], event["action"]))
            elif kind == "deal_ended":
                deal = event["deal_number"]
                dealt = hands(key, client_seeds, deal, (first + deal - 1) % 4)
                for seat in event["seats"]:
                    if seat["hand"] is None:
                        continue
                    found.hands += 1
                    if sorted(seat["hand"]) != sorted(dealt[seat["seat"]]):
                        found.fail(
                            f"{name}: deal {deal} seat {seat['seat']} showed {seat['hand']}, "
                            f"the seed deals {dealt[seat['seat']]}"
                        )


def tamper(matches: dict, what: str) -> None:
    """Change what was fetched, as a dishonest server might have: the check must fail."""
    if what == "seed":
        seed = matches["server_seed"]
        matches["server_seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]
        print("tampered: seed")
        return
    if what == "card":
        for entry in matches["matches"]:
            for event in entry["events"]:
                for seat in event.get("seats") or []:
                    hand = seat.get("hand")
                    if hand and len(set(hand)) > 1:
                        other = next(r for r in RANKS_IN_ORDER if r != hand[0])
                        hand[0] = other
                        print(f"tampered: card, {entry['name']}: deal {event['deal_number']}")
                        return
    if what == "ai":
        # The first AI action of a match whose pool has another: entrants of one pool who
        # began alike share its history.
        pools = [entry["pool"] for entry in matches["matches"]]
        second = next(e for n, e in enumerate(matches["matches"]) if e["pool"] in pools[:n])
        for event in second["events"]:
            if event["type"] == "action" and event.get("by") == "ai":
                event["action"] = "fold" if event["action"] != "fold" else "call"
                print(f"tampered: ai, {second['name']}: seq {event['seq']}")
                return
    raise SystemExit(f"nothing to tamper with: {what}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base_url")
    parser.add_argument("tournament")
    parser.add_argument("--token")
    parser.add_argument("--commitment", help="the commitment you noted at the creation")
    parser.add_argument("--tamper", choices=("seed", "card", "ai"))
    args = parser.parse_args()
    token = (
        args.token or call(args.base_url, "POST", "/players", body={"name": "verifier"})["token"]
    )
    tournament = call(args.base_url, "GET", f"/tournaments/{args.tournament}", token)
    matches = call(args.base_url, "GET", f"/tournaments/{args.tournament}/matches", token)
    if args.tamper:
        tamper(matches, args.tamper)
    found = Findings()
    check(tournament, matches, args.commitment, found)
    if found.failures:
        print(f"FAIL: {len(found.failures)} disagreements in all")
        return 1
    print(
        f"verified: commitment, {len(matches['matches'])} matches in {len(found.pools)} pools, "
        f"{found.deals} deals and "
        f"{found.dealers} dealers, {found.hands} hands, {found.ai_compared} AI actions "
        "compared across matches"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
