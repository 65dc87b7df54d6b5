"""The load benchmark behind `manage.py bench`: the real server (granian on a fresh embedded
Postgres), simulated players over HTTP, and a report of latency, queries and server CPU."""
