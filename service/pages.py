"""The web pages: landing, my games, a game, and the developer's mail outbox.

Pages are thin: they read through ``service.games`` (which renders every board from the
engine's ``view`` for the asking player, so a page can only show what that player may
see) and submit through ``service.games.submit_command`` exactly as the API does.  Forms
post back to the page that showed them and redirect after success; a refusal is shown on
the page with the game as it is now.

Decisions render generically: enumerated options become buttons, a JSON-schema decision
becomes a form with one field per argument, so a new game needs no new page code (a
board template of its own is optional: ``templates/games/board_<game>.html``).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any, Iterable, Mapping, Optional

from flask import Blueprint, Flask, abort, current_app, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext as _
from jinja2 import TemplateNotFound
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from service import absence, auth, boards, deadlines, games, i18n, mail, talk, terms
from service.database import config as app_config
from service.database import session as db_session
from service.db import Game, Seat
from service.errors import InvalidInput, LostRace, ServiceError, StaleVersion

bp = Blueprint("pages", __name__)
dev = Blueprint("dev", __name__, url_prefix="/dev")

_GAME_NAME = re.compile(r"^[a-z0-9_]{1,32}$")
#: Argument names whose values are card ids: option labels show the card instead.
_CARD_KEYS = {"card", "cards", "card_id", "card_ids"}
MOVED_FIRST = "Someone moved first — here is the game as it is now. Choose again."


# --------------------------------------------------------------------------- landing, my games


@bp.get("/")
def landing():
    return render_template("pages/landing.html")


@bp.get("/games")
def my_games():
    user = auth.current_user()
    if user is None:
        return _to_signin()
    return render_template("pages/games.html", games=games.games_for_user(db_session(), user))


# --------------------------------------------------------------------------- one game


@bp.get("/games/<game_id>")
def game_page(game_id: str):
    return _render_game(game_id)


@bp.post("/games/<game_id>/act")
def game_act(game_id: str):
    """Answer one of my decisions; on refusal show why, with the current state."""
    user = auth.current_user()
    if user is None:
        return _to_signin(url_for("pages.game_page", game_id=game_id))
    s = db_session()
    try:
        version = _form_int(request.form, "version")
        command = _command_from_form(s, game_id, user, request.form)
        games.submit_command(s, app_config(), game_id, user, command_type=command["type"], args=command["args"],
                             expected_version=version)
        s.commit()
    except ServiceError as err:
        s.rollback()
        return _render_game(game_id, error=_page_message(err), status=err.status)
    _notify_committed_mail()
    return redirect(url_for("pages.game_page", game_id=game_id), code=303)


@bp.get("/games/<game_id>/choose")
def game_choose(game_id: str):
    """The confirm page of a choice made on the board (a hex, a track section): shows the
    choice and one button that POSTs it to :func:`game_act`.  A GET never acts."""
    user = auth.current_user()
    if user is None:
        return _to_signin()
    s = db_session()
    decision_id = request.args.get("decision", "")
    try:
        command = json.loads(request.args.get("command", ""))
        version = int(request.args.get("version", ""))
    except ValueError:
        return _render_game(game_id, error=_("That choice could not be read; choose again."), status=400)
    if not isinstance(command, dict) or not isinstance(command.get("type"), str) \
            or not isinstance(command.get("args", {}), dict):
        return _render_game(game_id, error=_("That choice could not be read; choose again."), status=400)
    decision = next((d for d in games.decisions_for(s, game_id, user) if d.get("id") == decision_id), None)
    if decision is None or decision.get("version") != version:
        return _render_game(game_id, error=MOVED_FIRST, status=409)
    view = games.game_view(s, game_id, user)
    board = view.get("board") or {}
    game = board.get("game") or view.get("game_type")
    language = _language()
    return render_template(
        "pages/choose.html", game_id=game_id, summary=view, version=version,
        prompt=i18n.decision_prompt(language, decision, game),
        label=i18n.command_label(language, command, _card_names(board, game, language), game),
        command=json.dumps({"type": command["type"], "args": command.get("args") or {}}, sort_keys=True),
    )


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
        return _render_game(game_id, error=err.message, status=err.status)
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
        return _render_game(game_id, error=err.message, status=err.status)
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
        hours = _form_int(request.form, "hours", "The hours to extend by must be a whole number.")
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
        return _render_game(game_id, error=err.message, status=err.status)
    _notify_committed_mail()
    return redirect(url_for("pages.game_page", game_id=game_id) + "#clock", code=303)


def _clock_controls(s, game_id: str, user) -> Optional[dict]:
    """What the clock panel offers ``user``: the creator's pause/resume/extend, and
    "I am back" to a player whose seat the bot plays; ``None`` when nothing."""
    if user is None:
        return None
    game = s.get(Game, game_id)
    if game is None or game.status != "running":
        return None
    clock = deadlines.clock_view(s, game_id)
    my_seat = s.scalar(select(Seat).where(Seat.game_id == game_id, Seat.user_id == user.id))
    controls = {
        "creator": game.created_by == user.id,
        "paused": clock["paused"],
        "has_deadlines": bool(clock["deadlines"]),
        "seats": list(range(game.seat_count)),
        "max_hours": deadlines.MAX_CLOCK_HOURS,
        "bot_plays_me": my_seat is not None and my_seat.bot_since is not None,
    }
    if not controls["creator"] and not controls["bot_plays_me"]:
        return None
    return controls


def _form_seat(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise InvalidInput("The form named an unknown seat; reload the page.", code="bad_form") from None


def _render_game(game_id: str, *, error: Optional[str] = None, status: int = 200):
    user = auth.current_user()
    s = db_session()
    view = dict(games.game_view(s, game_id, user))
    board = view.pop("board", None) or {}
    decisions = list(games.decisions_for(s, game_id, user)) if user is not None else []
    cards = _cards_by_id(board)
    drawing = boards.prepare(board.get("game"), board, language=_language(), game_id=game_id,
                             version=view.get("version"), seat=view.get("my_seat"), decisions=decisions)
    return render_template(
        "pages/game.html",
        game_id=game_id,
        summary=view,
        board=board,
        board_template=_board_template(board),
        drawing=drawing,
        outcome=board.get("outcome") or view.get("outcome"),
        seat_names={seat.get("seat"): seat.get("name") for seat in view.get("seats") or [] if isinstance(seat, Mapping)},
        decisions=[_decision_form(d, cards) for d in decisions],
        error=error,
        talk=talk.latest_for(s, game_id, user),
        clock_controls=_clock_controls(s, game_id, user),
    ), status


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


def _language() -> str:
    """The language this page is drawn in (Flask-Babel's choice for the visitor)."""
    return i18n.language_or_default(str(get_locale() or i18n.DEFAULT_LANGUAGE))


def _card_names(board: Any, game: Any, language: str) -> dict[str, str]:
    """Card id -> its name in ``language``, for every card the viewer's board shows."""
    return {card_id: terms.card_name(game, card_id, language, str(card.get("name") or card_id))
            for card_id, card in _cards_by_id(board).items()}


def _page_message(err: ServiceError) -> str:
    if isinstance(err, (StaleVersion, LostRace)):
        return MOVED_FIRST
    return err.message


def _notify_committed_mail() -> None:
    """Have the mail this request committed (turn notifications...) delivered."""
    mail.notify_mail_committed(current_app, mail.take_queued(db_session()))


# --------------------------------------------------------------------------- decisions as forms


def _decision_form(decision: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]]) -> dict:
    """What the template needs to draw one decision: buttons or fields."""
    options = decision.get("options")
    out = {
        "id": decision.get("id"),
        "prompt": decision.get("prompt") or decision.get("id"),
        "version": decision.get("version"),
        "deadline_at": decision.get("deadline_at"),
        "context": decision.get("context") or {},
        "default_label": _command_label(decision.get("default"), cards) if decision.get("default") else "",
    }
    if options is not None:
        out["options"] = [
            {"label": _command_label(o, cards), "command": json.dumps({"type": o.get("type"), "args": o.get("args") or {}},
                                                                      sort_keys=True)}
            for o in options
        ]
    else:
        default_args = (decision.get("default") or {}).get("args") or {}
        out["fields"] = _schema_fields(decision.get("schema") or {}, default_args, cards)
    return out


