from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self):
        # The AI's trained tables (hard's, and expert's on top of it): a missing or
        # mismatched asset stops the service at start-up, with a clear StrategyError,
        # instead of failing a player's first match.
        from games.ai import load_expert, load_strategy

        load_strategy()
        load_expert()
