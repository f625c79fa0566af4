"""The course of a round: who must act (``pending``), what a command does (``decide``),
and the steps that follow by themselves (:func:`settle`).

After every command the game is *settled*: automatic steps (ordering the players,
resolving a group that has no choice, scoring, cleanup) are recorded as events until a
player or chance must act, so ``pending`` always describes a real question.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Iterable, Optional

from engine.core import schema as schema_mod
from engine.core.chance import RESOLVE_CHANCE, ChanceRequest, Dice, Shuffle, check_outcome
from engine.core.errors import GameOver, IllegalCommand, NoSuchDecision, RuleViolation
from engine.core.lazy import LazyMapping
from engine.core.memo import once_per_state
from engine.core.types import SYSTEM_SEAT, Command, Decision, Event, Pending
from engine.rom import effects, placement, scoring
from engine.rom.carddata import CardSetError, check_senate_deck, load_card_set, standard_senate_deck
from engine.rom.errors import (
    ArenaSetTooSmall,
    BadCardTarget,
    BadOptions,
    CardNotUsable,
    DieNotAvailable,
    IllegalPlacement,
    LegionTooWeak,
    MustPlace,
    NotInHand,
    NotYourTurn,
    OverBudget,
    ProvincesDoNotMatch,
    UnexpectedChance,
    WrongSenatePick,
)
from engine.rom.events import apply
from engine.rom.state import BLACK_MARKET, MILITARY, SENATE, Player, State
from engine.rom.vocabulary import RESOURCES, TRACKS

# ====================================================================== setup


def initial_state(seats: int, options: dict) -> State:
    """A new game before the decks are shuffled ("Spielaufbau", p. 2; 2 players, p. 7).

    "2 players: all province cards of the regions Hispania and Asia are removed from the
    game; all senate cards with this symbol are removed."  Senate deck: the standard deck
    (with ``variant_intrigue``, the intrigue cards replace the cards of the same name), or
    ``custom_deck`` checked by the custom-deck rule.
    """
    try:
        cards = load_card_set(str(options.get("card_set") or "default"))
    except CardSetError as err:
        raise BadOptions(str(err)) from err
    if seats not in (2, 3, 4):
        raise BadOptions(f"Rom is played by 2 to 4 players, not {seats}")
    intrigue = bool(options.get("variant_intrigue", False))
    custom = list(options.get("custom_deck") or [])
    if custom:
        problem = check_senate_deck(cards, seats, custom)
        if problem:
            raise BadOptions(f"custom_deck: {problem}")
        senate = custom
    else:
        senate = standard_senate_deck(cards, seats, intrigue)
    removed_regions = cards.two_player_removed_regions if seats == 2 else ()
    provinces = tuple(p.id for p in cards.provinces if p.region not in removed_regions)
    return State(
        cards=cards,
        seats=seats,
        intrigue=intrigue,
        custom_deck=tuple(custom),
        in_game_provinces=provinces,
        senate_in_game=tuple(senate),
        players=tuple(Player() for _ in range(seats)),
    )


def _setup_piles(state: State) -> dict[str, list[str]]:
    """Decks are built by epoch: "shuffle the cards of each epoch separately, then stack
    them: epoch III at the bottom, epoch II on it and epoch I on top" (p. 2).  Epoch-III
    scoring cards lie at the very bottom of the senate deck (p. 7)."""
    cards = state.cards
    piles: dict[str, list[str]] = {}
    for epoch in (1, 2, 3):
        piles[f"provinces_{epoch}"] = [p for p in state.in_game_provinces if cards.province(p).epoch == epoch]
    for epoch in (1, 2):
        piles[f"senate_{epoch}"] = [c for c in state.senate_in_game if cards.senate_card(c).epoch == epoch]
    piles["senate_3"] = [c for c in state.senate_in_game
                         if cards.senate_card(c).epoch == 3 and not cards.senate_card(c).is_scoring]
    piles["senate_3_scoring"] = [c for c in state.senate_in_game
                                 if cards.senate_card(c).epoch == 3 and cards.senate_card(c).is_scoring]
    piles["arena"] = [a.id for a in cards.arena]
    return piles


def _setup_request(state: State) -> ChanceRequest:
    draws = {name: Shuffle(len(pile)) for name, pile in _setup_piles(state).items() if pile}
    return ChanceRequest("setup", draws, "shuffle the province, senate and arena decks")


def _lay_out(state: State, round_: int) -> Event:
    """"Draw the top 4 (3 with 2 players) cards and lay them under the military track;
    the same under the senate track; 5 arena cards under the black market" (p. 2, 7)."""
    n = state.track_cards()
    return Event("CardsLaidOut", {
        "round": round_,
        "provinces": list(state.province_deck[:n]),
        "senate": list(state.senate_deck[:n]),
        "arena": list(state.arena_deck[:state.cards.arena_market]),
    })


