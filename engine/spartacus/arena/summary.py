"""One readable English paragraph of a fight, from its events alone (for the email)."""

from __future__ import annotations

from typing import Iterable

from engine.core.types import Event

_OUTCOME = {
    "defeated": "{loser} yielded and is at the mercy of the host of the games",
    "injured": "{loser} was carried off the sand injured",
    "decapitated": "{loser} was decapitated",
}


def _dice(values) -> str:
    return "-".join(str(v) for v in values) or "nothing"


def _stats(d) -> str:
    return f"{d['attack']}/{d['defence']}/{d['speed']}"


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def summarize(events: Iterable[Event]) -> str:
    """Who fought with what, how the blows went, the moments that mattered, and the end."""
    names = ["Fighter I", "Fighter II"]
    intro = ""
    attacks = [0, 0]
    dealt = [0, 0]
    moments: list[str] = []
    power_totals: dict[tuple[int, str, str], int] = {}
    card_names: dict[str, str] = {}
    last_attack = None
    last_wound = None
    rounds = 0
    ending = None
    dice_now = None
    for event in events:
        data = event.data
        kind = event.type
        if kind == "FightBegan":
            sides = data["sides"]
            names = [s["name"] for s in sides]
            card_names = {e["card"]: e["name"] for s in sides for e in s["equipment"]}
            described = []
            for s in sides:
                kit = [e["name"] for e in s["equipment"]]
                text = f"{s['name']} ({s['attack']}/{s['defence']}/{s['speed']}"
                text += f", with {_join(kit)})" if kit else ")"
                described.append(text)
            intro = f"{described[0]} faced {described[1]} in the arena."
        elif kind == "RoundStarted":
            rounds = data["round"]
            dice_now = [dict(d) for d in data["dice"]]
        elif kind == "NetsRevealed" and data["used"]:
            if len(data["used"]) == 2:
                moments.append(f"in round {data['round']} both threw their nets and the nets cancelled out")
            else:
                moments.append(f"{names[data['used'][0]]} threw the net to seize the initiative in round {data['round']}")
        elif kind == "AttackDeclared":
            attacks[data["side"]] += 1
            if data["style"] == "speed":
                weapon = card_names.get(data["source"], data["source"])
                hexes = "hex" if data["distance"] == 1 else "hexes"
                moments.append(f"{names[data['side']]} made a speed attack with the {weapon} "
                               f"from {data['distance']} {hexes} in round {data['round']}")
        elif kind == "AttackResolved":
            attacker, defender = data["attacker"], data["defender"]
            for use in data["powers"]:
                owner = attacker if use["side"] == "attacker" else defender
                power_totals[(owner, use["name"], use["kind"])] = \
                    power_totals.get((owner, use["name"], use["kind"]), 0) + use["amount"]
            last_attack = data
        elif kind == "WoundsTaken":
            if data["reason"] == "attack" and last_attack is not None:
                dealt[last_attack["attacker"]] += sum(data["removed"].values())
            elif data["reason"] == "counter" and last_attack is not None:
                dealt[last_attack["defender"]] += sum(data["removed"].values())
            last_wound = data
            if dice_now is not None:
                dice_now[data["side"]] = dict(data["dice"])
        elif kind == "FatigueStruck" and not any("fatigue" in m for m in moments):
            moments.append(f"fatigue set in after round {data['round']}")
        elif kind == "FightEnded":
            ending = data
    for (owner, name, kind), amount in power_totals.items():
        noun = "wound" if amount == 1 else "wounds"
        if kind == "ignore_wound":
            moments.append(f"{names[owner]}'s {name} turned aside {amount} {noun}")
        elif kind == "counter_wound":
            moments.append(f"{names[owner]}'s {name} struck back for {amount} {noun}")
        else:
            moments.append(f"{names[owner]}'s {name} added {amount} {noun}")
    parts = [intro] if intro else []
    if rounds:
        blows = []
        for i in (0, 1):
            a = attacks[i]
            blows.append(f"{names[i]} attacked {a} time{'s' if a != 1 else ''} and dealt {dealt[i]} "
                         f"wound{'s' if dealt[i] != 1 else ''}")
        parts.append(f"Over {rounds} round{'s' if rounds != 1 else ''} {blows[0]}; {blows[1]}.")
    if moments:
        text = _join(moments)
        parts.append(text[0].upper() + text[1:] + ".")
    if ending is not None:
        winner, loser = names[ending["winner"]], names[ending["loser"]]
        outcome = _OUTCOME[ending["kind"]].format(loser=loser)
        if ending["cause"] == "fatigue":
            parts.append(f"Exhausted in round {ending['round']}, {outcome}: {winner} won.")
        elif last_attack is not None and last_wound is not None:
            a = names[last_attack["attacker"]]
            parts.append(
                f"In round {ending['round']} {a}'s attack ({_dice(last_attack['attack'])} against "
                f"{_dice(last_attack['defence'])}) settled it: {outcome}, and {winner} won.")
        else:
            parts.append(f"{outcome[0].upper() + outcome[1:]}, and {winner} won.")
    elif dice_now is not None:
        parts.append(f"The fight goes on ({names[0]} {_stats(dice_now[0])}, {names[1]} {_stats(dice_now[1])}).")
    return " ".join(parts)
