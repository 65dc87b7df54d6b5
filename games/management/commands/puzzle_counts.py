"""`manage.py puzzle_counts`: how many puzzles simulated matches yield, their themes, and the
puzzle rating `hard` reaches solving them (docs/puzzles.md, "How many"). No DB: the same
selection the miner makes (games.puzzles), over reviews worked out here."""

import random
from collections import Counter

from django.core.management.base import BaseCommand

from games.ai import AI_LEVELS, choose_action, coach
from games.engine import ActionTaken, DealStarted, MatchState, evolve, legal_actions, observe
from games.management.commands.review_counts import simulated_match
from games.puzzles import mining, positions
from games.review import bodies
from players.rating import START, Entrant, rate


class Command(BaseCommand):
    help = (
        "Play matches where seat 0, a player, plays as --level against AI seats of --against; "
        "mine their puzzles as the server does and print how many, their themes, and the "
        "puzzle rating of --solver entered as a solver of them all."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=200)
        parser.add_argument("--level", choices=AI_LEVELS, default="normal")
        parser.add_argument("--against", choices=AI_LEVELS, default="normal")
        parser.add_argument("--solver", choices=AI_LEVELS, default="hard")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, matches, level, against, solver, seed, **options):
        coach.warm()
        found, themes, solved = [], Counter(), 0
        rating = START
        for number in range(matches):
            events = simulated_match(level, against, seed + number)
            shown, revealed = mining.seen_hands(events)
            choices = _solver_choices(events, solver, random.Random(seed + number))
            for key, body in bodies.reviews(events, against):
                if "0" not in body or not mining.may_show(0, key, shown, revealed):
                    continue
                for decision, choice in zip(body["0"]["decisions"], choices[key], strict=True):
                    best = _puzzle_best(decision)
                    if best is None:
                        continue
                    found.append(str(best))
                    position = positions.puzzle_position(decision, 0, body["0"]["dealer"])
                    themes.update(positions.themes(position, best))
                    won = choice == best
                    solved += won
                    rating, _ = rate(
                        [Entrant(rating, 1 if won else 2), Entrant(START, 2 if won else 1)]
                    )
        self.stdout.write(f"{matches} matches of {level} against {against}: {len(found)} puzzles")
        for theme in positions.THEMES:
            self.stdout.write(f"  {theme:<20} {themes[theme]}")
        self.stdout.write(f"  best actions: {dict(Counter(found))}")
        self.stdout.write(
            f"{solver} as a solver: {solved} of {len(found)} solved, puzzle rating "
            f"{rating.displayed:.2f} (mu {rating.mu:.2f}, sigma {rating.sigma:.2f})"
        )


def _puzzle_best(decision: dict) -> str | None:
    if decision["by"] != "player":
        return None
    found = positions.clear_best(decision["values"])
    return found[0] if found else None


def _solver_choices(events, solver: str, rng: random.Random) -> dict:
    """By deal, what `solver` would choose at each of seat 0's decisions, seeing what seat 0
    saw then."""
    state, choices, key = MatchState(), {}, None
    for event in events:
        if isinstance(event, DealStarted):
            evolve(state, event)
            key = (state.deal.series, state.deal.deal_number)
            choices[key] = []
            continue
        if isinstance(event, ActionTaken) and event.seat == 0:
            view, legal = observe(state, 0), legal_actions(state, 0)
            choices[key].append(choose_action(solver, view, legal, rng))
        evolve(state, event)
    return choices
