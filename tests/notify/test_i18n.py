"""The catalogues: complete for German and Russian, compiled files up to date, and the
PAX prompts translated."""

from __future__ import annotations

import io

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from service.words import i18n, telling

PAX_KEYS = ["pax.choose_action", "pax.assign_card", "pax.buy", "pax.lay", "pax.setup_keep", "pax.interrupt"]


@pytest.mark.parametrize("lang", ["de", "ru"])
def test_every_message_is_translated_and_the_mo_is_current(lang):
    directory = i18n.TRANSLATIONS_DIR / lang / "LC_MESSAGES"
    po = read_po(open(directory / "messages.po", "rb"))
    template = read_po(open(i18n.TRANSLATIONS_DIR / "messages.pot", "rb"))
    wanted = {m.id for m in template if m.id}
    assert wanted <= {m.id for m in po if m.id and m.string and not m.fuzzy}, "untranslated or fuzzy messages"
    mo = read_mo(io.BytesIO((directory / "messages.mo").read_bytes()))
    def frozen(value):  # a plural message's id and strings are sequences (lists in a .mo)
        return tuple(value) if isinstance(value, (list, tuple)) else value

    assert {frozen(m.id): frozen(m.string) for m in po if m.id} == \
        {frozen(m.id): frozen(m.string) for m in mo if m.id}, "run pybabel compile -d translations"
    import re

    def placeholders(text):
        return sorted(re.findall(r"%\((\w+)\)s", text))

    import gettext

    form_of = gettext.c2py(po.plural_expr)
    only_one = {i for i in range(po.num_plurals) if {n for n in range(1000) if form_of(n) == i} == {1}}
    for message in po:
        if message.id and isinstance(message.id, (tuple, list)):
            # every form says what the plural says, the number too, but a form said for 1
            # alone ("um eine Stunde") may leave it out: Russian's form of one also serves
            # 21, so there it cannot
            for i, form in enumerate(message.string):
                if i in only_one:
                    assert set(placeholders(form)) <= set(placeholders(message.id[1])), (message.id, form)
                else:
                    assert placeholders(form) == placeholders(message.id[1]), (message.id, form)
        elif message.id and "%(" in message.id:
            assert placeholders(message.id) == placeholders(message.string), message.id


@pytest.mark.parametrize("lang", ["de", "ru"])
@pytest.mark.parametrize("key", PAX_KEYS)
def test_pax_prompts_are_translated(lang, key):
    decision = {"prompt": "english", "prompt_key": key,
                "prompt_args": {"cost": 1, "laid": 0, "count": 3, "lay": 0, "senator_seat": 2}}
    text = telling.decision_prompt(lang, decision)
    assert text != "english" and "%(" not in text


def test_english_keeps_the_engines_sentence_and_unknown_keys_fall_back():
    assert telling.decision_prompt("en", {"prompt": "Buy a legion (3 aurei).", "prompt_key": "pax.buy"}) == \
        "Buy a legion (3 aurei)."
    assert telling.decision_prompt("de", {"prompt": "Do the thing.", "prompt_key": "other.thing"}) == "Do the thing."


def test_deadlines_read_in_the_players_zone_and_language():
    import datetime as dt

    moment = dt.datetime(2026, 11, 27, 19, 0, tzinfo=dt.timezone.utc)
    assert i18n.format_moment(moment, "de", "Europe/Berlin") == "Freitag, 27. November 2026, 20:00 (Europe/Berlin)"
    assert "ноября" in i18n.format_moment(moment, "ru", "Europe/Moscow")
    assert i18n.language_or_default("de-AT") == "de" and i18n.language_or_default("fr") == "en"


def test_the_template_catalogue_holds_every_marked_string(tmp_path):
    """A string marked for translation anywhere (pages, mail, service code) but missing
    from ``messages.pot`` would never reach the catalogues: extraction must find nothing new.
    Fix: ``python -m tools.i18n_refresh`` (and translate what it lists)."""
    from babel.messages.pofile import read_po

    from tools import i18n_refresh

    fresh = tmp_path / "messages.pot"
    i18n_refresh.extract(fresh)
    with open(fresh, "rb") as f:
        extracted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    with open(i18n.TRANSLATIONS_DIR / "messages.pot", "rb") as f:
        committed = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    assert sorted(extracted - committed) == [], "run python -m tools.i18n_refresh"


