"""The differential non-interference check every game's test module drives.

Non-interference: nothing a seat (or a spectator) can observe may depend on another seat's
hidden information, except through a reveal the rulebook makes.  The check is differential:

1. Random play (seeded, so every run is the same) records a *trajectory*: the state before each
   command, the command, and the events it caused.
2. At a position of that trajectory a *fork* changes hidden information in a way consistent with
   what the others know -- a hand swapped, the unseen part of a deck redealt, a secret answer
   given differently.  The seats whose own information the change alters are *informed*; every
   other seat and a spectator are *observers*.
3. The same public moves are replayed in the changed world: an observer's command and chance are
   submitted unchanged; an informed seat plays an answer that looks the same to the observers if
   its changed information leaves it one (it may play differently because it knows differently),
   and otherwise one the rulebook lets it reveal.
4. After every command each observer's *observation* is compared between the two worlds: the
   visible events of the command (their batching included, as invisible ones count too), the view
   afterwards, and the open decisions as that observer may see them (who is asked, ids, modes,
   prompts, whether a decision is private or could be answered at once -- and the observer's own
   decisions in full).

The first difference an observer sees must be a *reveal*: an event of a type the game lists as
revealing, at the same place of the same command, everything before it equal.  From then on
that observer knows and is no longer compared.  Any other first difference is interference and
is reported.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, Sequence

from engine.core.bots import choose
from engine.core.errors import RuleViolation
from engine.core.game import Rules, forced_answer, step
from engine.core.playout import play_out
from engine.core.types import SYSTEM_SEAT, Command, Decision, Event, Pending, Viewer


@dataclass
class Trajectory:
    """A game played by random bots: ``states[i]`` is the state before ``commands[i]``."""

    rules: Rules
    seats: int
    states: list[Any] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)
    batches: list[list[Event]] = field(default_factory=list)

    def events_before(self, index: int) -> Iterable[Event]:
        for batch in self.batches[:index]:
            yield from batch


@dataclass(frozen=True)
class Fork:
    """One changed world: at ``index``, either ``state`` replaces the trajectory's state there, or
    ``answer`` (a different secret answer) replaces the trajectory's command there."""

    kind: str
    index: int
    informed: frozenset[int]
    state: Any = None
    answer: Optional[Command] = None


@dataclass
class Interference:
    """What an observer saw differ, and where."""

    kind: str
    index: int
    viewer: Viewer
    what: str
    original: Any
    changed: Any

    def __str__(self) -> str:
        return (f"{self.kind} fork, command {self.index}, viewer {self.viewer}: {self.what}\n"
                f"  original: {self.original!r}\n  changed:  {self.changed!r}")


@dataclass
class Tally:
    """What a run of the check did."""

    positions: int = 0
    inconsistent: int = 0
    steps: int = 0
    reveals: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    interference: list[Interference] = field(default_factory=list)

    def count(self, kind: str) -> None:
        self.positions += 1
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1


# ------------------------------------------------------------------ playing


def play(rules: Rules, seats: int, options: dict, seed: int) -> Trajectory:
    """A random game from its start, recorded step by step (seeded: the same every run)."""
    state = rules.initial_state(seats, options)
    trajectory = Trajectory(rules, seats, states=[state])

    def record(after: Any, command: Command, events: list[Event]) -> None:
        trajectory.commands.append(command)
        trajectory.batches.append(events)
        trajectory.states.append(after)

    play_out(rules, state, random.Random(seed), on_step=record)
    return trajectory


def other_answer(rules: Rules, state: Any, command: Command, rng: random.Random) -> Optional[Command]:
    """A different legal answer ``command``'s seat could have given to the same decision."""
    for decision in rules.pending(state).for_seat(command.seat):
        if decision.options is not None:
            if not any(o == command for o in decision.options):
                continue
            others = [o for o in decision.options if o != command]
            return rng.choice(others) if others else None
        if decision.command_type != command.type:
            continue
        tries = [choose(decision, rng) for _ in range(6)] + [decision.default]
        for candidate in tries:
            if candidate != command and _legal(rules, state, candidate):
                return candidate
        return None
    return None


def _legal(rules: Rules, state: Any, command: Command) -> bool:
    try:
        step(rules, state, command)
    except RuleViolation:
        return False
    return True


def secret_answer_forks(trajectory: Trajectory, rng: random.Random,
                        modes: Sequence[str] = ("simultaneous",)) -> list[Fork]:
    """Every command that answered a secret (simultaneous) decision, answered differently."""
    rules = trajectory.rules
    forks = []
    for index, command in enumerate(trajectory.commands):
        if command.seat == SYSTEM_SEAT:
            continue
        state = trajectory.states[index]
        if not any(d.mode in modes for d in rules.pending(state).for_seat(command.seat)):
            continue
        answer = other_answer(rules, state, command, rng)
        if answer is not None:
            forks.append(Fork("secret answer", index, frozenset({command.seat}), answer=answer))
    return forks


# ------------------------------------------------------------------ observing