def _command_label(command: Any, cards: Mapping[str, Mapping[str, Any]]) -> str:
    """``"Buy — card: Legio X"``: the command type in words, then its arguments, with
    card ids replaced by the card names the viewer can see."""
    if not isinstance(command, Mapping):
        return str(command)
    words = str(command.get("type", "")).replace("_", " ").strip().capitalize()
    parts = []
    for key, value in (command.get("args") or {}).items():
        if key in _CARD_KEYS:
            value = ", ".join(_card_name(v, cards) for v in value) if isinstance(value, list) else _card_name(value, cards)
        elif isinstance(value, (list, dict)):
            value = json.dumps(value)
        parts.append(f"{str(key).replace('_', ' ')}: {value}")
    return f"{words} — {'; '.join(parts)}" if parts else words


def _card_name(card_id: Any, cards: Mapping[str, Mapping[str, Any]]) -> str:
    """The name of the visible card ``card_id``, or the value itself if it is no card."""
    card = cards.get(str(card_id))
    return str(card.get("name") or card_id) if card else str(card_id)


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


def _schema_fields(schema: Mapping[str, Any], default_args: Mapping[str, Any],
                   cards: Mapping[str, Mapping[str, Any]]) -> list[dict]:
    """One form field per argument of an object schema; anything else is one JSON field."""
    props = schema.get("properties") if schema.get("type") == "object" else None
    if not isinstance(props, Mapping):
        return [{"name": "__json__", "kind": "json", "label": "Answer (JSON)", "value": json.dumps(dict(default_args))}]
    required = set(schema.get("required") or ())
    fields = []
    for name, sub in props.items():
        field = {"name": name, "label": sub.get("title") or str(name).replace("_", " "),
                 "help": sub.get("description", ""), "required": name in required, "value": default_args.get(name)}
        kind = sub.get("type")
        items = sub.get("items") or {}
        if "enum" in sub:
            field.update(kind="select", choices=[(json.dumps(v), _card_name(v, cards)) for v in sub["enum"]],
                         value=json.dumps(field["value"]))
        elif kind == "integer":
            field.update(kind="integer", min=sub.get("minimum"), max=sub.get("maximum"))
        elif kind == "boolean":
            field.update(kind="boolean")
        elif kind == "string":
            field.update(kind="string")
        elif kind == "array" and "enum" in items:
            chosen = field["value"] if isinstance(field["value"], list) else []
            field.update(kind="multi", choices=[(json.dumps(v), _card_name(v, cards)) for v in items["enum"]],
                         chosen={json.dumps(v) for v in chosen}, min_items=sub.get("minItems"),
                         max_items=sub.get("maxItems"))
        else:
            field.update(kind="json", value=json.dumps(field["value"]) if name in default_args else "")
        fields.append(field)
    return fields


