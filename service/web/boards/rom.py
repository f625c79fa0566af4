"""The board of Rom: Rise to Power, drawn from one viewer's view.

Everything drawn comes from ``board`` (the engine's ``view`` for this viewer) and the
viewer's own open ``decisions``; the only other source is the card set's public data
(region names, which regions a 2-player game leaves out), which every player owns as
printed components.  The view already hides what this viewer may not see (the arena
hands and face-down arena sets of the others, every deck's order), so the drawing cannot
show it.

Geometry lives here, the template only draws: the map is a stylised Mediterranean with
the seven regions of the rulebook as labelled areas ("Es gibt sieben Regionen, jeweils auf
dem Spielplan durch andere Farbe erkennbar", p. 7) and each province as a marker with its
strength, an arch in its owner's colour and letter once conquered.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from service.web.boards import choice_url
from service.words import telling
from service.words.i18n import language_or_default
from service.words.seat_marks import seat_style
from service.words.terms import rom as terms

TRACKS = ("military", "senate", "black_market")
RESOURCES = ("olive", "wine", "jewel")
#: Forum track maxima of the default set, for a card set the page cannot load.
FORUM_MAX = {"olive": 7, "wine": 6, "jewel": 4}
SECTIONS = 4
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")

MAP_WIDTH, MAP_HEIGHT = 360, 270
#: The regions of the default set as areas of the map: (x, y, width, height, fill).
#: Pale fills that never match a seat colour, so that a region is never mistaken for a
#: player; ink on all of them is black (contrast well above 4.5:1).
REGION_AREAS: dict[str, tuple[int, int, int, int, str]] = {
    "gallia": (84, 4, 176, 76, "#e8efd8"),
    "hispania": (4, 84, 94, 104, "#f3e3cf"),
    "italia": (104, 82, 76, 114, "#f6efc9"),
    "greko": (186, 80, 98, 108, "#dde9ef"),
    "asia": (288, 60, 68, 104, "#eee0ea"),
    "africa": (18, 200, 176, 66, "#f2dcc6"),
    "aegyptus": (204, 196, 152, 70, "#e9e4d4"),
}
#: Where each province of the default set lies on that map (its marker's centre).
PROVINCE_SPOTS: dict[str, tuple[int, int]] = {
    "gallia_comata": (120, 34), "gallia_narbonensis": (164, 44), "gallia_cisalpina": (226, 32),
    "tarraconensis": (70, 104), "lusitania": (22, 144), "baetica": (62, 156),
    "etruria": (136, 110), "latium": (164, 144), "sicilia": (136, 176),
    "macedonia": (214, 104), "thracia": (254, 98), "epirus": (206, 140), "achaea": (246, 160),
    "bithynia": (326, 90), "pergamon": (306, 130),
    "mauretania": (56, 228), "numidia": (108, 230), "africa_proconsularis": (162, 226),
    "cyrenaica": (244, 230), "alexandria": (314, 230),
}
PROVINCE_R = 9

DIE = 18  # a die's side on the tracks
GHOST = 24  # a die one may place: a touch target of about 24 px on a phone
GHOSTS_PER_ROW = 3
TRACK_WIDTH = 360
SECTION_W, SECTION_GAP = 87, 4
SECTION_H = 44
#: Pip positions on a die face, as fractions of its side.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((.5, .5),),
    2: ((.27, .27), (.73, .73)),
    3: ((.27, .27), (.5, .5), (.73, .73)),
    4: ((.27, .27), (.73, .27), (.27, .73), (.73, .73)),
    5: ((.27, .27), (.73, .27), (.5, .5), (.27, .73), (.73, .73)),
    6: ((.27, .25), (.73, .25), (.27, .5), (.73, .5), (.27, .75), (.73, .75)),
}

FORUM_LABEL_W = 80
MARK_R = 7  # a player's marker on the forum and VP tracks
VP_PER_ROW = 10


def prepare(board: Mapping[str, Any], *, language: str, game_id: str, version: Optional[int],
            seat: Optional[int], decisions: Sequence[Mapping[str, Any]]) -> dict:
    """What ``board_rom.html`` draws for this viewer."""
    language = language_or_default(language)
    seats = int(board.get("seats") or len(board.get("players") or ()))
    offers = _Offers(game_id, decisions, language)
    cards = _card_set(board.get("card_set"))
    return {
        "legend": [{**seat_style(s), "seat": s, "you": s == seat} for s in range(seats)],
        "map": _map(board, cards, seats, offers, language),
        "tracks": [_track(board, name, offers, language, cards) for name in TRACKS],
        "forum": _forum(board, cards),
        "vp": _vp_track(board),
        "rounds": _rounds(board, cards),
        "order": [{**seat_style(s), "seat": s, "turn": s == board.get("turn_seat"), "you": s == seat}
                  for s in board.get("turn_order") or ()],
        "players": _players(board, seat, language, offers),
        "hidden_market": offers.hidden_market(),
        "scoring": _scoring(board, language),
    }


# --------------------------------------------------------------------------- the viewer's choices


class _Offers:
    """The viewer's open options that the board can offer in place, as confirm links."""

    def __init__(self, game_id: str, decisions: Sequence[Mapping[str, Any]], language: str):
        self.game_id = game_id
        self.language = language
        self.decisions = [d for d in decisions if isinstance(d, Mapping)]

    def _options(self, command_type: str):
        for decision in self.decisions:
            for option in decision.get("options") or ():
                if isinstance(option, Mapping) and option.get("type") == command_type:
                    yield decision, option

    def link(self, decision: Mapping[str, Any], option: Mapping[str, Any]) -> dict[str, str]:
        return {"url": choice_url(self.game_id, decision, option),
                "label": telling.command_label(self.language, option, {}, "rom")}

    def placements(self, track: str) -> list[dict[str, Any]]:
        """Every ``place_die`` option on ``track``, with the section it lands in (the
        decision's ``context.placements`` previews them in option order)."""
        out = []
        for decision in self.decisions:
            previews = list((decision.get("context") or {}).get("placements") or ())
            places = [o for o in decision.get("options") or () if isinstance(o, Mapping) and o.get("type") == "place_die"]
            for option, preview in zip(places, previews):
                args = option.get("args") or {}
                if args.get("track") != track or not isinstance(args.get("value"), int):
                    continue
                section = preview.get("section") if isinstance(preview, Mapping) else None
                out.append({**self.link(decision, option), "value": args["value"],
                            "section": section if isinstance(section, int) else 1,
                            "card": terms.name_of(args["card"], self.language) if args.get("card") else None})
        return out

    def single(self, command_type: str, key: str) -> dict[str, dict[str, str]]:
        """Options of ``command_type`` naming one card under ``key`` (``{"card": c}`` or
        ``{"provinces": [c]}``), by that card: what a click on the card means."""
        out = {}
        for decision, option in self._options(command_type):
            value = (option.get("args") or {}).get(key)
            if isinstance(value, list):
                if len(value) != 1:
                    continue
                value = value[0]
            if isinstance(value, str):
                out[value] = self.link(decision, option)
        return out

    def hidden_market(self) -> Optional[dict[str, str]]:
        for decision, option in self._options("buy_hidden_arena_card"):
            return self.link(decision, option)
        return None


