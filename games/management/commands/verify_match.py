import json
import uuid
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.engine import fairness
from games.match import queries as match_queries


class Command(BaseCommand):
    help = (
        "Verify a match's deals from its public record alone (docs/fairness.md): each "
        "revealed server seed against its commitment, and every dealer and every shown hand "
        "dealt again from the seeds. Exits non-zero on any disagreement, or when no series "
        "of the match has revealed its seed yet."
    )

    def add_arguments(self, parser):
        parser.add_argument("match_id", nargs="?", type=uuid.UUID)
        parser.add_argument(
            "--events",
            type=Path,
            help="a JSON file of the match's events as a client read them (the `events` of "
            "GET /matches/{id}/events, or a list of them), instead of a match of this server",
        )
        parser.add_argument(
            "--record",
            type=Path,
            help="a match's record as a player downloaded it (GET /matches/{id}/record, "
            "docs/record.md), instead of a match of this server",
        )

    def handle(
        self, *args, match_id: uuid.UUID | None, events: Path | None, record: Path | None, **options
    ):
        if [match_id, events, record].count(None) != 2:
            raise CommandError("Name a match, or give --events FILE or --record FILE.")
        if record is not None:
            found = fairness.verify_record(json.loads(record.read_text()))
        elif events is not None:
            read = json.loads(events.read_text())
            found = fairness.verify(read["events"] if isinstance(read, dict) else read)
        else:
            public = match_queries.match_public_events(match_id=match_id)
            if public is None:
                raise CommandError(f"No such match: {match_id}")
            found = fairness.verify(public)
        for problem in found.problems:
            self.stdout.write(self.style.ERROR(problem))
        self.stdout.write(
            f"series verified: {found.series or 'none'}; deals dealt again: {found.deals}; "
            f"shown hands checked: {found.hands}"
        )
        if not found.ok:
            reason = "disagrees with its seeds" if found.problems else "has no revealed seed"
            raise CommandError(f"The match {reason}.")
        self.stdout.write(self.style.SUCCESS("Every deal is the one its seeds deal."))
