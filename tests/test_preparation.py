"""serve's preparation of the database (asnas_api.preparation): it migrates what is not
migrated, and on a database that is, checks that with one query, without setting Django up."""

import os
import subprocess
import sys
from unittest import mock

import psycopg
import pytest
from django.conf import settings

import asnas_api.settings
from asnas_api import preparation
from tests.servers import BASE_DIR, empty_database

pytestmark = pytest.mark.slow


def prepare(url: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "asnas_api.preparation", "--dev", "--verbosity", "0"],
        cwd=BASE_DIR,
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_fresh_database_is_migrated_and_a_migrated_one_only_checked(monkeypatch):
    with empty_database("prepare") as url:
        assert not preparation.all_applied(asnas_api.settings, url)
        result = prepare(url)
        assert result.returncode == 0, result.stderr
        assert preparation.all_applied(asnas_api.settings, url)

        monkeypatch.setenv("DATABASE_URL", url)
        with mock.patch.object(preparation, "migrate", side_effect=AssertionError("Django")):
            assert preparation.main(["--dev"]) == 0


def test_a_migration_not_recorded_yet_sends_it_to_migrate():
    with empty_database("prepare_one") as url:
        assert prepare(url).returncode == 0
        latest = max(preparation.migration_names("games"))
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(
                "DELETE FROM django_migrations WHERE app = 'games' AND name = %s", [latest]
            )
        assert not preparation.all_applied(asnas_api.settings, url)


def test_every_installed_app_with_migrations_is_found_on_disk():
    found = {app: preparation.migration_names(app) for app in settings.INSTALLED_APPS}
    assert "0001_initial" in found["django.contrib.auth"]
    assert "0001_initial" in found["games"]
    assert found["rest_framework"] == set()
