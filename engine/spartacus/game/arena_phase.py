"""The arena phase: the host's honour, invitations, tribute, bets, the fight, the verdict.

- 'The host gains 1 influence for presiding over the games' (p. 11).
- 'The host invites one dominus at a time, himself included ... whoever accepts chooses a
  fighter of his house and up to one weapon, armour and special card' (p. 11).
- 'A dominus who declines loses 1 influence ... if all others have been invited and
  fighters are still missing, the host must invite himself.  If only one dominus accepts,
  there are no games this round' (p. 11).
- Tribute: 'the invited receive 2 gold per favour token or 6 gold for a champion token on
  their fighter, from the bank, before the bets' (p. 12).
- Bets: '1 to 3 gold per bet, all placed at once: winner (1:1; never against your own
  fighter), injury (2:1), decapitation (2:1)' (p. 12) -- the Russian rulebook pays 3:1 for
  decapitation in its text and 2:1 in its example: ``decapitation_odds`` is a game option.
- 'The winning dominus gains 1 influence, the winning fighter a favour token' (p. 13);
  'the host shows thumbs up or down ... thumbs down on a favoured fighter costs the host 1
  influence per token; a champion may not be executed' (p. 13).

The fight itself is the arena's sub-game (:mod:`engine.spartacus.arena`), nested in this
state and fed through the adapter at the end of this module.
"""

from __future__ import annotations

from itertools import product
from typing import Optional

from engine.core.errors import NoSuchDecision
from engine.core.types import SYSTEM_SEAT, Command, Decision, Pending
from engine.spartacus.arena import fight as arena_fight
from engine.spartacus.arena.plan import DEFAULT_PLAN, PLAN_SCHEMA, PRESETS as PLAN_PRESETS, plan_from_args
from engine.spartacus.game import effects, ledger, windows
from engine.spartacus.game.events import folded_by_the_game, with_fight
from engine.spartacus.game.errors import BadBet, ChampionSpared
from engine.spartacus.game.state import Entry, GameState, active_fight, thaw
from engine.spartacus.game.tx import Tx

BET_KINDS = ("winner_i", "winner_ii", "injury", "decapitation")
MAX_BET = 3


def over(state: GameState) -> bool:
    """The arena phase is over once the games are closed (or cancelled)."""
    return state.arena is not None and state.arena.done


def fighter_options(state: GameState, seat: int) -> list[str]:
    """'Fighter means gladiator or slave' (p. 11); only ready ones can fight (p. 17)."""
    return list(effects.candidates(state, seat, "fighter"))


def entry_commands(state: GameState, seat: int, command_type: str) -> list[Command]:
    """Every legal (fighter, weapon, armour, special) choice of ``seat``."""
    fighters = fighter_options(state, seat)
    if not fighters:
        return []
    slots = []
    for kind in ("weapon", "armour", "special"):
        slots.append([""] + list(effects.candidates(state, seat, kind)))
    out = []
    for fighter in fighters:
        for w, a, sp in product(*slots):
            out.append(Command(seat, command_type, {"fighter": fighter, "weapon": w, "armour": a, "special": sp}))
    return out


# ----------------------------------------------------------------------------- stage machine

def advance(tx: Tx) -> bool:
    """'Honour to the host (+1), invitations, tribute, bets, the fight, victor and vanquished' (p. 11-13), in that
    order."""
    s = tx.state
    a = s.arena
    if a.done:
        return False
    if not a.honoured:
        tx.emit("HostHonoured", seat=s.host)
        ledger.gain_influence(tx, s.host, 1, "host")
        return True
    if len(a.entries) < 2:
        if a.awaiting != -1:
            if not fighter_options(s, a.awaiting):
                # a dominus with no ready fighter can only decline
                _decline(tx, a.awaiting)
                return True
            return False
        if not [x for x in range(s.seats) if x not in a.invited]:
            tx.emit("ArenaCancelled", reason="fewer_than_two_fighters")
            tx.emit("ArenaClosed")
            return True
        return False
    if not a.tribute_paid:
        for e in a.entries:
            asset = s.player(e.seat).asset(e.fighter)
            if asset is not None:
                ledger.gain_gold(tx, e.seat, 6 if asset.champion else 2 * asset.favour, "tribute")
        tx.emit("TributePaid")
        return True
    if not a.bets_done:
        if s.sealed is None:
            tx.emit("SealedOpened", key=f"bets:{s.round}", seats=list(s.clockwise(s.host)))
            return True
        if s.sealed.complete:
            _reveal_bets(tx)
            return True
        return False
    if not a.bets_window:
        tx.emit("BetsWindowOpened")
        if s.cards.has_moment("bets_placed"):
            windows.open_window(tx, "bets_placed", s.host)
        return True
    if a.fight is None and not a.result:
        start_fight(tx, a.entries, tournament=False)
        return True
    if a.fight is not None:
        return advance_fight(tx)
    if not a.settled:
        _settle(tx)
        return True
    if not a.verdict_done:
        res = thaw(a.result)
        if res["kind"] == "decapitated" or s.player(res["loser_seat"]).asset(res["loser_card"]) is None:
            tx.emit("VerdictGiven", thumbs="none")
            return True
        return False
    tx.emit("ArenaClosed")
    return True


