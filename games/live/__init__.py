"""The live room: what a stream or a long-poll waits on and sends (docs/streams.md).

- `wakeups`: the process's LISTEN connection, which wakes the waiting readers (the writes'
  NOTIFY and its payload are here too, for the repository to send).
- `sse`: how a message is framed on the wire.
- `loop`: the one stream loop (wait for a wake-up or a heartbeat, read what is new, send it,
  end), and the read that runs off the event loop.
- `shared`: what a process's streams share: one read per notice for the streams of a match,
  one renewal a period for the rows that count them open.

Infrastructure only: it knows neither the domain nor the HTTP layer. The match, watch and
player streams and the long-polls, each the loop with its own reads and ends, are
games.http.stream_reads; which notices a player gets, games.http.notices."""
