"""`manage.py review_counts`: the review's classes over simulated decisions of a level. No DB."""

import random
import time
from collections import Counter

from django.core.management.base import BaseCommand

from games.ai import AI_LEVELS, ai_rng, choose_action, coach
from games.ai.review import GRADES, accuracy, review_events
from games.engine import (
    Act,
    MatchState,
    NextDeal,
    StartMatch,
    Status,
    decide,
    evolve,
    legal_actions,
    observe,
)
from games.engine.vocabulary import Actor


class Command(BaseCommand):
    help = (
        "Play matches where seat 0, a player, plays as --level does against AI seats of "
        "--against, review seat 0's decisions and print how many fall in each class, the "
        "points lost and the accuracy (docs/review.md)."
    )
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--decisions", type=int, default=1000)
        parser.add_argument("--level", choices=AI_LEVELS, default="normal")
        parser.add_argument("--against", choices=AI_LEVELS, default="normal")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, decisions, level, against, seed, **options):
        coach.warm()
        counts, lost, graded, cpu = Counter(), 0, [], 0.0
        match = 0
        while sum(counts.values()) < decisions:
            events = simulated_match(level, against, seed + match)
            started = time.process_time()
            review = review_events(events, 0, against)
            cpu += time.process_time() - started
            for decision in review.decisions:
                if decision.counted and sum(counts.values()) < decisions:
                    counts[decision.grade] += 1
                    lost += decision.lost
                    graded.append(decision.lost)
            match += 1

        self.stdout.write(f"{sum(counts.values())} decisions of {level} against {against}:")
        for name, _ in GRADES:
            self.stdout.write(f"  {name:<11} {counts[name]}")
        self.stdout.write(f"points lost {float(lost):.3f}, accuracy {float(accuracy(graded)):.1f}")
        each = cpu / match
        self.stdout.write(f"{match} matches reviewed, {cpu:.2f} s of CPU ({each:.3f} s each)")


def simulated_match(level: str, against: str, seed: int) -> list:
    """A 12-deal match: seat 0 a player choosing as `level`, the others AI seats."""
    rng = random.Random(seed)
    state, events = MatchState(), []

    def apply(command):
        for event in decide(state, command):
            evolve(state, event)
            events.append(event)

    apply(StartMatch(seed, ai_level=against))
    while state.status is not Status.FINISHED:
        if state.status is Status.DEAL_OVER:
            apply(NextDeal())
            continue
        seat = state.deal.turn
        view, legal = observe(state, seat), legal_actions(state, seat)
        deal = state.deal.deal_number
        step = ai_rng(state.seed, state.series, deal, seat, len(view.history))
        if seat == 0:
            apply(Act(seat, choose_action(level, view, legal, rng), Actor.PLAYER))
        else:
            apply(Act(seat, choose_action(against, view, legal, step), Actor.AI))
    return events
