"""The site around the games: layout, language switcher, landing, sign-in and error pages,
settings, API tokens, card lists and rules, in English, German and Russian."""

from __future__ import annotations

import hashlib
import re

import pytest
from markupsafe import escape
from sqlalchemy import select

from service.plumbing.db import ApiToken, User
from service.web.site_pages import GAMES, LANGUAGE_COOKIE, RULE_SECTIONS
from service.words import catalogue
from service.plumbing import database
from tests.web.support import csrf_from

LANGUAGES = ("en", "de", "ru")
GAME_TYPES = tuple(GAMES)

#: Sentences of the layout and landing page that must not stay English on a German or Russian page,
#: with a word of each translation that must be there instead.
LAYOUT_ENGLISH = (">Skip to the content<", ">Cards<", ">Rules<", ">API docs<", ">Sign in<",
                  "Capua plays Roman board games slowly")
LAYOUT_TRANSLATED = {"de": ("Zum Inhalt springen", "Karten", "Regeln"),
                     "ru": ("Перейти к содержимому", "Карты", "Правила")}


@pytest.fixture
def site(app):
    """A browser on the app."""
    return app.test_client()


@pytest.fixture
def signed_in(app, site):
    """``signed_in("ann@example.org")`` signs the ``site`` client in; returns the user's id."""
    from tests.web.support import sign_in_with

    def sign(address: str) -> int:
        sign_in_with(app, site, address)
        with database.sessions(app)() as s:
            return s.scalar(select(User.id).where(User.email == address))
    return sign


def _text(response) -> str:
    return response.data.decode()


def _speak(client, language: str) -> None:
    client.set_cookie(LANGUAGE_COOKIE, language)


def _user(app, user_id: int) -> User:
    with database.sessions(app)() as s:
        user = s.get(User, user_id)
        s.expunge(user)
        return user


# --------------------------------------------------------------------------- layout and public pages


