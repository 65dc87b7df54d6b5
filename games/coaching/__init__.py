"""The coaching room: hints, their cache and their log (docs/ai.md)."""
