"""Settings pages for what plays or listens on a player's behalf: webhooks and standing orders.

Thin like every page: each form calls the same service function as the API
(:mod:`service.notify.webhooks`, :mod:`service.play.standing_orders`), commits, and redirects; a
refusal is shown on the page with what was typed.  Only the signed-in owner ever sees
these settings.
"""

from __future__ import annotations

import json
from typing import Optional

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext as _

from service.identity import auth
from service.notify import webhooks
from service.play import standing_orders
from service.plumbing.database import config as app_config, session as db_session
from service.plumbing.errors import InvalidInput, ServiceError
from service.plumbing.json_input import BadJson, read_json
from service.web import refusals
from service.words import i18n

bp = Blueprint("automation", __name__, url_prefix="/settings")

EXAMPLE_ORDER = {
    "match": {"prompt_key": "support"},
    "answer": {"type": "refuse_support"},
}


def _user_or_signin():
    user = auth.current_user()
    if user is None:
        return None, redirect(url_for("auth.signin_form", next=request.path), code=303)
    return user, None


# --------------------------------------------------------------------------- webhooks


@bp.app_template_filter("disabled_reason")
def disabled_reason(endpoint) -> str:
    """Why a webhook endpoint was turned off, in the page's language (stored as a code)."""
    return webhooks.disabled_reason_text(endpoint, _language())


@bp.get("/webhooks")
def webhooks_page(error: Optional[str] = None, form: Optional[dict] = None, status: int = 200):
    user, away = _user_or_signin()
    if away:
        return away
    return render_template("webhooks/settings.html", endpoints=webhooks.list_endpoints(db_session(), user),
                           event_types=webhooks.EVENT_TYPES, error=error, form=form or {}), status


@bp.post("/webhooks")
def webhooks_create():
    user, away = _user_or_signin()
    if away:
        return away
    s = db_session()
    form = {"url": request.form.get("url", "").strip(), "game_id": request.form.get("game_id", "").strip(),
            "description": request.form.get("description", ""), "event_types": request.form.getlist("event_types")}
    try:
        endpoint = webhooks.create_endpoint(s, app_config(), user, url=form["url"], game_id=form["game_id"] or None,
                                            event_types=form["event_types"] or None,
                                            description=form["description"])
        s.commit()
    except ServiceError as err:
        s.rollback()
        return webhooks_page(error=_refusal(err), form=form, status=err.status)
    return redirect(url_for("automation.webhook_page", endpoint_id=endpoint.id), code=303)


@bp.get("/webhooks/<id32:endpoint_id>")
def webhook_page(endpoint_id: int, error: Optional[str] = None, status: int = 200):
    user, away = _user_or_signin()
    if away:
        return away
    s = db_session()
    endpoint = webhooks.get_endpoint(s, user, endpoint_id)
    deliveries = webhooks.list_deliveries(s, user, endpoint_id, limit=50)
    return render_template("webhooks/endpoint.html", endpoint=endpoint, deliveries=deliveries,
                           attempts={d.id: webhooks.attempts_of(s, d) for d in deliveries}, error=error), status


@bp.post("/webhooks/<id32:endpoint_id>/<action>")
def webhook_action(endpoint_id: int, action: str):
    """One button of the webhook page: enable, disable, rotate, test, delete."""
    user, away = _user_or_signin()
    if away:
        return away
    s = db_session()
    config = app_config()
    try:
        if action == "enable":
            webhooks.update_endpoint(s, config, user, endpoint_id, enabled=True)
        elif action == "disable":
            webhooks.update_endpoint(s, config, user, endpoint_id, enabled=False)
        elif action == "rotate":
            webhooks.rotate_secret(s, user, endpoint_id)
        elif action == "test":
            webhooks.send_test(s, config, user, endpoint_id)
        elif action == "delete":
            webhooks.delete_endpoint(s, user, endpoint_id)
            s.commit()
            return redirect(url_for("automation.webhooks_page"), code=303)
        elif action == "redeliver":
            webhooks.redeliver(s, config, user, endpoint_id, _form_int("delivery_id"))
        else:
            raise InvalidInput(_("That button does nothing; reload the page."), code="bad_form")
        s.commit()
    except ServiceError as err:
        s.rollback()
        if err.status == 404:
            raise
        return webhook_page(endpoint_id, error=_refusal(err), status=err.status)
    return redirect(url_for("automation.webhook_page", endpoint_id=endpoint_id), code=303)


