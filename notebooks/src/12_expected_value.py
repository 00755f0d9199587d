# %% [markdown]
# # Expected value: how many draws does a Garbage layout take?
#
# **Learning goals**
#
# - **the idea:** an expected value can be estimated by simulation, and computed **exactly** by *first-step
#   analysis*: average over what the next card can be, from a state that remembers just enough. The two must agree
#   within the simulation's interval;
# - find such a state for Garbage solitaire.
#
# **Predict first.** Garbage solitaire with 10 spots and with 6 spots: which takes more draws on average? Roughly
# how many draws does a 10-spot layout take? Write both guesses down.
#
# This lesson uses the rules of lesson `02_garbage_play` and the intervals of lesson `01_law_of_large_numbers`.

# %% [teacher]
# **Learning goals:** the expected value as a weighted average and as what a long-run average settles on; a
# simulation's interval for it; a state that remembers just enough (exchangeability of the unseen cards, the count
# of useful cards); first-step analysis as a recursion in exact fractions; agreement within the interval, read
# honestly over ten intervals. Lesson 13 takes the same state on: the chain's matrix, why fewer spots can take
# longer, the whole distribution.
#
# **Lesson plan (50 minutes).** 5 min: predict (above). 5 min: the question and one game (section 1). 7 min:
# simulation first (section 2). 13 min: the state (section 3). 10 min: first-step analysis and the check against
# the simulation (section 4). 10 min: exercises (1 and 2, about 5 minutes each).

# %% [markdown]
# ## 1. The question
#
# Garbage solitaire: one player, one 52-card pack, $n$ face-down cards for spots A … $n$; draw from the stock until
# every spot is face up (an empty stock would be refilled by shuffling the discards). The player is greedy: a wild
# Jack always goes on the lowest face-down spot, and a card always displaces a Jack on its own spot. Those are the
# only choices, and the discard pile never holds a usable card, so **every turn is exactly one draw**.
#
# How many draws does it take on average, for $n = 1, \dots, 10$? Watch one game first: the stepper starts at the
# deal; the next cell plays the same game to the end on a hidden copy.

# %%
import re
from fractions import Fraction
from functools import cache

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.chance.stats import Z95
from cardlab.course import lesson
from cardlab.viz.panels import figure_view


def press(stepper, button="next_move"):
    """Press a stepper button from code (next_move, step, back, reset); stop here if the stepper reports a problem."""
    getattr(stepper, button)()
    if "⚠" in stepper.message.value:
        raise RuntimeError(re.sub(r"<[^>]+>", "", stepper.message.value))


solo = cardlab.Stepper("garbage", players=1, seed=4, layout_sizes=[6])
display(solo)

# %%
copy = cardlab.Stepper("garbage", players=1, seed=4, layout_sizes=[6])
while not copy.game.is_over:
    press(copy)
status = copy.counter.value.split("</b>")[0]      # the stepper's status line, without the game-over banner
print(re.sub(r"<[^>]+>", "", status))
draws = sum(move.kind == "draw" for move in copy.game.moves)
print(f"draws (turns) to complete 6 spots in this game: {copy.game.turns}; its {copy.game.move_count} moves are "
      f"those draws and {copy.game.move_count - draws} moves of a Jack")
assert draws == copy.game.turns
assert solo.game.move_count == 0                 # the stepper shown is still at the deal

# %% [markdown]
# ## 2. Simulation first
#
# One game says little. The **expected value** of the number of draws $T$ is the average of its possible values,
# each weighted by its chance: $E[T] = \sum_k k\,P(T = k)$. By the law of large numbers (lesson 01), the average
# over many games settles on it. `cardlab.simulate` plays many seeded games; each line gives the average with its
# 95% interval $\bar x \pm 1.96\, s/\sqrt{N}$.

# %%
GAMES = 20_000
simulated = {}
for n in range(1, 11):
    out = cardlab.simulate("garbage", players=1, games=GAMES, seed=1200 + n, layout_sizes=[n], progress=False)
    turns = out.turns.astype(float)
    mean, half = turns.mean(), Z95 * turns.std(ddof=1) / np.sqrt(turns.size)
    simulated[n] = (mean, half)
    reshuffled = int(np.sum(out.extras["shuffles"] > 0))
    spots = f"{n:>2} spot{'s' if n > 1 else ' '}"
    print(f"{spots}: {mean:6.3f} ± {half:.3f} draws   (reshuffles in {reshuffled} games)")
    assert reshuffled == 0

# %% [markdown]
# Two things to notice. The averages do **not** keep growing with $n$: the 6-spot interval lies wholly above the
# 10-spot one. And the stock was never reshuffled; section 3 shows that it cannot be.