# --------------------------------------------------------------------------- the map


def _card_set(name: Any):
    """The public card set the game is played with (names, regions), or ``None``."""
    from engine.rom.carddata import CardSetError, available_card_sets, load_card_set

    if isinstance(name, str) and name in available_card_sets():
        try:
            return load_card_set(name)
        except CardSetError:
            return None
    return None


def _map(board: Mapping[str, Any], cards: Any, seats: int, offers: _Offers, language: str) -> dict:
    owners = {pid: owner for pid, owner in (board.get("map") or {}).items() if isinstance(owner, int)}
    available = {p.get("id") for p in (board.get("under_tracks") or {}).get("military") or ()}
    conquer = offers.single("conquer_provinces", "provinces")
    removed = set(cards.two_player_removed_regions) if cards is not None and seats == 2 else set()
    provinces = _map_provinces(board, cards)
    regions = []
    listed = [r for r, _ in cards.regions] if cards is not None else []
    region_ids = list(dict.fromkeys(listed + [p["region"] for p in provinces]))
    spots = _spots(region_ids, provinces)
    for rid in region_ids:
        x, y, w, h, fill = spots["regions"][rid]
        english = dict(cards.regions).get(rid, rid) if cards is not None else rid
        regions.append({"id": rid, "name": terms.region_name(rid, language, english), "x": x, "y": y, "w": w,
                        "h": h, "fill": fill, "removed": rid in removed})
    names = {r["id"]: r["name"] for r in regions}
    drawn = []
    for p in provinces:
        cx, cy = spots["provinces"][p["id"]]
        owner = owners.get(p["id"])
        name = terms.card_name(p["id"], language) or p["name"]
        drawn.append({
            "id": p["id"], "name": name, "region_name": names.get(p["region"], p["region"]), "lines": name.split(" ", 1), "cx": cx, "cy": cy,
            "strength": p.get("strength"), "resource": p.get("resource"), "epoch": p.get("epoch"),
            "owner": None if owner is None else {**seat_style(owner), "seat": owner},
            "removed": p["region"] in removed, "available": p["id"] in available,
            "choice": conquer.get(p["id"]),
        })
    return {"width": MAP_WIDTH, "height": MAP_HEIGHT, "regions": regions, "provinces": drawn,
            "two_players": bool(removed)}


