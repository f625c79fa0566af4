"""The arena fight drawn for the pages: the hex board, both fighters, their dice, the roll.

:func:`draw_fight` turns a fight as one viewer sees it (the duel's view, or
``board["arena"]["fight"]`` of the Spartacus game: the same shape) into what
``templates/games/_arena_fight.html`` draws: hex polygons with their positions computed
here, the fighters' tokens, every pool of dice (current against printed, lost dice shown
as lost), equipment and powers in words, the roll on the table and the last roll settled,
and the text alternative.  The viewer's open decisions become links on the board through
:func:`service.web.boards.choice_url`: a hex it may move to, the opponent's token to attack,
a die to lose or to reroll, the net, the order, the end of the turn.

Only ``fight`` and ``decisions`` are read, so a drawing shows nothing the viewer may not
see (the view already hides the other side's plan and secret choices).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Optional, Sequence

from service.web.boards import choice_url
from service.words import i18n, terms
from service.words.seat_marks import seat_style
from service.words.terms import spartacus_arena as words

#: Hex radius (centre to corner) in SVG units; pointy-top hexes, rows by axial ``r``.
HEX = 28.0
PAD = 8.0
ROMAN = ("I", "II")
POOLS = ("attack", "defence", "speed")
#: Dice colours of the rulebook ("Rot für Angriffe, Schwarz für Verteidigung und Blau für
#: Schnelligkeit"); white pips on each have a contrast well above 4.5:1.
POOL_COLOURS = {"attack": "#a61c1c", "defence": "#222222", "speed": "#1f4e9c"}
CORNERS = ("top_left", "top_right", "bottom_left", "bottom_right")
CORNER_BAND = 74.0

POOL_NAMES = words.POOL_NAMES
SLOT_NAMES = {"weapon": i18n.N_("Weapon"), "armour": i18n.N_("Armour"), "special": i18n.N_("Special")}
PHASES = {
    "start": i18n.N_("the fight begins"),
    "round_start": i18n.N_("a round begins"),
    "nets": i18n.N_("nets: who throws the net?"),
    "initiative_roll": i18n.N_("initiative roll"),
    "order": i18n.N_("the initiative winner chooses the order"),
    "turn": i18n.N_("move and attack"),
    "attack_roll": i18n.N_("attack roll"),
    "reroll": i18n.N_("rerolls"),
    "reroll_roll": i18n.N_("rerolls are rolled"),
    "settle": i18n.N_("the roll is settled"),
    "wounds": i18n.N_("wounds are taken"),
    "round_end": i18n.N_("the round ends"),
    "round_over": i18n.N_("the round ends"),
    "ended": i18n.N_("the fight is decided"),
    "over": i18n.N_("the fight is over"),
}
RESULT_KINDS = {"defeated": i18n.N_("defeated (yields)"), "injured": i18n.N_("injured"),
                "decapitated": i18n.N_("decapitated")}
ROLL_PURPOSES = {"initiative": i18n.N_("Initiative roll"), "attack": i18n.N_("Attack roll")}
USES = {"once_per_fight": i18n.N_("once per fight"), "every_roll": i18n.N_("on every roll"),
        "every_turn": i18n.N_("every turn"), "every_attack": i18n.N_("on every attack")}
REROLLS = {"attack": i18n.NP_("Reroll up to %(dice)s attack die", "Reroll up to %(dice)s attack dice", "dice"),
           "defence": i18n.NP_("Reroll up to %(dice)s defence die", "Reroll up to %(dice)s defence dice", "dice"),
           "initiative": i18n.NP_("Reroll up to %(dice)s initiative die", "Reroll up to %(dice)s initiative dice",
                                  "dice")}
TRIGGERS = {"attack_doubles": i18n.N_("per pair of attack dice"),
            "attack_triples": i18n.N_("per triple of attack dice"),
            "defence_doubles": i18n.N_("per pair of defence dice"),
            "defence_triples": i18n.N_("per triple of defence dice")}
POWERS = {
    "extra_wound": i18n.NP_("%(count)s extra wound", "%(count)s extra wounds", "count"),
    "extra_wound.hit": i18n.NP_("%(count)s extra wound on an attack that wounds",
                                "%(count)s extra wounds on an attack that wounds", "count"),
    "ignore_wound": i18n.NP_("Ignore %(count)s wound", "Ignore %(count)s wounds", "count"),
    "ignore_wound.min": i18n.NP_("Ignore %(count)s wound of an attack that deals %(min_wounds)s or more",
                                 "Ignore %(count)s wounds of an attack that deals %(min_wounds)s or more", "count"),
    "counter_wound": i18n.NP_("The attacker takes %(count)s wound", "The attacker takes %(count)s wounds", "count"),
    "range": i18n.NP_("Normal attacks reach %(hexes)s hex", "Normal attacks reach %(hexes)s hexes", "hexes"),
    "speed_attack": i18n.NP_("Attack with the speed dice at up to %(range)s hex",
                             "Attack with the speed dice at up to %(range)s hexes", "range"),
    "net": i18n.N_("Throw the net before the initiative roll to win the initiative"),
    "initiative_bonus": i18n.NP_("Rolls %(dice)s more speed die for the initiative",
                                 "Rolls %(dice)s more speed dice for the initiative", "dice"),
    "wins_ties": i18n.N_("When attacking, tied dice wound"),
    "negate_ability": i18n.N_("The opponent's own ability has no effect"),
    "speed_defence": i18n.N_("Defends with the speed dice while having more of them"),
    "brutal": i18n.N_("An opponent defeated by him is at least injured"),
}


# --------------------------------------------------------------------------- the geometry


def hex_centre(q: int, r: int) -> tuple[float, float]:
    """Pixel centre of axial hex ``(q, r)`` for pointy-top hexes (rows by ``r``)."""
    return HEX * math.sqrt(3) * (q + r / 2), HEX * 1.5 * r


def hex_points(cx: float, cy: float, size: float = HEX) -> str:
    corners = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        corners.append(f"{cx + size * math.cos(angle):.1f},{cy + size * math.sin(angle):.1f}")
    return " ".join(corners)


def _hex_distance(a: Sequence[int], b: Sequence[int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _hex_key(h: Any) -> Optional[tuple[int, int]]:
    if isinstance(h, (list, tuple)) and len(h) == 2 and all(isinstance(v, int) for v in h):
        return int(h[0]), int(h[1])
    return None


# --------------------------------------------------------------------------- the drawing


def prepare(board: Mapping[str, Any], *, language: str, game_id: str, version: Optional[int],
            seat: Optional[int], decisions: Sequence[Mapping[str, Any]]) -> dict:
    """The duel's drawing: its view is the fight itself."""
    return {"fight": draw_fight(board, language=language, game_id=game_id, seat=seat, decisions=decisions)}


