import uuid

from django.core.management.base import BaseCommand, CommandError

from games.ai import coach
from games.match import store as match_store
from games.match.integrity import check_matches, summary


class Command(BaseCommand):
    help = (
        "Replay matches' events through the rules engine and report every place where the "
        "stored projection (state, its columns, the deal rows, the seat rows and the AI level) "
        "disagrees. Exits non-zero if any match does. A match whose log began before events "
        "said who sits where is noted: its seats and level are checked from the first event "
        "that says them."
    )
    repair = False

    def add_arguments(self, parser):
        parser.add_argument(
            "match_ids", nargs="*", type=uuid.UUID, metavar="MATCH_ID", help="default: all"
        )

    def handle(self, *args, match_ids: list[uuid.UUID], **options):
        if unknown := set(match_ids) - set(match_store.match_ids(among=match_ids)):
            raise CommandError(f"No such match: {', '.join(sorted(map(str, unknown)))}")
        repair = options.get("repair", self.repair)
        # The stored reviews are worked out again: with the AI's tables a walk down the
        # betting tree, without them sums over every deal, about 6 s of CPU a match (the
        # crash test's three matches outlasted its 120 s on a loaded machine). Mapped first,
        # built first if no process did yet.
        coach.warm()
        checked = mismatches = failed = 0

        def note(match_id: uuid.UUID, text: str) -> None:
            self.stdout.write(self.style.WARNING(f"{match_id}: note: {text}"))

        for match_id, problems in check_matches(match_ids or None, repair=repair, on_note=note):
            checked += 1
            mismatches += len(problems)
            failed += bool(problems)
            for problem in problems:
                self.stdout.write(self.style.ERROR(f"{match_id}: {problem}"))
        self.stdout.write(summary(checked, mismatches))
        if failed and repair:
            self.stdout.write(f"{failed} of {checked} matches rebuilt where their events replay.")
        elif failed:
            raise CommandError(f"{failed} of {checked} matches failed the integrity check.")
