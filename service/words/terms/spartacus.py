"""Spartacus in Capua's languages: decision prompts, command buttons, card names and texts.

German words follow the German rulebook (Einfluss, Gold, Dominus, Intrigenkarte,
Machenschaft, Reaktion, Wache, Veranstalter, bereit/erschöpft/verletzt, "Gunst"-Marker,
Sieger I/II, Verletzung, Enthauptung); Russian ones the Russian rulebook (Влияние, Золото,
Доминус, Интриги, Заговор, Ответные действия, Стража, Распорядитель игр,
Готовый/Использованный/Раненый, жетон Славы, Победа I/II, Ранение, Обезглавливание).
The fight inside the arena (``spartacus_arena.*`` prompts and the fight's own commands)
has its words elsewhere.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from service.words.i18n import N_, Counted, translator
from service.words.terms import seat_name, seat_value, seats_of

#: prompt_key -> sentence; ``%(name)s`` is filled from the decision's ``prompt_args``.
PROMPTS: dict[str, str] = {
    "choose_house": N_("Choose your house."),
    "heal_reroll": N_("Reroll a failed healing roll?"),
    "accounts": N_("Balance the accounts: you owe %(bill)s gold. Release gladiators for gold you cannot pay."),
    "intrigue_turn": N_("Your intrigue turn: play a scheme, use an ability, sell a card or end your turn."),
    "support": N_("%(asker)s asks for your support for a scheme. Your answer is binding."),
    "support.claim": N_("%(asker)s asks for your support for a scheme they say is %(claim)s. Your answer is "
                        "binding."),
    "request_support": N_("Ask other domini to support a scheme with their influence: name the card (only you see "
                          "it), its target and whom you ask."),
    "supported": N_("Everyone you asked has answered: play the scheme with the support promised, or keep the "
                    "card."),
    "hand_limit": N_("Sell intrigue cards down to your hand limit of %(limit)s."),
    "choose_discard_property": N_("Choose a ready card to discard (%(remaining)s to choose)."),
    "choose_exhaust_property": N_("Choose a ready card to exhaust (%(remaining)s to choose)."),
    "choose_injure": N_("Choose a ready fighter to be injured."),
    "choose_favour": N_("Choose a ready gladiator to gain a favour token."),
    "choose_discard_hand": N_("Choose an intrigue card to discard (%(remaining)s to choose)."),
    "choose_replace_hand": N_("Choose an intrigue card to replace, or stop (%(remaining)s at most)."),
    "choose_replace_fighter": N_("Choose the fighter you send to the arena instead."),
    "react_scheme": N_("A scheme has been played: react, or pass."),
    "react_scheme.aimed": N_("%(by)s plays a scheme on %(target)s: react, or pass."),
    "react_scheme.by": N_("%(by)s plays a scheme: react, or pass."),
    "react_reaction": N_("A reaction has been played: react, or pass."),
    "react_reaction.by": N_("%(by)s plays a reaction: react, or pass."),
    "react_reaction.guard": N_("%(by)s uses a guard against the scheme: react, or pass."),
    "react_gold_emptied": N_("A dominus has no gold left: react, or pass."),
    "react_scheme_succeeded": N_("A scheme has succeeded: react, or pass."),
    "react_bets_placed": N_("The bets are placed: react, or pass."),
    "react_fighter_died": N_("A fighter has died in the arena: react, or pass."),
    "hide_gold": N_("Hide your gold for the auctions."),
    "bid": N_("Bid in secret for the card up for auction (bidding round %(round)s, your stake so far: "
              "%(stake)s gold)."),
    "host_bid": N_("Bid in secret for the host token (bidding round %(round)s, your stake so far: %(stake)s gold)."),
    "sell_to_bank": N_("Sell a card to the bank for its gold value."),
    "propose_trade": N_("Offer a trade: your cards and gold for theirs."),
    "accept_trade": N_("%(partner)s offers you trade %(offer)s: accept it?"),
    "reject_trade": N_("%(partner)s offers you trade %(offer)s: reject it?"),
    "counter_trade": N_("Answer trade %(offer)s from %(partner)s with other terms."),
    "withdraw_trade": N_("Withdraw your trade offer %(offer)s to %(partner)s."),
    "give_gold": N_("Give gold to another dominus."),
    "place_guard": N_("Put a guard from your hand on your table (you may, at any time)."),
    "invite": N_("Invite a dominus (yourself included) to send a fighter to the games."),
    "invitation": N_("%(host)s invites you to the games: send a fighter, or decline and lose 1 influence."),
    "bets": N_("Place your bets in secret: 1 to 3 gold on each bet you like, or none."),
    "verdict": N_("Thumbs up or thumbs down: does the defeated fighter live?"),
    "tournament_fighter": N_("Choose your fighter and equipment for the tournament."),
    "fight_plan": N_("Set your fighter's fight plan: it answers the fight's decisions for you."),
}

#: command type -> its button words (with no arguments to show).
COMMANDS: dict[str, str] = {
    "choose_house": N_("Choose this house"),
    "settle_accounts": N_("Balance the accounts"),
    "reroll_healing": N_("Reroll the healing roll"),
    "end_turn": N_("End your turn"),
    "sell_intrigue_card": N_("Sell an intrigue card"),
    "place_guard": N_("Place a guard on your table"),
    "play_scheme": N_("Play a scheme"),
    "request_support": N_("Ask for support"),
    "grant_support": N_("Support the scheme"),
    "refuse_support": N_("Refuse support"),
    "keep_scheme": N_("Keep the card"),
    "use_house_ability": N_("Use your house's ability"),
    "use_card_ability": N_("Use a card's ability"),
    "pass_reaction": N_("Pass"),
    "play_reaction": N_("Play a reaction"),
    "use_guard": N_("Use a guard"),
    "reroll_guard": N_("Reroll the guard's die"),
    "choose_card": N_("Choose"),
    "give_gold": N_("Give gold"),
    "sell_to_bank": N_("Sell to the bank"),
    "propose_trade": N_("Offer a trade"),
    "accept_trade": N_("Accept the trade"),
    "reject_trade": N_("Reject the trade"),
    "withdraw_trade": N_("Withdraw the offer"),
    "counter_trade": N_("Make a counter-offer"),
    "hide_gold": N_("Hide my gold"),
    "place_bid": N_("Bid"),
    "invite": N_("Invite"),
    "accept_invitation": N_("Accept the invitation"),
    "decline_invitation": N_("Decline (lose 1 influence)"),
    "place_bets": N_("Place the bets"),
    "show_thumb": N_("Give the verdict"),
    "choose_tournament_fighter": N_("Send this fighter"),
    "set_fight_plan": N_("Set the fight plan"),
}

#: Commands the pages ask to confirm a second time before they are sent: each loses
#: something for good (a card sold or released, gold given away, influence or a fighter's
#: life) and is easily clicked by mistake on a small screen; ordinary moves (ending a
#: turn, passing, bidding in secret) are sent at once.
CONFIRM: frozenset[str] = frozenset({
    "show_thumb",  # thumbs down kills the fighter and may cost the host influence
    "sell_to_bank",
    "sell_intrigue_card",
    "settle_accounts",  # may release gladiators
    "give_gold",
    "decline_invitation",  # costs 1 influence
    "accept_trade",
    "use_house_ability",  # some abilities discard three cards of your table
})

BET_TITLES: dict[str, str] = {
    "winner_i": N_("Winner I"),
    "winner_ii": N_("Winner II"),
    "injury": N_("Injury"),
    "decapitation": N_("Decapitation"),
}

#: English effect text of each default intrigue card and house ability, by card key.
CARD_TEXTS: dict[str, str] = {
    "guard": N_("Play from your hand or your table against a scheme that targets you: discard this card and roll a "
                "die; on 4-6 the scheme is foiled."),
    "insider_information": N_("The target draws 2 intrigue cards."),
    "black_market_dealings": N_("The target gains 5 gold."),
    "a_visitor_from_rome": N_("The target gains 1 influence."),
    "incite_rebellion": N_("The target discards a ready gladiator of their choice."),
    "unlocked_gate": N_("The target discards a ready slave of their choice."),
    "grand_feast": N_("Pay 2 gold to every other dominus. The target (a dominus of your choice) gains 1 influence."),
    "illicit_services": N_("The target gains 2 gold for each of their ready slaves."),
    "poisoned_wine": N_("A ready gladiator or slave of the target (their choice) is injured."),
    "robbery": N_("Take up to 3 gold from the target."),
    "conspiracy": N_("The target loses 2 influence."),
    "blackmail": N_("The target loses 1 influence."),
    "public_exhibition": N_("The target gains 1 gold for each of their ready gladiators."),
    "labor_contract": N_("The target exhausts a ready slave of their choice; you gain 2 gold."),
    "word_to_the_tax_collector": N_("The target pays up to 3 gold to the bank."),
    "sate_roman_appetites": N_("The target exhausts a ready gladiator of their choice and gains 1 gold."),
    "caught_taking_bribes": N_("The target loses 1 influence and pays up to 2 gold to the bank."),
    "bribe_the_guards": N_("The target discards a ready guard from their table (their choice)."),
    "joint_venture": N_("You and the target each gain 2 gold (4 if you target yourself)."),
    "collusion": N_("You and the target each draw 1 intrigue card."),
    "rumours_of_glory": N_("A ready gladiator of the target (their choice) gains a favour token."),
    "hidden_coffers": N_("The target gains 2 gold."),
    "favour_of_the_magistrate": N_("The target gains 2 influence."),
    "spies_in_the_house": N_("The target discards 2 intrigue cards of their choice from their hand."),
    "whispered_rumours": N_("Foil a scheme."),
    "jupiters_cock": N_("Foil a scheme or a reaction."),
    "support_from_rome": N_("Foil a scheme that targets you, then put the top guard of the intrigue discard pile on "
                            "your table."),
    "sacrifice_for_the_dominus": N_("Discard a ready slave of your choice: foil a scheme that targets you."),
    "for_a_few_denarii": N_("Pay 3 gold: foil a scheme."),
    "destitute": N_("Play when a dominus is left without gold: that dominus loses 1 influence."),
    "empty_brothel": N_("Play after a scheme succeeds: a dominus of your choice with no ready slaves loses 1 "
                        "influence."),
    "a_shameful_ludus": N_("Play after a scheme succeeds: a dominus of your choice with no ready gladiators loses 1 "
                           "influence."),
    "revenge": N_("Play after another dominus's scheme that targeted you succeeds: that dominus loses 1 influence."),
    "rigging_the_match": N_("Play after the bets are placed: the dominus of the invited fighter of your choice must "
                            "send another ready fighter of theirs (their choice, same equipment) if they have one."),
    "blood_on_the_sand": N_("Play after a fighter dies in the arena: you gain 1 influence."),
    "looting_the_dead": N_("Play after a fighter dies in the arena: you gain 3 gold."),
    "batiatus_training": N_("(Intrigue) Exhaust 2 ready gladiators: gain 2 gold."),
    "batiatus_spectacle": N_("(Intrigue) Discard 3 ready gladiators: +1 influence."),
    "glaber_informants": N_("(Intrigue) Exhaust 3 ready guards on your table: draw 1 intrigue card."),
    "glaber_legion": N_("(Intrigue) Discard 3 ready guards from your table: +1 influence."),
    "tullius_messengers": N_("(Intrigue) Exhaust 3 ready slaves: discard up to 3 intrigue cards from your hand and "
                             "draw as many."),
    "tullius_gift": N_("(Intrigue) Discard 3 ready slaves: +1 influence."),
    "solonius_bribes": N_("(Intrigue) Pay X gold (X from 1 to 3): the next scheme you play this turn needs X less "
                          "influence."),
    "solonius_patronage": N_("(Intrigue) Discard a ready gladiator, a ready slave and a ready guard from your table: "
                             "+1 influence."),
}

# --------------------------------------------------------------------------- names (data)

#: house id -> language -> (house, dominus)
HOUSES: dict[str, dict[str, tuple[str, str]]] = {
    "batiatus": {"en": ("House of Batiatus", "Quintus Lentulus Batiatus"),
                 "de": ("Haus Batiatus", "Quintus Lentulus Batiatus"),
                 "ru": ("Дом Батиата", "Квинт Лентул Батиат")},
    "glaber": {"en": ("House of Glaber", "Gaius Claudius Glaber"),
               "de": ("Haus Glaber", "Gaius Claudius Glaber"),
               "ru": ("Дом Глабра", "Гай Клавдий Глабр")},
    "tullius": {"en": ("House of Tullius", "Tullius"),
                "de": ("Haus Tullius", "Tullius"),
                "ru": ("Дом Туллия", "Туллий")},
    "solonius": {"en": ("House of Solonius", "Marcus Decius Solonius"),
                 "de": ("Haus Solonius", "Marcus Decius Solonius"),
                 "ru": ("Дом Солония", "Марк Деций Солоний")},
}

#: card key -> (German, Russian).  German intrigue names are the engine's ``name_de``
#: (the German cards); Russian ones are the Russian rulebook's where it names the card
#: («Мятежник», «Незакрытые ворота», «Гость из Рима», «Грандиозный фестиваль»,
#: «Полезная Информация», «Расползшиеся слухи», «Бедняк», «Пустой Дом»), else translated.
NAMES: dict[str, tuple[str, str]] = {
    # intrigue cards
    "guard": ("Wache", "Стража"),
    "insider_information": ("Insiderinformation", "Полезная информация"),
    "black_market_dealings": ("Gewinn vom Schwarzmarkt", "Сделки на чёрном рынке"),
    "a_visitor_from_rome": ("Ein Besucher aus Rom", "Гость из Рима"),
    "incite_rebellion": ("Zur Rebellion aufstacheln", "Мятежник"),
    "unlocked_gate": ("Eine Rebellion anzetteln", "Незакрытые ворота"),
    "grand_feast": ("Großes Festmahl", "Грандиозный фестиваль"),
    "illicit_services": ("Illegale Dienste", "Незаконные услуги"),
    "poisoned_wine": ("Vergifteter Wein", "Отравленное вино"),
    "robbery": ("Raubüberfall", "Ограбление"),
    "conspiracy": ("Verschwörung", "Козни"),
    "blackmail": ("Erpressung", "Шантаж"),
    "public_exhibition": ("Öffentliche Vorführung", "Публичное выступление"),
    "labor_contract": ("Arbeitsvertrag", "Трудовой договор"),
    "word_to_the_tax_collector": ("Ein Wort an den Steuereintreiber", "Слово сборщику налогов"),
    "sate_roman_appetites": ("Römische Gelüste stillen", "Утолить аппетиты Рима"),
    "caught_taking_bribes": ("Bei der Bestechung ertappt", "Пойман на взятке"),
    "bribe_the_guards": ("Die Wachen bestechen", "Подкуп Стражи"),
    "joint_venture": ("Gemeinsames Geschäft", "Совместное дело"),
    "collusion": ("Geheime Absprache", "Сговор"),
    "rumours_of_glory": ("Gerüchte über Ruhm", "Слухи о славе"),
    "hidden_coffers": ("Versteckte Truhen", "Тайные сундуки"),
    "favour_of_the_magistrate": ("Gunst des Magistrats", "Благосклонность магистрата"),
    "spies_in_the_house": ("Spione im Haus", "Шпионы в доме"),
    "whispered_rumours": ("Geflüsterte Gerüchte", "Расползшиеся слухи"),
    "jupiters_cock": ("Jupiters Hahn", "Петух Юпитера"),
    "support_from_rome": ("Unterstützung aus Rom", "Поддержка из Рима"),
    "sacrifice_for_the_dominus": ("Opfer für den Dominus", "Жертва ради Доминуса"),
    "for_a_few_denarii": ("Für ein paar Denare", "За пару денариев"),
    "destitute": ("Mittellos!", "Бедняк"),
    "empty_brothel": ("Leeres Bordell", "Пустой Дом"),
    "a_shameful_ludus": ("Eine schändliche Schule", "Позорная школа"),
    "revenge": ("Rache!", "Месть!"),
    "rigging_the_match": ("Manipulierter Kampf", "Подстроенный бой"),
    "blood_on_the_sand": ("Blut im Sand", "Кровь на песке"),
    "looting_the_dead": ("Die Toten plündern", "Мародёрство"),
    # house abilities
    "batiatus_training": ("Trainingsplatz", "Тренировочная площадка"),
    "batiatus_spectacle": ("Schauspiel", "Зрелище"),
    "glaber_informants": ("Informanten", "Осведомители"),
    "glaber_legion": ("Römische Legion", "Римский легион"),
    "tullius_messengers": ("Boten", "Гонцы"),
    "tullius_gift": ("Großzügiges Geschenk", "Щедрый дар"),
    "solonius_bribes": ("Bestechungen", "Подкуп"),
    "solonius_patronage": ("Patronat", "Покровительство"),
    # market: gladiators
    "thraex": ("Thraker", "Фракиец"),
    "murmillo": ("Murmillo", "Мурмиллон"),
    "retiarius": ("Retiarius", "Ретиарий"),
    "secutor": ("Secutor", "Секутор"),
    "hoplomachus": ("Hoplomachus", "Гопломах"),
    "dimachaerus": ("Dimachaerus", "Димахер"),
    "provocator": ("Provocator", "Провокатор"),
    "gallus": ("Gallier", "Галл"),
    "spartacus": ("Spartacus", "Спартак"),
    "theokoles": ("Theokoles", "Феокл"),
    "crixus": ("Crixus", "Крикс"),
    "gannicus": ("Gannicus", "Ганник"),
    "agron": ("Agron", "Агрон"),
    "barca": ("Barca", "Барка"),
    "oenomaus": ("Oenomaus", "Эномай"),
    "varro": ("Varro", "Варрон"),
    "auctus": ("Auctus", "Авкт"),
    "duro": ("Duro", "Дуро"),
    "segovax": ("Segovax", "Сеговакс"),
    "rhaskos": ("Rhaskos", "Раскос"),
    "priscus": ("Priscus", "Приск"),
    "flamma": ("Flamma", "Фламма"),
    # market: slaves
    "house-slave": ("Haussklave", "Домашний раб"),
    "body-slave": ("Leibsklave", "Личный раб"),
    "kitchen-slave": ("Küchensklave", "Кухонный раб"),
    "field-slave": ("Feldsklave", "Полевой раб"),
    "stable-boy": ("Stallbursche", "Конюх"),
    "water-carrier": ("Wasserträger", "Водонос"),
    "scribe": ("Schreiber", "Писец"),
    "doorkeeper": ("Türhüter", "Привратник"),
    "pietros": ("Pietros", "Петрос"),
    "indus": ("Indus", "Индус"),
    "medicus": ("Medicus", "Медик"),
    "naevia": ("Naevia", "Невия"),
    "mira": ("Mira", "Мира"),
    "ashur": ("Ashur", "Ашур"),
    "melitta": ("Melitta", "Мелитта"),
    "diona": ("Diona", "Диона"),
    "chadara": ("Chadara", "Хадара"),
    "dagan": ("Dagan", "Даган"),
    "rufus": ("Rufus", "Руфус"),
    "felix": ("Felix", "Феликс"),
    # market: equipment
    "sword": ("Schwert", "Меч"),
    "gladius": ("Gladius", "Гладиус"),
    "trident": ("Dreizack", "Трезубец"),
    "hasta": ("Speer", "Копьё"),
    "sica": ("Sica", "Сика"),
    "twin-blades": ("Zwillingsklingen", "Парные клинки"),
    "helmet": ("Helm", "Шлем"),
    "scutum": ("Schild", "Скутум"),
    "lorica": ("Brustpanzer", "Лорика"),
    "manica": ("Armschutz", "Маника"),
    "ocreae": ("Beinschienen", "Поножи"),
    "net": ("Netz", "Сеть"),
    "javelin": ("Wurfspeer", "Дротик"),
    "doctores-training": ("Training beim Doctore", "Выучка доктора"),
    "footwork": ("Beinarbeit", "Работа ног"),
    "crowds-roar": ("Jubel der Menge", "Рёв толпы"),
}


def card_key(card_id: Any) -> str:
    """``murmillo#1`` -> ``murmillo``: the card behind one copy."""
    return str(card_id).split("#", 1)[0]


