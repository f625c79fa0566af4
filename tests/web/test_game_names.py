"""Games are called by their names wherever a person reads about them, never by their ids."""

from __future__ import annotations

from service.play import games
from tests.web.pages_play import user
from tests.web.support import read_text, sign_in_with


def test_my_games_and_the_game_page_name_the_game_not_its_id(app, client, web_sessions, web_config):
    with web_sessions() as s:
        ann = user(s, "ann@example.org")
        duel = games.create_game(s, web_config, creator=ann, game_type="spartacus_arena", options={}, seats=2,
                                 bot_seats=[1], title="Friday duel").id
        untitled = games.create_game(s, web_config, creator=ann, game_type="pax", options={}, seats=3,
                                     bot_seats=[1, 2]).id
        s.commit()
    sign_in_with(app, client, "ann@example.org")

    listed = read_text(client.get("/games").data)
    assert "Friday duel Spartacus: arena duel" in listed
    assert "spartacus_arena" not in listed and "pax" not in listed

    duel_page = read_text(client.get(f"/games/{duel}").data)
    assert "Friday duel Spartacus: arena duel ·" in duel_page and "spartacus_arena" not in duel_page
    pax_page = client.get(f"/games/{untitled}").data.decode()
    assert "<h1>PAX</h1>" in pax_page and "<title>PAX" in pax_page


def test_the_name_is_in_the_readers_language(app, client, web_sessions, web_config):
    with web_sessions() as s:
        bea = user(s, "bea@example.org", language="de")
        games.create_game(s, web_config, creator=bea, game_type="spartacus_arena", options={}, seats=2,
                          bot_seats=[1], title="Freitagsduell")
        s.commit()
    sign_in_with(app, client, "bea@example.org")
    assert "Freitagsduell Spartacus: Arenaduell" in read_text(client.get("/games").data)


def test_cards_in_form_fields_are_named_not_given_by_id(app):
    """The choices of a form (Spartacus upkeep's gladiators to release, Rom's provinces to
    conquer) read as card names in every language, never as ids of copies."""
    from service.web import pages

    with app.test_request_context():
        for language, gladiator, province in (("en", "Dimachaerus", "Gallia Cisalpina"),
                                              ("de", None, None), ("ru", None, None)):
            spartacus = pages._value_labeller("spartacus", {}, {}, language)("dimachaerus#1", "release")
            rom = pages._value_labeller("rom", {}, {}, language)("gallia_cisalpina", "provinces")
            for shown in (spartacus, rom):
                assert "#" not in shown and "_" not in shown and shown.strip(), shown
            if gladiator:
                assert (spartacus, rom) == (gladiator, province)
        assert pages._value_labeller("spartacus", {}, {}, "ru")("water-carrier#2", "release") == "Водонос"


def test_an_untitled_game_is_called_as_its_reader_calls_it(app, client, web_sessions, web_config):
    """A game created without a title is stored with the engine's English name (the API's
    ``title``); pages and mail show it in the reader's words, a chosen title as written."""
    import datetime as dt

    from sqlalchemy import select

    from service.notify import mailing
    from service.plumbing.db import Game, MailMessage, Notification
    from tests.web.pages_play import bot_game

    with web_sessions() as s:
        user(s, "ann@example.org", language="ru")
        user(s, "bob@example.org", language="en")
        s.commit()
    untitled = bot_game(web_sessions, web_config, "spartacus", 3)
    english = bot_game(web_sessions, web_config, "spartacus", 3, email="bob@example.org")
    with web_sessions() as s:
        titled = games.create_game(s, web_config, creator=user(s, "ann@example.org"), game_type="spartacus",
                                   options={}, seats=3, bot_seats=[1, 2], title="Капуя по пятницам").id
        s.commit()
        assert s.get(Game, untitled).title == "Spartacus"

    sign_in_with(app, client, "ann@example.org")
    listed = read_text(client.get("/games").data)
    assert "Спартак" in listed and "Spartacus" not in listed and "Спартак Спартак" not in listed
    assert "Капуя по пятницам Спартак" in listed
    page = client.get(f"/games/{untitled}").data.decode()
    assert "<h1>Спартак</h1>" in page and "<title>Спартак" in page
    assert "<h1>Капуя по пятницам</h1>" in client.get(f"/games/{titled}").data.decode()
    assert "<h1>Спартак: " in client.get(f"/games/{untitled}/history").data.decode()

    bob = app.test_client()
    sign_in_with(app, bob, "bob@example.org")
    assert "<h1>Spartacus</h1>" in bob.get(f"/games/{english}").data.decode()

    with web_sessions() as s:
        ann = user(s, "ann@example.org")
        due = max(r.due_at for r in s.scalars(select(Notification).where(Notification.user_id == ann.id)))
        ann_id = ann.id
    due = due if due.tzinfo else due.replace(tzinfo=dt.timezone.utc)
    mailing.compose_for_user(web_sessions, web_config, ann_id, due + dt.timedelta(hours=1))
    with web_sessions() as s:
        mails = list(s.scalars(select(MailMessage).where(MailMessage.to_address == "ann@example.org")))
    assert mails
    said = " ".join(f"{m.subject} {m.text_body}" for m in mails)
    assert "«Спартак»" in said and "Spartacus" not in said, said[:400]


def test_a_title_is_read_in_the_readers_words_only_where_capua_gave_it():
    from service.words.game_names import DEMO_TITLE, title_in

    assert [title_in(lang, "Spartacus", "spartacus") for lang in ("en", "de", "ru")] == \
        ["Spartacus", "Spartacus", "Спартак"]
    assert title_in("ru", "", "spartacus_arena") == "Спартак: поединок на Арене"
    assert title_in("ru", "Spartacus: Arena duel", "spartacus_arena") == "Спартак: поединок на Арене"
    assert [title_in(lang, DEMO_TITLE, "pax") for lang in ("en", "de", "ru")] == \
        ["PAX against three bots", "PAX gegen drei Bots", "PAX против трёх ботов"]
    assert title_in("ru", "Spartacus at Ann's", "spartacus") == "Spartacus at Ann's"
    assert title_in("ru", "Count to N", "count") == "Count to N"
