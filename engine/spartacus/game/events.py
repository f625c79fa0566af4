"""Folding events into the state: ``apply`` never validates and never raises.

Every event type the game records has one small function here.  ``decide`` did all the
rule work; these only move cards, gold and markers as the event says.  Unknown event
types (from a newer rules version) leave the state unchanged, so stored games replay.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.core.types import Event
from engine.core.upcast import Rewrite, at_version, chain, rewriter
from engine.spartacus.arena import events as arena_events
from engine.spartacus.arena import fight as arena_fight
from engine.spartacus.arena.plan import plan_from_json
from engine.spartacus.game.cards import card_key
from engine.spartacus.game.state import (
    Arena,
    Asset,
    Auction,
    ChanceNeed,
    Entry,
    GameState,
    Market,
    Offer,
    Play,
    Prompt,
    Resolution,
    Sealed,
    SupportRequest,
    Tournament,
    Turn,
    Window,
    active_fight,
    evolve,
    freeze,
    thaw,
)


Handler = Callable[[GameState, dict], GameState]
_HANDLERS: dict[str, Handler] = {}

#: Schema versions of the game's event types that are not at 1; bump one and add an upcaster
#: (:data:`REWRITES`) when its data changes.
EVENT_VERSIONS: dict[str, int] = {
    "ReactionPassed": 2,  # 2: ``closed`` -- the pass closed the window (no WindowClosed follows)
    "WindowRoundEnded": 2,  # 2: ``closed`` -- a round of passes closed the window
}


def on(name: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        _HANDLERS[name] = fn
        return fn

    return deco


def apply(state: GameState, event: Event) -> GameState:
    handler = _HANDLERS.get(event.type)
    if handler is None:
        return state
    return handler(state, dict(event.data))


def apply_any(state: GameState, event: Event) -> GameState:
    """``apply`` including the arena's own fight events."""
    if event.type in _HANDLERS:
        return _HANDLERS[event.type](state, dict(event.data))
    return _apply_fight_event(state, event)


def _apply_fight_event(state: GameState, event: Event) -> GameState:
    """Fold one of the fight's own events into the nested fight."""
    fight = active_fight(state)
    if fight is None:
        return state
    return with_fight(state, arena_fight.apply(fight, event))


def with_fight(state: GameState, new: Any) -> GameState:
    """``state`` with its fight under way (a tournament match, else the round's) replaced."""
    if state.tournament is not None and state.tournament.fight is not None:
        return evolve(state, tournament=evolve(state.tournament, fight=new))
    return evolve(state, arena=evolve(state.arena, fight=new))


def folded_by_the_game(event_type: str) -> bool:
    """Does the game fold this type itself (rather than handing it to the nested fight)?"""
    return event_type in _HANDLERS


# ----------------------------------------------------------------------------- helpers

def _map_asset(state: GameState, seat: int, card: str, fn: Callable[[Asset], Asset]) -> GameState:
    p = state.player(seat)
    return state.with_player(seat, assets=tuple(fn(a) if a.id == card else a for a in p.assets))


def _remove_asset(state: GameState, seat: int, card: str) -> GameState:
    p = state.player(seat)
    return state.with_player(seat, assets=tuple(a for a in p.assets if a.id != card))


def _to_discard(state: GameState, card: str, deck: str) -> GameState:
    if deck == "intrigue":
        return evolve(state, intrigue_discard=state.intrigue_discard + (card,))
    return evolve(state, market_discard=state.market_discard + (card,))


def _deck_of(state: GameState, asset_kind: str) -> str:
    return "intrigue" if asset_kind == "guard" else "market"


def _play(d: dict) -> Play:
    return Play(
        card=d["card"], seat=d["seat"], target=d.get("target", -1), kind=d["kind"],
        window=d.get("window", 0), supporters=tuple(d.get("supporters", ())), extra=freeze(d.get("extra", {})),
    )


def _pop_window(state: GameState, wid: int) -> GameState:
    return evolve(state, windows=tuple(w for w in state.windows if w.id != wid))


def _map_window(state: GameState, wid: int, fn: Callable[[Window], Window]) -> GameState:
    return evolve(state, windows=tuple(fn(w) if w.id == wid else w for w in state.windows))


def _top_resolution(state: GameState, fn: Callable[[Resolution], Resolution]) -> GameState:
    if not state.resolutions:
        return state
    return evolve(state, resolutions=state.resolutions[:-1] + (fn(state.resolutions[-1]),))


