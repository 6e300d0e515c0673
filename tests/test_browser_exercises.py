"""The lesson's promises in a real browser, driven the way a reader would: the four "try it yourself"
exercises, typing and errors, presets, the toggles and the timeline. What the reader sees is read from
the [data-node] cards' value and grad texts.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .browser_helpers import (
    MINUS,
    engine_calls,
    field,
    grads,
    nodes,
    num,
    open_moment,
    pause,
    seek,
    set_range,
    settle,
    step_backward_to,
    type_expression,
)

SANDBOX = "[data-sandbox]"
pytestmark = pytest.mark.browser


# ---- the tests: each group shares one page load; between behaviours the lesson's own moment is opened
# by changing the hash (open_moment), which leaves the sandbox as a fresh load shows it ------------------

def test_the_four_exercises(lesson):
    """(a) predict the chain rule, (b) a dead ReLU, (c) one variable on two paths, (d) a negative
    gradient, each from the lesson's graph as the reader finds it."""
    for exercise in (exercise_a_predict_the_chain_rule, exercise_b_dead_relu,
                     exercise_c_one_variable_two_paths, exercise_d_a_negative_gradient):
        exercise(lesson)
        open_moment(lesson)


def test_typing_errors_and_numeric_errors_keep_the_graph(lesson):
    for behaviour in (invalid_input_is_marked_and_the_graph_stays,
                      numeric_error_flags_the_node_and_recovers, division_by_zero_while_dragging):
        behaviour(lesson)
        open_moment(lesson)


def test_presets_and_the_const_badge(lesson):
    presets_replace_expression_and_values(lesson)  # first: no engine call yet in this page
    open_moment(lesson)
    constant_exponent_badge(lesson)


def test_the_timeline_final_gradients_scrubbing_and_restarts(lesson):
    for behaviour in (final_gradients_toggle, scrubbing_is_a_pure_function_of_time,
                      forward_and_backward_restart_the_pulse, a_lone_leaf_has_nothing_to_play_forward):
        behaviour(lesson)
        open_moment(lesson)


# ---- the four "try it yourself" exercises -------------------------------------------------------

def exercise_a_predict_the_chain_rule(lesson) -> None:
    """(a + b) * c with a = 1, b = 4, c = -2: grads appear one by one; c.grad = a + b."""
    for name, value in (("a", 1), ("b", 4), ("c", -2)):
        number = lesson.locator(f"{SANDBOX} input[name=num-{name}]")
        number.fill(str(value))
    settle(lesson)
    assert engine_calls(lesson) >= 1
    ids = nodes(lesson)
    step_backward_to(lesson, 0)
    assert all(text == "--" for text in grads(lesson).values()), "nothing shows gradients in advance"
    seek(lesson, 1)
    assert grads(lesson) == {"a": "--", "b": "--", "a + b": "--", "c": "--", "(a + b) × c": "1"}
    seen = []
    for t in range(2, 6):
        seek(lesson, t)
        seen.append(grads(lesson))
    assert seen[-1] == {"a": f"{MINUS}2", "b": f"{MINUS}2", "a + b": f"{MINUS}2", "c": "5",
                        "(a + b) × c": "1"}
    # each step reveals exactly one more gradient
    revealed = [sum(v != "--" for v in g.values()) for g in seen]
    assert revealed == [2, 3, 4, 5]
    assert field(lesson, ids["a + b"], "value") == "5"  # the hint: c.grad equals a + b


def exercise_b_dead_relu(lesson) -> None:
    lesson.click(f"{SANDBOX} [data-action=preset] >> text=Dead ReLU")
    settle(lesson)
    step_backward_to(lesson, 99)
    assert grads(lesson) == {"a": "3", "b": "2", "a × b": "1", "relu(a × b)": "1"}
    set_range(lesson, f"{SANDBOX} input[type=range][name=var-b]", -1.5)
    settle(lesson)
    assert field(lesson, nodes(lesson)["a × b"], "value") == f"{MINUS}3"
    assert grads(lesson) == {"a": "0", "b": "0", "a × b": "0", "relu(a × b)": "1"}
    labels = lesson.locator(f"{SANDBOX} .tdg-edge-label:not([hidden])").all_inner_texts()
    assert "1 × 0 = 0" in labels
    set_range(lesson, f"{SANDBOX} input[type=range][name=var-b]", 3)
    settle(lesson)
    assert grads(lesson)["a"] == "3"