def _resolve_setup(state: State, outcome: dict) -> list[Event]:
    piles = _setup_piles(state)
    order = {name: [pile[i] for i in outcome.get(name, [])] for name, pile in piles.items()}
    decks = {
        "provinces": order["provinces_1"] + order["provinces_2"] + order["provinces_3"],
        "senate": order["senate_1"] + order["senate_2"] + order["senate_3"] + order["senate_3_scoring"],
        "arena": order["arena"],
    }
    shuffled = Event("DecksShuffled", decks)
    return [shuffled, _lay_out(apply(state, shuffled), 1)]


# ====================================================================== Phase 1


def _roll_request(state: State) -> ChanceRequest:
    """"The players roll their 4 power dice at the same time" (Phase 1, p. 3).  In round 1
    a random seat order is drawn too: "a tie in the first round is broken at random"."""
    draws: dict[str, Any] = {f"seat_{s}": Dice(state.cards.dice_per_player) for s in range(state.seats)}
    if state.round == 1:
        draws["tiebreak"] = Shuffle(state.seats)
    return ChanceRequest(f"roll:{state.round}", draws, f"round {state.round}: every player rolls the power dice")


def _resolve_roll(state: State, outcome: dict) -> list[Event]:
    data: dict[str, Any] = {"round": state.round,
                            "dice": {str(s): outcome[f"seat_{s}"] for s in range(state.seats)}}
    if "tiebreak" in outcome:
        data["tiebreak"] = outcome["tiebreak"]
    return [Event("PowerDiceRolled", data)]


def turn_order(state: State) -> tuple[dict[str, int], list[int]]:
    """"The player with the lowest sum is first player, the second lowest second ... If
    several players have the same sum, their previous relative order stays" (p. 3), with
    the Tribunus adjustments of this round."""
    totals = {s: sum(state.player(s).unplaced) + state.player(s).order_adjust for s in range(state.seats)}
    previous = list(state.previous_order) or list(range(state.seats))
    order = sorted(range(state.seats), key=lambda s: (totals[s], previous.index(s)))
    return {str(s): v for s, v in totals.items()}, order


def _order_actor(state: State) -> Optional[int]:
    """Who may still activate a Phase-1 card (Tribunus), in the previous relative order."""
    for seat in state.previous_order:
        if seat not in state.order_done and _activations(state, seat, ("order",)):
            return seat
    return None


# ====================================================================== cards


@once_per_state
def _activations(state: State, seat: int, timings: Iterable[str]) -> list[dict[str, Any]]:
    """Every ``activate_card`` answer open to ``seat`` for cards of ``timings``."""
    timings = tuple(timings)
    out = []
    for cid in state.player(seat).senate:
        if cid in state.exhausted_senate:
            continue
        card = state.senate_card(cid)
        if card.timing not in timings:
            continue
        choices = effects.province_choices(state, seat, card.symbols)
        if not choices:
            continue
        for target in effects.targets(state, seat, card):
            for provinces in choices:
                out.append({"card": cid, "provinces": list(provinces), **target})
    return out


def _exceed_cards(state: State, seat: int) -> list[tuple[str, tuple[str, ...]]]:
    """Legatus and Consul ready to be laid with a die."""
    out = []
    for cid in state.player(seat).senate:
        card = state.senate_card(cid)
        if cid in state.exhausted_senate or card.timing != "placement":
            continue
        for provinces in effects.province_choices(state, seat, card.symbols):
            out.append((cid, provinces))
    return out


# ====================================================================== Phase 2


@once_per_state
def placements(state: State, seat: int) -> list[tuple[dict[str, Any], placement.Landing]]:
    """Every legal placement of ``seat`` now, each with where its die lands: (args, landing).

    Dice of one value are interchangeable, so a placement names a value, not a die.
    Highest values first, tracks in board order.
    """
    out = []
    exceed = None
    sections = state.cards.sections
    for value in sorted(set(state.player(seat).unplaced), reverse=True):
        for t, name in enumerate(TRACKS):
            groups = state.tracks[t]
            at, why = placement.landing(groups, seat, value, sections)
            if at is not None:
                out.append(({"value": value, "track": name}, at))
            elif why == placement.HIGHER_THAN_NEIGHBOUR:
                exceed = _exceed_cards(state, seat) if exceed is None else exceed
                at = placement.landing(groups, seat, value, sections, may_exceed=True)[0]
                for cid, provinces in exceed:
                    out.append(({"value": value, "track": name, "card": cid, "provinces": list(provinces)}, at))
    return out


def _preview(args: dict[str, Any], at: placement.Landing) -> dict[str, Any]:
    """What a placement does, for the player's page: where the die lands, whom it pushes."""
    preview = {"value": args["value"], "track": args["track"], "section": at.section + 1,
               "pushes": list(at.pushes), "joins": at.joins}
    if "card" in args:
        preview["card"] = args["card"]
    return preview


