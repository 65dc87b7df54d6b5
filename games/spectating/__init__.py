"""The spectating room: watch codes, watch tickets and the watch streams counted
(docs/spectators.md)."""
