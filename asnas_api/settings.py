"""Settings for asnas-api, read from the environment (documented in .env.example)."""

import ipaddress
import os
import secrets
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from asnas_api.datadir import BASE_DIR, data_dir


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    return value in {"1", "true", "yes", "on"} if value else default


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DATA_DIR = data_dir()


def install_secret_key(path: Path) -> str:
    """This installation's own random key, made on first use and kept in DATA_DIR, so that
    no two installations share a key and none is written in the code.

    A fresh installation's processes start together (serve's supervisor, its preparation and
    its workers) and each may make the key. The key is written whole to a file of its own
    (0600) and then linked in under its name, which fails if another process's key is there
    first: so no process reads a key file half written (it once read an empty one and was
    refused as weak), and all keep the first key."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        descriptor, draft = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
        try:
            with os.fdopen(descriptor, "w") as key_file:
                key_file.write(secrets.token_urlsafe(50))
            os.link(draft, path)
        except FileExistsError:
            pass  # another process's key came first: it is the key
        finally:
            os.unlink(draft)
    return path.read_text().strip()


SECRET_KEY = os.environ.get("SECRET_KEY") or install_secret_key(DATA_DIR / "secret_key")
DEBUG = env_bool("DEBUG", default=False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")

# Security headers on every response; Django's defaults already send nosniff and
# Referrer-Policy: same-origin. X-Frame-Options: DENY comes from its middleware.
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_AGE = 8 * 60 * 60  # an admin session lasts a working day
# Behind a TLS-terminating proxy (which must set X-Forwarded-Proto), turn on HTTPS only.
ASNAS_HTTPS = env_bool("ASNAS_HTTPS", default=False)
if ASNAS_HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]  # probes from inside may be plain HTTP
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 60 * 60)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
# Joining the browsers' HSTS preload list is the operator's own, hard-to-undo decision.
SILENCED_SYSTEM_CHECKS = ["security.W021"]

# Clients may fix a match's random seed (replayable deals) only in development and tests.
ASNAS_ALLOW_CLIENT_SEED = env_bool("ASNAS_ALLOW_CLIENT_SEED", default=DEBUG)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "asnas_api",
    "games",
    "players",
    "bench",  # for `manage.py bench` only: no models, no URLs
]

MIDDLEWARE = [
    # Outermost, so that preflights and every answer, even WhiteNoise's or a redirect, carry CORS.
    "corsheaders.middleware.CorsMiddleware",
    # A streamed answer gives its database connection back before its body streams.
    "asnas_api.middleware.StreamedResponseMiddleware",
    # Then every answer gets its request id and is logged; under /api/ every error is a
    # problem body, whichever layer below made it.
    "asnas_api.middleware.RequestEdgeMiddleware",
    "asnas_api.middleware.RequestBodyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "asnas_api.metrics.MetricsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "asnas_api.gate.RateLimitMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Innermost, and sync only: under ASGI Django then runs the whole chain in its thread in
    # one go instead of hopping between the thread and the event loop for every middleware.
    "asnas_api.deadline.DeadlineMiddleware",
]
# `manage.py bench` asks its server for per-request costs and serves it its floors (both in
# asnas_api/bench_metrics.py); otherwise neither is loaded.
ASNAS_BENCH_METRICS = env_bool("ASNAS_BENCH_METRICS", default=False)
if ASNAS_BENCH_METRICS:
    MIDDLEWARE.insert(0, "asnas_api.bench_metrics.BenchMetricsMiddleware")

ROOT_URLCONF = "asnas_api.urls"
WSGI_APPLICATION = "asnas_api.wsgi.application"
ASGI_APPLICATION = "asnas_api.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
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

# Without DATABASE_URL, the embedded Postgres whose data lives in DATA_DIR: nothing starts
# here; its backend (asnas_api.embedded_backend) starts it, or attaches to the running one, at
# this process's first connection, so a command that never connects (`play --url`) never
# starts it. serve starts it itself and hands its URL to its children (asnas_api.supervisor).
DATABASE_URL = os.environ.get("DATABASE_URL")

# The database may fail; a request must still answer in bounded time (docs/deployment.md).
# Postgres enforces the statement and lock timeouts; a stopped or hung server cannot, so
# asnas_api.deadline drops a request's connection once ASNAS_REQUEST_DEADLINE has passed.
ASNAS_DB_CONNECT_TIMEOUT = int(os.environ.get("ASNAS_DB_CONNECT_TIMEOUT", "3"))
ASNAS_DB_STATEMENT_TIMEOUT_MS = int(os.environ.get("ASNAS_DB_STATEMENT_TIMEOUT_MS", "4000"))
ASNAS_DB_LOCK_TIMEOUT_MS = int(os.environ.get("ASNAS_DB_LOCK_TIMEOUT_MS", "2000"))
ASNAS_REQUEST_DEADLINE = float(os.environ.get("ASNAS_REQUEST_DEADLINE", "5"))
# Served under ASGI, so no persistent connections (Django's advice) but psycopg's pool, one
# per worker process; a request waits at most `timeout` for a connection.
# No health check when a request takes a connection (CONN_HEALTH_CHECKS makes the pool send
# one round trip more each time): a connection that died fails its first query, which answers
# 503 database_unavailable, and the pool then discards it.
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL or "postgresql://postgres:@/postgres",
        conn_max_age=0,
        conn_health_checks=False,
        engine=None if DATABASE_URL else "asnas_api.embedded_backend",
    )
}
DATABASES["default"].setdefault("OPTIONS", {}).update(
    {
        "connect_timeout": ASNAS_DB_CONNECT_TIMEOUT,
        "options": f"-c statement_timeout={ASNAS_DB_STATEMENT_TIMEOUT_MS}"
        f" -c lock_timeout={ASNAS_DB_LOCK_TIMEOUT_MS}",
        "pool": {
            "min_size": int(os.environ.get("ASNAS_DB_POOL_MIN", "1")),
            "max_size": int(os.environ.get("ASNAS_DB_POOL_MAX", "16")),
            "timeout": float(os.environ.get("ASNAS_DB_POOL_TIMEOUT", "2")),
        },
    }
)
# Values sent apart from the SQL, and a statement run often prepared once per connection
# (psycopg's default threshold of 5 runs), so Postgres parses and plans each hot statement
# once rather than on every request.
#
# ASNAS_DB_POOLER=transaction: DATABASE_URL names PgBouncer in transaction mode, where each
# transaction may run on another server connection (docs/scaling.md). Nothing may outlive a
# transaction there: no prepared statements (PgBouncer 1.18 cannot carry them over), no
# server-side cursors, no startup `options` (PgBouncer refuses them), so asnas_api.pooler sets
# the timeouts with SET LOCAL in each transaction instead.
ASNAS_DB_POOLER = os.environ.get("ASNAS_DB_POOLER", "")
if ASNAS_DB_POOLER not in ("", "transaction"):
    raise ImproperlyConfigured(f"ASNAS_DB_POOLER is '' or 'transaction', not {ASNAS_DB_POOLER!r}")
ASNAS_DB_PREPARED_STATEMENTS = env_bool("ASNAS_DB_PREPARED_STATEMENTS", default=not ASNAS_DB_POOLER)
if ASNAS_DB_PREPARED_STATEMENTS and ASNAS_DB_POOLER:
    raise ImproperlyConfigured(
        "ASNAS_DB_PREPARED_STATEMENTS=1 cannot work behind a transaction pooler"
    )
if ASNAS_DB_PREPARED_STATEMENTS:
    DATABASES["default"]["OPTIONS"].update(server_side_binding=True, prepare_threshold=5)
if ASNAS_DB_POOLER:
    del DATABASES["default"]["OPTIONS"]["options"]
    DATABASES["default"]["OPTIONS"]["prepare_threshold"] = None
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Event streams and long-polls (docs/streams.md). Each process keeps one LISTEN connection,
# which must go straight to Postgres, never through a transaction pooler (PgBouncer in
# transaction mode drops a LISTEN between transactions). Unset: the database above.
ASNAS_LISTEN_DATABASE_URL = os.environ.get("ASNAS_LISTEN_DATABASE_URL") or None
# An open stream sends a comment at least this often, so proxies and clients see it alive.
ASNAS_STREAM_HEARTBEAT_SECONDS = float(os.environ.get("ASNAS_STREAM_HEARTBEAT_SECONDS", "15"))
# Open watch streams (spectators, docs/spectators.md) each of a match, of a client address and
# of a server process may have; past one, 429 with Retry-After.
ASNAS_WATCH_STREAMS_PER_MATCH = int(os.environ.get("ASNAS_WATCH_STREAMS_PER_MATCH", "100"))
ASNAS_WATCH_STREAMS_PER_ADDRESS = int(os.environ.get("ASNAS_WATCH_STREAMS_PER_ADDRESS", "8"))
ASNAS_WATCH_STREAMS_PER_PROCESS = int(os.environ.get("ASNAS_WATCH_STREAMS_PER_PROCESS", "500"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# Dates and times to the second, e.g. in the admin (asnas_api/formats/en/formats.py).
FORMAT_MODULE_PATH = "asnas_api.formats"

# WhiteNoise serves the apps' static files (admin, Swagger UI, Redoc) straight from the
# finders, so the docs work offline with no collectstatic step.
STATIC_URL = "static/"
WHITENOISE_USE_FINDERS = True
# The browser table (table/, plain files) is served at the site's root: / is its index.html.
WHITENOISE_ROOT = BASE_DIR / "table"
WHITENOISE_INDEX_FILE = True

# Django logs request errors to the console only under DEBUG; a server should always show them.
# The access log is one JSON object a line on stdout (asnas_api.middleware).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "bare": {"format": "%(message)s"},
        "one_line": {"()": "asnas_api.logs.OneLine"},
    },
    "filters": {"below_error": {"()": "asnas_api.logs.BelowError"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "one_line": {"class": "logging.StreamHandler", "formatter": "one_line"},
        "one_line_below_error": {
            "class": "logging.StreamHandler",
            "formatter": "one_line",
            "filters": ["below_error"],
        },
        "errors": {"class": "logging.StreamHandler", "level": "ERROR"},
        "access": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "bare",
        },
    },
    "loggers": {
        # Requests refused as suspicious (a Host not in ALLOWED_HOSTS...): one line each.
        "django.security": {"handlers": ["one_line"], "level": "WARNING", "propagate": False},
        # A request answered 4xx (a bad admin parameter): one line; a 500 keeps its traceback.
        "django.request": {
            "handlers": ["one_line_below_error", "errors"],
            "level": "WARNING",
            "propagate": False,
        },
        "asnas_api.access": {
            "handlers": ["access"],
            "level": "INFO" if env_bool("ASNAS_ACCESS_LOG", default=True) else "WARNING",
            "propagate": False,
        },
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# Browsers on other origins (a table served elsewhere) may call the API. The API authenticates
# with bearer tokens, never cookies, so credentials are never allowed, which makes `*` safe.
ASNAS_CORS_ORIGINS = env_list("ASNAS_CORS_ORIGINS", "")
CORS_ALLOW_ALL_ORIGINS = ASNAS_CORS_ORIGINS == ["*"]
CORS_ALLOWED_ORIGINS = [] if CORS_ALLOW_ALL_ORIGINS else ASNAS_CORS_ORIGINS
CORS_ALLOW_CREDENTIALS = False
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOW_HEADERS = ["authorization", "content-type", "idempotency-key", "watch-code"]
CORS_EXPOSE_HEADERS = [
    "RateLimit",
    "RateLimit-Policy",
    "Retry-After",
    "X-Request-ID",
    "Idempotent-Replayed",
    # A page on another origin counts turn clocks down by the server's time, not its own.
    "Date",
]

# /metrics answers only clients on this machine unless this is on (docs/deployment.md).
ASNAS_METRICS_PUBLIC = env_bool("ASNAS_METRICS_PUBLIC", default=False)

# Every request body of the API is a few small fields.
ASNAS_MAX_BODY_BYTES = int(os.environ.get("ASNAS_MAX_BODY_BYTES", "16384"))
DATA_UPLOAD_MAX_MEMORY_SIZE = ASNAS_MAX_BODY_BYTES * 64  # the admin's forms

# X-Forwarded-For counts only behind proxies the operator names (edge.client_address):
# their number in front of the service, or their networks.
ASNAS_NUM_PROXIES = int(os.environ.get("ASNAS_NUM_PROXIES", "0"))
ASNAS_TRUSTED_PROXIES = [
    ipaddress.ip_network(network) for network in env_list("ASNAS_TRUSTED_PROXIES", "")
]
# Expired rate counters, idempotency keys, tickets and commitments are deleted this often by
# the turn clock (asnas_api.clock), never in a request.
ASNAS_PURGE_INTERVAL_SECONDS = int(os.environ.get("ASNAS_PURGE_INTERVAL_SECONDS", "300"))
# The turn clock (asnas_api/clock.py, run by serve): how often it looks for turns that ran out,
# how long past a deadline it leaves a human's last-moment request to arrive first, and how
# long after a deal of a clocked match ends the next one starts by itself.
ASNAS_CLOCK_POLL_SECONDS = float(os.environ.get("ASNAS_CLOCK_POLL_SECONDS", "0.5"))
ASNAS_CLOCK_GRACE_SECONDS = float(os.environ.get("ASNAS_CLOCK_GRACE_SECONDS", "0.5"))
ASNAS_NEXT_DEAL_SECONDS = float(os.environ.get("ASNAS_NEXT_DEAL_SECONDS", "5"))

# Hints (games/coaching/cache.py): how many a worker process computes at once (the rest answer 503
# hints_busy; its one interpreter runs one at a time anyway), and how many of the coach's
# answers it keeps for every match to share (about 1.5 KB each: 15 MB a worker at 10,000).
ASNAS_HINTS_AT_ONCE = int(os.environ.get("ASNAS_HINTS_AT_ONCE", "1"))
ASNAS_HINT_CACHE_SIZE = int(os.environ.get("ASNAS_HINT_CACHE_SIZE", "10000"))

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": ["asnas_api.gate.BearerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "EXCEPTION_HANDLER": "asnas_api.errors.exception_handler",
    "DEFAULT_METADATA_CLASS": "edge.metadata.RouteMetadata",
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "edge.metadata.OptionsInJson",
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_THROTTLE_CLASSES": ["asnas_api.gate.RateLimit"],
    "DEFAULT_THROTTLE_RATES": {
        "token": os.environ.get("ASNAS_RATE_TOKEN", "1200/min"),
        "ip": os.environ.get("ASNAS_RATE_IP", "2400/min"),
        "player_create": os.environ.get("ASNAS_RATE_PLAYER_CREATE", "20/hour"),
        "match_create": os.environ.get("ASNAS_RATE_MATCH_CREATE", "60/hour"),
        # A hint costs up to a third of a second of CPU (docs/ai.md), a view a millisecond.
        "hint": os.environ.get("ASNAS_RATE_HINT", "60/min"),
        # Per address too: otherwise ten players made from one address get ten budgets.
        "hint_address": os.environ.get("ASNAS_RATE_HINT_ADDRESS", "120/min"),
        # A bot's, in place of token and match_create (docs/bots.md): a program plays many
        # matches, quickly; its address's limit (ip) still holds.
        "bot_token": os.environ.get("ASNAS_RATE_BOT_TOKEN", "2400/min"),
        "bot_match_create": os.environ.get("ASNAS_RATE_BOT_MATCH_CREATE", "1200/hour"),
    },
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["asnas_api.parsers.LimitedJSONParser"],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "asnas-api",
    # The overview (game flow, rules, auth, idempotency, rate limits, pagination) that the
    # docs pages show first.
    "DESCRIPTION": (BASE_DIR / "docs" / "api.md").read_text(),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # The enums' values are listed in the schema already; a generated "* `x` - x" list per
    # enum only repeats them. What each field means is in its own description.
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "edge.schema.add_common_responses",
        "edge.schema.describe_fields",
        "games.http.examples.add_success_examples",
        "edge.schema.declare_response_headers",
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    # One named enum per choice set that several fields share.
    "ENUM_NAME_OVERRIDES": {
        "Rank": "games.engine.cards.RANKS",
        "HandCategory": "games.engine.hands.CATEGORIES",
        "ActionName": "games.http.fields.ACTION_NAMES",
        "MatchStatus": "games.http.fields.MATCH_STATUSES",
        "AiLevel": "games.ai.AI_LEVELS",
        "SeatKind": "games.http.fields.SEAT_KINDS",
        "DealOutcome": "games.http.fields.DEAL_OUTCOMES",
        "Spectators": "games.http.fields.SPECTATOR_MODES",
        "SpectatorMatchStatus": "games.http.fields.SPECTATOR_STATUSES",
        "ReviewBasis": "games.http.review.BASES",
        "ReviewGrade": "games.http.review.GRADE_NAMES",
        # The levels whose play is a fixed strategy (expert's adapts): a review values the
        # opponents against one of them, and a tournament is played at one. One choice set
        # takes one name.
        "FixedAiLevel": "games.tournaments.commands.TOURNAMENT_LEVELS",
        "TournamentPhase": "games.http.tournaments.PHASES",
    },
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The online validator badge would call validator.swagger.io; the docs must stay offline.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}
