"""The web pages: landing, my games, a new game, a game, its history, and the
developer's mail outbox.

Pages are thin: they read through ``service.play.games`` (which renders every board from the
engine's ``view`` for the asking player, so a page can only show what that player may
see) and change things through the same service functions as the API
(``create_game``, ``submit_command``, ``join_game``...).  Forms post back to the page
that showed them and redirect after success; a refusal is shown on the page with the
game as it is now, and when someone moved first, with what changed since.

Decisions render generically (:mod:`service.web.schema_forms`): enumerated options become
buttons, a JSON-schema decision becomes a form with one field per argument, so a new
game needs no new page code (a board template of its own is optional:
``templates/games/board_<game>.html``).  Words come from the game's terms module
(``service/words/terms/<game>.py``), which may also list in ``CONFIRM`` the command types that
go through the confirm page before they are sent; its ``outcome`` tells how a finished
game ended (sentences and a table of points), else the page lists winners, ranking and
scores by player name.  Times are shown in the visitor's language and time zone.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any, Mapping, Optional

from flask import Blueprint, Flask, abort, current_app, redirect, render_template, request, url_for
from flask import session as cookie
from flask_babel import gettext as _, ngettext
from jinja2 import TemplateNotFound
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from engine import registry
from engine.pax import interrupt as pax_interrupt
from service.identity import auth
from service.notify import action_links, talk
from service.play import absence, deadlines, game_clock, games, presets, standing_orders
from service.plumbing import converters, mail
from service.plumbing.database import config as app_config, session as db_session
from service.plumbing.config import is_loopback_host
from service.plumbing.db import Game, Seat
from service.plumbing.errors import Conflict, InvalidInput, LostRace, ServiceError, StaleVersion
from service.plumbing.json_input import read_json
from service.web import boards, refusals, schema_forms, setup_form
from service.words import i18n, seat_marks, telling, terms
from service.words.i18n import N_
from service.words.seat_marks import seat_letter

bp = Blueprint("pages", __name__)
dev = Blueprint("dev", __name__, url_prefix="/dev")

_GAME_NAME = re.compile(r"^[a-z0-9_]{1,32}$")


# --------------------------------------------------------------------------- landing, my games


@bp.get("/")
def landing():
    return render_template("pages/landing.html")


@bp.get("/games")
def my_games():
    """My games in four lists: awaiting my answer (soonest deadline first), running,
    open (invitations to accept or decline, games waiting for players), finished."""
    user = auth.current_user()
    if user is None:
        return _to_signin()
    return _render_my_games(user)


def _render_my_games(user, error: Optional[str] = None, status: int = 200):
    groups: dict[str, list[dict]] = {"awaiting": [], "running": [], "open": [], "finished": []}
    for game in games.games_for_user(db_session(), user):
        if game["status"] == "running" and game["my_open_decisions"]:
            groups["awaiting"].append(game)
        else:
            groups.get(game["status"], groups["running"]).append(game)
    far = dt.datetime.max.replace(tzinfo=dt.timezone.utc)
    groups["awaiting"].sort(key=lambda g: g["my_next_deadline"] or far)
    return render_template("pages/games.html", groups=groups, any_games=any(groups.values()), error=error), status


@bp.post("/games/<game_id>/decline")
def game_decline(game_id: str):
    """Decline my invitation: the seat opens to anyone, and the creator hears of it
    (as the "decline" link of the invitation mail does)."""
    user = auth.current_user()
    if user is None:
        return _to_signin(url_for("pages.my_games"))
    s = db_session()
    try:
        game = s.get(Game, game_id)
        seat = games.game_summary(s, game, user).get("invited_seat") if game is not None else None
        if game is None or game.status != "open" or seat is None:
            raise Conflict(_("There is no invitation of yours to decline in this game."), code="no_invitation")
        action_links._decline(s, app_config(), game, seat, user)
        s.commit()
    except ServiceError as err:
        s.rollback()
        return _render_my_games(user, error=refusals.refusal(err, _language()), status=err.status)
    _notify_committed_mail()
    return redirect(url_for("pages.my_games"), code=303)


# --------------------------------------------------------------------------- a new game


@bp.get("/games/new")
def new_game():
    """The new-game form; ``?game=<type>`` shows that game's options (first: the list)."""
    user = auth.current_user()
    if user is None:
        return _to_signin()
    game_type = request.args.get("game", "")
    if game_type not in registry.names():
        return render_template("pages/new_game.html", game_types=setup_form.game_types(), form=None,
                               error=_("Choose one of the games offered.") if game_type else None), \
            400 if game_type else 200
    return _render_new_game(game_type, setup_form.blank(game_type, user.timezone or "UTC",
                                                        app_config().default_clock_hours, app_config().bot_level))


