"""The tournaments room: duplicate tournaments (docs/tournaments.md), where every entrant
plays one match against the same AI on the same deals, dealt from a seed committed to at
creation and revealed at the close, and is scored against the field deal by deal."""