def _turn_decision(state: State) -> Decision:
    seat = state.turn_seat
    me = state.player(seat)
    left = len(me.unplaced)
    acts = [Command(seat, "activate_card", a) for a in _activations(state, seat, ("turn",))]
    context: dict[str, Any] = {"dice": list(me.unplaced), "round": state.round}
    if state.turn_placed:
        end = Command(seat, "end_turn", {})
        return Decision(
            id=f"after:{state.round}:{seat}:{left}", seat=seat, mode="turn",
            prompt="Activate senate cards after placing your die, or end your turn.",
            prompt_key="after_placement", prompt_args={"round": state.round},
            options=tuple(acts) + (end,), default=end, context=context,
        )
    found = placements(state, seat)
    places = [Command(seat, "place_die", args) for args, _ in found]
    # the previews are for the player's page; a bot answering from the options never reads them
    previews = LazyMapping(context, {"placements": lambda: [_preview(args, at) for args, at in found]})
    if places:
        plain = [c for c in places if "card" not in c.args]
        default = (plain or places)[0]
        extra: tuple[Command, ...] = ()
        prompt = "Place one of your power dice (you may activate senate cards first)."
    else:
        default = Command(seat, "pass_placement", {})
        extra = (default,)
        prompt = "You cannot place a power die: pass (you may activate senate cards first)."
    return Decision(
        id=f"place:{state.round}:{seat}:{left}", seat=seat, mode="turn", prompt=prompt,
        prompt_key="place_die", prompt_args={"round": state.round, "dice": list(me.unplaced)},
        options=tuple(places) + tuple(acts) + extra, default=default, context=previews,
    )


def _repeat_decision(state: State) -> Decision:
    offer = state.repeat_offer
    seat = offer.seat
    keep = Command(seat, "keep_dice", {})
    again = [Command(seat, "reroll_again", {"values": v}) for v in effects.sub_multisets(state.player(seat).unplaced)]
    return Decision(
        id=f"repeat:{state.round}:{seat}:{state.chance_seq}", seat=seat, mode="turn",
        prompt=f"{state.senate_card(offer.card).name}: re-roll unplaced dice again, or keep them.",
        prompt_key="reroll_again", prompt_args={"card": offer.card},
        options=(keep, *again), default=keep, context={"dice": list(state.player(seat).unplaced)},
    )


# ====================================================================== Phase 3


def _current_group(state: State) -> Optional[tuple[int, Any]]:
    """"The tracks are resolved one after the other: military, senate, black market.  On
    each track the player in the leftmost section resolves first, then section II ..."
    (Phase 3, p. 5).  A resolved group leaves its track, so the next is always the first."""
    for t in (MILITARY, SENATE, BLACK_MARKET):
        if state.tracks[t]:
            return t, state.tracks[t][0]
    return None


def legion_strength(state: State, seat: int) -> int:
    """"The sum of a player's dice on the military track is the strength of his legion"
    (p. 5), plus Magister Equitum."""
    group = state.group(MILITARY, seat)
    return 0 if group is None else sum(group.dice) + state.player(seat).track_bonus[MILITARY]


def market_budget(state: State, seat: int) -> int:
    """"The sum of his dice on the black market track is his budget" (p. 5), plus
    Magistrate and Aedile."""
    group = state.group(BLACK_MARKET, seat)
    return 0 if group is None else sum(group.dice) + state.player(seat).track_bonus[BLACK_MARKET]


@once_per_state
def conquests(state: State, strength: int) -> list[list[str]]:
    """"He may conquer one or more provinces with a total strength of at most his legion's
    strength" (p. 5).  Every such choice, the empty one included, in row order."""
    row = [(pid, state.province(pid).strength) for pid in state.province_row]
    out = []
    for size in range(len(row) + 1):
        for combo in combinations(row, size):
            if sum([s for _pid, s in combo]) <= strength:
                out.append([pid for pid, _s in combo])
    return out


def _conquer_decision(state: State, seat: int) -> Decision:
    strength = legion_strength(state, seat)
    choices = conquests(state, strength)
    commands = [Command(seat, "conquer_provinces", {"provinces": c}) for c in choices]
    best = max(commands, key=lambda c: (sum(state.province(p).strength for p in c.args["provinces"]),
                                        len(c.args["provinces"])))
    return Decision(
        id=f"conquer:{state.round}:{seat}", seat=seat, mode="turn",
        prompt=f"Your legion has strength {strength}: choose the provinces to conquer.",
        prompt_key="conquer_provinces", prompt_args={"strength": strength},
        options=tuple(commands), default=best, context={"strength": strength, "row": list(state.province_row)},
    )


