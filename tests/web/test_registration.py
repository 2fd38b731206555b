"""Blueprints register from one list (pbem/web/__init__.py); a misspelt one
stops the app from starting instead of leaving its pages out."""
from __future__ import annotations

import pytest
from flask import Flask

import pbem.web as web
from pbem.web import BLUEPRINTS, register_blueprints


def test_every_listed_blueprint_registers():
    app = Flask("t")
    register_blueprints(app, BLUEPRINTS)
    assert len(app.blueprints) == len(BLUEPRINTS)


@pytest.mark.parametrize(("entry", "error"), [
    (("pbem.web.gamez", "bp"), ModuleNotFoundError),     # misspelt module
    (("pbem.web.games", "bpp"), ImportError),            # misspelt attribute
    (("pbem.web.games", "log"), ImportError),            # not a blueprint
])
def test_a_misspelt_blueprint_is_an_error(entry, error):
    with pytest.raises(error, match=entry[0].rsplit(".", 1)[-1]):
        register_blueprints(Flask("t"), [entry])


def test_create_app_fails_on_a_misspelt_blueprint(monkeypatch, tmp_path):
    monkeypatch.setattr(web, "BLUEPRINTS", [*BLUEPRINTS, ("pbem.web.dashbord", "bp")])
    with pytest.raises(ModuleNotFoundError, match="dashbord"):
        web.create_app({"INSTANCE_PATH": str(tmp_path), "TESTING": True, "SECRET_KEY": "t",
                        "SQLALCHEMY_DATABASE_URI": "sqlite://"})


def test_a_blueprint_listed_twice_is_an_error():
    with pytest.raises(ValueError):
        register_blueprints(Flask("t"), [("pbem.web.games", "bp"), ("pbem.web.games", "bp")])