def exercise_c_one_variable_two_paths(lesson) -> None:
    type_expression(lesson, "a * a")
    lesson.locator(f"{SANDBOX} input[name=num-a]").fill("3")
    settle(lesson)
    ids = nodes(lesson)
    assert set(ids) == {"a", "a × a"}, "a variable used twice is one leaf"
    assert lesson.locator(f"{SANDBOX} .tdg-edge-label").count() == 2, "two edges from the one leaf"
    partial = []
    for t in (1, 2, 3):
        step_backward_to(lesson, t) if t == 1 else seek(lesson, t)
        partial.append(field(lesson, ids["a"], "grad"))
    assert partial == ["--", "3", "6"], "the partial grad first, then the accumulated one"
    assert lesson.locator(f"{SANDBOX} .tdg-edge-label:not([hidden])").all_inner_texts() == ["1 × 3 = 3"] * 2


def exercise_d_a_negative_gradient(lesson) -> None:
    step_backward_to(lesson, 99)
    ids = nodes(lesson)
    assert num(field(lesson, ids["c"], "grad")) == -1
    before = num(field(lesson, ids["(a + b) × c"], "value"))
    set_range(lesson, f"{SANDBOX} input[type=range][name=var-c]", 11)
    settle(lesson)
    after = num(field(lesson, nodes(lesson)["(a + b) × c"], "value"))
    assert after < before, "nudging c up moves the output down: its gradient is negative"
    type_expression(lesson, "a - b")
    step_backward_to(lesson, 99)
    assert grads(lesson)["b"] == f"{MINUS}1"


# ---- typing, errors, presets --------------------------------------------------------------------

ERRORS = [  # expression, the marked text, a word of the English message
    ("a ** b", "b", "exponent must be a plain number"),
    ("sin(x)", "sin", "no function"),
    ("(a+b", "(", "never closed"),
]


def invalid_input_is_marked_and_the_graph_stays(lesson) -> None:
    """(The messages in ru and et: test_browser_words.py, test_the_sandbox_speaks_the_pages_language.)"""
    for expression, marked, words in ERRORS:
        before = nodes(lesson)
        type_expression(lesson, expression)
        error = lesson.locator(f"{SANDBOX} .tdg-error")
        assert error.is_visible(), expression
        assert words in error.inner_text()
        assert lesson.locator(f"{SANDBOX} .tdg-error-span").inner_text() == marked
        assert lesson.get_attribute(f"{SANDBOX} input[name=expression]", "aria-invalid") == "true"
        assert nodes(lesson) == before, "the last valid graph stays on screen"
        type_expression(lesson, "(a + b) * c + 1")
        assert error.is_hidden()
        assert "(a + b) × c + 1" in nodes(lesson)


def numeric_error_flags_the_node_and_recovers(lesson) -> None:
    type_expression(lesson, "log(a) * b")
    seek(lesson, 99)  # the end of forward: every value computed
    ids = nodes(lesson)
    good = field(lesson, ids["log(a)"], "value")
    set_range(lesson, f"{SANDBOX} input[type=range][name=var-a]", -1)
    settle(lesson)
    card = lesson.locator(f"{SANDBOX} [data-node='{ids['log(a)']}']")
    assert card.get_attribute("aria-invalid") == "true"
    assert "is-flagged" in card.get_attribute("class")
    message = lesson.locator(f"{SANDBOX} .tdg-error").inner_text()
    assert "log" in message and "positive" in message
    assert field(lesson, ids["log(a)"], "value") == good, "the graph keeps the last values that worked"
    set_range(lesson, f"{SANDBOX} input[type=range][name=var-a]", 0)
    settle(lesson)
    assert card.get_attribute("aria-invalid") == "true", "log(0) is still outside the domain"
    set_range(lesson, f"{SANDBOX} input[type=range][name=var-a]", 2)
    settle(lesson)
    assert card.get_attribute("aria-invalid") is None
    assert lesson.locator(f"{SANDBOX} .tdg-error").is_hidden()
    assert field(lesson, ids["log(a)"], "value") == "0.6931"


def division_by_zero_while_dragging(lesson) -> None:
    type_expression(lesson, "a / b")
    set_range(lesson, f"{SANDBOX} input[type=range][name=var-b]", 0)
    settle(lesson)
    assert "zero" in lesson.locator(f"{SANDBOX} .tdg-error").inner_text().lower()
    assert lesson.locator(f"{SANDBOX} [aria-invalid=true][data-node]").count() == 1