def draw_fight(fight: Mapping[str, Any], *, language: str, game_id: str, seat: Optional[int],
               decisions: Sequence[Mapping[str, Any]], corners: Optional[Mapping[str, Any]] = None) -> dict:
    """Everything ``_arena_fight.html`` draws of ``fight`` for the viewer on ``seat``
    (``None``: a spectator), with the viewer's ``decisions`` as links on the board and
    ``corners`` (``{"top_left": {"title", "lines"}, ...}``) as boxes in the corners."""
    _ = i18n.translator(language)
    fighters = [f for f in (fight.get("fighters") or []) if isinstance(f, Mapping)][:2]
    mine = _decisions_of(fight, decisions)
    names = [_card_name(f.get("card"), language, f.get("name")) for f in fighters]
    hexes, box = _board(fight, fighters, mine, game_id, language)
    corner_boxes, box = _corners(corners, box)
    tokens = [_token(fight, fighters, i, names, mine, game_id, language, _) for i in range(len(fighters))]
    panels = [_panel(fight, f, i, names, seat, mine, game_id, language, _) for i, f in enumerate(fighters)]
    status = _status(fight, fighters, names, _)
    drawing = {
        "id": "arena-" + "".join(ch if ch.isalnum() else "-" for ch in str(fight.get("fight") or "fight")),
        "view_box": f"{box[0]:.1f} {box[1]:.1f} {box[2] - box[0]:.1f} {box[3] - box[1]:.1f}",
        "hexes": hexes,
        "tokens": tokens,
        "corners": corner_boxes,
        "fighters": panels,
        "status": status,
        # the roll on the table, then the last one settled: drawn alike
        "rolls": [r for r in (_roll(fight, fighters, names, mine, game_id, _), _last_roll(fight, names, _)) if r],
        "wounds": _wounds(fight, fighters, names, mine, game_id, language, _),
        "actions": _actions(mine, game_id, language),
        "result": _result(fight, names, _),
        "moves": [{"label": h["move_label"], "url": h["move"]} for h in hexes if h["move"]],
    }
    drawing["key"] = _("On the board: I and II mark the hexes where fighters I and II start; the numbers in a hex "
                       "are its coordinates (q, r), as the moves name them; a green hex with a dot is one your "
                       "fighter can move to (click it, then confirm); a hex outlined with dashes is within reach of "
                       "the fighter whose turn it is.")
    drawing["title"] = _("Arena: %(first)s against %(second)s", first=_label(names, 0), second=_label(names, 1))
    drawing["text"] = _text(fight, fighters, names, status, _)
    return drawing