# ----------------------------------------------------------------------------- chance, decks

@on("ChanceRequested")
def _chance_requested(s: GameState, d: dict) -> GameState:
    need = ChanceNeed(
        id=d["id"], purpose=d["purpose"],
        draws=tuple((n, k, c) for n, k, c in d["draws"]), data=freeze(d.get("data", {})),
    )
    return evolve(s, chance=need, seq=s.seq + 1)


@on("ChanceResolved")
def _chance_resolved(s: GameState, d: dict) -> GameState:
    return evolve(s, chance=None)


@on("IntrigueDeckShuffled")
def _intrigue_shuffled(s: GameState, d: dict) -> GameState:
    return evolve(s, intrigue_deck=s.intrigue_deck + tuple(d["order"]), intrigue_discard=())


@on("MarketDeckShuffled")
def _market_shuffled(s: GameState, d: dict) -> GameState:
    return evolve(s, market_deck=s.market_deck + tuple(d["order"]), market_discard=())


@on("DrawsOwed")
def _draws_owed(s: GameState, d: dict) -> GameState:
    return evolve(s, draws_owed=s.draws_owed + tuple((a, b) for a, b in d["draws"]))


@on("IntrigueCardsDrawn")
def _drawn(s: GameState, d: dict) -> GameState:
    cards = tuple(d["cards"])
    s = evolve(s, intrigue_deck=s.intrigue_deck[len(cards):])
    s = s.with_player(d["seat"], hand=s.player(d["seat"]).hand + cards)
    return _settle_owed(s, d["seat"], len(cards), d.get("short", False))


@on("DrawSkipped")
def _draw_skipped(s: GameState, d: dict) -> GameState:
    return _settle_owed(s, d["seat"], 0, True)


def _settle_owed(s: GameState, seat: int, n: int, short: bool) -> GameState:
    if not s.draws_owed or s.draws_owed[0][0] != seat:
        return s
    left = s.draws_owed[0][1] - n
    if left <= 0 or short:
        return evolve(s, draws_owed=s.draws_owed[1:])
    return evolve(s, draws_owed=((seat, left),) + s.draws_owed[1:])


# ----------------------------------------------------------------------------- setup

@on("HouseOrderRolled")
def _house_order(s: GameState, d: dict) -> GameState:
    first = d.get("first")
    if first is None:
        return s
    return evolve(s, host=first, chooser_order=s.clockwise(first), stage="setup_houses")


@on("HouseChosen")
def _house_chosen(s: GameState, d: dict) -> GameState:
    s = s.with_player(d["seat"], house=d["house"])
    order = tuple(x for x in s.chooser_order if x != d["seat"])
    return evolve(s, chooser_order=order, stage="setup_houses" if order else "setup_deal")


@on("GameSetUp")
def _game_set_up(s: GameState, d: dict) -> GameState:
    players = list(s.players)
    for seat_s, info in d["players"].items():
        seat = int(seat_s)
        assets = tuple(Asset(id=c, kind=k) for c, k in info["assets"])
        players[seat] = evolve(players[seat], gold=info["gold"], influence=info["influence"], assets=assets)
    return evolve(
        s, players=tuple(players), intrigue_deck=tuple(d["intrigue_deck"]), market_deck=tuple(d["market_deck"]),
        intrigue_discard=(), market_discard=(), stage="round_start",
    )


# ----------------------------------------------------------------------------- phases

@on("NewRoundStarted")
def _round_started(s: GameState, d: dict) -> GameState:
    return evolve(s, round=d["round"], stage="upkeep_ready", arena=None, market=None, turn=None, heal_rolls=())


@on("PhaseStarted")
def _phase_started(s: GameState, d: dict) -> GameState:
    phase = d["phase"]
    if phase == "intrigue":
        return evolve(s, stage="intrigue_draw", turn_order=s.clockwise(s.host), turn=None)
    if phase == "market":
        return evolve(s, stage="market_open", market=Market(), turn=None, turn_order=())
    if phase == "arena":
        return evolve(s, stage="arena", arena=Arena())
    if phase == "upkeep_heal":
        return evolve(s, stage="upkeep_heal")
    if phase == "upkeep_accounts":
        return evolve(s, stage="upkeep_accounts")
    return evolve(s, stage=phase)


@on("PhaseEnded")
def _phase_ended(s: GameState, d: dict) -> GameState:
    return evolve(s, stage=d["phase"] + "_ended")


