"""Short, correct summaries of each variant's rules for ``/rummy rules`` (from shared/rules).

The registry (:mod:`bot.registry`) puts a summary together with its variant's options.
"""

from __future__ import annotations

from .engine.game import Options, OptionSpec
from .engine.i18n import tr
from .i18n import _, number, say, say_known

SUMMARIES: dict[str, str] = {
    "straight": (
        tr("2–6 players, one pack, no jokers. 10 cards each with 2 players, 7 with 3–4, 6 "
           "with 5–6.\n**Your turn:** draw (stock or the top discard), then meld and lay off "
           "as you like, then discard one card.\n**Melds:** runs of 3+ of one suit (aces low "
           "by default) and sets of 3–4 of a rank. Anyone may lay off on any meld.\n**Going "
           "out:** the first to have no cards wins the hand; going rummy (all your cards in "
           "one turn, nothing melded or laid off before) doubles the payments (by "
           "default).\n**Empty stock:** the discard pile is shuffled into a new stock, at most "
           "twice a hand; the next time the stock runs out, the hand ends with no "
           "winner.\n**Scoring:** each loser pays the winner their cards' value (pips, J Q K "
           "10, ace 1 or 15); the match runs to the target or a fixed number of hands. Three "
           "timeouts in a row remove you from the hand.\n**Commands:** `/straight draw`, `meld "
           "7H 8H 9H | QS QD QC`, `layoff 10H meld:1`, `discard 4C` — or use the buttons and "
           "My hand.")),
    "indian": (
        tr("2–6 players, 13 cards each; 1 pack + 1 joker for 2 players, 2 packs + 2 jokers "
           "for more. A cut joker is shown: every card of its rank is wild.\n**Your turn:** "
           "draw from the closed or open deck (no jokers from the open deck), then discard — "
           "or declare. Before drawing you may drop out of the deal: 20 points before your "
           "first draw, 40 later (25 and 50 in pool 201).\n**Valid show:** all 13 cards in "
           "sequences and sets, at least two sequences, at least one pure (no joker standing "
           "in). A wrong show costs 80.\n**Scoring:** a loser with two sequences, one pure, "
           "counts the cards left out of their best grouping, otherwise all 13 (A K Q J 10 "
           "points, others their pips, jokers 0), at most 80. Formats: points (one deal), "
           "pool 101/201 (out at 101/201 or more), deals (a fixed number, for "
           "chips).\n**Commands:** `/indian draw`, `discard`, `check` (private), `declare "
           "finish:4C` (shows the bot's reading and asks you to confirm), `drop` — or the "
           "buttons and My hand.")),
    "penang": (
        tr("2–5 players; two packs and 6 or 8 jokers (a third pack for 5). 20 cards each, 25 "
           "with 3 players; the rest is set aside unseen. Nobody draws or discards.\n**Your "
           "turn:** as many melds and lay-offs as you like (at least one), then **Done**. "
           "Your first play of the game must be a new meld (your passport). After it you may "
           "swap a card for a joker on the table (exact card in a run, any suit in a "
           "set).\n**Melds:** runs of 3+ in one suit (A-2-3 up to Q-K-A, even A…A, never "
           "K-A-2) and sets of 3+ of a rank, suits may repeat. A joker stands for one "
           "definite card.\n**Dead:** when your turn starts and you can play nothing (swaps "
           "included) you are Dead for the game; you may also declare Dead. Going out is "
           "Game: everyone else counts their cards (2–10 face, J Q K 10, A 15, joker 20); "
           "lowest total wins.\n**Commands:** `/penang meld 7H 8H 9H`, `layoff 10H meld:1`, "
           "`swap 10C meld:3`, `done`, `dead` — or My hand: pick cards, Meld or lay off, "
           "Swap, Done.")),
    "rummi": (
        tr("2–5 players; two packs and 8 jokers; 20 cards each, dealt anticlockwise in "
           "batches of 4; the rest is set aside. Nobody draws or discards.\n**Before play:** a "
           "hand that is all melds is a **Tien Hu** and wins at once; a hand with no "
           "three-card sequence is out.\n**A play:** lay a new 3-card sequence or kill (3 of a "
           "rank, suits may repeat), or add one card to a meld on the table. Your first play "
           "must be a sequence (the passport). One play a turn, or many ended by **Done** "
           "(`plays_per_turn`). Jokers stay where they are played.\n**Out and Hu:** when you "
           "cannot play you are out. Playing your last card is a Hu: everyone pays you "
           "`hu_chips`. Otherwise the game ends when at most one player is left, and places "
           "by card points (2–10 face, J Q K 10, A 15) pay the winner by `tiers`. Jokers and "
           "Aces in hand pay adjustments to the other players.\n**Commands:** `/rummi play "
           "cards:5H 6H 7H`, `play cards:8H meld:2`, `done` — or My hand: Play selected, Add "
           "to meld.")),
    "gin": (
        tr("2 players, one pack, no jokers, 10 cards each. Melds stay in your hand: runs of 3+ "
           "of a suit (aces low only) and sets of 3–4 of a rank; the rest is deadwood (A 1, "
           "2–10 pips, J Q K 10).\n"
           "**Upcard:** the non-dealer may take the first upcard or pass, then the dealer; if "
           "both pass, the non-dealer draws from the stock.\n"
           "**Your turn:** draw from the stock or take the top discard (not discarded again this "
           "turn), then discard — or **knock**: discard and lay your melds with deadwood of at "
           "most the knock limit (10; Oklahoma: the first upcard's value). No deadwood is "
           "**gin**.\n"
           "**After a knock** the bot lays off the other player's cards on the knocker's melds "
           "(not after gin) for their lowest count. The knocker scores the difference; if the "
           "defender's count is as low or lower it is an **undercut** (+25). Gin scores the "
           "count +25. With 2 stock cards left the next player may only knock with the upcard, "
           "else the hand is void.\n"
           "**Game:** to 100; then 100 to the leader, 25 per hand won, and a shutout doubles. "
           "Three timeouts in a row put you on auto-play until `/rummy resume`.\n"
           "**Commands:** `/gin draw`, `take`, `pass`, `discard 4C`, `knock KC [groups]`, `gin "
           "KC`, `check` — or the buttons and My hand (Knock with selected… asks first).")),
    "remi": (
        tr("2–4 players, one pack, no jokers, 7 cards each. The discard pile is spread: its "
           "top three cards are positions 1, 2 and 3.\n**Your turn:** draw from the stock, or "
           "take a card from positions 1–3 together with 2+ of your cards that make a "
           "combination with it (laid at once; the cards above it come to your hand). Then "
           "discard, or close.\n**Combinations:** sequences of 3+ numerals 2–10 of a suit, or "
           "exactly J Q K of a suit; sets of 3–4 of a rank, which count only when you have a "
           "sequence to back them. No laying off.\n**Closing:** all your cards but one in "
           "combinations; the last goes on the pile and earns 10× its value (2–10 worth 5, J "
           "Q K 10, A 15). Everyone else scores their best arrangement: combinations plus, "
           "loose cards minus. Highest total at the target wins.\n**Commands:** `/remi draw`, "
           "`take card:7H with:8H 9H`, `discard 4C`, `close 2C` — or the Draw / Take buttons "
           "and My hand.")),
    "rummy500": (
        tr("2–8 players; one pack for 2–4, two for 5–8 (jokers optional). 13 cards each with 2 "
           "players (or 10), 7 with 3–8. The discard pile is spread: every card shows, numbered "
           "from the top.\n"
           "**Your turn:** draw from the stock, or take any pile card with every card above it — "
           "the picked card must be used at once, in a new meld (with your cards, even ones just "
           "taken) or laid off on any meld. Then meld and lay off as you like, and discard.\n"
           "**Melds:** runs of 3+ of one suit (A-2-3 and Q-K-A, not K-A-2) and sets of 3–4 of a "
           "rank in different suits. Anyone may lay off on anyone's meld.\n"
           "**Scoring:** each card on the table scores for whoever placed it (2–10 pips, J Q K 10, "
           "ace 15 or 1 at the start of A-2-3, joker 15); cards in hand count against you when "
           "the hand ends (someone goes out, or draws from an empty stock). First to 500 wins; "
           "highest score if several.\n"
           "**Commands:** `/rummy500 draw`, `take card:5H with:4H 6H`, `take card:6S meld:2`, "
           "`meld 7H 8H 9H`, `layoff 10S meld:2`, `discard 4C` — or Draw / Take… and My hand.")),
    "tiles": (
        tr("2–4 players, 106 tiles: 1–13 in four colours twice, and 2 jokers; 14 tiles "
           "each.\n**Your turn:** rearrange a staged copy of the table as you like — new melds "
           "from your rack, tiles added, moved, melds split, a joker freed with the tile it "
           "stands for — then **Done**: every meld must be valid (placing nothing counts as a "
           "draw). Or **Draw** one tile. Everyone sees the staged table, changed melds "
           "marked.\n**Melds:** runs of 3+ of one colour (1 before 2, 13 last, no wrapping) "
           "and sets of 3–4 of a number in different colours. Your first melds must total "
           "`initial_meld` (30) from your rack alone.\n**Arrange:** name rack tiles and the "
           "bot finds a table that places them, changing the fewest melds. An invalid Done is "
           "refused or costs 3 tiles (`invalid_done`).\n**Scoring:** the first to empty their "
           "rack collects the others' rack totals (jokers 30).\n**Commands:** `/tiles play`, "
           "`arrange`, `move`, `split`, `release`, `take`, `undo`, `done`, `draw` — or My "
           "hand: pick tiles, New meld, add to a meld, Arrange.")),
}


