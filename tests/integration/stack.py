"""The real parts of the production stack for integration tests: a
``celery -A worker worker`` subprocess, a local SMTP server that can refuse
or be down, a private ``redis-server`` that can be stopped and restarted,
and waiting helpers. Everything here is started and stopped by the tests
themselves; the machine's shared PostgreSQL and Redis are never stopped.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from email import message_from_bytes, policy
from pathlib import Path
from typing import Callable

from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def wait_for(condition: Callable[[], object], timeout: float, what: str, every: float = 0.1):
    """Poll ``condition`` until it returns something truthy; return that.
    Fails the test after ``timeout`` seconds, naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(every)


# ---------------------------------------------------------------- SMTP server
class _Handler:
    def __init__(self) -> None:
        self.mode = "accept"  # or "refuse" (451 to every message)
        self.refusals: list[tuple[str, float]] = []  # (Message-ID, time.monotonic())
        self.messages: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope):
        if self.mode == "refuse":
            msg = message_from_bytes(envelope.original_content or envelope.content, policy=policy.default)
            self.refusals.append((str(msg["Message-ID"]), time.monotonic()))
            return "451 4.3.0 mailbox busy, try again later"
        self.messages.append((list(envelope.rcpt_tos), envelope.original_content or envelope.content))
        return "250 OK"


class SMTPServer:
    """A real SMTP server (aiosmtpd) on a fixed port that can be switched to
    refusing (``mode = "refuse"``), stopped and started again."""

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.handler = _Handler()
        self.controller: Controller | None = None

    @property
    def mode(self) -> str:
        return self.handler.mode

    @mode.setter
    def mode(self, value: str) -> None:
        self.handler.mode = value

    @property
    def running(self) -> bool:
        return self.controller is not None

    def start(self) -> "SMTPServer":
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def messages(self):
        """``(envelope recipients, parsed message)`` of every accepted message."""
        return [(rcpt, message_from_bytes(raw, policy=policy.default))
                for rcpt, raw in list(self.handler.messages)]

    def message_ids(self) -> list[str]:
        return [str(m["Message-ID"]) for _r, m in self.messages()]


# ---------------------------------------------------------------- Celery worker
class Worker:
    """One ``celery -A worker worker`` process (prefork pool) in its own
    process group, configured only through ``PBEM_*`` environment variables
    like in production, plus the test hooks module."""

    def __init__(self, env: dict[str, str], log_dir: Path, *, concurrency: int = 2):
        self.name = f"pbemtest-{uuid.uuid4().hex[:8]}"
        self.log_path = log_dir / f"{self.name}.log"
        self.env = env
        self.concurrency = concurrency
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> "Worker":
        cmd = [str(VENV_BIN / "celery"), "-A", "worker", "worker",
               "-I", "tests.integration.worker_hooks", "--loglevel", "INFO",
               "-P", "prefork", "-c", str(self.concurrency), "-n", f"{self.name}@%h",
               "--without-mingle", "--without-gossip", "--without-heartbeat"]
        self._log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        wait_for(lambda: self.proc.poll() is not None or b" ready." in self.log_path.read_bytes(),
                 timeout, f"worker {self.name} to be ready")
        if self.proc.poll() is not None:
            raise AssertionError(f"worker exited with {self.proc.returncode}:\n{self.log()}")
        return self

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the worker and its pool processes at once (a machine
        dying): no task gets to finish, nothing is acknowledged."""
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=10)
        self._wait_group_gone()
        self._log.close()

    def stop(self, timeout: float = 20) -> None:
        """Warm shutdown (SIGTERM); SIGKILL when it takes too long."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def _wait_group_gone(self) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(self.proc.pid, 0)
            except ProcessLookupError:
                return
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                return
            time.sleep(0.05)


# ---------------------------------------------------------------- private Redis
class PrivateRedis:
    """A ``redis-server`` of the test's own on a spare port (no persistence),
    which the test may stop and restart on the same port."""

    def __init__(self, directory: Path):
        exe = shutil.which("redis-server")
        if exe is None:
            raise RuntimeError("redis-server is not installed")
        self.exe = exe
        self.port = free_port()
        self.dir = directory
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "PrivateRedis":
        self.proc = subprocess.Popen(
            [self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir), "--daemonize", "no"],
            stdout=open(self.dir / "redis.log", "ab"), stderr=subprocess.STDOUT,
            start_new_session=True)
        wait_for(lambda: port_open(self.port), 10, f"redis-server on port {self.port}")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()  # abrupt, like a crash; no persistence, so queued messages are lost
            self.proc.wait(timeout=10)
        self.proc = None
