"""The Spartacus rulebook's worked examples about guards, reactions and support, played by
four players over ``/api/v1``.

Ann, Bob, Cat and Dan sit in seats 0-3 and play Pete, Sally, John and Liz of the examples
(rulebook pp. 6-8).  An example needs a table no public setup deals (Pete's guards, Liz's
Whispered Rumours), so each game starts from a hand-built engine state through the test-only
seam ``test_start_state`` (see :func:`service.play.games._test_start_state`), chosen by the
game's title; every die is scripted through ``test_chance``.  From there on, everything goes
through the API as a player would meet it: the decisions listing, commands, the board and
the event history, each seen by the player asking.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any, Callable

import pytest

from engine.spartacus.game.flow import start as start_of_round
from engine.spartacus.game.state import WIN_INFLUENCE, GameState, Market
from tests.games_api.api_steps import hand_built_games, board, command, decision_of, events_after, listings
from tests.spartacus_game.helpers import assets, hand_built, new_game

PETE, SALLY, JOHN, LIZ = 0, 1, 2, 3

#: a scheme in every hand unless the example says otherwise (a hand's size is public, and an
#: empty hand holds no reaction: its dominus would not be asked)
FILLER = ("labor_contract#1", "labor_contract#2", "conspiracy#1", "conspiracy#2")


@cache
def _base() -> GameState:
    return new_game(4)


@cache
def _base_together() -> GameState:
    return new_game(4, {"reactions": "together"})


def _table(turn: int, base: Callable[[], GameState] = _base, **players: dict) -> GameState:
    """An intrigue turn of ``turn``; every field not given: one scheme in hand, no property,
    5 gold, influence 4."""
    for seat in range(4):
        fields = players.setdefault(f"p{seat}", {})
        for key, value in (("hand", (FILLER[seat],)), ("assets", ()), ("gold", 5), ("influence", 4)):
            fields.setdefault(key, value)
    return hand_built(base(), turn=turn, **players)


#: title -> the hand-built table the game with that title starts from
TABLES: dict[str, Callable[[], GameState]] = {
    "two guards": lambda: _table(SALLY, p1=dict(influence=5, hand=("incite_rebellion#1",)), p0=dict(
        hand=("guard#9",), assets=assets(("thraex#1", "gladiator"), ("guard#8", "guard")))),
    "whispered rumours": lambda: _table(JOHN, p2=dict(influence=10, hand=("a_visitor_from_rome#1", FILLER[2])),
                                        p3=dict(hand=("whispered_rumours#1",))),
    "foil of the foil": lambda: _table(JOHN, p2=dict(influence=10, hand=("a_visitor_from_rome#1", "jupiters_cock#1")),
                                       p3=dict(influence=6, hand=("whispered_rumours#1", FILLER[3]))),
    "guard after a failed foil": lambda: _table(
        LIZ, p3=dict(influence=6, hand=("incite_rebellion#1", "jupiters_cock#1")),
        p2=dict(hand=("whispered_rumours#1",)), p0=dict(hand=("guard#9",), assets=assets(("thraex#1", "gladiator")))),
    "guard after a failed foil, all at once": lambda: _table(
        LIZ, _base_together, p3=dict(influence=6, hand=("incite_rebellion#1", "jupiters_cock#1")),
        p2=dict(hand=("whispered_rumours#1",)), p0=dict(hand=("guard#9",), assets=assets(("thraex#1", "gladiator")))),
    "guard foiled": lambda: _table(SALLY, p1=dict(influence=7, hand=("incite_rebellion#1", "jupiters_cock#1")), p0=dict(
        hand=("guard#9",), assets=assets(("thraex#1", "gladiator"), ("guard#8", "guard")))),
    "guards at any time": lambda: _table(PETE, p0=dict(influence=10, hand=("blackmail#1",)),
                                         p2=dict(hand=("guard#9", "guard#10", "robbery#1"))),
    "guard in the market": lambda: _market(p3=dict(hand=("guard#9",), gold=5), p0=dict(hand=(FILLER[0],))),
    "guard instead of selling": lambda: _table(PETE, p0=dict(influence=5, gold=0, hand=(
        "robbery#1", "robbery#2", "blackmail#1", "blackmail#2", "guard#20"))),
    "black market": lambda: _table(PETE, p0=dict(influence=4, gold=5, hand=("black_market_dealings#1",)),
                                   p3=dict(influence=3)),
    "destitute": lambda: start_of_round(_everyone(
        "round_start", p0=dict(assets=assets(("murmillo#1", "gladiator"))), p1=dict(gold=2, assets=assets(("thraex#1", "gladiator"), ("secutor#1", "gladiator"))),
        p2=dict(hand=("destitute#1",)))),
    "tournament": lambda: start_of_round(_everyone("intrigue_turns", p0=dict(
        influence=WIN_INFLUENCE, assets=assets(("crixus#1", "gladiator"), ("spartacus#1", "gladiator"))), p1=dict(
        influence=WIN_INFLUENCE, assets=assets(("theokoles#1", "gladiator"), ("dimachaerus#1", "gladiator"),
                                               ("net#1", "special"))), p3=dict(
        influence=WIN_INFLUENCE, assets=assets(("thraex#1", "gladiator"))))),
    "johns support": lambda: _table(JOHN, p2=dict(influence=6, gold=5, hand=("a_visitor_from_rome#1",)),
                                    p3=dict(influence=4)),
    "bluff": lambda: _table(JOHN, p2=dict(influence=1, hand=("a_visitor_from_rome#1",)),
                            p0=dict(influence=1), p1=dict(influence=1), p3=dict(influence=1)),
}


def _everyone(stage: str, **players: dict) -> GameState:
    """Every field not given: no cards, no property, 5 gold, influence 4."""
    for seat in range(4):
        fields = players.setdefault(f"p{seat}", {})
        for key, value in (("hand", ()), ("assets", ()), ("gold", 5), ("influence", 4)):
            fields.setdefault(key, value)
    return hand_built(_base(), stage=stage, **players)


def _market(**players: dict) -> GameState:
    return replace(hand_built(_base(), stage="market_open", **players), market=Market())


#: title -> the dice the game's chance requests are answered with, in order
DICE: dict[str, list[dict]] = {"two guards": [{"die": [2]}, {"die": [5]}], "guard after a failed foil": [{"die": [4]}],
                              "guard after a failed foil, all at once": [{"die": [4]}],
                              "guard foiled": [{"die": [6]}]}


@pytest.fixture
def config_overrides(config_overrides) -> dict:
    return {**config_overrides, **hand_built_games(TABLES, DICE)}


@pytest.fixture
def players(make_client) -> dict[int, Any]:
    """Seat -> client: Pete (ann), Sally (bob), John (cat) and Liz (dan)."""
    return {seat: make_client(name) for seat, name in enumerate(("ann", "bob", "cat", "dan"))}


def start(players: dict[int, Any], title: str) -> str:
    body = {"game_type": "spartacus", "seats": 4, "options": {}, "title": title,
            "invites": [players[s].email for s in (SALLY, JOHN, LIZ)]}
    created = players[PETE].post("games", json=body, idempotent=True)
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    for seat in (SALLY, JOHN, LIZ):
        assert players[seat].post(f"games/{game_id}/join", idempotent=True).status_code == 200
    assert players[PETE].get(f"games/{game_id}").get_json()["my_seat"] == PETE
    return game_id


def asked(game_id: str, players: dict[int, Any]) -> tuple[int, list[str]]:
    """The one seat that owes an answer now, and the types of its options, as the API lists them."""
    owed = [(seat, d) for seat, body in listings(game_id, players).items()
            for d in body["decisions"] if d["mode"] != "free"]
    assert len(owed) == 1, [(seat, d["id"]) for seat, d in owed]
    seat, decision = owed[0]
    return seat, [o["type"] for o in decision["options"]]


def act(game_id: str, players: dict[int, Any], seat: int, type_: str = "pass_reaction", **args: Any) -> list[dict]:
    """``seat`` answers; returns the events that followed, as ``seat`` sees them."""
    client = players[seat]
    version = client.get(f"games/{game_id}/decisions").get_json()["version"]
    response = command(client, game_id, version, type_, **args)
    assert response.status_code == 200, response.get_json()
    return events_after(client, game_id, version)


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def me(game_id: str, players: dict[int, Any], seat: int) -> dict:
    return board(players, seat, game_id)["players"][seat]


def cards_of(player: dict) -> set[str]:
    return {a["card"] for a in player["property"]}


# --------------------------------------------------------------------------- guards and reactions

def test_petes_two_guards(players):
    """'Da Pete nicht gewillt ist einen seiner Gladiatoren aufzugeben, nutzt er die Wache auf
    dem Tisch, um die Machenschaft zu durchkreuzen. Er würfelt und erzielt eine „2“. Ein
    Fehlschlag! Pete nutzt eine weitere Wache aus seiner Hand und würfelt erneut. Dieses Mal
    erzielt er eine „5“. Geschafft!' (p. 8)."""
    game_id = start(players, "two guards")
    events = act(game_id, players, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
    assert events[-1]["type"] == "WindowOpened" and events[-1]["data"]["order"] == [JOHN, LIZ, PETE]
    assert asked(game_id, players) == (JOHN, ["pass_reaction"])
    act(game_id, players, JOHN)
    act(game_id, players, LIZ)
    assert asked(game_id, players) == (PETE, ["pass_reaction", "use_guard", "use_guard"])
    events = act(game_id, players, PETE, "use_guard", card="guard#8")
    assert [e["data"]["foiled"] for e in events if e["type"] == "GuardRolled"] == [False]
    assert asked(game_id, players) == (PETE, ["pass_reaction", "use_guard"]), "a failed guard keeps the floor"
    events = act(game_id, players, PETE, "use_guard", card="guard#9")
    assert [e["data"]["foiled"] for e in events if e["type"] == "GuardRolled"] == [True]
    assert "SchemeFoiled" in types(events)
    pete = me(game_id, players, PETE)
    assert "thraex#1" in cards_of(pete) and "guard#8" not in cards_of(pete)
    discard = board(players, SALLY, game_id)["intrigue_discard"]
    assert {"guard#8", "guard#9", "incite_rebellion#1"} <= set(discard), "'ebenso wie die beiden Wachen von Pete'"


def test_whispered_rumours(players):
    """'John hat 10 Einfluss und spielt die Machenschaft „Ein Besucher aus Rom“, welche ihm
    einen Punkt Einfluss bringt. Liz entscheidet sich „Geflüsterte Gerüchte“ zu spielen, um
    Johns Machenschaft zu durchkreuzen. Johns Plan scheitert und er muss seine Karte, ebenso
    wie Liz ihre Reaktionskarte, auf den Ablagestapel legen.' (p. 8)."""
    game_id = start(players, "whispered rumours")
    act(game_id, players, JOHN, "play_scheme", card="a_visitor_from_rome#1", target=JOHN)
    assert asked(game_id, players) == (LIZ, ["pass_reaction", "play_reaction"])
    events = act(game_id, players, LIZ, "play_reaction", card="whispered_rumours#1", target=-1)
    assert events[-1]["data"]["moment"] == "reaction" and events[-1]["data"]["order"] == [JOHN]
    events = act(game_id, players, JOHN)
    assert [e["data"]["by"] for e in events if e["type"] == "SchemeFoiled"] == [LIZ]
    assert me(game_id, players, JOHN)["influence"] == 10
    assert {"a_visitor_from_rome#1", "whispered_rumours#1"} <= set(board(players, PETE, game_id)["intrigue_discard"])


def test_a_reaction_that_foils_reactions_foils_the_foil(players):
    """'Man kann auf diese Art nur Machenschaften und keine Reaktionen durchkreuzen (Ausnahmen
    werden im jeweiligen Kartentext erwähnt)' (p. 8): John answers Liz's Whispered Rumours
    with Jupiter's Cock, and his Visitor from Rome takes effect once everybody has passed."""
    game_id = start(players, "foil of the foil")
    act(game_id, players, JOHN, "play_scheme", card="a_visitor_from_rome#1", target=JOHN)
    act(game_id, players, LIZ, "play_reaction", card="whispered_rumours#1", target=-1)
    assert asked(game_id, players) == (JOHN, ["pass_reaction", "play_reaction"])
    events = act(game_id, players, JOHN, "play_reaction", card="jupiters_cock#1", target=-1)
    assert events[-1]["data"]["order"] == [LIZ]
    events = act(game_id, players, LIZ)
    assert "ReactionFoiled" in types(events)
    for seat in (LIZ, PETE):
        assert asked(game_id, players)[0] == seat
        act(game_id, players, seat)
    act(game_id, players, SALLY)
    assert me(game_id, players, JOHN)["influence"] == 11


def test_a_target_uses_a_guard_after_a_failed_foil(players):
    """'Ein Spieler kann so viele Wachen einsetzen, wie er zur Verfügung hat oder alternativ
    eine andere Reaktionskarte aus seiner Hand einsetzen, um die Machenschaft zu durchkreuzen'
    (p. 8): Pete passes, counting on John's Whispered Rumours; Liz foils it; Pete is asked
    again, and his guard from the hand saves his gladiator."""
    game_id = start(players, "guard after a failed foil")
    act(game_id, players, LIZ, "play_scheme", card="incite_rebellion#1", target=PETE)
    act(game_id, players, PETE)
    act(game_id, players, SALLY)
    act(game_id, players, JOHN, "play_reaction", card="whispered_rumours#1", target=-1)
    events = act(game_id, players, LIZ, "play_reaction", card="jupiters_cock#1", target=-1)
    assert "ReactionFoiled" in types(events)
    # John, whose foil was foiled, keeps the floor with nothing left to play: his pass follows
    # from public facts, so the server gives it
    assert [e["data"]["seat"] for e in events if e["type"] == "ReactionPassed"] == [JOHN]
    assert asked(game_id, players) == (PETE, ["pass_reaction", "use_guard"]), "asked again after his pass"
    events = act(game_id, players, PETE, "use_guard", card="guard#9")
    assert "SchemeFoiled" in types(events) and "thraex#1" in cards_of(me(game_id, players, PETE))


def test_a_target_uses_a_guard_after_a_failed_foil_with_everyone_asked_at_once(players):
    """The same example under the house rule "all at once" (option ``reactions: together``):
    Pete, Sally and John are asked together; what each answered stays sealed from the others
    until the round is over; John's foil takes effect, Liz foils it, and everybody is asked
    again -- Pete's guard still saves his gladiator."""
    game_id = start(players, "guard after a failed foil, all at once")
    act(game_id, players, LIZ, "play_scheme", card="incite_rebellion#1", target=PETE)
    owed = {seat for seat, body in listings(game_id, players).items()
            for d in body["decisions"] if d["mode"] == "interrupt"}
    assert owed == {PETE, SALLY, JOHN}
    act(game_id, players, JOHN, "play_reaction", card="whispered_rumours#1", target=-1)
    for seat in (PETE, SALLY, LIZ):
        seen = [e for e in events_after(players[seat], game_id, 0) if e["type"] == "ReactionAnswered"]
        assert [e["data"] for e in seen] == [{"window": seen[0]["data"]["window"], "seat": JOHN}]
        window = board(players, seat, game_id)["windows"][-1]
        assert window["waiting_for"] == [PETE, SALLY] and "my_answer" not in window
    assert board(players, JOHN, game_id)["windows"][-1]["my_answer"]["type"] == "play_reaction"
    act(game_id, players, PETE)
    events = act(game_id, players, SALLY)
    assert [e["data"]["seat"] for e in events if e["type"] == "WindowRoundEnded"] == [JOHN]
    assert events[-1]["type"] == "WindowOpened" and events[-1]["data"]["order"] == [LIZ]
    events = act(game_id, players, LIZ, "play_reaction", card="jupiters_cock#1", target=-1)
    assert "ReactionFoiled" in types(events)
    # Liz's answer to her own window, then John's pass: his hand is empty now (its size is
    # public), so his pass follows from public facts and the server gives it
    assert [e["data"]["seat"] for e in events if e["type"] == "ReactionAnswered"] == [LIZ, JOHN]
    owed = {seat for seat, body in listings(game_id, players).items()
            for d in body["decisions"] if d["mode"] == "interrupt"}
    assert owed == {PETE, SALLY}, "asked again after his pass"
    act(game_id, players, PETE, "use_guard", card="guard#9")
    events = act(game_id, players, SALLY)
    assert "SchemeFoiled" in types(events) and "thraex#1" in cards_of(me(game_id, players, PETE))


def test_a_guards_use_is_foiled_like_a_reaction(players):
    """'Wachen sind eine spezielle Art von Reaktion' (p. 2): Sally's Jupiter's Cock, which foils
    reactions, foils Pete's guard before its die is rolled; the guard is spent, and Pete uses
    another, which holds."""
    game_id = start(players, "guard foiled")
    act(game_id, players, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
    act(game_id, players, JOHN)
    act(game_id, players, LIZ)
    events = act(game_id, players, PETE, "use_guard", card="guard#8")
    assert events[-1]["type"] == "WindowOpened" and events[-1]["data"]["subject"]["kind"] == "guard"
    assert "GuardRolled" not in types(events), "the window on the guard's use comes before its die"
    assert asked(game_id, players) == (SALLY, ["pass_reaction", "play_reaction"])
    events = act(game_id, players, SALLY, "play_reaction", card="jupiters_cock#1", target=-1)
    assert "GuardFoiled" in types(events) and "GuardRolled" not in types(events)
    assert asked(game_id, players) == (PETE, ["pass_reaction", "use_guard"])
    events = act(game_id, players, PETE, "use_guard", card="guard#9")
    assert "SchemeFoiled" in types(events) and "thraex#1" in cards_of(me(game_id, players, PETE))


def test_a_guard_is_laid_out_at_any_time(players):
    """'Wachen können jederzeit von der Hand auf den Tisch gelegt werden' (p. 8): John lays a
    guard out in Pete's turn, and another while Pete's scheme against him waits for answers;
    neither moves the game on, and the others learn only that a guard came out."""
    game_id = start(players, "guards at any time")
    before = asked(game_id, players)
    place = decision_of(players[JOHN].get(f"games/{game_id}/decisions").get_json(), "place_guard")
    assert place["mode"] == "free" and [o["args"]["card"] for o in place["options"]] == ["guard#9", "guard#10"]
    none = decision_of(players[SALLY].get(f"games/{game_id}/decisions").get_json(), "place_guard")
    assert none is not None and none["options"] == [], "every hand has the same free decision"
    assert types(act(game_id, players, JOHN, "place_guard", card="guard#9")) == ["GuardPlaced"]
    assert asked(game_id, players) == before
    act(game_id, players, PETE, "play_scheme", card="blackmail#1", target=JOHN)
    window = asked(game_id, players)
    assert types(act(game_id, players, JOHN, "place_guard", card="guard#10")) == ["GuardPlaced"]
    assert asked(game_id, players) == window
    assert {"guard#9", "guard#10"} <= cards_of(me(game_id, players, JOHN))
    assert "robbery#1" not in str(events_after(players[SALLY], game_id, 0))


def test_a_guard_is_laid_out_in_the_market(players):
    """'jederzeit' (p. 8): outside the intrigue phase too."""
    game_id = start(players, "guard in the market")
    assert types(act(game_id, players, LIZ, "place_guard", card="guard#9")) == ["GuardPlaced"]
    assert "guard#9" in cards_of(me(game_id, players, LIZ))


def test_a_guard_is_laid_out_instead_of_selling_down(players):
    """'Dadurch kann ein Spieler gezwungen sein, Handkarten zu verkaufen' (p. 9) -- or to lay
    a guard on the table, which he may do at any time (p. 8): it leaves the hand too."""
    game_id = start(players, "guard instead of selling")
    events = act(game_id, players, PETE, "end_turn")
    assert "HandLimitEnforced" in types(events)
    seat, options = asked(game_id, players)
    assert seat == PETE and "place_guard" in options
    events = act(game_id, players, PETE, "place_guard", card="guard#20")
    assert "IntrigueTurnEnded" in types(events)
    pete = me(game_id, players, PETE)
    assert "guard#20" in cards_of(pete) and pete["gold"] == 0


# --------------------------------------------------------------------------- support

def test_support_bought_with_gold(players):
    """'Pete verfügt über Einfluss 4 und hat die Karte „Gewinn vom Schwarzmarkt“, die Einfluss
    7 erfordert ... Pete bittet Liz (Liz hat Einfluss 3) um ihre Unterstützung ... Liz verlangt
    dafür 2 Gold. Pete stimmt zu und spielt die Machenschaft. Niemand durchkreuzt seine
    Machenschaften, somit ist die Machenschaft erfolgreich und Pete erhält 5 Gold.' (p. 6)."""
    game_id = start(players, "black market")
    events = act(game_id, players, PETE, "request_support", card="black_market_dealings#1", target=PETE,
                 **{"from": [LIZ]})
    assert "black_market_dealings" not in str(events_after(players[LIZ], game_id, 0)), "the card stays hidden"
    assert types(act(game_id, players, PETE, "give_gold", to=LIZ, amount=2)) == ["GoldGiven"]
    assert asked(game_id, players) == (LIZ, ["grant_support", "refuse_support"])
    act(game_id, players, LIZ, "grant_support")
    assert asked(game_id, players) == (PETE, ["keep_scheme", "play_scheme"])
    act(game_id, players, PETE, "play_scheme", card="black_market_dealings#1", target=PETE)
    while asked(game_id, players)[1] == ["pass_reaction"]:
        act(game_id, players, asked(game_id, players)[0])
    assert me(game_id, players, PETE)["gold"] == 5 - 2 + 5
    assert me(game_id, players, LIZ)["gold"] == 5 + 2 and me(game_id, players, LIZ)["influence"] == 3


def test_johns_support_from_liz(players):
    """'John hat Einfluss 6 und möchte eine Machenschaft aus seiner Hand spielen, die Einfluss
    9 erfordert. Er bittet die übrigen Spieler um ihre Unterstützung, er kann Liz mit einigen
    Münzen überzeugen (Liz hat Einfluss 4) ... Für das Ausspielen dieser Machenschaft wird John
    behandelt als hätte er Einfluss 10 ... Weder Johns noch Liz´ Einfluss ändern sich
    dauerhaft.' (p. 6): John asks everybody; Pete and Sally refuse, Liz, given 2 gold,
    grants; with 6 + 4 John plays A Visitor from Rome."""
    game_id = start(players, "johns support")
    act(game_id, players, JOHN, "request_support", card="a_visitor_from_rome#1", target=JOHN,
        **{"from": [PETE, SALLY, LIZ]})
    act(game_id, players, JOHN, "give_gold", to=LIZ, amount=2)
    act(game_id, players, PETE, "refuse_support")
    act(game_id, players, SALLY, "refuse_support")
    act(game_id, players, LIZ, "grant_support")
    assert asked(game_id, players) == (JOHN, ["keep_scheme", "play_scheme"])
    act(game_id, players, JOHN, "play_scheme", card="a_visitor_from_rome#1", target=JOHN)
    while (who := asked(game_id, players))[1] == ["pass_reaction"]:
        act(game_id, players, who[0])
    assert me(game_id, players, JOHN)["influence"] == 7, "the card's own +1, nothing from the support"
    assert me(game_id, players, LIZ)["influence"] == 4 and me(game_id, players, LIZ)["gold"] == 7


def test_support_may_be_asked_as_a_bluff_of_a_group_that_could_not_cover_the_card(players):
    """'Es ist nicht nötig eine Machenschaft offen zu zeigen, um für Unterstützung zu bitten.
    Auch ist man nicht verpflichtet, die Wahrheit über sein Vorhaben zu offenbaren' (p. 6):
    John (influence 1) asks everybody (influence 1 each) for a card that needs 9; nothing the
    others see tells them the card or its requirement, and he may keep it afterwards."""
    game_id = start(players, "bluff")
    act(game_id, players, JOHN, "request_support", card="a_visitor_from_rome#1", target=JOHN,
        **{"from": [PETE, SALLY, LIZ]})
    for seat in (PETE, SALLY, LIZ):
        listing = players[seat].get(f"games/{game_id}/decisions").get_json()
        assert decision_of(listing, "support")["prompt_args"] == {"asker": JOHN}
        seen = str(events_after(players[seat], game_id, 0)) + str(listing)
        assert "a_visitor_from_rome" not in seen and "'influence': 9" not in seen
    for seat in (PETE, SALLY, LIZ):
        act(game_id, players, seat, "grant_support")
    assert asked(game_id, players) == (JOHN, ["keep_scheme"]), "four times 1 influence cannot play it"
    events = act(game_id, players, JOHN, "keep_scheme")
    assert "a_visitor_from_rome" not in str(events_after(players[PETE], game_id, 0)) and events


# --------------------------------------------------------------------------- committed gold at the upkeep

def test_sally_pays_her_upkeep_in_full_and_is_left_destitute(players):
    """'In der Unterhaltsphase hat Sally nur 2 Gold, welches sie komplett benötigt, um ihr
    Konto auszugleichen und verbleibt ohne Gold. John kann nun die Reaktionskarte „Mittellos!“
    spielen ... Sally verliert dadurch einen Punkt Einfluss' (p. 7).  Her 'I pay' sets the
    2 gold aside: she cannot give it to Liz before every choice is revealed."""
    game_id = start(players, "destitute")
    listing = players[SALLY].get(f"games/{game_id}/decisions").get_json()
    accounts = decision_of(listing, "accounts")
    assert accounts["prompt_args"] == {"bill": 2} and accounts["schema"]["properties"]["release"]["minItems"] == 0
    act(game_id, players, SALLY, "settle_accounts", release=[])
    sally = me(game_id, players, SALLY)
    assert (sally["gold"], sally["committed"], sally["free_gold"]) == (2, 2, 0)
    listing = players[SALLY].get(f"games/{game_id}/decisions").get_json()
    assert decision_of(listing, "give_gold")["options"] == [], "nothing left to give"
    refused = command(players[SALLY], game_id, listing["version"], "give_gold", to=LIZ, amount=2)
    assert refused.status_code == 409, refused.get_json()
    assert players[SALLY].get(f"games/{game_id}/decisions").get_json()["version"] == listing["version"]
    act(game_id, players, PETE, "settle_accounts", release=[])  # the only other dominus with a bill
    paid = [e["data"] for e in events_after(players[PETE], game_id, listing["version"]) if e["type"] == "GoldPaid"]
    assert [(d["seat"], d["amount"]) for d in paid if d["reason"] == "upkeep"] == [(PETE, 1), (SALLY, 2)]
    assert me(game_id, players, SALLY)["gold"] == 0 and len(me(game_id, players, SALLY)["property"]) == 2
    assert asked(game_id, players) == (JOHN, ["pass_reaction", "play_reaction"])
    act(game_id, players, JOHN, "play_reaction", card="destitute#1", target=SALLY)
    while (who := asked(game_id, players))[1] == ["pass_reaction"]:
        act(game_id, players, who[0])
    assert me(game_id, players, SALLY)["influence"] == 3
    assert "destitute#1" in board(players, PETE, game_id)["intrigue_discard"]


# --------------------------------------------------------------------------- the tournament's net

def test_a_net_thrown_in_a_tournament_fight_is_exhausted_and_not_offered_again(players):
    """'Bevor die SCH gewürfelt wird, um die Initiative zu bestimmen, wird die Karte „Netz“
    erschöpft' (p. 15), and the tournament's fights are fought 'nach den normalen Regeln'
    (p. 17): Sally throws her net in her first match; it lies exhausted, and her fighter for
    the final comes without it."""
    game_id = start(players, "tournament")
    now = listings(game_id, players)
    first = decision_of(now[SALLY], "tournament_fighter") or decision_of(now[LIZ], "tournament_fighter")
    assert first is not None, "the two poorest, Sally and Liz, fight first"
    act(game_id, players, SALLY, "set_fight_plan", net="first_round")
    version = players[SALLY].get(f"games/{game_id}/decisions").get_json()["version"]
    settled = []
    for _ in range(400):
        now = listings(game_id, players)
        settled = [e["data"] for e in events_after(players[PETE], game_id, version) if e["type"] == "FightSettled"]
        if settled:
            break
        seat, decision = next((seat, d) for seat, body in now.items() for d in body["decisions"] if d["mode"] != "free")
        answer = decision["default"]
        if decision["prompt_key"] == "tournament_fighter" and seat == SALLY:
            answer = next(o for o in decision["options"] if o["args"]["special"] == "net#1"
                          and o["args"]["fighter"] == "theokoles#1")
        assert command(players[seat], game_id, now[seat]["version"], answer["type"], **answer["args"]).status_code == 200
    assert settled and settled[0]["tournament"] is True
    net = next(a for a in me(game_id, players, SALLY)["property"] if a["card"] == "net#1")
    assert net["exhausted"]
    assert settled[0]["winner_seat"] == SALLY, "the seeded dice let Sally reach the final"
    final = decision_of(players[SALLY].get(f"games/{game_id}/decisions").get_json(), "tournament_fighter")
    if final is None:  # Pete chooses first
        act(game_id, players, PETE, "choose_tournament_fighter", fighter="crixus#1", weapon="", armour="", special="")
        final = decision_of(players[SALLY].get(f"games/{game_id}/decisions").get_json(), "tournament_fighter")
    assert {o["args"]["special"] for o in final["options"]} == {""}, "an exhausted net is not offered again"


# --------------------------------------------------------------------------- the seam itself

def test_a_configuration_without_testing_never_starts_from_a_hand_built_state(config_overrides):
    """The seam these tests use is read only under ``TESTING``: production never calls it."""
    from service.play import games
    from service.plumbing.config import load_config

    def hand_built_start(game: Any, state: Any) -> Any:
        raise AssertionError("called outside a test")

    overrides = {k: v for k, v in config_overrides.items() if k != "TESTING"}
    config = load_config(overrides={**overrides, "test_start_state": hand_built_start}, environ={})
    assert not config.extra.get("TESTING")
    state = object()
    assert games._test_start_state(None, config, None, None, state) is state


def test_a_hand_built_start_survives_a_cold_load(players):
    """The hand-built state is stored as the game's snapshot at version 0: a process that never
    saw the game start (no cached state) folds the events onto it, not onto a fresh deal."""
    from service.play import store

    game_id = start(players, "two guards")
    act(game_id, players, SALLY, "play_scheme", card="incite_rebellion#1", target=PETE)
    store.clear_state_cache()
    assert {"thraex#1", "guard#8"} <= cards_of(me(game_id, players, PETE))
    assert asked(game_id, players) == (JOHN, ["pass_reaction"])
