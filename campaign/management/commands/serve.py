"""Run Bridgehead for development: migrate, load the demo, start a worker and the web server.

The web server shows the site as its users see it, with its own 404 and error pages: DEBUG is
off for it unless the environment sets DEBUG.

One command for a new user: it supervises a Celery worker (with the beat scheduler embedded)
and Django's development server, and stops both together on Ctrl-C, on a SIGINT or SIGTERM to it
alone (a process manager, ``kill``) or when either dies.

The two run in a process group of their own, so that stopping them reaches every process they
started (the worker's pool too), and a group never holds whatever started ``serve``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from campaign.demo import demo_load
from config.celery import worker_command


class Command(BaseCommand):
    help = "Migrate, load the demo, then run a Celery worker and the web server together."

    def add_arguments(self, parser):
        parser.add_argument("--addrport", default="127.0.0.1:8000")
        parser.add_argument("--no-demo", action="store_true", help="Do not load the demo.")
        parser.add_argument(
            "--verbose",
            action="store_true",
            help="Show the worker's every task (by default only its warnings and errors).",
        )

    def handle(self, *args, addrport: str, no_demo: bool, verbose: bool, **options):
        call_command("migrate", interactive=False, verbosity=1)
        logins = [] if no_demo else demo_load()
        broker = "Redis" if settings.REDIS_URL else "the embedded filesystem broker (var/celery)"
        # A SIGTERM would end this process at once and leave the two behind: stop as Ctrl-C does.
        # SIGINT too is handled here: a shell starting serve in the background passes it on
        # ignored, and a process manager's SIGINT must still stop it.
        signal.signal(signal.SIGTERM, _interrupt)
        signal.signal(signal.SIGINT, _interrupt)
        processes: dict[str, subprocess.Popen] = {}
        if not os.environ.get("SITE_URL") and (url := site_url(addrport)):
            os.environ["SITE_URL"] = url  # the worker's mails link to where the site is served
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
                process_group=0,
            )
            group = processes["worker"].pid
            # The site's own error pages, not Django's debug ones: the web server runs with
            # DEBUG off (unless DEBUG is set), and --insecure still serves the static files.
            processes["web"] = subprocess.Popen(
                [sys.executable, "manage.py", "runserver", addrport, "--noreload", "--insecure"],
                cwd=settings.BASE_DIR,
                env={**os.environ, "DEBUG": os.environ.get("DEBUG", "false")},
                process_group=group,
            )
            # The logins come once both children have said their piece, as the last lines.
            _wait_for_port(addrport, processes.values())
            time.sleep(1)
            self.stdout.write(self.style.SUCCESS(f"\nBridgehead is running at http://{addrport}/"))
            self.stdout.write(f"Worker on {broker}. Stop with Ctrl-C.")
            for username, password in logins:
                self.stdout.write(f"  log in as {username} / {password}")
            self.stdout.flush()
            while all(p.poll() is None for p in processes.values()):
                time.sleep(0.5)
            dead = [name for name, p in processes.items() if p.poll() is not None]
            self.stderr.write(f"{', '.join(dead)} stopped; shutting down.")
        except KeyboardInterrupt:
            pass
        finally:
            _stop(processes.values())


def site_url(addrport: str) -> str:
    """The address ``runserver`` serves ``addrport`` at ("8000" is 127.0.0.1's port), for the
    links of the worker's mails; "" when it listens on every interface (0.0.0.0, ::), which
    names no address a reader could open."""
    host, _, port = addrport.rpartition(":")
    host = host or "127.0.0.1"
    if host in ("0", "0.0.0.0", "::", "[::]"):
        return ""
    return f"http://{host}:{port}"


def _stop(processes, timeout: float = 15) -> None:
    """Stop the children's process group: SIGTERM to all of it, then SIGKILL to what is left
    after ``timeout``. A second Ctrl-C or SIGTERM meanwhile cannot cut this short."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    processes = list(processes)
    if not processes:
        return
    group = processes[0].pid
    _signal_group(group, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for p in processes:
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=max(0.0, deadline - time.monotonic()))
    # The worker's pool may outlive the worker by a moment; whatever is left then is killed.
    while _signal_group(group, 0) and time.monotonic() < deadline:
        time.sleep(0.1)
    _signal_group(group, signal.SIGKILL)
    for p in processes:
        p.wait()


def _signal_group(group: int, signum: int) -> bool:
    """Send ``signum`` to the process group; False if no process is left in it."""
    try:
        os.killpg(group, signum)
    except ProcessLookupError:
        return False
    return True


def _wait_for_port(addrport: str, processes, timeout: float = 60) -> None:
    """Until the web server accepts a connection (or a child dies, or ``timeout`` passes)."""
    host, _, port = addrport.rpartition(":")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and all(p.poll() is None for p in processes):
        try:
            with socket.create_connection((host or "127.0.0.1", int(port)), timeout=1):
                return
        except OSError:
            time.sleep(0.25)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
