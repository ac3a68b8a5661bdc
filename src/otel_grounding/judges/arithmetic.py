"""What numbers work out to: the sums, differences, products and shares of a record's
numbers, a column's total, and whether a value is worked out of a few others. Agents write
totals, differences and shares of what their tools returned ("$705 in all" for 3 bottles at
$235); the verifier reads such a value as support only when these say the numbers make it.
Pure arithmetic over numbers and table cells: nothing here knows of claims or evidence.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Iterable, Sequence
from itertools import combinations, permutations

from otel_grounding.judges.tables import Table, cell_number

#: The largest whole number `one_step` reads as a count of things another number is of.
COUNT_MAX = 50
#: Whole numbers below this are counts that `worked_out` does not add to an amount.
SMALL_COUNT = 10


def column_totals(tables: Iterable[Table]) -> set[float]:
    """Each numeric column's total; a cell with no digit ("closed", "—") counts as none."""
    return {
        total for table in tables
        for total in column_sums([cells for _, _, cells in table.rows], blanks=True)
    }


def column_sums(rows: Sequence[tuple[str, ...]], *, blanks: bool) -> set[float]:
    """The sum of each column of these rows whose cells are numbers (with `blanks`, a cell
    with no digit counts as none, and two numbers at least make a sum)."""
    sums: set[float] = set()
    for c in range(min(len(cells) for cells in rows)):
        column = [(cells[c], cell_number(cells[c])) for cells in rows]
        values = [v for _, v in column if v is not None]
        if blanks:
            if len(values) < 2 or any(
                v is None and any(map(str.isdigit, cell)) for cell, v in column
            ):
                continue
        elif len(values) < len(column):
            continue
        sums.add(sum(values))
    return sums


def line_sums(rows: Sequence[tuple[str, ...]]) -> set[float]:
    """The sum over these rows of each two numeric columns' product, where every row has a
    number in both (an order's lines at their quantity times their price)."""
    width = min(len(cells) for cells in rows)
    numeric: list[list[float]] = []
    for c in range(width):
        column = [v for cells in rows if (v := cell_number(cells[c])) is not None]
        if len(column) == len(rows):
            numeric.append(column)
    return {sum(a * b for a, b in zip(x, y, strict=True)) for x, y in combinations(numeric, 2)}


def worked_out(records: Iterable[Sequence[float]]) -> set[float]:
    """Each pair of a record's numbers added, subtracted (but not a small count and an amount
    with a fraction, `_count_and_amount`), multiplied, and one as a percentage (or a
    multiple) of the other."""
    derived: set[float] = set()
    for numbers in records:
        # most records hold no small count beside a fraction: no pair to check
        mixed = any(v.is_integer() and 0 < v < SMALL_COUNT for v in numbers) and not all(
            v.is_integer() for v in numbers
        )
        for a, b in combinations(numbers, 2):
            if mixed and _count_and_amount(a, b):
                derived.add(a * b)
            else:
                derived.update((a + b, abs(a - b), a * b))
            if b:
                derived.add(100 * a / b)
            if a:
                derived.add(100 * b / a)
    return derived


def _count_and_amount(a: float, b: float) -> bool:
    """Whether one of two numbers is a small count (a whole number below `SMALL_COUNT`) and
    the other an amount with a fraction: a line's "1" replica beside its 4.2 GB, or its
    quantity 1 beside £4.95, is no term of a sum or difference with it."""
    return any(
        count.is_integer() and 0 < count < SMALL_COUNT and not amount.is_integer()
        for count, amount in ((a, b), (b, a))
    )


def three_way(records: Iterable[Sequence[float]]) -> set[float]:
    """Each three of a record's numbers added, and the largest less the other two ("only 18
    seats left" of 320, 298 sold and 4 held)."""
    derived: set[float] = set()
    for numbers in records:
        for three in combinations(numbers, 3):
            largest = max(three)
            derived.update((sum(three), 2 * largest - sum(three)))
    return derived


def multiples(records: Iterable[Sequence[float]]) -> set[float]:
    """Each pair of a record's numbers as a multiple of the other ("about a 6x return")."""
    return {x / y for numbers in records for a, b in combinations(numbers, 2)
            for x, y in ((a, b), (b, a)) if y}


def works_out(
    others: Sequence[float], value: float, decimals: int, *, percent: bool, three: bool
) -> bool:
    """Whether `value` (written with `decimals` places; a percentage if `percent`) is worked
    out of two of `others`: exactly their sum, difference or product, their share or quotient
    at the precision written; with `three`, exactly a sum of three of them."""
    if percent:
        return any(
            round(100 * a / b, decimals) == value for a, b in permutations(others, 2) if b
        )
    exact = {v for a, b in combinations(others, 2) for v in (a + b, abs(a - b), a * b)}
    if three:
        exact.update(sum(group) for group in combinations(others, 3))
    return any(abs(v - value) < 1e-9 * max(1.0, v) for v in exact) or any(
        round(a / b, decimals) == value for a, b in permutations(others, 2) if b
    )


def one_step(
    anchors: Iterable[float], operands: Iterable[float], percents: Collection[float],
    targets: Sequence[tuple[float, float]], *, percent: bool,
) -> bool:
    """Whether one step from an anchor to another operand lands in one of the `targets`
    (closed intervals: a value as written, rounded): their sum or difference, the anchor as a
    count (a whole number of 2 to `COUNT_MAX`) times the operand, half of the operand (the
    anchor 2), or, for a `percent` value, the anchor as a share of the operand; or a
    percentage of an operand, or the operand less or more it. Each step is solved for the
    operand and looked up in the sorted operands, so a long answer's many anchors stay cheap."""
    pool = sorted(set(operands))

    def among(lo: float, hi: float, skip: Collection[float]) -> bool:
        if lo > hi:
            lo, hi = hi, lo
        at = bisect_left(pool, lo)
        while at < len(pool) and pool[at] <= hi:
            if pool[at] not in skip:
                return True
            at += 1
        return False

    for lo, hi in targets:
        for a in anchors:
            self = (a,)
            if among(lo - a, hi - a, self) or (
                hi >= 0 and (among(a - hi, a - lo, self) or among(a + lo, a + hi, self))
            ):
                return True
            if a == int(a) and 2 <= a <= COUNT_MAX and among(lo / a, hi / a, self):
                return True
            if a == 2 and among(2 * lo, 2 * hi, self):
                return True
            if percent and a > 0 and lo > 0 and among(100 * a / hi, 100 * a / lo, self):
                return True
        for p in percents:
            if p <= 0:
                continue
            # of the operand, the operand more it, the operand less it
            if among(100 * lo / p, 100 * hi / p, percents) or among(
                100 * lo / (100 + p), 100 * hi / (100 + p), percents
            ):
                return True
            if p < 100 and among(100 * lo / (100 - p), 100 * hi / (100 - p), percents):
                return True
    return False