@once_per_state
def _senate_choices(state: State, seat: int) -> list[list[str]]:
    """"For each of his dice on the senate track the player takes one of the senate cards
    laid out; the dice values do not matter" (p. 5)."""
    group = state.group(SENATE, seat)
    k = min(len(group.dice), len(state.senate_row))
    return [list(c) for c in combinations(state.senate_row, k)]


def _senate_decision(state: State, seat: int, choices: list[list[str]]) -> Decision:
    commands = tuple(Command(seat, "take_senate_cards", {"cards": c}) for c in choices)
    k = len(choices[0])
    return Decision(
        id=f"senate:{state.round}:{seat}", seat=seat, mode="turn",
        prompt=f"Take {k} of the senate cards laid out.", prompt_key="take_senate_cards", prompt_args={"count": k},
        options=commands, default=commands[0], context={"row": list(state.senate_row)},
    )


@once_per_state
def _market_commands(state: State, seat: int) -> list[Command]:
    """"He may buy one or more arena cards laid out whose costs add up to at most his
    budget.  For 5 coins he may also buy the top hidden card of the arena deck, even
    several times" (p. 5).  Bought one at a time, so a hidden card is seen before the
    next purchase."""
    left = market_budget(state, seat) - state.market_spent
    out = [Command(seat, "buy_arena_card", {"card": c})
           for c in state.arena_row if state.cards.arena_card(c).cost <= left]
    if state.arena_deck and left >= state.cards.hidden_arena_cost:
        out.append(Command(seat, "buy_hidden_arena_card", {}))
    return out


def _market_decision(state: State, seat: int, buys: list[Command]) -> Decision:
    leave = Command(seat, "leave_black_market", {})
    budget = market_budget(state, seat)
    left = budget - state.market_spent
    face_up = [c for c in buys if c.type == "buy_arena_card"]
    if face_up:
        default = max(face_up, key=lambda c: (state.cards.arena_card(c.args["card"]).cost,
                                              -state.arena_row.index(c.args["card"])))
    else:
        default = buys[0] if buys else leave
    return Decision(
        id=f"market:{state.round}:{seat}", seat=seat, mode="turn",
        prompt=f"Black market: {left} of your budget {budget} left. Buy an arena card or leave.",
        prompt_key="black_market", prompt_args={"budget": budget, "left": left},
        options=(*buys, leave), default=default,
        context={"budget": budget, "left": left, "hidden_cost": state.cards.hidden_arena_cost,
                 "deck": len(state.arena_deck)},
    )


# ====================================================================== Phase 4


def _arena_decision(state: State, seat: int) -> Decision:
    """"Each player may form one set of three or more arena cards and lay it face down, or
    pass.  When all have laid a set or passed, the cards are revealed" (p. 6).

    Private: the cards offered are the player's arena hand, hidden from the others.  Who is asked
    follows from public facts only (who holds three or more arena cards: the count is open)."""
    hand = list(state.player(seat).arena)
    best = scoring.best_set([state.cards.arena_card(c) for c in hand], state.cards.ranks)
    schema = {
        "type": "object",
        "properties": {"cards": {"type": "array", "items": {"type": "string", "enum": hand},
                                 "uniqueItems": True, "minItems": 0, "maxItems": len(hand)}},
        "required": ["cards"],
        "additionalProperties": False,
    }
    return Decision(
        id=f"arena:{state.round}:{seat}", seat=seat, mode="simultaneous", group=f"arena:{state.round}",
        prompt="Lay a set of 3 or more arena cards face down for the games, or pass with an empty set.",
        prompt_key="arena_set", prompt_args={"round": state.round},
        schema=schema, command_type="submit_arena_set",
        default=Command(seat, "submit_arena_set", {"cards": [c.id for c in best]}), private=True,
        context={"hand": hand, "suggested": [c.id for c in best]},
    )


def _arena_reveal(state: State) -> Event:
    """Reveal and score the sets (p. 6): VP by rank; "the player with the best performance
    gets 1 bonus VP ... used cards are removed from the game"."""
    cards = state.cards
    sets, ranks, points, entries = {}, {}, {}, {}
    for seat, player in enumerate(state.players):
        chosen = list(player.arena_set or ())
        if not chosen:
            continue
        rank = scoring.arena_rank([cards.arena_card(c) for c in chosen], cards.ranks)
        bonus_vp = bonus_rank = 0
        for cid in player.senate:
            card = state.senate_card(cid)
            if card.timing == "arena":
                vp, up = effects.arena_bonus(card)
                bonus_vp, bonus_rank = bonus_vp + vp, bonus_rank + up
        sets[str(seat)] = chosen
        ranks[str(seat)] = rank.id
        points[str(seat)] = rank.vp + bonus_vp
        entries[seat] = (rank.rank + bonus_rank, scoring.arena_cost(cards, chosen))
    best = scoring.best_performance(entries)
    if best is not None and cards.best_performance_vp:
        points[str(best)] += cards.best_performance_vp
    return Event("ArenaSetsRevealed", {
        "round": state.round, "sets": sets, "ranks": ranks, "points": points, "best": best,
        "next": "final" if state.last_round else "cleanup",
    })