def _label(names: Sequence[str], index: int) -> str:
    return f"{names[index]} ({ROMAN[index]})" if index < len(names) else ROMAN[index]


def _card_name(card: Any, language: str, fallback: Any) -> str:
    """A card's name as the rulebook of ``language`` has it, from the Spartacus game's
    words (the arena shares its cards); the engine's English name otherwise."""
    return terms.card_name("spartacus", card, language, str(fallback or card or "?"))


def _decisions_of(fight: Mapping[str, Any], decisions: Sequence[Mapping[str, Any]]) -> dict[str, Mapping]:
    """The viewer's open decisions of this fight, by kind (``turn``, ``reroll``...).

    In the Spartacus game a viewer may have decisions of other things open too; a fight's
    decision ids start with its fight id."""
    prefix = f"{fight.get('fight')}:"
    out: dict[str, Mapping] = {}
    for d in decisions or []:
        key = str(d.get("prompt_key") or "")
        if key.startswith("spartacus_arena.") and str(d.get("id", "")).startswith(prefix) and d.get("options"):
            out.setdefault(key.split(".", 1)[1], d)
    return out


def _options(decision: Optional[Mapping[str, Any]], ctype: str) -> list[Mapping[str, Any]]:
    if not decision:
        return []
    return [o for o in decision.get("options") or [] if isinstance(o, Mapping) and o.get("type") == ctype]


def _board(fight, fighters, mine, game_id, language) -> tuple[list[dict], list[float]]:
    board = fight.get("board") or {}
    starts = [_hex_key(h) for h in board.get("starts") or []]
    moves = {}
    for option in _options(mine.get("turn"), "move"):
        args = option.get("args") or {}
        target = _hex_key(args.get("to"))
        if target is not None and "attack" not in args:  # a hex moves there; moving to strike is an action
            moves.setdefault(target, option)
    active = fight.get("active")
    reach_side = active if isinstance(active, int) and 0 <= active < len(fighters) else None
    reach_from = _hex_key(fighters[reach_side].get("position")) if reach_side is not None else None
    reach = (fighters[reach_side].get("reach") or 1) if reach_side is not None else 0
    out = []
    xs, ys = [], []
    for h in board.get("hexes") or []:
        key = _hex_key(h)
        if key is None:
            continue
        cx, cy = hex_centre(*key)
        xs.append(cx)
        ys.append(cy)
        start = ROMAN[starts.index(key)] if key in starts and starts.index(key) < 2 else None
        option = moves.get(key)
        out.append({
            "q": key[0], "r": key[1], "cx": round(cx, 1), "cy": round(cy, 1), "points": hex_points(cx, cy),
            "start": start,
            "in_reach": reach_from is not None and 0 < _hex_distance(key, reach_from) <= reach,
            "move": choice_url(game_id, mine["turn"], option) if option else None,
            "move_label": words.command_label(language, option, {}) if option else "",
        })
    if not xs:
        return out, [0.0, 0.0, 200.0, 100.0]
    half_w = HEX * math.sqrt(3) / 2
    return out, [min(xs) - half_w - PAD, min(ys) - HEX - PAD - 6, max(xs) + half_w + PAD, max(ys) + HEX + PAD + 14]


