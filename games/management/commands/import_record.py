import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.engine.record import check_record


class Command(BaseCommand):
    help = (
        "Play a match record (asnas-record/1 or /2, from GET /matches/{id}/record) through the "
        "rules engine again: every deal of a series whose seed is revealed is dealt from the "
        "seeds and its moves decided again, and in every series the deals must add up to the "
        "totals. Exits non-zero on any disagreement. It stores nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options):
        try:
            record = json.loads(file.read_text())
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {file}: {error}") from None
        problems = check_record(record)
        for problem in problems:
            self.stdout.write(self.style.ERROR(problem))
        if problems:
            raise CommandError(f"The record does not hold: {len(problems)} problem(s).")
        replayed = sum(len(s["deals"]) for s in record["series"] if s["server_seed"])
        deals = sum(len(s["deals"]) for s in record["series"])
        self.stdout.write(
            self.style.SUCCESS(
                f"The record holds: {deals} deals add up to their totals; {replayed} of them "
                "played again from revealed seeds."
            )
        )
