"""Table talk through the API and the pages: who reads what, what is mailed to whom,
and that talking never moves the game."""

from __future__ import annotations

import email
import email.policy
import json
import re

import pytest

from service.plumbing import mail
from service.plumbing.db import TableMessage
from tests.api.support import assert_error
from tests.talk.support import Mailroom, three_player_game
from tests.web.support import csrf_from
from tests.webhooks.support import count_game, deliver_all, subscribe, verified




def test_public_and_private_messages_reach_only_their_recipients(ann, bob, make_client, sessions, receiver,
                                                                 app_config):
    cat, dan = make_client("cat"), make_client("dan")
    game_id = three_player_game(ann, bob, cat)
    room = Mailroom(sessions, app_config)
    room.compose()  # the game's own notifications
    hooks = {n: subscribe(c, receiver.url(f"/{n}"), event_types=["talk.message"])
             for n, c in (("ann", ann), ("bob", bob), ("cat", cat))}
    version = ann.get(f"games/{game_id}").get_json()["version"]

    public = ann.post(f"games/{game_id}/messages", json={"body": "Ave, senators!"}, idempotent=True)
    assert public.status_code == 201
    assert public.get_json() | {"created_at": None} == {
        "id": public.get_json()["id"], "game_id": game_id, "sender_seat": 0, "sender_name": "Ann (A)", "public": True,
        "to": None, "to_names": None, "body": "Ave, senators!", "reply_to_id": None, "via": "api", "created_at": None}
    private = bob.post(f"games/{game_id}/messages", json={"body": "Ann, support me and I pay 3.", "to": [0]})
    assert private.status_code == 201
    assert private.get_json()["to"] == [0, 1] and private.get_json()["to_names"] == ["Ann (A)", "Bob (B)"]

    def read(client):
        return [m["body"] for m in client.get(f"games/{game_id}/messages").get_json()["messages"]]

    assert read(ann) == ["Ave, senators!", "Ann, support me and I pay 3."]
    assert read(bob) == ["Ave, senators!", "Ann, support me and I pay 3."]
    assert read(cat) == ["Ave, senators!"]
    assert_error(dan.get(f"games/{game_id}/messages"), 403, "not_seated")
    assert_error(dan.post(f"games/{game_id}/messages", json={"body": "let me in"}), 403, "not_seated")
    first = public.get_json()["id"]
    assert [m["id"] for m in ann.get(f"games/{game_id}/messages?after={first}").get_json()["messages"]] == \
        [private.get_json()["id"]]
    # Talking never moves the game: a command against the version read before still applies.
    assert ann.get(f"games/{game_id}").get_json()["version"] == version

    mails = room.compose()
    assert sorted((m.to_address, m.subject) for m in mails) == [
        ("ann@example.org", "Count to N: Bob (B) writes to you privately"),
        ("bob@example.org", "Count to N: Ann (A) says"), ("cat@example.org", "Count to N: Ann (A) says")]
    assert all(m.headers["Reply-To"].startswith("talk+") and m.headers["Reply-To"].endswith("@reply.capua.test")
               for m in mails)
    assert "Ann, support me" in next(m.text_body for m in mails if m.to_address == "ann@example.org")
    assert all("support me" not in m.text_body + m.html_body for m in mails if m.to_address == "cat@example.org")

    deliver_all(sessions, app_config)
    got = {n: [verified(r, hooks[n]["secret"])["data"]["message"]["body"] for r in receiver.requests
               if r.path == f"/{n}"] for n in hooks}
    assert got == {"ann": ["Ave, senators!", "Ann, support me and I pay 3."],
                   "bob": ["Ave, senators!", "Ann, support me and I pay 3."], "cat": ["Ave, senators!"]}


def test_bad_messages_are_refused_and_change_nothing(ann, bob, make_client, count_rows):
    cat = make_client("cat")
    game_id = three_player_game(ann, bob, cat)
    cases = [({"body": ""}, 422), ({"body": "   "}, 422), ({"body": "x" * 4001}, 422), ({"body": "hi", "to": []}, 422),
             ({"body": "hi", "to": [0]}, 422), ({"body": "hi", "to": [7]}, 422), ({"body": "hi", "to": ["1"]}, 422),
             ({"body": "hi", "reply_to": 999}, 404), ({"body": "hi", "from": 2}, 422)]
    for body, status in cases:
        assert_error(ann.post(f"games/{game_id}/messages", json=body), status)
    assert_error(ann.post("games/nosuchgame/messages", json={"body": "hi"}), 404)
    private = bob.post(f"games/{game_id}/messages", json={"body": "secret", "to": [1, 2]}).get_json()
    assert_error(ann.post(f"games/{game_id}/messages", json={"body": "hi", "reply_to": private["id"]}), 404,
                 "message_not_found")
    assert count_rows(TableMessage) == 1


