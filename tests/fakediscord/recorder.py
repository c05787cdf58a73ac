"""What the bot did to the fake: every request, and every problem.

A *problem* is anything real Discord would have refused or that a player
would see as broken: an unknown endpoint, a refused request (validation,
double response, late response…), a bad gateway frame, an interaction nobody
answered, an ``ephemeral=True`` followup that Discord would show publicly.
``assert_clean`` fails the test if any problem was not expected.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .interactions import InteractionRecord

#: Refusals a correct bot still meets at run time and must handle.
ALWAYS_EXPECTED_CODES = frozenset({50007})


@dataclass(frozen=True)
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    data: bytes


@dataclass
class RequestRecord:
    """One HTTP request the fake received, with the answer it gave."""

    method: str
    path: str
    route: str | None
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    status: int = 0
    response: Any = None
    injected: bool = False

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


@dataclass
class Problem:
    """Something Discord would refuse or a player would see as broken."""

    kind: str
    detail: str
    status: int | None = None
    code: int | None = None
    request: RequestRecord | None = None
    interaction: InteractionRecord | None = field(default=None, repr=False)
    expected: bool = False

    def __str__(self) -> str:
        where = f" [{self.request.method} {self.request.path}]" if self.request else ""
        code = f" (code {self.code})" if self.code is not None else ""
        return f"{self.kind}{code}: {self.detail}{where}"


class Recorder:
    """Keeps requests and problems; decides which problems were expected."""

    def __init__(self, on_problem: Callable[[], None]) -> None:
        self._on_problem = on_problem
        self.requests: list[RequestRecord] = []
        self.problems: list[Problem] = []
        self._allowed_codes: set[int] = set(ALWAYS_EXPECTED_CODES)
        self._allowed_kinds: set[str] = set()

    def allow(self, *codes: int, kinds: tuple[str, ...] = ()) -> None:
        """Mark error codes (and problem kinds) as expected from now on."""
        self._allowed_codes.update(codes)
        self._allowed_kinds.update(kinds)
        for problem in self.problems:
            problem.expected = problem.expected or self._is_allowed(problem)

    def add(self, problem: Problem) -> Problem:
        problem.expected = problem.expected or self._is_allowed(problem)
        self.problems.append(problem)
        if problem.interaction is not None:
            problem.interaction.problems.append(problem)
        self._on_problem()
        return problem

    def take(self, *, kind: str | None = None, code: int | None = None) -> list[Problem]:
        """Remove and return the matching problems (all by default)."""
        taken = [p for p in self.problems if _matches(p, kind, code)]
        self.problems = [p for p in self.problems if not _matches(p, kind, code)]
        return taken

    def unexpected(self) -> list[Problem]:
        return [p for p in self.problems if not p.expected]

    def assert_clean(self) -> None:
        unexpected = self.unexpected()
        if unexpected:
            lines = "\n".join(f"  - {p}" for p in unexpected)
            raise AssertionError(f"fake Discord saw {len(unexpected)} problem(s):\n{lines}")

    def _is_allowed(self, problem: Problem) -> bool:
        return problem.code in self._allowed_codes or problem.kind in self._allowed_kinds


def _matches(problem: Problem, kind: str | None, code: int | None) -> bool:
    return (kind is None or problem.kind == kind) and (code is None or problem.code == code)