def _scoring_events(state: State) -> list[Event]:
    """Forum scoring (p. 6), after the forum scoring cards (Africanus/Hispania Maximus)."""
    events = []
    for resource in RESOURCES:
        for seat, player in enumerate(state.players):
            for cid in player.senate:
                card = state.senate_card(cid)
                if card.timing == "forum":
                    event = effects.forum_advance(state, seat, card, resource)
                    if event is not None:
                        events.append(event)
                        state = apply(state, event)
    points = {}
    for r, resource in enumerate(RESOURCES):
        markers = [p.forum[r] for p in state.players]
        points[resource] = {str(s): vp for s, vp in enumerate(scoring.forum_points(markers))}
    events.append(Event("ForumScored", {"round": state.round, "points": points}))
    return events


def _final_events(state: State) -> list[Event]:
    """"After 5 rounds, after the normal scoring, a final scoring: senate cards that bring
    VP at the end of the game, and VP for the regions." Then the winner (p. 7)."""
    senate = {}
    for seat, player in enumerate(state.players):
        mine = {cid: effects.end_points(state, seat, state.senate_card(cid))
                for cid in player.senate if state.senate_card(cid).timing == "end"}
        if mine:
            senate[str(seat)] = mine
    first = Event("SenateCardsScored", {"round": state.round, "points": senate})
    state = apply(state, first)
    regions = scoring.region_points(state.cards, [p.provinces for p in state.players], state.in_game_provinces)
    second = Event("RegionsScored", {"round": state.round,
                                     "points": {r: {str(s): v for s, v in pts.items()} for r, pts in regions.items()}})
    state = apply(state, second)
    keys = {s: (p.vp, len(p.provinces), scoring.arena_cost(state.cards, p.arena)) for s, p in enumerate(state.players)}
    winners, ranking = scoring.ranking(keys)
    third = Event("GameEnded", {
        "scores": {str(s): p.vp for s, p in enumerate(state.players)},
        "winners": list(winners), "ranking": list(ranking),
        "tiebreak": {str(s): list(k) for s, k in keys.items()},
    })
    return [first, second, third]


def _cleanup_events(state: State) -> list[Event]:
    """Phase 5 (p. 7): "All cards still under the tracks are removed from the game.  Then
    new cards are laid out as at setup ... Senate cards on province cards are taken back
    and laid out in front of the player again."""
    removed = list(state.province_row) + list(state.senate_row) + list(state.arena_row)
    first = Event("RoundCleanedUp", {"round": state.round, "removed": removed})
    return [first, _lay_out(apply(state, first), state.round + 1)]


# ====================================================================== settling


def _automatic(state: State) -> list[Event]:
    """The events that follow without anyone's choice, or ``[]`` when someone must act."""
    phase = state.phase
    if phase == "order":
        if _order_actor(state) is None:
            totals, order = turn_order(state)
            return [Event("TurnOrderDetermined", {"round": state.round, "totals": totals, "order": order})]
        return []
    if phase == "placement":
        if state.reroll is not None or state.repeat_offer is not None:
            return []
        seat = state.turn_seat
        if seat is None:
            return [Event("PlacementFinished", {"round": state.round})]
        if _activations(state, seat, ("turn",)):
            return []
        if state.turn_placed:
            return [Event("TurnEnded", {"seat": seat})]
        if not placements(state, seat):
            # "It may happen that a player cannot place his die; he must pass" (p. 3).
            return [Event("PlacementPassed", {"seat": seat, "forfeited": list(state.player(seat).unplaced)})]
        return []
    if phase == "resolution":
        current = _current_group(state)
        if current is None:
            nxt = "scoring" if state.round in state.cards.scoring_rounds else "cleanup"
            return [Event("ResolutionFinished", {"round": state.round, "next": nxt})]
        track, group = current
        seat = group.seat
        if track == MILITARY:
            strength = legion_strength(state, seat)
            if conquests(state, strength) == [[]]:
                return [Event("ProvincesConquered", {"seat": seat, "provinces": [], "strength": strength})]
        elif track == SENATE:
            choices = _senate_choices(state, seat)
            if len(choices) == 1:
                return [Event("SenateCardsTaken", {"seat": seat, "cards": choices[0]})]
        elif not _market_commands(state, seat):
            return [Event("BlackMarketLeft", {"seat": seat, "spent": state.market_spent})]
        return []
    if phase == "scoring":
        return _scoring_events(state)
    if phase == "arena":
        if all(state.player(s).arena_set is not None for s in state.arena_eligible):
            return [_arena_reveal(state)]
        return []
    if phase == "final":
        return _final_events(state)
    if phase == "cleanup":
        return _cleanup_events(state)
    return []


