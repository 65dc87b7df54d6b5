import uuid

from django.core.management.base import BaseCommand, CommandError

from games.integrity import check_matches, summary
from games.models import Match


class Command(BaseCommand):
    help = (
        "Replay matches' events through the rules engine and report every place where the "
        "stored projection (state, its columns, the deal rows) disagrees. Exits non-zero if "
        "any match does."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "match_ids", nargs="*", type=uuid.UUID, metavar="MATCH_ID", help="default: all"
        )

    def handle(self, *args, match_ids: list[uuid.UUID], **options):
        found = Match.objects.filter(id__in=match_ids).values_list("id", flat=True)
        if unknown := set(match_ids) - set(found):
            raise CommandError(f"No such match: {', '.join(sorted(map(str, unknown)))}")
        checked = mismatches = failed = 0
        for match_id, problems in check_matches(match_ids or None):
            checked += 1
            mismatches += len(problems)
            failed += bool(problems)
            for problem in problems:
                self.stdout.write(self.style.ERROR(f"{match_id}: {problem}"))
        self.stdout.write(summary(checked, mismatches))
        if failed:
            raise CommandError(f"{failed} of {checked} matches failed the integrity check.")