TURN_HEADS = ("**Your turn:**", "**A play:**")
"""How a summary's paragraph on what a turn is begins (in English)."""
SENTENCE_ENDS = (". ", "。", "। ")


def glance(key: str) -> str:
    """A variant's key rules at a glance: the summary's first line (players and pieces) and
    the first sentence of what a turn is. The paragraph is found in English and read in the
    current language (a translation keeps the summary's lines)."""
    english = SUMMARIES[key].split("\n")
    lines = say(SUMMARIES[key]).split("\n")
    index = next((i for i, line in enumerate(english) if line.startswith(TURN_HEADS)), None)
    if index is None or index >= len(lines):
        return lines[0]
    turn = lines[index]
    for end in SENTENCE_ENDS:
        turn = turn.split(end)[0]
    return f"{lines[0]} {turn.rstrip('.。।')}."


def first_line(key: str) -> str:
    """The summary's first line: players and pieces (the ``/rummy rules`` index)."""
    return say(SUMMARIES[key]).split("\n")[0]


def options_in_effect(options: Options) -> str:
    """Every option of a game with its value, the ones set away from the default in bold:
    ``**target: 200** · aces: low · …`` (for the lobby)."""
    parts = []
    for spec in options.specs():
        value = getattr(options, spec.name)
        shown = f"{spec.name}: {value_text(value)}"  # option names are fixed (UX.md)
        parts.append(f"**{shown}**" if value != spec.default else shown)
    return " · ".join(parts)


