"""Reaction windows as the rulebook has them: who is asked, how often, and guards.

The rulebook's examples are played as written, every answer given by hand (``settle=False``):
nobody passes automatically, a dominus with nothing to play is asked and passes.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core.types import Command
from engine.spartacus.game.rules import RULES
from engine.spartacus.game.state import Market
from tests.spartacus_game.helpers import assets, blocking, chance, hand_built, new_game, play, types

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3


@pytest.fixture(scope="module")
def base():
    return new_game(4)


#: a scheme in every hand unless a test says otherwise: a hand's size is public, and an empty
#: hand holds no reaction, so its dominus would not be asked
FILLER = ("labor_contract#1", "labor_contract#2", "conspiracy#1", "conspiracy#2")


def table(base, turn, **players):
    """An intrigue turn of ``turn``; every unnamed field: one scheme in hand, no property, 5 gold,
    influence 4."""
    for seat in range(4):
        fields = players.setdefault(f"p{seat}", {})
        for key, value in (("hand", (FILLER[seat],)), ("assets", ()), ("gold", 5), ("influence", 4)):
            fields.setdefault(key, value)
    return hand_built(base, turn=turn, **players)


def asked(s):
    """The window decision now open: (seat, the types of its options)."""
    (d,) = blocking(s)
    assert d.id.startswith("react:") and d.mode == "interrupt"
    return d.seat, [o.type for o in d.options]


def answer(s, seat, type_="pass_reaction", **args):
    return play(s, seat, type_, settle=False, **args)


def roll(s, die):
    return chance(s, settle=False, die=[die])


# ----------------------------------------------------------------------------- the rulebook's examples

def test_petes_two_guards(base):
    """'Da Pete nicht gewillt ist einen seiner Gladiatoren aufzugeben, nutzt er die Wache auf dem
    Tisch ... Er würfelt und erzielt eine „2“. Ein Fehlschlag! Pete nutzt eine weitere Wache aus
    seiner Hand und würfelt erneut. Dieses Mal erzielt er eine „5“. Geschafft!' (p. 8; the Russian
    rulebook tells the same of Petr and Alla)."""
    s = table(base, SALLY, p1=dict(influence=5, hand=("incite_rebellion#1",)),
              p0=dict(hand=("guard#9",), assets=assets(("thraex#1", "gladiator"), ("guard#8", "guard"))))
    s, ev = answer(s, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
    assert ev[-1].type == "WindowOpened" and ev[-1].data["order"] == [JOHN, LIZ, PETE]
    assert asked(s) == (JOHN, ["pass_reaction"])  # nothing in hand: asked all the same
    s, _ = answer(s, JOHN)
    assert asked(s) == (LIZ, ["pass_reaction"])
    s, _ = answer(s, LIZ)
    assert asked(s) == (PETE, ["pass_reaction", "use_guard", "use_guard"])
    s, _ = answer(s, PETE, "use_guard", card="guard#8")
    s, ev = roll(s, 2)
    assert [e.data["foiled"] for e in ev if e.type == "GuardRolled"] == [False]
    assert asked(s) == (PETE, ["pass_reaction", "use_guard"])  # a failed guard keeps the floor
    s, _ = answer(s, PETE, "use_guard", card="guard#9")
    s, ev = roll(s, 5)
    assert "SchemeFoiled" in types(ev) and not s.windows
    assert s.player(PETE).asset("thraex#1") is not None
    assert {"guard#8", "guard#9", "incite_rebellion#1"} <= set(s.intrigue_discard)


def test_whispered_rumours(base):
    """'John hat 10 Einfluss und spielt die Machenschaft „Ein Besucher aus Rom“ ... Liz
    entscheidet sich „Geflüsterte Gerüchte“ zu spielen ... Johns Plan scheitert und er muss
    seine Karte, ebenso wie Liz ihre Reaktionskarte, auf den Ablagestapel legen' (p. 8).
    Her reaction may itself be foiled by a card that says so, so John, who could in principle
    hold one (influence 10), is asked before it takes effect."""
    s = table(base, JOHN, p2=dict(influence=10, hand=("a_visitor_from_rome#1", FILLER[2])),
              p3=dict(hand=("whispered_rumours#1",)))
    s, ev = answer(s, JOHN, "play_scheme", card="a_visitor_from_rome#1", target=JOHN)
    assert ev[-1].data["order"] == [LIZ, PETE, SALLY]
    assert asked(s) == (LIZ, ["pass_reaction", "play_reaction"])
    s, ev = answer(s, LIZ, "play_reaction", card="whispered_rumours#1", target=-1)
    assert ev[-1].type == "WindowOpened" and ev[-1].data["moment"] == "reaction" and ev[-1].data["order"] == [JOHN]
    assert asked(s) == (JOHN, ["pass_reaction"])
    s, ev = answer(s, JOHN)
    assert [e.data["by"] for e in ev if e.type == "SchemeFoiled"] == [LIZ]
    assert "InfluenceGained" not in types(ev) and s.player(JOHN).influence == 10
    assert {"a_visitor_from_rome#1", "whispered_rumours#1"} <= set(s.intrigue_discard) and not s.windows


def test_jupiters_cock_foils_the_foil_and_the_window_asks_everyone_again(base):
    """'Man kann auf diese Art nur Machenschaften und keine Reaktionen durchkreuzen (Ausnahmen
    werden im jeweiligen Kartentext erwähnt)' (p. 8): Jupiter's Cock foils Liz's Whispered
    Rumours; that answer may be answered in turn, and then the scheme's window asks everybody
    again before John's scheme takes effect."""
    s = table(base, JOHN, p2=dict(influence=10, hand=("a_visitor_from_rome#1", "jupiters_cock#1")),
              p3=dict(influence=6, hand=("whispered_rumours#1", FILLER[3])))
    s, _ = answer(s, JOHN, "play_scheme", card="a_visitor_from_rome#1", target=JOHN)
    s, _ = answer(s, LIZ, "play_reaction", card="whispered_rumours#1", target=-1)
    assert asked(s) == (JOHN, ["pass_reaction", "play_reaction"])
    s, ev = answer(s, JOHN, "play_reaction", card="jupiters_cock#1", target=-1)
    assert ev[-1].type == "WindowOpened" and ev[-1].data["order"] == [LIZ]  # the foil of the foil is answered
    assert asked(s) == (LIZ, ["pass_reaction"])
    s, ev = answer(s, LIZ)
    assert "ReactionFoiled" in types(ev) and [w.moment for w in s.windows] == ["scheme"]
    assert asked(s) == (LIZ, ["pass_reaction"])  # the foiled foil's player keeps the floor
    for seat in (LIZ, PETE):
        s, ev = answer(s, seat)
        assert "InfluenceGained" not in types(ev)
    s, ev = answer(s, SALLY)
    assert s.player(JOHN).influence == 11 and [w.moment for w in s.windows] == ["scheme_succeeded"]


