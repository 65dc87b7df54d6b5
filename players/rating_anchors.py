"""The AI levels' ratings: set once by a calibration run, never moved by a match (their
updates are discarded). To recalibrate, run `manage.py calibrate_ratings` and paste its
output below and in docs/ratings.md; ratings already given stay as they are, so do it
before ratings matter, not lightly (docs/ratings.md, "Calibration").

At tables of all four levels, `normal` finishes ahead of `hard`: its heuristics take more
from `easy` than hard's equilibrium play does (docs/ratings.md)."""

from players.rating import Rating

# manage.py calibrate_ratings --matches 4000 --seed 2026 (41 s)
ANCHORS = {
    "easy": Rating(mu=16.32, sigma=1.79),
    "normal": Rating(mu=28.87, sigma=1.65),
    "hard": Rating(mu=27.14, sigma=1.62),
    "expert": Rating(mu=28.45, sigma=1.64),
}
