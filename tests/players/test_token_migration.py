"""The move to tokens per device keeps every existing token working."""

import hashlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("players", "0001_initial")]
AFTER = [("players", "0002_tokens_per_device")]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_existing_tokens_become_token_rows():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("players", "Player")
    token_hash = hashlib.sha256(b"old-token").hexdigest()
    old.objects.create(name="Roya", kind="human", token_hash=token_hash)
    old.objects.create(name="Darius", kind="ai", token_hash=None)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    try:
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        token = new.get_model("players", "Token").objects.get()
        assert token.token_hash == token_hash
        assert new.get_model("players", "Player").objects.get(id=token.player_id).name == "Roya"
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
