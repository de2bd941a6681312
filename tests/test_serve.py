"""`manage.py serve`, the README's run command: it starts the site and stops all it started."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.core.management.base import CommandError

from campaign.management.commands.serve import listen_address, port_free
from tests.workers import ROOT, project_env, wait_for

pytestmark = pytest.mark.worker  # `serve` starts a Celery worker beside the web server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _parents() -> dict[int, int]:
    """Every live process's parent, read from /proc (zombies, already ended, left out)."""
    parents = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat") as f:
                    # "pid (command) state ppid ...": the command may hold spaces or brackets.
                    state, ppid = f.read().rpartition(")")[2].split()[:2]
            except OSError:
                continue  # it ended while being read
            if state != "Z":
                parents[int(entry.name)] = int(ppid)
    return parents


def _descendants(pid: int) -> set[int]:
    """The processes ``pid`` started, and theirs, still running."""
    parents = _parents()
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pids: set[int]) -> set[int]:
    return pids & set(_parents())


def _kill(pids: set[int]) -> None:
    for pid in _alive(pids):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _environ(pid: int) -> dict[str, str] | None:
    """A running process's environment, read from /proc (None if it has ended)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            pairs = f.read().decode(errors="replace").split("\0")
    except OSError:
        return None
    return dict(pair.partition("=")[::2] for pair in pairs if "=" in pair)


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


def _running(tmp_path, port: int, *said: str) -> None:
    """Until the site answers /healthz and serve's output holds each of ``said``."""
    wait_for(lambda: _healthy(port), timeout=120, what="the site to answer /healthz")
    log = tmp_path / "serve.log"
    wait_for(
        lambda: all(s in log.read_text() for s in said), timeout=60, what=f"serve to say {said}"
    )


def _serve(
    tmp_path,
    port: int,
    *flags: str,
    cwd: Path = ROOT,
    nohup: bool = False,
    **settings: str | None,
) -> subprocess.Popen:
    # The embedded default: SQLite and the filesystem broker, in a folder of the test's own
    # (``settings``: DATABASE_URL or REDIS_URL instead, or another BRIDGEHEAD_VAR_DIR).
    env = project_env(
        **{
            "BRIDGEHEAD_VAR_DIR": str(tmp_path),
            "DATABASE_URL": None,
            "REDIS_URL": None,
            **settings,
        },
        SITE_URL=None,
    )
    log = (tmp_path / "serve.log").open("w")
    with log:
        manage = str(ROOT / "manage.py")
        return subprocess.Popen(
            [sys.executable, manage, "serve", "--addrport", f"127.0.0.1:{port}", *flags],
            cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            preexec_fn=_ignore_hangups if nohup else None,
        )  # fmt: skip


def _ignore_hangups() -> None:
    """As ``nohup`` starts a command: SIGHUP ignored."""
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


@pytest.mark.parametrize(
    "signals",
    # A SIGTERM alone is the test below's, with the demo loaded.
    # A SIGHUP is its terminal closing: the two run in a group of their own, which no terminal
    # reaches, so serve must stop them itself.
    [[signal.SIGINT], [signal.SIGTERM, signal.SIGINT], [signal.SIGHUP]],
    ids=["SIGINT", "SIGTERM-then-SIGINT", "SIGHUP"],
)
def test_a_signal_to_serve_alone_stops_every_process_it_started(tmp_path, signals):
    """Sent to serve's own pid (a process manager, ``kill``), not to a terminal's whole group,
    even twice: serve returns only once the web server, the worker and the worker's pool have
    all stopped."""
    port = _free_port()
    serve = _serve(tmp_path, port, "--no-demo")
    started: set[int] = set()
    try:
        _running(tmp_path, port)

        def pool_forked() -> bool:
            # The worker and the web server, and the worker's pool once it has forked.
            started.update(_descendants(serve.pid))
            return len(started) >= 4

        wait_for(pool_forked, timeout=60, what="the worker's pool")
        for signum in signals:
            serve.send_signal(signum)
            time.sleep(0.3)
        assert serve.wait(timeout=30) == 0
        assert not _alive(started)
    finally:
        serve.kill()
        _kill(started | _descendants(serve.pid))
    _stopped_of_their_own_accord((tmp_path / "serve.log").read_text())


