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


@pytest.mark.django_db(transaction=True)
def test_the_report_counts_the_wal_of_each_write():
    out = io.StringIO()
    call_command("storage_report", "--matches", "1", stdout=out)
    wal, writes, per_write = re.search(
        r"^WAL: ([\d,]+) bytes for ([\d,]+) writes = ([\d,]+) per write$", out.getvalue(), re.M
    ).groups()
    wal, writes, per_write = (int(number.replace(",", "")) for number in (wal, writes, per_write))
    # A whole match is a create, a next deal for each of deals 2 to 12, and the human's actions.
    assert 12 + 3 <= writes <= 12 + 12 * 5
    assert per_write == round(wal / writes)
    assert 500 < per_write < 200_000  # each write logs its rows: more than nothing, not megabytes
