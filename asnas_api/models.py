from django.db import models


class RateCounter(models.Model):
    """Requests counted in one fixed time window for one rate-limit key.

    The table is UNLOGGED (see the migration): counters are cheap to write, shared by every
    worker and host on the database, and not worth keeping through a database crash."""

    key = models.CharField(max_length=100)
    window_start = models.BigIntegerField(help_text="Unix time at which the window opened.")
    hits = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["key", "window_start"], name="rate_counter_window"),
        ]
        indexes = [models.Index(fields=["window_start"], name="rate_counter_start")]

    def __str__(self) -> str:
        return f"{self.key} @ {self.window_start}: {self.hits}"
