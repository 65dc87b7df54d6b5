"""The tables room: open tables, the lobby, invitations and quick play."""