def _command_from_form(session, game_id: str, user, form: MultiDict) -> dict:
    """The command a decision form posted: ``{"type", "args"}``.

    An option button posts its command as JSON; a schema form posts one field per
    argument, read back with the types of the decision's schema.  Legality is not
    checked here: ``submit_command`` does that, exactly as for the API.
    """
    if "command" in form:
        try:
            command = json.loads(form["command"])
        except ValueError:
            raise InvalidInput("The form sent an unreadable answer.", code="bad_form") from None
        if not isinstance(command, dict) or not isinstance(command.get("type"), str) \
                or not isinstance(command.get("args", {}), dict):
            raise InvalidInput("The form sent an unreadable answer.", code="bad_form")
        return {"type": command["type"], "args": command.get("args", {})}
    decision_id = form.get("decision_id", "")
    decision = next((d for d in games.decisions_for(session, game_id, user) if d.get("id") == decision_id), None)
    if decision is None or "schema" not in decision:
        raise StaleVersion(MOVED_FIRST)
    fields = _schema_fields(decision.get("schema") or {}, {}, {})
    command_type = decision.get("command_type") or (decision.get("default") or {}).get("type", "")
    return {"type": command_type, "args": _args_from_form(fields, form)}


def _args_from_form(fields: Iterable[dict], form: MultiDict) -> Any:
    args: dict[str, Any] = {}
    for field in fields:
        key = f"arg.{field['name']}"
        kind = field["kind"]
        if kind == "json" and field["name"] == "__json__":
            return _json_value(form.get(key, ""), "answer")
        if kind == "boolean":
            args[field["name"]] = key in form
        elif kind == "multi":
            args[field["name"]] = [_json_value(v, field["label"]) for v in form.getlist(key)]
        elif form.get(key, "") == "":
            continue  # left empty: absent (the schema says whether that is allowed)
        elif kind == "select":
            args[field["name"]] = _json_value(form[key], field["label"])
        elif kind == "integer":
            try:
                args[field["name"]] = int(form[key])
            except ValueError:
                raise InvalidInput(f"{field['label']} must be a whole number.", code="bad_form") from None
        elif kind == "string":
            args[field["name"]] = form[key]
        else:
            args[field["name"]] = _json_value(form[key], field["label"])
    return args


def _json_value(text: str, label: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise InvalidInput(f"{label}: not a readable value.", code="bad_form") from None


def _form_int(form: MultiDict, name: str, message: Optional[str] = None) -> int:
    try:
        return int(form.get(name, "").strip())
    except ValueError:
        raise InvalidInput(message or f"The form is missing its {name}; reload the page.", code="bad_form",
                           details={"field": name}) from None


def _to_signin(next_url: Optional[str] = None):
    return redirect(url_for("auth.signin_form", next=next_url or request.full_path.rstrip("?")), code=303)


# --------------------------------------------------------------------------- developer pages


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
    """The pages; the developer pages only when ``CAPUA_DEV_PAGES`` is on."""
    config = app.extensions["capua.config"]
    app.jinja_env.globals.update(dev_pages=config.dev_pages)
    app.jinja_env.filters.update(linkify=linkify, when=when)
    app.register_blueprint(bp)
    from service import automation_pages

    app.register_blueprint(automation_pages.bp)
    if config.dev_pages:
        app.register_blueprint(dev)
    from service.notify import pages as notify_pages

    notify_pages.register(app)
