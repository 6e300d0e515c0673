"""The gear train that draws the chain rule's ratios (gears.py draws it as the static figure;
src/widgets/gears-model.ts mirrors it, proven equal through tests/vectors/gears-train.json).

Two pairs: x drives a wheel on the u shaft, a second wheel on that shaft drives y. Teeth of one size
(PITCH) on every gear, so a pair's sizes are in the proportion of its ratio; a positive ratio meshes
through an idler (the driven gear turns as its driver does), a negative one directly (the other way),
a ratio of 0 leaves the driven gear apart. Lengths in the figure's SVG units, angles in degrees.
"""

from __future__ import annotations

import math

CENTER_Y = 118.0  # the gears' centres, on one line
PITCH = 8.6  # 42 teeth as wide as 36 of 10 were: the figure keeps its size
TEETH_MIN, TEETH_MAX, IDLER_TEETH = 7, 42, 6  # the idler: smaller than any gear it joins
GAP = 16.0
PAIR_MIDS = (150.0, 450.0)


def _half(v: float) -> int:
    return math.floor(v + 0.5)  # as gears-model.ts rounds (Python's round() goes to even)


def radius_of(teeth: int) -> float:
    return teeth * PITCH / (2 * math.pi)


def pair_teeth(ratio: float) -> tuple[int, int]:
    """Teeth of a pair's driver and driven gear: driver / driven = |ratio|, as far as the limits allow."""
    q = abs(ratio)
    if q == 0 or not math.isfinite(q):
        return TEETH_MAX // 2, TEETH_MAX // 2
    if q >= 1:
        driven = max(TEETH_MIN, _half(TEETH_MAX / q))
        return min(TEETH_MAX, _half(driven * q)), driven
    driver = max(TEETH_MIN, _half(TEETH_MAX * q))
    return driver, min(TEETH_MAX, _half(driver / q))


def pair_at(ratio: float, mid: float) -> dict:
    """One pair in line, centred on `mid`: driver, idler (ratio > 0) or gap (ratio 0), driven."""
    nd, nn = pair_teeth(ratio)
    rd, rn, ri = radius_of(nd), radius_of(nn), radius_of(IDLER_TEETH)
    width = 2 * rd + 2 * rn + (2 * ri if ratio > 0 else GAP if ratio == 0 else 0)
    left = mid - width / 2
    idler = {"teeth": IDLER_TEETH, "radius": ri, "cx": left + 2 * rd + ri} if ratio > 0 else None
    q = abs(ratio)
    return {"ratio": ratio, "driver": {"teeth": nd, "radius": rd, "cx": left + rd},
            "driven": {"teeth": nn, "radius": rn, "cx": left + width - rn}, "idler": idler,
            "to_scale": q == 0 or abs(nd / nn - q) <= 0.05 * q,
            "contact": idler["cx"] if idler else left + 2 * rd + (GAP / 2 if ratio == 0 else 0)}


def train(du_dx: float, dy_du: float) -> tuple[dict, dict]:
    return pair_at(du_dx, PAIR_MIDS[0]), pair_at(dy_du, PAIR_MIDS[1])


def mesh_angle(driver_angle: float, driver_teeth: int, teeth: int, near: float | None = None) -> float:
    """The angle of a gear whose teeth fill its driver's gaps (driver on its left), nearest to `near`."""
    pd, pn = 360 / driver_teeth, 360 / teeth
    base = 270 - pn * ((driver_angle - 90) / pd + 0.5)
    return base if near is None else base + pn * _half((near - base) / pn)


def bodies(pairs: tuple[dict, dict], hands: dict[str, float]) -> dict:
    """Where each gear of the train is drawn when the hands (the values' angles) stand at `hands`."""
    def driven(pair: dict, driver_angle: float, near: float) -> tuple[float, float]:
        if pair["ratio"] == 0:
            return near, 0.0
        if pair["idler"] is None:
            return mesh_angle(driver_angle, pair["driver"]["teeth"], pair["driven"]["teeth"], near), 0.0
        idler = mesh_angle(driver_angle, pair["driver"]["teeth"], IDLER_TEETH)
        return mesh_angle(idler, IDLER_TEETH, pair["driven"]["teeth"], near), idler
    u, first = driven(pairs[0], hands["x"], hands["u"])
    y, second = driven(pairs[1], hands["u"], hands["y"])
    return {"x": hands["x"], "u": u, "u2": hands["u"], "y": y, "idlers": (first, second)}


def gear_path(teeth: int) -> str:
    """A gear's outline around (0, 0): per tooth a flank up, a flat tip centred on the tooth, a flank down."""
    r = radius_of(teeth)
    tip, root = r + 0.32 * PITCH, r - 0.4 * PITCH
    points = []
    for k in range(teeth):
        for radius, t in ((root, -0.27), (tip, -0.12), (tip, 0.12), (root, 0.27)):
            a = (k + t) * 2 * math.pi / teeth
            points.append(f"{fixed(radius * math.sin(a))} {fixed(-radius * math.cos(a))}")
    return "M" + " L".join(points) + " Z"


def hand_length(radius: float) -> float:
    return max(6.0, radius - 0.4 * PITCH - 4)  # inside the roots (gears-model.ts handLength)


def fixed(x: float) -> str:
    """A length or angle as the SVG writes it (gears-model.ts fixed): two decimals at most."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