def presets_replace_expression_and_values(lesson) -> None:
    lesson.click(f"{SANDBOX} [data-action=preset] >> text=Derived operations")
    settle(lesson)
    assert lesson.input_value(f"{SANDBOX} input[name=expression]") == "(a - b) / c"
    assert lesson.input_value(f"{SANDBOX} input[name=num-c]") == "4"
    assert engine_calls(lesson) == 0, "presets carry their precomputed timelines"
    expect(lesson.locator(f"{SANDBOX} [data-badge=derived]")).to_have_text(["derived", "derived"])
    lesson.check(f"{SANDBOX} input[name=local-derivatives]")
    settle(lesson)
    expansion = [" ".join(text.split())  # the expansion breaks between terms where it must
                 for text in lesson.locator(f"{SANDBOX} .tdg-expansion:not([hidden])").all_inner_texts()]
    assert any("a − b = a + (b · −1)" in text for text in expansion)
    assert any("∂/∂b = −1" in text for text in expansion)
    # The chip says which preset the field holds: none while it is emptied (walkthrough 14: "Sum times a
    # factor" stayed pressed over an empty field), though that preset's graph stays, dimmed.
    chip = lesson.locator(f"{SANDBOX} [data-action=preset] >> text=Derived operations")
    expect(chip).to_have_attribute("aria-pressed", "true")
    lesson.fill(f"{SANDBOX} input[name=expression]", "")
    expect(lesson.locator(f"{SANDBOX} .tdg-error")).to_have_text(
        "Type an expression, for example (a + b) * c.")
    expect(lesson.locator(f"{SANDBOX} [data-action=preset][aria-pressed=true]")).to_have_count(0)
    lesson.fill(f"{SANDBOX} input[name=expression]", "(a - b) / c")
    expect(chip).to_have_attribute("aria-pressed", "true")


def constant_exponent_badge(lesson) -> None:
    type_expression(lesson, "a ** 3")
    badge = lesson.locator(f"{SANDBOX} [data-badge=const]")
    assert "const" in badge.inner_text() and "3" in badge.inner_text()
    step_backward_to(lesson, 99)
    assert grads(lesson) == {"a": "12", "a ** 3": "1"}  # a keeps its value 2: 3 * 2 ** 2


def final_gradients_toggle(lesson) -> None:
    step_backward_to(lesson, 0)
    assert set(grads(lesson).values()) == {"--"}
    lesson.check(f"{SANDBOX} input[name=final-gradients]")
    settle(lesson)
    assert grads(lesson) == {"a": "10", "b": "10", "a + b": "10", "c": f"{MINUS}1", "(a + b) × c": "1"}
    lesson.uncheck(f"{SANDBOX} input[name=final-gradients]")
    settle(lesson)
    assert set(grads(lesson).values()) == {"--"}


def scrubbing_is_a_pure_function_of_time(lesson) -> None:
    step_backward_to(lesson, 0)
    pictures = {}
    for t in (0.5, 1.2, 2.9, 4.4, 2.9, 1.2, 0.5, 4.4):
        seek(lesson, t)
        picture = (tuple(sorted(grads(lesson).items())),
                   tuple(lesson.locator(f"{SANDBOX} .tdg-edge-label:not([hidden])").all_inner_texts()))
        assert pictures.setdefault(t, picture) == picture


def a_lone_leaf_has_nothing_to_play_forward(lesson) -> None:
    """A single variable computes nothing forward: Play and the timeline are off (the caption says why),
    and on again backward, where its gradient is seeded."""
    type_expression(lesson, "a")
    lesson.click(f"{SANDBOX} [data-action=forward]")
    play = lesson.locator(f"{SANDBOX} [data-action=play]")
    time = lesson.locator(f"{SANDBOX} input[name=time]")
    assert play.is_disabled() and time.is_disabled()
    assert lesson.locator(f"{SANDBOX} [data-caption]").inner_text().startswith("Nothing to compute")
    lesson.click(f"{SANDBOX} [data-action=backward]")
    assert play.is_enabled() and time.is_enabled()
    lesson.wait_for_function("window.tinydagPlayer.sandboxes['tinydag-1'].moment().time === 1")
    assert grads(lesson) == {"a": "1"}


# A direction button pressed, and the moment read in the same task: where the pulse starts, however
# long a loaded machine takes to read it back (a read a round trip later once found it at 0.55).
PRESS_AND_READ = """name => { document.querySelector(`[data-sandbox] [data-action=${name}]`).click();
  return window.tinydagPlayer.sandboxes['tinydag-1'].moment(); }"""


def forward_and_backward_restart_the_pulse(lesson) -> None:
    m = lesson.evaluate(PRESS_AND_READ, "backward")
    assert m["direction"] == "backward" and m["time"] < 0.1 and m["playing"]
    # (a condition, not a fixed wait: the pulse has gone further than the restart's bound below)
    lesson.wait_for_function("window.tinydagPlayer.sandboxes['tinydag-1'].moment().time > 0.6",
                             timeout=90_000)
    m = lesson.evaluate(PRESS_AND_READ, "forward")
    assert m["direction"] == "forward" and m["time"] < 0.1
    assert lesson.get_attribute(f"{SANDBOX} [data-action=forward]", "aria-pressed") == "true"
    pause(lesson)
    ids = nodes(lesson)
    assert field(lesson, ids["(a + b) × c"], "value") == "--", "forward starts again from the leaves"