def public_decision(decision: Decision) -> dict:
    """A decision as anyone but its seat may see it, and whether the server could answer it at once."""
    out = decision.to_json(with_options=False)
    out["forced"] = forced_answer(decision) is not None
    return out


class Seen:
    """The open decisions after a command, as each viewer may see them (the public part once)."""

    def __init__(self, pending: Pending) -> None:
        self.pending = pending
        chance = pending.chance.to_json() if pending.chance is not None else None
        self.public = (chance, [public_decision(d) for d in pending.decisions])

    def by(self, viewer: Viewer) -> tuple:
        own = [d.to_json() for d in self.pending.decisions if viewer is not None and d.seat == viewer]
        return (*self.public, own)


@dataclass
class Observation:
    """The visible events of a command (``None`` for each invisible one), the view after it (or
    ``None`` when not compared) and the open decisions as the viewer may see them."""

    events: list
    view: Any
    pending: tuple


def observe(rules: Rules, state: Any, seen: Seen, batch: Sequence[Event], viewer: Viewer,
            with_view: bool = True) -> Observation:
    """What ``viewer`` observes of a command and the state after it (the view only when asked:
    views are the dearest part, see :meth:`Checker.looks_at_view`)."""
    return Observation([rules.visible(e, viewer) for e in batch],
                       rules.view(state, viewer) if with_view else None, seen.by(viewer))


# ------------------------------------------------------------------ comparing


def _event_type(shown: Any) -> Optional[str]:
    return shown.get("type") if isinstance(shown, dict) else None


def first_difference(original: Observation, changed: Observation, reveals: frozenset[str]) -> tuple[str, Any, Any]:
    """``("reveal", ...)`` when the first difference is a revealing event in its place, else a
    description of the interference."""
    for k, (a, b) in enumerate(zip(original.events, changed.events)):
        if a == b:
            continue
        if a is not None and b is not None and _event_type(a) == _event_type(b) and _event_type(a) in reveals:
            return "reveal", a, b
        return f"event {k} of the command differs", a, b
    if len(original.events) != len(changed.events):
        return "the command caused a different number of events", original.events, changed.events
    if original.view != changed.view:
        a, b = _dict_difference(original.view, changed.view)
        return "the view differs", a, b
    return "the open decisions differ", original.pending, changed.pending


def _dict_difference(a: Any, b: Any, path: str = "") -> tuple[Any, Any]:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _dict_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _dict_difference(x, y, f"{path}[{i}]")
    return (path, a), (path, b)


# ------------------------------------------------------------------ the check


class Originals:
    """The original world's observations, computed once per trajectory and shared by its forks."""

    def __init__(self, rules: Rules, trajectory: Trajectory) -> None:
        self.rules = rules
        self.trajectory = trajectory
        self._pending: dict[int, Seen] = {}
        self._seen: dict[tuple[int, Viewer, bool], Observation] = {}

    def pending(self, index: int) -> Seen:
        """Open decisions after command ``index``."""
        if index not in self._pending:
            self._pending[index] = Seen(self.rules.pending(self.trajectory.states[index + 1]))
        return self._pending[index]

    def observation(self, index: int, viewer: Viewer, with_view: bool = True) -> Observation:
        """What ``viewer`` observed of command ``index`` and the state after it."""
        key = (index, viewer, with_view)
        if key not in self._seen:
            t = self.trajectory
            self._seen[key] = observe(self.rules, t.states[index + 1], self.pending(index), t.batches[index],
                                      viewer, with_view)
        return self._seen[key]