def _corners(corners: Optional[Mapping[str, Any]], box: list[float]) -> tuple[list[dict], list[float]]:
    """Boxes in the drawing's four corners, in bands added above and below the board so
    they never cover a hex."""
    if not corners:
        return [], box
    given = {k: corners.get(k) for k in CORNERS if isinstance(corners.get(k), Mapping)}
    if not given:
        return [], box
    x0, y0, x1, y1 = box
    top = any(k.startswith("top") for k in given)
    bottom = any(k.startswith("bottom") for k in given)
    if top:
        y0 -= CORNER_BAND
    if bottom:
        y1 += CORNER_BAND
    width = (x1 - x0) / 2 - 6
    out = []
    for key, corner in given.items():
        lines = [str(v) for v in corner.get("lines") or []][:3]
        x = x0 + 2 if key.endswith("left") else x0 + (x1 - x0) / 2 + 4
        y = y0 + 2 if key.startswith("top") else y1 - CORNER_BAND + 2
        out.append({"key": key, "x": round(x, 1), "y": round(y, 1), "w": round(width, 1),
                    "h": CORNER_BAND - 4, "title": str(corner.get("title") or ""), "lines": lines})
    return out, [x0, y0, x1, y1]


def _token(fight, fighters, index, names, mine, game_id, language, _) -> dict:
    fighter = fighters[index]
    pos = _hex_key(fighter.get("position")) or (0, 0)
    cx, cy = hex_centre(*pos)
    style = seat_style(fighter.get("seat"))
    attacks = []
    turn = mine.get("turn")
    active = fight.get("active")
    if turn and isinstance(active, int) and active != index:
        attacker = fighters[active]
        for option in _options(turn, "attack"):
            args = option.get("args") or {}
            short = _card_name(args.get("source"), language, _equipment_name(attacker, args.get("source"))) \
                if args.get("style") == "speed" else _("Strike")
            label = attack_label(option, names[index], attacker, language, _)
            if args.get("then") == "stay":
                label = _("%(attack)s, and stay", attack=label)
            elif args.get("then") == "move":
                label = _("%(attack)s, then move", attack=label)
            attacks.append({"url": choice_url(game_id, turn, option), "short": short, "label": label})
    dice = fighter.get("dice") or {}
    return {
        "side": index, "roman": ROMAN[index], "name": names[index], "cx": round(cx, 1), "cy": round(cy, 1),
        "r": round(HEX * 0.72, 1), "fill": style["fill"], "ink": style["ink"], "mark": style["mark"],
        "active": active == index,
        "title": _("%(name)s (%(side)s): attack %(attack)s, defence %(defence)s, speed %(speed)s, on hex "
                   "(%(q)s, %(r)s)", name=names[index], side=ROMAN[index], attack=dice.get("attack", 0),
                   defence=dice.get("defence", 0), speed=dice.get("speed", 0), q=pos[0], r=pos[1]),
        "attacks": attacks,
    }


def _equipment_name(fighter: Mapping[str, Any], card: Any) -> str:
    """The engine's (English) name of ``fighter``'s equipment card ``card``."""
    return next((str(e.get("name")) for e in fighter.get("equipment") or []
                 if isinstance(e, Mapping) and e.get("card") == card), str(card or ""))