def test_a_reply_goes_to_the_audience_of_the_message_it_answers(ann, bob, make_client):
    cat = make_client("cat")
    game_id = three_player_game(ann, bob, cat)
    private = bob.post(f"games/{game_id}/messages", json={"body": "just us", "to": [2]}).get_json()
    reply = cat.post(f"games/{game_id}/messages", json={"body": "agreed", "reply_to": private["id"]}).get_json()
    assert reply["to"] == [1, 2] and reply["reply_to_id"] == private["id"]
    assert [m["body"] for m in ann.get(f"games/{game_id}/messages").get_json()["messages"]] == []


def test_the_game_page_shows_the_talk_and_posts_it(app, ann, bob, sign_in, client, sessions):
    game_id = count_game(ann, bob)
    bob.post(f"games/{game_id}/messages", json={"body": "for Ann's eyes <b>only</b>", "to": [0]})
    mail.deliver_pending(sessions, app.extensions["capua.config"])  # the sign-in reads the newest mail
    sign_in("ann@example.org")
    page = client.get(f"/games/{game_id}")
    html = page.get_data(as_text=True)
    assert "Table talk" in html and "for Ann&#39;s eyes &lt;b&gt;only&lt;/b&gt;" in html
    posted = client.post(f"/games/{game_id}/messages",
                         data={"body": "Thanks, Bob", "to": "1", "csrf_token": csrf_from(page.data)})
    assert posted.status_code == 303 and posted.headers["Location"].endswith(f"/games/{game_id}#talk")
    refused = client.post(f"/games/{game_id}/messages", data={"body": " ", "csrf_token": csrf_from(page.data)})
    assert refused.status_code == 422 and "cannot be empty" in refused.get_data(as_text=True)
    messages = bob.get(f"games/{game_id}/messages").get_json()["messages"]
    assert [(m["body"], m["via"], m["to"]) for m in messages][-1] == ("Thanks, Bob", "web", [0, 1])
    # A signed-in stranger sees the game but no talk panel.
    client.post("/signout", data={"csrf_token": csrf_from(page.data)})
    mail.deliver_pending(sessions, app.extensions["capua.config"])
    sign_in("cat@example.org")
    assert "Table talk" not in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_talk_mail_renders_with_a_reply_address(ann, bob, sessions, app_config):
    game_id = count_game(ann, bob)
    room = Mailroom(sessions, app_config)
    room.compose()
    ann.post(f"games/{game_id}/messages", json={"body": "Line one\nLine two"})
    (row,) = room.compose()
    built = email.message_from_bytes(mail.build_email(app_config, row).as_bytes(), policy=email.policy.default)
    assert built["Reply-To"] == row.headers["Reply-To"]
    assert "Line one\nLine two" in built.get_body(("plain",)).get_content()
    assert f"/games/{game_id}" in built.get_body(("html",)).get_content()
    assert json.dumps(row.headers).count("talk+") == 1


def test_talk_mail_follows_the_notification_preferences(ann, bob, make_client, sessions, app_config):
    from service.identity import settings
    from service.plumbing.db import User

    cat = make_client("cat")
    game_id = three_player_game(ann, bob, cat)
    room = Mailroom(sessions, app_config)
    room.compose()
    with sessions() as s:
        settings.update_preferences(s, s.get(User, cat.user_id), {"info_delivery": "off"})
        settings.update_preferences(s, s.get(User, bob.user_id), {"email_enabled": False})
        s.commit()
    ann.post(f"games/{game_id}/messages", json={"body": "public news"})
    ann.post(f"games/{game_id}/messages", json={"body": "just for Cat", "to": [2]})
    assert [(m.to_address, "just for Cat" in m.text_body) for m in room.compose()] == [("cat@example.org", True)]


@pytest.mark.parametrize("lang,public,private,body", [
    ("en", "Count to N: Ann (A) says", "Count to N: Ann (A) writes to you privately", "says at the table in Count to N"),
    ("de", "Count to N: Ann (A) sagt", "Count to N: Ann (A) schreibt dir privat", "sagt am Tisch in Count to N"),
    ("ru", "Count to N: Ann (A) говорит", "Count to N: Ann (A) пишет вам лично", "говорит за столом в игре «Count to N»")])