# --------------------------------------------------------------------------- standing orders


@bp.get("/standing-orders")
def orders_page(error: Optional[str] = None, problems: Optional[dict] = None, form: Optional[dict] = None,
                status: int = 200):
    user, away = _user_or_signin()
    if away:
        return away
    orders = standing_orders.list_orders(db_session(), user)
    shown = [{"order": o, "rule": json.dumps(o.rule, indent=2, sort_keys=True),
              "hint": standing_orders.timing_may_hint(o.rule)} for o in orders]
    form = form or {"rule": json.dumps(EXAMPLE_ORDER, indent=2), "name": _("Never support schemes"), "game_id": "",
                    "game_type": "spartacus"}
    recommended = [{**r, "rule_json": json.dumps(r["rule"])} for r in standing_orders.RECOMMENDED]
    return render_template("webhooks/standing_orders.html", orders=shown, error=error, problems=problems or {},
                           form=form, game_types=_game_types(), recommended=recommended), status


@bp.post("/standing-orders")
def orders_create():
    user, away = _user_or_signin()
    if away:
        return away
    s = db_session()
    form = {"rule": request.form.get("rule", ""), "name": request.form.get("name", ""),
            "game_id": request.form.get("game_id", "").strip(), "game_type": request.form.get("game_type", "")}
    try:
        try:
            rule = read_json(form["rule"], what="The rule")
        except BadJson:
            raise InvalidInput(_("The rule is not readable JSON."), code="invalid_standing_order",
                               details={"fields": {"rule": [_("Not JSON.")]}, "problem": "not_json"}) from None
        standing_orders.create_order(s, user, rule=rule, name=form["name"], game_id=form["game_id"] or None,
                                     game_type=form["game_type"] or None)
        s.commit()
    except ServiceError as err:
        s.rollback()
        return orders_page(error=_refusal(err), problems=refusals.standing_order_problems(err, _language()),
                           form=form, status=err.status)
    return redirect(url_for("automation.orders_page"), code=303)


@bp.post("/standing-orders/<id32:order_id>/<action>")
def order_action(order_id: int, action: str):
    """Pause, resume or withdraw a standing order."""
    user, away = _user_or_signin()
    if away:
        return away
    s = db_session()
    try:
        if action == "delete":
            standing_orders.delete_order(s, user, order_id)
        elif action in ("pause", "resume"):
            standing_orders.update_order(s, user, order_id, enabled=action == "resume")
        else:
            raise InvalidInput(_("That button does nothing; reload the page."), code="bad_form")
        s.commit()
    except ServiceError as err:
        s.rollback()
        if err.status == 404:
            raise
        return orders_page(error=_refusal(err), status=err.status)
    back = request.form.get("back", "")
    if back and len(back) <= 32 and back.replace("-", "").replace("_", "").isalnum():  # a game page's own button
        return redirect(url_for("pages.game_page", game_id=back) + "#my-orders", code=303)
    return redirect(url_for("automation.orders_page"), code=303)


def _language() -> str:
    return i18n.language_or_default(str(get_locale()))


def _refusal(err: ServiceError) -> str:
    """``err`` as the page's reader reads it (:mod:`service.web.refusals`)."""
    return refusals.refusal(err, _language())


def _form_int(name: str) -> int:
    try:
        return int(request.form.get(name, ""))
    except ValueError:
        raise InvalidInput(_("The form is missing its %(field)s; reload the page.", field=name),
                           code="bad_form") from None


def _game_types() -> list[str]:
    from engine import registry

    return registry.names()
