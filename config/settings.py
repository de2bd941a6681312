"""Django settings for Bridgehead, read from the environment.

With nothing set, Bridgehead runs for development on the embedded default: a SQLite file and
a filesystem Celery broker under ``var/``, so a fresh clone needs no servers. ``DATABASE_URL``
and ``REDIS_URL`` switch the same code to PostgreSQL and Redis; ``BRIDGEHEAD_ENV=production``
turns DEBUG off and requires a real SECRET_KEY and ALLOWED_HOSTS. Every variable is listed in
``.env.example``.
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from kombu import Queue

from config.env import broker_url, database_config, env
from config.security import FORM_ROOM
from config.site import site_url_problem

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env.str("BRIDGEHEAD_VAR_DIR", default=str(BASE_DIR / "var"))).resolve()

ENVIRONMENT = env.str("BRIDGEHEAD_ENV", default="development")
if ENVIRONMENT not in {"development", "production"}:
    raise ImproperlyConfigured(
        f"BRIDGEHEAD_ENV must be 'development' or 'production', got {ENVIRONMENT!r}"
    )
PRODUCTION = ENVIRONMENT == "production"

DEVELOPMENT_SECRET_KEY = "bridgehead-development-only-not-secret"
if PRODUCTION:
    SECRET_KEY = env.str("SECRET_KEY", default="")
    if len(SECRET_KEY) < 50 or SECRET_KEY == DEVELOPMENT_SECRET_KEY:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set to a random string of at least 50 characters in production"
        )
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("ALLOWED_HOSTS must name the site's host(s) in production")
else:
    SECRET_KEY = env.str("SECRET_KEY", default=DEVELOPMENT_SECRET_KEY)
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
DEBUG = env.bool("DEBUG", default=not PRODUCTION)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "axes",
    "units",
    "battles",
    "campaign",
]

MIDDLEWARE = [
    "config.security.RequestBodyLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # An empty 405 gets the site's error page (after auth and messages: base.html uses both).
    "config.errors.MethodNotAllowedPageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # An htmx request from an expired session: the login page as a page, not in a fragment.
    "config.htmx.HtmxLoginRedirectMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its refusal page.
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes, kept in the database, so it needs no Redis): a username from
# one address is locked out after AXES_FAILURE_LIMIT failed logins in a row, for
# LOGIN_LOCKOUT_MINUTES; a successful login clears its count.
AUTHENTICATION_BACKENDS = [
    # Per address, across usernames (config.security): before any password is checked.
    "config.security.AddressThrottleBackend",
    # Then, as django-axes asks: it refuses a locked-out login before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_LOCKOUT_MINUTES = env.float("LOGIN_LOCKOUT_MINUTES", default=15.0)
AXES_COOLOFF_TIME = LOGIN_LOCKOUT_MINUTES / 60  # hours
# Failed logins from one address, whatever the usernames, before the address is locked out.
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", default=20)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Behind a proxy every login comes from the proxy's address: with TRUSTED_PROXIES set to the
# number of proxies in front of the site, the client's own address is read from the
# X-Forwarded-For header they append to (config.security.client_ip).
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)
AXES_CLIENT_IP_CALLABLE = "config.security.client_ip"
# Lockouts are logged; the banner axes prints at every start-up is not.
AXES_VERBOSE = False
AXES_COOLOFF_MESSAGE = (
    "Too many failed logins: this username, or your address, is locked out for a while. "
    "Try again later."
)

if PRODUCTION:
    # In production gunicorn serves the collected static files itself (no CDN, no extra server).
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": database_config(
        env.str("DATABASE_URL", default=""), default_sqlite=VAR_DIR / "bridgehead.sqlite3"
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # A file, not memory, so a worker process can see the test database too.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-bridgehead.sqlite3")}
# Production keeps each process's connection for a minute (checked before reuse) instead of
# connecting afresh for every request; development's server starts a thread per request, which
# would leave connections behind, so it connects per request.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60 if PRODUCTION else 0)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaign:list"
"""Logging in lands on your campaigns: what every GM and player comes for."""
LOGOUT_REDIRECT_URL = "/"
# A form whose security token has gone stale gets the site's page, not Django's.
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Security: strict in production, where the site is served over HTTPS behind a proxy.
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
if PRODUCTION:
    if TRUSTED_PROXIES:
        # Only a declared proxy's X-Forwarded-Proto says the request came over HTTPS; without
        # one, any client could send it.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    # Health probes talk plain HTTP from inside the container network.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# Request bodies: a form post is a few kB, the largest pasted map 200,000 characters
# (battles.engine.validation.MAX_SCENARIO_TEXT). A body larger than this, multipart included,
# is refused with 413 before it is read (config.security.RequestBodyLimitMiddleware), on every
# page but the campaign import: an export carries its battles' logs and replays (the demo's
# four battles, 200 kB), so the import takes a file of up to IMPORT_FILE_LIMIT (pasted or
# chosen).
REQUEST_BODY_LIMIT = env.int("REQUEST_BODY_LIMIT", default=1_000_000)
IMPORT_FILE_LIMIT = env.int("IMPORT_FILE_LIMIT", default=20_000_000)
# Django's own limit on a body's fields (files left out) must let a pasted export through; the
# middleware has held every other page to REQUEST_BODY_LIMIT before Django reads a byte.
DATA_UPLOAD_MAX_MEMORY_SIZE = max(REQUEST_BODY_LIMIT, IMPORT_FILE_LIMIT + FORM_ROOM)
FILE_UPLOAD_MAX_MEMORY_SIZE = REQUEST_BODY_LIMIT
# A set-up, a table result or an engagement posts about four fields per ready unit, so Django's
# default of 1,000 fields refused a campaign of 250 ready units; the body limit above still
# bounds what is read.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 20_000
# Password reset needs mail; without EMAIL_HOST it is not routed at all (config/urls.py).
EMAIL_HOST = env.str("EMAIL_HOST", default="")
EMAIL_PORT = env.int("EMAIL_PORT", default=587)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=True)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="bridgehead@localhost")
PASSWORD_RESET_ENABLED = bool(EMAIL_HOST)
# Where users open the site, for the links mails carry (config/site.py): a task sending a
# campaign's notices knows no request to read it from.
SITE_URL = env.str("SITE_URL", default="").strip().rstrip("/")
if SITE_URL and (_problem := site_url_problem(SITE_URL)):
    raise ImproperlyConfigured(f"SITE_URL {SITE_URL!r} is not the site's address: {_problem}")
# Campaign notices go through the same machinery: to EMAIL_HOST when it is set, else printed on
# the worker's console (development); EMAIL_BACKEND overrides either.
EMAIL_BACKEND = env.str(
    "EMAIL_BACKEND",
    default="django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)

# Celery: Redis when REDIS_URL is set, otherwise the embedded filesystem broker under var/
# (development only: it has no redelivery of unacknowledged messages).
REDIS_URL = broker_url(env.str("REDIS_URL", default=""))
CELERY_QUEUE_DIR = VAR_DIR / "celery"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # Longer than the hard time limit, so a slow task is never delivered twice while it
        # still runs; a task whose worker died comes back after this long.
        "visibility_timeout": 3600,
    }
else:
    CELERY_BROKER_URL = "filesystem://"
    # kombu's own transport lets a worker read a message before it is written (config.broker).
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
    CELERY_RESULT_BACKEND = f"file://{CELERY_QUEUE_DIR / 'results'}"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_QUEUE_DIR / "queue"),
        "data_folder_out": str(CELERY_QUEUE_DIR / "queue"),
        "control_folder": str(CELERY_QUEUE_DIR / "control"),
        "processed_folder": str(CELERY_QUEUE_DIR / "processed"),
        "polling_interval": 0.1,
    }
    # The filesystem transport lists these folders on every poll: they must exist.
    for folder in ("queue", "control", "processed", "results"):
        (CELERY_QUEUE_DIR / folder).mkdir(parents=True, exist_ok=True)
# The cache holds rendered pages only (config.pagecache): in Redis when REDIS_URL is set, so
# every web process shares it; otherwise each process keeps its own in memory.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "bridgehead",
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 1000},
        }
    }
# How long a rendered page is kept (0: pages are always drawn afresh).
PAGE_CACHE_SECONDS = env.int("PAGE_CACHE_SECONDS", default=600)
CELERY_TASK_ACKS_LATE = True
# Tasks write what they produce to the database; only a task that says so keeps a result.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=300)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=360)
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE

# Structured logs (config/logging.py): one key=value line per record, for web and workers
# alike; a worker's lines about a battle or an odds run carry battle_id= or odds_run_id=.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "context": {"()": "config.logging.ContextFilter"},
        "refusals": {"()": "config.logging.RefusalFilter"},
    },
    "formatters": {"keyvalue": {"()": "config.logging.KeyValueFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "keyvalue",
            "filters": ["context", "refusals"],
        }
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # The filesystem broker has no host, and kombu says so on every connection.
        **({} if REDIS_URL else {"kombu.connection": {"level": "ERROR"}}),
    },
}
# Three queues, so no kind of work waits behind another's backlog: battles, odds chunks (a run
# is many tasks at once), and housekeeping (the sweeps that recover lost work, campaign
# outcomes). A worker started without -Q takes all of them; docker-compose gives housekeeping a
# worker of its own (docs/deploy.md, "Queues").
CELERY_TASK_QUEUES = [Queue(name) for name in ("battles", "odds", "housekeeping", "celery")]
CELERY_TASK_ROUTES = {
    "battles.tasks.resolve_battle": {"queue": "battles"},
    "battles.tasks.run_odds_chunk": {"queue": "odds"},
    "battles.tasks.sweep_battles": {"queue": "housekeeping"},
    "campaign.tasks.*": {"queue": "housekeeping"},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# A battle with no sign of life for this long is presumed lost and queued again by the sweep.
BATTLE_STALE_SECONDS = env.int("BATTLE_STALE_SECONDS", default=120)
# While a worker fights, a thread renews its lease this often (battles.lease): liveness does not
# depend on how long a turn takes. Well inside the stale limit.
BATTLE_HEARTBEAT_SECONDS = env.float(
    "BATTLE_HEARTBEAT_SECONDS", default=max(0.1, min(15.0, BATTLE_STALE_SECONDS / 4))
)
# A battle started this many times without finishing (its worker killed each time) ends failed.
BATTLE_MAX_ATTEMPTS = env.int("BATTLE_MAX_ATTEMPTS", default=3)
# Seconds a worker pauses after each turn of a battle (default 0): for demos that show progress.
BATTLE_TURN_DELAY = env.float("BATTLE_TURN_DELAY", default=0.0)
# Where the battle pages send a battle fought for a campaign, or an odds run asked for one, whose
# page is the campaign's: the battle pages know nothing of campaigns
# (`campaign.views.battles_page`). Empty, every battle's or run's page is the battle pages' own.
BATTLE_HOME = "campaign.views.battles_page.battle_home"
ODDS_HOME = "campaign.views.battles_page.odds_home"
# Budgets (battles.budget): work in flight, in unit-pair turns (turns × pairs of enemy units; a
# 20 against 20 of 8 turns is 3,200, the crossroads 54), per user and per campaign; battles and
# odds runs in flight per user; and about how long one unit takes a worker, for "try again in".
WORK_USER_LIMIT = env.int("WORK_USER_LIMIT", default=5_000_000)
WORK_CAMPAIGN_LIMIT = env.int("WORK_CAMPAIGN_LIMIT", default=10_000_000)
WORK_USER_BATTLES = env.int("WORK_USER_BATTLES", default=20)
WORK_USER_ODDS_RUNS = env.int("WORK_USER_ODDS_RUNS", default=2)
WORK_SECONDS_PER_UNIT = env.float("WORK_SECONDS_PER_UNIT", default=0.0001)
CELERY_BEAT_SCHEDULE = {
    "sweep-battles": {"task": "battles.tasks.sweep_battles", "schedule": 30.0},
    "settle-campaign-battles": {
        "task": "campaign.tasks.settle_campaign_battles",
        "schedule": 30.0,
    },
    "delete-stale-records": {"task": "campaign.tasks.delete_stale_records", "schedule": 3600.0},
}