# %%
above = simulated[6][0] - simulated[6][1] > simulated[10][0] + simulated[10][1]
print(f"the 6-spot interval lies wholly above the 10-spot one: {above}")
assert above

# %% [markdown]
# ## 3. A state that remembers just enough
#
# **What nobody has seen is shuffled.** The unseen cards (under the face-down spots and in the stock) are in random
# order: the next card turned over, wherever it comes from, is equally likely to be any of them.
#
# **What matters about them** is how many are *useful*. Write $d$ = face-down spots, $w$ = spots showing a wild
# Jack, $U$ = unseen cards. If spot $k$ is not finished (face down, or showing a Jack), then **all four cards of rank
# $k$ are still unseen**: a $k$ turned over earlier would have gone to spot $k$, or displaced the Jack there. And no
# Jack is discarded while a spot is face down. So among the $U$ unseen cards there are
#
# $$4(d + w) \text{ useful pip cards}, \qquad 4 - w \text{ Jacks}, \qquad U - 4d - 3w - 4 \text{ dead cards}.$$
#
# **One card turned over** moves the state:
#
# | card | chance | what happens | new state |
# |---|---|---|---|
# | pip card of an unfinished spot | $4(d+w)/U$ | placed, or displaces a Jack | $(d-1,\ w,\ U-1)$, turn goes on |
# | a Jack | $(4-w)/U$ | placed on a face-down spot | $(d-1,\ w+1,\ U-1)$, turn goes on |
# | dead card | $(U-4d-3w-4)/U$ | discarded: the turn ends | $(d,\ w,\ U-1)$, next turn |
#
# A displaced Jack goes at once onto a face-down spot: $d$ drops by one, $w$ stays. The layout is complete at
# $d = 0$.
#
# **No reshuffle, ever.** While $d \ge 1$ there are at least $4d + 4$ useful unseen cards, but only $d$ unseen
# places under the layout, so some useful card is still in the stock: the stock cannot run out first.

# %% [markdown]
# ## 4. The exact answer by first-step analysis
#
# **First-step analysis:** an expected value is the average, over the possible first steps, of the expected value
# after that step, each weighted by the step's chance. Here the first step is the next card. Let $F(d, w, U)$ be the
# expected number of turns *still to start* just before the next card is turned over. The table gives
#
# $$F(d,w,U) = \frac{4(d+w)}{U} F(d-1,w,U-1) + \frac{4-w}{U} F(d-1,w+1,U-1)
#   + \frac{U-4d-3w-4}{U}\bigl(1 + F(d,w,U-1)\bigr),$$
#
# with $F(0, \cdot, \cdot) = 0$; $U$ drops at each step, so the recursion ends. The first draw starts turn one, so
# $E[T] = 1 + F(n, 0, 52)$. Python's `Fraction` keeps every step exact.

# %%
CARDS, PER_RANK, WILDS = 52, 4, 4


@cache                     # remembers each state's value, so each is computed once
def future_turns(d, w, unseen):
    """F(d, w, U): expected turns still to start, just before the next card is turned over."""
    if d == 0:
        return Fraction(0)
    pips, jacks = PER_RANK * (d + w), WILDS - w
    dead = unseen - pips - jacks
    expected = Fraction(pips, unseen) * future_turns(d - 1, w, unseen - 1)
    expected += Fraction(jacks, unseen) * future_turns(d - 1, w + 1, unseen - 1)
    if dead:
        expected += Fraction(dead, unseen) * (1 + future_turns(d, w, unseen - 1))
    return expected


def expected_draws(spots):
    return 1 + future_turns(spots, 0, CARDS)


exact = {n: expected_draws(n) for n in range(1, 11)}
for n, e in exact.items():
    mean, half = simulated[n]
    inside = abs(float(e) - mean) <= half
    spots = f"{n:>2} spot{'s' if n > 1 else ' '}"
    print(f"{spots}: exact {float(e):8.5f}   simulated {mean:6.3f} ± {half:.3f}   inside the interval: {inside}")
    assert abs(float(e) - mean) < 2 * half     # 2 × the 95% half-width: about 4 standard errors
misses = sum(abs(float(exact[n]) - simulated[n][0]) > simulated[n][1] for n in exact)
print(f"intervals that miss the exact value: {misses} of {len(exact)}; chance that at least one of ten "
      f"independent 95% intervals misses: {1 - 0.95 ** len(exact):.0%}")

# %% [markdown]
# Of many 95% intervals, about 5 in 100 miss the true value. These ten come from independent simulations
# (different seeds): half a miss is expected (10 × 5%), and at least one miss in about 40% of such runs.
# So one miss just outside its interval would be no evidence against the recursion; the cell checks what a real
# error would break: every simulated mean within about four standard errors of the exact value.
#
# A check by hand for one spot. Think of the face-down card as the pack's last card: the layout is done at the
# first Ace or Jack, 8 of the 52 cards. They cut the other 44 into 9 gaps of $44/9$ cards on average, so the first
# comes on average at place $1 + 44/9 = 53/9$.

