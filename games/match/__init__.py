"""The match room: the match aggregate, its event log and projection, and what its events
set off (reactions, ratings, the integrity check)."""