def _stopped_of_their_own_accord(output: str) -> None:
    """Each child stopped by its own shutdown: the worker closed its pool itself (a pool
    process signalled beside it dies at once, and the worker then waits on it until killed)."""
    assert "would not stop in 15 s" not in output
    assert "exited with 'signal" not in output


def test_serve_started_under_nohup_outlives_its_terminal(tmp_path):
    port = _free_port()
    serve = _serve(tmp_path, port, "--no-demo", nohup=True)
    started: set[int] = set()
    try:
        _running(tmp_path, port, "Stop with Ctrl-C.")
        started = _descendants(serve.pid)
        serve.send_signal(signal.SIGHUP)
        time.sleep(2)
        assert serve.poll() is None and _healthy(port) and _alive(started) == started
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=30) == 0
        assert not _alive(started)
    finally:
        serve.kill()
        _kill(started | _descendants(serve.pid))


def test_serve_runs_the_site_and_a_sigterm_stops_everything_it_started(tmp_path):
    port = _free_port()
    serve = _serve(tmp_path, port)
    started: set[int] = set()
    try:
        _running(tmp_path, port, "log in as bob")
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
        started = _descendants(serve.pid)
        assert len(started) >= 2  # the worker and the web server at least
        # Every process it started knows the address it serves at, for the worker's mails.
        environs = [_environ(pid) for pid in started]
        assert {e.get("SITE_URL") for e in environs if e} == {f"http://127.0.0.1:{port}"}
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=30) == 0
        wait_for(lambda: not _alive(started), timeout=30, what="the worker and web to stop")
    finally:
        serve.kill()
        _kill(started | _descendants(serve.pid))
    output = (tmp_path / "serve.log").read_text()
    _stopped_of_their_own_accord(output)
    assert "log in as gm / bridgehead-gm" in output
    # The logins come after the web server's banner, and the console carries no broker noise.
    assert output.index("log in as gm") > output.index("Quit the server with")
    assert "No hostname was supplied" not in output


def test_serve_started_from_another_folder_runs_both_on_the_data_it_names(tmp_path):
    """From any folder, with BRIDGEHEAD_VAR_DIR relative to it: the worker finds the project,
    and the web server and the worker keep their data where serve does."""
    port = _free_port()
    serve = _serve(
        tmp_path, port, "--no-demo", "--verbose", cwd=tmp_path, BRIDGEHEAD_VAR_DIR="here"
    )
    started: set[int] = set()
    try:
        _running(tmp_path, port, " ready.", "Stop with Ctrl-C.")  # the worker's, at --verbose
        started = _descendants(serve.pid)
        assert serve.poll() is None
        here = tmp_path / "here"
        assert (here / "bridgehead.sqlite3").exists() and (here / "celery" / "queue").is_dir()
        environs = [_environ(pid) for pid in started]
        assert {e.get("BRIDGEHEAD_VAR_DIR") for e in environs if e} == {str(here)}
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=30) == 0
    finally:
        serve.kill()
        _kill(started | _descendants(serve.pid))
    output = (tmp_path / "serve.log").read_text()
    assert f"Worker on the embedded filesystem broker ({here / 'celery'})." in output
    assert not (ROOT / "here").exists()