@on("GameEnded")
def _game_ended(s: GameState, d: dict) -> GameState:
    s = _release(s, committed=0, staked=0)
    return evolve(s, stage="over", winners=tuple(d["winners"]), finish=d.get("how", ""), prompts=(), windows=(),
                   resolutions=(), sealed=None, chance=None)


# ----------------------------------------------------------------------------- gold, influence

@on("GoldGained")
def _gold_gained(s: GameState, d: dict) -> GameState:
    p = s.player(d["seat"])
    return s.with_player(d["seat"], gold=p.gold + d["amount"])


@on("GoldPaid")
def _gold_paid(s: GameState, d: dict) -> GameState:
    p = s.player(d["seat"])
    return s.with_player(d["seat"], gold=max(0, p.gold - d["amount"]))


@on("GoldGiven")
def _gold_given(s: GameState, d: dict) -> GameState:
    a = s.player(d["from"])
    s = s.with_player(d["from"], gold=max(0, a.gold - d["amount"]))
    b = s.player(d["to"])
    return s.with_player(d["to"], gold=b.gold + d["amount"])


@on("InfluenceGained")
def _influence_gained(s: GameState, d: dict) -> GameState:
    p = s.player(d["seat"])
    return s.with_player(d["seat"], influence=p.influence + d["amount"])


@on("InfluenceLost")
def _influence_lost(s: GameState, d: dict) -> GameState:
    p = s.player(d["seat"])
    return s.with_player(d["seat"], influence=max(0, p.influence - d["amount"]))


# ----------------------------------------------------------------------------- property cards

@on("CardsReadied")
def _readied(s: GameState, d: dict) -> GameState:
    cards = set(d["cards"])
    p = s.player(d["seat"])
    return s.with_player(
        d["seat"], assets=tuple(evolve(a, exhausted=False) if a.id in cards else a for a in p.assets)
    )


@on("CardExhausted")
def _exhausted(s: GameState, d: dict) -> GameState:
    return _map_asset(s, d["seat"], d["card"], lambda a: evolve(a, exhausted=True))


@on("CardInjured")
def _injured(s: GameState, d: dict) -> GameState:
    return _map_asset(s, d["seat"], d["card"], lambda a: evolve(a, exhausted=True, injured=True))


@on("HealingRolled")
def _healing(s: GameState, d: dict) -> GameState:
    s = evolve(s, heal_rolls=tuple((c, r) for c, r in s.heal_rolls if c != d["card"]) + ((d["card"], d["roll"]),))
    return s


@on("CardHealed")
def _healed(s: GameState, d: dict) -> GameState:
    return _map_asset(s, d["seat"], d["card"], lambda a: evolve(a, exhausted=False, injured=False))


@on("PropertyDiscarded")
def _property_discarded(s: GameState, d: dict) -> GameState:
    p = s.player(d["seat"])
    asset = p.asset(d["card"])
    if asset is None:
        return s
    s = _remove_asset(s, d["seat"], d["card"])
    return _to_discard(s, d["card"], _deck_of(s, asset.kind))


@on("PropertyGained")
def _property_gained(s: GameState, d: dict) -> GameState:
    p = s.player(d["seat"])
    card = d["card"]
    s = s.with_player(d["seat"], assets=p.assets + (Asset(id=card, kind=d["kind"]),))
    source = d.get("source", "")
    if source == "intrigue_discard":
        s = evolve(s, intrigue_discard=tuple(c for c in s.intrigue_discard if c != card))
    elif source == "lot" and s.market is not None:
        s = evolve(s, market=evolve(s.market, lots=tuple(c for c in s.market.lots if c != card)))
    return s


@on("PropertyTransferred")
def _property_transferred(s: GameState, d: dict) -> GameState:
    asset = s.player(d["from"]).asset(d["card"])
    if asset is None:
        return s
    s = _remove_asset(s, d["from"], d["card"])
    return s.with_player(d["to"], assets=s.player(d["to"]).assets + (asset,))


@on("FavourGained")
def _favour(s: GameState, d: dict) -> GameState:
    return _map_asset(s, d["seat"], d["card"], lambda a: evolve(a, favour=a.favour + 1))


@on("ChampionCrowned")
def _champion(s: GameState, d: dict) -> GameState:
    return _map_asset(s, d["seat"], d["card"], lambda a: evolve(a, favour=0, champion=True))


@on("GuardPlaced")
def _guard_placed(s: GameState, d: dict) -> GameState:
    p = s.player(d["seat"])
    return s.with_player(
        d["seat"], hand=tuple(c for c in p.hand if c != d["card"]), assets=p.assets + (Asset(id=d["card"], kind="guard"),)
    )