def failed_foil_scheme(base):
    """Liz plays Incite Rebellion on Pete (a gladiator, a guard in hand); John holds Whispered
    Rumours, Liz Jupiter's Cock: the table of the rulebook's guard after a failed foil."""
    s = table(base, LIZ, p3=dict(influence=6, hand=("incite_rebellion#1", "jupiters_cock#1")),
              p2=dict(hand=("whispered_rumours#1",)),
              p0=dict(hand=("guard#9",), assets=assets(("thraex#1", "gladiator"))))
    s, ev = play(s, LIZ, "play_scheme", settle=False, card="incite_rebellion#1", target=PETE)
    assert ev[-1].data["order"] == [PETE, SALLY, JOHN]
    return s


def test_a_target_uses_a_guard_after_a_failed_foil(base):
    """'Ein Spieler kann so viele Wachen einsetzen, wie er zur Verfügung hat oder alternativ
    eine andere Reaktionskarte aus seiner Hand einsetzen' (p. 8), and reactions are played
    'nicht nur während des eigenen Zuges' (p. 7): Pete passes, counting on John's foil; Liz
    foils the foil; Pete is asked again and his guard still saves his gladiator."""
    s = failed_foil_scheme(base)
    s, _ = answer(s, PETE)
    s, _ = answer(s, SALLY)
    s, _ = answer(s, JOHN, "play_reaction", card="whispered_rumours#1", target=-1)
    assert asked(s) == (LIZ, ["pass_reaction", "play_reaction"])
    s, ev = answer(s, LIZ, "play_reaction", card="jupiters_cock#1", target=-1)
    assert "ReactionFoiled" in types(ev)
    s, _ = answer(s, JOHN)
    assert asked(s) == (PETE, ["pass_reaction", "use_guard"])  # asked again after his pass
    s, _ = answer(s, PETE, "use_guard", card="guard#9")
    s, ev = roll(s, 4)
    assert "SchemeFoiled" in types(ev) and s.player(PETE).asset("thraex#1") is not None