def _decline(tx: Tx, seat: int) -> None:
    """'A dominus who declines an invitation loses 1 influence' (p. 11)."""
    tx.emit("InvitationDeclined", seat=seat)
    ledger.lose_influence(tx, seat, 1, "declined")


def _reveal_bets(tx: Tx) -> None:
    s = tx.state
    bets = {seat: {k: v for k, v in s.sealed.answer(seat).items() if v} for seat in s.sealed.seats}
    tx.emit("SealedRevealed", key=s.sealed.key, answers={str(k): v for k, v in bets.items()})
    tx.emit("BetsRevealed", bets={str(k): v for k, v in bets.items()})
    for seat, placed in bets.items():
        # the stakes set aside with the secret answer go onto the board's corners in full
        ledger.pay_in_full(tx, seat, sum(placed.values()), "bet_stake")


def _settle(tx: Tx) -> None:
    """Winner's influence and favour, then the bets (p. 13)."""
    s = tx.state
    res = thaw(s.arena.result)
    wseat, wcard = res["winner_seat"], res["winner_card"]
    lseat, lcard = res["loser_seat"], res["loser_card"]
    ledger.gain_influence(tx, wseat, 1, "arena_victory")
    ledger.add_favour(tx, wseat, wcard, "arena_victory")
    m = tx.state.cards.market_card(wcard)
    for ab in m.abilities:
        if ab.op == "victory_gold":
            ledger.gain_gold(tx, wseat, ab.amount, "victory_gold")
    if res["kind"] == "injured":
        tx.emit("CardInjured", seat=lseat, card=lcard, reason="arena")
    elif res["kind"] == "decapitated":
        tx.emit("FighterDied", seat=lseat, card=lcard, how="decapitated")
        ledger.discard_property(tx, lseat, lcard, "decapitated")
    odds = {"winner": 1, "injury": 2, "decapitation": int(s.option("decapitation_odds", 2))}
    winner_bet = "winner_i" if res["winner"] == 0 else "winner_ii"
    payouts = {}
    for seat, placed in s.arena.bets:
        total = 0
        for kind, amount in placed:
            won = (kind == winner_bet or (kind == "injury" and res["kind"] == "injured")
                   or (kind == "decapitation" and res["kind"] == "decapitated"))
            if won:
                total += amount + amount * odds["winner" if kind.startswith("winner") else kind]
        if total:
            payouts[str(seat)] = total
    tx.emit("BetsSettled", net=payouts)
    if res["kind"] == "decapitated" and tx.state.cards.has_moment("fighter_died"):
        windows.open_window(tx, "fighter_died", s.host, about=lseat)


def decisions(s: GameState) -> list[Decision]:
    """The host's invitation, the invited dominus's answer, the secret bets, the host's verdict (p. 11-13)."""
    a = s.arena
    if a is None or a.done:
        return []
    if a.fight is not None:
        return fight_decisions(s)
    if len(a.entries) < 2 and a.honoured:
        if a.awaiting == -1:
            remaining = [x for x in range(s.seats) if x not in a.invited]
            if not remaining:
                return []
            others = [x for x in remaining if x != s.host]
            choices = others + ([s.host] if s.host in remaining else [])
            options = tuple(Command(s.host, "invite", {"seat": x}) for x in choices)
            return [Decision(
                id=f"invite:{s.round}:{len(a.invited)}", seat=s.host, mode="turn",
                prompt="Invite a dominus (yourself included) to send a fighter to the games.",
                default=options[0], options=options, prompt_key="invite",
            )]
        seat = a.awaiting
        decline = Command(seat, "decline_invitation", {})
        return [Decision(
            id=f"invitation:{s.round}:{seat}", seat=seat, mode="turn",
            prompt=f"Seat {s.host} invites you to the games: send a fighter, or decline and lose 1 influence.",
            default=decline, options=tuple([decline] + entry_commands(s, seat, "accept_invitation")),
            prompt_key="invitation", prompt_args={"host": s.host},
        )]
    if not a.bets_done and s.sealed is not None:
        out = []
        for seat in s.sealed.seats:
            if s.sealed.answered(seat):
                continue
            out.append(Decision(
                id=f"bets:{s.round}:{seat}", seat=seat, mode="simultaneous", group=s.sealed.key,
                prompt="Place your bets in secret: 1 to 3 gold on each bet you like, or none.",
                command_type="place_bets", default=Command(seat, "place_bets", {}),
                schema=_bet_schema(s, seat), prompt_key="bets",
            ))
        return out
    if a.settled and not a.verdict_done:
        res = thaw(a.result)
        asset = s.player(res["loser_seat"]).asset(res["loser_card"])
        up = Command(s.host, "show_thumb", {"thumb": "up"})
        options = [up] + ([] if asset is None or asset.champion else [Command(s.host, "show_thumb", {"thumb": "down"})])
        return [Decision(
            id=f"verdict:{s.round}", seat=s.host, mode="turn",
            prompt="Thumbs up or down for the defeated fighter?", default=up, options=tuple(options),
            prompt_key="verdict", prompt_args={"fighter": res["loser_card"]},
        )]
    return []


