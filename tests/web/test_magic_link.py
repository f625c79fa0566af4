"""Signing in by magic link, end to end through the pages and the mail outbox."""

from __future__ import annotations

import dataclasses
import threading
import time

import pytest
from sqlalchemy import func, select

from service.identity import auth
from service.plumbing import mail
from service.plumbing.db import MailMessage, UsedLink, User
from service.plumbing.errors import Forbidden, InvalidInput
from tests.web.support import csrf_from, magic_link_in, outbox_files, parse_eml, path_of, read_text, signed_in_email


def request_link(client, address: str, next: str = "/") -> None:
    page = client.get("/signin")
    answer = client.post("/signin", data={"email": address, "next": next, "csrf_token": csrf_from(page.data)})
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith("/signin/sent")


def test_sign_in_end_to_end(client, web_config, web_sessions):
    request_link(client, "  Ann@Example.ORG ", next="/games")
    sent_page = client.get("/signin/sent").data.decode()
    assert "ann@example.org" in sent_page and "/dev/outbox" in sent_page
    assert "If ann@example.org can receive mail, a sign-in link is on its way." in read_text(sent_page)
    assert "<strong>ann@example.org</strong>" in sent_page, "the address is set off in bold, not shown as markup"

    assert mail.deliver_pending(web_sessions, web_config) == 1
    (eml,) = outbox_files(web_config)
    message = parse_eml(eml)
    assert message["To"] == "ann@example.org"
    link = magic_link_in(message)
    assert link.startswith(web_config.base_url + "/auth/magic/")

    confirm = client.get(path_of(link, web_config))
    assert confirm.status_code == 200
    assert "Sign in as ann@example.org?" in read_text(confirm.data)
    assert "<strong>ann@example.org</strong>" in confirm.data.decode()
    assert signed_in_email(client) is None, "a GET of the link must not sign in (mail scanners prefetch)"
    with web_sessions() as s:
        assert s.scalar(select(func.count(UsedLink.jti))) == 0, "a GET must not use the link up"

    done = client.post(path_of(link, web_config), data={"csrf_token": csrf_from(confirm.data)})
    assert done.status_code == 303
    assert done.headers["Location"] == "/games"
    assert signed_in_email(client) == "ann@example.org"
    assert client.get("/games").status_code == 200


def test_a_link_works_once(client, web_config, web_sessions):
    request_link(client, "ann@example.org")
    mail.deliver_pending(web_sessions, web_config)
    link = path_of(magic_link_in(parse_eml(outbox_files(web_config)[0])), web_config)
    token = csrf_from(client.get(link).data)
    assert client.post(link, data={"csrf_token": token}).status_code == 303

    other = client.application.test_client()
    again = other.get(link)
    assert again.status_code == 403 and "already been used" in again.data.decode()
    refused = other.post(link, data={"csrf_token": csrf_from(again.data)})
    assert refused.status_code == 403 and "already been used" in refused.data.decode()
    assert signed_in_email(other) is None


def test_a_reused_link_leads_its_signed_in_owner_on(client, web_config, web_sessions):
    """Opening the same link again in the browser that used it is no failure: its owner,
    signed in, goes where it leads; signed in as someone else, the page says who they are
    instead of "this link does not work"."""
    request_link(client, "ann@example.org", next="/games")
    mail.deliver_pending(web_sessions, web_config)
    link = path_of(magic_link_in(parse_eml(outbox_files(web_config)[0])), web_config)
    assert client.post(link, data={"csrf_token": csrf_from(client.get(link).data)}).status_code == 303

    again = client.get(link)
    assert again.status_code == 303 and again.headers["Location"] == "/games"

    bob = client.application.test_client()
    request_link(bob, "bob@example.org")
    mail.deliver_pending(web_sessions, web_config)
    bobs = next(path_of(magic_link_in(parse_eml(f)), web_config) for f in outbox_files(web_config)
                if parse_eml(f)["To"] == "bob@example.org")
    assert bob.post(bobs, data={"csrf_token": csrf_from(bob.get(bobs).data)}).status_code == 303
    told = read_text(bob.get(link).data)
    assert "You are signed in as bob@example.org: this sign-in link is no longer needed." in told
    assert "does not work" not in told


def test_tampered_and_expired_links_are_refused(client, config, session, monkeypatch):
    link = auth.make_magic_link(config, "ann@example.org", "/games")
    token = link.rsplit("/", 1)[1]
    head, _, signature = token.rpartition(".")
    tampered = head + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    with pytest.raises(Forbidden) as err:
        auth.consume_magic_token(session, config, tampered)
    assert err.value.code == "link_invalid"
    with pytest.raises(Forbidden) as err:
        auth.consume_magic_token(session, config, "not-a-token")
    assert err.value.code == "link_invalid"

    other_key = dataclasses.replace(config, secret_key="another-key")
    with pytest.raises(Forbidden) as err:
        auth.consume_magic_token(session, other_key, token)
    assert err.value.code == "link_invalid"

    issued = time.time() - config.magic_link_ttl_minutes * 60 - 5
    with monkeypatch.context() as m:
        m.setattr(time, "time", lambda: issued)
        old = auth.make_magic_link(config, "ann@example.org").rsplit("/", 1)[1]
    with pytest.raises(Forbidden) as err:
        auth.consume_magic_token(session, config, old)
    assert err.value.code == "link_expired"
    assert session.scalar(select(func.count(UsedLink.jti))) == 0

    user, next_url = auth.consume_magic_token(session, config, token)
    assert (user.email, next_url) == ("ann@example.org", "/games")


