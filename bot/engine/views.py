"""What a player may see, as plain frozen data shared by every variant.

Each variant's ``view(seat)`` builds these. The bot turns them into messages
and :mod:`cardart` turns them into pictures, so a table or a hand is drawn the
same way whatever the variant. Seats are 0-based indices; names are the bot's
business and are passed to the renderers beside the view.

A hand appears only in :class:`HandView`, which a variant builds for its owner
alone; :class:`TableView` is public.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .cards import Face, Piece
from .i18n import capitalized, tr


class SeatState(StrEnum):
    """A player's standing in the current hand, as the players panel shows it."""

    PLAYING = "playing"
    DEAD = "dead"          # Penang
    DROPPED = "dropped"    # Indian: drop or wrong show
    OUT = "out"            # Rummi: out of the game; Straight: removed for inactivity
    AUTO = "auto-play"     # Remi, Tile Rummy after repeated timeouts
    ELIMINATED = "eliminated"  # Indian pool formats
    WON = "won"
    LOST = "lost"
    """The game is over and this player did not win it."""

    @property
    def word(self) -> str:
        """The state as players read it (a message)."""
        return _STATE_WORDS[self]


_STATE_WORDS = {
    SeatState.PLAYING: tr("playing"), SeatState.DEAD: tr("dead"), SeatState.DROPPED: tr("dropped"),
    SeatState.OUT: tr("out"), SeatState.AUTO: tr("auto-play"),
    SeatState.ELIMINATED: tr("eliminated"), SeatState.WON: tr("won"), SeatState.LOST: tr("lost"),
}


@dataclass(frozen=True, slots=True)
class MeldView:
    """One numbered meld on the table (NOT-11) with what each piece stands for (NOT-8)."""

    number: int
    pieces: tuple[Piece, ...]
    faces: tuple[Face, ...]
    kind: str  # "run" or "set"; in results also "layoff" (Gin: cards laid off, GIN-41)
    owner: int | None = None
    changed: bool = False
    """Tile Rummy: the staged meld differs from the table at the start of the turn."""
    placers: tuple[int, ...] = ()
    """The seat that placed each piece, where pieces are credited one by one (Rummy 500
    FHR-15, FHR-35); empty where the meld is its owner's as a whole."""

    @property
    def jokers(self) -> tuple[tuple[int, Face], ...]:
        """(position in meld, stand-in) for every joker."""
        return tuple((i, f) for i, (p, f) in enumerate(zip(self.pieces, self.faces, strict=True))
                     if p.is_joker or (p.rank, p.suit) != (f.rank, f.suit))

    @property
    def pure(self) -> bool:
        """No piece stands in for another (a wild card in its own place keeps a run pure)."""
        return not self.jokers

    def title(self, run_word: str = tr("run"), set_word: str = tr("set"), pure: bool = True) -> str:
        """What the group is, for results: ``Pure sequence``, ``Sequence`` or ``Set``.

        With ``pure`` (a variant that tells pure runs apart, as Indian Rummy does), a
        run with no stand-in is ``Pure``; one with a joker is plainly a ``Sequence``
        (its stand-ins are marked on the cards and in the text). ``run_word`` and
        ``set_word`` are the variant's own (Rummi: sequence and kill).
        """
        if self.kind == "layoff":
            return tr("Laid off")
        if self.kind != "run":
            return capitalized(set_word)
        return tr("Pure {run_word}", run_word=run_word) if pure and self.pure else \
            capitalized(run_word)


@dataclass(frozen=True, slots=True)
class PlayerPanel:
    """One line of the players panel."""

    seat: int
    pieces_left: int
    score: str
    state: SeatState = SeatState.PLAYING
    to_move: bool = False
    dealer: bool = False
    note: str = ""


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything public about the table (e.g. STR-9, IND-10)."""

    variant: str
    tiles: bool
    players: tuple[PlayerPanel, ...]
    melds: tuple[MeldView, ...] = ()
    discard: tuple[Piece, ...] = ()
    """The visible discard pile, bottom to top (only the top card where only it is public)."""
    discard_marked: int = 0
    """How many top discards are numbered positions 1, 2, 3 (Remi REM-7)."""
    discard_label: str = tr("discard")
    """What the variant calls its discard pile (Indian: "open deck")."""
    stock: int | None = None
    stock_label: str = tr("stock")
    wild: Piece | None = None
    """The face-up cut joker (Indian IND-7)."""
    to_move: int | None = None
    hand_number: int = 1
    hand_label: str = tr("hand")
    """What one round of the match is called: hand, deal or game."""
    melds_by_owner: bool = False
    """Show table melds grouped by the player who laid them (Remi REM-7)."""
    status: str = ""


@dataclass(frozen=True, slots=True)
class HandView:
    """A player's own hand (private): pieces in engine order and their badges."""

    seat: int
    pieces: tuple[Piece, ...]
    tiles: bool = False
    newest: Piece | None = None
    """The piece drawn most recently this turn, badged in the image."""
    wild_rank: int | None = None
    """Cards of this rank are jokers (Indian), badged as wild."""


@dataclass(frozen=True, slots=True)
class Placing:
    """One player's line in a results picture."""

    seat: int
    place: int
    points: str
    total: str = ""
    held: tuple[Piece, ...] = ()
    note: str = ""
    finish: Piece | None = None
    """The card a player went out with, shown in its own slot (Indian: the finish card)."""
    groups: tuple[MeldView, ...] = ()
    """``held`` split into melds, as declared (a valid show) or as scored (a loser's best
    arrangement), in display order; meaningful only when :attr:`grouped`."""
    deadwood: tuple[Piece, ...] = ()
    """The held pieces in no group, shown apart (when :attr:`grouped`)."""
    deadwood_value: int | None = None
    """What the deadwood counts; ``None`` when the hand is not grouped and is shown flat."""
    grouping_note: str = ""
    """Why the grouping is as it is, when that needs saying ("no two sequences …")."""

    @property
    def winner(self) -> bool:
        return self.place == 1

    @property
    def grouped(self) -> bool:
        """The hand is shown as groups and deadwood instead of a flat row."""
        return self.deadwood_value is not None


@dataclass(frozen=True, slots=True)
class ResultView:
    """The end of a hand, game or match."""

    variant: str
    title: str
    placings: tuple[Placing, ...]
    tiles: bool = False
    seed: int | None = None
    match_over: bool = False
    run_word: str = tr("run")
    """What the variant calls a run in results ("sequence" in Indian Rummy)."""
    set_word: str = tr("set")
    """What the variant calls a set in results ("kill" in Rummi)."""
    pure_runs: bool = True
    """Whether a run without stand-ins is told apart as pure (Indian Rummy's IND-23)."""

    def group_title(self, meld: MeldView) -> str:
        """What a group of a grouped hand is, in the variant's words (``Pure sequence``)."""
        return meld.title(self.run_word, self.set_word, self.pure_runs)


@dataclass(frozen=True, slots=True)
class ScoreSeries:
    """Running totals after each hand of a match, one list per seat (for the score chart)."""

    variant: str
    totals: tuple[tuple[float, ...], ...]
    labels: tuple[str, ...] = field(default=())
    lower_is_better: bool = False
    hand_label: str = tr("hand")
    """What one round of the match is called on the axis: hand, deal or game."""