def _map_provinces(board: Mapping[str, Any], cards: Any) -> list[dict[str, Any]]:
    """Every province of the card set (it is printed on the board), else those the view
    shows: owned ones and those laid out under the military track."""
    if cards is not None:
        return [{"id": p.id, "name": p.name, "region": p.region, "strength": p.strength, "resource": p.resource,
                 "epoch": p.epoch} for p in cards.provinces]
    seen: dict[str, dict[str, Any]] = {}
    for player in board.get("players") or ():
        for p in player.get("provinces") or ():
            seen.setdefault(p["id"], p)
    for p in (board.get("under_tracks") or {}).get("military") or ():
        seen.setdefault(p["id"], p)
    return list(seen.values())


def _spots(region_ids: list[str], provinces: list[dict[str, Any]]) -> dict:
    """Areas and marker positions: the hand-drawn map for the default set's regions and
    provinces, a plain grid for any other (a card set of one's own)."""
    if set(region_ids) <= set(REGION_AREAS) and all(p["id"] in PROVINCE_SPOTS for p in provinces):
        return {"regions": {r: REGION_AREAS[r] for r in region_ids},
                "provinces": {p["id"]: PROVINCE_SPOTS[p["id"]] for p in provinces}}
    cols = 3
    w, gap = (MAP_WIDTH - 4 * 4) // cols, 4
    fills = [a[4] for a in REGION_AREAS.values()]
    regions, spots = {}, {}
    rows = (len(region_ids) + cols - 1) // cols or 1
    h = (MAP_HEIGHT - gap * (rows + 1)) // rows
    for i, rid in enumerate(region_ids):
        x, y = gap + (i % cols) * (w + gap), gap + (i // cols) * (h + gap)
        regions[rid] = (x, y, w, h, fills[i % len(fills)])
        members = [p for p in provinces if p["region"] == rid]
        for j, p in enumerate(members):
            per_row = 2
            spots[p["id"]] = (x + 24 + (j % per_row) * (w // 2), y + 26 + (j // per_row) * 34)
    return {"regions": regions, "provinces": spots}


# --------------------------------------------------------------------------- the tracks


def _die(value: int, x: float, y: float, size: float = DIE) -> dict[str, Any]:
    return {"value": value, "x": x, "y": y, "size": size,
            "pips": [(round(x + fx * size, 2), round(y + fy * size, 2)) for fx, fy in PIPS.get(value, ())]}


def _track(board: Mapping[str, Any], name: str, offers: _Offers, language: str, cards: Any) -> dict:
    sections = cards.sections if cards is not None else SECTIONS
    width = sections * SECTION_W + (sections - 1) * SECTION_GAP
    groups = {g.get("section"): g for g in (board.get("tracks") or {}).get(name) or () if isinstance(g, Mapping)}
    drawn = []
    for i in range(sections):
        x = i * (SECTION_W + SECTION_GAP)
        group = groups.get(i + 1)
        entry: dict[str, Any] = {"n": i + 1, "roman": ROMAN[i] if i < len(ROMAN) else str(i + 1), "x": x,
                                 "w": SECTION_W, "group": None}
        if group is not None:
            dice = [v for v in group.get("dice") or () if isinstance(v, int)]
            entry["group"] = {**seat_style(group.get("seat")), "seat": group.get("seat"),
                              "total": sum(dice),
                              "dice": [_die(v, x + 4 + k * (DIE + 3), 20) for k, v in enumerate(dice)]}
        drawn.append(entry)
    ghosts = []
    per_section: dict[int, int] = {}
    for option in offers.placements(name):
        k = per_section.get(option["section"], 0)
        per_section[option["section"]] = k + 1
        x = (option["section"] - 1) * (SECTION_W + SECTION_GAP) + 3 + (k % GHOSTS_PER_ROW) * (GHOST + 4)
        y = SECTION_H + 6 + (k // GHOSTS_PER_ROW) * (GHOST + 4)
        ghosts.append({**option, **_die(option["value"], x, y, GHOST)})
    rows = max(-(-k // GHOSTS_PER_ROW) for k in per_section.values()) if per_section else 0
    height = SECTION_H + (rows * (GHOST + 4) + 6 if rows else 0)
    under = (board.get("under_tracks") or {}).get(name) or []
    if name == "military":
        clicks = offers.single("conquer_provinces", "provinces")
    elif name == "senate":
        clicks = offers.single("take_senate_cards", "cards")
    else:
        clicks = offers.single("buy_arena_card", "card")
    laid = [{**_card(c, language), "choice": clicks.get(c.get("id"))} for c in under if isinstance(c, Mapping)]
    return {"name": name, "title": terms.TRACK_NAMES[name], "sections": drawn, "ghosts": ghosts,
            "width": width, "height": height, "cards": laid}


def _card(card: Mapping[str, Any], language: str) -> dict[str, Any]:
    """A card as the page lists it: its name in the page's language and its numbers."""
    cid = str(card.get("id"))
    out = {**card, "name": terms.card_name(cid, language) or card.get("name") or cid}
    if "text" in card:
        out["text"] = terms.card_text(cid, language) or card["text"]
    return out


# --------------------------------------------------------------------------- forum, VP, rounds


def _stack(seats: list[int], x: float, y: float) -> list[dict[str, Any]]:
    """Markers sharing a space, two by two, so that every letter stays readable."""
    return [{**seat_style(s), "seat": s, "cx": x + 9 + (k % 2) * 16, "cy": y + 9 + (k // 2) * 16}
            for k, s in enumerate(seats)]


def _forum(board: Mapping[str, Any], cards: Any) -> dict:
    maxima = dict(zip(RESOURCES, cards.forum_max)) if cards is not None else FORUM_MAX
    top = max(maxima.values())
    cell = (TRACK_WIDTH - FORUM_LABEL_W) / (top + 1)
    rows = []
    for r, resource in enumerate(RESOURCES):
        y = r * 40
        at: dict[int, list[int]] = {}
        for player in board.get("players") or ():
            value = (player.get("forum") or {}).get(resource, 0)
            at.setdefault(value, []).append(player.get("seat"))
        spaces = []
        for v in range(maxima[resource] + 1):
            x = FORUM_LABEL_W + v * cell
            spaces.append({"value": v, "x": x, "w": cell - 2, "markers": _stack(at.get(v, []), x + (cell - 36) / 2, y + 2)})
        rows.append({"resource": resource, "y": y, "spaces": spaces, "max": maxima[resource]})
    return {"rows": rows, "height": len(RESOURCES) * 40, "width": TRACK_WIDTH}


def _vp_track(board: Mapping[str, Any]) -> dict:
    """The VP track, ten spaces a row, as long as the leader needs (at least 0-29)."""
    at: dict[int, list[int]] = {}
    for player in board.get("players") or ():
        at.setdefault(int(player.get("vp") or 0), []).append(player.get("seat"))
    top = max([29, *at])
    last = (top // VP_PER_ROW + 1) * VP_PER_ROW
    cell = TRACK_WIDTH / VP_PER_ROW
    spaces = []
    for v in range(last):
        x, y = (v % VP_PER_ROW) * cell, (v // VP_PER_ROW) * 40
        spaces.append({"value": v, "x": x, "y": y, "w": cell - 2, "markers": _stack(at.get(v, []), x, y + 2)})
    return {"spaces": spaces, "height": (last // VP_PER_ROW) * 40, "width": TRACK_WIDTH}


def _rounds(board: Mapping[str, Any], cards: Any) -> list[dict[str, Any]]:
    count = int(board.get("rounds") or 5)
    scoring = set(cards.scoring_rounds) if cards is not None else {3, count}
    now = board.get("round")
    return [{"n": n, "roman": ROMAN[n - 1] if n <= len(ROMAN) else str(n), "now": n == now,
             "scoring": n in scoring, "x": (n - 1) * 46} for n in range(1, count + 1)]


# --------------------------------------------------------------------------- players


def _players(board: Mapping[str, Any], viewer: Optional[int], language: str, offers: _Offers) -> list[dict]:
    you = board.get("you") or {}
    out = []
    for player in board.get("players") or ():
        s = player.get("seat")
        entry = {
            **seat_style(s), "seat": s, "you": s == viewer and s == you.get("seat"),
            "vp": player.get("vp"), "forum": player.get("forum") or {},
            "provinces": [_card(p, language) for p in player.get("provinces") or ()],
            "senate": [{**_card(c, language), "on": [terms.name_of(p, language) for p in c.get("on") or ()]}
                       for c in player.get("senate_cards") or ()],
            "arena_count": player.get("arena_cards", 0),
            "unplaced": [_die(v, k * (DIE + 3), 1) for k, v in enumerate(player.get("unplaced") or ())],
            "arena_set": player.get("arena_set"),
            "bonuses": {k: v for k, v in (player.get("bonuses") or {}).items() if v},
            "turn": s == board.get("turn_seat"),
        }
        if entry["you"]:
            entry["arena_hand"] = [_card(c, language) for c in you.get("arena_hand") or ()]
            chosen = you.get("arena_set")
            entry["my_arena_set"] = None if chosen is None else [terms.name_of(c, language) for c in chosen]
        out.append(entry)
    return out


def _scoring(board: Mapping[str, Any], language: str) -> list[dict[str, Any]]:
    """Each scoring so far: the VP each seat got from it, per source."""
    out = []
    for entry in board.get("scoring") or ():
        points = entry.get("points") or {}
        per_seat: dict[int, int] = {}
        if entry.get("event") in ("ForumScored", "RegionsScored"):  # resource/region -> seat -> VP
            for by_seat in points.values():
                for s, vp in (by_seat or {}).items():
                    per_seat[int(s)] = per_seat.get(int(s), 0) + int(vp)
        elif entry.get("event") == "SenateCardsScored":  # seat -> card -> VP
            for s, by_card in points.items():
                per_seat[int(s)] = sum(int(v) for v in (by_card or {}).values())
        else:
            for s, vp in points.items():
                per_seat[int(s)] = per_seat.get(int(s), 0) + int(vp)
        out.append({"event": entry.get("event"), "round": entry.get("round"),
                    "seats": [{**seat_style(s), "seat": s, "vp": vp} for s, vp in sorted(per_seat.items())]})
    return out
