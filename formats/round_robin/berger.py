"""Round-robin schedules from the FIDE Berger tables.

Rule source: FIDE Handbook C.05 (General Regulations for Competitions), Annex 1 "Details of
Berger Tables"; docs/formats.md "Round robin".

Players are identified by their draw number, 1-based. A pairing is ``(seat_a, seat_b)``: seat A
is the player FIDE lists first in the table (white in chess; in Santase, seat A of the match).
With an odd number of players the dummy number ``n + 1`` stays in the schedule: its opponent in a
round has the bye (rests). Pure functions over plain data; no Django.
"""

from __future__ import annotations

Pairing = tuple[int, int]
Round = list[Pairing]


def _table_size(n: int) -> int:
    """The even table size N: ``n`` itself when even, ``n + 1`` (with the dummy) when odd."""
    return n + n % 2


def _rotate(number: int, shift: int, modulus: int) -> int:
    """``number + shift`` reduced modulo ``modulus`` into the range ``1..modulus``."""
    return (number - 1 + shift) % modulus + 1


def berger_rounds(n: int, double: bool = False) -> list[Round]:
    """Return the FIDE Berger schedule for ``n`` players.

    Args:
        n: number of players (draw numbers ``1..n``), ``n >= 2``.
        double: ``False`` for a single round robin, ``True`` for a double one.

    Returns:
        A list of rounds; each round is a list of ``(seat_a, seat_b)`` draw-number pairs in the
        order FIDE prints them (the pair involving ``N`` first). With ``N = n`` for even ``n`` and
        ``N = n + 1`` for odd ``n`` there are ``N - 1`` rounds of ``N / 2`` pairs per cycle; for odd
        ``n`` one pair per round contains the dummy ``N`` (see :func:`bye_player`).
        ``n == 2`` gives ``[[(1, 2)]]`` (and ``[[(1, 2)], [(2, 1)]]`` when double).

    Raises:
        ValueError: if ``n < 2``.

    Construction (FIDE C.05 Annex 1; docs/formats.md "Round robin"), which reproduces the
    published tables:
        * Round 1: ``1-N, 2-(N-1), 3-(N-2), ...``.
        * Each following round adds ``N/2`` modulo ``N-1`` (in the range ``1..N-1``) to every
          number other than ``N``, keeping each number's place in the table, so the board order
          and seat of those numbers carry over.
        * Player ``N`` stays on the first board and alternates seats: seat B in odd rounds
          (``p-N``), seat A in even rounds (``N-p``).

    Double round robin: the second cycle is the single-cycle table again, in its own round
    order, with seats reversed (seat reversal = first dealer swapped). FIDE C.05
    Annex 1 recommends, for a double-round tournament, reversing the order of the last two
    rounds of the first cycle so that nobody gets the same colour three times in a row; so the
    first cycle is played with its last two rounds (``N-2`` and ``N-1``) exchanged. Only the first
    cycle is reordered; the second cycle keeps the published order. With ``N == 2`` there is one
    round per cycle and nothing to exchange.
    """
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 players, got {n}")
    size = _table_size(n)
    half = size // 2
    modulus = size - 1

    first = [(i, size + 1 - i) for i in range(1, half + 1)]
    single: list[Round] = []
    for index in range(size - 1):  # index 0 is round 1
        shift = index * half
        rotating = _rotate(first[0][0], shift, modulus)
        top = (rotating, size) if index % 2 == 0 else (size, rotating)
        rest = [(_rotate(a, shift, modulus), _rotate(b, shift, modulus)) for a, b in first[1:]]
        single.append([top, *rest])

    if not double:
        return single
    first_cycle = list(single)
    if len(first_cycle) >= 2:
        first_cycle[-2], first_cycle[-1] = first_cycle[-1], first_cycle[-2]
    second_cycle = [[(b, a) for a, b in round_pairs] for round_pairs in single]
    return first_cycle + second_cycle


def bye_player(round_pairs: Round, n: int) -> int | None:
    """Return the player who rests in this round, or ``None``.

    Args:
        round_pairs: one round of :func:`berger_rounds` for the same ``n``.
        n: number of players, ``n >= 2``.

    Returns:
        For odd ``n``, the opponent of the dummy number ``n + 1`` (FIDE C.05 Annex 1: with an odd
        number of players the highest number counts as a bye). For even ``n``, ``None``.

    Raises:
        ValueError: if ``n < 2``, or ``n`` is odd and the round has no pair with ``n + 1``.
    """
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 players, got {n}")
    if n % 2 == 0:
        return None
    dummy = n + 1
    for a, b in round_pairs:
        if a == dummy:
            return b
        if b == dummy:
            return a
    raise ValueError(f"round has no pair with the dummy number {dummy}: {round_pairs!r}")