def attack_label(option: Mapping[str, Any], target: str, attacker: Optional[Mapping[str, Any]], language: str,
                 _) -> str:
    """"Attack Crixus", or "Attack Crixus with the speed dice (Javelin)" for a speed attack."""
    args = option.get("args") or {}
    if args.get("style") == "speed":
        source = str(args.get("source") or "")
        return _("Attack %(name)s with the speed dice (%(card)s)", name=target,
                 card=_card_name(source, language, _equipment_name(attacker or {}, source)))
    return _("Attack %(name)s", name=target)


def _panel(fight, fighter, index, names, seat, mine, game_id, language, _) -> dict:
    """One fighter's card: seat, dice pools, equipment, powers, reach, net."""
    style = seat_style(fighter.get("seat"))
    dice = fighter.get("dice") or {}
    printed = fighter.get("printed") or {}
    wound_links = _single_pool_allocations(fight, index, mine, game_id, language)
    pools = []
    for pool in POOLS:
        current = max(0, int(dice.get(pool) or 0))
        total = max(current, int(printed.get(pool) or 0))
        link = wound_links.get(pool)
        cells = []
        for i in range(total):
            lost = i >= current
            # the dice a wound would take are the last ones standing in the pool
            url = link["url"] if link and not lost and i >= current - link["count"] else None
            cells.append({"lost": lost, "url": url, "title": link["label"] if url else
                          (_("lost") if lost else _(POOL_NAMES[pool]))})
        pools.append({"key": pool, "label": _(POOL_NAMES[pool]), "current": current, "printed": total,
                      "colour": POOL_COLOURS[pool], "dice": cells})
    equipment = [{"slot": _(SLOT_NAMES.get(str(e.get("slot")), str(e.get("slot")))),
                  "name": _card_name(e.get("card"), language, e.get("name"))}
                 for e in fighter.get("equipment") or [] if isinstance(e, Mapping)]
    powers = [{"name": str(p.get("name") or p.get("kind")), "source": _card_name(p.get("source"), language,
                                                                                  p.get("source_name")),
               "text": _power_text(p, _), "available": bool(p.get("available", True))}
              for p in fighter.get("powers") or [] if isinstance(p, Mapping)]
    net = None
    if fighter.get("net_ready"):
        net = _("net ready")
    if "net_declared" in fighter:
        declared = fighter["net_declared"]
        if declared is True and seat == fighter.get("seat"):
            net = _("you throw the net this round")
        elif declared is False and seat == fighter.get("seat"):
            net = _("you keep the net this round")
        elif declared:
            net = _("has decided about the net")
    return {
        "side": index, "roman": ROMAN[index], "name": names[index], "seat": fighter.get("seat"),
        "fill": style["fill"], "ink": style["ink"], "mark": style["mark"], "mine": seat == fighter.get("seat"),
        "type": fighter.get("type"), "pools": pools, "equipment": equipment, "powers": powers,
        "ability": fighter.get("ability"), "ability_negated": bool(fighter.get("ability_negated")),
        "reach": fighter.get("reach"), "net": net,
        "position": _("hex (%(q)s, %(r)s)", q=(fighter.get("position") or ["?", "?"])[0],
                      r=(fighter.get("position") or ["?", "?"])[1]),
        "plan": _plan_text(fighter, _) if seat == fighter.get("seat") and "plan" in fighter else None,
    }


def _plan_text(fighter: Mapping[str, Any], _) -> str:
    plan = fighter.get("plan")
    if not plan or not plan.get("active", True):
        return _("No fight plan: you answer every decision yourself.")
    return _("Your fight plan answers this fighter's decisions.")


