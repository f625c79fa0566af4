"""The pages behind notification mail: one-click links, unsubscribe, and the settings
forms for notifications and vacations.

``/act/<token>`` shows what a mailed link would do and acts only on the POST of that
page (mail scanners prefetch links; see :mod:`service.notify.action_links`).  The visitor need
not be signed in: the token names the seat and the decision, which is what makes play
from the mailbox alone possible.  ``/unsubscribe/<token>`` answers the one-click POST
that mail clients send for ``List-Unsubscribe-Post`` (RFC 8058: no cookie, no form
token, so that POST is exempt from the CSRF check; the signed token authenticates it).

Pages speak the visitor's language (Flask-Babel): the signed-in player's setting, or
the link's player's for ``/act`` and ``/unsubscribe``, else the browser's.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any, Mapping, Optional

from flask import Blueprint, Flask, g, redirect, render_template, request, url_for
from flask_babel import Babel
from sqlalchemy.exc import SQLAlchemyError

from service.identity import auth, settings
from service.notify import action_links, compose, notifications
from service.play import absence
from service.plumbing import clock, converters
from service.plumbing.database import config as app_config, session as db_session
from service.plumbing.errors import Forbidden, InvalidInput, ServiceError
from service.plumbing.json_input import read_json
from service.web import refusals, schema_forms, site_pages
from service.words import i18n, telling

bp = Blueprint("notify", __name__)


def _locale() -> str:
    """The page's language: the link's player's (``/act``), the signed-in player's setting,
    the visitor's choice in the language switcher (a cookie), else the browser's."""
    forced = g.get("capua_locale")
    if forced:
        return forced
    try:
        user = auth.current_user()
    except SQLAlchemyError:
        # The error page of a failing database must still render, in the visitor's language.
        user = None
    if user is not None and user.language:
        return i18n.language_or_default(user.language)
    return site_pages.cookie_language() or request.accept_languages.best_match(i18n.LANGUAGES) or i18n.DEFAULT_LANGUAGE


def _speak_as(user) -> None:
    if user is not None:
        g.capua_locale = i18n.language_or_default(user.language)


# --------------------------------------------------------------------------- one-click links


#: Refusals that mean the link has done its work (answered, or overtaken): to a signed-in
#: player the page says so and leads to the game, rather than "this link does not work".
SPENT = frozenset({"link_used", "decision_closed", "option_gone", "invitation_closed"})


def _refused(err: ServiceError, link: Optional[action_links.ActionLink] = None):
    """The refusal page; a signed-in visitor whose link has done its work is told so and
    shown the way to the game."""
    try:
        signed_in = auth.current_user()
    except SQLAlchemyError:
        signed_in = None
    game_id = link.game_id if link is not None and err.code in SPENT else None
    return render_template("notify/link_refused.html", message=_message(err), code=err.code,
                           signed_in=signed_in, spent=err.code in SPENT, game_id=game_id), err.status


def _message(err: ServiceError) -> str:
    """The refusal in the visitor's language (:func:`service.web.refusals.refusal`)."""
    return refusals.refusal(err, _locale())


def _label(command: Optional[dict], decision: Optional[dict]) -> str:
    if not command:
        return ""
    for key, args in (((decision or {}).get("context") or {}).get("presets") or {}).items():
        if key in compose.ANSWER_LABELS and command.get("args") == args:
            return i18n.gettext(_locale(), compose.ANSWER_LABELS[key])
    return telling.command_label(_locale(), command, _names(decision))


def _names(decision: Optional[dict]) -> dict:
    """Card names from what the decision shows its player (its context)."""
    return notifications.card_names((decision or {}).get("context") or {})