@dataclass
class Checker:
    """Runs forks of one game.  ``reveals`` names the event types by which the rulebook shows
    hidden information (to everyone or to one seat); ``horizon`` bounds each replay."""

    rules: Rules
    reveals: frozenset[str]
    horizon: int = 10
    tally: Tally = field(default_factory=Tally)
    _originals: Optional[Originals] = None
    seats: int = 1

    def viewers(self, seats: int) -> list[Viewer]:
        return [*range(seats), None]

    def looks_at_view(self, index: int, viewer: Viewer) -> bool:
        """Whether the view is compared for ``viewer`` after command ``index``: always the
        spectator's (what the table shows), and one seat's in turn, so that over the many
        positions every seat's view is compared while a step stays cheap.  The events and the
        open decisions are compared for every observer at every step."""
        return viewer is None or index % self.seats == viewer

    def originals(self, trajectory: Trajectory) -> Originals:
        if self._originals is None or self._originals.trajectory is not trajectory:
            self._originals = Originals(self.rules, trajectory)
        return self._originals

    def run(self, trajectory: Trajectory, fork: Fork) -> None:
        rules = self.rules
        originals = self.originals(trajectory)
        self.seats = trajectory.seats
        viewers = self.viewers(trajectory.seats)
        observers = [v for v in viewers if v not in fork.informed]
        knowing = set(fork.informed)
        index = fork.index
        if fork.answer is not None:
            try:
                changed, batch = step(rules, trajectory.states[index], fork.answer)
            except RuleViolation:
                self.tally.inconsistent += 1
                return
            observers = self._compare(originals, fork, index, changed, batch, observers)
            if observers is None:
                return
            index += 1
        else:
            changed = fork.state
            before = trajectory.states[index]
            pend_o, pend_c = Seen(rules.pending(before)), Seen(rules.pending(changed))
            if any(observe(rules, before, pend_o, [], v) != observe(rules, changed, pend_c, [], v) for v in observers):
                self.tally.inconsistent += 1  # the change contradicts what an observer knows
                return
        self.tally.count(fork.kind)
        stop = min(len(trajectory.commands), fork.index + self.horizon)
        while index < stop and observers:
            if rules.outcome(changed) is not None:
                return
            command = trajectory.commands[index]
            if command.seat == SYSTEM_SEAT or command.seat not in knowing:
                try:
                    after, batch = step(rules, changed, command)
                except RuleViolation as err:
                    self.tally.interference.append(Interference(
                        fork.kind, index, command.seat, "an observer's (or chance's) answer is not legal in the "
                        "changed world", command, str(err)))
                    return
            else:
                found = self._same_looking_answer(originals, index, changed, observers)
                if found is None:
                    return  # every answer left to the informed seat reveals something of its own accord
                after, batch = found
            observers = self._compare(originals, fork, index, after, batch, observers)
            if observers is None:
                return
            knowing.update(v for v in viewers if v is not None and v not in observers)
            changed = after
            index += 1
            self.tally.steps += 1

    def _compare(self, originals: Originals, fork: Fork, index: int, changed: Any, batch: list[Event],
                 observers: list[Viewer]) -> Optional[list[Viewer]]:
        """The observers still blind after command ``index``; None after reporting interference."""
        pend_c = Seen(self.rules.pending(changed))
        # the end of the game shows what the final scoring counts (hands, hidden gold...)
        ended = self.rules.outcome(originals.trajectory.states[index + 1]) is not None
        still = []
        for viewer in observers:
            with_view = self.looks_at_view(index, viewer)
            seen_o = originals.observation(index, viewer, with_view)
            seen_c = observe(self.rules, changed, pend_c, batch, viewer, with_view)
            if seen_o == seen_c:
                still.append(viewer)
                continue
            what, a, b = first_difference(seen_o, seen_c, self.reveals)
            if what == "reveal" or ended:
                self.tally.reveals += 1
                continue
            self.tally.interference.append(Interference(fork.kind, index, viewer, what, a, b))
            return None
        return still

    def _same_looking_answer(self, originals: Originals, index: int, changed: Any,
                             observers: list[Viewer]) -> Optional[tuple[Any, list[Event]]]:
        """The informed seat's answer in the changed world: one the observers cannot tell from the
        original answer, else one whose difference they see only through a reveal."""
        rules = self.rules
        command = originals.trajectory.commands[index]
        candidates = [command]
        for decision in rules.pending(changed).for_seat(command.seat):
            if decision.options is not None:
                candidates += [o for o in decision.options if o != command]
            else:
                candidates.append(decision.default)
        original_batch = originals.trajectory.batches[index]
        revealing = None
        for candidate in candidates:
            try:
                after, batch = step(rules, changed, candidate)
            except RuleViolation:
                continue
            same_events = len(batch) == len(original_batch) and all(
                [rules.visible(e, v) for e in batch] == originals.observation(index, v).events for v in observers)
            if not same_events and revealing is not None:
                continue
            pend_c = Seen(rules.pending(after))
            views = {v: self.looks_at_view(index, v) for v in observers}
            seen = {v: observe(rules, after, pend_c, batch, v, views[v]) for v in observers}
            differing = [v for v in observers if seen[v] != originals.observation(index, v, views[v])]
            if not differing:
                return after, batch
            if revealing is None and all(
                first_difference(originals.observation(index, v, views[v]), seen[v], self.reveals)[0] == "reveal"
                for v in differing
            ):
                revealing = (after, batch)
        return revealing


def check_forks(checker: Checker, trajectories: Iterable[Trajectory],
                make_forks: Callable[[Trajectory, random.Random], Iterable[Fork]], seed: int = 0) -> Tally:
    rng = random.Random(seed)
    for trajectory in trajectories:
        for fork in make_forks(trajectory, rng):
            checker.run(trajectory, fork)
    return checker.tally


class SkipsTheHelpless:
    """A game's rules with the old mistake put back: a window answer that has only one legal option
    (a pass, for a player who holds nothing to play) is given inside the command that opened the
    window, so the game never waits for that player."""

    def __init__(self, inner: Rules) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def decide(self, state: Any, command: Command) -> list[Event]:
        events = list(self.inner.decide(state, command))
        for event in events:
            state = self.inner.apply(state, event)
        while True:
            pending = self.inner.pending(state)
            lone = [d for d in pending.blocking
                    if d.mode == "interrupt" and d.options is not None and len(d.options) == 1]
            if pending.chance is not None or not lone or self.inner.outcome(state) is not None:
                return events
            more = self.inner.decide(state, lone[0].options[0])
            for event in more:
                state = self.inner.apply(state, event)
            events += more
