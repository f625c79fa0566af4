"""No API answer shows a player what they may not know.

Full PAX games with three humans and bots (4 and 6 seats) are played through the API
while every answer to every player, and to a spectator, is scanned:

* by key: ``hand``, ``gold``, ``drawn``, ``aurei`` and ``hand_size`` only ever appear in an
  object about the asking seat (the nearest enclosing ``"seat"`` is theirs);
* by card: no card id that is secret from the asker at that moment appears anywhere.

Secrecy is computed from the engine's full state, folded event by event from the event
store, not from anything the API said: a card is secret from a viewer while it sits in
another seat's hand or draw, in the deck or the cards set aside, or among Rome's hidden
cards (until the viewer peeked or the game ended), unless it has ever lain face up
(legions, Rome's open row, a tableau) or the viewer has held it.
"""

from __future__ import annotations

import random
from typing import Any, Iterator, Optional

import pytest

from engine import registry
from service.play import store
from service.plumbing.db import Game
from service.plumbing import database
from tests.api.players import create_game, play_to_end

PRIVATE_KEYS = {"hand", "gold", "drawn", "aurei", "hand_size"}
#: revealed for every seat by the final scoring
PUBLIC_AT_THE_END = {"riches"}


def _ids(cards) -> set[str]:
    return {c.id for c in cards}


class Secrets:
    """Folds the game's stored events and answers "which card ids are secret from whom"."""

    def __init__(self, app, game_id: str) -> None:
        self.sessions = database.sessions(app)
        self.game_id = game_id
        self.rules = registry.get("pax")
        self.state: Any = None
        self.seq = 0
        self.ever_public: set[str] = set()
        self.ever_known: dict[int, set[str]] = {}

    def catch_up(self) -> None:
        with self.sessions() as s:
            game = s.get(Game, self.game_id)
            if self.state is None:
                self.state = self.rules.initial_state(game.seat_count, game.options)
                self.ever_known = {seat: set() for seat in range(game.seat_count)}
            for recorded in store.load_events(s, self.game_id, after=self.seq):
                self.state = self.rules.apply(self.state, recorded.event)
                self.seq = recorded.seq
                self._note(self.state)

    def _note(self, st) -> None:
        if st.phase == "shuffle":
            return
        for legion in st.legions:
            self.ever_public |= _ids(legion)
        for tableau in st.tableaux:
            self.ever_public |= _ids(tableau)
        self.ever_public |= _ids(st.rome_open) | _ids(st.laid_this_turn)
        if st.phase == "ended":
            self.ever_public |= _ids(st.rome_hidden)
        for seat in range(st.seats):
            self.ever_known[seat] |= _ids(st.hands[seat]) | _ids(st.limbo[seat])
            if seat in st.peeked:
                self.ever_known[seat] |= _ids(st.rome_hidden)

    @property
    def ended(self) -> bool:
        return self.state is not None and self.state.phase == "ended"

    def secret_from(self, viewer: Optional[int]) -> set[str]:
        st = self.state
        if st is None or st.phase == "shuffle":
            return set()
        hidden = _ids(st.deck) | _ids(st.set_aside) | _ids(st.rome_hidden)
        for seat in range(st.seats):
            if seat != viewer:
                hidden |= _ids(st.hands[seat]) | _ids(st.limbo[seat])
        hidden -= self.ever_public
        if viewer is not None:
            hidden -= self.ever_known[viewer]
        return hidden


def _walk(value: Any) -> Iterator[tuple[Any, Optional[int]]]:
    """Every value inside ``value`` with the seat it is about: the ``"seat"`` of the
    nearest enclosing object that names one (a decision's context belongs to the
    decision's seat), ``None`` where no object names a seat."""
    stack: list[tuple[Any, Optional[int]]] = [(value, None)]
    while stack:
        item, owner = stack.pop()
        if isinstance(item, dict) and "seat" in item:
            owner = item["seat"]
        yield item, owner
        if isinstance(item, dict):
            stack.extend((child, owner) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, owner) for child in item)