@bp.post("/games/new")
def new_game_create():
    """Create the game through :func:`service.play.games.create_game`, as ``POST /api/v1/games``
    does; a refusal shows the form again, as it was filled in, with the reason."""
    user = auth.current_user()
    if user is None:
        return _to_signin(url_for("pages.new_game"))
    s = db_session()
    game_type = request.form.get("game_type", "")
    try:
        wanted = setup_form.read(request.form, _language())
        game = games.create_game(s, app_config(), creator=user, game_type=wanted["game_type"],
                                 options=wanted["options"], seats=wanted["seats"], invites=wanted["invites"],
                                 bot_seats=wanted["bot_seats"], bot_levels=wanted["bot_levels"],
                                 creator_seat=wanted["creator_seat"],
                                 title=wanted["title"], clock=wanted["clock"])
        game_id = game.id
        s.commit()
    except InvalidInput as err:
        s.rollback()
        if game_type not in registry.names():
            return render_template("pages/new_game.html", game_types=setup_form.game_types(), form=None,
                                   error=refusals.refusal(err, _language())), 422
        message, field = setup_form.explain(err)
        return _render_new_game(game_type, request.form, error=message, error_field=field, status=422)
    _notify_committed_mail()
    return redirect(url_for("pages.game_page", game_id=game_id), code=303)


def _render_new_game(game_type: str, form: MultiDict, *, error: Optional[str] = None,
                     error_field: Optional[str] = None, status: int = 200):
    counts = setup_form.seat_counts(game_type)
    return render_template(
        "pages/new_game.html", game_types=setup_form.game_types(), game_type=game_type, form=form,
        option_fields=schema_forms.refill(setup_form.option_fields(game_type, _language()), form),
        seat_counts=counts, seat_rows=range(max(counts)), roles=setup_form.ROLES,
        bot_levels=setup_form.BOT_LEVELS, stand_ins=setup_form.STAND_INS,
        clock_hours=setup_form.clock_choices(app_config().default_clock_hours), time_zone_groups=setup_form.time_zone_groups(),
        error=error, error_field=error_field,
    ), status


# --------------------------------------------------------------------------- one game


@bp.get("/games/<game_id>")
def game_page(game_id: str):
    return _render_game(game_id)


@bp.post("/games/<game_id>/act")
def game_act(game_id: str):
    """Answer one of my decisions; on refusal show why, with the current state and, when
    someone moved first, what changed since the page was drawn.  A command the game
    marks irreversible (``CONFIRM`` in its terms) is first shown on the confirm page."""
    user = auth.current_user()
    if user is None:
        return _to_signin(url_for("pages.game_page", game_id=game_id))
    s = db_session()
    version: Optional[int] = None
    try:
        version = _form_int(request.form, "version")
        command = _command_from_form(s, game_id, user, request.form)
        game = s.get(Game, game_id)
        if game is not None and request.form.get("confirmed") != "1" \
                and _needs_confirmation(game.game_type, command["type"]):
            return _render_choose(game_id, user, request.form.get("decision_id", ""), command, version)
        games.submit_command(s, app_config(), game_id, user, command_type=command["type"], args=command["args"],
                             expected_version=version)
        s.commit()
    except ServiceError as err:
        s.rollback()
        moved = isinstance(err, (StaleVersion, LostRace))
        return _render_game(game_id, error=_page_message(err), status=err.status,
                            changed_since=version if moved else None)
    _notify_committed_mail()
    return redirect(url_for("pages.game_page", game_id=game_id), code=303)


@bp.post("/games/<game_id>/standing-order")
def game_standing_order(game_id: str):
    """Give a standing-order preset (:mod:`service.play.presets`) from a decision of the
    game page; it answers that decision at once when it matches."""
    user = auth.current_user()
    if user is None:
        return _to_signin(url_for("pages.game_page", game_id=game_id))
    s = db_session()
    try:
        presets.give(s, app_config(), user, game_id, request.form.get("preset", ""),
                     decision_id=request.form.get("decision_id") or None,
                     lot_types=request.form.getlist("lot_types"), language=_language())
        s.commit()
    except ServiceError as err:
        s.rollback()
        return _render_game(game_id, error=_page_message(err), status=err.status)
    _notify_committed_mail()
    return redirect(url_for("pages.game_page", game_id=game_id), code=303)


@bp.get("/games/<game_id>/choose")
def game_choose(game_id: str):
    """The confirm page of a choice made on the board (a hex, a track section) or of an
    irreversible option: shows the choice and one button that POSTs it to
    :func:`game_act`.  A GET never acts."""
    user = auth.current_user()
    if user is None:
        return _to_signin()
    try:
        command = read_json(request.args.get("command", ""), what="The choice")
        version = int(request.args.get("version", ""))
    except (ValueError, ServiceError):
        return _render_game(game_id, error=_("That choice could not be read; choose again."), status=400)
    if not isinstance(command, dict) or not isinstance(command.get("type"), str) \
            or not isinstance(command.get("args", {}), dict):
        return _render_game(game_id, error=_("That choice could not be read; choose again."), status=400)
    return _render_choose(game_id, user, request.args.get("decision", ""), command, version)


def _render_choose(game_id: str, user, decision_id: str, command: Mapping[str, Any], version: int):
    """The confirm page of ``command`` answering decision ``decision_id`` (any of mine
    whose options or command type it matches when the form named none)."""
    s = db_session()
    mine = games.decisions_for(s, game_id, user)
    decision = next((d for d in mine if d.get("id") == decision_id), None) if decision_id else \
        next((d for d in mine if _answers(d, command)), None)
    if decision is None or decision.get("version") != version:
        return _render_game(game_id, error=_moved_first(), status=409, changed_since=version)
    view = games.game_view(s, game_id, user)
    board = view.get("board") or {}
    game = board.get("game") or view.get("game_type")
    language = _language()
    return render_template(
        "pages/choose.html", game_id=game_id, summary=view, version=version, decision_id=decision.get("id"),
        prompt=telling.decision_prompt(language, decision, game, _seat_names(view)),
        label=_with_price(telling.command_label(language, command, _card_names(board, game, language), game,
                                                _seat_names(view)),
                          _price_of(command, decision, _card_prices(board))),
        irreversible=_needs_confirmation(game, str(command.get("type"))),
        command=json.dumps({"type": command["type"], "args": command.get("args") or {}}, sort_keys=True),
    )


