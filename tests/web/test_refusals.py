"""A refusal a page shows is in the reader's language: the service refuses in English (for
the API and the log), the page tells it by its code (:mod:`service.web.refusals`)."""

from __future__ import annotations

import re

import pytest

from service.plumbing.errors import Conflict, InvalidInput, NotFound
from service.web import refusals
from tests.web.pages_play import user
from tests.web.support import csrf_from, read_text, sign_in_with


def _speaking(app, web_sessions, email: str, language: str):
    with web_sessions() as s:
        user(s, email, language=language)
        s.commit()
    client = app.test_client()
    sign_in_with(app, client, email)
    return client


def _post(client, path_of_form: str, action: str, **data):
    page = client.get(path_of_form)
    return client.post(action, data={"csrf_token": csrf_from(page.data), **data})


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_every_sentence_is_in_each_language_and_fills_its_placeholders(language):
    details = {"seat": 2, "max": 20, "max_length": 2000, "max_days": 366, "limit": 10, "host": "example.org",
               "address": "10.0.0.1"}
    for code, message in refusals.BY_CODE.items():
        said = refusals.refusal(Conflict("English", code=code, details=details), language)
        assert "%(" not in said and said != "English", code
        if language != "en":
            assert said != message, (code, "untranslated")
    for (code, which), message in refusals.BY_DETAIL.items():
        key = ("already" if code == "game_paused"
               else "problem" if code in ("invalid_message", "invalid_preferences", "invalid_standing_order")
               else "field")
        said = refusals.refusal(InvalidInput("English", code=code, details={**details, key: which if key != "already"
                                                                             else True}), language)
        assert "%(" not in said and said != "English" and (language == "en" or said != message), (code, which)
    for (field, kind), message in refusals.VACATION.items():
        said = refusals.refusal(InvalidInput("English", code="invalid_vacation",
                                             details={**details, "problems": {field: kind}}), language)
        assert "%(" not in said and said != "English" and (language == "en" or said != message), (field, kind)
    for field, message in refusals.PREFERENCES.items():
        said = refusals.refusal(InvalidInput("English", code="invalid_preferences",
                                             details={"fields": {field: "not a number"}}), language)
        assert said != "English" and (language == "en" or said != message), field
    for reason, message in refusals.WEBHOOK_ADDRESS.items():
        for code in ("invalid_url", "forbidden_address"):
            said = refusals.refusal(InvalidInput("English", code=code, details={**details, "reason": reason}),
                                    language)
            assert "%(" not in said and said != "English" and (language == "en" or said != message), reason
    for field, message in refusals.STANDING_ORDER_FIELDS.items():
        err = InvalidInput("English", code="invalid_standing_order", details={"fields": {field: ["English."]}})
        said = refusals.standing_order_problems(err, language)[field]
        assert "%(" not in said[0] and said != ["English."] and (language == "en" or said != [message]), field
    assert refusals.refusal(Conflict("English", code="seat_taken", details={"seat": 2}), language).count("C") >= 1


def test_a_standing_orders_rule_problems_stay_as_the_api_says_them():
    err = InvalidInput("English", code="invalid_standing_order",
                       details={"fields": {"match": ["Give at least one of …"], "name": ["Text of at most 80."]}})
    problems = refusals.standing_order_problems(err, "de")
    assert problems["match"] == ["Give at least one of …"]
    assert problems["name"] == ["Ein Name ist ein Text von höchstens 80 Zeichen."]


def test_a_code_not_known_keeps_the_services_sentence():
    assert refusals.refusal(NotFound("the service's words", code="no_such_thing"), "ru") == "the service's words"


def test_an_empty_message_at_the_table_is_refused_in_russian(app, web_sessions, running_game):
    ann = _speaking(app, web_sessions, "ann@example.org", "ru")
    answer = _post(ann, f"/games/{running_game}", f"/games/{running_game}/messages", body="   ")
    text = read_text(answer.data)
    assert answer.status_code == 422
    assert "Напишите что-нибудь: сообщение не может быть пустым." in text
    assert "Write something" not in text


