"""The admin, for operators: find a match, read its seats, deals and event timeline, step
through any deal, and check that stored projections agree with their events.

Nothing here can change a match's history. Events, deals and seats are shown only inline,
with no add, change or delete, and a match can only be deleted whole, its events with it
(CASCADE). They are deliberately not registered on their own: the admin asks every
registered model for delete permission before deleting a match with its related rows.

`matches` is the match admin and its inlines, `history` the event timeline and the deal
replay they show, `phrases` the one phrase of each event type. Django's autodiscovery
imports this package, and importing `matches` registers the match admin.
"""

from . import matches, tournaments  # noqa: F401  (register MatchAdmin and TournamentAdmin)