def _answers(decision: Mapping[str, Any], command: Mapping[str, Any]) -> bool:
    if decision.get("options") is not None:
        return any(o.get("type") == command.get("type") and (o.get("args") or {}) == (command.get("args") or {})
                   for o in decision["options"])
    return decision.get("command_type") == command.get("type")


@bp.get("/games/<game_id>/history")
def game_history(game_id: str):
    """The game's log as the viewer may see it, one line per event, and the board as it
    stood after event ``?at=N`` (the replay: a slider and first/previous/next/last)."""
    user = auth.current_user()
    s = db_session()
    view = games.game_view(s, game_id, user)
    version = view["version"]
    error, at = None, version
    text = request.args.get("at", "").strip()
    if text:
        try:
            at = int(text)
        except ValueError:
            at = -1
        if not 0 <= at <= version:
            error, at = ngettext("There is no step %(at)s: this game has %(num)s step.",
                                 "There is no step %(at)s: this game has %(num)s steps.", version,
                                 at=text[:20]), version
    language, zone = _language(), _timezone()
    seat_names = _seat_names(view)
    game_type = view.get("game_type")
    events = []
    cursor = 0
    while True:
        page = games.visible_events(s, game_id, user, after=cursor, limit=games.MAX_EVENTS_PAGE)
        if not page:
            break
        events.extend(page)
        cursor = page[-1]["seq"]
    lines = [{"seq": e["seq"], "at": _short_moment(e.get("at"), language, zone),
              "seat": e["data"].get("seat") if isinstance(e["data"].get("seat"), int) else None,
              "text": telling.describe_event(language, e, seat_names, zone, game_type)} for e in events]
    for line in lines:
        line["mark"] = seat_marks.seat_style(line["seat"]) if line["seat"] is not None else None
        line["seat_name"] = seat_names.get(line["seat"], "") if line["seat"] is not None else ""
    board = games.view_at(s, game_id, user, at)["board"] or {}
    drawing = boards.prepare(board.get("game"), board, language=language, game_id=game_id, version=at,
                             seat=view.get("my_seat"), decisions=[])
    return render_template(
        "pages/history.html", game_id=game_id, summary=view, lines=lines, at=at, version=version,
        board=board, board_template=_board_template(board), drawing=drawing, decisions=[], seat_names=seat_names,
        time_zone=zone, error=error, replay=True,
    ), 400 if error else 200


@bp.post("/games/<game_id>/join")
def game_join(game_id: str):
    user = auth.current_user()
    if user is None:
        return _to_signin(url_for("pages.game_page", game_id=game_id))
    s = db_session()
    try:
        games.join_game(s, app_config(), game_id, user)
        s.commit()
    except ServiceError as err:
        s.rollback()
        return _render_game(game_id, error=refusals.refusal(err, _language()), status=err.status)
    _notify_committed_mail()
    return redirect(url_for("pages.game_page", game_id=game_id), code=303)


@bp.post("/games/<game_id>/messages")
def game_talk(game_id: str):
    """Post a table-talk message (public, or private to the seats ticked)."""
    user = auth.current_user()
    if user is None:
        return _to_signin(url_for("pages.game_page", game_id=game_id))
    s = db_session()
    try:
        to = [_form_seat(v) for v in request.form.getlist("to")] or None
        talk.post_message(s, app_config(), game_id, user, body=request.form.get("body", ""), to=to, via="web")
        s.commit()
    except ServiceError as err:
        s.rollback()
        return _render_game(game_id, error=refusals.refusal(err, _language()), status=err.status)
    _notify_committed_mail()
    return redirect(url_for("pages.game_page", game_id=game_id) + "#talk", code=303)


# --------------------------------------------------------------------------- the clock: creator's controls, "I am back"


@bp.post("/games/<game_id>/pause")
def game_pause(game_id: str):
    """The creator pauses the game (as ``POST /api/v1/games/{id}/pause``)."""
    return _clock_action(game_id, lambda s, user: deadlines.pause(
        s, app_config(), game_id, user, request.form.get("reason", "").strip()))


@bp.post("/games/<game_id>/resume")
def game_resume(game_id: str):
    """The creator resumes a paused game (as ``POST /api/v1/games/{id}/resume``)."""
    return _clock_action(game_id, lambda s, user: deadlines.resume(s, app_config(), game_id, user))


@bp.post("/games/<game_id>/deadlines/extend")
def game_extend(game_id: str):
    """The creator extends the open deadlines, of one seat if the form names it."""
    def extend(s, user):
        hours = _form_int(request.form, "hours", _("The hours to extend by must be a whole number."))
        seat_text = request.form.get("seat", "").strip()
        seat = _form_seat(seat_text) if seat_text else None
        deadlines.extend(s, app_config(), game_id, user, hours, seat)

    return _clock_action(game_id, extend)