def card_name(card_id: Any, language: str) -> Optional[str]:
    """The name of the card (any copy) as the rulebook of ``language`` has it; ``None``
    for English and for cards Capua has no other name for (the engine's name is used)."""
    names = NAMES.get(card_key(card_id))
    if language not in ("de", "ru"):
        # an English reader gets the card set's name, never the id of one copy ("dimachaerus#1")
        english = english_name(card_id)
        return english if english != card_key(card_id) else None
    if names is None:
        return None
    if language == "de":
        return names[0]
    if language == "ru":
        return names[1]
    return None


def card_text(card_id: Any, language: str) -> Optional[str]:
    """The effect text of a default intrigue card or house ability in ``language``."""
    text = CARD_TEXTS.get(card_key(card_id))
    return translator(language)(text) if text else None


def house_names(house: Any, language: str) -> tuple[str, str]:
    """(house, dominus) of ``house`` in ``language``; the id itself for an unknown house."""
    names = HOUSES.get(str(house))
    if names is None:
        return str(house), ""
    return names.get(language) or names["en"]


def house_choice_label(house: Any, language: str) -> str:
    """A house as a player chooses it: its name and what its abilities do ("House of
    Batiatus: Training ground -- (Intrigue) Exhaust 2 ready gladiators: gain 2 gold. ...")."""
    from engine.spartacus.game.cards import load_set

    name = house_names(house, language)[0]
    found = next((h for h in load_set("default").houses if h.id == str(house)), None)
    if found is None:
        return name
    abilities = [f"{_name(a.id, language, {})} — {card_text(a.id, language) or a.text}" for a in found.abilities]
    return f"{name}: {' '.join(abilities)}" if abilities else name