class LeakScanner:
    def __init__(self, secrets: Secrets, seat_of: dict[str, Optional[int]]) -> None:
        self.secrets = secrets
        self.seat_of = seat_of
        self.scanned = 0
        self.checked_ids = 0

    def __call__(self, client, method: str, url: str, response) -> None:
        if f"/games/{self.secrets.game_id}" not in url and not url.endswith("/games"):
            return
        if response.mimetype != "application/json" or response.status_code == 304:
            return
        self.secrets.catch_up()
        viewer = self.seat_of[client.email]
        body = response.get_json()
        secret = self.secrets.secret_from(viewer)
        watched = PRIVATE_KEYS if self.secrets.ended else PRIVATE_KEYS | PUBLIC_AT_THE_END
        for item, owner in _walk(body):
            if isinstance(item, dict):
                private = watched & set(item)
                if private:
                    assert viewer is not None and owner == viewer, (
                        f"{method} {url} shows {sorted(private)} of seat {owner} to seat {viewer}: {item}")
            elif isinstance(item, str) and item in secret:
                raise AssertionError(f"{method} {url} shows card {item}, secret from seat {viewer}")
        self.scanned += 1
        self.checked_ids += len(secret)


def _extra_reads(humans, spectator, game_id: str, rng: random.Random):
    """Every third round each reader (the spectator too) also looks at the game, its
    latest events and decisions; every ninth at an earlier state and their games."""

    def read(round_: int) -> None:
        if round_ % 3:
            return
        for client in [*humans, spectator]:
            view = client.get(f"games/{game_id}")
            client.get(f"games/{game_id}", headers={"If-None-Match": view.headers["ETag"]})
            version = view.get_json()["version"]
            client.get(f"games/{game_id}/events?after={max(0, version - 40)}")
            client.get(f"games/{game_id}/decisions")
            if round_ % 9 == 0:
                client.get(f"games/{game_id}/states/{rng.randint(0, version)}")
                client.get("games")

    return read


@pytest.mark.parametrize("seats", [4, 6])
def test_no_answer_leaks_hidden_information(app, make_client, seats):
    rng = random.Random(seats * 7919)
    ann, bob, cat, dan = (make_client(n) for n in ("ann", "bob", "cat", "dan"))
    game = create_game(ann, game_type="pax", seats=seats, my_seat=0,
                       invites=["bob@example.org", "cat@example.org"], bot_seats=list(range(3, seats)))
    assert bob.post(f"games/{game['id']}/join").status_code == 200
    assert cat.post(f"games/{game['id']}/join").status_code == 200

    secrets = Secrets(app, game["id"])
    seat_of = {"ann@example.org": 0, "bob@example.org": 1, "cat@example.org": 2, "dan@example.org": None}
    scanner = LeakScanner(secrets, seat_of)
    humans = [ann, bob, cat]
    for client in [*humans, dan]:
        client.observer = scanner
    for client in humans:
        assert client.get(f"games/{game['id']}").get_json()["my_seat"] == seat_of[client.email]

    final = play_to_end(game["id"], humans, rng, between=_extra_reads(humans, dan, game["id"], rng))
    for client in [*humans, dan]:
        after = 0
        while page := client.get(f"games/{game['id']}/events?after={after}&limit=1000").get_json()["events"]:
            after = page[-1]["seq"]
        assert after == final["version"]

    assert final["status"] == "finished"
    assert secrets.ended
    assert scanner.scanned > 150
    assert scanner.checked_ids > 1000, "the scan must have had secrets to look for"


def test_the_scanner_catches_a_leak(app, make_client):
    """The scan is only worth something if it fails on a leak: show it one."""
    ann = make_client("ann")
    game = create_game(ann, game_type="pax", seats=2, bot_seats=[1])
    secrets = Secrets(app, game["id"])
    scanner = LeakScanner(secrets, {"ann@example.org": 0})
    secrets.catch_up()
    bots_hand = sorted(_ids(secrets.state.limbo[1]) | _ids(secrets.state.hands[1]))
    assert bots_hand

    class Fake:
        mimetype = "application/json"
        status_code = 200

        def __init__(self, body):
            self.body = body

        def get_json(self):
            return self.body

    url = f"/api/v1/games/{game['id']}"
    with pytest.raises(AssertionError, match="secret from seat 0"):
        scanner(ann, "GET", url, Fake({"board": {"note": bots_hand[0]}}))
    with pytest.raises(AssertionError, match="shows"):
        scanner(ann, "GET", url, Fake({"players": [{"seat": 1, "gold": 5}]}))
    scanner(ann, "GET", url, Fake({"me": {"seat": 0, "gold": 5, "hand": []}}))
