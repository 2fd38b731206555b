"""Configuration from environment variables, with embedded defaults.

Every setting has a default that runs the whole service on one machine
(SQLite in the instance folder, a SQLite Celery broker, the local SMTP sink
on port 8025). Production sets the ``PBEM_*`` variables (see README.md):

=========================  ==================================================
``PBEM_DATABASE_URL``      SQLAlchemy URL; default ``sqlite:///<instance>/pbem.sqlite`` (WAL)
``PBEM_BROKER_URL``        Celery broker; default ``sqla+sqlite:///<instance>/broker.sqlite``
``PBEM_RESULT_BACKEND``    Celery result backend; default none (results are in the database)
``PBEM_SMTP_HOST``         default ``127.0.0.1``
``PBEM_SMTP_PORT``         default ``8025`` (the local sink)
``PBEM_SMTP_USER``         default empty (no login)
``PBEM_SMTP_PASSWORD``     default empty
``PBEM_SMTP_TLS``          ``off`` | ``starttls`` | ``ssl``; default ``off``
``PBEM_MAIL_FROM``         default ``pbem <pbem@localhost>``
``PBEM_INBOUND_ADDRESS``   reply addresses are built on it (``pbem+<token>@host``);
                           default ``pbem@localhost``
``PBEM_SECRET_KEY``        signs cookies, sign-in links and reply addresses; default:
                           a random key kept in ``<instance>/secret_key``
``PBEM_SECRET_KEY_FALLBACKS``  older keys, comma-separated, newest first; cookies, sign-in links
                           and reply addresses signed with one are still accepted (new ones
                           are signed with ``PBEM_SECRET_KEY``); default none
``PBEM_BASE_URL``          absolute URL of the site for links in mail; default ``http://localhost:5000``
``PBEM_DEADLINE_HOURS``    turn deadline, hours (float); default 48
``PBEM_REMINDER_HOURS``    reminder this many hours before the deadline; default 12
``PBEM_OUTBOX_BACKOFF``    first retry delay of a failed email, seconds; doubles per attempt; default 30
``PBEM_OUTBOX_MAX_ATTEMPTS``  give up (status ``failed``) after this many; default 12
``PBEM_OUTBOX_RETENTION_DAYS``  days a sent email keeps its bytes in the outbox (the row and its
                           dedupe key stay); superseded rows are deleted then, failed ones
                           keep their bytes twice as long; ``0`` keeps all; default 30
``PBEM_TIMEZONE``          default time zone of new games and players; default ``UTC``
``PBEM_RATELIMIT_STORAGE_URI``  where the pages' rate-limit counts live (sign-in; inbound mail counts in the database), shared by
                           every process: default the broker URL when it is Redis, else ``memory://``
``PBEM_INBOUND_RATE_LIMIT``  inbound mails read per sender address; default
                           ``10 per minute; 60 per hour`` (more are dropped unanswered)
``PBEM_INBOUND_REQUIRE_AUTH``  ``on``: a reply counts only when our mail server's
                           ``Authentication-Results`` (from ``PBEM_INBOUND_AUTHSERV_ID``) say
                           DMARC or SPF passed for its From domain; default ``off``
``PBEM_INBOUND_AUTHSERV_ID``  the authserv-id(s) our receiving mail server writes in
                           ``Authentication-Results``, comma-separated; required with
                           ``PBEM_INBOUND_REQUIRE_AUTH``
``PBEM_UNKNOWN_MAIL_ANSWER_LIMIT``  answers to mail that came through no reply address,
                           counted over all senders together; default ``20 per hour; 100 per day``
``PBEM_RESOLVE_IN_REQUEST``  ``on`` (default): the request (web form or inbound mail) whose
                           orders complete a turn resolves it in its own transaction;
                           ``off``: a worker task does (slow engines, very short requests)
``PBEM_BOT_SECONDS``       CPU seconds a bot spends on one decision (issue 27); default 2
``PBEM_NOTICE_GRACE``      seconds a turn notice waits when its seat plays live (sent orders
                           from the web page within ``PBEM_LIVE_WINDOW``): a move made on the
                           page meanwhile supersedes it, so live play sends no mail; ``0`` sends
                           every notice at once; default 120
``PBEM_HOST_NOTICE_DELAY_SECONDS``  seconds a host notice (pause, resume, extend) waits for
                           more host actions of the same game, which it then tells in one mail
                           per seat; ``0`` sends each at once; a cancellation never waits;
                           default 60
``PBEM_LIVE_WINDOW``       seconds since a seat's last orders from the web page during which
                           it counts as playing live; default 900
``PBEM_DB_POOL_SIZE``      database connections each process keeps open (PostgreSQL);
                           default ``PBEM_WEB_THREADS`` (2) or 5, whichever is more: one
                           per web thread, so no request opens and closes its own
``PBEM_TASK_QUEUE``        Celery queue the tasks go to and workers read; default ``celery``
                           (two deployments sharing one Redis need different names)
``PBEM_SESSION_DAYS``      days a sign-in lasts on a device after its last visit; default 30
``PBEM_DEV_MAIL``          ``on``: serve ``/dev/mail`` (read the local sink's mail, send
                           replies from the browser); for ``pbem demo``, which sets it;
                           default ``off``
=========================  ==================================================
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any, Mapping


def _bool(value: str) -> bool:
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _positive(value: str, name: str) -> float:
    """``value`` as a number of seconds above 0 and at most an hour; ``ValueError`` naming ``name``."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 3600:
        raise ValueError(f"{name} must be a number of seconds above 0 and at most 3600, not {value!r}")
    return seconds