PUBLIC_PAGES = ["/", "/signin", "/signin/sent", "/cards", "/rules", "/dev/outbox",
                *[f"/cards/{g}" for g in GAME_TYPES], *[f"/rules/{g}" for g in GAME_TYPES],
                *[f"/rules/{g}/full" for g in GAME_TYPES]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_public_pages_speak_the_visitors_language(site, language):
    _speak(site, language)
    for path in PUBLIC_PAGES:
        page = site.get(path)
        assert page.status_code == 200, path
        html = _text(page)
        assert f'<html lang="{language}">' in html, path
        assert 'href="#main"' in html and 'id="main"' in html, path
        nav = html.split("<main", 1)[0]
        if language == "en":
            assert "Skip to the content" in nav and ">Rules<" in nav
            continue
        for english in LAYOUT_ENGLISH:
            assert english not in html, (path, english)
        for word in LAYOUT_TRANSLATED[language]:
            assert word in html, (path, word)


def test_the_landing_page_presents_the_games_and_the_ways_to_play(site):
    html = _text(site.get("/"))
    for game in GAME_TYPES:
        assert f'href="/rules/{game}"' in html and f'href="/cards/{game}"' in html
    assert "PAX" in html and "Rom: Rise to Power" in html and "Spartacus" in html
    assert 'action="/signin"' in html and 'type="email"' in html
    assert "REST API" in html and "link per answer" in html


@pytest.mark.parametrize("language,name,duel", [
    ("en", "Spartacus", "Spartacus: arena duel"),
    ("de", "Spartacus", "Spartacus: Arenaduell"),
    ("ru", "Спартак", "Спартак: поединок на Арене"),
])
def test_the_games_are_named_in_the_readers_language(site, language, name, duel):
    _speak(site, language)
    html = _text(site.get("/"))
    assert f">{name}<" in html and duel in html
    assert f": {name}</h1>" in _text(site.get("/rules/spartacus"))
    if language == "ru":
        assert ">Spartacus<" not in html


@pytest.mark.parametrize("language,expected", [
    ("de", ("Anmelden", "Deine E-Mail-Adresse", "Römische Brettspiele", "Per E-Mail spielen", "Für Programmierer")),
    ("ru", ("Войти", "Ваш адрес электронной почты", "Игра по почте", "Для программистов")),
])
def test_landing_and_sign_in_pages_are_translated(site, language, expected):
    _speak(site, language)
    landing = _text(site.get("/"))
    for words in expected:
        assert words in landing
    for english in ("Your email address", "Email me a sign-in link", "Playing by email", "For programmers",
                    "The games"):
        assert english not in landing
    signin = _text(site.get("/signin"))
    assert "No password" not in signin and "Email me a sign-in link" not in signin
    refused = site.get("/auth/magic/not-a-token")
    assert refused.status_code == 403
    assert "This sign-in link is not valid" not in _text(refused)
    assert ("Dieser Anmeldelink ist ungültig" if language == "de" else "Эта ссылка для входа недействительна") \
        in _text(refused)


def test_a_bad_address_on_the_sign_in_form_is_refused_in_the_visitors_language(site):
    _speak(site, "de")
    form = site.get("/signin")
    refused = site.post("/signin", data={"email": "not an address", "next": "/", "csrf_token": csrf_from(form.data)})
    assert refused.status_code == 422
    assert "ist keine E-Mail-Adresse" in _text(refused)


@pytest.mark.parametrize("language,title", [("en", "Not found"), ("de", "Nicht gefunden"), ("ru", "Не найдено")])
def test_the_error_page_is_translated(site, language, title):
    _speak(site, language)
    page = site.get("/no/such/page")
    assert page.status_code == 404
    html = _text(page)
    assert f'<html lang="{language}">' in html and title in html
    if language != "en":
        assert "There is nothing at this address." not in html and "Back to Capua" not in html


# --------------------------------------------------------------------------- the language switcher


def test_a_visitor_switches_language_with_a_cookie(site):
    page = site.get("/cards")
    assert '<html lang="en">' in _text(page)
    switched = site.post("/language", data={"language": "ru", "next": "/cards", "csrf_token": csrf_from(page.data)})
    assert switched.status_code == 303 and switched.headers["Location"] == "/cards"
    assert f"{LANGUAGE_COOKIE}=ru" in switched.headers["Set-Cookie"]
    again = _text(site.get("/cards"))
    assert '<html lang="ru">' in again and "Карты" in again


def test_the_switcher_needs_the_form_token_and_a_known_language(site):
    page = site.get("/")
    refused = site.post("/language", data={"language": "de", "next": "/"})
    assert refused.status_code == 403 and LANGUAGE_COOKIE not in refused.headers.get("Set-Cookie", "")
    bogus = site.post("/language", data={"language": "xx", "next": "/", "csrf_token": csrf_from(page.data)})
    assert bogus.status_code == 422 and LANGUAGE_COOKIE not in bogus.headers.get("Set-Cookie", "")
    assert '<html lang="en">' in _text(site.get("/"))
    away = site.post("/language", data={"language": "de", "next": "//evil.example/", "csrf_token": csrf_from(page.data)})
    assert away.status_code == 303 and away.headers["Location"] == "/"


def test_a_player_switches_language_on_their_account(app, site, signed_in):
    uid = signed_in("ann@example.org")
    page = site.get("/settings")
    switched = site.post("/language", data={"language": "de", "next": "/settings", "csrf_token": csrf_from(page.data)})
    assert switched.status_code == 303
    assert _user(app, uid).language == "de"
    site.delete_cookie(LANGUAGE_COOKIE)
    assert '<html lang="de">' in _text(site.get("/settings"))  # from the account, not the cookie


# --------------------------------------------------------------------------- settings


def test_settings_hub_links_every_setting_and_is_translated(site, signed_in):
    signed_in("ann@example.org")
    html = _text(site.get("/settings"))
    for href in ("/settings/notifications", "/settings/vacation", "/settings/webhooks", "/settings/standing-orders",
                 "/settings/tokens"):
        assert f'href="{href}"' in html
    assert 'name="language"' in html and 'name="timezone"' in html and 'name="display_name"' in html
    assert '<option value="Europe/Berlin"' in html and '<option value="UTC"' in html
    _speak(site, "ru")
    site.post("/language", data={"language": "ru", "next": "/", "csrf_token": csrf_from(html)})
    russian = _text(site.get("/settings"))
    assert "Другие настройки" in russian and "More settings" not in russian and "API-токены" in russian


def test_settings_save_language_time_zone_and_name(app, site, signed_in):
    uid = signed_in("ann@example.org")
    page = site.get("/settings")
    saved = site.post("/settings", data={"language": "ru", "timezone": "Europe/Moscow", "display_name": " Anna ",
                                         "csrf_token": csrf_from(page.data)})
    assert saved.status_code == 303
    user = _user(app, uid)
    assert (user.language, user.timezone, user.display_name) == ("ru", "Europe/Moscow", "Anna")
    shown = _text(site.get(saved.headers["Location"]))
    assert "Сохранено." in shown and '<option value="Europe/Moscow" selected' in shown


@pytest.mark.parametrize("form", [
    {"language": "de", "timezone": "Mars/Olympus_Mons", "display_name": "Ann"},
    {"language": "de", "timezone": "../../etc/passwd", "display_name": "Ann"},
    {"language": "xx", "timezone": "Europe/Berlin", "display_name": "Ann"},
    {"language": "de", "timezone": "Europe/Berlin", "display_name": "A" * 81},
    {"language": "de", "timezone": "Europe/Berlin", "display_name": "Ann\x07"},
])
def test_settings_refuse_bad_input_and_save_nothing(app, site, signed_in, form):
    uid = signed_in("ann@example.org")
    before = _user(app, uid)
    page = site.get("/settings")
    refused = site.post("/settings", data={**form, "csrf_token": csrf_from(page.data)})
    assert refused.status_code == 422
    assert 'role="alert"' in _text(refused) and "Nothing was saved." in _text(refused)
    after = _user(app, uid)
    assert (after.language, after.timezone, after.display_name) == (before.language, before.timezone,
                                                                     before.display_name)


def test_settings_pages_send_visitors_to_sign_in(site):
    for path in ("/settings", "/settings/tokens"):
        away = site.get(path)
        assert away.status_code == 303 and "/signin" in away.headers["Location"]


# --------------------------------------------------------------------------- API tokens


def test_tokens_are_made_once_listed_and_revoked(app, site, signed_in):
    uid = signed_in("ann@example.org")
    page = site.get("/settings/tokens")
    assert "No tokens yet." in _text(page)
    made = site.post("/settings/tokens", data={"name": "my bot", "csrf_token": csrf_from(page.data)})
    assert made.status_code == 201 and made.headers["Cache-Control"] == "no-store"
    raw = re.search(r'<code class="secret" id="new-token">(capua_[A-Za-z0-9_-]+)</code>', _text(made)).group(1)
    with database.sessions(app)() as s:
        (row,) = s.scalars(select(ApiToken).where(ApiToken.user_id == uid))
        assert row.token_hash == hashlib.sha256(raw.encode()).hexdigest() and row.name == "my bot"
        token_id, prefix = row.id, row.prefix
    listing = _text(site.get("/settings/tokens"))
    assert raw not in listing and prefix in listing and "my bot" in listing

    me = app.test_client().get("/api/v1/me", headers={"Authorization": f"Bearer {raw}"})
    assert me.status_code == 200 and me.get_json()["email"] == "ann@example.org"

    revoked = site.post(f"/settings/tokens/{token_id}/revoke", data={"csrf_token": csrf_from(listing)})
    assert revoked.status_code == 303
    with database.sessions(app)() as s:
        assert s.get(ApiToken, token_id).revoked_at is not None
    assert app.test_client().get("/api/v1/me", headers={"Authorization": f"Bearer {raw}"}).status_code == 401
    assert "revoked" in _text(site.get("/settings/tokens"))


def test_token_forms_need_the_form_token(app, site, signed_in):
    uid = signed_in("ann@example.org")
    refused = site.post("/settings/tokens", data={"name": "forged"})
    assert refused.status_code == 403
    with database.sessions(app)() as s:
        assert s.scalars(select(ApiToken).where(ApiToken.user_id == uid)).all() == []


def test_a_token_of_another_player_cannot_be_revoked(app, site, signed_in):
    from service.identity import auth

    with database.sessions(app)() as s:
        bob = auth.get_or_create_user(s, "bob@example.org")
        row, _raw = auth.create_api_token(s, bob, "bob's")
        s.commit()
        bobs = row.id
    signed_in("ann@example.org")
    page = site.get("/settings/tokens")
    refused = site.post(f"/settings/tokens/{bobs}/revoke", data={"csrf_token": csrf_from(page.data)})
    assert refused.status_code == 404
    with database.sessions(app)() as s:
        assert s.get(ApiToken, bobs).revoked_at is None


def test_a_too_long_token_name_is_refused(app, site, signed_in):
    uid = signed_in("ann@example.org")
    page = site.get("/settings/tokens")
    refused = site.post("/settings/tokens", data={"name": "x" * 81, "csrf_token": csrf_from(page.data)})
    assert refused.status_code == 422 and "capua_" not in _text(refused).split("<main", 1)[1].split("</main>")[0] \
        .replace('value="', "")
    with database.sessions(app)() as s:
        assert s.scalars(select(ApiToken).where(ApiToken.user_id == uid)).all() == []


@pytest.mark.parametrize("language,words", [("de", ("Token erstellen", "Noch keine Tokens.")),
                                            ("ru", ("Создать токен", "Токенов пока нет."))])
def test_the_tokens_page_is_translated(site, signed_in, language, words):
    signed_in("ann@example.org")
    page = site.get("/settings")
    site.post("/language", data={"language": language, "next": "/", "csrf_token": csrf_from(page.data)})
    html = _text(site.get("/settings/tokens"))
    for word in words:
        assert word in html
    assert "Make a token" not in html and "No tokens yet." not in html


# --------------------------------------------------------------------------- cards


@pytest.mark.parametrize("game", GAME_TYPES)
def test_the_cards_page_lists_every_card_of_the_default_set(site, game):
    rows = catalogue.card_list(game)
    html = _text(site.get(f"/cards/{game}"))
    assert len(re.findall(r'<li id="card-', html)) == len(rows)
    for row in rows:
        assert f'id="card-{row["id"]}"' in html
        assert str(escape(row["name"])) in html
    for deck in {row["deck"] for row in rows}:
        assert f'id="deck-{deck}"' in html


def test_card_decks_are_named_in_the_page_language(site):
    _speak(site, "de")
    html = _text(site.get("/cards/rom"))
    assert "Provinzkarten" in html and "Senatskarten" in html and "Province cards" not in html


@pytest.mark.parametrize("path", ["/cards/chess", "/rules/chess", "/rules/chess/full", "/cards/PAX"])
def test_an_unknown_game_is_a_404_page(site, path):
    page = site.get(path)
    assert page.status_code == 404 and "text/html" in page.headers["Content-Type"]


# --------------------------------------------------------------------------- rules


_FULL_LINK = re.compile(r'href="/rules/([a-z_]+)/full#([^"]+)"')


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAME_TYPES)
def test_every_rules_section_links_an_anchor_of_the_full_rules(site, game, language):
    _speak(site, language)
    html = _text(site.get(f"/rules/{game}"))
    links = _FULL_LINK.findall(html)
    assert len(links) == len(RULE_SECTIONS[game])
    full = _text(site.get(f"/rules/{game}/full"))
    for linked_game, anchor in links:
        assert linked_game == game
        assert f'id="{anchor}"' in full, anchor
    for section in RULE_SECTIONS[game]:
        assert section.rulebook_de in html