def _bet_schema(s: GameState, seat: int) -> dict:
    gold = s.player(seat).free_gold
    own = {e.seat: i for i, e in enumerate(s.arena.entries)}
    props = {}
    for kind in BET_KINDS:
        cap = min(MAX_BET, gold)
        if kind == "winner_i" and own.get(seat) == 1 or kind == "winner_ii" and own.get(seat) == 0:
            cap = 0
        props[kind] = {"type": "integer", "minimum": 0, "maximum": cap}
    return {"type": "object", "additionalProperties": False, "properties": props}


# ----------------------------------------------------------------------------- commands

def invite(tx: Tx, seat: int, target: int) -> None:
    """'The host invites one dominus at a time to the games; he may invite himself' (p. 11)."""
    tx.emit("InvitationSent", seat=target, host=seat)


def plan_seats(state: GameState) -> list[int]:
    """The dominus who may set a fight plan now: the invited dominus while he answers the
    invitation, and each dominus who sent a fighter, until the fight begins; in the
    tournament the two contenders of the match about to be fought."""
    t = state.tournament
    if t is not None:
        return list(t.current) if t.fight is None and len(t.current) == 2 else []
    a = state.arena
    if a is None or a.done or a.fight is not None or a.result:
        return []
    seats = [e.seat for e in a.entries]
    if a.awaiting >= 0 and len(a.entries) < 2:
        seats.append(a.awaiting)
    return seats


def plan_decisions(state: GameState) -> list[Decision]:
    """A fight plan, set when accepting the invitation and changeable until the fight begins:
    it answers the fight's decisions (the ones its settings do not leave to ``"ask"``), so a
    fight needs no more mail.  A free action: it blocks nobody, and only its dominus sees it."""
    seats = plan_seats(state)
    if not seats:
        return []
    own = {seat: thaw(plan) for seat, plan in state.fight_plans}
    return [Decision(
        id=f"fight_plan:{seat}", seat=seat, mode="free",
        prompt="Set your fighter's fight plan: it answers the fight's decisions for you.",
        default=Command(seat, "set_fight_plan", DEFAULT_PLAN.to_json()), command_type="set_fight_plan",
        schema=PLAN_SCHEMA, prompt_key="fight_plan",
        context={"plan": own.get(seat), "default_plan": DEFAULT_PLAN.to_json(), "presets": PLAN_PRESETS},
    ) for seat in seats]


def choose_plan(tx: Tx, c: Command) -> None:
    """Record a fight plan for the next fight (private to its dominus)."""
    if c.seat not in plan_seats(tx.state):
        raise NoSuchDecision("no fight of yours is about to begin")
    plan = plan_from_args(c.args)
    tx.emit("FightPlanChosen", seat=c.seat, plan=plan.to_json() if plan else None)


def accept_invitation(tx: Tx, c: Command) -> None:
    """'Whoever accepts chooses a fighter of his house ... with at most one weapon, armour and special card; the choice
    is final' (p. 11)."""
    tx.emit("InvitationAccepted", seat=c.seat, position="I" if not tx.state.arena.entries else "II",
            **{k: c.args.get(k, "") for k in ("fighter", "weapon", "armour", "special")})


def place_bets(tx: Tx, c: Command) -> None:
    """'Never more than 3 gold on one bet ... never bet against your own fighter' (p. 12).
    'The bet is placed in its corner of the board with the house marker on top' (p. 12):
    the gold staked is set aside at once and cannot be given away before the reveal."""
    bets = {k: int(c.args.get(k, 0)) for k in BET_KINDS}
    if sum(bets.values()) > tx.state.player(c.seat).free_gold:
        raise BadBet("you cannot stake more gold than you have")
    own = {e.seat: i for i, e in enumerate(tx.state.arena.entries)}
    if (own.get(c.seat) == 0 and bets["winner_ii"]) or (own.get(c.seat) == 1 and bets["winner_i"]):
        raise BadBet("never bet against your own fighter")
    if any(v < 0 or v > MAX_BET for v in bets.values()):
        raise BadBet("a bet is 1 to 3 gold")
    tx.emit("SealedAnswered", seat=c.seat, answer=bets, commit=sum(bets.values()))


