"""Tempo: how many calendar days a game by email takes, before and after the fair-play work.

Whole games are played on a simulated calendar with every seat human.  Each player reads
their mail after a delay drawn from a response model (awake hours only, median a few
hours, some deadlines missed) and answers everything the game asks of them in that visit;
a deadline that passes first is answered by the decision's default, as the server does.
The service's policy around the players is simulated too:

* **before** -- the engine at :data:`BEFORE` (the commit before issue 11), every decision
  on the game's decision clock, no automatic answers but the players' standing orders;
* **after** -- the engine of this tree (windows that ask every seat in principle and
  re-open, fight plans set with the invitation, one-command turns), window answers
  (``interrupt`` decisions) on the window clock, and decisions whose single answer follows
  from public information (:func:`engine.core.game.forced_answer`) answered at once;
* **rules** -- this tree's engine under the policy of *before*, which separates what the
  rule corrections changed (rounds per game, who is asked) from what the clocks save.

Both use the same response model, the same player profiles (seeded per game) and the
standing orders the docs recommend (:func:`recommended_orders`, ``docs/fair-play.md``).
The players' choices come from the Spartacus heuristic bot (``tools/spartacus_bot.py``) and
the generic random bot for PAX and Rom; in a fight a player either has the fight plan fight
(most) or answers blow-by-blow with the engine's suggested answer.

The engine before is checked out into a temporary git worktree and measured in a
subprocess that puts it first on ``sys.path``; this file runs there unchanged, so it only
uses what both engines offer.  Results go to the "Tempo" section of ``bench/RESULTS.md``.

    .venv/bin/python -m bench.tempo                       # the recorded run
    .venv/bin/python -m bench.tempo --games 6 --no-write  # a smoke run
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"
SECTION = "Tempo"

#: The commit before issue 11's work: the engine "before".
BEFORE = "7529dcb"

#: (game, seats, options) measured, and the games per configuration of the recorded run.
CONFIGS: tuple[tuple[str, int, dict], ...] = (
    ("spartacus", 3, {}),
    ("spartacus", 4, {}),
    ("pax", 2, {}),
    ("pax", 4, {}),
    ("rom", 4, {}),
)

#: Default decision clock (``CAPUA_DEFAULT_CLOCK_HOURS``) and the window clock's share of it.
DECISION_CLOCK_HOURS = 24.0
WINDOW_CLOCK_SHARE = 1 / 6



def recommended_orders() -> dict[str, list[dict]]:
    """The standing orders ``docs/fair-play.md`` recommends (this tree's
    ``service.play.standing_orders.RECOMMENDED``), by game type: every player keeps them, in
    both runs, so the response model is the same."""
    from service.play.standing_orders import RECOMMENDED

    out: dict[str, list[dict]] = {}
    for order in RECOMMENDED:
        out.setdefault(order["game_type"], []).append(order["rule"])
    return out


# ----------------------------------------------------------------------------- response model

@dataclass(frozen=True)
class Player:
    """When one player is awake, how fast they read mail, how often they miss a deadline.

    Hours are hours of the simulated calendar (0 = Monday midnight); ``bed`` may pass 24
    (asleep after midnight).  A visit comes ``lognormal(median, sigma)`` awake hours after
    the mail; with probability ``miss`` the player does not come before the deadline.
    """

    wake: float
    bed: float
    median: float
    sigma: float
    miss: float
    blow_by_blow: bool

    @classmethod
    def draw(cls, rng: random.Random) -> "Player":
        return cls(wake=rng.uniform(6.5, 9.0), bed=rng.uniform(22.0, 25.0), median=rng.uniform(2.0, 4.5),
                   sigma=1.0, miss=rng.uniform(0.03, 0.12), blow_by_blow=rng.random() < 0.25)

    def awake_after(self, start: float, hours: float) -> float:
        """The moment ``hours`` of this player's awake time have passed after ``start``."""
        t = start
        left = hours
        day = math.floor(t / 24) - 1
        while True:
            lo, hi = day * 24 + self.wake, day * 24 + self.bed
            if t < hi:
                t = max(t, lo)
                if t + left <= hi:
                    return t + left
                left -= hi - t
            day += 1
            t = max(t, day * 24 + self.wake)

    def visit_after(self, start: float, rng: random.Random) -> float:
        """When this player next acts on mail that arrived at ``start`` (``inf``: not in time)."""
        if rng.random() < self.miss:
            return math.inf
        return self.awake_after(start, rng.lognormvariate(math.log(self.median), self.sigma))


