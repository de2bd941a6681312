"""How gunicorn serves the site in production: ``gunicorn -c config/gunicorn.py
config.wsgi:application`` (the ``web`` service of docker-compose.yml, the image's command, and
bench/soak.py). Options given on the command line win over these.
"""

from __future__ import annotations

import os

from config.env import env

bind = "0.0.0.0:8000"


def default_workers() -> int:
    """Four sync workers per core this process may run on. A sync worker is held by its page
    until the page is done, database waits included, so with fewer workers than that the quick
    pages (a kept roster costs a few milliseconds) queue behind the slow ones (a GM's battle
    set-up, a dashboard) even while a core is free (bench/README.md, Soak, has the figures
    for 3 to 12 workers on two cores). Each worker holds about 90 MB."""
    return 4 * len(os.sched_getaffinity(0))


# WEB_CONCURRENCY is gunicorn's own variable for the worker count; it still decides here.
workers = env.int("WEB_CONCURRENCY", default=default_workers())
# The site is imported once, in the master, before the workers are forked: a worker (and each
# one restarted after a time-out) answers at once instead of importing Django first, and the
# workers share the imported code's memory. Nothing at import opens a connection.
preload_app = True
# A request still running after 30 s has its worker restarted (docs/deploy.md, Limits).
timeout = 30
graceful_timeout = 20