def _power_text(power: Mapping[str, Any], _) -> str:
    """A power in words: "Reroll up to 2 attack dice, once per fight"."""
    kind = str(power.get("kind") or "")
    args = {k: v for k, v in power.items() if isinstance(v, (int, str))}
    key = kind
    if kind == "reroll":
        message = REROLLS.get(str(power.get("roll")))
    else:
        if kind == "extra_wound" and power.get("requires_hit"):
            key = "extra_wound.hit"
        elif kind == "ignore_wound" and (power.get("min_wounds") or 1) > 1:
            key = "ignore_wound.min"
        message = POWERS.get(key)
    if message is None:
        return ""
    try:
        text = _(message, **args)
    except (KeyError, TypeError, ValueError):
        return ""
    trigger = power.get("trigger")
    if trigger in TRIGGERS:
        text += " " + _(TRIGGERS[trigger])
    uses = power.get("uses")
    if uses in USES and kind != "net":
        text += ", " + _(USES[uses])
    return text


def _single_pool_allocations(fight, index, mine, game_id, language) -> dict[str, dict]:
    """Pool -> the allocation that takes every die from that pool alone, for clicking its dice."""
    decision = mine.get("allocate_wounds")
    due = fight.get("wounds_due") or []
    if not decision or not due or due[0].get("side") != index:
        return {}
    out = {}
    for option in _options(decision, "allocate_wounds"):
        args = option.get("args") or {}
        hit = [p for p in POOLS if args.get(p)]
        if len(hit) == 1:
            out[hit[0]] = {"url": choice_url(game_id, decision, option), "count": int(args[hit[0]]),
                           "label": words.allocation_label(language, args)}
    return out


def _wounds(fight, fighters, names, mine, game_id, language, _) -> dict:
    """The wounds owed, and every legal allocation of the viewer's as a link of dice."""
    owed = []
    for w in fight.get("wounds_due") or []:
        side = w.get("side")
        who = _label(names, side) if isinstance(side, int) and side < len(names) else "?"
        key = i18n.NP_("%(name)s loses %(count)s die to fatigue", "%(name)s loses %(count)s dice to fatigue",
                       "count") if w.get("reason") == "fatigue" \
            else i18n.NP_("%(name)s loses %(count)s die to wounds", "%(name)s loses %(count)s dice to wounds", "count")
        owed.append(_(key, name=who, count=w.get("count")))
    choices = []
    decision = mine.get("allocate_wounds")
    for option in _options(decision, "allocate_wounds"):
        args = option.get("args") or {}
        choices.append({"url": choice_url(game_id, decision, option), "label": words.allocation_label(language, args),
                        "dice": [{"pool": p, "colour": POOL_COLOURS[p], "label": _(POOL_NAMES[p])}
                                 for p in POOLS for _n in range(int(args.get(p) or 0))]})
    return {"owed": owed, "choices": choices}