def _name(card: Any, language: str, card_names: Mapping[str, str]) -> str:
    return card_name(card, language) or card_names.get(str(card)) or english_name(card)


def english_name(card: Any) -> str:
    """The default card set's English name of ``card`` (the id itself if it has none)."""
    from engine.spartacus.game.cards import load_set

    key = card_key(card)
    cards = load_set("default")
    for group in (cards.intrigue, cards.market, [a for h in cards.houses for a in h.abilities]):
        for c in group:
            if c.id == key:
                return c.name
    return key


def command_label(language: str, command: Mapping[str, Any], card_names: Mapping[str, str],
                  seat_names: Optional[Mapping[int, str]] = None) -> Optional[str]:
    """A button's words where the command's arguments matter; ``None`` for the plain ones."""
    _ = translator(language)
    ctype = str(command.get("type", ""))
    args = command.get("args") or {}
    if not isinstance(args, Mapping):
        return None
    card = args.get("card")
    name = _name(card, language, card_names) if card else ""
    target = args.get("target")

    def who(seat: Any) -> str:
        return seat_name(seat_names or {}, seat, language)

    if ctype == "choose_house" and args.get("house"):
        return house_choice_label(args["house"], language)
    if ctype == "choose_card":
        return _("Choose %(card)s", card=name) if card else _("Choose no more")
    if ctype == "play_scheme" and card:
        return _("Play %(card)s on %(seat)s", card=name, seat=who(target))
    if ctype == "request_support" and card:
        asked = ", ".join(who(x) for x in args.get("from") or [])
        return _("Ask %(seats)s to support %(card)s on %(seat)s", seats=asked, card=name, seat=who(target))
    if ctype == "sell_intrigue_card" and card:
        return _("Sell %(card)s", card=name)
    if ctype == "place_guard" and card:
        return _("Place %(card)s on your table", card=name)
    if ctype == "use_house_ability" and args.get("ability"):
        ability = _name(args["ability"], language, card_names)
        x = args.get("x") or 0
        return _("Use %(ability)s (X = %(x)s)", ability=ability, x=x) if x else _("Use %(ability)s", ability=ability)
    if ctype == "use_card_ability" and card:
        if isinstance(target, int) and target >= 0:
            return _("Use %(card)s on %(seat)s", card=name, seat=who(target))
        return _("Use %(card)s", card=name)
    if ctype == "play_reaction" and card:
        if isinstance(target, int) and target >= 0:
            return _("Play %(card)s on %(seat)s", card=name, seat=who(target))
        return _("Play %(card)s", card=name)
    if ctype == "use_guard" and card:
        # the card is called "Guard": "Use the guard Guard" said it twice
        return _("Use %(card)s against the scheme", card=name)
    if ctype == "reroll_guard" and card:
        return _("Reroll the guard's die with %(card)s", card=name)
    if ctype == "reroll_healing":
        if not card:
            return _("No reroll")
        return _("Reroll the healing of %(card)s with %(by)s", card=name,
                 by=_name(args.get("by"), language, card_names))
    if ctype == "sell_to_bank" and card:
        return _("Sell %(card)s to the bank", card=name)
    if ctype in ("accept_trade", "reject_trade", "withdraw_trade") and "offer" in args:
        words = {"accept_trade": N_("Accept trade %(offer)s"), "reject_trade": N_("Reject trade %(offer)s"),
                 "withdraw_trade": N_("Withdraw trade %(offer)s")}[ctype]
        return _(words, offer=args["offer"])
    if ctype in ("propose_trade", "counter_trade"):
        return _trade_label(_, args, language, card_names, who)
    if ctype == "invite" and "seat" in args:
        return _("Invite %(seat)s", seat=who(args["seat"]))
    if ctype in ("accept_invitation", "choose_tournament_fighter") and args.get("fighter"):
        return _send_label(_, args, language, card_names)
    if ctype == "show_thumb":
        return _("Thumbs down") if args.get("thumb") == "down" else _("Thumbs up")
    if ctype == "give_gold" and "amount" in args:
        return _("Give %(amount)s gold to %(seat)s", amount=args["amount"], seat=who(args.get("to")))
    if ctype == "place_bid" and "amount" in args:
        return _("Bid %(amount)s gold", amount=args["amount"])
    if ctype == "place_bets":
        placed = [f"{_(BET_TITLES[k])}: {v}" for k, v in args.items() if k in BET_TITLES and v]
        return _("Bets: %(bets)s", bets=", ".join(placed)) if placed else _("Bet nothing")
    if ctype == "settle_accounts":
        released = [_name(c, language, card_names) for c in args.get("release") or []]
        return _("Balance the accounts, releasing %(cards)s", cards=", ".join(released)) if released \
            else _("Balance the accounts")
    return None


