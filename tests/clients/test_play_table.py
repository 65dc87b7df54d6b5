"""`manage.py play` at a table for friends: the owner makes it and sees who joins, a friend
joins with the printed command, and each sees the other's moves as they happen."""

import json
import re
import subprocess
import time

import pytest

from tests.clients.http import call, register
from tests.clients.plays import play_command, play_refused, start_play
from tests.servers import BASE_DIR

pytestmark = pytest.mark.slow

# A seed that deals seat 1 first, so that after the join the AI seats 2 and 3 act, then
# the owner at seat 0, then the friend at seat 1.
SEED = "8"


def until(condition, timeout: float = 30, every: float = 0.1, printed=None):
    """condition()'s first true value, asked every `every` seconds for up to `timeout`; on
    failure the end of the `printed` file, to see where play was."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(every)
    shown = printed.read_text()[-3000:] if printed else ""
    pytest.fail(f"{condition} never came true; play printed last:\n{shown}")


def test_the_owner_sees_the_table_fill_and_the_friends_moves_live_at_80_by_24(
    server_env, server_url, tmp_path, terminal, artifacts
):
    state = tmp_path / "play.json"
    command = play_command("--url", server_url, "--seed", SEED, "--humans", "2")
    command += ["--state", str(state), "--name", "Owner", "--ai-level", "easy"]
    terminal.start(command, server_env, BASE_DIR)

    pane = terminal.pane("waiting for 1 more")
    assert "(open seat)" in pane and "Owner (you)" in pane
    invite = re.search(r"Invite: (\S+)", pane)[1]
    # The friend's command, in two lines that a shell joins, each within 80 columns.
    assert f"play --url {server_url} \\\n    --join {invite}\n" in pane
    match_id, code = invite.split(":")
    owner = json.loads(state.read_text())[server_url]["token"]

    friend = register(server_url, "Friend")
    call(server_url, "POST", f"/matches/{match_id}/join", friend, {"invite": code})
    # No key pressed: the join and the AI seats' moves arrive by themselves.
    pane = terminal.pane("Keys: l look")
    assert "deal 1 of 12" in pane and re.search(r"1\s+Friend\s+1\s+0\s+dealer", pane), pane
    # The turn clock counts down on the screen, still with no key pressed.
    countdown = re.compile(r"your turn until \d\d:\d\d:\d\d \((\d+) s left\)")
    first = int(countdown.search(pane)[1])
    until(lambda: int(countdown.search(terminal.pane("s left)"))[1]) <= first - 2, timeout=10)

    terminal.keys("l")
    terminal.pane("Your cards: ")
    legal = call(server_url, "GET", f"/matches/{match_id}", owner)["legal_actions"]
    terminal.keys("c" if "call" in legal else "h")
    until(lambda: call(server_url, "GET", f"/matches/{match_id}", friend)["turn"] == 1)
    call(server_url, "POST", f"/matches/{match_id}/actions", friend, {"action": "look"})
    said = call(server_url, "POST", f"/matches/{match_id}/actions", friend, {"action": "raise"})
    pane = terminal.pane(f"Friend raises to {said['seats'][1]['stake']}")
    assert "Friend looks at their cards." in pane

    call(server_url, "POST", f"/matches/{match_id}/leave", friend)
    pane = terminal.pane("Friend left; the AI plays their seat.")
    assert re.search(r"Friend\s+\d+\s+-?\d+\s+.*away", pane), pane
    assert terminal.scrolled() == 0, "nothing scrolled off the screen"
    (artifacts / "play-table-tmux.txt").write_text(pane)
    terminal.keys("q")
    terminal.pane("Saved: run play again")


def test_the_waiting_room_shows_each_friend_as_they_join(server_env, server_url, tmp_path):
    printed = tmp_path / "owner.txt"
    args = ("--url", server_url, "--state", str(tmp_path / "play.json"), "--name", "Owner")
    owner = start_play(
        server_env, *args, "--humans", "3", "--ai-level", "easy", keys="", output=printed
    )
    try:
        invite = until(lambda: re.search(r"\n\s+--join (\S+)\n", printed.read_text()))
        assert "waiting for 2 more" in printed.read_text()
        match_id, code = invite[1].split(":")
        friend = register(server_url, "Friend")
        call(server_url, "POST", f"/matches/{match_id}/join", friend, {"invite": code})
        # The next screen, drawn with no input read: the friend sits, one seat is still open.
        screen = until(lambda: re.search(r"waiting for 1 more.*Keys:", printed.read_text(), re.S))
        assert re.search(r"1\s+Friend\s", screen[0]) and "2     (open seat)" in screen[0], screen[0]
        assert f"--join {invite[1]}" in screen[0], "the invite stays until the table is full"
        assert owner.poll() is None, "still waiting for the last friend"
    finally:
        owner.terminate()
        owner.wait(timeout=30)


def test_a_friend_joins_with_play_and_follows_the_owners_moves(server_env, server_url, tmp_path):
    owner = register(server_url, "Owner")
    table = call(server_url, "POST", "/matches", owner, {"humans": 2, "seed": int(SEED)})
    invite = f"{table['id']}:{table['invite']}"
    state = tmp_path / "play.json"
    args = ("--url", server_url, "--state", str(state), "--name", "Friend")

    assert "--join needs --url" in play_refused(server_env, "--join", invite)
    assert "an invite is MATCH_ID:CODE" in play_refused(server_env, *args, "--join", "nonsense")
    wrong = play_refused(server_env, *args, "--join", f"{table['id']}:{'x' * 32}")
    assert "No such match." in wrong

    # Sees the table and joins it, looks and holds or calls once, then quits at its next
    # decision.
    printed = tmp_path / "friend.txt"
    friend = start_play(server_env, *args, "--join", invite, keys="j\nl\nc\nh\nq\n", output=printed)
    path = f"/matches/{table['id']}"
    until(lambda: call(server_url, "GET", path, owner)["seats"][1]["name"] == "Friend")
    until(lambda: call(server_url, "GET", path, owner)["turn"] == 0)
    raised = call(server_url, "POST", f"{path}/actions", owner, {"action": "raise"})

    def owner_plays_while(process) -> None:
        """The owner calls or holds at each turn until the friend's play has quit, so that
        the friend never waits out the owner's turn clock."""
        while process.poll() is None:
            view = call(server_url, "GET", path, owner)
            if view["status"] == "deal_over":
                call(server_url, "POST", f"{path}/next-deal", owner)
            elif moves := [a for a in ("call", "hold") if a in view["legal_actions"]]:
                call(server_url, "POST", f"{path}/actions", owner, {"action": moves[0]})
            time.sleep(0.2)

    owner_plays_while(friend)
    output = printed.read_text()
    assert friend.returncode == 0, output
    assert f"Owner raises to {raised['seats'][0]['stake']}" in output
    assert "Friend (you)" in output and "Saved: run play again" in output
    assert "Refused" not in output
    # The table as the lobby would list it came first, verifiable or not, before the join.
    shown = output.index("Owner invites you to a table")
    assert "Not verifiable: its seeds stay secret" in output[shown:]
    assert shown < output.index("Friend (you)")

    # The friend's player is kept for this table alone; the same command resumes the seat.
    token = json.loads(state.read_text())[f"{server_url} {table['id']}"]["token"]
    assert call(server_url, "GET", path, token)["your_seat"] == 1
    resumed = start_play(server_env, *args, "--join", invite, keys="q\n", output=printed)
    owner_plays_while(resumed)
    again = printed.read_text()
    assert resumed.returncode == 0, again
    assert "Friend (you)" in again and "Your name" not in again


