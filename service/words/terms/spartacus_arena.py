"""The arena's words: prompts of the fight's decisions, its commands, their labels.

The keys are the engine's (``spartacus_arena.*``): the same decisions come up in the
arena duel and in every arena and tournament fight of the Spartacus game.  German terms
follow the German rulebook ("Angriff", "Verteidigung", "Schnelligkeit", "Wunde",
"Initiative", "Netz"), Russian the Russian one ("Атака", "Защита", "Скорость", "Рана",
"Инициатива").
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from service.words import i18n, terms
from service.words.i18n import N_, NP_
from service.words.terms import seat_name

PROMPTS: dict[str, str] = {
    "spartacus_arena.use_net": N_("Round %(round)s: does %(fighter)s throw the net to win the initiative?"),
    "spartacus_arena.choose_order": N_("Round %(round)s: %(fighter)s has the initiative. Move first or second?"),
    "spartacus_arena.turn": N_("Round %(round)s: %(fighter)s's turn. Move, attack or end the turn."),
    "spartacus_arena.reroll": N_("%(fighter)s may reroll up to %(allowance)s of its dice. Which?"),
    "spartacus_arena.allocate_wounds": N_("%(fighter)s loses %(count)s dice. Which?"),
    "spartacus_arena.set_fight_plan": N_("Set %(fighter)s's fight plan: it answers every decision of the fight "
                                         "for you."),
    "spartacus_arena.prepare": N_("How does %(fighter)s fight? Set a fight plan, or choose to fight blow by blow."),
    "spartacus_arena.use_power": N_("%(fighter)s may use a once-per-fight power on this attack. Use it now?"),
}

COMMANDS: dict[str, str] = {
    "move": N_("Move"),
    "attack": N_("Strike"),
    "end_turn": N_("End the turn"),
    "allocate_wounds": N_("Lose dice"),
    "choose_order": N_("Choose the order"),
    "reroll": N_("Reroll"),
    "use_net": N_("Throw the net"),
    "set_fight_plan": N_("Fight on by a fight plan"),
    "use_power": N_("Use the power"),
}

#: Commands worth a second look before they are sent: a lost die, a thrown net and an
#: ended turn cannot be taken back, and a fight plan answers every later decision at once
#: (a fight between two planned fighters resolves in one go).  Moves and attacks are
#: chosen on the board, whose links open a confirm page (a GET never acts): chosen from
#: the list beside it they are confirmed alike, so a click means the same everywhere.
CONFIRM = frozenset({"allocate_wounds", "use_net", "end_turn", "set_fight_plan", "move", "attack"})

POOLS = ("attack", "defence", "speed")
POOL_NAMES = {"attack": N_("Attack"), "defence": N_("Defence"), "speed": N_("Speed")}


def allocation_label(language: str, args: Mapping[str, Any]) -> str:
    """"Lose dice: Speed 1, Defence 1" for an ``allocate_wounds`` answer."""
    _ = i18n.translator(language)
    parts = [f"{_(POOL_NAMES[p])} {args[p]}" for p in POOLS if isinstance(args.get(p), int) and args[p] > 0]
    return _("Lose dice: %(dice)s", dice=", ".join(parts)) if parts else _("Lose no dice")


def card_name(card_id: str, language: str) -> Optional[str]:
    """The arena's cards are the Spartacus game's: its words name them."""
    name = terms.card_name("spartacus", card_id, language, "")
    return name or None


def _english_card_name(card_id: str) -> str:
    from engine.spartacus.cards.market import load_market

    try:
        return load_market().card(card_id).name
    except (KeyError, ValueError):
        return card_id


def command_label(language: str, command: Mapping[str, Any], card_names: Mapping[str, str],
                  seat_names: Optional[Mapping[int, str]] = None) -> Optional[str]:
    """A button's words where the arguments matter: "Move to hex (2, -1)", "Lose dice: Speed 1"."""
    _ = i18n.translator(language)
    ctype = command.get("type")
    args = command.get("args") or {}
    if not isinstance(args, Mapping):
        return None
    if ctype == "move":
        to = args.get("to")
        if isinstance(to, (list, tuple)) and len(to) == 2:
            if isinstance(args.get("attack"), Mapping):
                strike = _strike_label(language, args["attack"], card_names)
                return _("Move to hex (%(q)s, %(r)s), then: %(attack)s", q=to[0], r=to[1], attack=strike)
            return _("Move to hex (%(q)s, %(r)s) and end the turn", q=to[0], r=to[1])
    elif ctype == "attack":
        strike = _strike_label(language, args, card_names)
        if args.get("then") == "stay":
            return _("%(attack)s, and stay", attack=strike)
        if args.get("then") == "move":
            return _("%(attack)s, then move", attack=strike)
        return strike
    elif ctype == "use_power":
        return _("Use it now") if args.get("use") else _("Keep it for later")
    elif ctype == "allocate_wounds":
        return allocation_label(language, args)
    elif ctype == "choose_order":
        return _("Move first") if args.get("first") else _("Move second")
    elif ctype == "use_net":
        return _("Throw the net") if args.get("use") else _("Keep the net")
    elif ctype == "reroll":
        dice = args.get("dice")
        if isinstance(dice, list):
            if not dice:
                return _("Keep every die")
            places = ", ".join(str(d + 1) for d in dice if isinstance(d, int))
            return _("Reroll die no. %(places)s (counted from the highest)", places=places)
    elif ctype == "end_turn":
        return _("End the turn")
    elif ctype == "set_fight_plan":
        return _("Fight on by a fight plan")
    return None


