"""Creating a game from the page: every registered game type through its form, the clock
policy exactly as the API takes it, and refusals that keep what was typed."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from engine import registry
from service.plumbing.db import Game, GameClock, Seat
from service.plumbing import database
from tests.web.pages_play import form_values, user
from tests.web.support import csrf_from, sign_in_with

#: One option per game that differs from its default, as typed into the form.
CHANGED_OPTION = {
    "pax": ("arg.solo_level", "", "solo_level", 1),  # an emptied field plays the schema's default
    "rom": ("arg.variant_intrigue", "1", "variant_intrigue", True),
    "spartacus": ("arg.game_length", '"quick"', "game_length", "quick"),
    "spartacus_arena": ("arg.fighter_ii", '"gannicus"', "fighter_ii", "gannicus"),
}


@pytest.fixture
def ann(app, web_sessions):
    client = app.test_client()
    sign_in_with(app, client, "ann@example.org")
    return client


def _set(form, values) -> None:
    """Type ``values`` into ``form`` (each replaces what the field showed)."""
    for key, value in values.items():
        form[key] = value


def _count_games(web_sessions) -> int:
    with web_sessions() as s:
        return s.scalar(select(func.count()).select_from(Game))


def test_the_form_starts_with_the_list_of_games(ann):
    page = ann.get("/games/new").get_data(as_text=True)
    for name, label in [("pax", "PAX"), ("rom", "Rom: Rise to Power"), ("spartacus", "Spartacus"),
                        ("spartacus_arena", "Spartacus: arena duel")]:
        assert f'name="game" value="{name}"' in page and f"> {label}</label>" in page
    assert set(registry.names()) == {"pax", "rom", "spartacus", "spartacus_arena"}


def test_the_list_of_games_speaks_the_readers_language(app, web_sessions):
    with web_sessions() as s:
        user(s, "ann@example.org", language="ru")
        s.commit()
    ann = app.test_client()
    sign_in_with(app, ann, "ann@example.org")
    page = ann.get("/games/new").get_data(as_text=True)
    assert "> Спартак</label>" in page and "> Спартак: поединок на Арене</label>" in page
    assert "Spartacus" not in page.split('name="game"', 1)[1].split("</fieldset>", 1)[0]
    chosen = ann.get("/games/new?game=spartacus").get_data(as_text=True)
    assert "<strong>Спартак</strong>" in chosen


@pytest.mark.parametrize("game_type", registry.names())
def test_every_game_type_is_created_through_its_form(ann, web_sessions, web_config, game_type):
    page = ann.get(f"/games/new?game={game_type}").get_data(as_text=True)
    rules = registry.get(game_type)
    for name in (rules.options_schema().get("properties") or {}):
        assert f'name="arg.{name}' in page, f"option {name} has a field"
    form = form_values(page, "/games/new")
    assert form["game_type"] == game_type and form["clock.hours"] == str(web_config.default_clock_hours) and form["seat.0.role"] == "me"
    seats = min(n for n in rules.seat_counts({}) if n >= 2)
    _set(form, {"csrf_token": csrf_from(page), "seats": str(seats), "title": f"Ann's {game_type}",
                "clock.hours": "72", "clock.time_of_day": "20:00", "clock.timezone": "Europe/Berlin",
                "clock.weekend_pause": "1", "clock.bot_after_missed": "3"})
    field, typed, option, value = CHANGED_OPTION[game_type]
    form.setlist(field, [typed] if typed else [])
    for n in range(1, seats):
        form[f"seat.{n}.role"] = "bot"
    form["seat.1.role"] = "invite"
    form["seat.1.email"] = "bob@example.org"

    answer = ann.post("/games/new", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:3000]
    game_id = answer.headers["Location"].rsplit("/", 1)[1]
    with web_sessions() as s:
        game = s.get(Game, game_id)
        assert (game.game_type, game.seat_count, game.title, game.clock_hours) == \
            (game_type, seats, f"Ann's {game_type}", 72)
        if value is not None:
            assert game.options[option] == value
        else:
            assert option not in game.options
        row = s.get(GameClock, game_id)
        assert (row.time_of_day, row.timezone, row.weekend_pause, row.bot_after_missed, row.vacation) == \
            ("20:00", "Europe/Berlin", True, 3, True)
        rows = {r.seat: r for r in s.scalars(select(Seat).where(Seat.game_id == game_id))}
        assert rows[0].user_id is not None and rows[1].invited_email == "bob@example.org"
        assert all(rows[n].is_bot for n in range(2, seats))
    assert ann.get(answer.headers["Location"]).status_code == 200


@pytest.mark.parametrize("change, message, kept", [
    ({"seat.1.email": "not-an-address"}, "not-an-address is not an address you can invite.", 'value="not-an-address"'),
    ({"seats": "2"}, "This game is played by 3, 4 players with these options.", 'value="Kept title"'),
    ({"clock.time_of_day": "25:00"}, "The clock is not valid: check Deadlines fall at.", 'value="25:00"'),
    ({"arg.max_rounds": "lots"}, "Last round (0: no limit) must be a whole number.", 'value="lots"'),
    ({"seat.1.role": "open", "seat.2.role": "invite", "seat.2.email": "cy@example.org"},
     "Seat B is open to anyone but seat C is an invitation: put the invited players first.", "cy@example.org"),
    ({"seat.1.role": "me"}, "You can hold only one seat.", 'value="Kept title"'),
])
def test_invalid_input_shows_the_form_again_and_creates_nothing(ann, web_sessions, change, message, kept):
    page = ann.get("/games/new?game=spartacus").get_data(as_text=True)
    form = form_values(page, "/games/new")
    _set(form, {"csrf_token": csrf_from(page), "seats": "3", "title": "Kept title",
                "seat.1.role": "invite", "seat.1.email": "bob@example.org", "seat.2.role": "bot"})
    _set(form, change)
    before = _count_games(web_sessions)
    answer = ann.post("/games/new", data=form)
    text = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert message in text.replace("&#39;", "'")
    assert kept in text, "what was typed is kept"
    assert 'role="alert"' in text
    assert _count_games(web_sessions) == before


def test_an_unknown_game_is_explained(ann, web_sessions):
    assert ann.get("/games/new?game=chess").status_code == 400
    page = ann.get("/games/new").get_data(as_text=True)
    answer = ann.post("/games/new", data={"csrf_token": csrf_from(page), "game_type": "chess"})
    assert answer.status_code == 422 and "Choose one of the games offered." in answer.get_data(as_text=True)
    assert _count_games(web_sessions) == 0


def test_creating_needs_sign_in(client):
    answer = client.get("/games/new")
    assert answer.status_code == 303 and "/signin?next=" in answer.headers["Location"]


def test_a_post_without_the_forms_token_is_refused(ann, web_sessions):
    answer = ann.post("/games/new", data={"game_type": "pax", "seats": "2", "seat.0.role": "me",
                                          "seat.1.role": "bot"})
    assert answer.status_code == 403 and _count_games(web_sessions) == 0


@pytest.mark.parametrize("hours", [24, 36])
def test_the_clock_starts_at_the_sites_default(config_overrides, clean_database, hours):
    """``CAPUA_DEFAULT_CLOCK_HOURS`` is the clock a new game gets from the API and the form
    alike; a default the form does not list (36 h) is offered too."""
    from service.app import create_app

    site = create_app({**config_overrides, "default_clock_hours": hours, "TESTING": True})
    client = site.test_client()
    sign_in_with(site, client, "ann@example.org")
    page = client.get("/games/new?game=pax").get_data(as_text=True)
    assert form_values(page, "/games/new")["clock.hours"] == str(hours)
    assert f'<option value="{hours}" selected>{hours} hours</option>' in page
    database.dispose(site)


@pytest.mark.parametrize("game_type", registry.names())
def test_the_form_as_first_shown_starts_a_game_against_bots(ann, web_sessions, game_type):
    """A newcomer who presses the button without changing anything gets a running game:
    the fewest players the default options allow, the other seats bots."""
    page = ann.get(f"/games/new?game={game_type}").get_data(as_text=True)
    form = form_values(page, "/games/new")
    seats = int(form["seats"])
    assert seats in registry.get(game_type).seat_counts({}), "a count the default options allow"
    assert [form[f"seat.{n}.role"] for n in range(seats)] == ["me"] + ["bot"] * (seats - 1)
    answer = ann.post("/games/new", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    with web_sessions() as s:
        game = s.scalars(select(Game).order_by(Game.created_at.desc())).first()
        assert (game.game_type, game.status) == (game_type, "running")


def test_each_bots_level_and_the_stand_in_are_chosen_on_the_form(ann, web_sessions, web_config):
    page = ann.get("/games/new?game=pax").get_data(as_text=True)
    form = form_values(page, "/games/new")
    # as first shown: every bot and the stand-in at the site's level
    assert form["seat.1.level"] == form["clock.stand_in"] == web_config.bot_level
    _set(form, {"seats": "3", "seat.1.role": "bot", "seat.1.level": "easy", "seat.2.role": "bot",
                "seat.2.level": "random", "clock.stand_in": "defaults"})
    answer = ann.post("/games/new", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:3000]
    game_id = answer.headers["Location"].rsplit("/", 1)[1]
    with web_sessions() as s:
        rows = {r.seat: r for r in s.scalars(select(Seat).where(Seat.game_id == game_id))}
        assert [rows[n].bot_level for n in range(3)] == [None, "easy", "random"]
        assert s.get(GameClock, game_id).stand_in == "defaults"
    game_page = ann.get(answer.headers["Location"]).get_data(as_text=True)
    assert "bot: easy" in game_page and "bot: random moves" in game_page
    assert "a seat's decisions get their defaults at once" in game_page


def test_an_unknown_bot_level_on_the_form_is_refused(ann, web_sessions):
    page = ann.get("/games/new?game=pax").get_data(as_text=True)
    form = form_values(page, "/games/new")
    form["seat.1.level"] = "grandmaster"
    answer = ann.post("/games/new", data=form)
    assert answer.status_code == 422
    assert "Seat 2: choose how well the bot plays." in answer.get_data(as_text=True)
    assert _count_games(web_sessions) == 0


def test_while_a_bot_thinks_in_the_worker_the_page_says_so_and_reloads_itself(app, ann, web_sessions, web_config,
                                                                             monkeypatch):
    page = ann.get("/games/new?game=pax").get_data(as_text=True)
    form = form_values(page, "/games/new")
    form["seat.1.level"] = "normal"
    answer = ann.post("/games/new", data=form)
    assert answer.status_code == 303
    # Ann has her start card to choose meanwhile: her page never reloads under her hands
    mine = ann.get(answer.headers["Location"]).get_data(as_text=True)
    assert 'http-equiv="refresh"' not in mine and 'id="bots-thinking"' not in mine
    # a spectator, who has nothing to answer, is told and the page reloads itself
    bob = app.test_client()
    sign_in_with(app, bob, "bob@example.org")
    thinking = bob.get(answer.headers["Location"]).get_data(as_text=True)
    assert '<meta http-equiv="refresh" content="3">' in thinking and 'id="bots-thinking"' in thinking
    from service.play import bot_turns, bots

    game_id = answer.headers["Location"].rsplit("/", 1)[1]
    monkeypatch.setattr(bots, "_sleep", lambda seconds: None)  # the pacing is tests/service/test_bot_turns.py's
    bot_turns.play(web_sessions, web_config, game_id)
    answered = bob.get(answer.headers["Location"]).get_data(as_text=True)
    assert 'http-equiv="refresh"' not in answered and 'id="bots-thinking"' not in answered


@pytest.mark.parametrize("lang,code,details,words", [
    ("en", "too_many_invites", {"free_seats": 1}, "More invitations than free seats: 1 seat is left for other players."),
    ("en", "too_many_invites", {"free_seats": 2}, "More invitations than free seats: 2 seats are left for other players."),
    ("de", "too_many_invites", {"free_seats": 1},
     "Mehr Einladungen als freie Plätze: für andere ist noch 1 Platz übrig."),
    ("en", None, {"field": "seats", "allowed": [1]}, "This game is played by 1 player with these options."),
    ("en", None, {"field": "seats", "allowed": [2]}, "This game is played by 2 players with these options."),
    ("de", None, {"field": "seats", "allowed": [1]}, "Mit diesen Optionen spielt 1 Person dieses Spiel."),
    ("de", None, {"field": "seats", "allowed": [1, 2, 3]}, "Mit diesen Optionen spielen 1, 2, 3 Personen dieses Spiel."),
])
def test_a_refusal_counts_seats_and_players_in_the_readers_grammar(app, lang, code, details, words):
    from flask import g

    from service.plumbing.errors import InvalidInput
    from service.web import setup_form

    with app.test_request_context("/games/new"):
        g.capua_locale = lang
        assert setup_form.explain(InvalidInput("refused", code=code, details=details))[0] == words