@bp.post("/games/<game_id>/return")
def game_return(game_id: str):
    """"I am back": the player takes their seat back from the bot (as ``/return``)."""
    return _clock_action(game_id, lambda s, user: absence.take_back_seat(s, app_config(), game_id, user))


def _clock_action(game_id: str, act):
    user = auth.current_user()
    if user is None:
        return _to_signin(url_for("pages.game_page", game_id=game_id))
    s = db_session()
    try:
        act(s, user)
        s.commit()
    except ServiceError as err:
        s.rollback()
        return _render_game(game_id, error=refusals.refusal(err, _language()), status=err.status)
    _notify_committed_mail()
    return redirect(url_for("pages.game_page", game_id=game_id) + "#clock", code=303)


def _clock_panel(s, game_id: str, user) -> Optional[dict]:
    """The clock panel: the game's clock policy (public) and what it offers ``user``: the
    creator's pause/resume/extend, and "I am back" to a player whose seat the bot plays.
    ``None`` once the game has ended."""
    game = s.get(Game, game_id)
    if game is None or game.status == "finished":
        return None
    clock = deadlines.clock_view(s, game_id)
    my_seat = s.scalar(select(Seat).where(Seat.game_id == game_id, Seat.user_id == user.id)) \
        if user is not None else None
    return {
        "policy": clock,
        "running": game.status == "running",
        "creator": user is not None and game.created_by == user.id and game.status == "running",
        "paused": clock["paused"],
        "has_deadlines": bool(clock["deadlines"]),
        "seats": list(range(game.seat_count)),
        "max_hours": game_clock.MAX_CLOCK_HOURS,
        "bot_plays_me": game.status == "running" and my_seat is not None and my_seat.bot_since is not None,
        "windows": _windows_of(game),
    }


def _windows_of(game: Game) -> Optional[str]:
    """The answer windows ``game`` can open, which run on the clock's time per window
    answer: ``"reactions"`` (Spartacus: react, use a guard or pass), ``"senators"`` (PAX
    with two copies of the game: lay a card after a senator, or pass), or ``None`` (the
    game has none, and the clock panel does not speak of them)."""
    if game.game_type == "spartacus":
        return "reactions"
    if game.game_type == "pax" and game.seat_count >= pax_interrupt.MIN_SEATS:
        return "senators"
    return None