# ----------------------------------------------------------------------------- who is asked

def test_every_seat_that_could_answer_is_asked_whatever_it_holds(base):
    """'Man kann jede Machenschaft durchkreuzen; nicht nur solche, die einen selbst zum Ziel
    haben' (p. 8): every other dominus is asked about a scheme, holding a foil or not, and the
    table sees the same window either way -- only the asked seat sees its options."""
    holding = table(base, PETE, p0=dict(influence=10, hand=("a_visitor_from_rome#1",)),
                    p2=dict(hand=("whispered_rumours#1",)))
    empty = replace(holding, players=tuple(
        replace(p, hand=("robbery#1",)) if p.seat == JOHN else p for p in holding.players))
    seen = {}
    for name, s in (("holding", holding), ("empty", empty)):
        s, ev = answer(s, PETE, "play_scheme", card="a_visitor_from_rome#1", target=PETE)
        steps = []
        for seat in (SALLY, JOHN, LIZ):
            (d,) = blocking(s)
            assert d.seat == seat and d.private
            steps.append(([RULES.visible(e, v) for e in ev for v in (None, PETE, SALLY, LIZ)],
                          [RULES.view(s, v) for v in (None, PETE, SALLY, LIZ)],
                          [x.to_json(with_options=False) for x in RULES.pending(s).decisions]))
            s, ev = answer(s, seat)
        seen[name] = steps
    assert seen["holding"] == seen["empty"]


def test_a_seat_no_reaction_could_serve_is_not_asked(base):
    """'[Reaktionen] benötigen aber einen Mindesteinflusswert' (p. 7): who is asked is decided
    from public facts -- Destitute! needs influence 3, so a dominus with 2 cannot answer the
    moment whatever he holds, and is not asked."""
    s = table(base, SALLY, p1=dict(gold=2), p0=dict(influence=2), p2=dict(hand=("destitute#1",)))
    s, ev = answer(s, SALLY, "give_gold", to=PETE, amount=2)
    assert types(ev) == ["GoldGiven", "WindowOpened"] and ev[-1].data["order"] == [JOHN, LIZ]


def test_an_empty_hand_is_asked_only_for_the_guards_on_its_table(base):
    """The size of a hand is public ('hand_size' on the board), and an empty hand holds no
    reaction: its dominus is asked about a scheme only as its target with a guard on the table
    ('Wachen können genutzt werden ... unabhängig ob sie als Eigentum auf dem Tisch liegen oder
    aus der Hand gespielt werden', p. 8)."""
    for guards, order in (((), [LIZ]), (assets(("guard#8", "guard")), [SALLY, LIZ])):
        s = table(base, PETE, p0=dict(influence=10, hand=("blackmail#1",)), p1=dict(hand=(), assets=guards),
                  p2=dict(hand=()))
        s, ev = answer(s, PETE, "play_scheme", card="blackmail#1", target=SALLY)
        assert ev[-1].type == "WindowOpened" and ev[-1].data["order"] == order


def test_a_scheme_nobody_could_foil_takes_effect_at_once(base):
    """'Verfügt man über ausreichend Einfluss um eine Machenschaft zu spielen und diese wird nicht
    verhindert ... Der Effekt auf der Karte wird sofort ausgeführt' (p. 7): with every other
    dominus below the influence of every foil (2 for For a Few Denarii), nobody is asked."""
    s = table(base, PETE, p0=dict(influence=10, hand=("a_visitor_from_rome#1",)),
              p1=dict(influence=1), p2=dict(influence=1), p3=dict(influence=1))
    s, ev = answer(s, PETE, "play_scheme", card="a_visitor_from_rome#1", target=PETE)
    assert "WindowOpened" not in types(ev) and s.player(PETE).influence == 11


def test_the_window_closes_only_after_everyone_passed_in_a_row(base):
    """An answer asks everybody again: after John's Destitute! on Sally, John (who keeps the
    floor: a second copy could follow the first), Liz and Pete must all pass before the window
    closes."""
    s = table(base, SALLY, p1=dict(gold=2, influence=5), p2=dict(hand=("destitute#1", "destitute#2")))
    s, ev = answer(s, SALLY, "give_gold", to=PETE, amount=2)
    assert ev[-1].data["order"] == [JOHN, LIZ, PETE]
    s, _ = answer(s, JOHN, "play_reaction", card="destitute#1", target=SALLY)
    assert s.player(SALLY).influence == 4
    assert asked(s) == (JOHN, ["pass_reaction", "play_reaction"])
    s, _ = answer(s, JOHN)
    s, _ = answer(s, LIZ)
    assert s.windows  # Pete has not passed since the answer
    s, _ = answer(s, PETE)
    assert not s.windows and s.player(SALLY).influence == 4