def test_a_child_that_stops_on_its_own_stops_the_other_and_serve_exits_1_saying_which(tmp_path):
    port = _free_port()
    serve = _serve(tmp_path, port, "--no-demo")
    started: set[int] = set()
    try:
        _running(tmp_path, port)
        started = _descendants(serve.pid)
        web = [pid for pid in started if b"runserver" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        assert len(web) == 1
        os.kill(web[0], signal.SIGKILL)
        assert serve.wait(timeout=30) == 1
        assert not _alive(started)
    finally:
        serve.kill()
        _kill(started | _descendants(serve.pid))
    output = (tmp_path / "serve.log").read_text()
    assert "The web server stopped on its own: everything serve started is stopped." in output


def test_a_port_another_program_listens_at_is_refused_before_anything_starts(tmp_path):
    """A serve left running (or anything else) holds the port: serve says so and starts nothing,
    rather than say the site runs while the other program answers in its place."""
    with socket.create_server(("127.0.0.1", 0)) as holder:
        port = holder.getsockname()[1]
        serve = _serve(tmp_path, port)
        try:
            assert serve.wait(timeout=60) == 1
        finally:
            serve.kill()
    output = (tmp_path / "serve.log").read_text()
    assert f"Cannot serve at 127.0.0.1 port {port}: Address already in use." in output
    assert "Another program listens there" in output
    assert "Bridgehead is running" not in output
    assert "Operations to perform" not in output  # refused before migrating, the demo, a worker


@pytest.mark.parametrize(
    ("server", "said"),
    [
        (
            "DATABASE_URL",
            "Cannot reach the database DATABASE_URL names: connection failed: connection to "
            'server at "127.0.0.1", port {port} failed: Connection refused. Start it, or unset '
            "DATABASE_URL to keep the data in SQLite under var/.",
        ),
        (
            "REDIS_URL",
            "Cannot reach Redis at REDIS_URL: Error 111 connecting to 127.0.0.1:{port}. "
            "Connection refused. Start it, or unset REDIS_URL to use the embedded task queue "
            "under var/.",
        ),
    ],
)
def test_a_server_the_settings_name_that_does_not_answer_is_refused_before_anything_starts(
    tmp_path, server, said
):
    """Set, but down: the site would fail at its first page, or queue every battle for a worker
    that never gets it, while serve said it ran."""
    down = _free_port()  # nothing listens there
    scheme = (
        "postgres://postgres@127.0.0.1:{}/bridgehead"
        if server == "DATABASE_URL"
        else ("redis://127.0.0.1:{}/0")
    )
    serve = _serve(tmp_path, _free_port(), **{server: scheme.format(down)})
    try:
        assert serve.wait(timeout=60) == 1
    finally:
        serve.kill()
    output = (tmp_path / "serve.log").read_text()
    assert said.format(port=down) in output
    assert "Operations to perform" not in output and "Bridgehead is running" not in output


@pytest.mark.parametrize(
    ("addrport", "listen"),
    [
        ("8765", ("127.0.0.1", 8765)),
        ("127.0.0.1:8000", ("127.0.0.1", 8000)),
        ("localhost:8000", ("localhost", 8000)),
        ("[::1]:8000", ("::1", 8000)),
        ("0:8000", ("0.0.0.0", 8000)),
        ("0.0.0.0:65535", ("0.0.0.0", 65535)),
    ],
)
def test_the_address_is_read_as_runserver_reads_it(addrport, listen):
    assert listen_address(addrport) == listen


@pytest.mark.parametrize("addrport", ["nonsense", "127.0.0.1:", ":8000", "127.0.0.1:0", "1:65536"])
def test_an_address_runserver_could_not_serve_at_is_refused_saying_what_to_give(addrport):
    with pytest.raises(CommandError) as refused:
        listen_address(addrport)
    assert str(refused.value) == (
        f"--addrport {addrport!r} is no address to serve at: give a port (8000) or an address "
        "and a port (127.0.0.1:8000), the port from 1 to 65535."
    )


def test_a_free_port_passes_and_one_held_is_refused_in_a_sentence():
    port = _free_port()
    port_free("127.0.0.1", port)  # nothing listens there: no refusal
    with socket.create_server(("127.0.0.1", port)), pytest.raises(CommandError) as refused:
        port_free("127.0.0.1", port)
    assert str(refused.value) == (
        f"Cannot serve at 127.0.0.1 port {port}: Address already in use. Another program listens "
        "there (a Bridgehead started before and still running?): stop it, or choose another "
        "address or port with --addrport, as in --addrport 127.0.0.1:8001."
    )
    with pytest.raises(CommandError, match="Name or service not known: choose another address"):
        port_free("no-such-host.invalid", port)