def _roll(fight, fighters, names, mine, game_id, _) -> Optional[dict]:
    """The roll on the table (dice faces per side), with the viewer's rerolls as links."""
    roll = fight.get("roll")
    if not isinstance(roll, Mapping):
        return None
    decision = mine.get("reroll")
    options = _options(decision, "reroll")
    my_side = next((i for i, f in enumerate(fighters) if decision and f.get("seat") == decision.get("seat")), None)
    single = {}
    for option in options:
        chosen = (option.get("args") or {}).get("dice") or []
        if len(chosen) == 1:
            single[chosen[0]] = option
    pools = roll.get("pools") or ["", ""]
    chosen_view = roll.get("chosen") or [None, None]
    sides = []
    for i, dice in enumerate(roll.get("dice") or [[], []]):
        if i >= len(fighters):
            break
        faces = []
        for pos, value in enumerate(dice):
            option = single.get(pos) if i == my_side else None
            faces.append({"value": value, "pips": _pips(value), "url": choice_url(game_id, decision, option)
                          if option else None,
                          "title": _("Reroll this %(value)s", value=value) if option else str(value)})
        pool = pools[i] if i < len(pools) else ""
        chosen = chosen_view[i] if i < len(chosen_view) else None
        if isinstance(chosen, list):
            note = _("you reroll: %(dice)s", dice=", ".join(str(dice[p]) for p in chosen if p < len(dice))) \
                if chosen else _("you keep every die")
        elif chosen is True:
            note = _("has chosen its rerolls")
        else:
            note = ""
        allowance = (roll.get("allowance") or [0, 0])[i] if i < len(roll.get("allowance") or []) else 0
        who = _label(names, i) + (f" · {_(POOL_NAMES[pool])}" if pool in POOL_NAMES else "")
        if roll.get("purpose") == "initiative":
            who += f" · Σ {sum(v for v in dice if isinstance(v, int))}"
        notes = [_("may reroll up to %(n)s", n=allowance)] if allowance else []
        sides.append({"who": who, "colour": POOL_COLOURS.get(pool, "#444444"), "faces": faces,
                      "notes": notes + ([note] if note else [])})
    reroll_choices = []
    for option in options:
        chosen = (option.get("args") or {}).get("dice") or []
        mine_dice = (roll.get("dice") or [[], []])[my_side] if my_side is not None else []
        values = [mine_dice[p] for p in chosen if isinstance(p, int) and p < len(mine_dice)]
        reroll_choices.append({
            "url": choice_url(game_id, decision, option),
            "label": _("Reroll %(dice)s", dice=", ".join(str(v) for v in values)) if values else _("Keep every die"),
        })
    purpose = str(roll.get("purpose") or "")
    return {"title": _(ROLL_PURPOSES[purpose]) if purpose in ROLL_PURPOSES else purpose, "sides": sides,
            "choices": reroll_choices, "summary": ""}


def _last_roll(fight, names, _) -> Optional[dict]:
    last = fight.get("last_roll")
    if not isinstance(last, Mapping):
        return None
    dice = last.get("dice") or [[], []]
    attacker = last.get("attacker")
    pools = ["speed", "speed"]
    if isinstance(attacker, int) and attacker in (0, 1):
        pools[attacker] = "speed" if last.get("style") == "speed" else "attack"
        pools[1 - attacker] = "defence"
    sides = [{"who": _label(names, i), "colour": POOL_COLOURS[pools[i]], "notes": [],
              "faces": [{"value": v, "pips": _pips(v), "url": None, "title": str(v)} for v in dice[i]]}
             for i in range(min(2, len(dice), len(names)))]
    if last.get("purpose") == "initiative":
        winner = last.get("winner")
        sums = [sum(d) for d in dice]
        summary = _("%(name)s wins the initiative (%(a)s against %(b)s)", name=_label(names, winner),
                    a=sums[winner], b=sums[1 - winner]) if isinstance(winner, int) and winner < len(names) \
            else _("A tie (%(a)s each): the dice are rolled again", a=sums[0] if sums else 0)
        title = _("Last initiative roll, round %(round)s", round=last.get("round"))
    else:
        wounds = last.get("wounds") or [0, 0]
        if isinstance(attacker, int) and attacker < len(names) and len(names) == 2:
            sides = [sides[attacker], sides[1 - attacker]] if len(sides) == 2 else sides
            summary = _(i18n.NP_("%(attacker)s attacked %(defender)s: %(dealt)s wound dealt, %(back)s taken back",
                                 "%(attacker)s attacked %(defender)s: %(dealt)s wounds dealt, %(back)s taken back",
                                 "dealt"),
                        attacker=_label(names, attacker), defender=_label(names, 1 - attacker),
                        dealt=wounds[1 - attacker], back=wounds[attacker])
        else:
            summary = ""
        title = _("Last attack, round %(round)s", round=last.get("round"))
    return {"title": title, "sides": sides, "summary": summary, "choices": []}


def _pips(value: Any) -> list[tuple[int, int]]:
    """Pip positions (in a 3×3 grid) of a die face."""
    layout = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
              4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
              6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}
    return layout.get(value, []) if isinstance(value, int) else []


