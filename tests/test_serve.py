"""`manage.py serve`, the README's run command: it starts the site and stops all it started."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.workers import ROOT, project_env, wait_for

pytestmark = pytest.mark.worker  # `serve` starts a Celery worker beside the web server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def test_serve_runs_the_site_and_a_sigterm_stops_everything_it_started(tmp_path):
    port = _free_port()
    # The embedded default: SQLite and the filesystem broker, in a folder of the test's own.
    env = project_env(BRIDGEHEAD_VAR_DIR=str(tmp_path), DATABASE_URL=None, REDIS_URL=None)
    log = (tmp_path / "serve.log").open("w")
    serve = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--addrport", f"127.0.0.1:{port}"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    group = os.getpgid(serve.pid)
    try:

        def healthy() -> bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    return r.status == 200
            except OSError:
                return False

        wait_for(healthy, timeout=120, what="the site to answer /healthz")
        wait_for(
            lambda: "log in as bob" in (tmp_path / "serve.log").read_text(),
            timeout=30,
            what="the logins to be printed",
        )
        # The site's own 404, not Django's debug page; the static files and icon still answer.
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/no/such/page/", timeout=10)
        except urllib.error.HTTPError as error:
            missing = (error.code, error.read().decode())
        assert missing[0] == 404
        assert "Nothing here" in missing[1] and "Using the URLconf" not in missing[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/favicon.ico", timeout=10) as r:
            assert r.status == 200 and r.url.endswith("/static/bridgehead/favicon.svg")
            assert r.read().startswith(b"<svg")
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=30) == 0
        wait_for(lambda: not _group_alive(group), timeout=30, what="the worker and web to stop")
    finally:
        if _group_alive(group):
            os.killpg(group, signal.SIGKILL)
        log.close()
    output = (tmp_path / "serve.log").read_text()
    assert "log in as gm / bridgehead-gm" in output
    # The logins come after the web server's banner, and the console carries no broker noise.
    assert output.index("log in as gm") > output.index("Quit the server with")
    assert "No hostname was supplied" not in output
