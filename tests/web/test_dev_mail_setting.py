"""/dev/mail (read the local sink, reply with any From and To over SMTP) is
served only when ``PBEM_DEV_MAIL`` is on, as ``pbem demo`` sets it
(tests/service/test_cli.py); a production setup with a local Postfix on
the loopback address and a ``mail`` folder in its instance never serves it."""
from __future__ import annotations

import pytest

from pbem.config import load_config

from .conftest import app_with_schema, make_app


@pytest.fixture
def instance(tmp_path, monkeypatch):
    monkeypatch.delenv("PBEM_DEV_MAIL", raising=False)
    (tmp_path / "instance" / "mail").mkdir(parents=True)  # what the old rule looked for
    return tmp_path


@pytest.mark.parametrize("smtp_host", ["127.0.0.1", "localhost", "::1"])
def test_loopback_smtp_and_a_mail_folder_do_not_turn_dev_mail_on(instance, service_database_url, monkeypatch,
                                                                  smtp_host):
    monkeypatch.setenv("PBEM_SMTP_HOST", smtp_host)
    monkeypatch.setenv("PBEM_SMTP_PORT", "25")
    # the production settings as load_config reads them, not the test defaults
    config = {k: v for k, v in load_config(instance / "instance").items() if k in ("SMTP_HOST", "SMTP_PORT")}
    assert config == {"SMTP_HOST": smtp_host, "SMTP_PORT": 25}
    for app in app_with_schema(make_app(instance, service_database_url, **config)):
        client = app.test_client()
        for path in ("/dev/mail/", "/dev/mail/x", "/dev/mail/x/reply"):
            assert client.get(path).status_code == 404, path
        assert client.post("/dev/mail/x/reply", data={"from": "a@b.c", "to": "d@e.f"}).status_code == 404
        assert not [r for r in app.url_map.iter_rules() if r.rule.startswith("/dev/mail")]


@pytest.mark.parametrize("value, served", [("on", True), ("1", True), ("off", False), ("", False)])
def test_pbem_dev_mail_turns_it_on(instance, service_database_url, monkeypatch, value, served):
    monkeypatch.setenv("PBEM_DEV_MAIL", value)
    assert load_config(instance / "instance")["DEV_MAIL"] is served
    for app in app_with_schema(make_app(instance, service_database_url)):
        assert app.test_client().get("/dev/mail/").status_code == (200 if served else 404)
