"""A dominus's greedy sense: the Spartacus bots' rollout policy and the *easy* bot.

It answers the decisions the engine lists (never anything else, so every answer is a legal
command) with simple greedy rules a casual player would follow: play the scheme worth most
on the dominus it hurts most or on yourself when it helps, foil what hurts you, keep gold
for upkeep, bid up to a card's worth, send your strongest fighter, let the fight plans
fight.  It reads the state it is given: the bots give it only a world sampled from their
own view (:mod:`engine.spartacus.game.bot`), never the real table; the balance tool gives it
the real table, where every seat is such a bot.  Randomness comes from the injected
generator, so a game is reproducible from its seed.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Optional

from engine.core.types import Command, Decision
from engine.spartacus.game.cards import market_card_or_none
from engine.spartacus.game.effects import affordable, candidates
from engine.spartacus.game.state import WIN_INFLUENCE, GameState, thaw

#: Scheme effects that help the dominus they land on (the rest hurt).
_HELPS = {"gain_gold", "gain_influence", "draw", "gold_per_ready", "favour"}


class HeuristicBot:
    """Answers any Spartacus decision; one instance plays every seat of a game."""

    def __init__(self, rng: Any) -> None:
        self.rng = rng

    # ------------------------------------------------------------------ dispatch

    def answer(self, s: GameState, d: Decision) -> Command:
        key = d.prompt_key
        handler = getattr(self, "_" + key.replace(".", "_"), None)
        if key.startswith("react_"):
            handler = self._react
        elif key.startswith("choose_") and key != "choose_house":
            handler = self._choose_card
        elif key.startswith("spartacus_arena."):
            return d.default  # the default fight plan answers this and every later fight decision
        if handler is None:
            return d.default
        return handler(s, d)

    # ------------------------------------------------------------------ judging

    def threat(self, s: GameState, seat: int) -> float:
        """How much hurting ``seat`` is worth: the leaders most."""
        infl = [p.influence for p in s.players]
        return 1.0 + max(0.0, (s.player(seat).influence - sum(infl) / len(infl))) / 2.0 + (
            1.5 if s.player(seat).influence >= WIN_INFLUENCE - 2 else 0.0)

    def scheme_value(self, s: GameState, me: int, card: str, target: int) -> float:
        c = s.cards.intrigue_card(card)
        total = 0.0
        for eff in c.effects:
            op = eff["op"]
            who = me if eff.get("who", "target") == "actor" else target
            amount = eff.get("amount", eff.get("count", 0))
            amount = 0 if amount == "x" else amount
            mine = who == me
            weight = 1.0 if mine else -self.threat(s, who) * 0.5
            p = s.player(who)
            if op == "gain_gold":
                total += amount * (1.0 if mine else -0.3)
            elif op == "gain_influence":
                total += amount * (10.0 if mine else -6.0 * self.threat(s, who))
            elif op == "lose_influence":
                total += amount * (-10.0 if mine else 6.0 * self.threat(s, who))
            elif op in ("lose_gold", "pay_gold"):
                lost = min(amount, p.gold)
                total += -lost if mine else 0.6 * lost
            elif op == "pay_each":
                total -= amount * (s.seats - 1)
            elif op == "take_gold":
                if target != me:
                    taken = min(amount, s.player(target).gold)
                    total += taken * (1.0 + 0.3 * self.threat(s, target))
            elif op == "gold_per_ready":
                n = sum(1 for _ in candidates(s, who, eff["kind"]))
                total += amount * n * (1.0 if mine else -0.3)
            elif op == "draw":
                total += 2.0 * amount * weight
            elif op in ("discard_property", "exhaust_property", "injure"):
                n = len(candidates(s, who, eff["kind"]))
                worth = {"discard_property": 3.0, "exhaust_property": 1.0, "injure": 2.5}[op]
                if n:
                    total += -worth if mine else worth * self.threat(s, who)
            elif op == "favour":
                if candidates(s, who, "gladiator"):
                    total += 3.0 if mine else -2.0
            elif op == "discard_hand":
                total += -1.5 * min(amount, len(p.hand)) * (1 if mine else -self.threat(s, who))
        return total

    def fighter_strength(self, s: GameState, card: str) -> int:
        m = s.cards.market_card(card)
        return m.attack + m.defence + m.speed + (1 if m.kind == "gladiator" else 0)

    def equipment_worth(self, s: GameState, card: str) -> int:
        return s.cards.market_card(card).value if card else 0

    def reserve(self, s: GameState, seat: int) -> int:
        """Gold to keep back for next upkeep."""
        p = s.player(seat)
        glads = sum(1 for a in p.assets if a.kind == "gladiator")
        slaves = sum(1 for a in p.assets if a.kind == "slave")
        return max(0, glads - slaves) + 1

    def _asset_value(self, s: GameState, card: str) -> int:
        m = market_card_or_none(s.cards, card)
        return m.value if m is not None else s.cards.intrigue_card(card).gold

    # ------------------------------------------------------------------ setup and upkeep

    def _heal_reroll(self, s: GameState, d: Decision) -> Command:
        return d.options[-1]

    def _accounts(self, s: GameState, d: Decision) -> Command:
        return d.default  # pay what can be paid, release the cheapest gladiators for the rest

    # ------------------------------------------------------------------ intrigue

    def _intrigue_turn(self, s: GameState, d: Decision) -> Command:
        me = d.seat
        p = s.player(me)
        opts = list(d.options)
        by_type: dict[str, list[Command]] = {}
        for o in opts:
            by_type.setdefault(o.type, []).append(o)
        for o in by_type.get("use_card_ability", ()):
            ab = s.cards.market_card(o.args["card"]).abilities[o.args["ability"]]
            if ab.op not in ("peek_hand", "exhaust_peek_hand", "replace_hand"):
                return o
        for o in by_type.get("place_guard", ()):
            return o
        best: Optional[Command] = None
        best_value = 0.0
        for o in by_type.get("play_scheme", []) + self._support_requests(s, me):
            # equal values are broken at random: never "the lowest seat first"
            value = self.scheme_value(s, me, o.args["card"], o.args["target"]) + self.rng.random() * 1e-3
            value -= s.cards.intrigue_card(o.args["card"]).gold * 0.5
            if o.type == "request_support":
                value = value * 0.6 - 0.5 * len(o.args["from"])
            if value > best_value + 1e-9:
                best, best_value = o, value
        ability = self._house_ability(s, me, by_type.get("use_house_ability", ()))
        if ability is not None:
            return ability
        if best is not None:
            return best
        # nothing worth playing: turn unplayable schemes into gold when short of it
        if p.gold < self.reserve(s, me) + 2:
            for o in by_type.get("sell_intrigue_card", ()):
                c = s.cards.intrigue_card(o.args["card"])
                if c.type == "scheme" and c.influence > p.influence + 3:
                    return o
        return Command(me, "end_turn", {})

    def _support_requests(self, s: GameState, me: int) -> list[Command]:
        """Requests for the schemes just out of reach, to the smallest groups that cover them
        (asking is a free action of the turn; this bot never bluffs, and asks once per card
        and turn)."""
        p = s.player(me)
        if s.turn is None or s.turn.seat != me or s.turn.support is not None:
            return []
        others = [x for x in range(s.seats) if x != me]
        out = []
        for card in p.hand:
            c = s.cards.intrigue_card(card)
            if (c.type != "scheme" or p.influence >= c.influence or not affordable(s, me, c.effects)
                    or card in s.turn.asked_with):
                continue
            for k in range(1, len(others) + 1):
                groups = [g for g in combinations(others, k)
                          if p.influence + sum(s.player(x).influence for x in g) >= c.influence]
                if groups:
                    out.extend(Command(me, "request_support", {"card": card, "target": target, "from": list(g)})
                               for target in range(s.seats) for g in groups)
                    break
        return out

    def _supported(self, s: GameState, d: Decision) -> Command:
        return next((o for o in d.options if o.type == "play_scheme"), d.default)

    def _house_ability(self, s: GameState, me: int, options: list[Command]) -> Optional[Command]:
        if not options:
            return None
        p = s.player(me)
        ready = {k: len(candidates(s, me, k)) for k in ("gladiator", "slave", "guard")}
        near = p.influence >= WIN_INFLUENCE - 3
        for o in options:
            ab = o.args["ability"]
            if ab == "batiatus_training" and ready["gladiator"] >= 3:
                return o
            if ab == "batiatus_spectacle" and (ready["gladiator"] >= 4 or (near and ready["gladiator"] >= 3)):
                return o
            if ab == "glaber_informants" and ready["guard"] >= 3 and self.rng.random() < 0.5:
                return o
            if ab == "glaber_legion" and (ready["guard"] >= 4 or (near and ready["guard"] >= 3)):
                return o
            if ab == "tullius_messengers" and any(
                    s.cards.intrigue_card(c).type == "scheme" and s.cards.intrigue_card(c).influence > p.influence + 2
                    for c in p.hand):
                return o
            if ab == "tullius_gift" and (ready["slave"] >= 4 or (near and ready["slave"] >= 3)):
                return o
            if ab == "solonius_patronage" and (near or (ready["gladiator"] >= 3 and ready["slave"] >= 3)):
                return o
        bribes = [o for o in options if o.args["ability"] == "solonius_bribes"]
        if bribes and (s.turn is None or s.turn.discount == 0):
            for card in p.hand:
                c = s.cards.intrigue_card(card)
                gap = c.influence - p.influence
                if c.type == "scheme" and 0 < gap <= 3 and p.gold >= gap + self.reserve(s, me):
                    targets = range(s.seats)
                    if max(self.scheme_value(s, me, card, t) for t in targets) > gap + 2:
                        for o in bribes:
                            if o.args["x"] == gap:
                                return o
        return None

    def _hand_limit(self, s: GameState, d: Decision) -> Command:
        me = d.seat
        return min(d.options, key=lambda o: (self.keep_value(s, me, o.args["card"]), o.args["card"]))

    def keep_value(self, s: GameState, me: int, card: str) -> float:
        c = s.cards.intrigue_card(card)
        infl = s.player(me).influence
        if c.type == "guard":
            return 3.0
        if c.type == "reaction":
            return 4.0 if infl >= c.influence else 1.0 + c.gold * 0.2
        best = max(self.scheme_value(s, me, card, t) for t in range(s.seats))
        reach = 1.0 if infl >= c.influence else 0.6 if infl + 2 >= c.influence else 0.2
        return best * reach + c.gold * 0.3

    def _support(self, s: GameState, d: Decision) -> Command:
        asker = d.prompt_args.get("asker", -1)
        grant = s.player(asker).influence <= WIN_INFLUENCE - 4 and self.rng.random() < 0.5
        return d.options[0] if grant else d.options[1]

    # ------------------------------------------------------------------ reactions

    def _react(self, s: GameState, d: Decision) -> Command:
        me = d.seat
        w = s.windows[-1]
        plays = [o for o in d.options if o.type == "play_reaction"]
        guards = [o for o in d.options if o.type == "use_guard"]
        rerolls = [o for o in d.options if o.type == "reroll_guard"]
        if rerolls:
            return rerolls[0]
        if w.moment == "scheme" and w.subject is not None:
            target, schemer = w.subject.target, w.subject.seat
            value_to_target = self.scheme_value(s, schemer, w.subject.card, target)
            hurts_me = target == me and value_to_target > 0 and target != schemer
            helps_leader = (target == schemer and value_to_target >= 5
                            and s.player(schemer).influence >= WIN_INFLUENCE - 3)
            if hurts_me or helps_leader:
                if plays:
                    return min(plays, key=lambda o: s.cards.intrigue_card(o.args["card"]).gold)
                if hurts_me and guards:
                    table = [o for o in guards if s.player(me).asset(o.args["card"]) is not None]
                    return (table or guards)[0]
            return d.default
        if w.moment == "reaction":
            return d.default
        if w.moment == "bets_placed":
            arena = s.arena
            mine = [e for e in arena.entries if e.seat == me]
            theirs = [o for o in plays if o.args["target"] != me]
            if theirs and (mine or self.rng.random() < 0.3):
                return self.rng.choice(theirs)
            return d.default
        if plays:
            # moments: left without gold, a scheme succeeded, a fighter died -- hurt the leader
            return max(plays, key=lambda o: (self.threat(s, o.args["target"]) if o.args["target"] >= 0 else 0,
                                             o.args["target"] != me, self.rng.random()))
        return d.default

    # ------------------------------------------------------------------ prompts

    def _choose_card(self, s: GameState, d: Decision) -> Command:
        me = d.seat
        kind = d.prompt_key[len("choose_"):]
        real = [o for o in d.options if o.args["card"]]
        if not real:
            return d.options[0]
        if kind in ("discard_hand",):
            return min(real, key=lambda o: self.keep_value(s, me, o.args["card"]))
        if kind == "replace_hand":
            worst = min(real, key=lambda o: self.keep_value(s, me, o.args["card"]))
            if self.keep_value(s, me, worst.args["card"]) < 2.0:
                return worst
            return d.options[0]
        if kind in ("favour", "replace_fighter"):
            return max(real, key=lambda o: (self.fighter_strength(s, o.args["card"]), o.args["card"]))
        return min(real, key=lambda o: (self._asset_value(s, o.args["card"]), o.args["card"]))

    # ------------------------------------------------------------------ market

    def _hide_gold(self, s: GameState, d: Decision) -> Command:
        return d.options[0]

    def _bid(self, s: GameState, d: Decision) -> Command:
        me = d.seat
        top = d.schema["properties"]["amount"]["maximum"]
        a = s.market.auction
        if a.round > 1:
            amount = 1 if self.rng.random() < 0.5 else 0
            return Command(me, "place_bid", {"amount": min(amount, top)})
        m = s.cards.market_card(a.lot)
        p = s.player(me)
        glads = sum(1 for x in p.assets if x.kind == "gladiator")
        slaves = sum(1 for x in p.assets if x.kind == "slave")
        if m.kind == "gladiator":
            worth = m.value * (0.9 if glads < 3 else 0.5)
        elif m.kind == "slave":
            worth = m.value * (1.2 if slaves <= glads else 0.7) + (1 if m.abilities else 0)
        else:
            worth = m.value * (0.7 if glads else 0.2)
        budget = max(0, p.gold - self.reserve(s, me))
        amount = int(min(budget, round(worth * self.rng.uniform(0.6, 1.2)), top))
        return Command(me, "place_bid", {"amount": max(0, amount)})

    def _host_bid(self, s: GameState, d: Decision) -> Command:
        me = d.seat
        top = d.schema["properties"]["amount"]["maximum"]
        a = s.market.auction
        if a.round > 1:
            return Command(me, "place_bid", {"amount": min(1 if self.rng.random() < 0.5 else 0, top)})
        p = s.player(me)
        budget = max(0, p.gold - self.reserve(s, me))
        want = self.rng.randint(1, 4) + (1 if p.influence >= WIN_INFLUENCE - 2 else 0)
        return Command(me, "place_bid", {"amount": min(budget, want, top)})

    # ------------------------------------------------------------------ arena

    def best_fighter(self, s: GameState, seat: int) -> int:
        fighters = candidates(s, seat, "fighter")
        return max((self.fighter_strength(s, c) for c in fighters), default=0)

    def _invite(self, s: GameState, d: Decision) -> Command:
        me = d.seat
        others = [o for o in d.options if o.args["seat"] != me and self.best_fighter(s, o.args["seat"])]
        own = [o for o in d.options if o.args["seat"] == me]
        entered = [e.seat for e in s.arena.entries]
        if own and self.best_fighter(s, me) and (entered or not others):
            return own[0]
        if others:
            return min(others, key=lambda o: (self.best_fighter(s, o.args["seat"]), self.rng.random()))
        return own[0] if own else d.options[0]

    def _entry(self, s: GameState, options: list[Command]) -> Command:
        return max(options, key=lambda o: (
            self.fighter_strength(s, o.args["fighter"]) * 3
            + sum(self.equipment_worth(s, o.args[k]) for k in ("weapon", "armour", "special"))
            - 2 * s.player(o.seat).asset(o.args["fighter"]).favour,  # spare the favourites
            o.args["fighter"]))

    def _invitation(self, s: GameState, d: Decision) -> Command:
        accepts = [o for o in d.options if o.type == "accept_invitation"]
        return self._entry(s, accepts) if accepts else d.default

    def _tournament_fighter(self, s: GameState, d: Decision) -> Command:
        return self._entry(s, list(d.options))

    def _bets(self, s: GameState, d: Decision) -> Command:
        me = d.seat
        props = d.schema["properties"]
        p = s.player(me)
        spare = p.gold - self.reserve(s, me) - 1
        if spare <= 0:
            return Command(me, "place_bets", {})
        entries = s.arena.entries
        strengths = [self.fighter_strength(s, e.fighter) for e in entries]
        own = [i for i, e in enumerate(entries) if e.seat == me]
        if own:
            pick = own[0]
        elif strengths[0] != strengths[1]:
            pick = 0 if strengths[0] > strengths[1] else 1
        else:
            pick = self.rng.randrange(2)
        kind = "winner_i" if pick == 0 else "winner_ii"
        amount = min(props[kind]["maximum"], spare, 3 if own else 2)
        return Command(me, "place_bets", {kind: amount} if amount > 0 else {})

    def _verdict(self, s: GameState, d: Decision) -> Command:
        res = thaw(s.arena.result)
        down = [o for o in d.options if o.args["thumb"] == "down"]
        loser = res["loser_seat"]
        asset = s.player(loser).asset(res["loser_card"])
        if down and loser != d.seat and asset is not None and asset.favour == 0 and (
                self.threat(s, loser) > 1.5 or self.rng.random() < 0.5):
            return down[0]
        return d.options[0]