def test_a_move_made_too_late_at_a_table_is_explained_not_refused(server_env, server_url, tmp_path):
    """The friend's next-deal comes after the owner started the deal: that is how a table
    goes, so play says another seat was first, and shows the table as it is now."""
    owner = register(server_url, "Owner")
    table = call(server_url, "POST", "/matches", owner, {"humans": 2, "seed": int(SEED)})
    path = f"/matches/{table['id']}"
    args = ("--url", server_url, "--state", str(tmp_path / "play.json"), "--name", "Friend")
    printed = tmp_path / "friend.txt"
    # Its turn: look, then hold or call; the leftover key is skipped at the deal's end.
    friend = start_play(
        server_env,
        *args,
        "--join",
        f"{table['id']}:{table['invite']}",
        keys="j\nl\nh\nc\n",
        output=printed,
        more_keys=True,
    )
    try:
        until(lambda: call(server_url, "GET", path, owner)["turn"] == 0)
        call(server_url, "POST", f"{path}/actions", owner, {"action": "fold"})
        until(lambda: "Keys: n next deal" in printed.read_text(), printed=printed)
        call(server_url, "POST", f"{path}/next-deal", owner)
        friend.stdin.write("n\n")
        friend.stdin.flush()
        output = until(
            lambda: (
                "Another seat or the clock moved first" in printed.read_text()
                and printed.read_text()
            ),
            printed=printed,
        )
        assert "deal 2 of 12" in output.rsplit("Keys: n next deal", 1)[1]
        assert "Refused" not in output
    finally:
        friend.terminate()
        friend.wait(timeout=30)