def _actions(mine, game_id, language) -> list[dict]:
    """Links for the choices that are not a hex, a die or a token: the net, the order,
    moving to strike, a once-per-fight power, the end of the turn."""
    out = []
    for kind, ctype in (("use_net", "use_net"), ("choose_order", "choose_order"), ("use_power", "use_power"),
                        ("turn", "move"), ("turn", "end_turn")):
        for option in _options(mine.get(kind), ctype):
            if ctype == "move" and "attack" not in (option.get("args") or {}):
                continue  # plain moves are the hexes
            out.append({"url": choice_url(game_id, mine[kind], option),
                        "label": words.command_label(language, option, {})})
    return out


def _status(fight, fighters, names, _) -> list[str]:
    lines = []
    phase = str(fight.get("phase") or "")
    lines.append(_("Round %(round)s: %(phase)s", round=fight.get("round") or 0,
                   phase=_(PHASES[phase]) if phase in PHASES else phase))
    initiative = fight.get("initiative")
    if isinstance(initiative, int) and initiative < len(names):
        lines.append(_("Initiative: %(name)s", name=_label(names, initiative)))
    first = fight.get("first")
    if isinstance(first, int) and first < len(names):
        lines.append(_("Moves first this round: %(name)s", name=_label(names, first)))
    active = fight.get("active")
    if isinstance(active, int) and active < len(names) and phase == "turn":
        done = [_("has moved")] if fight.get("moved") else []
        done += [_("has attacked")] if fight.get("attacked") else []
        lines.append(_("To move: %(name)s", name=_label(names, active)) + (f" ({', '.join(done)})" if done else ""))
    if len(fighters) == 2:
        a, b = (_hex_key(f.get("position")) for f in fighters)
        if a and b:
            lines.append(_("Distance in hexes: %(n)s", n=_hex_distance(a, b)))
    fatigue = fight.get("fatigue_round")
    if isinstance(fatigue, int):
        if (fight.get("round") or 0) >= fatigue:
            lines.append(_("Fatigue: from round %(round)s on, each fighter loses a die at the end of every round",
                           round=fatigue))
        else:
            lines.append(_("Fatigue begins at the end of round %(round)s", round=fatigue))
    return lines


def _result(fight, names, _) -> Optional[str]:
    result = fight.get("result")
    if not isinstance(result, Mapping):
        return None
    winner, loser = result.get("winner"), result.get("loser")
    if not (isinstance(winner, int) and isinstance(loser, int) and max(winner, loser) < len(names)):
        return None
    kind = str(result.get("kind") or "")
    return _(i18n.NP_("%(winner)s won; %(loser)s is %(kind)s after %(rounds)s round",
                      "%(winner)s won; %(loser)s is %(kind)s after %(rounds)s rounds", "rounds"),
             winner=_label(names, winner),
             loser=_label(names, loser), kind=_(RESULT_KINDS[kind]) if kind in RESULT_KINDS else kind,
             rounds=result.get("rounds"))


def _text(fight, fighters, names, status, _) -> list[str]:
    """The drawing in words, for screen readers and text browsers."""
    lines = list(status)
    for i, f in enumerate(fighters):
        dice = f.get("dice") or {}
        printed = f.get("printed") or {}
        pos = f.get("position") or ["?", "?"]
        lines.append(_("%(name)s, seat %(mark)s, stands on hex (%(q)s, %(r)s), reach %(reach)s; dice: attack "
                       "%(a)s of %(pa)s, defence %(d)s of %(pd)s, speed %(s)s of %(ps)s",
                       name=_label(names, i), mark=seat_style(f.get("seat"))["mark"], q=pos[0], r=pos[1],
                       reach=f.get("reach"), a=dice.get("attack", 0), pa=printed.get("attack", 0),
                       d=dice.get("defence", 0), pd=printed.get("defence", 0), s=dice.get("speed", 0),
                       ps=printed.get("speed", 0)))
    return lines