def test_talk_mail_is_in_the_recipients_language(ann, bob, make_client, sessions, app_config, lang, public, private,
                                                 body):
    game_id, room = _three_at_the_table(ann, bob, make_client, sessions, app_config, bob_reads=lang)
    assert ann.post(f"games/{game_id}/messages", json={"body": "Ave!"}).status_code == 201
    first = room.compose()
    assert ann.post(f"games/{game_id}/messages", json={"body": "psst", "to": [1]}).status_code == 201
    to_bob = [m for m in first + room.compose() if m.to_address == "bob@example.org"]
    assert [m.subject for m in to_bob] == [public, private]
    assert body in to_bob[0].text_body and body in to_bob[0].html_body
    # The others keep their own (default) language.
    assert [m.subject for m in first if m.to_address == "cat@example.org"] == ["Count to N: Ann (A) says"]


def test_a_bot_answers_what_is_addressed_to_it_politely_and_privately(ann, bob, sessions):
    created = ann.post("games", json={"game_type": "count", "seats": 3, "options": {"target": 50},
                                      "invites": ["bob@example.org"], "bot_seats": [2]}, idempotent=True)
    game_id = created.get_json()["id"]
    assert bob.post(f"games/{game_id}/join").status_code == 200
    public = ann.post(f"games/{game_id}/messages", json={"body": "hello all"}).get_json()
    assert [m["body"] for m in ann.get(f"games/{game_id}/messages").get_json()["messages"]] == ["hello all"], \
        "a bot answers no public talk"
    offer = ann.post(f"games/{game_id}/messages", json={"body": "ally with me?", "to": [2]}).get_json()
    mine = ann.get(f"games/{game_id}/messages").get_json()["messages"]
    answer = mine[-1]
    assert [m["id"] for m in mine][:2] == [public["id"], offer["id"]]
    assert (answer["sender_seat"], answer["sender_name"], answer["to"], answer["via"], answer["reply_to_id"]) == \
        (2, "Bot C", [0, 2], "bot", offer["id"])
    assert "I am a bot" in answer["body"] and "negotiate nothing" in answer["body"]
    assert [m["body"] for m in bob.get(f"games/{game_id}/messages").get_json()["messages"]] == ["hello all"], \
        "the answer is the asker's alone"
    with sessions() as s:
        assert s.get(TableMessage, answer["id"]).sender_user_id is None


def test_the_talk_panel_and_the_seats_name_players_in_the_readers_words(app, ann, bob, sign_in, client, sessions):
    """Bob has no display name: the API calls him "Player B"; a German page "Platz B" at the
    table talk and "ein Spieler" in the list of seats."""
    from service.plumbing.db import User
    from sqlalchemy import select

    game_id = count_game(ann, bob)
    with sessions() as s:
        s.scalar(select(User).where(User.email == "bob@example.org")).display_name = ""
        s.scalar(select(User).where(User.email == "ann@example.org")).language = "de"
        s.commit()
    bob.post(f"games/{game_id}/messages", json={"body": "Hallo Ann", "to": [0]})
    assert bob.get(f"games/{game_id}/messages").get_json()["messages"][-1]["sender_name"] == "Player B"
    mail.deliver_pending(sessions, app.extensions["capua.config"])
    sign_in("ann@example.org")
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    talk = html[html.index('id="talk"'):]
    assert "<strong>Platz B</strong>" in talk and "Player B" not in talk
    seats = " ".join(re.sub(r"<[^>]+>", " ", html[html.index("<h2>Plätze</h2>"):]).split())
    assert "Platz B: ein Spieler" in seats and "Player B" not in html


def test_talk_mail_names_a_player_without_a_name_by_their_seat_in_the_readers_words(ann, bob, make_client, sessions,
                                                                                   app_config):
    from service.plumbing.db import User

    nameless = make_client("ann")  # a second token of ann's, made before any request reads her row
    with sessions() as s:
        s.get(User, ann.user_id).display_name = ""
        s.commit()
    game_id, room = _three_at_the_table(nameless, bob, make_client, sessions, app_config, bob_reads="ru")
    assert nameless.post(f"games/{game_id}/messages", json={"body": "psst", "to": [1]}).status_code == 201
    (to_bob,) = [m for m in room.compose() if m.to_address == "bob@example.org"]
    assert to_bob.subject == "Count to N: Место A пишет вам лично"
    assert "Player A" not in to_bob.text_body and "Место A" in to_bob.text_body


def _three_at_the_table(ann, bob, make_client, sessions, app_config, *, bob_reads: str):
    """A game of ann, bob and cat, its mail so far composed; bob reads ``bob_reads``.
    Returns the game's id and the mailroom."""
    from service.identity import settings
    from service.plumbing.db import User

    game_id = three_player_game(ann, bob, make_client("cat"))
    room = Mailroom(sessions, app_config)
    room.compose()
    with sessions() as s:
        settings.update_preferences(s, s.get(User, bob.user_id), {"language": bob_reads})
        s.commit()
    return game_id, room