# ----------------------------------------------------------------------------- intrigue cards

@on("IntrigueCardSold")
def _sold(s: GameState, d: dict) -> GameState:
    p = s.player(d["seat"])
    s = s.with_player(d["seat"], hand=tuple(c for c in p.hand if c != d["card"]), gold=p.gold + d["gold"])
    return _to_discard(s, d["card"], "intrigue")


@on("IntrigueCardDiscarded")
def _discarded(s: GameState, d: dict) -> GameState:
    p = s.player(d["seat"])
    s = s.with_player(d["seat"], hand=tuple(c for c in p.hand if c != d["card"]))
    return _to_discard(s, d["card"], "intrigue")


# ----------------------------------------------------------------------------- intrigue turns

@on("IntrigueTurnStarted")
def _turn_started(s: GameState, d: dict) -> GameState:
    return evolve(s, turn=Turn(seat=d["seat"]), stage="intrigue_turns")


@on("TurnStepTaken")
def _turn_step(s: GameState, d: dict) -> GameState:
    if s.turn is None:
        return s
    return evolve(s, turn=evolve(s.turn, steps=s.turn.steps + 1))


@on("HandLimitEnforced")
def _hand_limit(s: GameState, d: dict) -> GameState:
    if s.turn is None:
        return s
    return evolve(s, turn=evolve(s.turn, ending=True))


@on("PhaseHandLimitEnforced")
def _phase_hand_limit(s: GameState, d: dict) -> GameState:
    return evolve(s, turn=Turn(seat=d["seat"], ending=True))


@on("IntrigueTurnEnded")
def _turn_ended(s: GameState, d: dict) -> GameState:
    return evolve(s, turn=None, turn_order=tuple(x for x in s.turn_order if x != d["seat"]))


@on("SchemeDiscountGranted")
def _discount(s: GameState, d: dict) -> GameState:
    if s.turn is None:
        return s
    return evolve(s, turn=evolve(s.turn, discount=s.turn.discount + d["amount"]))


@on("HandCardPeeked")
def _peeked(s: GameState, d: dict) -> GameState:
    if s.turn is None:
        return s
    return evolve(s, turn=evolve(s.turn, peeks=s.turn.peeks + ((d["at"], d["card"]),)))


@on("SupportRequested")
def _support_requested(s: GameState, d: dict) -> GameState:
    if s.turn is None:
        return s
    req = SupportRequest(card=d["card"], target=d["target"], asked=tuple(d["asked"]), claim=d.get("claim"))
    return evolve(s, turn=evolve(s.turn, support=req, asked_with=s.turn.asked_with + (d["card"],)))


@on("SupportAnswered")
def _support_answered(s: GameState, d: dict) -> GameState:
    if s.turn is None or s.turn.support is None:
        return s
    req = s.turn.support
    return evolve(s, turn=evolve(s.turn, support=evolve(req, answers=req.answers + ((d["by"], d["granted"]),))))


@on("SupportFellShort")  # recorded by earlier rules: the request closed unplayed
@on("SupportedSchemeKept")
def _support_short(s: GameState, d: dict) -> GameState:
    if s.turn is None:
        return s
    return evolve(s, turn=evolve(s.turn, support=None))


@on("SchemePlayed")
def _scheme_played(s: GameState, d: dict) -> GameState:
    p = s.player(d["seat"])
    s = s.with_player(d["seat"], hand=tuple(c for c in p.hand if c != d["card"]))
    if s.turn is not None:
        s = evolve(s, turn=evolve(s.turn, support=None, discount=0))
    return s


@on("WindowOpened")
def _window_opened(s: GameState, d: dict) -> GameState:
    w = Window(
        id=d["window"], moment=d["moment"], order=tuple(d["order"]), about=d.get("about", -1),
        subject=_play(d["subject"]) if d.get("subject") else None,
        scheme=_play(d["scheme"]) if d.get("scheme") else None,
    )
    return evolve(s, windows=s.windows + (w,), seq=max(s.seq, d["window"]) + 1)


@on("ReactionPassed")
def _passed(s: GameState, d: dict) -> GameState:
    s = _map_window(s, d["window"], lambda w: evolve(w, index=(w.index + 1) % max(1, len(w.order)),
                                                      passes=w.passes + 1, rerollable=-1))
    return _pop_window(s, d["window"]) if d.get("closed") else s