def settle(state: State) -> tuple[State, list[Event]]:
    """Record automatic steps until a player or chance must act (or the game is over)."""
    made: list[Event] = []
    for _ in range(10_000):
        events = _automatic(state)
        if not events:
            return state, made
        for event in events:
            state = apply(state, event)
            made.append(event)
    raise RuntimeError("the game does not settle")  # pragma: no cover - a bug, not a state


# ====================================================================== pending


@once_per_state
def pending(state: State) -> Pending:
    phase = state.phase
    if phase == "over":
        return Pending()
    if phase == "setup":
        return Pending(chance=_setup_request(state))
    if phase == "roll":
        return Pending(chance=_roll_request(state))
    if state.reroll is not None:
        r = state.reroll
        count = len(r.values) if r.track < 0 else 1
        return Pending(chance=ChanceRequest(f"reroll:{state.chance_seq}", {"dice": Dice(count)},
                                            f"{state.senate_card(r.card).name}: re-roll"))
    if phase == "order":
        seat = _order_actor(state)
        if seat is None:
            return Pending()
        finish = Command(seat, "finish_order_cards", {})
        acts = [Command(seat, "activate_card", a) for a in _activations(state, seat, ("order",))]
        totals, order = turn_order(state)
        return Pending(decisions=(Decision(
            id=f"order:{state.round}:{seat}", seat=seat, mode="turn",
            prompt="Phase 1: activate Tribunus cards before the turn order is fixed, or go on.",
            prompt_key="order_cards", prompt_args={"round": state.round},
            options=(*acts, finish), default=finish, context={"totals": totals, "order": order},
        ),))
    if phase == "placement":
        if state.repeat_offer is not None:
            return Pending(decisions=(_repeat_decision(state),))
        if state.turn_seat is None:
            return Pending()
        return Pending(decisions=(_turn_decision(state),))
    if phase == "resolution":
        current = _current_group(state)
        if current is None:
            return Pending()
        track, group = current
        seat = group.seat
        if track == MILITARY:
            return Pending(decisions=(_conquer_decision(state, seat),))
        if track == SENATE:
            return Pending(decisions=(_senate_decision(state, seat, _senate_choices(state, seat)),))
        return Pending(decisions=(_market_decision(state, seat, _market_commands(state, seat)),))
    if phase == "arena":
        return Pending(decisions=tuple(
            _arena_decision(state, s) for s in state.arena_eligible if state.player(s).arena_set is None
        ))
    return Pending()


# ====================================================================== decide


def decide(state: State, command: Command) -> list[Event]:
    return _decide_and_fold(state, command, matched=False)[1]


def decide_and_fold(state: State, command: Command) -> tuple[State, list[Event]]:
    """``decide`` for a command the kernel has matched to an open decision, also returning
    the state its events fold to (folded once, here)."""
    return _decide_and_fold(state, command, matched=True)


def _decide_and_fold(state: State, command: Command, *, matched: bool) -> tuple[State, list[Event]]:
    if state.phase == "over":
        raise GameOver("the game has ended")
    if command.seat == SYSTEM_SEAT:
        events = _decide_chance(state, command)
    else:
        events = _decide_player(state, command, matched)
    for event in events:
        state = apply(state, event)
    state, automatic = settle(state)
    return state, events + automatic


def _decide_chance(state: State, command: Command) -> list[Event]:
    request = pending(state).chance
    if command.type != RESOLVE_CHANCE or request is None:
        raise NoSuchDecision("no chance is waiting to be resolved")
    if command.args.get("id") != request.id:
        raise UnexpectedChance(f"the pending chance is {request.id!r}, not {command.args.get('id')!r}")
    outcome = check_outcome(request, command.args.get("outcome"))
    if request.id == "setup":
        return _resolve_setup(state, outcome)
    if request.id.startswith("roll:"):
        return _resolve_roll(state, outcome)
    r = state.reroll
    data: dict[str, Any] = {"seat": r.seat, "by": r.by, "card": r.card, "new": outcome["dice"]}
    if r.track >= 0:
        data.update(track=TRACKS[r.track], index=r.index, old=[state.group(r.track, r.seat).dice[r.index]])
    else:
        data["old"] = list(r.values)
    return [Event("PowerDiceRerolled", data)]


#: The commands that answer each kind of decision (by the prefix of its id).
_FAMILIES = {
    "order": {"activate_card", "finish_order_cards"},
    "place": {"place_die", "activate_card", "pass_placement"},
    "after": {"activate_card", "end_turn"},
    "repeat": {"reroll_again", "keep_dice"},
    "conquer": {"conquer_provinces"},
    "senate": {"take_senate_cards"},
    "market": {"buy_arena_card", "buy_hidden_arena_card", "leave_black_market"},
    "arena": {"submit_arena_set"},
}