@bp.get("/act/<token>")
def act_confirm(token: str):
    """Show what the link would do; never act here."""
    s = db_session()
    link = None
    try:
        link = action_links.read(app_config(), token)
        prepared = action_links.prepare(s, app_config(), link)
    except ServiceError as err:
        s.rollback()
        return _refused(err, link)
    _speak_as(prepared.user)
    decision = prepared.decision
    choices = []
    fields = []
    if link.kind == "choose" and decision is not None:
        if decision.get("options") is not None:
            choices = [{"label": _label(o, decision), "command": json.dumps({"type": o["type"], "args": o["args"]},
                                                                             sort_keys=True)}
                       for o in decision["options"]]
        else:
            fields = schema_forms.schema_fields(decision.get("schema") or {}, (decision.get("default") or {}).get("args") or {},
                                    _names(decision))
    s.rollback()
    order = _order_words(link) if link.kind == "order" else None
    return render_template(
        "notify/act_confirm.html", token=token, link=link, game=prepared.game, user=prepared.user, order=order,
        decision=decision, prompt=telling.decision_prompt(_locale(), decision) if decision else "",
        deadline=i18n.format_moment(decision.get("deadline_at"), _locale(), prepared.user.timezone)
        if decision and decision.get("deadline_at") else "",
        label=_label(prepared.command, decision), choices=choices, fields=fields,
    )


@bp.post("/act/<token>")
def act_submit(token: str):
    s = db_session()
    chosen = None
    link = None
    try:
        link = action_links.read(app_config(), token)
        if link.kind == "choose":
            chosen = _chosen(s, link)
        prepared = action_links.perform(s, app_config(), link, chosen)
        s.commit()
    except ServiceError as err:
        s.rollback()
        return _refused(err, link)
    _speak_as(prepared.user)
    return render_template("notify/act_done.html", link=link, game=prepared.game,
                           label=_label(prepared.command, prepared.decision),
                           order=_order_words(link) if link.kind == "order" else None)


def _order_words(link) -> dict:
    """What a standing-order link gives, in the visitor's words."""
    from service.play import presets

    lot_types = link.command.get("lot_types") if isinstance(link.command, dict) else None
    return {"name": presets.name_of(link.answer, lot_types if isinstance(lot_types, list) else (), _locale()),
            "explained": i18n.gettext(_locale(), presets.EXPLAINED[link.answer])}


def _chosen(session, link) -> Optional[dict]:
    """The answer a ``choose`` page posted: an option's JSON, or one field per argument."""
    form = request.form
    if "command" in form:
        try:
            value = read_json(form["command"], what="The answer")
        except ServiceError:
            raise InvalidInput("The form sent an unreadable answer.", code="bad_form") from None
        return value if isinstance(value, dict) else None
    prepared = action_links.prepare(session, app_config(), link)
    decision = prepared.decision or {}
    args = schema_forms.values_from_form(schema_forms.schema_fields(decision.get("schema") or {}, {}, {}), form)
    return {"type": decision.get("command_type"), "args": args}


@bp.get("/unsubscribe/<token>")
def unsubscribe_confirm(token: str):
    s = db_session()
    try:
        link = action_links.read(app_config(), token)
        if link.kind != "unsubscribe":
            raise Forbidden("This link is not valid.", code="link_invalid")
        prepared = action_links.prepare(s, app_config(), link)
    except ServiceError as err:
        return _refused(err)
    _speak_as(prepared.user)
    return render_template("notify/unsubscribe.html", token=token, game=prepared.game, done=False)


@bp.post("/unsubscribe/<token>")
@auth.csrf_exempt
def unsubscribe_submit(token: str):
    """The confirm page's button, and the one-click POST of mail clients (RFC 8058)."""
    s = db_session()
    try:
        link = action_links.read(app_config(), token)
        if link.kind != "unsubscribe":
            raise Forbidden("This link is not valid.", code="link_invalid")
        prepared = action_links.perform(s, app_config(), link)
        s.commit()
    except ServiceError as err:
        s.rollback()
        return _refused(err)
    _speak_as(prepared.user)
    return render_template("notify/unsubscribe.html", token=token, game=prepared.game, done=True)


# --------------------------------------------------------------------------- settings


def _signed_in():
    user = auth.current_user()
    if user is None:
        return None, redirect(url_for("auth.signin_form", next=request.path), code=303)
    return user, None


@bp.get("/settings/notifications")
def preferences_form():
    user, away = _signed_in()
    if away:
        return away
    return _preferences_page(user)