@on("ReactionAnswered")
def _reaction_answered(s: GameState, d: dict) -> GameState:
    answer = d["answer"]
    sealed = (d["seat"], answer["type"], freeze(answer.get("args", {})))
    return _map_window(s, d["window"], lambda w: evolve(w, answers=w.answers + (sealed,)))


@on("WindowRoundEnded")
def _window_round_ended(s: GameState, d: dict) -> GameState:
    if d.get("closed"):
        return _pop_window(s, d["window"])
    return _map_window(s, d["window"], lambda w: evolve(
        w, answers=(), round=w.round + 1, rerollable=-1,
        index=w.order.index(d["seat"]) if d["seat"] in w.order else w.index))


@on("WindowClosed")
def _window_closed(s: GameState, d: dict) -> GameState:
    return _pop_window(s, d["window"])


@on("ReactionPlayed")
def _reaction_played(s: GameState, d: dict) -> GameState:
    s = _map_window(s, d["window"], lambda w: evolve(w, passes=0))
    p = s.player(d["seat"])
    return s.with_player(d["seat"], hand=tuple(c for c in p.hand if c != d["card"]))


@on("GuardUsed")
def _guard_used(s: GameState, d: dict) -> GameState:
    s = _map_window(s, d["window"], lambda w: evolve(w, rerollable=-1, passes=0))
    seat, card = d["seat"], d["card"]
    p = s.player(seat)
    if d["source"] == "table":
        s = _remove_asset(s, seat, card)
    else:
        s = s.with_player(seat, hand=tuple(c for c in p.hand if c != card))
    return _to_discard(s, card, "intrigue")


@on("GuardRolled")
def _guard_rolled(s: GameState, d: dict) -> GameState:
    return _map_window(s, d["window"], lambda w: evolve(w, rerollable=-1 if d["foiled"] else d["seat"]))


@on("GuardRerolled")
def _guard_rerolled(s: GameState, d: dict) -> GameState:
    return _map_window(s, d["window"], lambda w: evolve(w, rerollable=-1, passes=0))


@on("SchemeFoiled")
def _scheme_foiled(s: GameState, d: dict) -> GameState:
    s = _pop_window(s, d["window"])
    return _to_discard(s, d["card"], "intrigue")


@on("ReactionFoiled")
def _reaction_foiled(s: GameState, d: dict) -> GameState:
    s = _pop_window(s, d["window"])
    return _to_discard(s, d["card"], "intrigue")


@on("GuardFoiled")
def _guard_foiled(s: GameState, d: dict) -> GameState:
    return _pop_window(s, d["window"])  # the guard card was discarded when it was used


@on("SchemeFizzled")
def _scheme_fizzled(s: GameState, d: dict) -> GameState:
    s = evolve(s, resolutions=s.resolutions[:-1]) if d.get("resolving") else s
    return _to_discard(s, d["card"], "intrigue")


@on("EffectsStarted")
def _effects_started(s: GameState, d: dict) -> GameState:
    play = _play(d["play"]) if d.get("play") else None
    res = Resolution(
        source=d["source"], card=d["card"], actor=d["actor"], target=d.get("target", -1),
        x=d.get("x", 0), window=d.get("window", 0), play=play, opened=s.seq,
    )
    return evolve(s, resolutions=s.resolutions + (res,), seq=s.seq + 1)


@on("EffectStepped")
def _effect_stepped(s: GameState, d: dict) -> GameState:
    if d.get("next"):
        return _top_resolution(s, lambda r: evolve(r, step=r.step + 1, progress=0))
    return _top_resolution(s, lambda r: evolve(r, progress=r.progress + 1))


@on("EffectsFinished")
def _effects_finished(s: GameState, d: dict) -> GameState:
    s = evolve(s, resolutions=s.resolutions[:-1])
    if d.get("discard"):
        s = _to_discard(s, d["card"], "intrigue")
    return s


@on("PromptOpened")
def _prompt_opened(s: GameState, d: dict) -> GameState:
    pr = Prompt(
        seat=d["seat"], kind=d["kind"], options=tuple(d["options"]), remaining=d.get("remaining", 1),
        optional=d.get("optional", False), reason=d.get("reason", ""), seq=s.seq,
    )
    return evolve(s, prompts=s.prompts + (pr,), seq=s.seq + 1)