# ----------------------------------------------------------------------------- guards

def test_a_guards_use_may_be_foiled_like_a_reaction(base):
    """'Wachen sind eine spezielle Art von Reaktion' (p. 2; 'Стража – это особый вид
    карточек Ответные действия'): Jupiter's Cock, which foils reactions, foils the guard's use
    before its die is rolled; the guard is spent, and its owner may use another."""
    s = table(base, SALLY, p1=dict(influence=7, hand=("incite_rebellion#1", "jupiters_cock#1")),
              p0=dict(hand=("guard#9",), assets=assets(("thraex#1", "gladiator"), ("guard#8", "guard"))))
    s, _ = answer(s, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
    s, _ = answer(s, JOHN)
    s, _ = answer(s, LIZ)
    s, ev = answer(s, PETE, "use_guard", card="guard#8")
    assert ev[-1].type == "WindowOpened" and ev[-1].data["subject"]["kind"] == "guard"
    assert RULES.pending(s).chance is None
    s, ev = answer(s, SALLY, "play_reaction", card="jupiters_cock#1", target=-1)
    assert "GuardFoiled" in types(ev) and "GuardRolled" not in types(ev)
    assert asked(s) == (PETE, ["pass_reaction", "use_guard"])
    s, _ = answer(s, PETE, "use_guard", card="guard#9")
    s, ev = roll(s, 6)
    assert "SchemeFoiled" in types(ev)


def test_a_guard_may_be_laid_out_at_any_time(base):
    """'Wachen können jederzeit von der Hand auf den Tisch gelegt werden' (p. 8): in another
    dominus's turn and during a window, as a free action that keeps the game where it was."""
    s = table(base, PETE, p0=dict(influence=10, hand=("blackmail#1",)), p2=dict(hand=("guard#9", "guard#10", "robbery#1")),
              p1=dict(hand=("robbery#2",)))
    turn = [d.id for d in blocking(s)]
    (free,) = [d for d in RULES.pending(s).decisions if d.seat == JOHN and d.prompt_key == "place_guard"]
    assert free.mode == "free" and free.private and [o.args["card"] for o in free.options] == ["guard#9", "guard#10"]
    (none,) = [d for d in RULES.pending(s).decisions if d.seat == SALLY and d.prompt_key == "place_guard"]
    assert none.options == ()  # a hand without guards has the same free decision, with nothing in it
    s, ev = play(s, JOHN, "place_guard", card="guard#9")
    assert types(ev) == ["GuardPlaced"] and [d.id for d in blocking(s)] == turn
    s, _ = answer(s, PETE, "play_scheme", card="blackmail#1", target=JOHN)
    s, ev = play(s, JOHN, "place_guard", card="guard#10", settle=False)
    assert types(ev) == ["GuardPlaced"] and s.windows
    assert {"guard#9", "guard#10"} <= {a.id for a in s.player(JOHN).assets}


def test_a_guard_may_be_laid_out_in_the_market(base):
    """'jederzeit' (p. 8): also outside the intrigue phase."""
    s = replace(hand_built(base, stage="market_open", p3=dict(hand=("guard#9",))), market=Market())
    s, ev = play(s, LIZ, "place_guard", card="guard#9")
    assert types(ev) == ["GuardPlaced"] and s.player(LIZ).asset("guard#9") is not None


def test_a_guard_may_be_laid_out_instead_of_selling_down(base):
    """'Dadurch kann ein Spieler gezwungen sein, Handkarten zu verkaufen' (p. 9) -- or to lay a
    guard on the table, which he may do at any time (p. 8): it leaves the hand too."""
    s = table(base, PETE, p0=dict(influence=5, gold=0, hand=(
        "robbery#1", "robbery#2", "blackmail#1", "blackmail#2", "guard#20")))
    s, ev = play(s, PETE, "end_turn")
    assert "HandLimitEnforced" in types(ev)
    (d,) = blocking(s)
    assert Command(PETE, "place_guard", {"card": "guard#20"}) in d.options
    s, ev = play(s, PETE, "place_guard", card="guard#20")
    assert "IntrigueTurnEnded" in types(ev) and s.player(PETE).asset("guard#20") is not None
    assert s.player(PETE).gold == 0