# ----------------------------------------------------------------------------- one game


@dataclass
class Asked:
    seat: int
    key: str
    opened: float
    deadline: float
    arena: bool


@dataclass
class Tally:
    """What one simulated game measured."""

    hours: float = 0.0
    rounds: int = 0
    asked: list[int] = field(default_factory=list)
    handoffs: int = 0
    auto: int = 0
    ordered: int = 0
    defaults: int = 0
    window_defaults: int = 0
    fights: list[dict] = field(default_factory=list)
    happened: dict[str, int] = field(default_factory=dict)
    presets: int = 0

    def to_json(self) -> dict:
        return {"days": self.hours / 24, "rounds": self.rounds, "asked": self.asked, "handoffs": self.handoffs,
                "auto": self.auto, "ordered": self.ordered, "defaults": self.defaults,
                "window_defaults": self.window_defaults, "fights": self.fights, "happened": self.happened,
                "presets": self.presets}


#: Events counted per game, to see where rounds go: schemes played and foiled, guards and
#: reactions played, influence changing hands.
COUNTED = ("SchemePlayed", "SchemeFoiled", "ReactionPlayed", "ReactionFoiled", "InfluenceGained", "InfluenceLost")


@dataclass(frozen=True)
class PresetHabits:
    """Which one-click standing-order presets a player gives, and when (run *presets*).

    Drawn from their own random stream, so the players of every run stay the same.
    ``phase_passer``: answering a window where they have nothing to play, they click "pass
    on everything this phase" in the mail instead of "pass".  ``picky_bidder``: the first
    time they bid 0 on equipment, they click "bid 0 unless the lot is a gladiator, a slave or the host marker".
    """

    phase_passer: bool
    picky_bidder: bool

    @classmethod
    def draw(cls, rng: random.Random) -> "PresetHabits":
        return cls(phase_passer=rng.random() < 0.6, picky_bidder=rng.random() < 0.3)


