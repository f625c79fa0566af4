"""The ``capua`` command, run through click's test runner."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from sqlalchemy import inspect

from service import inprocess
from service.cli import cli
from service.identity import auth
from service.plumbing import mail
from service.plumbing.config import settings_table
from service.plumbing.db import make_engine
from service.plumbing import database
from tests.web.support import csrf_from, outbox_files

SECRET = "cli-test-secret-key"


@pytest.fixture
def run(tmp_path):
    """``run("token", "create", ...)`` with settings from the environment, like a shell."""

    def invoke(*args, database_url: str, **env):
        environ = {
            "CAPUA_INSTANCE_DIR": str(tmp_path / "instance"),
            "CAPUA_DATABASE_URL": database_url,
            "CAPUA_SECRET_KEY": SECRET,
            "CAPUA_REDIS_URL": "",
            "CAPUA_BASE_URL": "",
            **env,
        }
        return CliRunner().invoke(cli, list(args), env=environ, catch_exceptions=False)

    return invoke


def test_token_create_prints_a_token_that_authenticates(run, database_url, clean_database, session):
    result = run("token", "create", "Ann@Example.org", "--name", "my bot", database_url=database_url)
    assert result.exit_code == 0, result.output
    raw = result.stdout.strip()
    assert re.fullmatch(r"capua_[A-Za-z0-9_-]+", raw)
    assert "shown only now" in result.stderr
    assert auth.user_for_token(session, raw).email == "ann@example.org"

    listed = run("token", "list", "ann@example.org", database_url=database_url)
    assert raw[:12] in listed.stdout and "my bot" in listed.stdout and raw not in listed.stdout


def test_token_revoke(run, database_url, clean_database, session_factory):
    raw = run("token", "create", "ann@example.org", database_url=database_url).stdout.strip()
    with session_factory() as s:
        token_id = auth.list_api_tokens(s, auth.get_or_create_user(s, "ann@example.org"))[0].id
    result = run("token", "revoke", str(token_id), database_url=database_url)
    assert result.exit_code == 0 and f"Token {token_id} revoked" in result.output
    with session_factory() as s:
        assert auth.user_for_token(s, raw) is None
    missing = run("token", "revoke", "9999", database_url=database_url)
    assert missing.exit_code == 1 and "no API token 9999" in missing.output


def test_bad_input_is_one_readable_line(run, database_url, clean_database):
    result = run("token", "create", "not-an-address", database_url=database_url)
    assert result.exit_code == 1
    assert "is not an email address" in result.output and "Traceback" not in result.output
    result = run("token", "revoke", "abc", database_url=database_url)
    assert result.exit_code == 2 and "is not a valid integer" in result.output
    result = run("config", database_url=database_url, CAPUA_SESSION_DAYS="many")
    assert result.exit_code == 1 and "CAPUA_SESSION_DAYS" in result.output


def test_config_shows_every_setting_with_secrets_masked(run):
    result = run("config", database_url="postgresql+psycopg://capua:hunter2@db.example:5432/capua",
                 CAPUA_REDIS_URL="redis://:redispw@cache.example:6379/0")
    assert result.exit_code == 0
    for name in re.findall(r"`(CAPUA_[A-Z_]+)`", settings_table()):
        assert name in result.output
    assert SECRET not in result.output and "hunter2" not in result.output and "redispw" not in result.output
    assert "capua:***@db.example:5432" in result.output
    assert re.search(r"CAPUA_SECRET_KEY\s+\*\*\* \(set\)\s+\[env\]", result.output)
    assert re.search(r"CAPUA_SNAPSHOT_EVERY\s+100\s+\[default\]", result.output)


def test_config_markdown_is_the_readme_table(run, tmp_path):
    result = run("config", "--markdown", database_url="sqlite://")
    assert result.stdout.strip() == settings_table()


def test_mail_deliver(run, database_url, clean_database, session_factory, tmp_path):
    with session_factory() as s:
        for to in ("ann@example.org", "bob@example.org"):
            mail.queue_mail(s, to=to, subject="Hi", text="Hello")
        s.commit()
    result = run("mail", "deliver", database_url=database_url)
    assert result.exit_code == 0, result.output
    assert "Delivering 2 pending" in result.stderr and "2 sent, 0 still pending." in result.stdout
    assert len(list((tmp_path / "instance" / "outbox").glob("*.eml"))) == 2


def test_db_upgrade_creates_the_schema(run, tmp_path):
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    result = run("db", "upgrade", database_url=url)
    assert result.exit_code == 0, result.output
    assert "Database is at revision" in result.stderr
    engine = make_engine(url)
    try:
        assert {"users", "api_tokens", "used_links", "mail_messages", "games", "events"} <= set(
            inspect(engine).get_table_names())
    finally:
        engine.dispose()


@pytest.fixture
def served(monkeypatch):
    """Captures what ``serve``/``demo`` would serve instead of serving it."""
    calls = []

    def fake_run_simple(host, port, app, **options):
        calls.append({"host": host, "port": port, "app": app, "options": options,
                      "worker": inprocess._workers.get(app.extensions["capua.config"].database_url)})

    monkeypatch.setattr("werkzeug.serving.run_simple", fake_run_simple)
    return calls


def test_serve_migrates_starts_the_worker_and_serves_threaded(run, served, tmp_path):
    url = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    result = run("serve", "--port", "5099", database_url=url)
    assert result.exit_code == 0, result.output
    (call,) = served
    assert (call["host"], call["port"], call["options"]["threaded"]) == ("127.0.0.1", 5099, True)
    assert call["worker"] is not None and not call["worker"].alive, "the worker ran while serving, then stopped"
    assert call["app"].extensions["capua.config"].base_url == "http://127.0.0.1:5099"
    assert "Capua is serving at http://127.0.0.1:5099/" in result.output


def test_serve_with_redis_leaves_the_work_to_celery(run, served, tmp_path):
    url = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    result = run("serve", database_url=url, CAPUA_REDIS_URL="redis://127.0.0.1:1/0")
    assert result.exit_code == 0, result.output
    assert served[0]["worker"] is None and served[0]["port"] == 5000


def test_demo_prints_a_link_into_a_game_against_bots(run, served, tmp_path):
    url = f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    result = run("demo", "--port", "5098", database_url=url)
    assert result.exit_code == 0, result.output
    match = re.search(r"Your PAX game against three bots: (http://127\.0\.0\.1:5098(/auth/magic/\S+))", result.stdout)
    assert match, result.output
    app = served[0]["app"]
    client = app.test_client()
    confirm = client.get(match.group(2))
    assert "demo@capua.local" in confirm.data.decode()
    done = client.post(match.group(2), data={"csrf_token": csrf_from(confirm.data)})
    game_path = done.headers["Location"]
    assert re.fullmatch(r"/games/[A-Za-z0-9_-]+", game_path)
    page = client.get(game_path).data.decode()
    assert "PAX against three bots" in page and "Your hand" in page
    assert page.count('<span class="badge quiet">bot: normal</span>') == 3  # the demo's bots play at normal
    database.dispose(app)
    assert outbox_files(app.extensions["capua.config"]) == []


def test_demo_checks_the_port_before_it_creates_anything(run, served, tmp_path):
    """A taken port is said at once; no game is made and no link printed that cannot open."""
    import socket

    url = f"sqlite:///{tmp_path / 'taken.sqlite3'}"
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        taken = holder.getsockname()[1]
        result = run("demo", "--port", str(taken), database_url=url)
    assert result.exit_code == 1
    assert f"cannot serve on 127.0.0.1:{taken}" in result.output and "--port" in result.output
    assert "http://" not in result.output, "no link is printed"
    assert served == [] and not (tmp_path / "taken.sqlite3").exists(), "nothing was migrated or created"


def test_demo_run_again_offers_the_same_running_game_and_names_the_account(run, served, tmp_path):
    """Each `capua demo` prints a fresh link into the one running demo game, and says
    plainly whom the link signs in, for how long, and how to come back."""
    url = f"sqlite:///{tmp_path / 'again.sqlite3'}"
    first = run("demo", "--port", "5097", database_url=url)
    second = run("demo", "--port", "5097", database_url=url)
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    links = [re.search(r"against three bots: (\S+)", r.stdout).group(1) for r in (first, second)]
    assert links[0] != links[1], "each run prints a fresh single-use link"
    assert "still running" in second.stderr
    text = " ".join(first.stdout.split())
    assert "signs you in as demo@capua.local once, within 30 minutes" in text
    assert "sign in as demo@capua.local at http://127.0.0.1:5097/signin" in text
    app = served[1]["app"]
    from service.plumbing import database
    from service.plumbing.db import Game

    try:
        with app.app_context(), database.sessions(app)() as s:
            assert s.query(Game).count() == 1, "demo games do not pile up"
    finally:
        for call in served:
            database.dispose(call["app"])


def test_token_create_in_another_folder_finds_no_instance_and_creates_none(tmp_path, monkeypatch):
    """`capua token create` run where no instance is refuses plainly and creates nothing;
    run where `capua serve` ran, it finds that instance and says which database got the token."""
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    for name in ("CAPUA_INSTANCE_DIR", "CAPUA_DATABASE_URL", "CAPUA_SECRET_KEY", "CAPUA_MAIL_OUTBOX_DIR"):
        monkeypatch.delenv(name, raising=False)
    env = {"CAPUA_REDIS_URL": "", "CAPUA_BASE_URL": ""}

    monkeypatch.chdir(elsewhere)
    refused = CliRunner().invoke(cli, ["token", "create", "ann@example.org"], env=env, catch_exceptions=False)
    assert refused.exit_code == 1
    text = " ".join(refused.output.split())
    assert f"no Capua instance here: there is no database at {elsewhere / 'instance' / 'capua.sqlite3'}" in text
    assert "CAPUA_INSTANCE_DIR" in text and "capua_" not in refused.stdout
    assert list(elsewhere.iterdir()) == [], "no empty instance was created"

    monkeypatch.chdir(home)
    assert CliRunner().invoke(cli, ["db", "upgrade"], env=env).exit_code == 0  # what `capua serve` does first
    made = CliRunner().invoke(cli, ["token", "create", "ann@example.org"], env=env, catch_exceptions=False)
    assert made.exit_code == 0, made.output
    assert f"in the database sqlite:///{home / 'instance' / 'capua.sqlite3'}" in made.stderr
    assert re.fullmatch(r"capua_[A-Za-z0-9_-]+", made.stdout.strip())


def test_config_says_what_an_unset_secret_means(run, tmp_path):
    result = run("config", database_url="sqlite://", CAPUA_SECRET_KEY="", CAPUA_SMTP_USERNAME="")
    assert result.exit_code == 0
    instance = tmp_path / "instance"
    assert re.search(rf"CAPUA_SECRET_KEY\s+\*\*\* \(not set: generated once and kept in {re.escape(str(instance))}"
                     r"/secret_key\)\s+\[env\]", result.output)
    assert re.search(r"CAPUA_INBOUND_MAIL_SECRET\s+\(not set: POST /api/v1/inbound/mail is off\)", result.output)
    assert re.search(r"CAPUA_SMTP_PASSWORD\s+\(not set: SMTP without logging in\)", result.output)
    assert "generated, kept in the instance folder" not in result.output
    with_login = run("config", database_url="sqlite://", CAPUA_SMTP_USERNAME="capua")
    assert re.search(r"CAPUA_SMTP_PASSWORD\s+\(not set: SMTP without a password\)", with_login.output)