@pytest.mark.parametrize("game", GAME_TYPES)
def test_short_rules_are_written_in_each_language(site, game):
    pages = {}
    for language in LANGUAGES:
        _speak(site, language)
        pages[language] = _text(site.get(f"/rules/{game}"))
    assert "How Capua plays it" in pages["en"] and "deadline" in pages["en"]
    assert "Wie Capua es spielt" in pages["de"] and "Frist" in pages["de"]
    assert "Как играет Capua" in pages["ru"] and "срок" in pages["ru"]
    for language in ("de", "ru"):
        assert "How Capua plays it" not in pages[language] and "Full rules:" not in pages[language]
        assert re.search("[а-я]" if language == "ru" else "[äöüß]", pages[language].split("<main", 1)[1])


def test_the_russian_spartacus_rules_cite_the_russian_rulebook(site):
    _speak(site, "ru")
    html = _text(site.get("/rules/spartacus"))
    assert "Фаза интриг, стр. 5" in html and "Правила (рус.):" in html


def test_the_full_rules_render_the_documents_with_anchors(site):
    html = _text(site.get("/rules/spartacus/full"))
    assert 'id="round"' in html and 'id="spartacus-arena--the-board"' in html
    # tables (and code blocks) scroll sideways on a phone, so a keyboard must reach them
    assert 'id="spartacus-market-cards--gladiators"' in html and '<table tabindex="0">' in html
    assert "<table>" not in html and "<pre>" not in html
    arena = _text(site.get("/rules/spartacus_arena/full"))
    target = re.search(r'href="(/rules/[a-z_]+/full#spartacus-market-cards)"', arena).group(1)
    page, anchor = target.split("#")
    assert f'id="{anchor}"' in _text(site.get(page))


