"""Boards for the pages: a game's view, as one viewer may see it, turned into what that
game's SVG template draws.

Each game may have a module ``service/web/boards/<game>.py`` with
``prepare(board, *, language, game_id, version, seat, decisions) -> dict``; the game page
calls it and hands the result to ``templates/games/board_<game>.html`` as ``drawing``.
``board`` is the engine's ``view`` for the viewer and nothing else, so a drawing can only
show what that viewer may see.  ``decisions`` are the viewer's open decisions (as the API
lists them), so a board can offer choices on the board itself (a hex, a track section)
through :func:`choice_url`.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
from typing import Any, Mapping, Optional, Sequence

_GAME_NAME = re.compile(r"^[a-z0-9_]{1,32}$")


def prepare(game: Any, board: Mapping[str, Any], *, language: str, game_id: str, version: Optional[int],
            seat: Optional[int], decisions: Sequence[Mapping[str, Any]]) -> dict:
    """The drawing of ``board`` for its game, or ``{}`` when the game has no board module."""
    if not isinstance(game, str) or not _GAME_NAME.match(game):
        return {}
    name = f"service.web.boards.{game}"
    if importlib.util.find_spec(name) is None:
        return {}
    module = importlib.import_module(name)
    return module.prepare(board, language=language, game_id=game_id, version=version, seat=seat,
                          decisions=decisions)


def choice_url(game_id: str, decision: Mapping[str, Any], command: Mapping[str, Any]) -> str:
    """The address of the confirm page for answering ``decision`` with ``command``.

    A GET there only shows the choice and a button; the button POSTs it (links are
    prefetched by mail programs and browsers, so a GET never acts).
    """
    from flask import url_for

    payload = json.dumps({"type": command.get("type"), "args": command.get("args") or {}}, sort_keys=True,
                         separators=(",", ":"))
    return url_for("pages.game_choose", game_id=game_id, decision=decision.get("id"),
                   version=decision.get("version"), command=payload)
