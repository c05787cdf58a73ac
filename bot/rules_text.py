"""Short, correct summaries of each variant's rules for ``/rummy rules`` (from shared/rules).

The registry (:mod:`bot.registry`) puts a summary together with its variant's options.
"""

from __future__ import annotations

from .engine.game import Options

SUMMARIES: dict[str, str] = {
    "straight": (
        "2–6 players, one pack, no jokers. 10 cards each with 2 players, 7 with 3–4, 6 with "
        "5–6.\n"
        "**Your turn:** draw (stock or the top discard), then meld and lay off as you like, "
        "then discard one card.\n"
        "**Melds:** runs of 3+ of one suit (aces low by default) and sets of 3–4 of a rank. "
        "Anyone may lay off on any meld.\n"
        "**Going out:** the first to have no cards wins the hand; going rummy (all cards in one "
        "turn, nothing melded before) doubles the payments.\n"
        "**Scoring:** losers pay their cards (pips, J Q K 10, ace 1 or 15); the match runs "
        "to the target or a fixed number of hands. Three timeouts in a row remove you from "
        "the hand.\n"
        "**Commands:** `/straight draw`, `meld 7H 8H 9H | QS QD QC`, `layoff 10H meld:1`, "
        "`discard 4C` — or use the buttons and My hand."),
    "indian": (
        "2–6 players, 13 cards each; 1 pack + 1 joker for 2 players, 2 packs + 2 jokers for "
        "more. A cut joker is shown: every card of its rank is wild.\n"
        "**Your turn:** draw from the closed or open deck (no jokers from the open deck), then "
        "discard — or declare. Before drawing you may drop (20 first, 40 middle).\n"
        "**Valid show:** all 13 cards in sequences and sets, at least two sequences, at least "
        "one pure (no joker standing in). A wrong show costs 80.\n"
        "**Scoring:** losers count their unmelded cards (A K Q J 10, jokers 0), capped at 80. "
        "Formats: points (one deal), pool 101/201 (out at 101/201 or more), deals.\n"
        "**Commands:** `/indian draw`, `discard`, `check` (private), `declare finish:4C` "
        "(shows the bot's reading and asks you to confirm), `drop` — or the buttons and My "
        "hand."),
    "penang": "Penang Rummy (Si Rummy): 2–5 players, 20 or 25 cards, no drawing; meld, lay "
              "off and swap jokers until someone goes out. Not available yet.",
    "rummi": "Rummi (Singapore): 2–5 players, 20 cards, one play per turn, Tien Hu and chips. "
             "Not available yet.",
    "remi": "Indonesian Remi: 2–4 players, 7 cards, take discards to lay combinations, close "
            "with a bonus. Not available yet.",
    "tiles": "Tile Rummy: 2–4 players, 106 tiles, rearrange the table freely after a 30-point "
             "initial meld. Not available yet.",
}


def options_text(options: type[Options]) -> str:
    lines = []
    for spec in options.specs():
        if spec.choices:
            allowed = " | ".join(spec.choices)
        elif spec.kind == "bool":
            allowed = "true | false"
        else:
            low, high = spec.bounds or (0, 0)
            allowed = " or ".join([*map(str, spec.also), f"{low}–{high}"])
            if spec.optional:
                allowed = "none or " + allowed
        default = "none" if spec.default is None else str(spec.default).lower()
        lines.append(f"• `{spec.name}` ({allowed}, default {default}): {spec.help}")
    return "\n".join(lines)