class Table:
    """One game on the calendar: the engine, the players, the server's policy."""

    START = 9.0  # Monday, 09:00: the last seat has just accepted

    def __init__(self, game: str, seats: int, options: dict, seed: int, policy: str,
                 orders: dict[str, list[dict]]) -> None:
        from engine import registry
        from engine.core import game as kernel
        from engine.core.bots import choose
        from engine.core.playout import resolve_chance_command

        self.rules = registry.get(game)
        self.kernel = kernel
        self.choose = choose
        self.resolve_chance = resolve_chance_command
        self.game = game
        self.seats = seats
        self.policy = policy
        self.forced: Optional[Callable] = getattr(kernel, "forced_answer", None) if policy != "before" else None
        profiles = random.Random(f"players:{seed}")
        self.players = [Player.draw(profiles) for _ in range(seats)]
        habits = random.Random(f"presets:{seed}")
        self.habits = [PresetHabits.draw(habits) for _ in range(seats)]
        self.seat_orders: dict[int, list[dict]] = {seat: [] for seat in range(seats)}
        self.mail = random.Random(f"mail:{seed}")
        self.moves = random.Random(f"moves:{seed}")
        self.chance = random.Random(f"chance:{seed}")
        self.bot = _spartacus_bot(self.moves) if game == "spartacus" else None
        self.check_rule, self.answer_for = _standing_orders()
        # runs "bare": players who keep no standing order (not even the recommended ones); an
        # order the measured tree cannot express (the engine before issue 11 knew no order that
        # reads the hand) is left out of that tree's runs
        self.orders = []
        for rule in [] if policy in BARE else orders.get(game, []):
            try:
                self.orders.append(self.check_rule(rule))
            except Exception:  # the tree's own InvalidInput: an order it does not understand
                continue
        if policy == "guarded":
            guards = random.Random(f"guards:{seed}")
            for seat in range(seats):
                if guards.random() < 0.5:
                    self.seat_orders[seat].append(self.check_rule(GUARD_WHEN_TARGETED))
        if policy in TOGETHER:  # the house rule "all at once": a window asks its seats together
            options = {**options, "reactions": "together"}
        self.state = self.rules.initial_state(seats, dict(options))
        self.now = self.START
        self.asked: dict[tuple[str, int], Asked] = {}
        self.visits: dict[int, float] = {}
        self.tally = Tally(asked=[0] * seats)
        self.fight: Optional[dict] = None
        self.planned: set[tuple[str, int]] = set()

    # -- the server -----------------------------------------------------------------------

    def clock(self, decision: Any) -> float:
        if self.policy not in ("before", "slow_windows") and decision.mode == "interrupt":
            # the window's target answers on the decision clock (service.plumbing.clock.clock_mode)
            if (getattr(decision, "prompt_args", None) or {}).get("target") == decision.seat:
                return DECISION_CLOCK_HOURS
            return DECISION_CLOCK_HOURS * WINDOW_CLOCK_SHARE
        return DECISION_CLOCK_HOURS

    def submit(self, command: Any, fallback: Any = None) -> None:
        from engine.core.errors import RuleViolation

        try:
            self.state, events = self.kernel.step(self.rules, self.state, command)
        except RuleViolation:
            if fallback is None:
                raise
            self.state, events = self.kernel.step(self.rules, self.state, fallback)
        for event in events:
            self.observe(event)

    def settle(self) -> None:
        """What the server does before anyone is asked: chance, forced answers, standing orders."""
        for _ in range(10_000):
            if self.rules.outcome(self.state) is not None:
                return
            command = self.resolve_chance(self.rules, self.state, self.chance.randrange)
            if command is not None:
                self.submit(command)
                continue
            pending = self.rules.pending(self.state)
            for decision in pending.blocking:
                forced = self.forced(decision, pending.decisions) if self.forced is not None else None
                if forced is not None:
                    self.tally.auto += 1
                    self.submit(forced)
                    break
                ordered = self.standing_answer(decision)
                if ordered is not None:
                    self.tally.ordered += 1
                    self.submit(ordered, decision.default)
                    break
            else:
                return
        raise RuntimeError("the server kept answering by itself")

    def standing_answer(self, decision: Any) -> Any:
        if decision.mode == "free":
            return None
        for rule in self.orders:
            command = self.answer_for(rule, decision)
            if command is not None:
                return command
        for rule in self.seat_orders[decision.seat]:
            command = self.answer_for(rule, decision, self.phase)
            if command is not None:
                return command
        return None

    def phase(self) -> Optional[dict]:
        from service.play.standing_orders import phase_key

        return phase_key(self.rules, self.state)

    def give_preset(self, seat: int, decision: Any, answer: Any) -> None:
        """Run *presets*: the one-click order a player gives instead of answering ``decision``
        with ``answer`` by hand, when their habits say so (the order answers it at once)."""
        from service.play import presets

        habits = self.habits[seat]
        if decision.mode == "interrupt" and habits.phase_passer and answer == decision.default \
                and len(decision.options or ()) == 1:
            self.seat_orders[seat].append(self.check_rule(presets.rule_for("pass_this_phase", None, self.phase())))
            self.tally.presets += 1
        elif decision.prompt_key == "bid" and habits.picky_bidder and not answer.args.get("amount") \
                and decision.prompt_args.get("card_type") not in ("gladiator", "slave") \
                and not any("unless" in r for r in self.seat_orders[seat]):
            self.seat_orders[seat].append(self.check_rule(presets.rule_for(
                "bid_zero_unless", None, None, ["gladiator", "slave", "host"])))
            self.tally.presets += 1

    def observe(self, event: Any) -> None:
        if event.type in COUNTED:
            self.tally.happened[event.type] = self.tally.happened.get(event.type, 0) + 1
        if event.type == "FightOpened":
            seats = sorted({e["seat"] for e in event.data.get("entries", [])})
            self.fight = {"opened": self.now, "seats": seats, "asked": 0, "handoffs": 0}
        elif event.type == "FightEnded" and self.fight is not None:
            self.fight["hours"] = self.now - self.fight.pop("opened")
            self.tally.fights.append(self.fight)
            self.fight = None

    # -- the players ----------------------------------------------------------------------

    def answer(self, decision: Any) -> Any:
        player = self.players[decision.seat]
        if decision.prompt_key.startswith("spartacus_arena.") and player.blow_by_blow:
            suggested = dict(decision.context).get("suggested")
            if suggested:
                from engine.core.types import Command

                return Command.from_json({**suggested, "seat": decision.seat})
        if self.bot is not None:
            return self.bot.answer(self.state, decision)
        return self.choose(decision, self.moves)

    def plan_to_set(self, pending: Any, seat: int) -> Any:
        """The fight-plan free action a player who lets plans fight takes as soon as it is offered
        (with the invitation where the engine offers it then, else at the fight's first question)."""
        if self.players[seat].blow_by_blow:
            return None
        for decision in pending.decisions:
            if (decision.seat == seat and decision.mode == "free" and decision.command_type == "set_fight_plan"
                    and dict(decision.context).get("plan") is None and (decision.id, seat) not in self.planned):
                return decision
        return None

    def session(self, seat: int) -> None:
        """The player reads the mail and answers all the game asks of them, until it waits for others."""
        from engine.core.errors import RuleViolation

        for _ in range(500):
            if self.rules.outcome(self.state) is not None:
                return
            pending = self.rules.pending(self.state)
            plan = self.plan_to_set(pending, seat)
            if plan is not None:
                self.planned.add((plan.id, seat))
                try:
                    self.submit(plan.default)
                except RuleViolation:
                    continue
                self.settle()
                continue
            mine = [d for d in pending.blocking if d.seat == seat]
            if not mine:
                return
            self.register()
            decision = mine[0]
            answer = self.answer(decision)
            if self.policy in ("presets", "guarded", "together_presets"):
                self.give_preset(seat, decision, answer)
            self.submit(answer, decision.default)
            self.settle()
        raise RuntimeError("a player's visit never ended")

    # -- the calendar ---------------------------------------------------------------------

    def register(self) -> set[int]:
        """Note every decision now asked of a player; return the seats the game waits for."""
        open_now = {(d.id, d.seat): d for d in self.rules.pending(self.state).blocking}
        for key in [k for k in self.asked if k not in open_now]:
            del self.asked[key]
        for key, decision in open_now.items():
            if key not in self.asked:
                arena = decision.prompt_key.startswith("spartacus_arena.")
                self.asked[key] = Asked(decision.seat, decision.prompt_key, self.now,
                                        self.now + self.clock(decision), arena)
                self.tally.asked[decision.seat] += 1
                if arena and self.fight is not None:
                    self.fight["asked"] += 1
        return {a.seat for a in self.asked.values()}

    def play(self) -> Tally:
        self.settle()
        waiting = self.register()
        for _ in range(200_000):
            if self.rules.outcome(self.state) is not None:
                break
            if not waiting:
                raise RuntimeError("the game waits for nobody")
            for seat in waiting:
                if seat not in self.visits:
                    self.visits[seat] = self.players[seat].visit_after(self.now, self.mail)
            seat, visit = min(((s, self.visits[s]) for s in waiting), key=lambda sv: sv[1])
            key, due = min(self.asked.items(), key=lambda kv: kv[1].deadline)
            if visit <= due.deadline:
                self.now = visit
                del self.visits[seat]
                actor = seat
                self.session(seat)
            else:
                self.now = due.deadline
                actor = due.seat
                decision = next(d for d in self.rules.pending(self.state).blocking if (d.id, d.seat) == key)
                self.tally.defaults += 1
                self.tally.window_defaults += decision.mode == "interrupt"
                self.submit(decision.default)
                self.settle()
                self.visits.pop(actor, None)  # the deadline mail: a fresh chance to come
            before = waiting
            waiting = self.register()
            if waiting - before - {actor}:
                self.tally.handoffs += 1
                if self.fight is not None:
                    self.fight["handoffs"] += 1
            for gone in [s for s in self.visits if s not in waiting]:
                del self.visits[gone]
        else:
            raise RuntimeError("the game did not end")
        self.tally.hours = self.now - self.START
        self.tally.rounds = int(self.rules.view(self.state, None).get("round") or 1)
        return self.tally