def test_the_clock_controls_refuse_in_german(app, web_sessions, running_game):
    ann = _speaking(app, web_sessions, "ann@example.org", "de")
    resumed = _post(ann, f"/games/{running_game}", f"/games/{running_game}/resume")
    assert resumed.status_code == 409 and "Das Spiel ist nicht angehalten." in read_text(resumed.data)
    too_long = _post(ann, f"/games/{running_game}", f"/games/{running_game}/deadlines/extend", hours="0")
    assert too_long.status_code == 422
    assert re.search(r"Verlängere um eine ganze Zahl von Stunden, von 1 bis \d+\.", read_text(too_long.data))
    back = _post(ann, f"/games/{running_game}", f"/games/{running_game}/return")
    assert back.status_code == 409
    assert "Der Bot spielt deinen Platz nicht; es gibt nichts zurückzunehmen." in read_text(back.data)
    bob = _speaking(app, web_sessions, "bob@example.org", "ru")
    paused = _post(bob, f"/games/{running_game}", f"/games/{running_game}/pause")
    assert paused.status_code == 403 and "Это может только создатель игры." in read_text(paused.data)


def test_a_vacation_that_cannot_be_declared_says_why_in_russian(app, web_sessions):
    ann = _speaking(app, web_sessions, "ann@example.org", "ru")
    answer = _post(ann, "/settings/vacation", "/settings/vacation", starts_on="2030-05-10", ends_on="2030-05-01")
    text = read_text(answer.data)
    assert answer.status_code == 422 and "Последний день раньше первого." in text
    assert "starts_on" not in text and "cannot be declared" not in text
    html = answer.get_data(as_text=True)
    assert 'value="2030-05-10"' in html and 'value="2030-05-01"' in html  # what was typed is kept


def test_quiet_hours_without_an_end_are_refused_in_german(app, web_sessions):
    ann = _speaking(app, web_sessions, "ann@example.org", "de")
    answer = _post(ann, "/settings/notifications", "/settings/notifications", act_delivery="immediate",
                   info_delivery="digest", digest_hour="8", quiet_start="22", quiet_end="", language="de",
                   timezone="UTC", email_enabled="1")
    text = read_text(answer.data)
    assert answer.status_code == 422
    assert "Die Ruhezeit braucht eine Anfangsstunde und eine andere Endstunde, oder keine von beiden." in text
    assert "Quiet hours" not in text
    # what was typed is shown again, not the stored settings
    assert 'name="quiet_start" min="0" max="23" value="22"' in answer.get_data(as_text=True)
    assert 'name="quiet_end" min="0" max="23" value=""' in answer.get_data(as_text=True)
    missing = _post(ann, "/settings/notifications", "/settings/notifications", act_delivery="immediate",
                    info_delivery="digest", digest_hour="", language="de", timezone="UTC")
    assert missing.status_code == 422
    assert "Die tägliche Zusammenfassung kommt zu einer vollen Stunde von 0 bis 23." in read_text(missing.data)


def test_a_webhook_address_is_refused_in_russian(app, web_sessions):
    ann = _speaking(app, web_sessions, "ann@example.org", "ru")
    answer = _post(ann, "/settings/webhooks", "/settings/webhooks", url="ftp://example.org/hook", description="")
    text = read_text(answer.data)
    assert answer.status_code == 422
    assert "Адрес вебхука начинается с https:// (или http://)." in text
    assert "must start" not in text
    internal = _post(ann, "/settings/webhooks", "/settings/webhooks", url="https://printer.local/hook")
    assert internal.status_code == 422
    assert "printer.local — внутреннее имя; вебхуки отправляются только на публичные адреса." in read_text(
        internal.data)


def test_a_standing_order_is_refused_in_german_with_the_rules_problems_as_listed(app, web_sessions):
    ann = _speaking(app, web_sessions, "ann@example.org", "de")
    answer = _post(ann, "/settings/standing-orders", "/settings/standing-orders", rule='{"answer": {"default": true}}',
                   name="", game_id="", game_type="pax")
    text = read_text(answer.data)
    assert answer.status_code == 422
    assert "Dieser Dauerauftrag ist nicht gültig; die Probleme stehen unten." in text
    assert "Give at least one of" in text  # the rule's own problem, in the API's words
    named = _post(ann, "/settings/standing-orders", "/settings/standing-orders",
                  rule='{"match": {"mode": ["interrupt"]}, "answer": {"default": true}}', name="x" * 81, game_id="",
                  game_type="pax")
    assert named.status_code == 422
    assert "Ein Name ist ein Text von höchstens 80 Zeichen." in read_text(named.data)
    not_json = _post(ann, "/settings/standing-orders", "/settings/standing-orders", rule="{", name="", game_id="",
                     game_type="pax")
    assert not_json.status_code == 422
    assert "Die Regel ist kein lesbares JSON." in read_text(not_json.data) and "Kein JSON." in read_text(not_json.data)
