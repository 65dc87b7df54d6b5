"""Puzzles from real deals (docs/puzzles.md): mined from stored reviews, graded by value."""
