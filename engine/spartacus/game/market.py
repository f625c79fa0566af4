"""The market: open trading, sales to the bank, the auctions and the host auction.

- 'In the open market players may buy, sell or trade their property among themselves or
  sell it to the bank; there is no fixed order' (p. 9).  Trades are free actions that block
  nobody: propose, counter, accept, reject, withdraw; an offer whose cards or gold are gone
  is withdrawn at once.  'This is the ONLY time gladiators,
  slaves, equipment or guards change owner'; 'intrigue cards can NEVER be traded' (p. 9).
- 'To sell to the bank, discard the card and take the printed gold' (p. 9).
- 'When done trading, each player takes his gold and hides it ... when all have, the
  market ends and the auctions begin' (p. 10).
- 'Lay out as many market cards as there are players, face down; reveal one at a time and
  auction it with secret bids; the highest bid wins and pays the bank' (p. 10).  'Equal
  bids: those players put their gold on the table and bid again, only the highest bidders
  taking part, adding to their stakes' (p. 10).  'If in any bidding round nobody bids any
  gold, the auction fails: the card is discarded and the stakes go back' (p. 10).  The
  gold in a closed fist and a stake on the table are set aside (``Player.committed``,
  ``Player.staked``): they cannot be given away, so the winner always pays in full.
- Host auction: 'all auction rules apply, except that a failed auction is decided by a die
  roll of the remaining bidders, rerolling ties' (p. 11).  Then 'players put their gold
  back on their house cards' (p. 11).
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import RuleViolation
from engine.core.types import Command, Decision
from engine.spartacus.game import ledger, windows
from engine.spartacus.game.cards import market_card_or_none
from engine.spartacus.game.errors import BadTrade, CardNotReady, GoldHidden, NotEnoughGold, NotYourCard
from engine.spartacus.game.state import GameState
from engine.spartacus.game.tx import Tx


def tradeable(state: GameState, seat: int) -> list[str]:
    """Ready property cards (exhausted cards cannot be bought, sold or traded, p. 17)."""
    return [a.id for a in state.player(seat).assets if a.ready]


def card_value(state: GameState, card: str) -> int:
    """The printed gold value of a property card (guards: the intrigue card's value)."""
    if market_card_or_none(state.cards, card) is None:
        return state.cards.intrigue_card(card).gold
    return state.cards.market_card(card).value


def over(state: GameState) -> bool:
    """'Once a dominus has won the honour to host the games ... the arena phase begins' (p. 11)."""
    return state.market is not None and state.market.host_done and state.stage == "market_done"


# ----------------------------------------------------------------------------- stage machine

def advance(tx: Tx) -> bool:
    """Open market until all gold is hidden, then the lots, the auctions and the host auction (p. 9-11)."""
    s = tx.state
    m = s.market
    if s.stage == "market_open":
        if all(p.gold_hidden for p in s.players):
            for o in m.offers:
                tx.emit("TradeWithdrawn", offer=o.id, reason="market_closed")
            tx.emit("StageChanged", stage="market_lots")
            return True
        return False
    if s.stage == "market_lots":
        want = s.seats - len(m.lots)
        if not m.lots_laid and want > 0:
            if s.market_deck:
                take = min(want, len(s.market_deck))
                tx.emit("AuctionLotsLaid", cards=list(s.market_deck[:take]), complete=take == want)
                return True
            if s.market_discard:
                tx.request_chance("shuffle_market", [("order", "shuffle", len(s.market_discard))])
                return True
        tx.emit("StageChanged", stage="market_auction")
        return True
    if s.stage == "market_auction":
        if m.auction is None:
            if m.lots:
                card = m.lots[0]
                tx.emit("LotRevealed", card=card, name=s.cards.market_card(card).name)
                tx.emit("AuctionStarted", host=False, card=card, bidders=list(range(s.seats)))
                tx.emit("SealedOpened", key=f"bid:{s.round}:{card}:1", seats=list(range(s.seats)))
                return True
            if not m.host_done:
                tx.emit("AuctionStarted", host=True, bidders=list(range(s.seats)))
                tx.emit("SealedOpened", key=f"host_bid:{s.round}:1", seats=list(range(s.seats)))
                return True
            tx.emit("GoldRevealed")
            tx.emit("StageChanged", stage="market_done")
            for seat, gold_then in m.hidden_at:
                if gold_then > 0 and s.player(seat).gold == 0:
                    windows.left_without_gold(tx, seat)
            return True
        if s.sealed is not None and s.sealed.complete:
            _reveal(tx)
            return True
        return False
    return False


def _reveal(tx: Tx) -> None:
    """'All open their hands at once; the highest bid wins' (p. 10)."""
    s = tx.state
    a = s.market.auction
    bids = {seat: s.sealed.answer(seat).get("amount", 0) for seat in s.sealed.seats}
    tx.emit("SealedRevealed", key=s.sealed.key, answers={str(k): {"amount": v} for k, v in bids.items()})
    tx.emit("BidsRevealed", card=a.lot, host=a.host, round=a.round, bids={str(k): v for k, v in bids.items()})
    top = max(bids.values()) if bids else 0
    if top == 0:
        if a.host:
            tx.emit("AuctionFailed", card="", host=True, dice=True, bidders=list(a.bidders))
            tx.request_chance("host_dice", [("rolls", "dice", len(a.bidders))], seats=list(a.bidders))
        else:
            tx.emit("AuctionFailed", card=a.lot, host=False, dice=False, bidders=list(a.bidders))
        return
    leaders = [seat for seat, b in bids.items() if b == top]
    if len(leaders) == 1:
        seat = leaders[0]
        price = a.stake(seat) + top
        ledger.check_covered(s, seat, price, "auction")
        if a.host:
            tx.emit("HostChosen", seat=seat, price=price, how="auction")
        else:
            tx.emit("AuctionWon", seat=seat, card=a.lot, price=price, kind=s.cards.market_card(a.lot).kind)
        return
    stakes = {str(seat): a.stake(seat) + top for seat in leaders}
    tx.emit("AuctionTied", seats=leaders, stakes=stakes)
    key = f"{'host_bid' if a.host else 'bid'}:{s.round}:{a.lot}:{a.round + 1}"
    tx.emit("SealedOpened", key=key, seats=leaders)


def host_dice_rolled(tx: Tx, seats: list[int], rolls: list[int]) -> None:
    """'The remaining bidders roll a die; the highest roll becomes host; ties roll again' (p. 11)."""
    top = max(rolls)
    tied = [seat for seat, r in zip(seats, rolls) if r == top]
    rolled = {str(seat): r for seat, r in zip(seats, rolls)}
    if len(tied) == 1:
        tx.emit("HostDiceRolled", rolls=rolled, tied=[])
        tx.emit("HostChosen", seat=tied[0], price=0, how="dice")
    else:
        tx.emit("HostDiceRolled", rolls=rolled, tied=tied)
        tx.request_chance("host_dice", [("rolls", "dice", len(tied))], seats=tied)


def shuffled(tx: Tx, order: list[int]) -> None:
    """The market discard pile, shuffled, becomes the market deck when the lots run out."""
    pile = tx.state.market_discard
    tx.emit("MarketDeckShuffled", order=[pile[i] for i in order])


# ----------------------------------------------------------------------------- decisions

def decisions(s: GameState) -> list[Decision]:
    """'Hide your gold when done trading' (p. 10); the secret bids of an auction round (p. 10)."""
    out: list[Decision] = []
    if s.stage == "market_open":
        for p in s.players:
            if p.gold_hidden:
                continue
            hide = Command(p.seat, "hide_gold", {})
            out.append(Decision(
                id=f"hide_gold:{s.round}:{p.seat}", seat=p.seat, mode="simultaneous", group=f"market:{s.round}",
                prompt="Trade and sell as you like; hide your gold when you are done trading.",
                default=hide, options=(hide,), prompt_key="hide_gold",
            ))
        return out
    if s.stage == "market_auction" and s.sealed is not None and s.market.auction is not None:
        a = s.market.auction
        for seat in s.sealed.seats:
            if s.sealed.answered(seat):
                continue
            room = s.player(seat).free_gold
            what = "the host marker" if a.host else s.cards.market_card(a.lot).name
            out.append(Decision(
                id=f"{s.sealed.key}:{seat}", seat=seat, mode="simultaneous", group=s.sealed.key,
                prompt=f"Bid in secret for {what} (round {a.round}; your stake on the table: {a.stake(seat)}).",
                command_type="place_bid", default=Command(seat, "place_bid", {"amount": 0}),
                schema={"type": "object", "additionalProperties": False, "required": ["amount"],
                        "properties": {"amount": {"type": "integer", "minimum": 0, "maximum": room}}},
                prompt_key="host_bid" if a.host else "bid",
                # the lot lies open on the table: "bid 0 unless it is a gladiator" matches its type
                prompt_args={"card": a.lot, "round": a.round, "stake": a.stake(seat),
                             "card_type": "host" if a.host else s.cards.market_card(a.lot).kind},
            ))
    return out


def free_decisions(s: GameState) -> list[Decision]:
    """Trades and bank sales: free actions that never block anyone (open market only)."""
    if s.stage != "market_open" or s.market is None:
        return []
    out = []
    open_seats = [p.seat for p in s.players if not p.gold_hidden]
    ready = {seat: tradeable(s, seat) for seat in open_seats}
    for seat in open_seats:
        mine = ready[seat]
        if mine:
            out.append(Decision(
                id=f"sell_to_bank:{s.round}:{seat}", seat=seat, mode="free",
                prompt="Sell a ready property card to the bank for its printed gold value.",
                default=Command(seat, "sell_to_bank", {"card": mine[0]}),
                options=tuple(Command(seat, "sell_to_bank", {"card": c}) for c in mine), prompt_key="sell_to_bank",
            ))
        partners = [x for x in open_seats if x != seat]
        theirs = sorted({c for x in partners for c in ready[x]})
        if partners and (mine or theirs):
            # the default is a legal offer: one of my cards for nothing, else one of theirs
            if mine:
                default = {"to": partners[0], "give": [mine[0]], "take": [], "gold": 0}
            else:
                owner = next(x for x in partners if theirs[0] in ready[x])
                default = {"to": owner, "give": [], "take": [theirs[0]], "gold": 0}
            out.append(Decision(
                id=f"propose_trade:{s.round}:{seat}", seat=seat, mode="free",
                prompt="Offer a trade: your cards and/or gold for theirs.",
                command_type="propose_trade",
                default=Command(seat, "propose_trade", default),
                schema=_trade_schema(seat, partners, mine, theirs, s), prompt_key="propose_trade",
            ))
        for o in s.market.offers:
            if o.to == seat:
                for verb in ("accept_trade", "reject_trade"):
                    out.append(Decision(
                        id=f"{verb}:{o.id}", seat=seat, mode="free", prompt=f"Trade offer {o.id} from seat {o.frm}.",
                        default=Command(seat, verb, {"offer": o.id}),
                        options=(Command(seat, verb, {"offer": o.id}),), prompt_key=verb,
                        prompt_args={"offer": o.id, "partner": o.frm},
                    ))
                if o.frm in open_seats:
                    schema = _trade_schema(seat, [o.frm], mine, ready[o.frm], s)
                    schema["properties"] = {k: v for k, v in schema["properties"].items() if k != "to"}
                    schema["properties"]["offer"] = {"type": "integer", "enum": [o.id]}
                    schema["required"] = ["offer", "give", "take", "gold"]
                    out.append(Decision(
                        id=f"counter_trade:{o.id}", seat=seat, mode="free",
                        prompt=f"Answer trade offer {o.id} from seat {o.frm} with a counter-offer.",
                        command_type="counter_trade",
                        default=Command(seat, "counter_trade", {"offer": o.id, "give": list(o.take),
                                                                 "take": list(o.give), "gold": -o.gold}),
                        schema=schema, prompt_key="counter_trade", prompt_args={"offer": o.id, "partner": o.frm},
                    ))
            if o.frm == seat:
                out.append(Decision(
                    id=f"withdraw_trade:{o.id}", seat=seat, mode="free", prompt=f"Withdraw your trade offer {o.id}.",
                    default=Command(seat, "withdraw_trade", {"offer": o.id}),
                    options=(Command(seat, "withdraw_trade", {"offer": o.id}),), prompt_key="withdraw_trade",
                    prompt_args={"offer": o.id, "partner": o.to},
                ))
    return out


def _trade_schema(seat: int, partners: list[int], mine: list[str], theirs: list[str], s: GameState) -> dict:
    richest = max([s.player(x).free_gold for x in partners] + [0])
    return {
        "type": "object", "additionalProperties": False, "required": ["to", "give", "take", "gold"],
        "properties": {
            "to": {"type": "integer", "enum": partners},
            "give": {"type": "array", "uniqueItems": True, "items": {"type": "string", "enum": mine or [""]},
                     "maxItems": len(mine)},
            "take": {"type": "array", "uniqueItems": True, "items": {"type": "string", "enum": theirs or [""]},
                     "maxItems": len(theirs)},
            "gold": {"type": "integer", "minimum": -richest, "maximum": s.player(seat).free_gold},
        },
    }


# ----------------------------------------------------------------------------- commands

def _open(tx: Tx, seat: int) -> None:
    if tx.state.player(seat).gold_hidden:
        raise GoldHidden("you have hidden your gold: your trading is over")


def sell_to_bank(tx: Tx, seat: int, card: str) -> None:
    """'To sell to the bank, discard the card and take the printed gold' (p. 9); a champion sold costs 1 influence (p.
    13)."""
    _open(tx, seat)
    asset = tx.state.player(seat).asset(card)
    if asset is None:
        raise NotYourCard("not your card")
    if not asset.ready:
        raise CardNotReady("exhausted cards cannot be sold")
    tx.emit("PropertySoldToBank", seat=seat, card=card, gold=card_value(tx.state, card))
    if asset.champion:
        ledger.lose_influence(tx, seat, 1, "champion_lost")


def _check_offer(s: GameState, frm: int, to: int, give: list[str], take: list[str], gold: int) -> None:
    if frm == to or not 0 <= to < s.seats:
        raise BadTrade("trade with another dominus")
    if s.player(to).gold_hidden or s.player(frm).gold_hidden:
        raise GoldHidden("a dominus who hid their gold trades no more")
    for c in give:
        if c not in tradeable(s, frm):
            raise BadTrade(f"{c} is not a ready card of seat {frm}")
    for c in take:
        if c not in tradeable(s, to):
            raise BadTrade(f"{c} is not a ready card of seat {to}")
    if gold > 0 and s.player(frm).free_gold < gold:
        raise NotEnoughGold("the proposer lacks that gold")
    if gold < 0 and s.player(to).free_gold < -gold:
        raise NotEnoughGold("the recipient lacks that gold")
    if not give and not take and gold == 0:
        raise BadTrade("an empty trade")


def propose_trade(tx: Tx, seat: int, args: dict) -> None:
    """'Players may buy, sell or trade their property cards among themselves' (p. 9)."""
    _open(tx, seat)
    give, take, gold, to = list(args["give"]), list(args["take"]), int(args["gold"]), int(args["to"])
    _check_offer(tx.state, seat, to, give, take, gold)
    tx.emit("TradeProposed", offer=tx.state.market.next_offer, **{"from": seat}, to=to, give=give, take=take,
            gold=gold)


def _offer(tx: Tx, offer_id: int):
    for o in tx.state.market.offers:
        if o.id == offer_id:
            return o
    raise BadTrade(f"no open trade offer {offer_id}")


def accept_trade(tx: Tx, seat: int, offer_id: int) -> None:
    """The offered dominus accepts: cards and gold change hands at once (p. 9)."""
    o = _offer(tx, offer_id)
    if o.to != seat:
        raise BadTrade("only the dominus offered the trade may accept it")
    _check_offer(tx.state, o.frm, o.to, list(o.give), list(o.take), o.gold)
    tx.emit("TradeAccepted", offer=o.id, **{"from": o.frm}, to=o.to)
    for c in o.give:
        ledger.transfer_property(tx, o.frm, o.to, c, "trade")
    for c in o.take:
        ledger.transfer_property(tx, o.to, o.frm, c, "trade")
    if o.gold > 0:
        ledger.give_gold(tx, o.frm, o.to, o.gold, "trade")
    elif o.gold < 0:
        ledger.give_gold(tx, o.to, o.frm, -o.gold, "trade")


def drop_stale(tx: Tx) -> bool:
    """An offer whose cards or gold are gone (given away, sold, exhausted) is withdrawn at
    once, even while a reaction window is open, so that every offer listed can be accepted."""
    s = tx.state
    dropped = False
    for o in s.market.offers:
        try:
            _check_offer(s, o.frm, o.to, list(o.give), list(o.take), o.gold)
        except RuleViolation:
            tx.emit("TradeWithdrawn", offer=o.id, reason="no_longer_possible")
            dropped = True
    return dropped


def reject_trade(tx: Tx, seat: int, offer_id: int) -> None:
    """The offered dominus turns the offer down."""
    o = _offer(tx, offer_id)
    if o.to != seat:
        raise BadTrade("only the dominus offered the trade may reject it")
    tx.emit("TradeRejected", offer=o.id)


def counter_trade(tx: Tx, seat: int, args: dict) -> None:
    """'All kinds of deals are allowed' (p. 9): the dominus offered a trade turns it down and
    offers the proposer other terms in the same breath."""
    o = _offer(tx, int(args["offer"]))
    if o.to != seat:
        raise BadTrade("only the dominus offered the trade may counter it")
    give, take, gold = list(args["give"]), list(args["take"]), int(args["gold"])
    _check_offer(tx.state, seat, o.frm, give, take, gold)
    tx.emit("TradeRejected", offer=o.id, countered=True)
    tx.emit("TradeProposed", offer=tx.state.market.next_offer, **{"from": seat}, to=o.frm, give=give, take=take,
            gold=gold, counters=o.id)


def withdraw_trade(tx: Tx, seat: int, offer_id: int) -> None:
    """The proposer takes the offer back before it is accepted."""
    o = _offer(tx, offer_id)
    if o.frm != seat:
        raise BadTrade("only the proposer may withdraw a trade")
    tx.emit("TradeWithdrawn", offer=o.id, reason="withdrawn")


def hide_gold(tx: Tx, seat: int) -> None:
    """'Each player takes his gold and hides it: the sign that he is done trading' (p. 10)."""
    tx.emit("GoldHidden", seat=seat)
    for o in tx.state.market.offers:
        if seat in (o.frm, o.to):
            tx.emit("TradeWithdrawn", offer=o.id, reason="gold_hidden")


def place_bid(tx: Tx, seat: int, amount: int) -> None:
    """'Every player takes his stake in his closed hand' (p. 10): a secret bid, at most the
    gold not yet on the table.  The gold in the fist is set aside until the hands open:
    it can be neither given nor traded away meanwhile, so the winner pays in full."""
    if amount < 0 or amount > tx.state.player(seat).free_gold:
        raise NotEnoughGold("you cannot bid more gold than you hold besides your stake")
    tx.emit("SealedAnswered", seat=seat, answer={"amount": amount}, commit=amount)


def _a(c: Command, name: str) -> Any:
    return c.args[name]


HANDLERS = {
    "sell_to_bank": lambda tx, c: sell_to_bank(tx, c.seat, _a(c, "card")),
    "propose_trade": lambda tx, c: propose_trade(tx, c.seat, dict(c.args)),
    "accept_trade": lambda tx, c: accept_trade(tx, c.seat, _a(c, "offer")),
    "reject_trade": lambda tx, c: reject_trade(tx, c.seat, _a(c, "offer")),
    "withdraw_trade": lambda tx, c: withdraw_trade(tx, c.seat, _a(c, "offer")),
    "counter_trade": lambda tx, c: counter_trade(tx, c.seat, dict(c.args)),
    "hide_gold": lambda tx, c: hide_gold(tx, c.seat),
    "place_bid": lambda tx, c: place_bid(tx, c.seat, _a(c, "amount")),
}
