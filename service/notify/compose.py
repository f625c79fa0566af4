"""One mail from a player's pending notifications: what happened, what is asked, by when.

Everything here renders from the notification rows' payloads (written by the fan-out
from ``rules.visible``, ``Decision.to_json()`` and ``rules.view`` for the recipient's
seat) and from the current ``open_decisions``/``seats`` rows, which say whether a
decision is still open and when it is due now.  Text and HTML come from the templates
``templates/mail/notification.txt`` and ``.html``, in the player's language, with every
time in the player's time zone.

Table-talk messages (kind ``talk``) are listed per game like everything else, each
with its own signed reply address (:func:`service.notify.talk.reply_address`) as a ``mailto:``
link, since a digest may carry several messages of several games; the mail's
``Reply-To`` is set only when it carries exactly one message, so that answering the
mail can only ever mean that message.
"""

from __future__ import annotations

import datetime as dt
import json
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.identity.settings import preferences_for
from service.notify import action_links, talk
from service.play import presets
from service.plumbing.config import Config
from service.plumbing.db import Game, Notification, OpenDecision, Seat, User
from service.words import game_names, i18n, telling
from service.words.seat_marks import is_unnamed_player, seat_letter

#: At most this many events are listed per game (the latest), then "and N more".
MAX_EVENT_LINES = 15
#: Words for a decision's named answers (``engine.spartacus.arena.plan.PRESETS``).
ANSWER_LABELS = {
    "close": i18n.N_("Fight plan: close in and strike"),
    "keep_distance": i18n.N_("Fight plan: keep your distance"),
    "blow_by_blow": i18n.N_("No plan: ask me every question of the fight"),
}


@dataclass
class Composed:
    subject: str
    text: str
    html: str
    headers: dict = field(default_factory=dict)


def _group(rows: Iterable[Notification]) -> dict[Optional[str], list[Notification]]:
    out: dict[Optional[str], list[Notification]] = {}
    for row in rows:
        out.setdefault(row.game_id, []).append(row)
    return out


@dataclass
class Context:
    """What composing needs from the database, read once for a batch of players."""

    prefs: dict
    games: dict
    open_rows: dict
    seats: dict

    @classmethod
    def load(cls, session: Session, users: Sequence[User], rows: Iterable[Notification]) -> "Context":
        game_ids = sorted({r.game_id for r in rows if r.game_id is not None})
        user_ids = [u.id for u in users]
        games = {g.id: g for g in session.scalars(select(Game).where(Game.id.in_(game_ids)))} if game_ids else {}
        open_rows = {(r.user_id, r.game_id, r.seat, r.decision_id): r for r in session.scalars(
            select(OpenDecision).where(OpenDecision.game_id.in_(game_ids), OpenDecision.user_id.in_(user_ids)))} \
            if game_ids else {}
        seats = {(s.game_id, s.seat): s for s in session.scalars(select(Seat).where(Seat.game_id.in_(game_ids)))} \
            if game_ids else {}
        return cls(prefs=preferences_for(session, list(users), None), games=games, open_rows=open_rows, seats=seats)


#: A player who opened the game's page this recently is taken to be playing there: no mail
#: asks them the question in front of them or tells them the moves they see (reminders
#: before a deadline still come).
ON_PAGE = dt.timedelta(minutes=10)


def _aware(moment: dt.datetime) -> dt.datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.timezone.utc)


