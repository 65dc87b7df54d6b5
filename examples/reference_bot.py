"""The reference bot: whole matches alone against the AI through the public API, with the
standard library only (docs/bots.md). It looks at its cards, raises with three of a kind or
better, stays in with a pair and folds the rest; between deals it deals the next one.

    python3 examples/reference_bot.py --url http://127.0.0.1:8000 [--token T | --name N]
        [--matches 1] [--level hard]
"""

import argparse
import json
import urllib.error
import urllib.request
from collections import Counter


def call(args, method: str, path: str, body: dict | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if args.token:
        headers["Authorization"] = f"Bearer {args.token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{args.url}/api/v1{path}", data, headers, method=method)
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def choose(cards: list[str], legal: list[str]) -> str:
    if "look" in legal:
        return "look"
    most = max(Counter(cards).values())
    wanted = ("raise", "call", "hold") if most >= 3 else ("hold", "call") if most == 2 else ()
    return next((action for action in (*wanted, "hold") if action in legal), "fold")


def play(args) -> dict:
    view = call(args, "POST", "/matches", {"ai_level": args.level})
    match = f"/matches/{view['id']}"
    while view["status"] != "finished":
        if view["status"] == "deal_over":
            view = call(args, "POST", f"{match}/next-deal", {})
        elif view["turn"] == view["your_seat"] and view["legal_actions"]:
            action = choose(view["your_cards"] or [], view["legal_actions"])
            body = {"action": action, "expected_version": view["version"]}
            try:
                view = call(args, "POST", f"{match}/actions", body)
            except urllib.error.HTTPError as error:  # 409: the turn clock acted first
                if error.code != 409:
                    raise
                view = call(args, "GET", match)
        else:  # not our turn: wait for the match's next event (a long-poll), then look again
            call(args, "GET", f"{match}/events?after={view['version']}&wait=10")
            view = call(args, "GET", match)
    return view


def main() -> None:
    parser = argparse.ArgumentParser(description="The reference bot (docs/bots.md).")
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", help="a bot's token; without it a new bot registers")
    parser.add_argument("--name", default="Refbot")
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--level", default="hard")
    args = parser.parse_args()
    if args.token is None:
        created = call(args, "POST", "/players", {"name": args.name, "bot": True})
        args.token = created["token"]
        print(f"registered bot {created['name']} ({created['id']}); token {args.token}")
    for number in range(1, args.matches + 1):
        view = play(args)
        totals = " ".join(seat["total"] for seat in view["seats"])
        print(f"match {number} {view['id']} finished: totals {totals}", flush=True)


if __name__ == "__main__":
    main()