def _preferences_page(user, error: Optional[str] = None, status: int = 200, saved: bool = False,
                      sent: Optional[Mapping[str, str]] = None):
    """The settings form: the stored settings, or after a refused save what was sent, so
    nothing typed is lost."""
    prefs = settings.preferences(db_session(), user)
    if sent is not None:
        prefs = SimpleNamespace(**{**vars(prefs), **{name: (sent.get(name) or None) if name in _OPTIONAL_HOURS
                                                       else sent.get(name, "") for name in _SENT_FIELDS},
                                   "email_enabled": sent.get("email_enabled") == "1"})
    return render_template("notify/preferences.html", prefs=prefs,
                           languages=i18n.LANGUAGE_NAMES, zones=clock.common_time_zones(),
                           modes=settings.DELIVERY_MODES, error=error, saved=saved), status


#: The form's fields shown back as sent after a refusal; those that may be left empty.
_SENT_FIELDS = ("act_delivery", "info_delivery", "digest_hour", "quiet_start", "quiet_end", "reminder_lead_hours",
                "language", "timezone")
_OPTIONAL_HOURS = ("quiet_start", "quiet_end", "reminder_lead_hours")


@bp.post("/settings/notifications")
def preferences_save():
    user, away = _signed_in()
    if away:
        return away
    s = db_session()
    form = request.form
    try:
        changes: dict[str, Any] = {
            "act_delivery": form.get("act_delivery", ""),
            "info_delivery": form.get("info_delivery", ""),
            "digest_hour": _int(form.get("digest_hour"), "digest_hour"),
            "quiet_start": _int(form.get("quiet_start"), "quiet_start", optional=True),
            "quiet_end": _int(form.get("quiet_end"), "quiet_end", optional=True),
            "reminder_lead_hours": _int(form.get("reminder_lead_hours"), "reminder_lead_hours", optional=True),
            "email_enabled": form.get("email_enabled") == "1",
            "language": form.get("language", ""),
            "timezone": form.get("timezone", ""),
        }
        settings.update_preferences(s, user, changes)
        s.commit()
    except ServiceError as err:
        s.rollback()
        return _preferences_page(user, error=refusals.refusal(err, _locale()), status=err.status, sent=form)
    g.pop("capua_locale", None)
    return _preferences_page(user, saved=True)


def _int(value: Optional[str], field: str, optional: bool = False) -> Optional[int]:
    if value is None or value.strip() == "":
        if optional:
            return None
        raise InvalidInput(f"{field} is missing.", code="invalid_preferences", details={"fields": {field: "missing"}})
    try:
        return int(value)
    except ValueError:
        raise InvalidInput(f"{field} must be a whole number.", code="invalid_preferences",
                           details={"fields": {field: "not a number"}}) from None


@bp.get("/settings/vacation")
def vacation_page():
    user, away = _signed_in()
    if away:
        return away
    return _vacation_page(user)


def _vacation_page(user, error: Optional[str] = None, status: int = 200, sent: Optional[Mapping[str, str]] = None):
    """The vacations and the form to declare one: empty, or after a refusal as it was sent."""
    return render_template("notify/vacation.html", summary=absence.vacation_summary(db_session(), app_config(), user),
                           error=error, sent=sent or {}), status


@bp.post("/settings/vacation")
def vacation_declare():
    user, away = _signed_in()
    if away:
        return away
    s = db_session()
    try:
        absence.declare_vacation(s, user, request.form.get("starts_on", ""), request.form.get("ends_on", ""),
                                 request.form.get("note", ""))
        s.commit()
    except ServiceError as err:
        s.rollback()
        return _vacation_page(user, error=refusals.refusal(err, _locale()), status=err.status,
                              sent={name: request.form.get(name, "")[:200]
                                    for name in ("starts_on", "ends_on", "note")})
    return redirect(url_for("notify.vacation_page"), code=303)


@bp.post("/settings/vacation/<id32:vacation_id>/delete")
def vacation_delete(vacation_id: int):
    user, away = _signed_in()
    if away:
        return away
    s = db_session()
    try:
        absence.delete_vacation(s, user, vacation_id)
        s.commit()
    except ServiceError as err:
        s.rollback()
        return _vacation_page(user, error=refusals.refusal(err, _locale()), status=err.status)
    return redirect(url_for("notify.vacation_page"), code=303)


def register(app: Flask) -> None:
    """Flask-Babel for the pages, and this module's routes."""
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(i18n.TRANSLATIONS_DIR))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", i18n.DEFAULT_LANGUAGE)
    Babel(app, locale_selector=_locale)
    converters.register(app)
    app.register_blueprint(bp)