@on("PromptAnswered")
def _prompt_answered(s: GameState, d: dict) -> GameState:
    if not s.prompts:
        return s
    pr = s.prompts[-1]
    choice = d.get("choice", "")
    left = pr.remaining - 1
    if choice == "" or left <= 0:
        return evolve(s, prompts=s.prompts[:-1])
    options = tuple(o for o in pr.options if o != choice)
    if not options:
        return evolve(s, prompts=s.prompts[:-1])
    return evolve(s, prompts=s.prompts[:-1] + (evolve(pr, remaining=left, options=options),))


# ----------------------------------------------------------------------------- sealed decisions

@on("SealedOpened")
def _sealed_opened(s: GameState, d: dict) -> GameState:
    return evolve(s, sealed=Sealed(key=d["key"], seats=tuple(d["seats"])))


@on("SealedAnswered")
def _sealed_answered(s: GameState, d: dict) -> GameState:
    if s.sealed is None:
        return s
    s = evolve(s, sealed=evolve(s.sealed, answers=s.sealed.answers + ((d["seat"], freeze(d["answer"])),)))
    if d.get("commit"):
        s = s.with_player(d["seat"], committed=d["commit"])
    return s


@on("SealedRevealed")
def _sealed_revealed(s: GameState, d: dict) -> GameState:
    """The hands open: what they held is no longer set aside (the reveal's own events pay it)."""
    return _release(evolve(s, sealed=None), committed=0)


def _release(s: GameState, **changes: Any) -> GameState:
    if all(all(getattr(p, k) == v for k, v in changes.items()) for p in s.players):
        return s
    return evolve(s, players=tuple(evolve(p, **changes) for p in s.players))


# ----------------------------------------------------------------------------- market

def _market(s: GameState, **changes: Any) -> GameState:
    return evolve(s, market=evolve(s.market or Market(), **changes))


@on("TradeProposed")
def _trade_proposed(s: GameState, d: dict) -> GameState:
    m = s.market or Market()
    offer = Offer(id=d["offer"], frm=d["from"], to=d["to"], give=tuple(d["give"]), take=tuple(d["take"]), gold=d["gold"])
    return _market(s, offers=m.offers + (offer,), next_offer=max(m.next_offer, d["offer"] + 1))


def _drop_offer(s: GameState, d: dict) -> GameState:
    m = s.market or Market()
    return _market(s, offers=tuple(o for o in m.offers if o.id != d["offer"]))


for _name in ("TradeWithdrawn", "TradeRejected", "TradeAccepted"):
    _HANDLERS[_name] = _drop_offer


@on("PropertySoldToBank")
def _sold_to_bank(s: GameState, d: dict) -> GameState:
    p = s.player(d["seat"])
    asset = p.asset(d["card"])
    if asset is None:
        return s
    s = _remove_asset(s, d["seat"], d["card"])
    s = s.with_player(d["seat"], gold=s.player(d["seat"]).gold + d["gold"])
    return _to_discard(s, d["card"], _deck_of(s, asset.kind))


@on("GoldHidden")
def _gold_hidden(s: GameState, d: dict) -> GameState:
    m = s.market or Market()
    s = s.with_player(d["seat"], gold_hidden=True)
    return _market(s, hidden_at=m.hidden_at + ((d["seat"], s.player(d["seat"]).gold),))


@on("AuctionLotsLaid")
def _lots_laid(s: GameState, d: dict) -> GameState:
    cards = tuple(d["cards"])
    s = evolve(s, market_deck=s.market_deck[len(cards):])
    return _market(s, lots=(s.market.lots if s.market else ()) + cards, lots_laid=d.get("complete", True))


@on("AuctionStarted")
def _auction_started(s: GameState, d: dict) -> GameState:
    return _market(s, auction=Auction(host=d["host"], lot=d.get("card", ""), bidders=tuple(d["bidders"])))


@on("AuctionTied")
def _auction_tied(s: GameState, d: dict) -> GameState:
    a = s.market.auction
    stakes = {int(k): v for k, v in d["stakes"].items()}
    for seat, stake in stakes.items():
        s = s.with_player(seat, staked=stake)
    return _market(s, auction=evolve(a, bidders=tuple(d["seats"]), round=a.round + 1,
                                      stakes=tuple(sorted(stakes.items()))))


@on("AuctionWon")
def _auction_won(s: GameState, d: dict) -> GameState:
    s = _release(s, staked=0)
    s = s.with_player(d["seat"], gold=max(0, s.player(d["seat"]).gold - d["price"]))
    if d.get("card"):
        card = d["card"]
        p = s.player(d["seat"])
        s = s.with_player(d["seat"], assets=p.assets + (Asset(id=card, kind=d["kind"]),))
        s = _market(s, lots=tuple(c for c in s.market.lots if c != card))
    return _market(s, auction=None)