def _spartacus_bot(rng: random.Random) -> Any:
    sys.path.insert(0, str(_engine_root()))
    try:
        from tools.spartacus_bot import HeuristicBot
    finally:
        sys.path.pop(0)
    return HeuristicBot(rng)


def _engine_root() -> Path:
    import engine

    return Path(engine.__file__).resolve().parents[1]


def _standing_orders() -> tuple[Callable, Callable]:
    """``check_rule`` and ``answer_for`` of the measured tree's service."""
    for name in ("service.play.standing_orders", "service.standing_orders"):
        # the measured tree's own module: an editable install of another tree would
        # otherwise answer for a module the tree does not have
        if not (_engine_root() / (name.replace(".", "/") + ".py")).exists():
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        return module.check_rule, module.answer_for
    raise RuntimeError("no standing orders in this tree")


def play_many(game: str, seats: int, options: dict, games: int, policy: str, orders: dict) -> list[dict]:
    out = []
    for seed in range(games):
        tally = Table(game, seats, options, seed, policy, orders).play()
        out.append(tally.to_json())
    return out


# ----------------------------------------------------------------------------- the two runs


def _worker(policy: str, games: int, configs: list, orders: dict) -> dict:
    results = {}
    for game, seats, options in configs:
        t0 = time.perf_counter()
        results[f"{game}:{seats}"] = play_many(game, seats, options, games, policy, orders)
        print(f"  {policy}: {game} {seats} seats, {games} games in {time.perf_counter() - t0:.0f} s",
              file=sys.stderr, flush=True)
    return results