def _decide_player(state: State, command: Command, matched: bool) -> list[Event]:
    """The events of a player's ``command``; ``matched``: the kernel has found it among the
    options of an open decision (or valid against its schema), so only the rules' own checks
    of a schema answer remain."""
    now = pending(state)
    if now.chance is not None:
        raise NotYourTurn("the game is waiting for chance to be resolved")
    mine = [d for d in now.decisions if d.seat == command.seat]
    if not mine:
        if now.decisions:
            raise NotYourTurn(f"seat {command.seat} is not to act now")
        raise NoSuchDecision("nobody is to act now")
    fitting = [d for d in mine if command.type in _FAMILIES[d.id.split(":")[0]]]
    if not fitting:
        raise NoSuchDecision(f"{command.type!r} does not answer your open decision {mine[0].id}")
    decision = fitting[0]
    args = dict(command.args)
    if decision.options is not None:
        if not matched and not any(o.type == command.type and dict(o.args) == args for o in decision.options):
            raise _diagnose(state, command) or IllegalCommand(
                f"{command.type} {args} is not among the legal options of {decision.id}")
    else:
        problem = _diagnose(state, command)
        if problem is not None:
            raise problem
        if not matched:
            schema_mod.validate(decision.schema or {}, args)
    return _HANDLERS[command.type](state, command.seat, args)


# ---------------------------------------------------------------- handlers


def _on_activate(state: State, seat: int, args: dict) -> list[Event]:
    card = state.senate_card(args["card"])
    target = {k: v for k, v in args.items() if k not in ("card", "provinces")}
    return [effects.activated(seat, card, tuple(args["provinces"])), *effects.effect_events(state, seat, card, target)]


def _on_place(state: State, seat: int, args: dict) -> list[Event]:
    value, track = args["value"], args["track"]
    t = TRACKS.index(track)
    events = []
    if "card" in args:
        card = state.senate_card(args["card"])
        events.append(effects.activated(seat, card, tuple(args["provinces"])))
    at = placement.landing(state.tracks[t], seat, value, state.cards.sections, may_exceed="card" in args)[0]
    data = {"seat": seat, "value": value, "track": track, "section": at.section, "pushes": list(at.pushes),
            "joins": at.joins}
    if "card" in args:
        data["card"] = args["card"]
    events.append(Event("PowerDiePlaced", data))
    return events


def _on_pass(state: State, seat: int, args: dict) -> list[Event]:
    return [Event("PlacementPassed", {"seat": seat, "forfeited": list(state.player(seat).unplaced)})]


def _on_end_turn(state: State, seat: int, args: dict) -> list[Event]:
    return [Event("TurnEnded", {"seat": seat})]


def _on_finish_order(state: State, seat: int, args: dict) -> list[Event]:
    return [Event("OrderCardsFinished", {"seat": seat})]


def _on_reroll_again(state: State, seat: int, args: dict) -> list[Event]:
    offer = state.repeat_offer
    return [Event("RerollStarted", {"seat": seat, "by": seat, "card": offer.card, "values": list(args["values"]),
                                    "repeat": offer.repeat})]


def _on_keep(state: State, seat: int, args: dict) -> list[Event]:
    return [Event("RerollDeclined", {"seat": seat, "card": state.repeat_offer.card})]


def _on_conquer(state: State, seat: int, args: dict) -> list[Event]:
    return [Event("ProvincesConquered", {"seat": seat, "provinces": list(args["provinces"]),
                                         "strength": legion_strength(state, seat)})]


def _on_take_senate(state: State, seat: int, args: dict) -> list[Event]:
    return [Event("SenateCardsTaken", {"seat": seat, "cards": list(args["cards"])})]


def _on_buy(state: State, seat: int, args: dict) -> list[Event]:
    return [Event("ArenaCardBought", {"seat": seat, "card": args["card"],
                                      "cost": state.cards.arena_card(args["card"]).cost})]


def _on_buy_hidden(state: State, seat: int, args: dict) -> list[Event]:
    return [Event("HiddenArenaCardBought", {"seat": seat, "card": state.arena_deck[0],
                                            "cost": state.cards.hidden_arena_cost})]


def _on_leave_market(state: State, seat: int, args: dict) -> list[Event]:
    return [Event("BlackMarketLeft", {"seat": seat, "spent": state.market_spent})]


def _on_arena_set(state: State, seat: int, args: dict) -> list[Event]:
    return [Event("ArenaSetSubmitted", {"seat": seat, "cards": list(args["cards"])})]


