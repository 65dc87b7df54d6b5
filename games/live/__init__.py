"""The live room: what a stream or a long-poll waits on and sends (docs/streams.md).

- `wakeups`: the process's LISTEN connection, which wakes the waiting readers (the writes'
  NOTIFY and its payload are here too, for the repository to send).
- `sse`: how a message is framed on the wire.
- `loop`: the one stream loop (wait for a wake-up or a heartbeat, read what is new, send it,
  end), and the read that runs off the event loop.
- `streams`: the match, watch and player streams, each the loop with its own reads and ends,
  and the long-polls.
- `player_notices`: which notices a player gets from what happened in a match."""