def test_two_plays_at_one_computer_finish_a_match_each_seeing_the_other(
    server_env, server_url, tmp_path
):
    """Owner and friend share a state file, as two terminals of one person would: the friend
    gets a player of their own. Each types a cycle of keys ahead; both play to the end."""
    state = tmp_path / "play.json"
    args = ("--url", server_url, "--state", str(state), "--ai-level", "easy")
    keys = "l\nc\nh\nn\nf\n" * 400
    printed = {name: tmp_path / f"{name}.txt" for name in ("owner", "friend")}
    owner = start_play(
        server_env, *args, "--name", "Owner", "--humans", "2", keys=keys, output=printed["owner"]
    )
    invite = until(lambda: re.search(r"\n\s+--join (\S+)\n", printed["owner"].read_text()))
    friend = start_play(
        server_env,
        *args,
        "--name",
        "Friend",
        "--join",
        invite[1],
        keys="j\n" + keys,
        output=printed["friend"],
    )
    friend.wait(timeout=600)
    owner.wait(timeout=60)
    owner_output, friend_output = (printed[name].read_text() for name in ("owner", "friend"))
    # The ends of both, labelled: where a play failed, its last screens and error say why.
    ends = "".join(
        f"\n--- {name}'s last lines ---\n{printed[name].read_text()[-2500:]}" for name in printed
    )
    assert (owner.returncode, friend.returncode) == (0, 0), ends
    match_id = invite[1].split(":")[0]
    sessions = json.loads(state.read_text())
    view = call(server_url, "GET", f"/matches/{match_id}", sessions[server_url]["token"])
    assert (view["status"], view["deal_number"]) == ("finished", 12)
    for output, other in ((owner_output, "Friend"), (friend_output, "Owner")):
        assert "Final standings" in output
        assert re.search(rf"\n{other} (looks|calls|holds|raises|folds)", output), other
    assert sessions[f"{server_url} {match_id}"]["token"] != sessions[server_url]["token"]


def test_play_lists_the_open_tables_and_sits_at_one_by_quick_play_or_by_its_id(
    server_env, server_url, tmp_path
):
    # A verifiable table waits longest, but shows its folded hands to all: only for those
    # who ask (--verifiable).
    careful = register(server_url, "Careful")
    verifiable = {"humans": 2, "open": True, "verifiable": True}
    verifiable_table = call(server_url, "POST", "/matches", careful, verifiable)
    owner = register(server_url, "Owner")
    table = call(server_url, "POST", "/matches", owner, {"humans": 3, "open": True})
    args = ("--url", server_url, "--state", str(tmp_path / "play.json"), "--name", "Quick")
    shown = subprocess.run(
        play_command(*args, "--tables"),
        cwd=BASE_DIR,
        env={**server_env, "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.returncode == 0, shown.stderr
    assert table["id"] in shown.stdout and "2 of 3" in shown.stdout
    assert "--join TABLE" in shown.stdout
    # Quick play takes the table that waited longest, the owner's, and waits there.
    printed = tmp_path / "quick.txt"
    quick = start_play(server_env, *args, "--quick-play", keys="", output=printed)
    late = None
    try:
        until(lambda: "waiting for 1 more" in printed.read_text())
        # Another player joins the open table by its id alone, which starts deal 1.
        other = ("--url", server_url, "--state", str(tmp_path / "other.json"), "--name", "Late")
        late_printed = tmp_path / "late.txt"
        late = start_play(
            server_env, *other, "--join", table["id"], keys="j\n", output=late_printed
        )
        until(lambda: "deal 1 of 12" in late_printed.read_text())
    finally:
        for process in (quick, late):
            if process is not None:
                process.terminate()
                process.wait(timeout=30)
    seats = call(server_url, "GET", f"/matches/{table['id']}", owner)["seats"]
    assert [seat["name"] for seat in seats][:3] == ["Owner", "Quick", "Late"]
    asked = ("--url", server_url, "--state", str(tmp_path / "asked.json"), "--name", "Asked")
    asked_printed = tmp_path / "asked.txt"
    verified = start_play(
        server_env, *asked, "--quick-play", "--verifiable", keys="", output=asked_printed
    )
    try:
        until(lambda: "deal 1 of 12" in asked_printed.read_text())
    finally:
        verified.terminate()
        verified.wait(timeout=30)
    seats = call(server_url, "GET", f"/matches/{verifiable_table['id']}", careful)["seats"]
    assert [seat["name"] for seat in seats][:2] == ["Careful", "Asked"]
