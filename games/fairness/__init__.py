"""The fairness room: commitments and the seeds a match deals from (docs/fairness.md)."""
