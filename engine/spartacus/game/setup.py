"""Setting up: house choice in die-roll order, starting assets, decks.

- 'Every dominus rolls a die.  The highest roll chooses a house card and a gladiator figure
  and receives the host marker.  Clockwise, the others then choose their houses' (p. 3).
- 'Sort out the 8 white-bordered starting gladiators and 8 starting slaves, shuffle each
  and deal every dominus the starting number; shuffle the rest back into the market deck'
  (p. 3).
- 'Every dominus receives his starting guards from the intrigue cards, face up on the
  table' (p. 3).  'Quick game: 7 influence; standard: 4; long: 1' (p. 3).
"""

from __future__ import annotations

from engine.core.types import Command, Decision
from engine.spartacus.game.errors import IllegalCommand
from engine.spartacus.game.state import GameState
from engine.spartacus.game.tx import Tx

START_INFLUENCE = {"quick": 7, "standard": 4, "long": 1}


def advance(tx: Tx) -> bool:
    """'Every dominus rolls a die' for the house order, then the deal (p. 3)."""
    s = tx.state
    if s.stage == "setup_roll":
        tx.request_chance("house_order", [("rolls", "dice", s.seats)], seats=list(range(s.seats)))
        return True
    if s.stage == "setup_deal":
        tx.request_chance("deal", _deal_draws(s))
        return True
    return False


def house_order_rolled(tx: Tx, seats: list[int], rolls: list[int]) -> None:
    """Ties for the highest roll are rolled again among the tied."""
    top = max(rolls)
    tied = [seat for seat, r in zip(seats, rolls) if r == top]
    by_seat = {str(seat): r for seat, r in zip(seats, rolls)}
    if len(tied) == 1:
        tx.emit("HouseOrderRolled", rolls=by_seat, first=tied[0])
    else:
        tx.emit("HouseOrderRolled", rolls=by_seat, first=None, tied=tied)
        tx.request_chance("house_order", [("rolls", "dice", len(tied))], seats=tied)


def decisions(state: GameState) -> list[Decision]:
    """'Clockwise, the remaining players choose their houses' (p. 3)."""
    if state.stage != "setup_houses" or not state.chooser_order:
        return []
    seat = state.chooser_order[0]
    taken = {p.house for p in state.players if p.house}
    free = [h.id for h in state.cards.houses if h.id not in taken]
    options = tuple(Command(seat, "choose_house", {"house": h}) for h in free)
    return [Decision(
        id=f"choose_house:{seat}", seat=seat, mode="turn", prompt="Choose your house.",
        default=options[0], options=options, prompt_key="choose_house",
    )]


def choose_house(tx: Tx, seat: int, house: str) -> None:
    """Each house once (p. 3)."""
    if any(p.house == house for p in tx.state.players):
        raise IllegalCommand(f"house {house} is taken")
    tx.emit("HouseChosen", seat=seat, house=house)


def _split(s: GameState) -> tuple[list[str], list[str], list[str], list[str], list[str]]:
    market = s.cards.market_instances()
    glads = [c for c in market if s.cards.market_card(c).starting and s.cards.market_card(c).kind == "gladiator"]
    slaves = [c for c in market if s.cards.market_card(c).starting and s.cards.market_card(c).kind == "slave"]
    rest = [c for c in market if c not in glads and c not in slaves]
    guards_needed = sum(s.cards.house(p.house).guards for p in s.players)
    intrigue = s.cards.intrigue_instances()
    guards = [c for c in intrigue if s.cards.intrigue_card(c).type == "guard"][:guards_needed]
    deck = [c for c in intrigue if c not in guards]
    return glads, slaves, rest, guards, deck


def _deal_draws(s: GameState) -> list[tuple[str, str, int]]:
    glads, slaves, rest, guards, deck = _split(s)
    g_need = sum(s.cards.house(p.house).gladiators for p in s.players)
    s_need = sum(s.cards.house(p.house).slaves for p in s.players)
    market_len = len(rest) + max(0, len(glads) - g_need) + max(0, len(slaves) - s_need)
    return [
        ("gladiators", "shuffle", len(glads)),
        ("slaves", "shuffle", len(slaves)),
        ("market", "shuffle", market_len),
        ("intrigue", "shuffle", len(deck)),
    ]


def dealt(tx: Tx, outcome: dict) -> None:
    """'Every dominus gets the slaves, gladiators, guards and gold his house card shows' (p. 3)."""
    s = tx.state
    glads, slaves, rest, guards, deck = _split(s)
    glads = [glads[i] for i in outcome["gladiators"]]
    slaves = [slaves[i] for i in outcome["slaves"]]
    influence = START_INFLUENCE[s.option("game_length", "standard")]
    players: dict[str, dict] = {}
    guard_pool = list(guards)
    for seat in s.clockwise(s.host):
        house = s.cards.house(s.player(seat).house)
        assets = [[glads.pop(0), "gladiator"] for _ in range(min(house.gladiators, len(glads)))]
        assets += [[slaves.pop(0), "slave"] for _ in range(min(house.slaves, len(slaves)))]
        assets += [[guard_pool.pop(0), "guard"] for _ in range(min(house.guards, len(guard_pool)))]
        players[str(seat)] = {"gold": house.gold, "influence": influence, "assets": assets}
    market = rest + glads + slaves
    tx.emit(
        "GameSetUp",
        players=players,
        market_deck=[market[i] for i in outcome["market"]],
        intrigue_deck=[deck[i] for i in outcome["intrigue"]],
        host=s.host,
    )