def _form_seat(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise InvalidInput(_("The form named an unknown seat; reload the page."), code="bad_form") from None


def _render_game(game_id: str, *, error: Optional[str] = None, status: int = 200,
                 changed_since: Optional[int] = None):
    """The game page as it is now; ``changed_since``: also list what the viewer may see
    of the events after that version (the version a refused, stale form was drawn at)."""
    user = auth.current_user()
    s = db_session()
    view = dict(games.game_view(s, game_id, user))
    board = view.pop("board", None) or {}
    game = board.get("game") or view.get("game_type")
    language, zone = _language(), _timezone()
    decisions = list(games.decisions_for(s, game_id, user)) if user is not None else []
    names = _card_names(board, game, language)
    seat_names = _seat_names(view)
    drawing = boards.prepare(board.get("game"), board, language=language, game_id=game_id,
                             version=view.get("version"), seat=view.get("my_seat"), decisions=decisions)
    changes = None
    if changed_since is not None and 0 <= changed_since < view["version"]:
        changes = [telling.describe_event(language, e, seat_names, zone, game)
                   for e in games.visible_events(s, game_id, user, after=changed_since,
                                                 limit=games.MAX_EVENTS_PAGE)]
    recent = _since_last_visit(s, game_id, user, view["version"], language, zone, seat_names, game) \
        if changes is None else None
    games.mark_on_page(s, game_id, user)
    s.commit()
    return render_template(
        "pages/game.html",
        game_id=game_id,
        summary=view,
        board=board,
        board_template=_board_template(board),
        drawing=drawing,
        outcome=_outcome(view.get("outcome") or board.get("outcome"), seat_names, game, language),
        seat_names=seat_names,
        decisions=[_decision_form(d, game, names, seat_names, language, zone, _card_prices(board),
                                  phased=standing_orders.phase_in(board) is not None)
                   for d in decisions],
        error=error,
        changes=changes,
        recent=recent,
        talk=_talk_in_words(talk.latest_for(s, game_id, user), seat_names),
        clock=_clock_panel(s, game_id, user),
        my_orders=_orders_here(s, user, game_id, view.get("game_type") or game) if view.get("my_seat") is not None else [],
        time_zone=zone,
        bot_level_words=dict(setup_form.STAND_INS),
    ), status


def _orders_here(s, user, game_id: str, game_type: Optional[str]) -> list:
    """The viewer's standing orders that may answer in this game: its own, then those for
    all their games of its type, then those for all their games (the order they are tried)."""
    if user is None:
        return []
    return [o for o in standing_orders.list_orders(s, user)
            if o.game_id == game_id or (o.game_id is None and o.game_type in (None, game_type))]


#: How many moves "since your last visit" lists (the rest are in the history), and how
#: many games' last-seen versions the browser's session cookie keeps.
RECENT_MOVES = 12
SEEN_GAMES = 40


def _since_last_visit(s, game_id: str, user, version: int, language: str, zone: str,
                      seat_names: Mapping[int, str], game: Any) -> Optional[dict]:
    """What happened since this browser last drew the game's page (the bots' and the other
    players' moves, and my own): at most :data:`RECENT_MOVES` lines, newest last, or
    ``None`` on a first visit and when nothing happened.  The version seen is kept in the
    session cookie, so nothing is stored per visit."""
    if user is None:
        return None
    seen = dict(cookie.get("seen") or {})
    before = seen.pop(game_id, None)
    seen[game_id] = version
    cookie["seen"] = dict(list(seen.items())[-SEEN_GAMES:])
    if not isinstance(before, int) or not 0 <= before < version:
        return None
    events = []
    cursor = before
    while True:  # the newest moves matter: page through to the end, keeping the last few
        page = games.visible_events(s, game_id, user, after=cursor, limit=games.MAX_EVENTS_PAGE)
        if not page:
            break
        events = (events + page)[-(RECENT_MOVES + 1):]
        cursor = page[-1]["seq"]
    if not events:
        return None
    shown = events[-RECENT_MOVES:]
    return {"lines": [{"seat": e["data"].get("seat") if isinstance(e["data"].get("seat"), int) else None,
                       "text": telling.describe_event(language, e, seat_names, zone, game)} for e in shown],
            "more": len(events) > RECENT_MOVES}


def _talk_in_words(said: Optional[dict], seat_names: Mapping[int, str]) -> Optional[dict]:
    """The table talk with its writers, readers and addressees named as the page names
    the seats (the reader's words: "Platz B", not the API's "Player B")."""
    if not said:
        return said
    messages = [{**m, "sender_name": seat_names.get(m["sender_seat"], m["sender_name"]),
                 "to_names": [seat_names.get(n, name) for n, name in zip(m["to"], m["to_names"])]
                 if m.get("to") is not None and m.get("to_names") is not None else m.get("to_names")}
                for m in said["messages"]]
    others = [{**o, "name": seat_names.get(o["seat"], o["name"])} for o in said["others"]]
    return {**said, "messages": messages, "others": others}


def _seat_names(view: Mapping[str, Any]) -> dict[int, str]:
    """Seat -> how the page names it: ``Ann (seat A)``; an empty seat by its letter, as the boards mark it."""
    out = {}
    for seat in view.get("seats") or []:
        if isinstance(seat, Mapping) and isinstance(seat.get("seat"), int):
            n = seat["seat"]
            if seat.get("is_bot"):
                out[n] = _("Bot %(n)s", n=seat_letter(n))  # (the view's name is the API's English ``Bot B``)
            elif seat_marks.is_unnamed_player(seat.get("name"), n):
                out[n] = _("Seat %(n)s", n=seat_letter(n))  # a player without a name: the seat, in words
            else:
                out[n] = _("%(name)s (seat %(n)s)", name=seat["name"], n=seat_letter(n)) if seat.get("name") \
                    else _("Seat %(n)s", n=seat_letter(n))
    return out


def _outcome(outcome: Any, seat_names: Mapping[int, str], game: Any = None,
             language: str = i18n.DEFAULT_LANGUAGE) -> Optional[dict]:
    """The outcome with seats named: winners, ranking, scores (best first), and the
    game's own account of it in ``language`` (``panel``: sentences and a table, from the
    ``outcome`` of its terms), drawn instead of the generic lines when the game has one."""
    if not isinstance(outcome, Mapping):
        return None

    def name(seat: Any) -> str:
        try:
            n = int(seat)
        except (TypeError, ValueError):
            return str(seat)
        return seat_names.get(n) or _("Seat %(n)s", n=seat_letter(n))

    scores = outcome.get("scores") or {}
    ranking = list(outcome.get("ranking") or [])
    order = ranking + sorted((int(k) for k in scores if str(k).isdigit() and int(k) not in ranking))
    return {
        "winners": [name(w) for w in outcome.get("winners") or []],
        "has_winners": "winners" in outcome,
        "ranking": [name(r) for r in ranking],
        "scores": [(name(seat), scores.get(str(seat), scores.get(seat))) for seat in order
                   if str(seat) in scores or seat in scores],
        "panel": terms.outcome(game, outcome, language, seat_names),
    }


def _board_template(board: Mapping[str, Any]) -> str:
    """``games/board_<game>.html`` when that game has its own, else the generic dump."""
    name = board.get("game")
    if isinstance(name, str) and _GAME_NAME.match(name):
        candidate = f"games/board_{name}.html"
        try:
            current_app.jinja_env.get_template(candidate)
            return candidate
        except TemplateNotFound:
            pass
    return "games/board_generic.html"


_language = auth.page_language


def _timezone() -> str:
    """The visitor's time zone (UTC for visitors who are not signed in)."""
    user = auth.current_user()
    return (user.timezone if user is not None else None) or "UTC"


def _card_names(board: Any, game: Any, language: str) -> dict[str, str]:
    """Card id -> its name in ``language``, for every card the viewer's board shows."""
    return {card_id: terms.card_name(game, card_id, language, str(card.get("name") or card_id))
            for card_id, card in _cards_by_id(board).items()}


def _moved_first() -> str:
    return _("Someone moved first — here is the game as it is now. Choose again.")


def _page_message(err: ServiceError) -> str:
    if isinstance(err, (StaleVersion, LostRace)):
        return _moved_first()
    return refusals.refusal(err, _language())


def _notify_committed_mail() -> None:
    """Have the mail this request committed (turn notifications...) delivered."""
    mail.notify_mail_committed(current_app, mail.take_queued(db_session()))


# --------------------------------------------------------------------------- deadlines as the player reads them


def moment(value: Any) -> str:
    """A deadline in the visitor's language and time zone (``Freitag, 27. November 2026,
    20:00 (Europe/Berlin)``)."""
    return i18n.format_moment(value, _language(), _timezone()) if isinstance(value, dt.datetime) else ""


def time_left(value: Any, now: Optional[dt.datetime] = None) -> str:
    """How long until ``value``: ``2 d 5 h left``, ``3 h 20 min left``, ``time is up``."""
    if not isinstance(value, dt.datetime):
        return ""
    now = now or dt.datetime.now(dt.timezone.utc)
    minutes = int((value - now).total_seconds() // 60)
    if minutes <= 0:
        return _("time is up")
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return _("%(days)s d %(hours)s h left", days=days, hours=hours)
    if hours:
        return _("%(hours)s h %(minutes)s min left", hours=hours, minutes=mins)
    return _("%(minutes)s min left", minutes=mins)


def _short_moment(value: Any, language: str, zone: str) -> str:
    """An event's time in ``zone``, written as every other time on the site is (weekday,
    date, 24-hour time), without the zone: the page names it once."""
    if not isinstance(value, dt.datetime):
        return ""
    return i18n.format_moment(value, language, zone, name_zone=False)


# --------------------------------------------------------------------------- decisions as forms

#: Argument names of the registered games' decisions, in words.
ARGUMENT_LABELS: dict[str, str] = {
    "amount": N_("Amount"), "gold": N_("Gold"), "cards": N_("Cards"), "card": N_("Card"),
    "release": N_("Gladiators to release"), "give": N_("You give"), "take": N_("You take"), "to": N_("To"),
    "wound_order": N_("Order in which attributes lose dice"), "spread": N_("Spread the wounds"),
    "active": N_("Keep a fight plan"), "approach": N_("Approach"), "initiative": N_("Initiative"),
    "net": N_("Net"), "speed_attack": N_("Speed attack"), "reroll": N_("Reroll"),
    "winner_i": N_("Bet on fighter I winning"), "winner_ii": N_("Bet on fighter II winning"),
    "injury": N_("Bet on an injury"), "decapitation": N_("Bet on a decapitation"),
    "claim": N_("The scheme you tell them it is (optional; it need not be true)"),
}
#: What a decision's ``context`` holds, in words (keys of the registered games' contexts).
CONTEXT_LABELS: dict[str, str] = {
    "drawn": N_("Just drawn"), "destinations": N_("Where it may go"), "prices": N_("Prices"),
    "cards": N_("Cards"), "cost": N_("Cost"), "income_now": N_("Income now"), "dice": N_("Dice"),
    "strength": N_("Strength"), "row": N_("Row"), "budget": N_("Budget"), "left": N_("Left"),
    "hidden_cost": N_("Price of a hidden card"), "deck": N_("Cards in the deck"), "hand": N_("Your hand"),
    "suggested": N_("Suggested"), "rolls": N_("Rolls"),
}
#: Keys whose integer values are seats.
_SEAT_KEYS = {"to", "seat", "target", "partner", "from"}


def _card_prices(board: Any) -> dict[str, int]:
    """Card id -> its price in aurei, for every priced card the viewer's board shows (PAX)."""
    return {card_id: card["price"] for card_id, card in _cards_by_id(board).items()
            if isinstance(card.get("price"), int) and not isinstance(card.get("price"), bool)}


def _price_of(option: Mapping[str, Any], decision: Mapping[str, Any], card_prices: Mapping[str, int]) -> Optional[int]:
    """What answering with ``option`` costs or is worth in aurei, where the page can tell:
    a legion's price (the decision's ``prices``), else the price of the card it names."""
    args = option.get("args") or {}
    if not isinstance(args, Mapping):
        return None
    prices = (decision.get("context") or {}).get("prices")
    if option.get("type") == "buy_legion" and isinstance(prices, Mapping):
        price = prices.get(str(args.get("legion")))
        return price if isinstance(price, int) else None
    if option.get("type") in ("keep_card", "lay_card", "assign_card"):
        return card_prices.get(str(args.get("card")))
    return None


def _with_price(label: str, price: Optional[int]) -> str:
    """``label`` with the price after it ("Keep Army · 3 aurei"), in the page's language."""
    if price is None:
        return label
    return f"{label} · " + ngettext("%(num)s aureus", "%(num)s aurei", price)


def _decision_form(decision: Mapping[str, Any], game: Any, card_names: Mapping[str, str],
                   seat_names: Mapping[int, str], language: str, zone: str,
                   card_prices: Optional[Mapping[str, int]] = None, phased: bool = False) -> dict:
    """What the template needs to draw one decision, in ``language``: the question, its
    deadline in the player's zone and the default, then buttons or fields.  An option
    the game marks irreversible (``CONFIRM``) goes through the confirm page."""
    options = decision.get("options")
    default = decision.get("default")
    out = {
        "id": decision.get("id"),
        "prompt": telling.decision_prompt(language, decision, game, seat_names),
        "version": decision.get("version"),
        "deadline_at": decision.get("deadline_at"),
        "deadline": i18n.format_moment(decision["deadline_at"], language, zone)
        if isinstance(decision.get("deadline_at"), dt.datetime) else "",
        "left": time_left(decision.get("deadline_at")),
        "context": _context(decision.get("context") or {}, game, card_names, language),
        "default_label": telling.command_label(language, default, card_names, game, seat_names) if default else "",
        "free": decision.get("mode") == "free",
        "presets": [{"key": key, "label": i18n.gettext(language, presets.NAMES[key], types="…")}
                    for key in presets.presets_for(decision.get("mode"), decision.get("prompt_key"),
                                                   presets.about_me(decision))
                    if phased or key != "pass_this_phase"],
    }
    if options is not None:
        out["options"] = _grouped([
            {"type": str(o.get("type")),
             "label": _with_price(telling.command_label(language, o, card_names, game, seat_names),
                                  _price_of(o, decision, card_prices or {})),
             "command": json.dumps({"type": o.get("type"), "args": o.get("args") or {}}, sort_keys=True),
             "confirm": _needs_confirmation(game, str(o.get("type")))}
            for o in options
        ], game)
    else:
        default_args = (default or {}).get("args") or {}
        out["fields"] = _schema_fields(decision.get("schema") or {}, default_args,
                                       label_of=_value_labeller(game, card_names, seat_names, language))
        _label_arguments(out["fields"], game)
        out["confirm"] = _needs_confirmation(game, str(decision.get("command_type")))
    return out


#: More options of one kind than this are one choice list with one button, not a wall of
#: buttons: an arena turn offers 36 to 48 hexes to move to, which pushed the board 1,700 px
#: down the page.
MAX_BUTTONS_OF_A_KIND = 8


def _grouped(buttons: list[dict], game: Any) -> list[dict]:
    """``buttons`` in their order, with the options of a kind that has more than
    :data:`MAX_BUTTONS_OF_A_KIND` gathered into one ``select`` entry where the first of them
    stood (its ``choices`` are the buttons, ``label`` the command's name)."""
    counts: dict[str, int] = {}
    for b in buttons:
        counts[b["type"]] = counts.get(b["type"], 0) + 1
    out: list[dict] = []
    groups: dict[str, dict] = {}
    for b in buttons:
        if counts[b["type"]] <= MAX_BUTTONS_OF_A_KIND:
            out.append(b)
            continue
        group = groups.get(b["type"])
        if group is None:
            own = terms.command(game, b["type"])
            words = _(own) if own else b["type"].replace("_", " ").capitalize()
            group = groups[b["type"]] = {"select": True, "type": b["type"], "label": words,
                                         "confirm": b["confirm"], "choices": []}
            out.append(group)
        group["choices"].append(b)
        group["confirm"] = group["confirm"] or b["confirm"]
    for group in groups.values():
        group["count"] = ngettext("%(num)s choice", "%(num)s choices", len(group["choices"]))
    return out


def _needs_confirmation(game: Any, command_type: str) -> bool:
    """Whether ``command_type`` is irreversible enough to be confirmed first: the game's
    terms list such command types in ``CONFIRM``."""
    return terms.needs_confirmation(game, command_type)


def _game_words(game: Any, name: str) -> dict:
    """``ARGUMENTS``, ``VALUES`` or ``CONTEXT`` of the game's terms (:func:`terms.table`)."""
    return terms.table(game, name)


def _label_arguments(fields: list[dict], game: Any) -> None:
    for field in fields:
        own = _game_words(game, "ARGUMENTS").get(field.get("key", "")) or ARGUMENT_LABELS.get(field.get("key", ""))
        if own:
            field["label"] = _(own)
        if field["kind"] == "object":
            _label_arguments(field["fields"], game)


def _value_labeller(game: Any, card_names: Mapping[str, str], seat_names: Mapping[int, str], language: str):
    """How an enum value shows in a choice: a card by its name, a seat by its player,
    a word the game's terms name, else the value itself."""
    def label(value: Any, key: str) -> str:
        if isinstance(value, int) and key in _SEAT_KEYS and value in seat_names:
            return seat_names[value]
        if str(value) in card_names:
            return card_names[str(value)]
        word = _game_words(game, "VALUES").get(str(value))
        if word:
            return _(word)
        return terms.card_name(game, value, language, str(value).replace("_", " ")) if isinstance(value, str) \
            else str(value)
    return label


def _context(context: Mapping[str, Any], game: Any, card_names: Mapping[str, str],
             language: str) -> list[tuple[str, Any]]:
    """What a decision's context tells a person, as (words, value) pairs: the keys the
    game or Capua has words for, card ids shown by name, a suggested answer in the words
    of its button.  Nested tables (every placement, a whole fight plan) are data for
    clients and bots; the page shows them as the board and the form fields instead."""
    own = _game_words(game, "CONTEXT")
    out = []
    for key, value in context.items():
        words = own.get(key) or CONTEXT_LABELS.get(key)
        if not words:
            continue
        if key == "suggested" and isinstance(value, Mapping) and isinstance(value.get("type"), str):
            value = telling.command_label(language, value, card_names, game)
        elif isinstance(value, list) and value and all(isinstance(v, Mapping) and "id" in v for v in value):
            value = [card_names.get(str(v["id"])) or str(v.get("name") or v["id"]) for v in value]
        elif isinstance(value, Mapping) or (isinstance(value, list) and any(isinstance(v, (Mapping, list))
                                                                            for v in value)):
            continue
        out.append((_(words), _named(value, card_names)))
    return out


def _named(value: Any, card_names: Mapping[str, str]) -> Any:
    """``value`` (a decision's context) with the card ids it holds shown by name."""
    if isinstance(value, Mapping):
        return {k: _named(v, card_names) for k, v in value.items()}
    if isinstance(value, list):
        return [_named(v, card_names) for v in value]
    if isinstance(value, str) and value in card_names:
        return card_names[value]
    return value


def _cards_by_id(board: Any) -> dict[str, Mapping[str, Any]]:
    """Every card the board shows the viewer, by id (a card is a dict with ``id`` and
    ``category``).  Only the viewer's own view is searched, so no hidden card leaks."""
    found: dict[str, Mapping[str, Any]] = {}
    stack = [board]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            if "id" in item and "category" in item:
                found[str(item["id"])] = item
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


_schema_fields = schema_forms.schema_fields
_args_from_form = schema_forms.values_from_form


def _command_from_form(session, game_id: str, user, form: MultiDict) -> dict:
    """The command a decision form posted: ``{"type", "args"}``.

    An option button posts its command as JSON; a schema form posts one field per
    argument, read back with the types of the decision's schema.  Legality is not
    checked here: ``submit_command`` does that, exactly as for the API.
    """
    if "command" in form:
        try:
            command = read_json(form["command"], what="The answer")
        except ServiceError:
            raise InvalidInput(_("The form sent an unreadable answer."), code="bad_form") from None
        if not isinstance(command, dict) or not isinstance(command.get("type"), str) \
                or not isinstance(command.get("args", {}), dict):
            raise InvalidInput(_("The form sent an unreadable answer."), code="bad_form")
        return {"type": command["type"], "args": command.get("args", {})}
    decision_id = form.get("decision_id", "")
    decision = next((d for d in games.decisions_for(session, game_id, user) if d.get("id") == decision_id), None)
    if decision is None or "schema" not in decision:
        raise StaleVersion(_moved_first())
    fields = _schema_fields(decision.get("schema") or {}, {}, {})
    command_type = decision.get("command_type") or (decision.get("default") or {}).get("type", "")
    return {"type": command_type, "args": _args_from_form(fields, form)}


def _form_int(form: MultiDict, name: str, message: Optional[str] = None) -> int:
    try:
        return int(form.get(name, "").strip())
    except ValueError:
        raise InvalidInput(message or _("The form is missing its %(name)s; reload the page.", name=name),
                           code="bad_form", details={"field": name}) from None


def _to_signin(next_url: Optional[str] = None):
    return redirect(url_for("auth.signin_form", next=next_url or request.full_path.rstrip("?")), code=303)


# --------------------------------------------------------------------------- developer pages


#: Headers a proxy adds: a request carrying one did not come from this machine's browser.
_PROXY_HEADERS = ("Forwarded", "X-Forwarded-For", "X-Real-IP", "X-Forwarded-Host")


def from_this_machine() -> bool:
    """True for a request from loopback that did not pass through a proxy."""
    return is_loopback_host(request.remote_addr or "") and not any(h in request.headers for h in _PROXY_HEADERS)


@dev.before_request
def only_from_this_machine():
    """The outbox shows sign-in links: only a browser on this machine may read it."""
    if not from_this_machine():
        abort(404)


@dev.get("/outbox")
def outbox():
    return render_template("dev/outbox.html", messages=mail.list_outbox(app_config()))


@dev.get("/outbox/<name>")
def outbox_message(name: str):
    message = mail.read_outbox(app_config(), name)
    if message is None:
        abort(404)
    return render_template("dev/outbox_message.html", message=message)


# --------------------------------------------------------------------------- registration


_URL = re.compile(r"https?://[^\s<>\"']+")


def linkify(text: str):
    """Plain text with its http(s) URLs made clickable, everything else escaped."""
    from markupsafe import Markup, escape

    out, last = [], 0
    for match in _URL.finditer(text or ""):
        out.append(escape(text[last:match.start()]))
        url = match.group(0)
        out.append(Markup('<a href="{0}">{0}</a>').format(url))
        last = match.end()
    out.append(escape((text or "")[last:]))
    return Markup("").join(out)


def when(value: Any) -> str:
    """A timestamp as people read it: ``26 Nov 2026, 23:04 UTC`` (ISO text is accepted)."""
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            return value
    if not isinstance(value, dt.datetime):
        return "" if value is None else str(value)
    if value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc)
    return value.strftime("%d %b %Y, %H:%M UTC")


def register(app: Flask) -> None:
    """The pages; the developer pages only when ``CAPUA_DEV_PAGES`` is on and mail goes to the outbox."""
    config = app.extensions["capua.config"]
    app.jinja_env.globals.update(seat_style=seat_marks.seat_style, seat_letter=seat_marks.seat_letter,
                                  is_unnamed_player=seat_marks.is_unnamed_player)
    # the link to the outbox is shown only to those it answers
    app.context_processor(lambda: {"dev_pages": config.outbox_pages and bool(request) and from_this_machine()})
    app.jinja_env.filters.update(linkify=linkify, when=when, moment=moment, time_left=time_left)
    converters.register(app)
    app.register_blueprint(bp)
    from service.web import automation_pages

    app.register_blueprint(automation_pages.bp)
    if config.outbox_pages:
        app.register_blueprint(dev)