def _trade_label(_, args: Mapping[str, Any], language: str, card_names: Mapping[str, str], who) -> str:
    give = ", ".join(_name(c, language, card_names) for c in args.get("give") or []) or "—"
    take = ", ".join(_name(c, language, card_names) for c in args.get("take") or []) or "—"
    gold = args.get("gold") or 0
    if "offer" in args:
        return _("Counter-offer to trade %(offer)s: give %(give)s, take %(take)s, gold %(gold)s",
                 offer=args["offer"], give=give, take=take, gold=gold)
    return _("Offer %(seat)s: give %(give)s, take %(take)s, gold %(gold)s",
             seat=who(args.get("to")), give=give, take=take, gold=gold)


def _send_label(_, args: Mapping[str, Any], language: str, card_names: Mapping[str, str]) -> str:
    fighter = _name(args["fighter"], language, card_names)
    kit = [_name(args[k], language, card_names) for k in ("weapon", "armour", "special") if args.get(k)]
    if kit:
        return _("Send %(fighter)s with %(equipment)s", fighter=fighter, equipment=", ".join(kit))
    return _("Send %(fighter)s", fighter=fighter)


# --------------------------------------------------------------------------- the outcome panel

#: How a game of Spartacus ends (the engine's ``how``): a dominus alone at 12 influence,
#: the tournament of those who reached it together, or the round limit of the options.
ENDINGS: dict[str, str] = {
    "influence": N_("%(name)s won with %(house)s, reaching %(influence)s influence in round %(round)s."),
    "tournament": N_("%(name)s won with %(house)s by winning the tournament in round %(round)s."),
    "round_limit": N_("The last round, round %(round)s, is over: %(name)s won with %(house)s, the house with the "
                      "most influence (%(influence)s)."),
}