def show_thumb(tx: Tx, seat: int, thumb: str) -> None:
    """'Thumbs up: the fighter lives and goes home with his equipment; thumbs down: he is executed, his equipment goes
    back to his owner' (p. 13)."""
    s = tx.state
    res = thaw(s.arena.result)
    lseat, lcard = res["loser_seat"], res["loser_card"]
    asset = s.player(lseat).asset(lcard)
    if thumb == "down":
        if asset is not None and asset.champion:
            raise ChampionSpared("a champion may not be executed")
        tx.emit("VerdictGiven", thumbs="down", seat=lseat, card=lcard)
        if asset is not None and asset.favour:
            ledger.lose_influence(tx, seat, asset.favour, "executed_favourite")
        tx.emit("FighterDied", seat=lseat, card=lcard, how="executed")
        ledger.discard_property(tx, lseat, lcard, "executed")
        if s.cards.has_moment("fighter_died"):
            windows.open_window(tx, "fighter_died", s.host, about=lseat)
    else:
        tx.emit("VerdictGiven", thumbs="up", seat=lseat, card=lcard)


HANDLERS = {
    "invite": lambda tx, c: invite(tx, c.seat, c.args["seat"]),
    "accept_invitation": accept_invitation,
    "decline_invitation": lambda tx, c: _decline(tx, c.seat),
    "place_bets": place_bets,
    "show_thumb": lambda tx, c: show_thumb(tx, c.seat, c.args["thumb"]),
    "set_fight_plan": choose_plan,
}


# ----------------------------------------------------------------------------- the fight (adapter)

def start_fight(tx: Tx, entries: tuple[Entry, ...], *, tournament: bool) -> None:
    """'When all bets are placed, the fight begins' (p. 12): fighter I on start hex I, fighter II on II."""
    fight_id = f"f{tx.state.seq}"
    tx.emit("FightOpened", fight=fight_id, tournament=tournament,
            entries=[{"seat": e.seat, "fighter": e.fighter, "weapon": e.weapon, "armour": e.armour,
                      "special": e.special} for e in entries])


def advance_fight(tx: Tx) -> bool:
    """Settle the fight once it has a result (its own ``decide`` runs its automatic steps)."""
    result = arena_fight.result(active_fight(tx.state))
    if result is None:
        return False
    data = dict(result.to_json())
    data["tournament"] = tx.state.tournament is not None and tx.state.tournament.fight is not None
    tx.emit("FightSettled", **data)
    _exhaust_thrown_nets(tx, data)
    return True


def _exhaust_thrown_nets(tx: Tx, result: dict) -> None:
    """'Before the initiative roll the Net card is exhausted' (Netz): in the games and in every
    tournament fight alike, a thrown net stays exhausted until the next upkeep."""
    for card in result.get("exhausted", []):
        owner = tx.state.owner_of(card)
        if owner >= 0:
            tx.emit("CardExhausted", seat=owner, card=card, reason="net")


def fight_pending(state: GameState) -> Optional[Pending]:
    """What the nested fight waits for, if a fight is under way."""
    fight = active_fight(state)
    if fight is None:
        return None
    return arena_fight.pending(fight)


def fight_decisions(state: GameState) -> list[Decision]:
    """The nested fight's decisions."""
    p = fight_pending(state)
    return list(p.decisions) if p is not None else []


def fight_command(tx: Tx, command: Command) -> None:
    """Forward a command that answers the fight to the arena's ``decide``.

    Events only the nested fight folds change nothing but the fight, so the fight state
    its ``decide`` reached is put in place at once instead of folding them again here.
    """
    fight, events = arena_fight.decide_and_fold(active_fight(tx.state), command)
    if any(folded_by_the_game(e.type) for e in events):
        for event in events:
            tx.emit_event(event)
        return
    tx.emit_folded(events, with_fight(tx.state, fight))


def is_fight_command(state: GameState, command: Command) -> bool:
    """Does ``command`` answer the nested fight (and nothing of the game's own)?"""
    fight = active_fight(state)
    if fight is None:
        return False
    if state.prompts or state.windows or state.resolutions:
        return False  # a reaction window opened during the fight is answered first
    p = arena_fight.pending(fight)
    if command.seat == SYSTEM_SEAT:
        return p.chance is not None
    for d in p.decisions:
        if d.seat == command.seat:
            if d.command_type == command.type:
                return True
            for o in d.options or ():
                if o.type == command.type:
                    return True
    return False
