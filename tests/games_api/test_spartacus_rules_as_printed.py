"""Spartacus as printed, met where a player meets it: through the REST API.

Three players (ann, bob and cat) play a game over ``/api/v1``; chance is drawn from a
seeded generator so that every run deals the same cards and dice.  Each test walks the
game with the players' default answers to the moment its rule is about (houses chosen:
ann Batiatus, the others what is left), then acts as the players would.

- Committed gold: 'every player takes his stake in his closed hand' (p. 10); 'equal bids:
  those players put their gold on the table and bid again' (p. 10); 'the bet is placed in
  its corner of the board' (p. 12) -- while 'gold can change hands at any time' (p. 3).
- Support: 'should a player not have enough influence, he may ask another player for
  support ... it is not necessary to show the scheme to ask for support, nor must one tell
  the truth about one's plans' (p. 6).
- The rulebook's defaults: the game ends when a dominus ends a phase with 12 influence
  (p. 17); a round limit or an influence cap is a house rule a group chooses.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest

from engine.core.chance import RESOLVE_CHANCE, draw_outcome
from engine.core.types import SYSTEM_SEAT, Command
from service.play import bots as service_bots
from tests.games_api.api_steps import board, command, decision_of, events_after, listings

Stop = Callable[[dict[int, dict]], bool]


@pytest.fixture
def table(monkeypatch, ann, bob, make_client):
    """A 3-player game of three humans with scripted chance: ``(game_id, {seat: client})``."""
    rng = random.Random(20261126)
    monkeypatch.setattr(service_bots, "chance_command", lambda request, draw=None: Command(
        SYSTEM_SEAT, RESOLVE_CHANCE, {"id": request.id, "outcome": draw_outcome(request, rng.randrange)}))
    cat = make_client("cat")
    created = ann.post("games", json={"game_type": "spartacus", "seats": 3, "options": {},
                                      "invites": ["bob@example.org", "cat@example.org"]}, idempotent=True)
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    for client in (bob, cat):
        assert client.post(f"games/{game_id}/join", idempotent=True).status_code == 200
    seats = {}
    for client in (ann, bob, cat):
        seats[client.get(f"games/{game_id}").get_json()["my_seat"]] = client
    return game_id, seats


def _default_answer(decision: dict, seat_is_ann: bool) -> tuple[str, dict]:
    """The default, except where the walk needs more: ann takes Batiatus, the others not;
    an invited dominus sends a fighter (so that the games take place)."""
    if decision["command_type"] == "choose_house":
        houses = [o for o in decision["options"] if (o["args"]["house"] == "batiatus") == seat_is_ann]
        option = houses[0] if houses else decision["options"][0]
        return option["type"], option["args"]
    if decision["prompt_key"] == "invitation" and len(decision["options"]) > 1:
        return decision["options"][1]["type"], decision["options"][1]["args"]
    return decision["default"]["type"], decision["default"]["args"]


def walk(game_id: str, seats: dict[int, Any], ann_seat: int, stop: Stop, limit: int = 2_000) -> dict[int, dict]:
    """Answer blocking decisions with their defaults until ``stop(listings)`` holds."""
    for _ in range(limit):
        now = listings(game_id, seats)
        if stop(now):
            return now
        owed = [(seat, d) for seat, body in now.items() for d in body["decisions"] if d["mode"] != "free"]
        assert owed, "somebody must owe an answer"
        seat, decision = owed[0]
        type_, args = _default_answer(decision, seat == ann_seat)
        response = command(seats[seat], game_id, now[seat]["version"], type_, **args)
        assert response.status_code == 200, response.get_json()
    raise AssertionError("the walk did not reach its moment")


def owes(seat: int, prompt_key: str) -> Stop:
    return lambda now: any(d["prompt_key"] == prompt_key for d in now[seat]["decisions"])


def gifts(listing: dict) -> list:
    """The answers the seat's give_gold decision lists (none while all its gold is set aside)."""
    (gift,) = [d for d in listing["decisions"] if d["command_type"] == "give_gold"]
    return gift.get("options", ["schema"])


def ann_seat_of(seats: dict[int, Any], ann: Any) -> int:
    return next(seat for seat, client in seats.items() if client is ann)