def _spawn(policy: str, tree: Path, games: int, configs: list, orders: dict, out: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(tree))
    code = ("import json, runpy, sys; sys.path.insert(0, sys.argv[1]); "
            "m = runpy.run_path(sys.argv[2]); "
            "json.dump(m['_worker'](sys.argv[3], int(sys.argv[4]), json.loads(sys.argv[5]), json.loads(sys.argv[6])), "
            "open(sys.argv[7], 'w'))")
    return subprocess.Popen([sys.executable, "-c", code, str(tree), __file__, policy, str(games),
                             json.dumps(configs), json.dumps(orders), str(out)], cwd=tree, env=env)


def _before_tree(tmp: Path) -> Path:
    tree = tmp / "before"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), BEFORE], check=True)
    return tree


def _drop_tree(tree: Path) -> None:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)


# ----------------------------------------------------------------------------- the report


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


#: The runs of the report: label of each.
RUNS = {"before": "before", "rules": "rules of after, clocks of before", "after": "after"}
#: The runs of ``--presets`` (the "Tempo: one-click presets" section): label of each.
PRESET_RUNS = {"before": "before", "after": "after",
               "slow_windows": "after, but windows on the decision clock",
               "presets": "after, players giving one-click presets",
               "guarded": "presets, and half the players guard when targeted",
               "together": "after, windows asking everyone at once (option reactions: together)",
               "together_presets": "together, players giving one-click presets",
               "bare": "after, players keeping no standing order",
               "together_bare": "together, players keeping no standing order"}
