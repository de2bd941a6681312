"""Run Bridgehead for development: migrate, load the demo, start a worker and the web server.

The web server shows the site as its users see it, with its own 404 and error pages: DEBUG is
off for it unless the environment sets DEBUG.

One command for a new user: it supervises a Celery worker (with the beat scheduler embedded)
and Django's development server, and stops both together on Ctrl-C, on a SIGINT or SIGTERM to it
alone (a process manager, ``kill``), on a SIGHUP (its terminal closed; not under ``nohup``) or
when either dies (then it exits 1, saying which stopped). An address it cannot serve at
(malformed, or a port another program listens on, say a ``serve`` left running elsewhere), and a
database or Redis the settings name that does not answer, are refused before anything starts.

Each is asked to stop on its own (the worker closes its pool itself); the two run in a process
group of their own, so that whatever of them is left after 15 s (the worker's pool too) is killed
as one, and a group never holds whatever started ``serve``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import socket
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.core.management.commands.runserver import naiveip_re
from django.db import connection

from campaign.demo import demo_load
from config.celery import worker_command
from config.health import broker_error, database_error


class Command(BaseCommand):
    help = "Migrate, load the demo, then run a Celery worker and the web server together."

    def add_arguments(self, parser):
        parser.add_argument(
            "--addrport",
            default="127.0.0.1:8000",
            help="Where the web server listens: a port, or an address and a port "
            "(default 127.0.0.1:8000; 0.0.0.0:8000 for every interface).",
        )
        parser.add_argument("--no-demo", action="store_true", help="Do not load the demo.")
        parser.add_argument(
            "--verbose",
            action="store_true",
            help="Show the worker's every task (by default only its warnings and errors).",
        )

    def handle(self, *args, addrport: str, no_demo: bool, verbose: bool, **options):
        host, port = listen_address(addrport)
        port_free(host, port)
        servers_answer()
        call_command("migrate", interactive=False, verbosity=1)
        logins = [] if no_demo else demo_load()
        broker = (
            "Redis"
            if settings.REDIS_URL
            else f"the embedded filesystem broker ({settings.CELERY_QUEUE_DIR})"
        )
        # A SIGTERM or SIGHUP would end this process at once and leave the two behind, in a
        # process group no terminal reaches: stop as Ctrl-C does. SIGINT too is handled here: a
        # shell starting serve in the background passes it on ignored, and a process manager's
        # SIGINT must still stop it.
        for signum in STOPPING:
            if signum == signal.SIGHUP and signal.getsignal(signum) == signal.SIG_IGN:
                continue  # started under nohup: it is to outlive its terminal
            signal.signal(signum, _interrupt)
        processes: dict[str, subprocess.Popen] = {}
        dead: list[str] = []
        if not os.environ.get("SITE_URL") and (url := site_url(addrport)):
            os.environ["SITE_URL"] = url  # the worker's mails link to where the site is served
        # Both run in the project's folder, wherever serve was started from, on the data this
        # process migrated (a relative BRIDGEHEAD_VAR_DIR is read from where serve started).
        folder = settings.BASE_DIR
        os.environ["BRIDGEHEAD_VAR_DIR"] = str(settings.VAR_DIR)
        try:
            processes["worker"] = subprocess.Popen(
                worker_command(
                    "--beat",
                    "--loglevel",
                    # The sweeps run every 30 s: at INFO their lines bury the logins below.
                    "info" if verbose else "warning",
                    "--concurrency",
                    "2",
                ),
                cwd=folder,
                process_group=0,
            )
            group = processes["worker"].pid
            # The site's own error pages, not Django's debug ones: the web server runs with
            # DEBUG off (unless DEBUG is set), and --insecure still serves the static files.
            processes["web"] = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", addrport, "--noreload", "--insecure"],
                cwd=folder,
                env={**os.environ, "DEBUG": os.environ.get("DEBUG", "false")},
                process_group=group,
            )
            # The logins come once both children have said their piece, as the last lines.
            _wait_for_port(host, port, processes.values())
            time.sleep(1)
            if any(p.poll() is not None for p in processes.values()):
                raise _Stopped
            running = f"\nBridgehead is running at {_address(host, port)}/"
            self.stdout.write(self.style.SUCCESS(running))
            self.stdout.write(f"Worker on {broker}. Stop with Ctrl-C.")
            for username, password in logins:
                self.stdout.write(f"  log in as {username} / {password}")
            self.stdout.flush()
            while all(p.poll() is None for p in processes.values()):
                time.sleep(0.5)
            raise _Stopped
        except KeyboardInterrupt:
            pass
        except _Stopped:
            dead = [name for name, p in processes.items() if p.poll() is not None]
        finally:
            if _stop(processes.values()):
                self.stderr.write("Some of what serve started would not stop in 15 s: killed.")
        if dead:
            # Its own lines above say why; a process manager or script is told by the status.
            names = " and ".join(NAMES[name] for name in dead)
            raise CommandError(
                f"The {names} stopped on {'their' if len(dead) > 1 else 'its'} "
                "own: everything serve started is stopped."
            )


STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop serve and all it started, as Ctrl-C does."""