# --------------------------------------------------------------------------- committed gold

def test_a_bid_in_the_closed_fist_cannot_be_given_away_and_is_paid_in_full(table, ann):
    """'Every player takes his stake in his closed hand ... the highest bid wins and pays
    the bank' (p. 10): ann bids, then tries to give the same gold to bob."""
    game_id, seats = table
    a = ann_seat_of(seats, ann)
    b, c = [s for s in seats if s != a]
    now = walk(game_id, seats, a, owes(a, "bid"))
    gold = board(seats, a, game_id)["players"][a]["gold"]
    assert gold >= 2
    bid = gold - 1
    assert command(ann, game_id, now[a]["version"], "place_bid", amount=bid).status_code == 200

    mine = board(seats, a, game_id)["players"][a]
    assert (mine["committed"], mine["free_gold"]) == (bid, 1)
    theirs = board(seats, b, game_id)["players"][a]
    assert "committed" not in theirs and theirs["gold"] is None, "a closed fist hides the amount"

    version = ann.get(f"games/{game_id}/decisions").get_json()["version"]
    refused = command(ann, game_id, version, "give_gold", to=b, amount=2)
    assert refused.status_code == 422, "the listed maximum is the gold not set aside"
    assert ann.get(f"games/{game_id}/decisions").get_json()["version"] == version, "a refusal changes nothing"
    assert command(ann, game_id, version, "give_gold", to=b, amount=1).status_code == 200

    for seat in (b, c):
        listing = seats[seat].get(f"games/{game_id}/decisions").get_json()
        assert command(seats[seat], game_id, listing["version"], "place_bid", amount=0).status_code == 200
    won = [e for e in events_after(ann, game_id, version) if e["type"] == "AuctionWon"]
    assert [(e["data"]["seat"], e["data"]["price"]) for e in won] == [(a, bid)]
    assert board(seats, a, game_id)["players"][a]["gold"] == 0


def test_a_tied_stake_lies_on_the_table_and_the_tied_bidder_can_always_bid_0(table, ann):
    """'Equal bids: those players put their gold on the table and bid again, adding to
    their stakes' (p. 10): the stake is public and set aside; ann gives away everything
    else, and bidding 0 (the decision's default) is still accepted."""
    game_id, seats = table
    a = ann_seat_of(seats, ann)
    b, c = [s for s in seats if s != a]
    now = walk(game_id, seats, a, owes(a, "bid"))
    assert command(ann, game_id, now[a]["version"], "place_bid", amount=1).status_code == 200
    version = seats[b].get(f"games/{game_id}/decisions").get_json()["version"]
    assert command(seats[b], game_id, version, "place_bid", amount=1).status_code == 200
    version = seats[c].get(f"games/{game_id}/decisions").get_json()["version"]
    assert command(seats[c], game_id, version, "place_bid", amount=0).status_code == 200

    seen_by_cat = board(seats, c, game_id)
    assert seen_by_cat["players"][a]["staked"] == 1 and seen_by_cat["market"]["auction"]["stakes"][str(a)] == 1
    listing = ann.get(f"games/{game_id}/decisions").get_json()
    free = board(seats, a, game_id)["players"][a]["free_gold"]
    assert free > 0
    assert command(ann, game_id, listing["version"], "give_gold", to=c, amount=free).status_code == 200
    listing = ann.get(f"games/{game_id}/decisions").get_json()
    bid = decision_of(listing, "bid")
    assert bid["schema"]["properties"]["amount"]["maximum"] == 0
    assert gifts(listing) == [], "the stake cannot be given"
    assert command(ann, game_id, listing["version"], "place_bid", amount=0).status_code == 200
    version = seats[b].get(f"games/{game_id}/decisions").get_json()["version"]
    assert command(seats[b], game_id, version, "place_bid", amount=1).status_code == 200
    won = [e for e in events_after(ann, game_id, listing["version"]) if e["type"] == "AuctionWon"]
    assert [(e["data"]["seat"], e["data"]["price"]) for e in won] == [(b, 2)]
    assert board(seats, a, game_id)["players"][a]["gold"] == 1, "the losing stake went back"