@on("AuctionFailed")
def _auction_failed(s: GameState, d: dict) -> GameState:
    s = _release(s, staked=0)  # 'the stakes on the table go back to the players' (p. 10)
    if d.get("card"):
        s = _market(s, lots=tuple(c for c in s.market.lots if c != d["card"]))
        s = _to_discard(s, d["card"], "market")
    if not d.get("dice"):
        s = _market(s, auction=None)
    return s


@on("HostDiceRolled")
def _host_dice(s: GameState, d: dict) -> GameState:
    a = s.market.auction if s.market else None
    if a is None:
        return s
    return _market(s, auction=evolve(a, bidders=tuple(d.get("tied") or a.bidders), round=a.round + 1))


@on("HostChosen")
def _host_chosen(s: GameState, d: dict) -> GameState:
    s = _release(evolve(s, host=d["seat"]), staked=0)
    if d.get("price"):
        s = s.with_player(d["seat"], gold=max(0, s.player(d["seat"]).gold - d["price"]))
    return _market(s, auction=None, host_done=True)


@on("GoldRevealed")
def _gold_revealed(s: GameState, d: dict) -> GameState:
    players = tuple(evolve(p, gold_hidden=False) for p in s.players)
    return evolve(s, players=players)


# ----------------------------------------------------------------------------- arena

def _arena(s: GameState, **changes: Any) -> GameState:
    return evolve(s, arena=evolve(s.arena or Arena(), **changes))


@on("InvitationSent")
def _invited(s: GameState, d: dict) -> GameState:
    a = s.arena or Arena()
    return _arena(s, invited=a.invited + (d["seat"],), awaiting=d["seat"])


@on("InvitationDeclined")
def _declined(s: GameState, d: dict) -> GameState:
    a = s.arena or Arena()
    return _arena(s, declined=a.declined + (d["seat"],), awaiting=-1)


def _entry(d: dict) -> Entry:
    return Entry(seat=d["seat"], fighter=d["fighter"], weapon=d.get("weapon", ""), armour=d.get("armour", ""),
                 special=d.get("special", ""))


@on("InvitationAccepted")
def _accepted(s: GameState, d: dict) -> GameState:
    a = s.arena or Arena()
    return _arena(s, entries=a.entries + (_entry(d),), awaiting=-1)


@on("FighterReplaced")
def _fighter_replaced(s: GameState, d: dict) -> GameState:
    a = s.arena
    entries = tuple(evolve(e, fighter=d["card"]) if e.seat == d["seat"] else e for e in a.entries)
    return _arena(s, entries=entries)


@on("BetsRevealed")
def _bets_revealed(s: GameState, d: dict) -> GameState:
    bets = tuple(sorted((int(k), tuple(sorted(v.items()))) for k, v in d["bets"].items()))
    return _arena(s, bets=bets, bets_done=True)


@on("FightOpened")
def _fight_started(s: GameState, d: dict) -> GameState:
    first, second = (arena_fight.Entrant(**e) for e in d["entries"])
    chosen = {seat: thaw(plan) for seat, plan in s.fight_plans}
    plans = tuple(plan_from_json(chosen.get(e.seat)) for e in (first, second))
    fight = arena_fight.start_fight(first, second, deck=s.cards.deck, fight_id=d["fight"], plans=plans)
    s = evolve(s, fight_plans=())
    if d.get("tournament"):
        return evolve(s, tournament=evolve(s.tournament, fight=fight))
    return _arena(s, fight=fight)


@on("FightPlanChosen")
def _fight_plan_chosen(s: GameState, d: dict) -> GameState:
    """A fighter's plan, set when its dominus accepts the invitation (or until the fight begins)."""
    plans = tuple((seat, plan) for seat, plan in s.fight_plans if seat != d["seat"])
    if d.get("plan") is not None:
        plans += ((d["seat"], freeze(d["plan"])),)
    return evolve(s, fight_plans=plans)


@on("FightSettled")
def _fight_ended(s: GameState, d: dict) -> GameState:
    if d.get("tournament"):
        t = s.tournament
        return evolve(s, tournament=evolve(t, fight=None, entries=(), current=(),
                                             winners=t.winners + (d["winner_seat"],)))
    return _arena(s, fight=None, result=freeze({k: v for k, v in d.items()}))