NAMES = {"worker": "worker", "web": "web server"}


class _Stopped(Exception):
    """A child stopped on its own: serve stops the rest and says so."""


def listen_address(addrport: str) -> tuple[str, int]:
    """The host and port the web server is to listen at, as ``runserver`` reads ``addrport``
    ("8000", "127.0.0.1:8000", "[::1]:8000", "0:8000"); a ``CommandError`` saying why not."""
    found = re.match(naiveip_re, addrport)
    port = int(found["port"]) if found else 0
    if not found or not 0 < port < 65536:
        raise CommandError(
            f"--addrport {addrport!r} is no address to serve at: give a port (8000) or an "
            "address and a port (127.0.0.1:8000), the port from 1 to 65535."
        )
    host = found["addr"] or "127.0.0.1"
    if found["ipv6"]:
        host = host[1:-1]
    elif host == "0":
        host = "0.0.0.0"
    return host, port


def port_free(host: str, port: int) -> None:
    """Refuse, in a sentence, an address the web server could not listen at: above all a port
    some program already listens at, which would answer in the web server's place."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            # As the web server will: reusing an address only closed connections still hold.
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as error:
        why = f"{error.strerror or error}:"
        if error.errno == errno.EADDRINUSE:
            why = (
                f"{error.strerror}. Another program listens there (a Bridgehead started before "
                "and still running?): stop it, or"
            )
        raise CommandError(
            f"Cannot serve at {host} port {port}: {why} choose another address or port with "
            "--addrport, as in --addrport 127.0.0.1:8001."
        ) from error


def servers_answer() -> None:
    """Refuse, in a sentence, a database or a Redis the settings name (``DATABASE_URL``,
    ``REDIS_URL``) that does not answer: the site would fail at its first page, or queue every
    battle for a worker that never gets it."""
    if connection.vendor != "sqlite" and (error := database_error()):
        raise CommandError(
            f"Cannot reach the database DATABASE_URL names: {_first_line(error)}. Start it, or "
            "unset DATABASE_URL to keep the data in SQLite under var/."
        )
    if settings.REDIS_URL and (error := broker_error()):
        raise CommandError(
            f"Cannot reach Redis at REDIS_URL: {_first_line(error)}. Start it, or unset "
            "REDIS_URL to use the embedded task queue under var/."
        )


def _first_line(error: Exception) -> str:
    """What the error says, its first line (psycopg adds a hint below), or its kind."""
    said = str(error).strip()
    return said.splitlines()[0].rstrip(".") if said else type(error).__name__


def site_url(addrport: str) -> str:
    """The address ``runserver`` serves ``addrport`` at ("8000" is 127.0.0.1's port), for the
    links of the worker's mails; "" when it listens on every interface (0.0.0.0, ::), which
    names no address a reader could open."""
    host, port = listen_address(addrport)
    return "" if host in ("0.0.0.0", "::") else _address(host, port)


def _address(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _stop(processes, timeout: float = 15) -> bool:
    """Stop the children: SIGTERM to each, then SIGKILL to what is left of their process group
    after ``timeout``; whether anything had to be killed. Each is signalled alone, not its
    group: a worker whose pool was signalled too waits on processes already gone, and is
    killed at the timeout. A second Ctrl-C, SIGTERM or SIGHUP meanwhile cannot cut this short."""
    for signum in STOPPING:
        signal.signal(signum, signal.SIG_IGN)
    processes = list(processes)
    if not processes:
        return False
    group = processes[0].pid
    for p in processes:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for p in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=max(0.0, deadline - time.monotonic()))
    # The worker's pool may outlive the worker by a moment; whatever is left then is killed.
    while _signal_group(group, 0) and time.monotonic() < deadline:
        time.sleep(0.1)
    killed = _signal_group(group, signal.SIGKILL)
    for p in processes:
        p.wait()
    return killed


def _signal_group(group: int, signum: int) -> bool:
    """Send ``signum`` to the process group; False if no process is left in it."""
    try:
        os.killpg(group, signum)
    except ProcessLookupError:
        return False
    return True


def _wait_for_port(host: str, port: int, processes, timeout: float = 60) -> None:
    """Until the web server accepts a connection (or a child dies, or ``timeout`` passes)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and all(p.poll() is None for p in processes):
        try:
            with socket.create_connection((host, port), timeout=1):
                return
        except OSError:
            time.sleep(0.25)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
