"""`manage.py storage_report` measures what a finished match stores, table by table."""

import io
import re

import pytest
from django.core.management import call_command

from games.models import Match


@pytest.mark.django_db(transaction=True)  # VACUUM cannot run inside a transaction
def test_the_report_adds_up_the_tables_of_finished_matches():
    out = io.StringIO()
    call_command("storage_report", "--matches", "2", stdout=out)
    assert Match.objects.filter(status="finished").count() == 2
    sizes = dict(re.findall(r"^  (\w+) +([\d,]+)$", out.getvalue(), re.MULTILINE))
    sizes = {table: int(size.replace(",", "")) for table, size in sizes.items()}
    tables = {"games_match", "games_seat", "games_deal", "games_eventbatch"}
    assert set(sizes) == tables | {"total"}
    assert all(sizes[table] > 0 for table in tables)
    assert abs(sum(sizes[table] for table in tables) - sizes["total"]) <= len(tables)
    # A 12-deal match holds over a hundred events in some thirty writes: well over 2 KB.
    assert sizes["games_eventbatch"] > 2_000