def outcome(result: Mapping[str, Any], language: str, seat_names: Mapping[int, str]) -> Optional[dict]:
    """The end of a Spartacus game in words: which house won and how (rulebook, Victory),
    and every house's influence, most first."""
    detail = result.get("detail")
    if not isinstance(detail, Mapping) or not isinstance(detail.get("houses"), Mapping):
        return None
    _ = translator(language)
    scores = result.get("scores")

    def house(seat: int) -> str:
        return house_names(seat_value(detail["houses"], seat), language)[0]

    lines = []
    ending = ENDINGS.get(str(detail.get("how")))
    for seat in seats_of(result, "winners"):
        args = {"house": house(seat), "name": seat_name(seat_names, seat, language),
                "influence": seat_value(scores, seat), "round": detail.get("round")}
        lines.append(_(ending, **args) if ending else _("%(name)s won with %(house)s.", **args))
    seats = seats_of(result, "ranking") or sorted(int(s) for s in detail["houses"] if str(s).isdigit())
    table = {
        "caption": _("Influence of each house"),
        "head": [_("Player"), _("House"), _("Influence")],
        "rows": [{"seat": s, "cells": [seat_name(seat_names, s, language), house(s), str(seat_value(scores, s))]}
                 for s in seats],
    }
    return {"lines": lines, "table": table}