#: The runs whose games are created with the option ``reactions: together``.
TOGETHER = ("together", "together_presets", "together_bare")
#: The runs whose players keep no standing order, not even the recommended one.
BARE = ("bare", "together_bare")
#: The engine (``before``: the commit before; ``this``: this tree) and the server policy of each run.
RUN_POLICY = {"before": ("before", "before"), "rules": ("this", "before"), "after": ("this", "after"),
              "slow_windows": ("this", "slow_windows"), "presets": ("this", "presets"),
              "guarded": ("this", "guarded"), "together": ("this", "together"),
              "together_presets": ("this", "together_presets"), "bare": ("this", "bare"),
              "together_bare": ("this", "together_bare")}

#: The order ``docs/webhooks.md`` gives as an example of one that reads the hand, limited to
#: windows about its player: use a guard when targeted, else pass.  It always answers, at once
#: (pass is always legal), so when it answers never depends on the hand.
GUARD_WHEN_TARGETED = {"match": {"mode": "interrupt"}, "if": [{"path": "prompt_args.target", "eq": "$me"}],
                       "reads_hand": True, "answer": [{"type": "use_guard"}, {"default": True}]}
PRESETS_SECTION = "Tempo: one-click presets"


def summarize(games: list[dict], seats: int) -> dict:
    days = [g["days"] for g in games]
    rounds = [g["rounds"] for g in games]
    fights = [f for g in games for f in g["fights"]]
    fight_asks = [f["asked"] / max(1, len(f["seats"])) for f in fights]
    return {
        "games": len(games),
        "days_p50": statistics.median(days),
        "days_p90": _pct(days, 90),
        "rounds": statistics.fmean(rounds),
        "days_per_round": statistics.fmean(g["days"] / g["rounds"] for g in games),
        "handoffs_per_round": statistics.fmean(g["handoffs"] / g["rounds"] for g in games),
        "asked_per_player_round": statistics.fmean(sum(g["asked"]) / (seats * g["rounds"]) for g in games),
        "defaults_per_game": statistics.fmean(g["defaults"] for g in games),
        "fight_asks": statistics.fmean(fight_asks) if fights else None,
        "fight_handoffs": statistics.fmean(f["handoffs"] for f in fights) if fights else None,
        "fight_days_p50": statistics.median(f["hours"] / 24 for f in fights) if fights else None,
        "window_defaults": statistics.fmean(g.get("window_defaults", 0) for g in games),
        "presets": statistics.fmean(g.get("presets", 0) for g in games),
        **{kind: statistics.fmean(g.get("happened", {}).get(kind, 0) for g in games) for kind in COUNTED},
    }


def _cell(value: Optional[float], fmt: str) -> str:
    return "—" if value is None else format(value, fmt)


