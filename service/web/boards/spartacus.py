"""The Spartacus board as the viewer may see it, laid out for ``board_spartacus.html``.

Everything comes from ``board`` (the engine's view for this viewer) and the viewer's own
``decisions``: each house card with its influence track, gold (a hidden coin while the
market hides it), property cards (ready, exhausted, injured; favour and champion tokens)
and hand size; the market row (the card up for auction, the lots still face down, trade
offers); the host token; the arena's entries and the bets in the four corners of the
board (rulebook p. 12: "Wetten werden in den Ecken platziert"); and my hand with each
card's influence requirement and effect.  The fight under way is drawn on the arena
duel's hex board (``service.web.boards.spartacus_arena``) with the bets in its corners.

Every length here is in SVG user units of a 360-unit-wide viewBox, so one unit is one
CSS pixel on a 360 px phone.
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping, Optional, Sequence

from service.web.boards import choice_url, spartacus_arena
from service.words.i18n import N_, translator
from service.words.i18n import ngettext as i18n_ngettext
from service.words.seat_marks import seat_style
from service.words.terms import spartacus as terms

WIDTH = 360
TRACK_MAX = 12  # influence that wins (the track's last box)
CARD_W, CARD_H, CARD_GAP = 82, 74, 6
HAND_W = 172
CHIP_H = 22

PHASES = {
    "setup": N_("Set-up"),
    "round_start": N_("Upkeep"),
    "upkeep": N_("Upkeep"),
    "intrigue": N_("Intrigue"),
    "market": N_("Market"),
    "arena": N_("Arena"),
    "tournament": N_("Tournament"),
    "over": N_("Game over"),
}
KINDS = {
    "gladiator": N_("gladiator"),
    "slave": N_("slave"),
    "guard": N_("guard"),
    "weapon": N_("weapon"),
    "armour": N_("armour"),
    "special": N_("special equipment"),
}
TYPES = {"scheme": N_("scheme"), "reaction": N_("reaction"), "guard": N_("guard")}
MOMENTS = {
    "scheme": N_("%(seat)s plays %(card)s"),
    "reaction": N_("%(seat)s reacts with %(card)s"),
    "gold_emptied": N_("a dominus is left without gold"),
    "scheme_succeeded": N_("a scheme has succeeded"),
    "bets_placed": N_("the bets are placed"),
    "fighter_died": N_("a fighter has died"),
}
RESULTS = {
    "defeated": N_("%(winner)s defeated %(loser)s."),
    "injured": N_("%(winner)s defeated %(loser)s, who is injured."),
    "decapitated": N_("%(winner)s decapitated %(loser)s."),
}
#: the four corners of the board, in the order of the engine's bet kinds
CORNERS = (("top_left", "winner_i"), ("top_right", "winner_ii"), ("bottom_left", "injury"),
           ("bottom_right", "decapitation"))

# Short words for a choice drawn on a card; the confirm page shows the full label.
SHORT = {
    "play_scheme": N_("Play → %(seat)s"),
    "play_reaction": N_("Play"),
    "play_reaction_on": N_("Play → %(seat)s"),
    "use_card_ability": N_("Use"),
    "use_card_ability_on": N_("Use → %(seat)s"),
    "request_support": N_("Ask %(seats)s"),
    "sell_intrigue_card": N_("Sell"),
    "sell_to_bank": N_("Sell"),
    "place_guard": N_("Lay out"),
    "use_guard": N_("Use guard"),
    "reroll_guard": N_("Reroll"),
    "reroll_healing": N_("Reroll"),
    "choose_card": N_("Choose"),
    "choose_house": N_("Choose"),
    "invite": N_("Invite"),
    "accept_invitation": N_("Send"),
    "choose_tournament_fighter": N_("Send"),
    "use_house_ability": N_("Use"),
    "place_bid": N_("%(amount)s gold"),
    "settle_accounts": N_("Release"),
}


def prepare(board: Mapping[str, Any], *, language: str, game_id: str, version: Optional[int],
            seat: Optional[int], decisions: Sequence[Mapping[str, Any]]) -> dict:
    """The drawing of the Spartacus board for one viewer (``seat`` ``None``: a spectator)."""
    _ = translator(language)
    choices = _Choices(game_id, decisions, language)
    players = [p for p in board.get("players") or [] if isinstance(p, Mapping)]
    names = {p.get("seat"): terms.house_names(p.get("house"), language)[0] if p.get("house") else None
             for p in players}
    houses = [_house(p, board, language, seat, choices) for p in players]
    me = next((p for p in players if p.get("seat") == seat and "hand" in p), None)
    arena = _arena(board, language, names, choices)
    return {
        "width": WIDTH,
        "round": board.get("round"),
        "phase": _word(language, PHASES, _phase(board.get("stage"))),
        "status": _status(board, language, names),
        "houses": houses,
        "house_choices": _house_choices(choices, language),
        "market": _market(board, language, names, choices),
        "arena": arena,
        "corners": arena["corners"] if arena else None,
        "tournament": _tournament(board, language),
        "fight": _fight(board, arena, language=language, game_id=game_id, seat=seat, decisions=decisions),
        "hand": _hand(me, language, choices) if me is not None else None,
        "winners": [_seat_label(s, names) for s in board.get("winners") or []],
        "general": choices.take(("general", None)),
    }


def _fight(board: Mapping[str, Any], arena: Optional[Mapping[str, Any]], *, language: str, game_id: str,
           seat: Optional[int], decisions: Sequence[Mapping[str, Any]]) -> Optional[dict]:
    """The fight under way (an arena bout, or a tournament's current bout) drawn on the
    hex board of the arena duel, with the arena's bets in its corners; its fighters'
    decisions are the viewer's links on it."""
    for holder in ("arena", "tournament"):
        fight = (board.get(holder) or {}).get("fight") if isinstance(board.get(holder), Mapping) else None
        if isinstance(fight, Mapping):
            drawn = spartacus_arena.draw_fight(fight, language=language, game_id=game_id, seat=seat,
                                               decisions=decisions,
                                               corners=arena["corners"] if arena and holder == "arena" else None)
            return {**drawn, "in": holder}
    return None


# --------------------------------------------------------------------------- choices on the board


class _Choices:
    """Each open option of the viewer's decisions, filed under the thing on the board it is
    about (a card, a house, a seat, the auction), as a link to the confirm page."""

    def __init__(self, game_id: str, decisions: Sequence[Mapping[str, Any]], language: str) -> None:
        self._ = translator(language)
        self.language = language
        self.by_target: dict[tuple, list[dict]] = {}
        for d in decisions:
            for option in d.get("options") or []:
                if isinstance(option, Mapping):
                    self._file(game_id, d, option)
            if d.get("options") is None and d.get("prompt_key") in ("bid", "host_bid"):
                self._bids(game_id, d)
            if d.get("options") is None and d.get("prompt_key") == "accounts":
                self._releases(game_id, d)

    def _file(self, game_id: str, decision: Mapping[str, Any], command: Mapping[str, Any]) -> None:
        ctype = str(command.get("type") or "")
        args = command.get("args") or {}
        if not isinstance(args, Mapping):
            return
        if ctype in ("accept_invitation", "choose_tournament_fighter"):
            if any(args.get(k) for k in ("weapon", "armour", "special")):
                return  # equipment combinations are chosen in the form below the board
            target: tuple = ("card", args.get("fighter"))
        elif ctype == "choose_house":
            target = ("house", args.get("house"))
        elif ctype == "invite":
            target = ("seat", args.get("seat"))
        elif ctype == "show_thumb":
            target = ("verdict", None)
        elif ctype == "use_house_ability":
            target = ("ability", args.get("ability"))
        elif args.get("card"):
            target = ("card", args.get("card"))
        else:
            target = ("general", None)
        self._add(target, game_id, decision, command)

    def _bids(self, game_id: str, decision: Mapping[str, Any]) -> None:
        """A chip per amount one may bid (the form below takes any amount as well)."""
        amount = ((decision.get("schema") or {}).get("properties") or {}).get("amount") or {}
        low, high = amount.get("minimum", 0), amount.get("maximum", 0)
        if not isinstance(low, int) or not isinstance(high, int):
            return
        for value in range(low, min(high, low + 15) + 1):
            self._add(("auction", None), game_id, decision, {"type": "place_bid", "args": {"amount": value}})

    def _releases(self, game_id: str, decision: Mapping[str, Any]) -> None:
        """The upkeep bill: releasing one gladiator is a click on it, releasing none a
        click on the general row; releasing several takes the form below the board."""
        release = ((decision.get("schema") or {}).get("properties") or {}).get("release") or {}
        low, high = release.get("minItems", 0), release.get("maxItems", 0)
        cards = (release.get("items") or {}).get("enum") or []
        if low == 0:
            self._add(("general", None), game_id, decision, {"type": "settle_accounts", "args": {"release": []}})
        if isinstance(low, int) and isinstance(high, int) and low <= 1 <= high:
            for card in cards:
                self._add(("card", card), game_id, decision, {"type": "settle_accounts", "args": {"release": [card]}})

    def _add(self, target: tuple, game_id: str, decision: Mapping[str, Any], command: Mapping[str, Any]) -> None:
        self.by_target.setdefault(target, []).append({
            "url": choice_url(game_id, decision, command), "label": self._full(command),
            "short": self._short(str(command.get("type")), command.get("args") or {})})

    def _full(self, command: Mapping[str, Any]) -> str:
        from service.words import telling

        return telling.command_label(self.language, command, {}, "spartacus")

    def _short(self, ctype: str, args: Mapping[str, Any]) -> str:
        target = args.get("target")
        aimed = isinstance(target, int) and target >= 0
        if ctype in ("play_reaction", "use_card_ability") and aimed:
            ctype += "_on"
        words = SHORT.get(ctype)
        if words is None:
            return self._full({"type": ctype, "args": args})
        return self._(words, seat=seat_style(target)["mark"] if aimed else "",
                      seats=", ".join(seat_style(s)["mark"] for s in args.get("from") or []),
                      amount=args.get("amount", "")) if "%(" in words else self._(words)

    def take(self, target: tuple) -> list[dict]:
        return self.by_target.get(target, [])


def _chips(actions: Sequence[Mapping[str, Any]], x: float, y: float, width: float) -> tuple[list[dict], float]:
    """Lay ``actions`` out as chips in rows within ``width``; returns them and the height used."""
    out, cx, cy = [], x, y
    for a in actions:
        w = min(width, 14 + 6.4 * len(a["short"]))
        if cx + w > x + width + 0.5 and cx > x:
            cx, cy = x, cy + CHIP_H + 4
        out.append({**a, "x": cx, "y": cy, "w": w, "h": CHIP_H,
                    "squeeze": _squeeze(a["short"], w - 10, 6.4)})
        cx += w + 4
    return out, (cy - y + CHIP_H + 4) if actions else 0


# --------------------------------------------------------------------------- houses


def _house(p: Mapping[str, Any], board: Mapping[str, Any], language: str, viewer: Optional[int],
           choices: _Choices) -> dict:
    _ = translator(language)
    seat = p.get("seat")
    style = seat_style(seat)
    house, dominus = terms.house_names(p.get("house"), language) if p.get("house") else (_("No house yet"), "")
    influence = p.get("influence") if isinstance(p.get("influence"), int) else 0
    marker = max(0, min(influence, TRACK_MAX))
    track = [{"value": v, "x": 8 + v * 26.5, "marked": v == marker} for v in range(TRACK_MAX + 1)]
    hidden = bool(p.get("gold_hidden")) and p.get("gold") is None
    gold_text = _("Gold hidden") if hidden else _("Gold: %(gold)s", gold=p.get("gold"))
    if p.get("gold_hidden") and p.get("gold") is not None:
        gold_text = _("Gold: %(gold)s (hidden from the others)", gold=p.get("gold"))
    # gold committed to a secret answer (its owner's view only) or a stake on the table (public;
    # while the others' gold is hidden the auction shows the stakes)
    aside = (p.get("committed") or 0) + (p.get("staked") or 0)
    if aside and not hidden:
        gold_text = _("%(gold)s; set aside: %(aside)s", gold=gold_text, aside=aside)
    hand_text = _("Intrigue cards in hand: %(count)s", count=p.get("hand_size", 0))
    if "hand_limit" in p:
        hand_text = _("Intrigue cards: %(count)s of %(limit)s", count=p.get("hand_size", 0), limit=p["hand_limit"])
    y = 148
    cards, row_h, col = [], 0.0, 0
    for asset in p.get("property") or []:
        if not isinstance(asset, Mapping):
            continue
        if col == 4:
            y, col, row_h = y + row_h + CARD_GAP, 0, 0.0
        card = _property(asset, language, choices, 8 + col * (CARD_W + CARD_GAP), y)
        row_h = max(row_h, card["cell_h"])
        cards.append(card)
        col += 1
    bottom = y + row_h if cards else y + 20
    abilities = []
    if seat == viewer:
        offered = [key[1] for key in choices.by_target if key[0] == "ability"]
        for ability in dict.fromkeys(_abilities(p.get("house")) + offered):
            actions = choices.take(("ability", ability))
            abilities.append({"name": _card(ability, language),
                              "text": _wrap(terms.card_text(ability, language) or "", 58), "actions": actions})
    for ability in abilities:
        chips, used = _chips(ability["actions"], 8, bottom + 8, WIDTH - 16)
        ability["y"] = bottom + 8
        ability["chips"] = [{**c, "y": c["y"] + 16 + 13 * len(ability["text"])} for c in chips]
        bottom += 18 + 13 * len(ability["text"]) + used
    invite, used = _chips(choices.take(("seat", seat)), 8, bottom + 6, WIDTH - 16)
    bottom += used + 6 if invite else 0
    state = _("Influence: %(influence)s", influence=influence)
    label = f"{style['mark']} · {house}"
    host_word = _("Host")
    return {
        "seat": seat, "style": style, "mark": style["mark"], "house": house, "dominus": dominus,
        "me": seat == viewer, "host": board.get("host") == seat,
        "host_word": host_word, "host_w": 16 + 7.2 * len(host_word),
        "on_turn": (board.get("turn") or {}).get("seat") == seat,
        "influence": influence, "influence_text": state, "track": track, "over_track": influence > TRACK_MAX,
        "gold": None if hidden else p.get("gold"), "gold_hidden": hidden, "gold_text": gold_text,
        "hand_size": p.get("hand_size", 0), "hand_text": hand_text,
        "property": cards, "abilities": abilities, "invite": invite,
        "links": bool(invite or any(c["chips"] for c in cards) or any(a["chips"] for a in abilities)),
        "height": bottom + 10,
        "label": label,
        "description": "; ".join([label, dominus, state, gold_text, hand_text]
                                 + [c["description"] for c in cards]),
    }


def _abilities(house: Any) -> list[str]:
    from engine.spartacus.game.cards import load_set

    for h in load_set("default").houses:
        if h.id == house:
            return [a.id for a in h.abilities]
    return []


def _property(asset: Mapping[str, Any], language: str, choices: _Choices, x: float, y: float) -> dict:
    _ = translator(language)
    card = str(asset.get("card"))
    name = terms.card_name(card, language) or str(asset.get("name") or card)
    kind = _word(language, KINDS, asset.get("kind"))
    states = []
    if asset.get("exhausted"):
        states.append(_("exhausted"))
    if asset.get("injured"):
        states.append(_("injured"))
    states = states or [_("ready")]
    state = ", ".join(states)
    tokens = []
    if asset.get("champion"):
        tokens.append(_("Champion"))
    elif asset.get("favour"):
        tokens.append(_("Favour ×%(count)s", count=asset["favour"]))
    actions = choices.take(("card", card))
    chips, used = _chips(actions, x, y + CARD_H + 4, CARD_W)
    return {
        "id": card, "name": name, "name_squeeze": _squeeze(name, CARD_W - 8, 6.2), "kind": kind,
        "state": state, "states": states,
        "exhausted": bool(asset.get("exhausted")), "injured": bool(asset.get("injured")),
        "favour": asset.get("favour") or 0, "champion": bool(asset.get("champion")), "tokens": tokens,
        "x": x, "y": y, "w": CARD_W, "h": CARD_H, "cx": x + CARD_W / 2, "cy": y + CARD_H / 2,
        "chips": chips, "link": actions[0] if len(actions) == 1 else None,
        "cell_h": CARD_H + (used + 4 if chips else 0),
        "description": " ".join([name, f"({kind}, {state}" + (", " + ", ".join(tokens) if tokens else "") + ")"]),
    }


def _house_choices(choices: _Choices, language: str) -> list[dict]:
    """The houses still to choose at set-up, for the seat choosing (rulebook p. 3)."""
    out = []
    for (kind, house), actions in choices.by_target.items():
        if kind != "house":
            continue
        name, dominus = terms.house_names(house, language)
        x = 8 + (len(out) % 2) * 176
        y = 8 + (len(out) // 2) * 78
        out.append({"id": house, "name": name, "dominus": dominus, "x": x, "y": y, "link": actions[0],
                    "lines": _wrap(name, 26), "dominus_lines": _wrap(dominus, 30)})
    return out


# --------------------------------------------------------------------------- market


def _market(board: Mapping[str, Any], language: str, names: Mapping[Any, Optional[str]],
            choices: _Choices) -> Optional[dict]:
    market = board.get("market")
    if not isinstance(market, Mapping):
        return None
    _ = translator(language)
    auction = market.get("auction") if isinstance(market.get("auction"), Mapping) else None
    lot = None
    if auction is not None:
        if auction.get("host"):
            lot = {"name": _("Host token"), "lines": [_("The host of this round's games")], "host": True}
        elif auction.get("card"):
            lot = _market_card(str(auction["card"]), language)
    if lot is not None:
        stakes = auction.get("stakes") or {}
        lot["bidders"] = [{"mark": seat_style(s)["mark"], "style": seat_style(s), "label": _seat_label(s, names),
                           "stake": stakes.get(str(s), 0)} for s in auction.get("bidders") or []]
        lot["round_text"] = _("Bidding round %(round)s", round=auction.get("round"))
    bids, used = _chips(choices.take(("auction", None)), 8, 148, WIDTH - 16)
    offers = []
    for o in market.get("offers") or []:
        if not isinstance(o, Mapping):
            continue
        give = ", ".join(_card(c, language) for c in o.get("give") or []) or "—"
        take = ", ".join(_card(c, language) for c in o.get("take") or []) or "—"
        offers.append(_("Trade %(offer)s: %(frm)s offers %(to)s %(give)s and %(gold)s gold for %(take)s",
                        offer=o.get("id"), frm=_seat_label(o.get("from"), names), to=_seat_label(o.get("to"), names),
                        give=give, gold=o.get("gold", 0), take=take))
    face_down = market.get("lots_face_down") or 0
    return {"lot": lot, "face_down": face_down,
            "face_down_text": _("%(count)s more cards face down", count=face_down) if face_down else "",
            "bids": bids, "height": 148 + used + 8, "offers": offers}


def _market_card(card: str, language: str) -> dict:
    """A market card's public face (name, kind, gold value, fighting values)."""
    _ = translator(language)
    from engine.spartacus.game.cards import load_set, market_card_or_none

    data = market_card_or_none(load_set("default"), card)
    name = terms.card_name(card, language) or (data.name if data else card)
    lines = []
    if data is not None:
        lines += _wrap(f"{_word(language, KINDS, data.kind)} · " + _("value %(gold)s gold", gold=data.value), 27)
        if data.kind in ("gladiator", "slave"):
            lines += _wrap(_("Attack %(a)s · Defence %(d)s · Speed %(s)s", a=data.attack, d=data.defence,
                             s=data.speed), 27)
    return {"name": name, "lines": lines, "host": False}


# --------------------------------------------------------------------------- arena


def _arena(board: Mapping[str, Any], language: str, names: Mapping[Any, Optional[str]],
           choices: _Choices) -> Optional[dict]:
    arena = board.get("arena")
    if not isinstance(arena, Mapping):
        return None
    _ = translator(language)
    entries = []
    for i, e in enumerate(arena.get("entries") or []):
        if not isinstance(e, Mapping):
            continue
        fighter = _card(e.get("fighter"), language)
        kit = [_card(e[k], language) for k in ("weapon", "armour", "special") if e.get(k)]
        entries.append({"number": "I" if i == 0 else "II", "seat": e.get("seat"), "style": seat_style(e.get("seat")),
                        "fighter": fighter, "kit": ", ".join(kit) or _("no equipment"),
                        "owner": _seat_label(e.get("seat"), names), "y": 100 + i * 54})
    corners = {}
    bets = arena.get("bets") or {}
    for corner, kind in CORNERS:
        title = _(terms.BET_TITLES[kind])
        if kind in ("winner_i", "winner_ii"):
            i = 0 if kind == "winner_i" else 1
            if len(entries) > i:
                title = f"{title}: {entries[i]['fighter']}"
        lines = [_("%(seat)s: %(amount)s gold", seat=_seat_label(_int(s), names), amount=b.get(kind))
                 for s, b in sorted(bets.items(), key=lambda kv: _int(kv[0]))
                 if isinstance(b, Mapping) and b.get(kind)]
        corners[corner] = {"title": title, "lines": lines}
    invited = [_seat_label(s, names) for s in arena.get("invited") or []]
    declined = [_seat_label(s, names) for s in arena.get("declined") or []]
    notes = []
    if invited:
        notes.append(_("Invited: %(seats)s", seats=", ".join(invited)))
    if declined:
        notes.append(_("Declined: %(seats)s", seats=", ".join(declined)))
    if isinstance(arena.get("awaiting"), int) and arena["awaiting"] >= 0:
        notes.append(_("Waiting for the answer of %(seat)s", seat=_seat_label(arena["awaiting"], names)))
    result = arena.get("result") if isinstance(arena.get("result"), Mapping) else None
    if result:
        sentence = RESULTS.get(result.get("kind"), RESULTS["defeated"])
        notes.append(_(sentence, winner=f"{_card(result.get('winner_card'), language)} "
                                       f"({_seat_label(result.get('winner_seat'), names)})",
                       loser=f"{_card(result.get('loser_card'), language)} "
                             f"({_seat_label(result.get('loser_seat'), names)})"))
    # top corners, the two entries, the notes and the verdict, then the bottom corners
    lines = [line for note in notes for line in _wrap(note, 56)]
    notes_y = 216
    verdict, used = _chips(choices.take(("verdict", None)), 12, notes_y + 15 * len(lines), WIDTH - 24)
    bottom_y = notes_y + 15 * len(lines) + used + 4
    boxes = []
    for corner, _kind in CORNERS:
        boxes.append({**corners[corner], "x": 4 if corner.endswith("left") else WIDTH / 2 + 2,
                      "y": 4 if corner.startswith("top") else bottom_y, "w": WIDTH / 2 - 6, "h": 84,
                      "title_fit": _fit(corners[corner]["title"], WIDTH / 2 - 16, 6.0), "corner": corner,
                      "lines_fit": [_fit(line, WIDTH / 2 - 16, 5.6) for line in corners[corner]["lines"]]})
    return {"entries": entries, "corners": corners, "boxes": boxes, "notes": lines, "notes_y": notes_y,
            "notes_full": notes, "verdict": verdict, "height": bottom_y + 92}


def _tournament(board: Mapping[str, Any], language: str) -> Optional[dict]:
    t = board.get("tournament")
    if not isinstance(t, Mapping):
        return None
    _ = translator(language)
    marks = lambda seats: ", ".join(seat_style(s)["mark"] for s in seats or [])  # noqa: E731
    return {"lines": [line for line in (
        _("Contenders: %(seats)s", seats=marks(t.get("seats"))),
        _("Now fighting: %(seats)s", seats=marks(t.get("current"))) if t.get("current") else "",
        _("Match winners: %(seats)s", seats=marks(t.get("winners"))) if t.get("winners") else "",
    ) if line]}


# --------------------------------------------------------------------------- my hand


def _hand(me: Mapping[str, Any], language: str, choices: _Choices) -> dict:
    ngettext = _counting(language)
    """My intrigue cards, two to a row, each as tall as its text needs."""
    _ = translator(language)
    cards = []
    for c in me.get("hand") or []:
        if not isinstance(c, Mapping):
            continue
        card = str(c.get("card"))
        name = terms.card_name(card, language) or str(c.get("name") or card)
        text = terms.card_text(card, language) or ""
        kind = _word(language, TYPES, c.get("type"))
        name_lines, text_lines = _wrap(name, 24)[:2], _wrap(text, 33)
        cards.append({
            "id": card, "name": name, "name_lines": name_lines, "type": c.get("type"), "kind": kind,
            "influence": c.get("influence"), "gold": c.get("gold"),
            "influence_text": ngettext("needs %(num)s influence", "needs %(num)s influence", c.get("influence")),
            "gold_text": ngettext("worth %(num)s gold", "worth %(num)s gold", c.get("gold")),
            "text_lines": text_lines, "text": text, "w": HAND_W,
            "h": 66 + 14 * len(name_lines) + 12 * len(text_lines), "actions": choices.take(("card", card)),
        })
    y = 8.0
    for row in range(0, len(cards), 2):
        pair = cards[row:row + 2]
        height = max(c["h"] for c in pair)
        used = 0.0
        for col, c in enumerate(pair):
            c["x"], c["y"], c["h"] = 6 + col * (HAND_W + 4), y, height
            c["chips"], chip_h = _chips(c["actions"], c["x"], y + height + 4, HAND_W)
            c["link"] = c["actions"][0] if len(c["actions"]) == 1 else None
            used = max(used, chip_h + 4 if c["chips"] else 0)
        y += height + used + 8
    return {"cards": cards, "height": y if cards else 0, "limit": me.get("hand_limit"), "count": len(cards),
            "links": any(c["chips"] for c in cards)}


# --------------------------------------------------------------------------- words


def _status(board: Mapping[str, Any], language: str, names: Mapping[Any, Optional[str]]) -> list[str]:
    """What the table is waiting for, in words (reaction windows, support, choices)."""
    _ = translator(language)
    lines = []
    if isinstance(board.get("host"), int) and board["host"] >= 0:
        lines.append(_("Host of the games: %(seat)s", seat=_seat_label(board["host"], names)))
    turn = board.get("turn")
    if isinstance(turn, Mapping):
        lines.append(_("Intrigue turn of %(seat)s", seat=_seat_label(turn.get("seat"), names)))
        support = turn.get("support")
        if isinstance(support, Mapping) and support.get("asked"):
            lines.append(_("%(seat)s asks %(asked)s for support", seat=_seat_label(turn.get("seat"), names),
                           asked=", ".join(_seat_label(s, names) for s in support["asked"])))
        if turn.get("discount"):
            lines.append(_("Your next scheme needs %(x)s less influence", x=turn["discount"]))
        for peek in turn.get("peeks") or []:
            lines.append(_("You saw %(card)s in the hand of %(seat)s", card=_card(peek.get("card"), language),
                           seat=_seat_label(peek.get("seat"), names)))
    for w in board.get("windows") or []:
        if not isinstance(w, Mapping):
            continue
        subject = w.get("subject") if isinstance(w.get("subject"), Mapping) else None
        words = MOMENTS.get(w.get("moment"), MOMENTS["scheme_succeeded"])
        what = _(words, seat=_seat_label(subject.get("seat"), names) if subject else "",
                 card=_card(subject.get("card"), language) if subject else "")
        if subject and isinstance(subject.get("target"), int) and subject["target"] >= 0:
            what += " " + _("(target: %(seat)s)", seat=_seat_label(subject["target"], names))
        if isinstance(w.get("waiting_for"), int):
            what += " — " + _("%(seat)s may react", seat=_seat_label(w["waiting_for"], names))
        elif isinstance(w.get("waiting_for"), list) and w["waiting_for"]:  # reactions together
            what += " — " + _("Secret answers awaited from %(seats)s",
                              seats=", ".join(_seat_label(s, names) for s in w["waiting_for"]))
        lines.append(what)
    sealed = board.get("sealed")
    if isinstance(sealed, Mapping) and sealed.get("waiting_for"):
        lines.append(_("Secret answers awaited from %(seats)s",
                       seats=", ".join(_seat_label(s, names) for s in sealed["waiting_for"])))
    prompt = board.get("prompt")
    if isinstance(prompt, Mapping):
        lines.append(_("%(seat)s is choosing a card", seat=_seat_label(prompt.get("seat"), names)))
    return lines


def _counting(language: str):
    """``ngettext(singular, plural, n)`` in ``language``: a number with its noun in the form
    the number takes ("1 очко Влияния", "2 очка", "5 очков"); ``?`` for no number."""
    def ngettext(singular: str, plural: str, n: Any) -> str:
        if not isinstance(n, int) or isinstance(n, bool):
            return "?"
        return i18n_ngettext(language, singular, plural, n)
    return ngettext


def _word(language: str, words: Mapping[str, str], key: Any) -> str:
    """``words[key]`` in ``language``; the key itself when Capua has no word for it."""
    message = words.get(key) if isinstance(key, str) else None
    return translator(language)(message) if message else str(key or "")


def _phase(stage: Any) -> str:
    stage = str(stage or "")
    for prefix in PHASES:
        if stage.startswith(prefix):
            return prefix
    return ""


def _seat_label(seat: Any, names: Mapping[Any, Optional[str]]) -> str:
    """``B (House of Glaber)``: the seat's letter, and its house once chosen."""
    mark = seat_style(seat)["mark"]
    house = names.get(seat)
    return f"{mark} ({house})" if house else mark


def _int(value: Any) -> int:
    """A seat from a JSON key (``"2"``); -1 for anything else."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _card(card: Any, language: str) -> str:
    return terms.card_name(card, language) or terms.english_name(card) if card else ""


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width=width, break_long_words=True) if text else []


def _squeeze(text: str, width: float, per_char: float) -> Optional[float]:
    """The width to squeeze ``text`` into (SVG ``textLength``) when it is wider than
    ``width`` units at about ``per_char`` a letter, else ``None``: a card's name is read
    whole ("Water Carrier", "Домашний раб"), never cut to "Water Carr…"."""
    return round(width, 1) if len(text) * per_char > width else None


def _fit(text: str, width: float, per_char: float) -> str:
    """``text`` cut with an ellipsis to about ``width`` units (the full text is in a title)."""
    most = max(1, int(width / per_char))
    return text if len(text) <= most else text[:most - 1].rstrip() + "…"
