"""The site around the games: the language switcher, the settings hub, API tokens, the card
lists, and the rules of each game (a short explanation per language and Capua's full rules
document).

Thin like every page: tokens go through the same functions as ``/api/v1/tokens`` and
``capua token`` (:mod:`service.identity.auth`), cards come from :mod:`service.words.catalogue` as
``capua cards list`` prints them, and the full rules are the Markdown documents in
``docs/``.  A refused form changes nothing and says why on the page.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import markdown
from babel.dates import format_datetime
from flask import Blueprint, Flask, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from service.identity import auth
from service.plumbing import clock, converters
from service.plumbing.database import config as app_config, session as db_session
from service.plumbing.errors import InvalidInput, NotFound
from service.words import catalogue, game_names, i18n, terms
from service.words.i18n import N_

bp = Blueprint("site", __name__)

ROOT = Path(__file__).resolve().parents[2]
DOCS_DIR = ROOT / "docs"
#: The cookie a visitor's language choice lives in (signed-in players also get ``user.language``).
LANGUAGE_COOKIE = auth.LANGUAGE_COOKIE
LANGUAGE_COOKIE_DAYS = 365
DISPLAY_NAME_MAX = 80


# --------------------------------------------------------------------------- the games, as the site presents them


@dataclass(frozen=True)
class GameInfo:
    """How the site introduces one game type: one line, and the documents of its full rules
    (the first one is the game's own; the others follow on the same page).  Its name is
    :data:`service.words.game_names.NAMES`."""

    blurb: str
    docs: tuple[str, ...]


GAMES: dict[str, GameInfo] = {
    "pax": GameInfo(N_("Escaped slaves gather land, fleets and intrigue to stand stronger than Rome — or side "
                       "with Rome. 1 to 8 players."), ("pax.md",)),
    "rom": GameInfo(N_("Power dice on three tracks win provinces, senate cards and arena shows over five rounds. "
                       "2 to 4 players."), ("rom.md",)),
    "spartacus": GameInfo(N_("Rival houses of Capua scheme, trade, bid for gladiators and send them into the "
                             "arena until one dominus holds 12 influence. 2 to 4 players."),
                          ("spartacus.md", "spartacus-arena.md", "spartacus-intrigue-cards.md",
                           "spartacus-market-cards.md")),
    "spartacus_arena": GameInfo(N_("One fight of two gladiators on the hexes of the arena, for two players."),
                                ("spartacus-arena.md", "spartacus-market-cards.md")),
}

#: deck name (as the catalogue has it) -> its heading on the cards page
DECKS: dict[str, str] = {
    "property": N_("Property cards"),
    "province": N_("Province cards"),
    "senate": N_("Senate cards"),
    "arena": N_("Arena cards"),
    "house": N_("House cards"),
    "intrigue": N_("Intrigue cards"),
    "market": N_("Market cards"),
}


def game_name(game: str) -> str:
    """The game's name as the page's reader says it ("Spartacus: arena duel"), never its id."""
    return game_names.game_name(page_language(), game)


def game_title(title: Optional[str], game: Optional[str]) -> str:
    """A game's title on a page: its creator's, else the game's name in the reader's words
    (:func:`service.words.game_names.title_in`)."""
    return game_names.title_in(page_language(), title, game)


def site_games() -> list[dict]:
    """The game types the site presents, in the registry's order (for the landing page and the lists)."""
    from engine import registry

    return [{"id": name, "name": game_name(name), "blurb": _(GAMES[name].blurb)}
            for name in registry.names() if name in GAMES]


def _known_game(game: str, *, with_cards: bool = False) -> GameInfo:
    """The site's entry of game type ``game``; a 404 page for a game Capua does not play
    (or, with ``with_cards``, one without a card catalogue)."""
    from engine import registry

    if game not in GAMES or game not in registry.names() or (with_cards and game not in catalogue.games_with_cards()):
        raise NotFound(_("Capua plays no game called %(game)s.", game=game[:40]), code="game_type_not_found")
    return GAMES[game]


page_language = auth.page_language


# --------------------------------------------------------------------------- the language switcher


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for ``/favicon.ico`` on their own; the site's icon is an SVG."""
    return redirect(url_for("static", filename="favicon.svg"), code=301)


@bp.post("/language")
def set_language():
    """Switch the site's language: saved on the account when signed in, and in a cookie
    (so it also holds for visitors and after signing out); then back to the page."""
    language = request.form.get("language", "")
    back = auth.safe_next_url(request.form.get("next")) or "/"
    if language not in i18n.LANGUAGES:
        raise InvalidInput(_("Capua does not speak that language."), code="invalid_language")
    user = auth.current_user()
    if user is not None:
        user.language = language
        db_session().commit()
    response = redirect(back, code=303)
    response.set_cookie(LANGUAGE_COOKIE, language, max_age=LANGUAGE_COOKIE_DAYS * 86400, httponly=True,
                        samesite="Lax", secure=app_config().base_url.startswith("https://"))
    return response


def cookie_language() -> Optional[str]:
    """The language a visitor chose with the switcher, if any (for the locale selector)."""
    return auth.chosen_language()


# --------------------------------------------------------------------------- settings


def _for_players(view):
    """The view runs for a signed-in player (passed as ``user``); a visitor is sent to sign in first."""
    @functools.wraps(view)
    def signed_in(*args, **kwargs):
        user = auth.current_user()
        if user is None:
            return redirect(url_for("auth.signin_form", next=request.path), code=303)
        return view(user, *args, **kwargs)
    return signed_in


@bp.get("/settings")
@_for_players
def settings_page(user):
    return _settings_page(user, form={"language": user.language, "timezone": user.timezone,
                                      "display_name": user.display_name},
                          saved=request.args.get("saved") == "1")


def _settings_page(user, *, form: dict, error: Optional[str] = None, status: int = 200, saved: bool = False):
    zones = ["UTC", *clock.common_time_zones()]
    if user.timezone not in zones and clock.is_time_zone(user.timezone):
        # A zone set through the API (``Etc/GMT-3``) stays selectable, so saving the form keeps it.
        zones.insert(0, user.timezone)
    return render_template("site/settings.html", user=user, form=form, error=error, saved=saved,
                           languages=i18n.LANGUAGE_NAMES, zones=zones), status


@bp.post("/settings")
@_for_players
def settings_save(user):
    """Save language, time zone and display name together; one bad field saves nothing."""
    form = {"language": request.form.get("language", ""), "timezone": request.form.get("timezone", "").strip(),
            "display_name": request.form.get("display_name", "")}
    problems = []
    if form["language"] not in i18n.LANGUAGES:
        problems.append(_("Choose one of the languages in the list."))
    if not clock.is_time_zone(form["timezone"]):
        problems.append(_("%(zone)s is not a time zone; choose one from the list, like Europe/Berlin.",
                          zone=form["timezone"][:64] or "—"))
    name = _clean_display_name(form["display_name"])
    if name is None:
        problems.append(_("A display name has at most %(max)s characters and no control characters.",
                          max=DISPLAY_NAME_MAX))
    if problems:
        return _settings_page(user, form=form, error=" ".join(problems), status=422)
    user.language, user.timezone, user.display_name = form["language"], form["timezone"], name
    db_session().commit()
    return redirect(url_for("site.settings_page", saved=1), code=303)


def _clean_display_name(text: str) -> Optional[str]:
    """``text`` stripped, or ``None`` when it is too long or holds control characters."""
    name = text.strip()
    if len(name) > DISPLAY_NAME_MAX or any(unicodedata.category(ch).startswith("C") for ch in name):
        return None
    return name


# --------------------------------------------------------------------------- API tokens


@bp.get("/settings/tokens")
@_for_players
def tokens_page(user):
    return _tokens_page(user)


def _tokens_page(user, *, created=None, raw: Optional[str] = None, error: Optional[str] = None, status: int = 200):
    response = make_response(render_template("site/tokens.html", tokens=auth.list_api_tokens(db_session(), user),
                                             created=created, raw=raw, error=error), status)
    # The one page that shows a secret must not be kept by any cache.
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/settings/tokens")
@_for_players
def tokens_create(user):
    """Create a token; its secret is on this response only (stored as a hash)."""
    s = db_session()
    try:
        row, raw = auth.create_api_token(s, user, request.form.get("name", ""))
        s.commit()
    except InvalidInput:
        s.rollback()
        return _tokens_page(user, error=_("A token name has at most 80 characters."), status=422)
    return _tokens_page(user, created=row, raw=raw, status=201)


@bp.post("/settings/tokens/<id32:token_id>/revoke")
@_for_players
def tokens_revoke(user, token_id: int):
    s = db_session()
    try:
        auth.revoke_api_token(s, user, token_id)
        s.commit()
    except NotFound:
        s.rollback()
        return _tokens_page(user, error=_("You have no API token %(id)s.", id=token_id), status=404)
    return redirect(url_for("site.tokens_page"), code=303)


# --------------------------------------------------------------------------- cards


@bp.get("/cards")
def cards_index():
    return render_template("site/cards_index.html", games=_with_cards(site_games()))


def _with_cards(games: list[dict]) -> list[dict]:
    have = set(catalogue.games_with_cards())
    return [g for g in games if g["id"] in have]


@bp.get("/cards/<game>")
def cards_page(game: str):
    """Every card of the game's default set, grouped by deck, names as the page's language has them."""
    _known_game(game, with_cards=True)
    language = page_language()
    decks: list[dict] = []
    for row in catalogue.card_list(game):
        if not decks or decks[-1]["id"] != row["deck"]:
            deck_title = DECKS.get(row["deck"])
            decks.append({"id": row["deck"], "title": _(deck_title) if deck_title else row["deck"], "cards": []})
        name = terms.card_name(game, row["id"], language, row["name"])
        decks[-1]["cards"].append({"id": row["id"], "name": name, "english": row["name"] if name != row["name"] else "",
                                   "count": row.get("count", 1), "text": row.get("text", "")})
    return render_template("site/cards.html", game=game, name=game_name(game), decks=decks,
                           total=sum(len(d["cards"]) for d in decks))


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class RuleSection:
    """One section of a game's short rules: the heading of Capua's full rules it summarises
    (``anchor`` on the full page, ``heading`` its words) and the rulebook chapter it comes from,
    as the German rulebook names it and, where there is one, the Russian."""

    key: str
    anchor: str
    heading: str
    rulebook_de: str
    rulebook_ru: str = ""


RULE_SECTIONS: dict[str, tuple[RuleSection, ...]] = {
    "pax": (
        RuleSection("goal", "scoring", "Scoring", "Hintergrund und Spielziel"),
        RuleSection("setup", "setup", "Setup", "Vorbereitung"),
        RuleSection("turn", "a-turn", "A turn", "Spielverlauf"),
        RuleSection("senators", "senator-window-58-players", "Senator window (5–8 players)",
                    "PAX für 5–8 Spieler: Spielverlauf"),
        RuleSection("round", "round-end-and-new-round", "Round end and new round", "Rundenende; Neue Spielrunde"),
        RuleSection("end", "scoring", "Scoring", "Spielende; Sieger; Solospiel"),
    ),
    "rom": (
        RuleSection("goal", "rules-summary", "Rules summary", "Einleitung"),
        RuleSection("setup", "rules-summary", "Rules summary", "Spielaufbau (S. 2, 7)"),
        RuleSection("round", "rules-summary", "Rules summary",
                    "Spielablauf: Phase 1. Machtwürfel werfen; Phase 2. Machtwürfel setzen"),
        RuleSection("resolution", "interpretations", "Interpretations",
                    "Phase 3. Machtwürfel abräumen: Militärleiste, Senatsleiste, Schwarzmarktleiste"),
        RuleSection("scoring", "rules-summary", "Rules summary", "Phase 4. Wertung; Phase 5. Aufräumen"),
        RuleSection("end", "rules-summary", "Rules summary", "Spielende; Regionenkontrolle"),
    ),
    "spartacus": (
        RuleSection("goal", "spartacus-as-capua-plays-it", "Spartacus as Capua plays it", "Ziel des Spiels",
                    "Цель игры"),
        RuleSection("upkeep", "round", "Round", "Spielablauf: Instandhaltung", "Фаза подготовки, стр. 4"),
        RuleSection("intrigue", "round", "Round", "Intrigenphase", "Фаза интриг, стр. 5"),
        RuleSection("market", "round", "Round", "Marktphase", "Фаза рынка, стр. 9"),
        RuleSection("arena", "spartacus-arena--a-fight-rule-by-rule", "A fight, rule by rule",
                    "Arenaphase; Regeln des Arenakampfes", "Фаза арены, стр. 11"),
        RuleSection("end", "round", "Round", "Ziel des Spiels; 2-, 3-, 4-Spieler Turnier",
                    "Цель игры; Соревнование для 2, 3, 4 игроков"),
        # rules the rulebook does not have: no rulebook section to name
        RuleSection("house_rules", "capuas-house-rules", "Capua's house rules", ""),
    ),
    "spartacus_arena": (
        RuleSection("goal", "the-game-type-spartacus_arena", "The game type spartacus_arena", "Arenakämpfe",
                    "Фаза арены, стр. 11"),
        RuleSection("board", "the-board", "The board", "Regeln des Arenakampfes"),
        RuleSection("round", "a-fight-rule-by-rule", "A fight, rule by rule", "Regeln des Arenakampfes",
                    "Бой!, стр. 14"),
        RuleSection("defeat", "a-fight-rule-by-rule", "A fight, rule by rule", "Besiegt; Spezialfähigkeiten"),
        RuleSection("capua", "choices-where-the-rulebook-is-silent", "Choices where the rulebook is silent",
                    "Weitere Beispiele"),
    ),
}


@bp.get("/rules")
def rules_index():
    return render_template("site/rules_index.html", games=site_games())


@bp.get("/rules/<game>")
def rules_page(game: str):
    """The short rules of ``game`` in the page's language, each section linked to Capua's full
    rules and naming the rulebook chapter it comes from."""
    _known_game(game)
    language = page_language()
    sections = {s.key: s for s in RULE_SECTIONS[game]}
    return render_template(f"site/rules/{game}.{language}.html", game=game, name=game_name(game),
                           sections=sections, language=language)


@bp.get("/rules/<game>/full")
def rules_full(game: str):
    """Capua's full rules document of ``game`` (English): its Markdown docs as one page."""
    info = _known_game(game)
    return render_template("site/rules_full.html", game=game, name=game_name(game),
                           documents=[full_document(name, first=index == 0) for index, name in enumerate(info.docs)])


def _slug(text: str, separator: str) -> str:
    """A heading's anchor: lower case, letters, digits and ``_`` kept, the rest one separator."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"[-\s]+", separator, text).strip(separator)


@functools.cache
def full_document(name: str, first: bool = True) -> dict:
    """One document of ``docs/`` as HTML with an anchor on every heading.  The first document of
    a page keeps plain anchors (``#a-turn``); the ones after it are prefixed with their file name
    (``#spartacus-arena--the-board``) so two documents' headings never share an id."""
    prefix = "" if first else name.removesuffix(".md") + "--"
    converter = markdown.Markdown(extensions=["tables", "fenced_code", "toc"], extension_configs={
        "toc": {"slugify": lambda value, sep: prefix + _slug(value, sep), "toc_depth": "1-3"}})
    html = converter.convert((DOCS_DIR / name).read_text(encoding="utf-8"))
    # Links between the documents point at the pages that show them.
    html = re.sub(r'href="([a-z0-9-]+)\.md"', lambda m: f'href="{_doc_url(m.group(1))}"', html)
    # Wide tables and code blocks scroll sideways on a phone: focusable, so that a keyboard can scroll them.
    html = re.sub(r"<(table|pre)>", r'<\1 tabindex="0">', html)
    return {"name": name, "id": prefix.rstrip("-") or "top", "html": Markup(html), "toc": converter.toc_tokens}


def _doc_url(stem: str) -> str:
    for game, info in GAMES.items():
        if info.docs and info.docs[0] == f"{stem}.md":
            return f"/rules/{game}/full"
    owner = next(g for g, info in GAMES.items() if f"{stem}.md" in info.docs)
    return f"/rules/{owner}/full#{stem}"


# --------------------------------------------------------------------------- registration


def local_time(moment: Optional[dt.datetime]) -> str:
    """A moment as the reader reads it: in the page's language and, when signed in, their time zone."""
    if not isinstance(moment, dt.datetime):
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    user = auth.current_user()
    try:
        zone = clock.zone(user.timezone if user is not None else "UTC")
    except ValueError:
        zone = clock.zone("UTC")
    return format_datetime(moment.astimezone(zone), "medium", locale=page_language()) + f" ({zone.key})"


def register(app: Flask) -> None:
    app.jinja_env.globals.update(page_language=page_language, language_names=i18n.LANGUAGE_NAMES,
                                 site_games=site_games, game_name=game_name,
                                 game_title=game_title)
    app.jinja_env.filters.update(local_time=local_time)
    converters.register(app)
    app.register_blueprint(bp)
