"""The token services on a token that another request ended first: they change nothing and
say so, which is what lets exactly one of concurrent requests win (tests/players/test_token_races.py
races them)."""

import pytest

from players.models import Token
from players.services import player_create, token_revoke, token_rotate

pytestmark = pytest.mark.django_db


def test_a_revoked_token_is_neither_revoked_again_nor_rotated():
    player, token = player_create(name="Roya")
    assert token_revoke(player=player, token=token) is True
    assert token_revoke(player=player, token=token) is False
    assert token_rotate(player=player, token=token) is None
    assert not Token.objects.exists()


def test_a_rotated_token_cannot_be_rotated_again():
    player, token = player_create(name="Roya")
    new = token_rotate(player=player, token=token)
    assert new is not None
    assert token_rotate(player=player, token=token) is None
    assert token_revoke(player=player, token=token) is False
    assert Token.objects.count() == 1