# --------------------------------------------------------------------------- no English left behind


SITE_TEMPLATES = ["base.html", "error.html", "pages/landing.html", "auth", "dev", "site", "webhooks/settings.html",
                  "webhooks/endpoint.html", "webhooks/standing_orders.html", "webhooks/_texts.html"]
_MESSAGE = re.compile(r"""_\(\s*(?:"([^"]+)"|'([^']+)')""")


def _english_sentences() -> set[str]:
    """Every message of the site's templates of three words or more (placeholders aside): none of
    them may be left in English on a German or Russian page."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    files = []
    for name in SITE_TEMPLATES:
        path = root / name
        files += sorted(path.rglob("*.html")) if path.is_dir() else [path]
    found = set()
    for path in files:
        for double, single in _MESSAGE.findall(path.read_text(encoding="utf-8")):
            message = double or single
            if "%(" not in message and len(message.split()) >= 3:
                found.add(message)
    return found


@pytest.mark.parametrize("language", ["de", "ru"])
def test_no_english_sentence_of_the_site_is_left_on_german_or_russian_pages(app, site, signed_in, language):
    from html import unescape

    from service.play import standing_orders
    from service.notify import webhooks
    from service.web.automation_pages import EXAMPLE_ORDER

    uid = signed_in("ann@example.org")
    with database.sessions(app)() as s:
        ann = s.get(User, uid)
        hook = webhooks.create_endpoint(s, app.extensions["capua.config"], ann, url="https://hooks.example.org/capua")
        standing_orders.create_order(s, ann, rule=EXAMPLE_ORDER, name="", game_type="spartacus")
        s.commit()
        hook_id = hook.id
    page = site.get("/settings")
    site.post("/language", data={"language": language, "next": "/", "csrf_token": csrf_from(page.data)})
    outbox = _text(site.get("/dev/outbox"))
    message = re.search(r'href="(/dev/outbox/[^"]+)"', outbox).group(1)
    paths = [*PUBLIC_PAGES, "/settings", "/settings/tokens", "/settings/webhooks", f"/settings/webhooks/{hook_id}",
             "/settings/standing-orders", message, "/no/such/page"]
    sentences = _english_sentences()
    assert len(sentences) > 80
    for path in paths:
        # A mail in the outbox is shown as it was sent, in its recipient's language at the time.
        text = unescape(re.sub(r'<pre class="mail">.*?</pre>|<iframe.*?</iframe>', "", _text(site.get(path)),
                               flags=re.S))
        left = [s for s in sentences if s in text]
        assert not left, (path, left)
    made = site.post("/settings/tokens", data={"name": "bot", "csrf_token": csrf_from(page.data)})
    assert not [s for s in sentences if s in unescape(_text(made))]


@pytest.mark.parametrize("language,names", [
    ("en", ("All my Spartacus games", ">Spartacus: arena duel<", ">PAX<")),
    ("ru", ("Все мои игры «Спартак»", ">Спартак: поединок на Арене<", ">Rom: Rise to Power<")),
])
def test_standing_orders_name_the_game_types_as_the_reader_does(app, site, signed_in, language, names):
    from service.play import standing_orders
    from service.web.automation_pages import EXAMPLE_ORDER

    uid = signed_in("ann@example.org")
    with database.sessions(app)() as s:
        standing_orders.create_order(s, s.get(User, uid), rule=EXAMPLE_ORDER, name="", game_type="spartacus")
        s.get(User, uid).language = language
        s.commit()
    html = _text(site.get("/settings/standing-orders"))
    for words in names:
        assert words in html
    assert ">spartacus_arena<" not in html and "All my spartacus games" not in html