# %%
print(f"exact for 1 spot: {exact[1]}; by hand: {1 + Fraction(44, 9)}")
assert exact[1] == 1 + Fraction(44, 9) == Fraction(53, 9)
print(f"exact for 10 spots as a fraction has a denominator of {len(str(exact[10].denominator))} digits")
sizes = list(exact)
chart = go.Figure(layout=go.Layout(
    title="Garbage solitaire: expected draws to complete n spots", width=640, height=380,
    xaxis={"title": "spots n", "dtick": 1}, yaxis={"title": "draws"}))
chart.add_scatter(x=sizes, y=[float(exact[n]) for n in sizes], mode="lines+markers", name="exact (recursion)")
chart.add_scatter(x=sizes, y=[simulated[n][0] for n in sizes], mode="markers", name=f"simulated, {GAMES} games",
                  error_y={"type": "data", "array": [simulated[n][1] for n in sizes]})
display(figure_view(chart))

# %% [teacher]
# **Teacher's notes.** The unseen cards are exchangeable exactly (the shuffle is uniform and the greedy player's
# choices depend only on seen cards); the count of useful cards then follows from the rules, so the recursion rests
# only on a fair shuffle. The gaps argument for one spot: the 52 − 8 dead cards are split by the 8 useful ones into 9
# gaps, exchangeable, so each holds 44/9 on average. Why 6 spots take longer than 10 is lesson 13's section 3 (a
# turn ends only at a dead card; more spots mean fewer dead cards and longer chains).
#
# **Misconceptions to discuss.** *"More spots must take longer."* Section 2's intervals say otherwise (lesson 13
# explains why). *"A simulated mean outside its interval disproves the exact answer."* One miss among ten 95%
# intervals happens in about 40% of runs (section 4). *"The simulation is the real answer, the formula a
# model."* Here the recursion is exact; the simulation is the estimate, and it agrees.

# %% [markdown]
# ## Exercises
#
# Type each answer in its box (a decimal such as 12.34) and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** Does it matter whether Jacks or Kings are wild? Argue from the state table, then check: simulate
# 20 000 solitaire games of 10 spots with `wild="K"`. What is the exact expected number of draws with Kings wild,
# to two decimals?

# %% [check]
exercise_1 = lesson("12").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "12.34"
exercise_1.check(answer_1)

# %% [solution]
out = cardlab.simulate("garbage", players=1, games=GAMES, seed=99, layout_sizes=[10], wild="K", progress=False)
turns = out.turns.astype(float)
mean, half = turns.mean(), Z95 * turns.std(ddof=1) / np.sqrt(turns.size)
print(f"Kings wild: {mean:.3f} ± {half:.3f}; exact (any wild rank with 4 cards) {float(exact[10]):.5f}; "
      f"inside: {abs(mean - float(exact[10])) <= half}")
assert abs(mean - float(exact[10])) < 2 * half       # about four standard errors
print(exercise_1.check(f"{float(exact[10]):.2f}"))
print(f"the simulated mean ({mean:.2f}):", exercise_1.check(f"{mean:.2f}"))
print(f"6 spots ({float(exact[6]):.2f}):", exercise_1.check(f"{float(exact[6]):.2f}"))
assert exercise_1.check(f"{float(exact[10]):.2f}").is_right
assert exercise_1.check(f"{mean:.2f}").status in ("right", "close")
assert exercise_1.check(f"{float(exact[6]):.2f}").status == "not yet"
answer_1 = f"{float(exact[10]):.2f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** How many more draws, on average, does the slowest layout size take than 10 spots? Find the
# slowest size first, then type the exact difference, to two decimals.

# %% [check]
exercise_2 = lesson("12").exercise(2)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "0.12"
exercise_2.check(answer_2)

# %% [solution]
slowest = max(exact, key=lambda n: exact[n])
difference = exact[slowest] - exact[10]
print(f"slowest: {slowest} spots, {float(difference):.5f} draws more than 10 spots")
print(exercise_2.check(f"{float(difference):.2f}"))
simulated_gap = simulated[slowest][0] - simulated[10][0]
print(f"from the simulated means ({simulated_gap:.2f}):", exercise_2.check(f"{simulated_gap:.2f}"))
print(f"the size itself ({slowest}):", exercise_2.check(str(slowest)))
assert exercise_2.check(f"{float(difference):.2f}").is_right
assert exercise_2.check(f"{simulated_gap:.2f}").status != "right"    # simulated means are only estimates
assert exercise_2.check(str(slowest)).status == "not yet"
answer_2 = f"{float(difference):.2f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS
