"""Run Bridgehead for development: migrate, load the demo, start a worker and the web server.

One command for a new user: it supervises a Celery worker (with the beat scheduler embedded)
and Django's development server, and stops both together on Ctrl-C, on a SIGTERM (a process
manager, ``kill``) or when either dies.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from campaign.demo import demo_load


class Command(BaseCommand):
    help = "Migrate, load the demo, then run a Celery worker and the web server together."

    def add_arguments(self, parser):
        parser.add_argument("--addrport", default="127.0.0.1:8000")
        parser.add_argument("--no-demo", action="store_true", help="Do not load the demo.")

    def handle(self, *args, addrport: str, no_demo: bool, **options):
        call_command("migrate", interactive=False, verbosity=1)
        logins = [] if no_demo else demo_load()
        broker = "Redis" if settings.REDIS_URL else "the embedded filesystem broker (var/celery)"
        processes = {
            "worker": subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--beat",
                    "--loglevel",
                    "info",
                    "--concurrency",
                    "2",
                ],
            ),
            "web": subprocess.Popen(
                [sys.executable, "manage.py", "runserver", addrport, "--noreload"],
                cwd=settings.BASE_DIR,
            ),
        }
        self.stdout.write(self.style.SUCCESS(f"\nBridgehead is running at http://{addrport}/"))
        self.stdout.write(f"Worker on {broker}. Stop with Ctrl-C.")
        for username, password in logins:
            self.stdout.write(f"  log in as {username} / {password}")
        # A SIGTERM would end this process at once and leave the two behind: stop as Ctrl-C does.
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            while all(p.poll() is None for p in processes.values()):
                time.sleep(0.5)
            dead = [name for name, p in processes.items() if p.poll() is not None]
            self.stderr.write(f"{', '.join(dead)} stopped; shutting down.")
        except KeyboardInterrupt:
            pass
        finally:
            for p in processes.values():
                if p.poll() is None:
                    p.send_signal(signal.SIGTERM)
            for p in processes.values():
                try:
                    p.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.kill(p.pid, signal.SIGKILL)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
