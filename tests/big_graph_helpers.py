"""What the readability and panning tests share: the big graphs, the way to the end of the backward
pass, and the check that every card can be read there (tests/test_browser_readable_graphs.py,
tests/test_browser_panning.py).
"""

from __future__ import annotations

from .browser_helpers import (
    DESKTOP,
    PHONE,
    layout_problems,
    moment,
    overlapping_cards,
    pause,
    seek,
    settle,
    stage_geometry,
    type_expression,
)

SANDBOX = "[data-sandbox]"
MIN_TEXT_PX = 10
BIG = {
    "39-factor product": " * ".join(["a"] * 39),
    "27-node mixed": "relu(w * x + v * y + b) * relu(a * c - d) + exp(e / f) * log(g + h)",
    "40 nodes": "relu(a*b + c*d + e*f + g*h + k*m + n*p + q*r + s*t + u*v + w*x)",
}
# 40 nodes, 8 variables, the bench's (bench/browser.py): on a phone its stage is over 500 px tall.
FORTY_NODES = ("relu(a * b + c * d - e / f) * exp(g - h) + log(a * a + 1) ** 2 - (b - c) / (d + 2)"
               " + relu(-e * f) * (g + h * 0.5) - exp(-a) * b")
SIZES = {"1280x800": DESKTOP, "390x844": PHONE}
NUMBER = r"[−-]?(\d+(\.\d+)?(e[−-]?\d+)?|\d+e[−+−-]?\d+)"

TEXT_SIZES = """() => [...document.querySelectorAll('[data-sandbox] [data-node]')].flatMap(card => {
  const scale = new DOMMatrixReadOnly(getComputedStyle(card).transform).a;
  return [...card.querySelectorAll('[data-field=value], [data-field=grad]')].map(el => ({
    node: card.dataset.node, field: el.dataset.field,
    font: parseFloat(getComputedStyle(el).fontSize) * scale,
    height: el.getBoundingClientRect().height}));
})"""

EXPANSIONS = """() => {
  const stage = document.querySelector('[data-sandbox] .tdg-stage').getBoundingClientRect();
  return [...document.querySelectorAll('[data-sandbox] .tdg-expansion:not([hidden])')].map(el => {
    const b = el.getBoundingClientRect();
    return {
      node: el.closest('[data-node]').dataset.node,
      box: {x: b.left - stage.left, y: b.top - stage.top, w: b.width, h: b.height},
      stage: {w: stage.width, h: stage.height},
      lines: [...el.querySelectorAll('.tdg-expansion-line')].map(line => line.textContent),
      // a term drawn on more than one line was broken inside
      brokenTerms: [...el.querySelectorAll('.tdg-term')].filter(t => t.getClientRects().length > 1)
                     .map(t => t.textContent),
      clipped: el.scrollWidth > el.clientWidth + 1,
    };
  });
}"""


def to_end_of_backward(page, expression=None, preset=None, local=False):
    """In a loaded page: type the expression or pick the preset, then to the end of backward."""
    if expression is not None:
        type_expression(page, expression)
    if preset is not None:
        page.click(f"{SANDBOX} [data-action=preset] >> text={preset}")
    if local:
        page.check(f"{SANDBOX} input[name=local-derivatives]")
    page.click(f"{SANDBOX} [data-action=backward]")
    pause(page)
    seek(page, moment(page)["duration"])
    page.evaluate("document.querySelector('[data-sandbox] .tdg-stage').scrollIntoView({block: 'center'})")
    settle(page)
    return page


def assert_readable(page, what: str) -> None:
    texts = page.evaluate(TEXT_SIZES)
    assert texts, f"{what}: no cards"
    small = [t for t in texts if t["font"] < MIN_TEXT_PX or t["height"] < MIN_TEXT_PX]
    assert small == [], f"{what}: text under {MIN_TEXT_PX} px: {small[:4]}"
    spilled = page.evaluate("[...document.querySelectorAll('[data-sandbox] .tdg-row')]"
                            ".filter(r => r.scrollWidth > r.clientWidth + 1).map(r => r.textContent)")
    assert spilled == [], f"{what}: a number runs out of its card: {spilled}"
    geometry = stage_geometry(page)
    assert overlapping_cards(geometry) == [], what
    assert layout_problems(geometry) == [], what