def _strike_label(language: str, args: Mapping[str, Any], card_names: Mapping[str, str]) -> str:
    _ = i18n.translator(language)
    if args.get("style") == "speed":
        source = str(args.get("source") or "")
        name = card_names.get(source) or card_name(source, language) or _english_card_name(source)
        return _("Attack with the speed dice (%(card)s)", card=name)
    return _("Strike")


# --------------------------------------------------------------------------- the outcome panel

#: How the loser left the sand (rulebook, Besiegt: Aufgeben, Verletzung, Enthauptung).
DEFEATS: dict[str, str] = {
    "defeated": N_("%(fighter)s yielded."),
    "injured": N_("%(fighter)s was carried off the sand injured."),
    "decapitated": N_("%(fighter)s was decapitated."),
}


def outcome(result: Mapping[str, Any], language: str, seat_names: Mapping[int, str]) -> Optional[dict]:
    """The end of a duel in words: which fighter of which player won, in which round, how
    the loser fell and whether fatigue decided it.  No table: a duel has no points."""
    detail = result.get("detail")
    if not isinstance(detail, Mapping) or "winner_card" not in detail:
        return None
    _ = i18n.translator(language)

    def fighter(card: Any) -> str:
        return card_name(str(card), language) or _english_card_name(str(card))

    winner, loser = fighter(detail["winner_card"]), fighter(detail.get("loser_card"))
    lines = [_("%(winner)s, the fighter of %(player)s, beat %(loser)s, the fighter of %(other)s, in round "
               "%(round)s.", winner=winner, player=seat_name(seat_names, detail.get("winner_seat"), language), loser=loser,
               other=seat_name(seat_names, detail.get("loser_seat"), language), round=detail.get("rounds"))]
    defeat = DEFEATS.get(str(detail.get("kind")))
    if defeat:
        lines.append(_(defeat, fighter=loser))
    if detail.get("cause") == "fatigue":
        lines.append(_("Fatigue decided the fight: both fighters lost dice every round until %(fighter)s gave out.",
                       fighter=loser))
    return {"lines": lines, "table": None}


# --------------------------------------------------------------------------- events

#: fight event type (or ``type.variant``) -> sentences, the most detailed first: the first
#: whose placeholders the event (as its reader sees it) can fill is told (a sentence with a
#: number in the form its number takes: :func:`service.words.i18n.NP_`).
EVENTS: dict[str, tuple[str, ...]] = {
    'FightBegan': (N_('Fighter 1, %(a)s of %(seat_a)s, faces fighter 2, %(b)s of %(seat_b)s, in the arena.'),
                   N_('%(a)s faces %(b)s in the arena.'), N_('The fight began.'),),
    'RoundStarted': (N_('Fight round %(round)s began.'),),
    'NetDeclared': (N_('%(fighter)s decided in secret whether to throw the net.'),),
    'NetsRevealed': (N_('The nets were revealed: %(winner)s wins the initiative.'), N_('The nets were revealed.'),),
    'InitiativeRolled.won': (N_('The dice were rolled for the initiative: %(winner)s won it.'),
                             N_('The dice were rolled for the initiative and decided it.'),),
    'InitiativeRolled.tied': (N_('The dice were rolled for the initiative: a tie, they are rolled again.'),),
    'InitiativeRolled': (N_('The dice were rolled for the initiative.'),),
    'RerollChosen': (N_('%(fighter)s chose in secret which dice to reroll.'),),
    'RerollsRevealed': (N_('The rerolls were revealed.'),),
    'DiceRerolled': (N_('Dice were rerolled.'),),
    'InitiativeDecided': (N_('%(winner)s won the initiative.'), N_('The initiative was decided.'),),
    'InitiativeTied': (N_('The initiative is tied: the dice are rolled again.'),),
    'OrderChosen.first': (N_('%(fighter)s chose to move first.'),),
    'OrderChosen.second': (N_('%(fighter)s chose to move second.'),),
    'OrderChosen': (N_('The order of the turns was chosen.'),),
    'FighterMoved.ends_turn': (NP_('%(fighter)s moved to hex %(hex)s (%(steps)s step) and ended the turn.',
                                   '%(fighter)s moved to hex %(hex)s (%(steps)s steps) and ended the turn.', 'steps'),
                               N_('%(fighter)s moved and ended the turn.'),),
    'FighterMoved': (NP_('%(fighter)s moved to hex %(hex)s (%(steps)s step).',
                         '%(fighter)s moved to hex %(hex)s (%(steps)s steps).', 'steps'), N_('%(fighter)s moved.'),),
    'AttackDeclared': (N_('%(fighter)s attacks %(target)s.'), N_('%(fighter)s attacks.'),),
    'AttackRolled': (N_('The dice were rolled for the attack.'),),
    'AttackResolved': (NP_('The attack of %(fighter)s scored %(hits)s hit.', 'The attack of %(fighter)s scored %(hits)s hits.',
                           'hits'), N_('The attack was resolved.'),),
    'WoundsTaken': (NP_('%(fighter)s lost %(count)s die to wounds.', '%(fighter)s lost %(count)s dice to wounds.', 'count'),
                    N_('%(fighter)s took wounds.'),),
    'TurnEnded': (N_('%(fighter)s ended the turn.'),),
    'FatigueStruck': (N_('Fatigue struck the fighters.'),),
    'RoundEnded': (N_('Fight round %(round)s ended.'),),
    'FightEnded': (N_('%(winner_card)s of %(winner_seat)s won the fight against %(loser_card)s of %(loser_seat)s.'), N_('The fight ended.'),),
    'FightPlanSet': (N_('%(fighter)s set a fight plan.'),),
    'PowerChosen.use': (N_('%(fighter)s used a once-per-fight power.'),),
    'PowerChosen.keep': (N_('%(fighter)s kept a once-per-fight power for later.'),),
    'PowerChosen': (N_('A once-per-fight power was chosen.'),),
}
SIDE = N_("Fighter %(n)s")