def test_bets_are_set_aside_and_staked_in_full(table, ann):
    """'A bet is 1 to 3 gold and is placed in its corner of the board' (p. 12): the gold bet
    cannot be given away before the bets are revealed, and all of it is staked."""
    game_id, seats = table
    a = ann_seat_of(seats, ann)
    b = next(s for s in seats if s != a)
    now = walk(game_id, seats, a, owes(a, "bets"))
    gold = board(seats, a, game_id)["players"][a]["gold"]
    assert gold >= 2
    stake = min(3, gold - 1)
    assert command(ann, game_id, now[a]["version"], "place_bets", injury=stake).status_code == 200
    listing = ann.get(f"games/{game_id}/decisions").get_json()
    assert command(ann, game_id, listing["version"], "give_gold", to=b, amount=gold - stake + 1).status_code == 422
    assert command(ann, game_id, listing["version"], "give_gold", to=b, amount=gold - stake).status_code == 200
    assert gifts(ann.get(f"games/{game_id}/decisions").get_json()) == [], "the bet cannot be given"
    walk(game_id, seats, a, lambda now: not any(d["prompt_key"] == "bets" for body in now.values()
                                                for d in body["decisions"]))
    paid = [e["data"]["amount"] for e in events_after(ann, game_id, listing["version"])
            if e["type"] == "GoldPaid" and e["data"]["reason"] == "bet_stake" and e["data"]["seat"] == a]
    assert paid == [stake]


# --------------------------------------------------------------------------- support

def test_support_may_be_asked_of_anyone_again_after_a_refusal_and_reveals_no_card(table, ann):
    """'It is not necessary to show the scheme to ask for support, nor must one tell the
    truth about one's plans' (p. 6): ann names a card only she sees, bob refuses, ann asks
    again, then keeps the card; nobody else learns what it was or what it needs."""
    game_id, seats = table
    a = ann_seat_of(seats, ann)
    b, c = [s for s in seats if s != a]
    now = walk(game_id, seats, a, owes(a, "intrigue_turn"))
    ask = decision_of(now[a], "request_support")
    assert ask is not None and ask["mode"] == "free"
    card = ask["schema"]["properties"]["card"]["enum"][0]
    version = now[a]["version"]
    assert command(ann, game_id, version, "request_support", card=card, target=b, **{"from": [b]}).status_code == 200

    asked = decision_of(seats[b].get(f"games/{game_id}/decisions").get_json(), "support")
    assert asked is not None and card not in str(asked)
    for seat in (b, c):
        told = events_after(seats[seat], game_id, version)
        assert card not in str(told) and "target" not in str([e for e in told if e["type"] == "SupportRequested"])
    listing = seats[b].get(f"games/{game_id}/decisions").get_json()
    assert command(seats[b], game_id, listing["version"], "refuse_support").status_code == 200

    listing = ann.get(f"games/{game_id}/decisions").get_json()
    choice = decision_of(listing, "supported")
    assert choice["default"]["type"] == "keep_scheme"
    assert command(ann, game_id, listing["version"], "keep_scheme").status_code == 200
    kept = [e for e in events_after(seats[c], game_id, listing["version"]) if e["type"] == "SupportedSchemeKept"]
    assert len(kept) == 1 and card not in str(kept)

    listing = ann.get(f"games/{game_id}/decisions").get_json()
    again = command(ann, game_id, listing["version"], "request_support", card=card, target=a, **{"from": [b, c]})
    assert again.status_code == 200, "asking again after a refusal, of any group"


# --------------------------------------------------------------------------- the rulebook's defaults

def test_a_new_game_has_no_round_limit_and_no_influence_cap_unless_chosen(ann):
    """'The goal of the game is to raise your house's influence to 12' (p. 3): the game ends
    when a dominus wins, not after a number of rounds; a limit or a cap is a house rule."""
    types = {t["name"]: t for t in ann.get("games/types").get_json()["game_types"]}
    options = types["spartacus"]["options_schema"]["properties"]
    for name in ("max_rounds", "influence_cap"):
        assert options[name]["default"] == 0
        assert options[name]["description"].startswith("house rule, not in the rulebook")