def _secret_key(instance: Path) -> str:
    """A random key kept in the instance folder, so sign-in links survive a
    restart of the demo without anyone having to set PBEM_SECRET_KEY."""
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(48)
        instance.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(key)
        return key
    

def _engine_options(database_url: str, get) -> dict:
    """SQLAlchemy engine options. PostgreSQL: a pool of ``PBEM_DB_POOL_SIZE``
    connections per process; more threads than pooled connections would
    open and close a connection (a new server process) for every request
    beyond the pool."""
    options: dict = {"pool_pre_ping": True}
    if not database_url.startswith("sqlite"):
        threads = int(get("WEB_THREADS", "2"))
        options["pool_size"] = int(get("DB_POOL_SIZE", str(max(5, threads))))
    return options


#: default of ``PBEM_HOST_NOTICE_DELAY_SECONDS`` (:mod:`pbem.service.post.host_notice`)
HOST_NOTICE_DELAY_SECONDS = 60


def load_config(instance_path: str | os.PathLike[str], environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The Flask config dict: ``PBEM_*`` environment variables over the
    embedded defaults. ``instance_path`` is the folder for the SQLite files
    and the generated secret key (created when missing)."""
    env = os.environ if environ is None else environ
    instance = Path(instance_path)
    instance.mkdir(parents=True, exist_ok=True)

    def get(name: str, default: str) -> str:
        value = env.get("PBEM_" + name)
        return default if value is None or value == "" else value

    database_url = get("DATABASE_URL", f"sqlite:///{instance / 'pbem.sqlite'}")
    # Heroku-style URLs say postgres://; SQLAlchemy wants the driver named.
    if database_url.startswith("postgres://"):
        database_url = "postgresql+psycopg://" + database_url[len("postgres://"):]
    elif database_url.startswith("postgresql://"):
        database_url = "postgresql+psycopg://" + database_url[len("postgresql://"):]
    tls = get("SMTP_TLS", "off").lower()
    if tls in {"1", "true", "yes", "on"}:
        tls = "starttls"
    if tls not in {"off", "starttls", "ssl", "0", "false", "no"}:
        raise ValueError(f"PBEM_SMTP_TLS must be off, starttls or ssl, not {tls!r}")
    if tls in {"0", "false", "no"}:
        tls = "off"
    secret = env.get("PBEM_SECRET_KEY") or _secret_key(instance)
    broker_url = get("BROKER_URL", f"sqla+sqlite:///{instance / 'broker.sqlite'}")
    require_auth = _bool(get("INBOUND_REQUIRE_AUTH", "off"))
    authserv_ids = [a.strip().lower() for a in get("INBOUND_AUTHSERV_ID", "").split(",") if a.strip()]
    if require_auth and not authserv_ids:
        raise ValueError("PBEM_INBOUND_REQUIRE_AUTH is on but PBEM_INBOUND_AUTHSERV_ID is empty: set it to the "
                         "authserv-id your mail server writes in Authentication-Results (e.g. mx.example.org)")
    host_delay = get("HOST_NOTICE_DELAY_SECONDS", str(HOST_NOTICE_DELAY_SECONDS))
    try:
        host_delay_seconds = float(host_delay)
    except ValueError:
        host_delay_seconds = -1.0
    if not 0 <= host_delay_seconds <= 86400:
        raise ValueError(f"PBEM_HOST_NOTICE_DELAY_SECONDS must be a number of seconds from 0 to 86400, "
                         f"not {host_delay!r}")
    return {
        "SECRET_KEY": secret,
        # Flask's session reads SECRET_KEY_FALLBACKS; pbem.service passes it on for links and replies
        "SECRET_KEY_FALLBACKS": [k.strip() for k in env.get("PBEM_SECRET_KEY_FALLBACKS", "").split(",")
                                 if k.strip()],
        "SQLALCHEMY_DATABASE_URI": database_url,
        "SQLALCHEMY_ENGINE_OPTIONS": _engine_options(database_url, get),
        "BROKER_URL": broker_url,
        "RATELIMIT_STORAGE_URI": get("RATELIMIT_STORAGE_URI", broker_url if broker_url.startswith(
            ("redis://", "rediss://")) else "memory://"),
        "INBOUND_RATE_LIMIT": get("INBOUND_RATE_LIMIT", "10 per minute; 60 per hour"),
        "INBOUND_REQUIRE_AUTH": require_auth,
        "INBOUND_AUTHSERV_IDS": authserv_ids,
        "UNKNOWN_MAIL_ANSWER_LIMIT": get("UNKNOWN_MAIL_ANSWER_LIMIT", "20 per hour; 100 per day"),
        # the public API, per token and per client address (docs/api.md; issue 28)
        "API_RATE_LIMIT": get("API_RATE_LIMIT", "120 per minute; 3000 per hour"),
        "API_ORDER_LIMIT": get("API_ORDER_LIMIT", "30 per minute; 600 per hour"),
        "API_REFUSED_LIMIT": get("API_REFUSED_LIMIT", "30 per minute; 300 per hour"),
        "RESULT_BACKEND": get("RESULT_BACKEND", "") or None,
        "SMTP_HOST": get("SMTP_HOST", "127.0.0.1"),
        "SMTP_PORT": int(get("SMTP_PORT", "8025")),
        "SMTP_USER": get("SMTP_USER", ""),
        "SMTP_PASSWORD": get("SMTP_PASSWORD", ""),
        "SMTP_TLS": tls,
        "MAIL_FROM": get("MAIL_FROM", "pbem <pbem@localhost>"),
        "INBOUND_ADDRESS": get("INBOUND_ADDRESS", "pbem@localhost"),
        "BASE_URL": get("BASE_URL", "http://localhost:5000").rstrip("/"),
        "DEADLINE_SECONDS": int(float(get("DEADLINE_HOURS", "48")) * 3600),
        "REMINDER_SECONDS": int(float(get("REMINDER_HOURS", "12")) * 3600),
        "OUTBOX_BACKOFF_SECONDS": float(get("OUTBOX_BACKOFF", "30")),
        "OUTBOX_MAX_ATTEMPTS": int(get("OUTBOX_MAX_ATTEMPTS", "12")),
        "OUTBOX_RETENTION_DAYS": float(get("OUTBOX_RETENTION_DAYS", "30")),
        "DEFAULT_TIMEZONE": get("TIMEZONE", "UTC"),
        "TASK_QUEUE": get("TASK_QUEUE", "celery"),
        "RESOLVE_IN_REQUEST": _bool(get("RESOLVE_IN_REQUEST", "on")),
        # CPU seconds a bot spends on one decision (issue 27, pbem.service.play.bot_turns)
        "BOT_SECONDS": _positive(get("BOT_SECONDS", "2"), "PBEM_BOT_SECONDS"),
        "NOTICE_GRACE_SECONDS": float(get("NOTICE_GRACE", "120")),
        "LIVE_WINDOW_SECONDS": float(get("LIVE_WINDOW", "900")),
        "HOST_NOTICE_DELAY_SECONDS": host_delay_seconds,
        "SESSION_DAYS": float(get("SESSION_DAYS", "30")),
        # /dev/mail: only when asked for (pbem demo); its reply form sends any From/To over SMTP
        "DEV_MAIL": _bool(get("DEV_MAIL", "off")),
        # where the local SMTP sink (demo) keeps mail; the /dev/mail page reads it
        "MAIL_SINK_DIR": get("MAIL_SINK_DIR", str(instance / "mail")),
        # Celery runs tasks in its own worker unless a test or the demo says otherwise.
        "CELERY_EAGER": _bool(get("CELERY_EAGER", "0")),
    }