def _side(value: Any, language: str) -> Optional[str]:
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return i18n.translator(language)(SIDE, n=value + 1)
    return None


def _fighter_name(card: Any, language: str) -> str:
    return card_name(str(card), language) or _english_card_name(str(card))


def describe_event(event: Mapping[str, Any], language: str, seat_names: Mapping[int, str]) -> Optional[str]:
    """One sentence telling a fight event as its reader sees it (a secret net or reroll
    shows only who chose; ``None``: not a fight event)."""
    from service.words.terms import spartacus

    event_type = str(event.get("type", ""))
    data = event.get("data") or {}
    if not isinstance(data, Mapping):
        data = {}
    sentences: tuple = ()
    if event_type == "OrderChosen" and isinstance(data.get("first"), bool):
        sentences = EVENTS["OrderChosen.first" if data["first"] else "OrderChosen.second"]
    if event_type == "PowerChosen" and isinstance(data.get("use"), bool):
        sentences = EVENTS["PowerChosen.use" if data["use"] else "PowerChosen.keep"]
    if event_type == "InitiativeRolled" and (data.get("tied") is True or isinstance(data.get("winner"), int)):
        sentences = EVENTS["InitiativeRolled.tied" if data.get("tied") is True else "InitiativeRolled.won"]
    if event_type == "FighterMoved" and data.get("ends_turn") is True:
        sentences = EVENTS["FighterMoved.ends_turn"]  # a move without an attack: the turn is over
    sentences = tuple(sentences) + tuple(EVENTS.get(event_type, ()))
    if not sentences:
        return None
    params = {k: v for k, v in spartacus.event_params(data, language, seat_names).items()
              if k in ("round", "count", "winner_seat", "loser_seat", "winner_card", "loser_card")}
    seat = data.get("seat")
    fighter = _side(data.get("side", data.get("attacker")), language) or (
        seat_name(seat_names, seat, language) if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0
        else None)
    if fighter:
        params["fighter"] = fighter
    for key in ("target", "winner"):
        side = _side(data.get(key), language)
        if side:
            params[key] = side
    if isinstance(data.get("hits"), int):
        params["hits"] = str(data["hits"])
    to, path = data.get("to"), data.get("path")
    if isinstance(to, (list, tuple)) and len(to) == 2 and all(isinstance(c, int) for c in to):
        params["hex"] = f"({to[0]}, {to[1]})"
        if isinstance(path, (list, tuple)):
            # the path lists the hexes entered (the start is not one of them)
            start = data.get("from")
            params["steps"] = str(len([h for h in path if list(h) != list(start or [])]) or 1)
    sides = data.get("sides")
    if isinstance(sides, (list, tuple)) and len(sides) == 2 and all(isinstance(s, Mapping) for s in sides):
        names = [_fighter_name(s.get("copy") or s.get("card"), language) for s in sides]
        if all(names):
            params["a"], params["b"] = names
        seats = [s.get("seat") for s in sides]
        if all(isinstance(s, int) and not isinstance(s, bool) for s in seats):
            params["seat_a"], params["seat_b"] = (seat_name(seat_names, s, language) for s in seats)
    return spartacus.tell(sentences, params, language)