@on("BetsSettled")
def _bets_settled(s: GameState, d: dict) -> GameState:
    players = list(s.players)
    for seat_s, delta in d["net"].items():
        seat = int(seat_s)
        players[seat] = evolve(players[seat], gold=max(0, players[seat].gold + delta))
    s = evolve(s, players=tuple(players))
    return _arena(s, settled=True)


@on("VerdictGiven")
def _verdict(s: GameState, d: dict) -> GameState:
    return _arena(s, verdict_done=True)


@on("HostHonoured")
def _host_honoured(s: GameState, d: dict) -> GameState:
    return _arena(s, honoured=True)


@on("TributePaid")
def _tribute_paid(s: GameState, d: dict) -> GameState:
    return _arena(s, tribute_paid=True)


@on("BetsWindowOpened")
def _bets_window(s: GameState, d: dict) -> GameState:
    return _arena(s, bets_window=True)


@on("ArenaClosed")
def _arena_closed(s: GameState, d: dict) -> GameState:
    return evolve(_arena(s, done=True), fight_plans=())


# ----------------------------------------------------------------------------- tournament

@on("TournamentStarted")
def _tournament_started(s: GameState, d: dict) -> GameState:
    s = _release(s, committed=0, staked=0)
    return evolve(s, stage="tournament", tournament=Tournament(seats=tuple(d["seats"])), windows=(), prompts=(),
                   resolutions=(), sealed=None)


@on("TournamentRanked")
def _tournament_ranked(s: GameState, d: dict) -> GameState:
    t = s.tournament
    return evolve(s, tournament=evolve(t, order=tuple(d["order"]), matches=tuple(tuple(m) for m in d["matches"]),
                                         ranked=True))


@on("TournamentMatchStarted")
def _match_started(s: GameState, d: dict) -> GameState:
    t = s.tournament
    return evolve(s, tournament=evolve(t, current=tuple(d["seats"]), matches=t.matches[1:], entries=()))


@on("TournamentFighterChosen")
def _t_fighter(s: GameState, d: dict) -> GameState:
    t = s.tournament
    return evolve(s, tournament=evolve(t, entries=t.entries + (_entry(d),)))


@on("TournamentMatchForfeited")
def _forfeit(s: GameState, d: dict) -> GameState:
    t = s.tournament
    return evolve(s, tournament=evolve(t, current=(), entries=(), winners=t.winners + (d["winner"],)))


@on("TournamentNextRound")
def _t_next(s: GameState, d: dict) -> GameState:
    t = s.tournament
    return evolve(s, tournament=evolve(t, matches=t.matches + tuple(tuple(m) for m in d["matches"]), winners=(),
                                       stage_no=t.stage_no + 1))


__all__ = ["apply", "apply_any", "card_key"]


@on("StageChanged")
def _stage_changed(s: GameState, d: dict) -> GameState:
    return evolve(s, stage=d["stage"])


@on("TournamentDiceRolled")
def _t_dice(s: GameState, d: dict) -> GameState:
    t = s.tournament
    rolls = {seat: r for seat, r in t.rolls}
    for seat_s, roll in d["rolls"].items():
        rolls[int(seat_s)] = tuple(rolls.get(int(seat_s), ())) + (roll,)
    return evolve(s, tournament=evolve(t, rolls=tuple(sorted(rolls.items()))))


# ----------------------------------------------------------------------------- earlier rules

def _closes_window(event: Event, following: Event | None) -> tuple[tuple[Event, ...], bool] | None:
    """A ``ReactionPassed`` or ``WindowRoundEnded`` of version 1 and the ``WindowClosed`` of the
    same window right after it are one event of version 2 with ``closed`` (and the moment)."""
    if event.version >= EVENT_VERSIONS[event.type]:
        return None
    if following is not None and following.type == "WindowClosed" and \
            following.data.get("window") == event.data.get("window"):
        return (at_version(event, EVENT_VERSIONS[event.type], closed=True,
                           moment=following.data.get("moment")),), True
    return (at_version(event, EVENT_VERSIONS[event.type]),), False


#: The game's rewrites of events recorded by earlier rules (type -> rewrite); the fights it
#: nests have their own (:data:`engine.spartacus.arena.events.REWRITES`).
REWRITES: dict[str, Rewrite] = {"ReactionPassed": _closes_window, "WindowRoundEnded": _closes_window}
#: Stored game events in the current vocabulary (:mod:`engine.core.upcast`).
upcast = chain(rewriter(REWRITES), arena_events.upcast)