def value_text(value: object) -> str:
    """An option's value as a player reads it: ``on``/``off``, ``none``, or the value."""
    if isinstance(value, bool):
        return _("on") if value else _("off")
    if value is None:
        return _("none")
    return say_known(value) if isinstance(value, str) else number(value) \
        if isinstance(value, int | float) else str(value)


def options_text(options: type[Options]) -> str:
    """One line per option: its values, its default and what it does."""
    return "\n".join(f"• `{spec.name}` ({option_values(spec)}{_default(spec)}) — "
                     f"{say(spec.help)}" for spec in options.specs())


def option_values(spec: OptionSpec) -> str:
    """The values an option takes, as a player would say them: ``2, 3 or 6``,
    ``0, or 10 to 600``, ``true or false``."""
    if spec.kind == "bool":
        return _("true or false")
    if spec.choices:
        return alternatives([say_known(choice) for choice in spec.choices])
    values = [str(v) for v in spec.also]
    if spec.bounds is not None:
        values.append(_("{low} to {high}", low=str(spec.bounds[0]), high=str(spec.bounds[1])))
    if len(values) == 2 and spec.bounds is not None:
        # "0, or 10 to 600": the comma keeps "or" apart
        return _("{first}, or {second}", first=values[0], second=values[1])
    return alternatives(values)


def alternatives(values: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(values) <= 1:
        return "".join(values)
    return _("{first} or {last}", first=", ".join(values[:-1]), last=values[-1])


def _default(spec: OptionSpec) -> str:
    """``; default 90``, or ``, or leave it out`` for an option whose default is no value."""
    if spec.default is None:
        return _(", or leave it out")
    if isinstance(spec.default, bool):
        default = _("true") if spec.default else _("false")
    else:
        default = say_known(str(spec.default))
    return _("; default {value}", value=default)