# --------------------------------------------------------------------------- events

#: event type (or ``type.variant``) -> sentences, the most detailed first: the first whose
#: placeholders the event (as its reader sees it) can fill is told.
EVENTS: dict[str, tuple[str, ...]] = {
    'ChanceRequested': (N_('The game draws on chance.'),),
    'ChanceResolved': (N_('Chance has decided.'),),
    'IntrigueDeckShuffled': (N_('The intrigue deck was shuffled.'),),
    'MarketDeckShuffled': (N_('The market deck was shuffled.'),),
    'DrawsOwed': (N_('The dominae are owed intrigue cards.'),),
    'IntrigueCardsDrawn': (N_('%(seat)s drew %(cards)s.'), N_('%(seat)s drew intrigue cards: %(count)s.'), N_('%(seat)s drew intrigue cards.'),),
    'DrawSkipped': (N_('%(seat)s could draw no intrigue card.'),),
    'HouseOrderRolled': (N_('The dice were rolled for the choice of houses: %(first)s chooses first.'), N_('The dice were rolled for the choice of houses.'),),
    'HouseChosen': (N_('%(seat)s chose %(house)s.'),),
    'GameSetUp': (N_('The houses were set up: gold, influence and starting cards dealt.'),),
    'NewRoundStarted': (N_('Round %(round)s began.'),),
    'PhaseStarted': (N_('The %(phase)s phase began.'), N_('A new phase began.'),),
    'PhaseEnded': (N_('The %(phase)s phase ended.'), N_('A phase ended.'),),
    'StageChanged': (N_('The game moved on to its next step.'),),
    'GameEnded': (N_('The game is over: %(winners)s won.'), N_('The game is over.'),),
    'GoldGained': (N_('%(seat)s gained %(amount)s gold.'),),
    'GoldPaid': (N_('%(seat)s paid %(amount)s gold.'),),
    'GoldGiven': (N_('%(from)s gave %(amount)s gold to %(to)s.'),),
    'InfluenceGained': (N_('%(seat)s gained %(amount)s influence.'),),
    'InfluenceLost': (N_('%(seat)s lost %(amount)s influence.'),),
    'CardsReadied': (N_('%(seat)s readied %(cards)s.'), N_('%(seat)s readied cards.'),),
    'CardExhausted': (N_('%(seat)s exhausted %(card)s.'),),
    'CardInjured': (N_('%(card)s of %(seat)s was injured.'),),
    'HealingRolled': (N_('%(seat)s rolled %(roll)s to heal %(card)s.'),),
    'CardHealed': (N_('%(card)s of %(seat)s healed.'),),
    'PropertyDiscarded': (N_('%(seat)s discarded %(card)s.'),),
    'PropertyGained': (N_('%(seat)s gained %(card)s.'),),
    'PropertyTransferred': (N_('%(card)s passed from %(from)s to %(to)s.'), N_('A card changed hands.'),),
    'FavourGained': (N_('%(card)s of %(seat)s gained a favour token.'),),
    'ChampionCrowned': (N_('%(card)s of %(seat)s was crowned champion.'), N_('A champion was crowned.'),),
    'GuardPlaced': (N_('%(seat)s placed a guard.'),),
    'IntrigueCardSold': (N_('%(seat)s sold %(card)s for %(gold)s gold.'), N_('%(seat)s sold an intrigue card.'),),
    'IntrigueCardDiscarded': (N_('%(seat)s discarded %(card)s.'), N_('%(seat)s discarded an intrigue card.'),),
    'IntrigueTurnStarted': (N_('%(seat)s began an intrigue turn.'),),
    'TurnStepTaken': (N_('%(seat)s acted in the intrigue turn.'),),
    'HandLimitEnforced': (N_('%(seat)s had to cut the hand down to %(limit)s cards.'),),
    'PhaseHandLimitEnforced': (N_('The hand limit was enforced.'),),
    'IntrigueTurnEnded': (N_('%(seat)s ended the intrigue turn.'),),
    'SchemeDiscountGranted': (N_('%(seat)s may pay %(amount)s gold less for schemes.'),),
    'HandCardPeeked': (N_('%(seat)s looked at an intrigue card in another hand.'),),
    'SupportRequested': (N_('%(seat)s asked for support for %(card)s.'), N_('%(seat)s asked for support for a scheme.'),),
    'SupportAnswered.granted': (N_('%(by)s granted %(seat)s support.'),),
    'SupportAnswered.refused': (N_('%(by)s refused %(seat)s support.'),),
    'SupportFellShort': (N_('%(seat)s did not get enough support.'),),
    'SupportedSchemeKept': (N_('%(seat)s kept the card and played no scheme.'),),
    'SchemePlayed': (N_('%(seat)s played the scheme %(card)s against %(target)s.'), N_('%(seat)s played the scheme %(card)s.'),),
    'WindowOpened': (N_('The dominae may react.'),),
    'ReactionPassed.closed': (N_('%(seat)s did not react: no more reactions.'),),
    'ReactionPassed': (N_('%(seat)s did not react.'),),
    'WindowClosed': (N_('No more reactions.'),),
    'ReactionAnswered': (N_('%(seat)s answered in secret.'),),
    'WindowRoundEnded.closed': (N_('Everyone has answered: nobody reacts, no more reactions.'),),
    'WindowRoundEnded': (N_('Everyone has answered: %(seat)s acts first.'), N_('Everyone has answered: nobody reacts.'),),
    'ReactionPlayed': (N_('%(seat)s played the reaction %(card)s.'),),
    'GuardUsed': (N_('%(seat)s called on a guard.'),),
    'GuardRolled': (N_("%(seat)s's guard rolled %(roll)s."),),
    'GuardRerolled': (N_("%(seat)s's guard rerolled."),),
    'SchemeFoiled': (N_('%(by)s foiled %(card)s of %(seat)s.'), N_('A scheme was foiled.'),),
    'ReactionFoiled': (N_('A reaction was foiled.'),),
    'GuardFoiled': (N_("%(by)s foiled the guard of %(seat)s before its die was rolled."),),
    'SchemeFizzled': (N_('A scheme came to nothing.'),),
    'EffectsStarted': (N_('%(card)s takes effect.'), N_('An effect takes hold.'),),
    'EffectStepped': (N_('The effect went on.'),),
    'EffectsFinished': (N_('%(card)s has taken its effect.'), N_('The effect is over.'),),
    'PromptOpened': (N_('%(seat)s has a choice to make.'),),
    'PromptAnswered': (N_('%(seat)s made a choice.'),),
    'SealedOpened': (N_('The dominae choose in secret.'),),
    'SealedAnswered': (N_('%(seat)s chose in secret.'),),
    'SealedRevealed': (N_('The secret choices were revealed.'),),
    'TradeProposed': (N_('%(from)s offered %(to)s a trade.'), N_('A trade was offered.'),),
    'TradeAccepted': (N_('A trade was accepted.'),),
    'TradeRejected': (N_('A trade was rejected.'),),
    'TradeWithdrawn': (N_('A trade offer was withdrawn.'),),
    'PropertySoldToBank': (N_('%(seat)s sold %(card)s to the bank.'), N_('%(seat)s sold a card to the bank.'),),
    'GoldHidden': (N_('%(seat)s hid their gold for the auctions.'),),
    'AuctionLotsLaid': (N_('Cards laid out for auction: %(count)s.'),),
    'LotRevealed': (N_('%(card)s is up for auction.'),),
    'AuctionStarted': (N_('The auction for %(card)s began.'), N_('The auction for the host token began.'),),
    'BidsRevealed': (N_('The bids were revealed: %(bids)s.'), N_('The bids were revealed.'),),
    'AuctionTied': (N_('The highest bids are tied: %(tied)s.'), N_('The highest bids are tied.'),),
    'AuctionWon': (N_('%(seat)s won %(card)s for %(price)s gold.'), N_('%(seat)s won the auction.'),),
    'AuctionFailed': (N_('No one bought %(card)s.'), N_('No one won the auction.'),),
    'HostDiceRolled': (N_('The dice were rolled for the host token: %(rolls)s.'), N_('The dice were rolled for the host token.'),),
    'HostChosen': (N_('%(seat)s is the host of the games.'),),
    'GoldRevealed': (N_('The hidden gold was revealed.'),),
    'InvitationSent': (N_('%(host)s invited %(seat)s to the games.'), N_('%(seat)s was invited to the games.'),),
    'InvitationDeclined': (N_('%(seat)s declined the invitation.'),),
    'InvitationAccepted': (N_('%(seat)s accepted and sends %(fighter)s to the games.'), N_('%(seat)s accepted the invitation.'),),
    'FighterReplaced': (N_('%(seat)s sent another fighter.'),),
    'BetsRevealed': (N_('The bets were revealed.'),),
    'FightOpened': (N_('The fight in the arena opened.'),),
    'FightPlanChosen': (N_('%(seat)s set a fight plan.'),),
    'FightSettled': (N_('%(winner_card)s of %(winner_seat)s beat %(loser_card)s of %(loser_seat)s.'), N_('The fight was settled.'),),
    'BetsSettled': (N_('The bets were paid out.'),),
    'VerdictGiven.up': (N_("The host's verdict on %(card)s of %(seat)s: thumbs up."),),
    'VerdictGiven.down': (N_("The host's verdict on %(card)s of %(seat)s: thumbs down."),),
    'VerdictGiven': (N_('The host gave the verdict.'),),
    'FighterDied': (N_('%(card)s of %(seat)s died.'),),
    'HostHonoured': (N_('%(seat)s gained influence as the host.'),),
    'TributePaid': (N_('The tribute was paid.'),),
    'BetsWindowOpened': (N_('Bets may be placed.'),),
    'ArenaClosed': (N_('The arena closed.'),),
    'ArenaCancelled': (N_('The games were cancelled.'),),
    'HouseAbilityUsed': (N_('%(seat)s used the house ability.'),),
    'CardAbilityUsed': (N_('%(seat)s used %(card)s.'),),
    'TournamentStarted': (N_('A tournament began.'),),
    'TournamentRanked': (N_("The tournament's pairings were set."),),
    'TournamentMatchStarted': (N_('A tournament match began: %(a)s against %(b)s.'), N_('A tournament match began.'),),
    'TournamentFighterChosen': (N_('%(seat)s sends %(fighter)s to the tournament.'), N_('%(seat)s chose a fighter for the tournament.'),),
    'TournamentMatchForfeited': (N_('A tournament match was forfeited.'),),
    'TournamentNextRound': (N_('The tournament went on to its next round.'),),
    'TournamentDiceRolled': (N_('The dice were rolled for the tournament.'),),
}

