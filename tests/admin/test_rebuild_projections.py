"""`manage.py rebuild_projections`: a dry run reports; --repair rewrites a mismatched match's
projection from its events, and only that match's."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F

from games.models import Deal, Match

pytestmark = pytest.mark.django_db


def rebuild(*args) -> str:
    out = io.StringIO()
    call_command("rebuild_projections", *args, stdout=out)
    return out.getvalue()


def stored(match) -> tuple:
    row = Match.objects.get(id=match.id)
    deals = Deal.objects.filter(match=match).order_by("series", "deal_number")
    return (
        row.version,
        row.totals,
        row.state,
        list(deals.values_list("series", "deal_number", "dealer", "started_seq", "outcome")),
    )


def test_a_dry_run_reports_and_repair_rewrites_from_the_events(make_match):
    healthy, broken = make_match(deals=2), make_match(deals=3, seed=5, name="Bahram")
    good_healthy, good_broken = stored(healthy), stored(broken)
    Match.objects.filter(id=broken.id).update(version=F("version") + 1, totals=["9", "0", "0", "0"])
    Deal.objects.filter(match=broken, deal_number=1).update(outcome="uncontested", started_seq=99)
    Deal.objects.filter(match=broken, deal_number=2).delete()
    corrupted = stored(broken)

    with pytest.raises(CommandError, match="1 of 2 matches failed"):
        rebuild()
    assert stored(broken) == corrupted  # a dry run changes nothing

    out = rebuild("--repair")
    assert "1 of 2 matches rebuilt" in out
    assert stored(broken) == good_broken
    assert stored(healthy) == good_healthy
    assert rebuild() == "2 matches checked, 0 mismatches\n"
