"""The developer pages show every mail, sign-in links included: they answer only a browser
on this machine, only while mail goes to the outbox, and no server that others can reach
starts with them on unless the operator says so (issue 14, item 1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from service.cli import cli
from service.plumbing import database
from service.plumbing.config import bind_host, dev_pages_bind_problem, is_loopback_host, load_config

ROOT = Path(__file__).resolve().parents[2]


def test_the_outbox_answers_a_browser_on_this_machine(client):
    assert client.get("/dev/outbox").status_code == 200
    assert b"/dev/outbox" in client.get("/").data
    assert client.get("/dev/outbox", environ_base={"REMOTE_ADDR": "::1"}).status_code == 200


@pytest.mark.parametrize("address", ["203.0.113.9", "10.0.0.2", "2001:db8::1", ""])
def test_the_outbox_is_not_there_for_anyone_else(client, address):
    assert client.get("/dev/outbox", environ_base={"REMOTE_ADDR": address}).status_code == 404
    assert b"/dev/outbox" not in client.get("/", environ_base={"REMOTE_ADDR": address}).data
    assert client.get("/dev/outbox/20250101T000000-1.eml", environ_base={"REMOTE_ADDR": address}).status_code == 404


@pytest.mark.parametrize("header", ["X-Forwarded-For", "Forwarded", "X-Real-IP", "X-Forwarded-Host"])
def test_a_request_through_a_proxy_on_this_machine_is_refused(client, header):
    assert client.get("/dev/outbox", headers={header: "203.0.113.9"}).status_code == 404


def test_the_outbox_is_off_while_mail_goes_out_by_smtp(config_overrides, clean_database):
    from service.app import create_app

    app = create_app({**config_overrides, "mail_backend": "smtp"})
    try:
        assert app.test_client().get("/dev/outbox").status_code == 404
        assert b"/dev/outbox" not in app.test_client().get("/").data
    finally:
        database.dispose(app)


@pytest.mark.parametrize("host, loopback", [
    ("127.0.0.1", True), ("127.5.6.7", True), ("::1", True), ("[::1]", True), ("localhost", True),
    ("0.0.0.0", False), ("::", False), ("", False), ("192.168.1.4", False), ("example.org", False),
    ("unix:/run/capua.sock", False),
])
def test_loopback_hosts(host, loopback):
    assert is_loopback_host(host) is loopback


@pytest.mark.parametrize("bind, host", [("0.0.0.0:8000", "0.0.0.0"), ("127.0.0.1:5000", "127.0.0.1"),
                                        ("[::1]:80", "::1"), ("localhost", "localhost"),
                                        ("unix:/run/x.sock", "unix:/run/x.sock")])
def test_gunicorn_bind_hosts(bind, host):
    assert bind_host(bind) == host


def _settings(tmp_path, **overrides):
    return load_config({"instance_dir": str(tmp_path), "secret_key": "k", **overrides}, environ={})


def test_a_public_bind_with_dev_pages_is_refused_unless_the_operator_says_so(tmp_path):
    assert "CAPUA_DEV_PAGES_PUBLIC=1" in dev_pages_bind_problem(_settings(tmp_path), ["0.0.0.0"])
    assert dev_pages_bind_problem(_settings(tmp_path), ["127.0.0.1", "::1"]) is None
    assert dev_pages_bind_problem(_settings(tmp_path, dev_pages_public="1"), ["0.0.0.0"]) is None
    assert dev_pages_bind_problem(_settings(tmp_path, dev_pages="0"), ["0.0.0.0"]) is None
    assert dev_pages_bind_problem(_settings(tmp_path, mail_backend="smtp"), ["0.0.0.0"]) is None


def _env(tmp_path, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAPUA_")}
    env.update({"CAPUA_INSTANCE_DIR": str(tmp_path / "instance"), "CAPUA_SECRET_KEY": "k",
                "CAPUA_DATABASE_URL": f"sqlite:///{tmp_path}/never-created.sqlite3"}, **extra)
    return env


def test_capua_serve_refuses_a_public_bind_with_dev_pages(tmp_path):
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--port", "1"], env=_env(tmp_path))
    assert result.exit_code == 1
    assert "refusing to listen on 0.0.0.0" in result.output and "CAPUA_DEV_PAGES_PUBLIC" in result.output
    assert not (tmp_path / "never-created.sqlite3").exists(), "nothing happened before the refusal"


def test_gunicorn_with_the_procfile_settings_refuses_to_start(tmp_path):
    gunicorn = Path(sys.executable).with_name("gunicorn")
    done = subprocess.run([str(gunicorn), "--config", "gunicorn.conf.py", "service.app:create_app()",
                           "--bind", "0.0.0.0:0", "--workers", "1"],
                          cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "refusing to listen on 0.0.0.0" in done.stderr


def test_capua_config_warns_while_dev_pages_are_on(tmp_path):
    result = CliRunner().invoke(cli, ["config"], env=_env(tmp_path))
    assert result.exit_code == 0
    assert "warning: the developer pages are on" in result.stderr
    quiet = CliRunner().invoke(cli, ["config"], env=_env(tmp_path, CAPUA_DEV_PAGES="0"))
    assert "warning" not in quiet.stderr