def _mail_with_earlier_events(lang: str, more: int) -> tuple[str, str]:
    """The notification mail's text and HTML in ``lang`` for one game whose section left
    ``more`` earlier events out (a section as :func:`service.notify.compose._section` makes it)."""
    section = {"game_id": "g1", "title": "Count to N", "kinds": ["news"], "headline": "News.",
               "game_url": "https://capua.test/games/g1", "events": ["Ann counted to 16."], "more_events": more,
               "decisions": [], "invitation": None, "outcome": None, "declined": [], "return_url": None, "talk": []}
    context = {"subject": "News", "sections": [section], "base_url": "https://capua.test",
               "preferences_url": "https://capua.test/settings/notifications",
               "unsubscribe_url": "https://capua.test/u", "unsubscribe_scope": "game", "lang": lang,
               "single_talk": False}
    env = i18n.mail_environment(lang)
    return (env.get_template("mail/notification.txt").render(**context),
            env.get_template("mail/notification.html").render(**context))


@pytest.mark.parametrize("lang,more,words", [
    ("en", 1, "(1 earlier event: see the game's log)"),
    ("en", 3, "(3 earlier events: see the game's log)"),
    ("de", 1, "(1 früheres Ereignis: siehe das Protokoll des Spiels)"),
    ("de", 3, "(3 frühere Ereignisse: siehe das Protokoll des Spiels)"),
    ("ru", 1, "(ещё 1 событие раньше: см. журнал игры)"),
    ("ru", 3, "(ещё 3 события раньше: см. журнал игры)"),
    ("ru", 5, "(ещё 5 событий раньше: см. журнал игры)"),
    ("ru", 21, "(ещё 21 событие раньше: см. журнал игры)")])
def test_the_events_a_mail_leaves_out_are_counted_in_the_readers_grammar(lang, more, words):
    text, html = _mail_with_earlier_events(lang, more)
    assert words in text
    assert words in html


@pytest.mark.parametrize("lang,etype,data,words", [
    ("en", "capua.BotTookOver", {"seat": 0, "missed": 1},
     "Ann missed a deadline: the bot plays the seat until they act again."),
    ("en", "capua.BotTookOver", {"seat": 0, "missed": 3},
     "Ann missed 3 deadlines in a row: the bot plays the seat until they act again."),
    ("de", "capua.BotTookOver", {"seat": 0, "missed": 1},
     "Ann hat eine Frist verpasst: der Bot spielt den Platz, bis wieder selbst gespielt wird."),
    ("ru", "capua.BotTookOver", {"seat": 0, "missed": 5},
     "Ann пропускает 5 сроков подряд: бот играет за это место, пока игрок не вернётся."),
    ("ru", "capua.BotTookOver", {"seat": 0, "missed": 21},
     "Ann пропускает 21 срок подряд: бот играет за это место, пока игрок не вернётся."),
    ("en", "capua.DeadlineExtended", {"by_seat": 0, "hours": 1}, "Ann extended the deadline by one hour."),
    ("en", "capua.DeadlineExtended", {"by_seat": 0, "hours": 24}, "Ann extended the deadline by 24 hours."),
    ("de", "capua.DeadlineExtended", {"by_seat": 0, "hours": 1}, "Ann hat die Frist um eine Stunde verlängert."),
    ("ru", "capua.DeadlineExtended", {"by_seat": 0, "hours": 1}, "Ann продлил(а) срок на 1 час."),
    ("ru", "capua.DeadlineExtended", {"by_seat": 0, "hours": 3}, "Ann продлил(а) срок на 3 часа."),
    ("ru", "capua.DeadlineExtended", {"by_seat": 0, "hours": 24}, "Ann продлил(а) срок на 24 часа.")])
def test_capuas_own_events_count_in_the_readers_grammar(lang, etype, data, words):
    assert telling.describe_event(lang, {"type": etype, "data": data}, {0: "Ann"}) == words


@pytest.mark.parametrize("lang,keep,lay,place", [
    ("en", "Keep Land (praedium)", "Lay Land (praedium)", "Place Land (praedium) under the deck"),
    ("de", "Behalten: Land (praedium)", "Auslegen: Land (praedium)", "Lege Land (praedium) unter den Stapel"),
    ("ru", "Оставить карту «Земля (praedium)»", "Выложить карту «Земля (praedium)»",
     "Положить карту «Земля (praedium)» под колоду"),
])
def test_a_pax_button_names_its_card_in_a_whole_sentence(lang, keep, lay, place):
    """Russian puts the card after «карту», in quotes, not in the nominative after the verb
    ("Оставить Земля")."""
    names = {"p1": {"en": "Land (praedium)", "de": "Land (praedium)", "ru": "Земля (praedium)"}[lang]}
    assert telling.command_label(lang, {"type": "keep_card", "args": {"card": "p1"}}, names, "pax") == keep
    assert telling.command_label(lang, {"type": "lay_card", "args": {"card": "p1"}}, names, "pax") == lay
    assert telling.command_label(lang, {"type": "assign_card", "args": {"card": "p1", "to": "deck"}}, names,
                                 "pax") == place