#: Phase names in event sentences (the catalogues' words: Intrige/Интриги, Markt/Рынок, Arena/Арена).
PHASES: dict[str, str] = {
    "intrigue": N_("Intrigue"), "market": N_("Market"), "arena": N_("Arena"), "tournament": N_("Tournament"),
}

_SEAT_KEYS = ("seat", "target", "from", "to", "by", "first", "host", "winner_seat", "loser_seat")
_CARD_KEYS = ("card", "fighter", "winner_card", "loser_card")
_NUMBER_KEYS = ("amount", "price", "round", "limit", "gold", "roll", "count")


def _is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def event_params(data: Mapping[str, Any], language: str, seat_names: Mapping[int, str]) -> dict[str, str]:
    """The words an event's data can fill in: seats by name, cards and houses by the rulebook's
    names, phases by their words.  Only what ``data`` carries: nothing is guessed."""
    _ = translator(language)
    out: dict[str, str] = {}
    for key in _SEAT_KEYS:
        if _is_seat(data.get(key)):
            out[key] = seat_name(seat_names, data[key], language)
    for key in _CARD_KEYS:
        if isinstance(data.get(key), str) and data[key]:
            out[key] = _name(data[key], language, {})
    for key in _NUMBER_KEYS:
        if isinstance(data.get(key), (int, float)) and not isinstance(data.get(key), bool):
            out[key] = str(data[key])
    cards = data.get("cards")
    if isinstance(cards, (list, tuple)) and cards and all(isinstance(c, str) for c in cards):
        out["cards"] = ", ".join(_name(c, language, {}) for c in cards)
    if data.get("house"):
        out["house"] = house_names(data["house"], language)[0]
    phase = PHASES.get(str(data.get("phase")))
    if phase:
        out["phase"] = _(phase)
    winners = data.get("winners")
    if isinstance(winners, (list, tuple)) and winners and all(_is_seat(w) for w in winners):
        out["winners"] = ", ".join(seat_name(seat_names, w, language) for w in winners)
    for key in ("bids", "rolls"):
        values = data.get(key)
        if isinstance(values, Mapping) and values and all(
                str(k).isdigit() and isinstance(v, int) and not isinstance(v, bool) for k, v in values.items()):
            out[key] = ", ".join(f"{seat_name(seat_names, int(k), language)} {v}"
                                 for k, v in sorted(values.items(), key=lambda kv: int(kv[0])))
    seats = data.get("seats")
    if event_type_tied(data) and all(_is_seat(x) for x in seats):
        out["tied"] = ", ".join(seat_name(seat_names, x, language) for x in seats)
    if isinstance(seats, (list, tuple)) and len(seats) == 2 and all(_is_seat(s) for s in seats):
        out["a"], out["b"] = (seat_name(seat_names, s, language) for s in seats)
    return out


