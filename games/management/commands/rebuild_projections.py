from games.management.commands import check_matches


class Command(check_matches.Command):
    help = (
        "Check matches as check_matches does, and with --repair rewrite the projection (state, "
        "its columns, the deal rows) of each mismatched match from its events. Without "
        "--repair it is a dry run that only reports."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--repair", action="store_true", help="rewrite the mismatched (default: dry run)"
        )
