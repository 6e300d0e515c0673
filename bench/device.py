"""The devices the browser budgets are stated for: the same simulated device on any machine.

A budget in milliseconds says something about the code only on a known CPU. As Lighthouse does with
its benchmark index, the bench first measures how fast this machine's Chromium runs a fixed piece of
JavaScript (the index: work units per second, higher is faster), then slows Chromium's CPU down by
this machine's index / the device's index. On a faster machine the slowdown grows, on a slower one it
shrinks, and the budgets below hold or fail for the code, not for the machine that ran them. A
machine slower than the device cannot be slowed down to it: its rows say so and carry no verdict.

The devices' indices were set on the machine the earlier budgets came from (an AMD EPYC, 2 cores,
whose Chromium measured an index of about REFERENCE): the phone is Lighthouse's 4x slowdown of it,
the desktop half its speed, so that a 2-core Intel Xeon of the same kind (about 1.4x slower) is still
faster than both.
"""

from __future__ import annotations

from dataclasses import dataclass

from .table import Row

# A fixed mix of what the player does per frame (short strings, small arrays, float arithmetic),
# timed for about 400 ms; the index is the number of rounds per second, divided by 10.
INDEX_JS = """() => {
  const round = () => {
    let text = '';
    for (let i = 0; i < 400; i++) text += String.fromCharCode(97 + (i % 26));
    const values = [];
    for (let i = 0; i < 400; i++) values.push(Math.sqrt(i * 1.5) * (i % 7 - 3));
    values.sort((a, b) => a - b);
    return text.length + values[200];
  };
  let rounds = 0, sink = 0;
  const start = performance.now();
  while (performance.now() - start < 400) { sink += round(); rounds++; }
  const seconds = (performance.now() - start) / 1000;
  return sink > 0 ? rounds / seconds / 10 : 0;
}"""
INDEX_RUNS = 10  # after one to warm up; the index is the best of them (calibrate)
REFERENCE = 870.0  # the AMD EPYC's index on a quiet machine: 858, 868, 876 (and one 1100) on 2026-12-01


@dataclass(frozen=True)
class Device:
    name: str
    index: float  # the simulated device's benchmark index


DESKTOP = Device("desktop", REFERENCE / 2)
PHONE = Device("phone", REFERENCE / 4)


@dataclass(frozen=True)
class Calibration:
    index: float  # this machine's Chromium, unthrottled

    def slowdown(self, device: Device) -> float:
        """Chromium's CPU throttling rate that turns this machine into `device` (1 if it is slower)."""
        return max(1.0, self.index / device.index)

    def reaches(self, device: Device) -> bool:
        return self.index >= device.index

    def verdict(self, device: Device, holds: bool) -> bool | None:
        """A budget's verdict, or none where this machine is slower than the device."""
        return holds if self.reaches(device) else None

    def rows(self) -> list[Row]:
        what = f"benchmark index of this machine's Chromium (best of {INDEX_RUNS})"
        rows = [Row("Device", what, self.index, "")]
        for device in (DESKTOP, PHONE):
            note = "" if self.reaches(device) else " (this machine is slower: no verdicts)"
            rows.append(Row("Device", f"CPU slowdown to the {device.name} (index {device.index:g}){note}",
                            self.slowdown(device), "×"))
        return rows


def calibrate(browser) -> Calibration:
    """This machine's index, measured in a page of its own, unthrottled: the best of INDEX_RUNS runs.

    Not their median: on this kind of machine Chromium's runs fall, now and then, to about half their
    speed, sometimes for seconds (a whole `make bench` read 1,068 an hour after another read 1,997;
    four fresh browsers' runs on one quiet machine: 501-1,996), while node runs the same code at a
    steady 1,900-1,990 once warm. Whatever slows a run only slows it, so the fastest run is the
    machine's speed: five fresh browsers' best of ten read 1,920-2,004 but for one 1,132 (every run of
    that page fell in a slow spell), and 1,994-2,038 with another process spinning on one core.
    """
    page = browser.new_page()
    page.evaluate(INDEX_JS)  # warm up the JIT
    index = max(page.evaluate(INDEX_JS) for _ in range(INDEX_RUNS))
    page.close()
    return Calibration(index)


def throttle(page, rate: float) -> None:
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
