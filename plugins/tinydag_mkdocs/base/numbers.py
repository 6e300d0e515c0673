"""Numbers as the browser writes them, so that a static figure reads like the live one it becomes:
`format_number` as the player's formatNumber (cards and edge labels: at most 4 significant digits,
`1.2e5`), `prose_number` as src/player/model/format.ts proseNumber (sentences: the language's decimal mark
and grouping, `1.2 × 10⁵`). Both round the exact value half up, as JavaScript's toPrecision does.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

MINUS = "\u2212"
NBSP = "\u00a0"
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
# decimal mark, group separator, digits before the first group is used (et writes 1234 but 12 345).
# Another language gets the English style here; in the browser, Intl writes it the language's way.
PROSE = {"en": (".", ",", 1), "ru": (",", NBSP, 1), "et": (",", NBSP, 2)}


def strip_zeros(fixed: str) -> str:
    return fixed.rstrip("0").rstrip(".") if "." in fixed else fixed


def _significant(magnitude: Decimal, digits: int) -> Decimal:
    """`magnitude` (exact, positive) rounded half up to `digits` significant digits."""
    return magnitude.quantize(Decimal(1).scaleb(magnitude.adjusted() - (digits - 1)), ROUND_HALF_UP)


def format_number(x: float) -> str:
    """Compact, at most 4 significant digits; the same text as the player's formatNumber()."""
    if x == 0:
        return "0"  # also -0.0
    rounded = _significant(Decimal(abs(x)), 4)
    if rounded >= 10_000 or rounded < Decimal("0.001"):  # judged after rounding: 9999.6 is 1e4
        exponent = rounded.adjusted()
        text = f"{strip_zeros(f'{rounded.scaleb(-exponent):f}')}e{exponent}".replace("-", MINUS)  # 1e−300
    else:
        text = strip_zeros(f"{rounded:f}")
    if text == "0":
        return "0"
    return MINUS + text if x < 0 else text


def scientific(mantissa: str, power: int) -> str:
    """m × 10ⁿ as a sentence sets it (format.ts writeProse): no-break spaces, a superscript power."""
    return f"{mantissa}{NBSP}×{NBSP}10{str(power).translate(SUPERSCRIPT)}"


def operand(text: str) -> str:
    """A number written after an operator, in parentheses when negative or in a sentence's scientific
    form (format.ts operand): 1 × (−1), × (1,2 × 10⁻⁵)."""
    return f"({text})" if text.startswith(MINUS) or "\u00d7" in text else text


def prose_number(x: float, lang: str, digits: int = 4) -> str:
    """A number in a sentence, `digits` significant digits, the language's way (format.ts proseNumber)."""
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else ("∞" if x > 0 else MINUS + "∞")
    decimal, group, min_grouping = PROSE.get(lang.split("-")[0].lower(), PROSE["en"])
    rounded = _significant(Decimal(abs(x)), digits)
    if abs(x) >= 1e9 or abs(x) < 1e-4:
        exponent = rounded.adjusted()
        mantissa = strip_zeros(f"{rounded.scaleb(-exponent):f}").replace(".", decimal)
        text = scientific(mantissa, exponent)
    else:
        whole, _, fraction = strip_zeros(f"{rounded:f}").partition(".")
        if len(whole) >= 4 + min_grouping - 1:
            whole = f"{int(whole):,}".replace(",", group)
        text = f"{whole}{decimal}{fraction}" if fraction else whole
    return MINUS + text if x < 0 else text


def shown_as(x: float) -> float:
    """A number as the cards show it, read back (format.ts shownAs): what a reader works with."""
    return float(format_number(x).replace(MINUS, "-"))


def product_text(incoming: float, local: float, contribution: float, lang: str | None = None) -> str:
    """"incoming × local = contribution" as the player's edge labels write it (format.ts productText):
    a negative factor in parentheses, and "≈" where the factors shown do not give the result shown; in
    a sentence (`lang`), the same digits written the language's way."""
    sign = "=" if format_number(shown_as(incoming) * shown_as(local)) == format_number(contribution) else "≈"
    write = format_number if lang is None else (lambda x: prose_number(x, lang))
    return f"{write(incoming)} \u00d7 {operand(write(local))} {sign} {write(contribution)}"