def event_type_tied(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` names tied seats (an auction's tie: ``seats`` and their ``stakes``)."""
    return isinstance(data.get("seats"), (list, tuple)) and len(data["seats"]) >= 2 and "stakes" in data


def _variant(event_type: str, data: Mapping[str, Any]) -> Optional[str]:
    if event_type == "VerdictGiven" and data.get("thumbs") in ("up", "down"):
        return f"VerdictGiven.{data['thumbs']}"
    if event_type == "SupportAnswered" and isinstance(data.get("granted"), bool):
        return "SupportAnswered.granted" if data["granted"] else "SupportAnswered.refused"
    if event_type in ("ReactionPassed", "WindowRoundEnded") and data.get("closed") is True:
        return f"{event_type}.closed"  # the pass, or the round of passes, that closed the window
    return None


def tell(sentences: Any, params: Mapping[str, str], language: str) -> Optional[str]:
    """The first of ``sentences`` whose placeholders ``params`` can all fill, translated."""
    import re

    for sentence in sentences:
        text = sentence.plural if isinstance(sentence, Counted) else sentence  # (the plural fills them all)
        if all(name in params for name in re.findall(r"%\((\w+)\)s", text)):
            return translator(language)(sentence, **params)
    return None


def describe_event(event: Mapping[str, Any], language: str, seat_names: Mapping[int, str]) -> Optional[str]:
    """One sentence telling a Spartacus event as its reader sees it (``None``: not one of
    the game's own; the arena's words tell the fights)."""
    event_type = str(event.get("type", ""))
    data = event.get("data") or {}
    if not isinstance(data, Mapping):
        data = {}
    variant = _variant(event_type, data)
    sentences = EVENTS.get(variant, ()) if variant else ()
    sentences = tuple(sentences) + tuple(EVENTS.get(event_type, ()))
    if not sentences:
        return None
    return tell(sentences, event_params(data, language, seat_names), language)
