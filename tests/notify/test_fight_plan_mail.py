"""The invitation to the games comes with the fight plan: its mail offers the plan's named
choices as one-click buttons (close in, keep your distance, no plan) and a link to the whole
plan form, so a player sets the plan from the mailbox together with the answer."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from service.play import games, store
from service.plumbing.db import Game, User
from tests.notify.helpers import new_game
from tests.notify.support import buttons, csrf_from, path_of, pump, text_of

PLAYERS = ("ann", "bob", "cat", "dan")


def _users(s) -> dict[str, User]:
    return {name: s.scalars(select(User).where(User.email == f"{name}@example.org")).one() for name in PLAYERS}


def play_until_asked(sessions, cfg, game_id, prompt_key: str) -> str:
    """Everybody answers with the default, except that the host invites, until a decision
    ``prompt_key`` is open; returns whose it is."""
    for _ in range(600):
        with sessions() as s:
            for name, user in _users(s).items():
                owed = [d for d in games.decisions_for(s, game_id, user) if d["mode"] != "free"]
                if any(d["prompt_key"] == prompt_key for d in owed):
                    return name
                if owed:
                    d = owed[0]
                    command = d["default"]
                    if d["prompt_key"] == "invite" and d.get("options"):
                        command = next((o for o in d["options"] if o["type"] == "invite"), command)
                    games.submit_command(s, cfg, game_id, user, command_type=command["type"], args=command["args"],
                                         expected_version=None)
                    s.commit()
                    break
            else:
                raise AssertionError("nobody owes anything")
    raise AssertionError(f"nobody was asked {prompt_key}")


@pytest.mark.parametrize("language, words", [
    ("en", ("Fight plan: close in and strike", "Fight plan: keep your distance",
            "No plan: ask me every question of the fight")),
    ("de", ("Kampfplan: herangehen und zuschlagen", "Kampfplan: Abstand halten",
            "Kein Plan: jede Frage des Kampfes mir stellen")),
    ("ru", ("План боя: сблизиться и бить", "План боя: держать дистанцию",
            "Без плана: спрашивать меня обо всём в бою")),
])
def test_the_invitation_mail_sets_the_fight_plan_with_one_click(app, sessions, cfg, smtp_sink, language, words):
    game_id, _ = new_game(sessions, cfg, players=PLAYERS, game_type="spartacus", options={})
    with sessions() as s:
        for user in _users(s).values():
            user.language = language
        s.commit()
    pump(sessions, cfg)
    invited = play_until_asked(sessions, cfg, game_id, "invitation")
    seen = len(smtp_sink.received())
    pump(sessions, cfg)
    (mail,) = [m for m in smtp_sink.received()[seen:] if m["To"] == f"{invited}@example.org"]
    offered = dict(buttons(mail))
    assert set(words) <= set(offered), text_of(mail)
    assert text_of(mail).count("/act/") >= len(offered) + 2, "each decision also links to all its choices"

    browser = app.test_client()
    url = path_of(offered[words[1]], cfg)
    page = browser.get(url)
    assert page.status_code == 200 and words[1] in page.data.decode()
    done = browser.post(url, data={"csrf_token": csrf_from(page.data.decode())})
    assert done.status_code == 200, done.data.decode()
    with sessions() as s:
        game = s.get(Game, game_id)
        rules = store.rules_of(game)
        state = store.load_state(s, game, rules=rules)
        seat = PLAYERS.index(invited)
        assert rules.view(state, seat)["fight_plan"]["approach"] == "keep_distance"
        others = [rules.view(state, other).get("fight_plan") for other in range(4) if other != seat]
        assert others == [None, None, None], "the plan is its dominus's alone"
        still_invited = [d for d in games.decisions_for(s, game_id, _users(s)[invited])
                         if d["prompt_key"] == "invitation"]
    assert still_invited, "setting the plan leaves the invitation to answer"