_HANDLERS = {
    "activate_card": _on_activate,
    "place_die": _on_place,
    "pass_placement": _on_pass,
    "end_turn": _on_end_turn,
    "finish_order_cards": _on_finish_order,
    "reroll_again": _on_reroll_again,
    "keep_dice": _on_keep,
    "conquer_provinces": _on_conquer,
    "take_senate_cards": _on_take_senate,
    "buy_arena_card": _on_buy,
    "buy_hidden_arena_card": _on_buy_hidden,
    "leave_black_market": _on_leave_market,
    "submit_arena_set": _on_arena_set,
}


# ---------------------------------------------------------------- diagnosing refusals


def _diagnose(state: State, command: Command) -> Optional[RuleViolation]:
    """The named reason why ``command`` is not among the legal options, if one applies."""
    seat, args = command.seat, dict(command.args)
    me = state.player(seat)
    if command.type == "place_die":
        value, track = args.get("value"), args.get("track")
        if value not in me.unplaced:
            return DieNotAvailable(f"you have no unplaced die showing {value!r}")
        if track not in TRACKS:
            return IllegalPlacement(f"no track {track!r}; tracks are {list(TRACKS)}")
        at, why = placement.landing(state.tracks[TRACKS.index(track)], seat, value, state.cards.sections)
        if why == placement.TRACK_FULL:
            return IllegalPlacement(f"all sections of the {track} track are taken")
        if why == placement.HIGHER_THAN_NEIGHBOUR and "card" not in args:
            return IllegalPlacement(
                f"a die joining your group on the {track} track may not be higher than the die it is placed next "
                f"to (Legatus or Consul allow it)")
        if "card" in args:
            return _card_problem(state, seat, args, ("placement",)) or (
                IllegalPlacement("Legatus and Consul are laid only with a die that needs them") if at else None)
        return None
    if command.type == "activate_card":
        timing = ("order",) if state.phase == "order" else ("turn",)
        return _card_problem(state, seat, args, timing)
    if command.type == "pass_placement":
        return MustPlace("you can place a power die, so you may not pass")
    if command.type == "conquer_provinces":
        chosen = args.get("provinces") or []
        if any(p not in state.province_row for p in chosen):
            return IllegalCommand(f"only the provinces laid out can be conquered: {list(state.province_row)}")
        total = sum(state.province(p).strength for p in chosen)
        strength = legion_strength(state, seat)
        if total > strength:
            return LegionTooWeak(f"these provinces need strength {total}, your legion has {strength}")
        return None
    if command.type == "take_senate_cards":
        k = min(len(state.group(SENATE, seat).dice), len(state.senate_row))
        return WrongSenatePick(f"take exactly {k} different card(s) of {list(state.senate_row)}")
    if command.type == "buy_arena_card":
        card = args.get("card")
        if card not in state.arena_row:
            return IllegalCommand(f"{card!r} is not laid out at the black market")
        left = market_budget(state, seat) - state.market_spent
        return OverBudget(f"{card} costs {state.cards.arena_card(card).cost}, you have {left} left")
    if command.type == "submit_arena_set":
        cards = args.get("cards")
        if not isinstance(cards, list):
            return None  # the schema names the problem
        missing = [c for c in cards if c not in me.arena]
        if missing:
            return NotInHand(f"not in your hand: {missing}")
        if 0 < len(cards) < 3:
            return ArenaSetTooSmall(f"a set has at least 3 arena cards, not {len(cards)}; send [] to pass")
        return None
    if command.type == "buy_hidden_arena_card":
        left = market_budget(state, seat) - state.market_spent
        if not state.arena_deck:
            return IllegalCommand("the arena deck is empty")
        return OverBudget(f"the top card costs {state.cards.hidden_arena_cost}, you have {left} left")
    return None


def _card_problem(state: State, seat: int, args: dict, timings: tuple[str, ...]) -> Optional[RuleViolation]:
    cid = args.get("card")
    if cid not in state.player(seat).senate:
        return CardNotUsable(f"you hold no senate card {cid!r}")
    card = state.senate_card(cid)
    if cid in state.exhausted_senate:
        return CardNotUsable(f"{card.name} is exhausted this round")
    if card.timing not in timings:
        return CardNotUsable(f"{card.name} is not activated now (its timing is {card.timing!r})")
    problem = effects.provinces_fit(state, seat, card, list(args.get("provinces") or []))
    if problem:
        return ProvincesDoNotMatch(problem)
    offered = [tuple(p) for p in effects.province_choices(state, seat, card.symbols)]
    if tuple(args.get("provinces")) not in offered:
        return ProvincesDoNotMatch(f"lay {card.name} on one of the offered province choices: {offered} "
                                   "(provinces of one symbol and resource are interchangeable)")
    if card.timing != "placement":
        target = {k: v for k, v in args.items() if k not in ("card", "provinces")}
        if target not in effects.targets(state, seat, card):
            return BadCardTarget(f"{card.name} cannot target {target}")
    return None

