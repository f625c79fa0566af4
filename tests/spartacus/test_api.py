"""Arena duels through the REST API: step by step, and with a fight plan."""

from __future__ import annotations

import random

from tests.api.players import blocking, create_game, play_to_end

OPTIONS = {"fighter_i": "spartacus", "weapon_i": "sword", "armour_i": "helmet",
           "fighter_ii": "agron", "special_ii": "net", "armour_ii": "helmet"}


def test_game_type_is_listed_with_its_options(ann):
    types = ann.get("games/types").get_json()["game_types"]
    (arena,) = [t for t in types if t["name"] == "spartacus_arena"]
    assert arena["title"] == "Spartacus: Arena duel" and arena["seat_counts"] == [2]
    assert "javelin" in arena["options_schema"]["properties"]["special_i"]["enum"]


def test_a_duel_is_played_step_by_step_through_the_api(ann):
    game = create_game(ann, game_type="spartacus_arena", options=OPTIONS, seats=2, bot_seats=[1])
    assert game["status"] == "running"
    final = play_to_end(game["id"], [ann], random.Random(5))
    outcome = final["outcome"]
    assert outcome["detail"]["kind"] in ("defeated", "injured", "decapitated")
    assert outcome["winners"] == [outcome["detail"]["winner_seat"]]
    events = ann.get(f"games/{game['id']}/events?limit=1000").get_json()["events"]
    types = [e["type"] for e in events]
    assert "FightBegan" in types and types.count("FightEnded") == 1


def test_a_fight_plan_lets_the_duel_finish_without_asking_again(ann, bob):
    game = create_game(ann, game_type="spartacus_arena", options=OPTIONS, seats=2, bot_seats=[1])
    listing = ann.get(f"games/{game['id']}/decisions").get_json()
    assert blocking(listing["decisions"])
    plan = {"approach": "close", "reroll": "smart", "wound_order": ["speed", "defence", "attack"]}
    response = ann.post(f"games/{game['id']}/commands", idempotent=True,
                        json={"type": "set_fight_plan", "args": plan, "expected_version": listing["version"]})
    assert response.status_code == 200, response.get_json()
    final = ann.get(f"games/{game['id']}").get_json()
    assert final["status"] == "finished" and final["outcome"] is not None
    mine = ann.get(f"games/{game['id']}/events?limit=1000").get_json()["events"]
    assert any(e["type"] == "FightPlanSet" for e in mine)
    theirs = bob.get(f"games/{game['id']}/events?limit=1000")
    if theirs.status_code == 200:
        assert not any(e["type"] == "FightPlanSet" for e in theirs.get_json()["events"])


def test_a_finished_duel_tells_its_fight_in_one_paragraph_to_each_player(ann, bob):
    """The summary endpoint: the fight blow by blow in a paragraph, from the event log."""
    import random as _random

    from tests.api.players import create_game, play_to_end

    game = create_game(ann, game_type="spartacus_arena", seats=2, bot_seats=[1], my_seat=0)
    play_to_end(game["id"], [ann], _random.Random(11))
    told = ann.get(f"games/{game['id']}/summary").get_json()
    assert told["game_id"] == game["id"] and "faced" in told["summary"] and told["summary"].endswith("won.")
    spectator = bob.get(f"games/{game['id']}/summary")
    assert spectator.status_code == 200 and spectator.get_json()["summary"]
    assert ann.get("games/nope-nope/summary").status_code == 404


def test_a_duel_first_asks_how_i_fight_and_blow_by_blow_a_turn_is_one_command(ann):
    game = create_game(ann, game_type="spartacus_arena", options=OPTIONS, seats=2, bot_seats=[1])
    listing = ann.get(f"games/{game['id']}/decisions").get_json()
    (first,) = blocking(listing["decisions"])
    assert first["prompt_key"] == "spartacus_arena.prepare" and first["command_type"] == "set_fight_plan"
    assert first["schema"]["properties"]["approach"]["title"] == "Approach"
    response = ann.post(f"games/{game['id']}/commands", idempotent=True,
                        json={"type": "set_fight_plan", "args": {"active": False},
                              "expected_version": listing["version"]})
    assert response.status_code == 200, response.get_json()
    rng = random.Random(9)
    # in round 1 the fighters stand six hexes apart, out of each other's reach: whoever wins the
    # initiative, my turn is asked in that round (as the winner's order answer, or as my turn)
    for _ in range(20):
        listing = ann.get(f"games/{game['id']}/decisions").get_json()
        owed = blocking(listing["decisions"])
        if not owed:
            break
        decision = owed[0]
        assert decision["prompt_key"] != "spartacus_arena.prepare"
        if decision["prompt_key"] in ("spartacus_arena.turn", "spartacus_arena.choose_order"):
            kinds = {o["type"] for o in decision["options"]}
            assert {"move", "end_turn"} <= kinds <= {"choose_order", "move", "attack", "end_turn"}
            assert all(o["args"].get("then") in ("stay", "move") for o in decision["options"] if o["type"] == "attack")
            return
        option = rng.choice(decision["options"])
        ann.post(f"games/{game['id']}/commands", idempotent=True,
                 json={**option, "expected_version": listing["version"]})
    raise AssertionError("no turn of mine was asked")