def compose(session: Session, config: Config, user: User, rows: Sequence[Notification],
            now: dt.datetime, context: Optional[Context] = None) -> Optional[Composed]:
    """The mail for ``rows`` (all of ``user``'s pending notifications), or ``None`` when
    nothing in them still matters.  ``context`` is what :meth:`Context.load` read for a
    batch of players (read here for this one player when not given)."""
    context = context or Context.load(session, [user], rows)
    prefs = context.prefs[user.id]
    lang, tz = prefs.language, prefs.timezone
    _ = i18n.translator(lang)
    groups = _group(rows)
    games = context.games
    open_rows = {key[1:]: r for key, r in context.open_rows.items() if key[0] == user.id}
    seats = context.seats

    sections = []
    for game_id, group in groups.items():
        game = games.get(game_id)
        if game is None:
            continue
        section = _section(config, user, lang, tz, game, group, open_rows, seats, now)
        if section is not None:
            sections.append(section)
    if not sections:
        return None

    kinds = {k for s in sections for k in s["kinds"]}
    asking = [s for s in sections if s["decisions"]]
    said = [m for s in sections for m in s["talk"]]
    if any(s["invitation"] for s in sections):
        subject = _("Invitation to play %(title)s", title=next(s["title"] for s in sections if s["invitation"]))
    elif len(asking) == 1:
        subject = (_("Reminder: your move in %(title)s", title=asking[0]["title"]) if "reminder" in asking[0]["kinds"]
                   else _("Your move in %(title)s", title=asking[0]["title"]))
    elif asking:
        subject = _("Your move in %(n)s games", n=len(asking))
    elif kinds == {"talk"}:
        subject = _talk_subject(_, sections, said)
    elif "game_over" in kinds and len(sections) == 1:
        subject = _("%(title)s has ended", title=sections[0]["title"])
    elif "invitation_declined" in kinds and len(sections) == 1:
        subject = _("An invitation to %(title)s was declined", title=sections[0]["title"])
    elif len(sections) == 1:
        subject = _("News from %(title)s", title=sections[0]["title"])
    else:
        subject = _("News from %(n)s games", n=len(sections))

    single_game = sections[0]["game_id"] if len(sections) == 1 else None
    unsubscribe = action_links.unsubscribe_link(config, user_id=user.id, game_id=single_game)
    base = config.base_url.rstrip("/")
    context = {
        "subject": subject, "sections": sections, "base_url": base,
        "preferences_url": f"{base}/settings/notifications", "unsubscribe_url": unsubscribe,
        "unsubscribe_scope": "game" if single_game else "all", "lang": lang,
        "single_talk": len(said) == 1,
    }
    env = i18n.mail_environment(lang)
    text = env.get_template("mail/notification.txt").render(**context)
    html = env.get_template("mail/notification.html").render(**context)
    headers = {"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    if single_game:
        headers["X-Capua-Game"] = single_game
    if len(said) == 1 and said[0]["reply_address"]:
        headers["Reply-To"] = said[0]["reply_address"]
    return Composed(subject=subject, text=text, html=html, headers=headers)


def _section(config: Config, user: User, lang: str, tz: str, game: Game, rows: Sequence[Notification],
             open_rows: Mapping[tuple, OpenDecision], seats: Mapping[tuple, Seat], now: dt.datetime) -> Optional[dict]:
    """Everything one mail says about one game."""
    _ = i18n.translator(lang)
    kinds = {r.kind for r in rows}
    base = config.base_url.rstrip("/")
    names: dict[int, str] = {}
    events_by_seq: dict[int, dict] = {}
    decisions: dict[tuple[int, str], tuple[Notification, dict]] = {}
    outcome = None
    invitation = None
    declined = []
    said: dict[int, dict] = {}
    for row in rows:
        payload = row.payload or {}
        if row.kind == "talk" and payload.get("message"):
            said[int(payload["message"]["id"])] = payload["message"]
        names.update({int(k): v for k, v in (payload.get("seat_names") or {}).items()})
        for event in payload.get("events") or ():
            events_by_seq[event["seq"]] = event
        for decision in payload.get("decisions") or ():
            decisions[(row.seat, decision["id"])] = (row, decision)
        if row.kind == "game_over":
            outcome = payload.get("outcome") or game.outcome
        if row.kind == "invitation":
            seat = seats.get((game.id, row.seat))
            if seat is not None and seat.user_id is None and seat.invited_email == payload.get("email") \
                    and game.status == "open":
                links = action_links.invitation_links(config, game_id=game.id, seat=row.seat,
                                                      email=payload["email"], now=now)
                invitation = {"inviter": payload.get("inviter") or "", "seats": game.seat_count,
                              "game_type": game.game_type, "accept_url": links["accept"],
                              "decline_url": links["decline"],
                              "until": i18n.format_moment(now + action_links.INVITATION_TTL, lang, tz)}
        if row.kind == "invitation_declined":
            declined.append(_("%(email)s declined your invitation to seat %(n)s; that seat is now open to anyone "
                              "with the game's link.", email=payload.get("declined_by", ""),
                              n=seat_letter(payload.get("declined_seat", 0))))

    for (gid, n), s in seats.items():
        if gid == game.id and s.is_bot:
            names[n] = _("Bot %(n)s", n=seat_letter(n))  # the reader's word, not the payload's English
    asked = []
    on_page = {n for (gid, n), s in seats.items() if gid == game.id and s.user_id == user.id
               and s.on_page_at is not None and now - _aware(s.on_page_at) < ON_PAGE}
    for (seat_no, decision_id), (row, decision) in sorted(decisions.items(), key=lambda kv: kv[1][0].id):
        current = open_rows.get((game.id, seat_no, decision_id))
        if current is None:  # answered meanwhile (on the site, by a link, by its deadline)
            continue
        if seat_no in on_page and row.kind != "reminder":  # the question is in front of them
            continue
        links = action_links.decision_links(config, game_id=game.id, seat=seat_no, user_id=user.id,
                                            decision=decision, deadline=current.deadline_at, now=now)
        cards = decision.get("cards") or {}
        named = {_command_key(a["command"]): a["key"] for a in decision.get("answers") or ()}
        orders = action_links.order_links(config, game_id=game.id, seat=seat_no, user_id=user.id, decision=decision,
                                          deadline=current.deadline_at, now=now)
        asked.append({
            "prompt": telling.decision_prompt(lang, decision, game.game_type, names),
            "deadline": i18n.format_moment(current.deadline_at, lang, tz) if current.deadline_at else "",
            "paused": current.deadline_at is None and current.paused_remaining_s is not None,
            "default_label": telling.command_label(lang, decision["default"], cards, game.game_type, names)
            if decision.get("default") and decision.get("mode") != "free" else "",
            "buttons": [{"label": _(ANSWER_LABELS[named[_command_key(command)]])
                         if named.get(_command_key(command)) in ANSWER_LABELS
                         else telling.command_label(lang, command, cards, game.game_type, names), "url": url}
                        for command, url in links["buttons"]],
            "orders": [{"label": presets.name_of(key, (decision.get("presets") or {}).get("lot_types") or (), lang),
                        "url": url} for key, url in orders],
            "choose_url": links["choose_url"],
            "reminder": row.kind == "reminder",
        })

    # a player on the page sees the moves there (they are listed above the board)
    lines = [] if on_page else \
        [telling.describe_event(lang, e, names, tz, game.game_type) for _seq, e in sorted(events_by_seq.items())]
    more = max(0, len(lines) - MAX_EVENT_LINES)
    lines = lines[-MAX_EVENT_LINES:]
    outcome_text = _outcome_text(lang, outcome, names) if outcome else None
    talk_lines = [_talk_entry(config, user, lang, tz, game, said[i]) for i in sorted(said)]
    if not (asked or lines or invitation or outcome_text or declined or talk_lines):
        return None
    my_seat = next((s for (gid, _n), s in seats.items() if gid == game.id and s.user_id == user.id), None)
    return_url = None
    if my_seat is not None and my_seat.bot_since is not None and game.status == "running":
        return_url = action_links.return_link(config, game_id=game.id, seat=my_seat.seat, user_id=user.id, now=now)
    title = game_names.title_in(lang, game.title, game.game_type)
    if invitation:
        headline = _("%(inviter)s invites you to play %(title)s.", inviter=invitation["inviter"] or _("Someone"),
                     title=title)
    elif asked and any(a["reminder"] for a in asked):
        headline = _("Reminder: %(title)s is waiting for your answer.", title=title)
    elif asked:
        headline = _("It is your move in %(title)s.", title=title)
    elif outcome_text:
        headline = _("%(title)s has ended.", title=title)
    elif talk_lines and not lines:
        headline = _("Table talk in %(title)s.", title=title)
    else:
        headline = _("What happened in %(title)s.", title=title)
    return {
        "game_id": game.id, "title": title, "kinds": sorted(kinds), "headline": headline,
        "game_url": f"{base}/games/{game.id}", "events": lines, "more_events": more, "decisions": asked,
        "invitation": invitation, "outcome": outcome_text, "declined": declined, "return_url": return_url,
        "talk": talk_lines,
    }


def _command_key(command: Mapping[str, Any]) -> str:
    return json.dumps({"type": command.get("type"), "args": command.get("args") or {}}, sort_keys=True)


def _talk_entry(config: Config, user: User, lang: str, tz: str, game: Game, message: Mapping[str, Any]) -> dict:
    """One table-talk message of a mail, with the reply address made for this reader and
    this message (``None`` when replies by mail are off)."""
    _ = i18n.translator(lang)
    address = talk.reply_address(config, user.id, int(message["id"]))
    reply_url = None
    if address:
        subject = urllib.parse.quote(_("Re: %(game)s", game=game_names.title_in(lang, game.title, game.game_type)))
        reply_url = f"mailto:{address}?subject={subject}"
    try:
        moment = dt.datetime.fromisoformat(message["created_at"])
    except (KeyError, TypeError, ValueError):
        moment = None
    if moment is not None and moment.tzinfo is None:  # SQLite hands times back without a zone; they are UTC
        moment = moment.replace(tzinfo=dt.timezone.utc)
    when = i18n.format_moment(moment, lang, tz)
    return {
        "id": int(message["id"]), "public": bool(message.get("public")),
        "sender_name": _said_name(_, message.get("sender_seat"), message.get("sender_name") or ""),
        "to_names": ", ".join(_said_name(_, seat, name)
                              for seat, name in zip(message.get("to") or (), message.get("to_names") or ())),
        "body": message.get("body") or "", "when": when, "reply_address": address, "reply_url": reply_url,
    }


def _said_name(_, seat: Any, name: str) -> str:
    """A name in the table talk as the reader says it: a player without a name by their
    seat ("Platz B"), not the message's English "Player B"."""
    if is_unnamed_player(name, seat):
        return _("Seat %(n)s", n=seat_letter(seat))
    return name


def _talk_subject(_, sections: Sequence[dict], said: Sequence[dict]) -> str:
    """The subject of a mail that carries nothing but table talk."""
    if len(said) == 1:
        title, message = next((s["title"], s["talk"][0]) for s in sections if s["talk"])
        if message["public"]:
            return _("%(game)s: %(sender)s says", game=title, sender=message["sender_name"])
        return _("%(game)s: %(sender)s writes to you privately", game=title, sender=message["sender_name"])
    if len(sections) == 1:
        return _("%(game)s: %(n)s messages at the table", game=sections[0]["title"], n=len(said))
    return _("Table talk in %(n)s games", n=len(sections))


def _outcome_text(lang: str, outcome: Mapping[str, Any], names: Mapping[int, str]) -> str:
    _ = i18n.translator(lang)
    winners = [names.get(int(w), _("Seat %(n)s", n=seat_letter(w))) for w in outcome.get("winners") or ()]
    if not winners:
        return _("Nobody won.")
    return _("Winner: %(names)s.", names=", ".join(winners)) if len(winners) == 1 \
        else _("Winners: %(names)s.", names=", ".join(winners))
