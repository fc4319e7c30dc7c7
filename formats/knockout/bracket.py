"""Single-elimination (knockout) brackets.

Rule source: docs/formats.md "Knockout": the bracket size B is the next power of two, slots are
ordered by the standard doubling recursion (8: 1,8,4,5,2,7,3,6) and the byes go to seeds 1..B-n,
so the better seeds advance without playing and no bye ever meets a bye.

Seeds are 1-based (1 is the best). Match and round indexes are 0-based. Pure functions over plain
data; no Django.
"""

from __future__ import annotations

from scoring.rules import Seat

FirstRoundPair = tuple[int, int | None]


def _is_power_of_two(x: int) -> bool:
    return x >= 1 and x & (x - 1) == 0


def _check_size(size: int) -> None:
    if size < 2 or not _is_power_of_two(size):
        raise ValueError(f"bracket size must be a power of two >= 2, got {size}")


def bracket_slots(size: int) -> list[int]:
    """Return the seed placed in each slot of a bracket of ``size`` slots, top to bottom.

    Args:
        size: number of slots, a power of two ``>= 2``.

    Returns:
        A list of ``size`` seeds; slots ``2k`` and ``2k+1`` meet in the first round. Built by the
        doubling recursion: ``[1, 2]`` for 2, then each seed ``s`` of the bracket of half the
        size becomes the pair ``s, size + 1 - s`` (4: 1,4,2,3; 8: 1,8,4,5,2,7,3,6). The better
        seed of each pair is in the even slot.

    Raises:
        ValueError: if ``size`` is not a power of two or is ``< 2``.

    Rule source: docs/formats.md "Knockout" (doubling recursion).
    """
    _check_size(size)
    slots = [1]
    width = 1
    while width < size:
        width *= 2
        slots = [seed for s in slots for seed in (s, width + 1 - s)]
    return slots


def bracket_size(n: int) -> int:
    """Return the bracket size for ``n`` players: the smallest power of two ``>= n``.

    Args:
        n: number of players, ``n >= 2``.

    Raises:
        ValueError: if ``n < 2``.

    Rule source: docs/formats.md "Knockout" (the bracket size B is the next power of two).
    """
    if n < 2:
        raise ValueError(f"a knockout needs at least 2 players, got {n}")
    return 1 << (n - 1).bit_length()


def first_round(n: int) -> list[FirstRoundPair]:
    """Return the first-round pairs of seeds for ``n`` players, in bracket order.

    Args:
        n: number of players (seeds ``1..n``), ``n >= 2``; tested for ``2..128``.

    Returns:
        ``B / 2`` pairs ``(better_seed, other_seed_or_None)`` with ``B = bracket_size(n)``, in the
        slot order of :func:`bracket_slots`. ``None`` is a bye: the seeds ``B + 1 - n .. B`` do
        not exist, and since each of them faces one of the seeds ``1 .. B - n`` in the full
        bracket, exactly those seeds get the byes. ``B - n < B / 2``, so no bye meets a bye.

    Raises:
        ValueError: if ``n < 2``.

    Rule source: docs/formats.md "Knockout" (the byes go to seeds 1 .. B-n).
    """
    size = bracket_size(n)
    slots = bracket_slots(size)
    pairs: list[FirstRoundPair] = []
    for k in range(0, size, 2):
        better, other = slots[k], slots[k + 1]
        pairs.append((better, other if other <= n else None))
    return pairs


def next_slot(round_index: int, match_index: int) -> tuple[int, Seat]:
    """Return where the winner of a match plays in the next round.

    Args:
        round_index: 0-based round of the finished match (0 is the first round); the result is
            in round ``round_index + 1``. It does not change the answer: it is taken so that
            callers state the round and bad input is caught.
        match_index: 0-based position of the match in its round, top to bottom.

    Returns:
        ``(match_index // 2, seat)``: seat ``"A"`` when ``match_index`` is even (the upper match
        of the two feeding the next one), ``"B"`` when odd.

    Raises:
        ValueError: if either index is negative.

    Rule source: docs/formats.md "Knockout" (winners move on by themselves).
    """
    if round_index < 0 or match_index < 0:
        raise ValueError(f"indexes must be >= 0, got round {round_index}, match {match_index}")
    return match_index // 2, "A" if match_index % 2 == 0 else "B"


def rounds_count(size: int) -> int:
    """Return the number of rounds of a bracket of ``size`` slots: ``log2(size)``.

    Args:
        size: a power of two ``>= 2``.

    Raises:
        ValueError: if ``size`` is not a power of two or is ``< 2``.

    Rule source: docs/formats.md "Knockout".
    """
    _check_size(size)
    return size.bit_length() - 1


def round_names(size: int) -> list[str]:
    """Return a stable key naming each round of a bracket of ``size`` slots, first to last.

    Args:
        size: a power of two ``>= 2``.

    Returns:
        ``rounds_count(size)`` keys: ``"final"`` for the last round, ``"semifinal"`` and
        ``"quarterfinal"`` before it, and ``"round_of_<k>"`` (``k`` players) for earlier rounds,
        e.g. 16: ``["round_of_16", "quarterfinal", "semifinal", "final"]``. These are keys, not
        display text: the Django layer maps them to translated labels.

    Raises:
        ValueError: if ``size`` is not a power of two or is ``< 2``.

    Rule source: docs/formats.md "Knockout".
    """
    count = rounds_count(size)
    named = {1: "final", 2: "semifinal", 3: "quarterfinal"}
    names = []
    for index in range(count):
        rounds_left = count - index  # 1 for the final
        names.append(named.get(rounds_left, f"round_of_{2**rounds_left}"))
    return names


def place_of_loser(round_number: int, rounds: int) -> int:
    """The place a player who lost (or gave a walkover) in round ``round_number`` (1-based) of
    a bracket of ``rounds`` rounds shares with the others who went out in that round: the
    final's loser is 2nd, the semifinal losers share 3rd, the quarterfinal losers 5th, ...:
    ``2 ** (rounds - round_number) + 1`` (the players still in after that round, plus one).
    The champion is 1st. A third-place match splits the 3rd place into 3rd and 4th (its
    caller's business).

    Raises:
        ValueError: if ``round_number`` is not between 1 and ``rounds``.

    Rule source: docs/formats.md "Knockout" (a knockout ranks by the round a player went
    out in).
    """
    if not 1 <= round_number <= rounds:
        raise ValueError(f"round {round_number} is not in a bracket of {rounds} rounds")
    return 2 ** (rounds - round_number) + 1
