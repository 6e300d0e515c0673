"""The gears widget's test site and what its tests read: four gears blocks on a small trilingual site
built by the real plugin, served once per session (the `gears_server` fixture, which conftest.py
offers to every test module), and each widget's angles and readout as the reader sees them.
"""

from __future__ import annotations

import math

import pytest

from .widget_site import WIDGET_PAGE, open_widget_page, widget_site

BLOCKS = """\
# Gears

```tinydag-gears
inner: 3 * x
outer: u * u
x: 1
choices: [-2 * x, relu(x - 1)]
```

A chain with a dead relu:

```tinydag-gears
inner: x - 1
outer: relu(u)
x: 0
range: [-1, 3]
```

One that turns the other way:

```tinydag-gears
inner: 2 - x
outer: u ** 3
x: 0.5
range: [-1, 2]
step: 0.25
```

One with a pole between two stops of its slider:

```tinydag-gears
inner: x
outer: 1 / (u - 0.15)
x: 0.5
range: [0, 1]
```
"""
PAGE = WIDGET_PAGE
DEFAULT, DEAD, NEGATIVE, POLE = (f"#tinydag-gears-{n}" for n in range(1, 5))


@pytest.fixture(scope="session")
def gears_server(tmp_path_factory):
    with widget_site(tmp_path_factory.mktemp("gears"), BLOCKS, "Gears") as url:
        yield url


open_page = open_widget_page


def awake(page, widget: str = DEFAULT) -> None:
    page.locator(widget).scroll_into_view_if_needed()
    page.wait_for_selector(f'{widget}[data-live="ready"]')


def angles(page, widget: str = DEFAULT) -> dict[str, float]:
    return page.eval_on_selector(widget, """w => Object.fromEntries([...w.querySelectorAll(
        '.tdg-gears--live .tdg-gear:not(.tdg-gear-u2)')].map(g => [g.dataset.gear,
        Number(g.querySelector('.tdg-gear-rotor').dataset.angle)]))""")


def readout(page, widget: str = DEFAULT) -> dict[str, str]:
    return page.eval_on_selector(widget, """w => {
        const live = w.querySelector('.tdg-gears--live');
        const text = s => live.querySelector(s).textContent;
        return {x: text('.tdg-gear-x .tdg-gear-value'), u: text('.tdg-gear-u .tdg-gear-value'),
                y: text('.tdg-gear-y .tdg-gear-value'), inner: text('[data-row=inner] dd'),
                outer: text('[data-row=outer] dd'), product: text('[data-row=product] dd'),
                backward: text('[data-row=backward] dd'), step: text('.tdg-gears-step'),
                field: live.querySelector('.tdg-gears-field').value};
    }""")


def close(a: dict[str, float], b: dict[str, float]) -> bool:
    return all(math.isclose(a[k], b[k], abs_tol=1e-6) for k in b)