def report(results: dict[str, dict], games: int, seconds: float) -> str:
    lines = [
        f"## {SECTION}",
        "",
        f"Measured {dt.date.today().isoformat()} with `python -m bench.tempo` ({games} games per row and "
        f"engine, {seconds / 60:.0f} min on three processes). Simulated calendar play, every seat human: "
        "each player is awake from 6:30-9:00 to 22:00-01:00, reads mail a lognormal number of awake "
        "hours after it arrives (median 2-4.5 h per player, sigma 1), misses 3-12% of deadlines, and "
        "answers everything the game asks in that visit; a passed deadline plays the default. "
        f"Decision clock {DECISION_CLOCK_HOURS:.0f} h. A quarter of the players fight blow-by-blow "
        "(answering each question of a fight with the engine's suggestion), the others set a fight plan as "
        "soon as the game offers one (with the invitation where the engine allows it, else at the fight's "
        "first question). Every player keeps "
        "the standing order `docs/fair-play.md` recommends (Spartacus: pass on windows that are not about me).",
        "",
        f"*Before* is the engine at `{BEFORE}` with every decision on the decision clock. *After* is "
        f"this tree: windows ask every seat that could answer in principle, on a window clock of "
        f"{DECISION_CLOCK_HOURS * WINDOW_CLOCK_SHARE:.0f} h, decisions whose only answer follows "
        "from public information are answered at once, a fight plan may be set with the answer to the "
        "invitation, and a fighter's turn is one command. *Rules of after, clocks of before* plays this "
        "tree's engine with the old server policy (every decision on the decision clock, nothing "
        "answered by itself): it separates what the rule corrections since the commit before changed "
        "(how many rounds a game lasts, who is asked) from what the window clock and the automatic "
        "answers save.",
        "",
        "A hand-off is a moment the game starts waiting for a player who was not asked before, after "
        "somebody else answered (or a deadline passed): the sequential waits a game is made of. "
        "Decisions count what a player is asked (not what the server or a standing order answers).",
        "",
        "| game | seats | run | days p50 | days p90 | rounds | days per round | hand-offs per round | decisions per player per round | defaults per game | decisions per player per fight | hand-offs per fight | fight days p50 |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key in results["after"]:
        game, seats = key.split(":")
        for run, label in RUNS.items():
            s = summarize(results[run][key], int(seats))
            lines.append(
                f"| {game} | {seats} | {label} | {s['days_p50']:.1f} | {s['days_p90']:.1f} | {s['rounds']:.1f} | {s['days_per_round']:.1f} | "
                f"{s['handoffs_per_round']:.1f} | {s['asked_per_player_round']:.1f} | {s['defaults_per_game']:.1f} | "
                f"{_cell(s['fight_asks'], '.1f')} | {_cell(s['fight_handoffs'], '.1f')} | "
                f"{_cell(s['fight_days_p50'], '.2f')} |")
    if "spartacus:4" in results["after"]:
        b, r, a = (summarize(results[run]["spartacus:4"], 4) for run in ("before", "rules", "after"))
        lines += ["", f"A 4-player Spartacus game: median **{b['days_p50']:.1f} days before, {a['days_p50']:.1f} days "
                      f"after** ({a['days_p50'] / b['days_p50']:.2f}x); per round {b['days_per_round']:.1f} days before, "
                      f"{r['days_per_round']:.1f} with this tree's rules under the old clocks, {a['days_per_round']:.1f} "
                      f"after ({a['days_per_round'] / b['days_per_round']:.2f}x), over {b['rounds']:.1f}, "
                      f"{r['rounds']:.1f} and {a['rounds']:.1f} rounds."]
    return "\n".join(lines) + "\n"


def presets_report(results: dict[str, dict], games: int, seconds: float) -> str:
    """The "Tempo: one-click presets" section: where the rounds of *after* come from, and
    what the presets players give from their mail change."""
    lines = [
        f"## {PRESETS_SECTION}",
        "",
        f"Measured {dt.date.today().isoformat()} with `python -m bench.tempo --presets` ({games} games per row, "
        f"{seconds / 60:.0f} min on {len(results)} processes), the response model and players of *Tempo* "
        "above, with the same seeds (this tree's engine may have changed since that section was measured). "
        "Two more runs of this tree: *after, but windows on the decision clock* "
        f"gives window answers {DECISION_CLOCK_HOURS:.0f} h instead of "
        f"{DECISION_CLOCK_HOURS * WINDOW_CLOCK_SHARE:.0f} h, which isolates what the window clock does to a "
        "game; *after, players giving one-click presets* is *after* with players who use the presets the "
        "mails and pages offer (`service/play/presets.py`), as drawn per player from their own random stream: "
        "60% of them, answering a window where they have nothing to play, click \"pass on everything this "
        "phase\" instead of \"pass\"; 30%, the first time they bid 0 on equipment, click \"bid 0 unless the lot "
        "is a gladiator, a slave or the host marker\". *Presets, and half the players guard when targeted* adds, "
        "for half the players (their own random stream), the order `docs/webhooks.md` gives as an example of one "
        "that reads the hand, limited to windows about its player: use a guard if I hold one, else pass. It "
        "always answers, at once, so its speed says nothing about the hand. *Together* creates the games with "
        "the option `reactions: together` (a window asks its seats at once, answers sealed); *bare* players keep "
        "no standing order at all. Every other player keeps the recommended orders (`service.play.standing_orders."
        "RECOMMENDED`: pass on windows not about me; defend me when a scheme names me -- a guard, else a foil, "
        "else pass, at once); the tree before issue 11 cannot express the second (it reads the hand), so its "
        "players keep the first only.",
        "",
        "Per game: *window defaults* are windows answered by their deadline (the player did not come in time); "
        "*schemes*, *foiled*, *reactions* count schemes played, schemes foiled and reaction cards played (foils among them; "
        "guards are not counted); *presets* the orders given from a mail.",
        "",
        "| game | seats | run | days p50 | days p90 | days mean | rounds | days per round | hand-offs per round | "
        "decisions per player per round | window defaults | schemes | foiled | reactions | presets |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key in next(iter(results.values())):
        game, seats = key.split(":")
        for run, label in PRESET_RUNS.items():
            if run not in results:
                continue
            g = results[run][key]
            s = summarize(g, int(seats))
            mean = statistics.fmean(x["days"] for x in g)
            lines.append(
                f"| {game} | {seats} | {label} | {s['days_p50']:.1f} | {s['days_p90']:.1f} | {mean:.1f} | "
                f"{s['rounds']:.2f} | {s['days_per_round']:.1f} | {s['handoffs_per_round']:.1f} | "
                f"{s['asked_per_player_round']:.1f} | {s['window_defaults']:.1f} | {s['SchemePlayed']:.1f} | "
                f"{s['SchemeFoiled']:.1f} | {s['ReactionPlayed']:.1f} | {s['presets']:.1f} |")
    return "\n".join(lines) + "\n"


def _write_section(body: str, section: str = SECTION) -> None:
    text = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n\nEach section is rewritten by its benchmark.\n\n"
    pattern = re.compile(rf"^## {re.escape(section)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: body + "\n", text)
    else:
        text = text.rstrip() + "\n\n" + body
    RESULTS.write_text(text)


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=60, help="games per configuration and engine")
    parser.add_argument("--only", default="", help="comma-separated game:seats to run (default: all)")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--presets", action="store_true",
                        help="the one-click presets section (default only spartacus:4): before, after, "
                             "windows on the decision clock, players giving presets")
    parser.add_argument("--runs", default="", help="comma-separated runs to play (default: all of the section)")
    args = parser.parse_args(argv)
    only = args.only or ("spartacus:4" if args.presets else "")
    chosen = [r for r in (PRESET_RUNS if args.presets else RUNS) if not args.runs or r in args.runs.split(",")]
    if not chosen or (not args.presets and len(chosen) < len(RUNS)):
        parser.error("--runs chooses among the runs of --presets (" + ", ".join(PRESET_RUNS) + "); "
                     "the Tempo section compares all of " + ", ".join(RUNS))
    configs = [list(c) for c in CONFIGS if not only or f"{c[0]}:{c[1]}" in only.split(",")]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        before = _before_tree(tmp)
        try:
            orders = recommended_orders()
            trees = {"before": before, "this": ROOT}
            runs = {run: _spawn(RUN_POLICY[run][1], trees[RUN_POLICY[run][0]], args.games, configs, orders,
                                tmp / f"{run}.json")
                    for run in chosen}
            for policy, proc in runs.items():
                if proc.wait() != 0:
                    for other in runs.values():
                        other.terminate()
                    raise SystemExit(f"the {policy} run failed")
            results = {policy: json.loads((tmp / f"{policy}.json").read_text()) for policy in runs}
        finally:
            _drop_tree(before)
    seconds = time.perf_counter() - started
    body = presets_report(results, args.games, seconds) if args.presets else report(results, args.games, seconds)
    print(body)
    if not args.no_write:
        _write_section(body, PRESETS_SECTION if args.presets else SECTION)
        print(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
