"""Configuration: defaults for a laptop, then instance/config.py, then the environment, then
what create_app is given; PostgreSQL URLs through psycopg 3; a secret key kept in instance/."""

from __future__ import annotations

import stat

import pytest
from flask import Flask
from tablebank import create_app
from tablebank.config import configure, database_setting, database_url, kept_secret


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("DATABASE_URL", "SECRET_KEY", "TABLEBANK_MAX_CONTENT_LENGTH"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def bare_app(instance) -> Flask:
    return Flask("configured", instance_path=str(instance))


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("postgres://u:p@db.example/tb", "postgresql+psycopg://u:p@db.example/tb"),
        ("postgresql://u:p@db.example:5433/tb", "postgresql+psycopg://u:p@db.example:5433/tb"),
        ("postgresql+psycopg://u@db/tb", "postgresql+psycopg://u@db/tb"),
        ("sqlite:////srv/tb.sqlite", "sqlite:////srv/tb.sqlite"),
    ],
)
def test_database_urls_are_mapped_to_the_psycopg_driver(given, used):
    assert database_url(given) == used


def test_the_embedded_defaults_need_no_setting(tmp_path, clean_env):
    app = bare_app(tmp_path / "instance")
    configure(app)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///tablebank.sqlite"
    key = app.config["SECRET_KEY"]
    assert len(key) == 64
    kept = tmp_path / "instance" / "secret_key"
    assert kept.read_text() == key
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # only the owner reads it
    again = bare_app(tmp_path / "instance")
    configure(again)
    assert again.config["SECRET_KEY"] == key  # made once, kept: sessions survive a restart


def test_instance_config_then_environment_then_overrides(tmp_path, clean_env):
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text(
        'DATABASE_URL = "postgres://file@db/tb"\nSECRET_KEY = "from-file"\n'
    )
    app = bare_app(instance)
    configure(app)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://file@db/tb"
    assert app.config["SECRET_KEY"] == "from-file"
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_timeout"] == 3  # DB_CONNECT_TIMEOUT
    assert not (instance / "secret_key").exists()  # a configured key needs no kept one

    clean_env.setenv("DATABASE_URL", "postgresql://env@db/tb")
    clean_env.setenv("SECRET_KEY", "from-env")
    clean_env.setenv("TABLEBANK_MAX_CONTENT_LENGTH", "1000")
    app = bare_app(instance)
    configure(app)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://env@db/tb"
    assert app.config["SECRET_KEY"] == "from-env"
    assert app.config["MAX_CONTENT_LENGTH"] == 1000

    app = bare_app(instance)
    configure(app, {"SQLALCHEMY_DATABASE_URI": "sqlite:///given.sqlite"})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///given.sqlite"


@pytest.mark.parametrize(
    ("in_file", "in_environment"),
    [
        ({}, {}),
        ({"DATABASE_URL": "postgres://file@db/tb"}, {}),
        ({"DATABASE_URL": "postgres://a@db/tb", "SQLALCHEMY_DATABASE_URI": "sqlite:///b"}, {}),
        ({"DATABASE_URL": "postgres://file@db/tb"}, {"TABLEBANK_DATABASE_URL": "sqlite:///p"}),
        ({}, {"TABLEBANK_SQLALCHEMY_DATABASE_URI": '"sqlite:///json.sqlite"'}),
        ({"DATABASE_URL": "sqlite:///f"}, {"TABLEBANK_DATABASE_URL": "x", "DATABASE_URL": "y"}),
    ],
)
def test_the_schema_check_names_the_database_the_app_uses(
    tmp_path, clean_env, in_file, in_environment
):
    """gunicorn's master checks the schema without Flask (config.database_setting): it must
    name the very database the workers will open, whichever layer sets it."""
    for name in ("TABLEBANK_DATABASE_URL", "TABLEBANK_SQLALCHEMY_DATABASE_URI"):
        clean_env.delenv(name, raising=False)
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("".join(f"{k} = {v!r}\n" for k, v in in_file.items()))
    for name, value in in_environment.items():
        clean_env.setenv(name, value)
    app = bare_app(instance)
    configure(app)
    assert database_setting(instance) == app.config["SQLALCHEMY_DATABASE_URI"]


def test_create_app_reads_database_url_from_the_environment(tmp_path, clean_env):
    clean_env.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    clean_env.setenv("TABLEBANK_INSTANCE", str(tmp_path / "instance"))  # not the checkout's
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'env.sqlite'}"
    assert (tmp_path / "env.sqlite").exists()  # and upgraded it to the newest schema


def test_a_secret_key_file_is_made_without_a_window_for_other_readers(tmp_path):
    key = kept_secret(tmp_path / "fresh")
    assert stat.S_IMODE((tmp_path / "fresh" / "secret_key").stat().st_mode) == 0o600
    assert kept_secret(tmp_path / "fresh") == key