def test_refused_links_show_a_page_with_a_new_form(client, config):
    page = client.get("/auth/magic/garbage")
    assert page.status_code == 403
    assert "not valid" in page.data.decode() and 'action="/signin"' in page.data.decode()
    answer = client.post("/auth/magic/garbage", data={"csrf_token": csrf_from(page.data)})
    assert answer.status_code == 403
    assert signed_in_email(client) is None


def test_racing_uses_of_one_link_sign_in_once(session_factory, config):
    token = auth.make_magic_link(config, "ann@example.org").rsplit("/", 1)[1]
    start = threading.Barrier(2)
    results: list[str] = []

    def use() -> None:
        with session_factory() as s:
            start.wait()
            try:
                auth.consume_magic_token(s, config, token)
                s.commit()
                results.append("signed in")
            except Forbidden as err:
                results.append(err.code)

    threads = [threading.Thread(target=use) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == ["link_used", "signed in"]


@pytest.mark.parametrize("target", [
    "https://evil.example/", "//evil.example/x", "/\\evil.example", "\\\\evil.example", "javascript:alert(1)",
    "http:/evil.example", "evil.example", "/games\n/x", " //evil.example", "",
])
def test_next_must_stay_on_this_site(config, target):
    assert auth.safe_next_url(target) is None
    with pytest.raises(InvalidInput) as err:
        auth.make_magic_link(config, "ann@example.org", target)
    assert err.value.code == "unsafe_next_url"


def test_the_sign_in_form_drops_a_foreign_next(client, web_config, web_sessions):
    request_link(client, "ann@example.org", next="https://evil.example/")
    mail.deliver_pending(web_sessions, web_config)
    link = path_of(magic_link_in(parse_eml(outbox_files(web_config)[0])), web_config)
    done = client.post(link, data={"csrf_token": csrf_from(client.get(link).data)})
    assert done.headers["Location"] == "/"


def test_relative_next_urls_are_kept():
    assert auth.safe_next_url("/games/abc?x=1#y") == "/games/abc?x=1#y"


def test_the_form_says_the_same_for_known_and_unknown_addresses(client, web_sessions):
    with web_sessions() as s:
        s.add(User(email="known@example.org"))
        s.commit()
    answers = []
    for address in ("known@example.org", "unknown@example.org"):
        fresh = client.application.test_client()
        page = fresh.get("/signin")
        answer = fresh.post("/signin", data={"email": address, "csrf_token": csrf_from(page.data)})
        answers.append((answer.status_code, answer.headers["Location"]))
    assert answers[0] == answers[1]
    with web_sessions() as s:
        assert s.scalar(select(func.count(MailMessage.id))) == 2
        assert s.scalar(select(User.id).where(User.email == "unknown@example.org")) is not None


def test_a_bad_address_is_explained(client, web_sessions):
    page = client.get("/signin")
    answer = client.post("/signin", data={"email": "not an address", "csrf_token": csrf_from(page.data)})
    assert answer.status_code == 422
    assert "is not an email address" in answer.data.decode()
    with web_sessions() as s:
        assert s.scalar(select(func.count(MailMessage.id))) == 0


def test_sign_in_mail_is_throttled_per_address(session, config):
    for _ in range(auth.SIGNIN_MAILS_PER_WINDOW):
        assert auth.send_magic_link(session, config, "ann@example.org") is not None
    assert auth.send_magic_link(session, config, "ann@example.org") is None
    assert auth.send_magic_link(session, config, "bob@example.org") is not None


@pytest.mark.parametrize("address, normal", [
    ("Ann@Example.org", "ann@example.org"),
    ("  bob.smith+capua@mail.example.co.uk ", "bob.smith+capua@mail.example.co.uk"),
])
def test_addresses_are_normalised(session, address, normal):
    assert auth.get_or_create_user(session, address).email == normal
    assert auth.get_or_create_user(session, normal.upper()).id == auth.get_or_create_user(session, normal).id


@pytest.mark.parametrize("address", [
    "", "   ", "ann", "ann@", "@example.org", "ann@example", "ann@@example.org", "a b@example.org",
    "ann@exa mple.org", "ann@example..org", ".ann@example.org", "ann.@example.org", "ann@-example.org",
    "ann@example.org\r\nBcc: x@example.org", "ann@example.org,bob@example.org", "<ann@example.org>",
    "ann@1.2.3.4", None, 42, "a" * 65 + "@example.org",
])
def test_invalid_addresses_are_refused(session, address):
    with pytest.raises(InvalidInput) as err:
        auth.get_or_create_user(session, address)
    assert err.value.code == "invalid_email"
    assert err.value.message


def test_sign_out(client, sign_in):
    sign_in("ann@example.org")
    assert signed_in_email(client) == "ann@example.org"
    page = client.get("/")
    answer = client.post("/signout", data={"csrf_token": csrf_from(page.data)})
    assert answer.status_code == 303
    assert signed_in_email(client) is None


def test_a_session_expires(client, sign_in):
    sign_in("ann@example.org")
    with client.session_transaction() as cookie:
        cookie["exp"] = int(time.time()) - 1
    assert signed_in_email(client) is None
    assert client.get("/games").status_code == 303


def test_the_session_lasts_session_days(client, sign_in, web_config):
    before = time.time()
    sign_in("ann@example.org")
    with client.session_transaction() as cookie:
        assert before + web_config.session_days * 86400 - 5 <= cookie["exp"] <= time.time() + web_config.session_days * 86400
    assert client.application.permanent_session_lifetime.days == web_config.session_days


# --------------------------------------------------------------------------- the reader's language

_SIGN_IN_WORDS = {"en": ("Your Capua sign-in link", "expires in 30 minutes"),
                  "de": ("Dein Anmeldelink für Capua", "verfällt in 30 Minuten"),
                  "ru": ("Ваша ссылка для входа в Capua", "истекает через 30 минут")}


def _the_sign_in_mail(web_sessions, web_config):
    assert mail.deliver_pending(web_sessions, web_config) == 1
    message = parse_eml(outbox_files(web_config)[-1])
    text = message.get_body(preferencelist=("plain",)).get_content()
    html = message.get_body(preferencelist=("html",)).get_content()
    return str(message["Subject"]), text, html


def _speaks(language, subject, text, html):
    words_subject, words_ttl = _SIGN_IN_WORDS[language]
    assert subject == words_subject
    assert words_ttl in text and words_ttl in html
    assert f'<html lang="{language}">' in html


@pytest.mark.parametrize("language", ["de", "ru"])
def test_a_new_address_gets_its_sign_in_mail_in_the_language_it_asked_in(client, web_config, web_sessions, language):
    client.post("/language", data={"language": language, "next": "/signin",
                                   "csrf_token": csrf_from(client.get("/signin").data)})
    request_link(client, "new@example.org")
    _speaks(language, *_the_sign_in_mail(web_sessions, web_config))
    with web_sessions() as s:
        assert auth.get_or_create_user(s, "new@example.org").language == language, "the new account keeps it"


def test_a_new_address_asking_from_a_browser_in_russian_gets_russian(client, web_config, web_sessions):
    page = client.get("/signin", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    client.post("/signin", data={"email": "new@example.org", "next": "/", "csrf_token": csrf_from(page.data)},
                headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    _speaks("ru", *_the_sign_in_mail(web_sessions, web_config))


def test_a_known_player_gets_the_sign_in_mail_in_their_own_language(client, web_config, web_sessions):
    with web_sessions() as s:
        auth.get_or_create_user(s, "ann@example.org").language = "de"
        s.commit()
    request_link(client, "ann@example.org")  # from an English page, no language chosen
    _speaks("de", *_the_sign_in_mail(web_sessions, web_config))


def test_the_language_chosen_before_signing_in_holds_after_it(client, web_config, web_sessions):
    with web_sessions() as s:
        auth.get_or_create_user(s, "ann@example.org")  # an account at the default language
        s.commit()
    client.post("/language", data={"language": "ru", "next": "/signin",
                                   "csrf_token": csrf_from(client.get("/signin").data)})
    request_link(client, "ann@example.org")
    subject, text, _html = _the_sign_in_mail(web_sessions, web_config)
    assert subject == _SIGN_IN_WORDS["ru"][0], "the asker's choice, made on the page"
    link = path_of(magic_link_in(parse_eml(outbox_files(web_config)[-1])), web_config)
    client.post(link, data={"csrf_token": csrf_from(client.get(link).data)})
    assert signed_in_email(client) == "ann@example.org"
    with web_sessions() as s:
        assert auth.get_or_create_user(s, "ann@example.org").language == "ru"
    assert "Мои игры" in client.get("/games").data.decode()


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_the_sign_in_mail_renders_both_bodies_in_each_language(web_config, language):
    config = dataclasses.replace(web_config, magic_link_ttl_minutes=30)
    subject, text, html = auth.sign_in_mail(config, "http://x/auth/magic/t<o>k", language)
    assert "http://x/auth/magic/t<o>k" in text
    assert "t&lt;o&gt;k" in html and "t<o>k" not in html
    _speaks(language, subject, text, html)
    one = auth.sign_in_mail(dataclasses.replace(web_config, magic_link_ttl_minutes=1), "http://x/l", language)[1]
    assert {"en": "in 1 minute.", "de": "in 1 Minute.", "ru": "через 1 минуту."}[language] in one
    # the greeting and the first sentence as each language writes a letter
    assert {"en": "Hello,\n\nsomeone", "de": "Hallo,\n\njemand", "ru": "Здравствуйте!\n\nКто-то"}[language] in text
