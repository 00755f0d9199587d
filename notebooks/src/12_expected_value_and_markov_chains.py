# %% [markdown]
# # Expected value and Markov chains: how long does a Garbage layout take?
#
# **The one idea:** an expected value can be estimated by simulation and computed **exactly** by first-step analysis
# of a **Markov chain** (a state that remembers just enough); the two must agree within the simulation's interval.
#
# **Learning goals**
#
# - estimate an expectation by simulation, with its interval;
# - compute it exactly with a Markov chain, and its whole distribution.
#
# **Lesson plan (50 minutes).** 5 min: predict (below). 5 min: simulation (section 2). 15 min: the state and
# first-step analysis (sections 3–4). 5 min: the matrix (section 5). 10 min: the surprise and the whole distribution
# (sections 6–7). 10 min: exercises.
#
# **Predict first.** Garbage solitaire with 10 spots and with 6 spots: which takes more draws on average? Roughly
# how many draws does a 10-spot layout take? And what is the chance of completing 10 spots within 5 draws?

# %% [markdown]
# ## 1. The question
#
# Garbage solitaire (one player, one 52-card pack; lesson 02 has the rules): lay out $n$ face-down
# cards for spots A … $n$ and draw from the stock until every spot is face up. The player plays greedily: a wild Jack
# always goes on the lowest face-down spot, and a card always displaces a Jack on its own spot. In solitaire those
# are the only choices, and the discard pile never holds a usable card, so **every turn is exactly one draw**.
#
# How many draws does it take on average, for $n = 1, \dots, 10$? Let's watch one game first: the stepper starts at
# the deal, and the cell after it plays the same game to the end on a copy it does not show.

# %%
import re
from collections import defaultdict
from fractions import Fraction
from functools import cache

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.course import lesson
from cardlab.sim.stats import Z95, wilson
from cardlab.viz.charts import convergence_figure, convergence_rows
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
print(re.sub(r"<[^>]+>", "", copy.counter.value))
print(f"draws (turns) to complete 6 spots in this game: {copy.game.turns}")
assert solo.game.move_count == 0                 # the stepper shown is still at the deal

# %% [markdown]
# ## 2. Simulation first
#
# One game says little. `cardlab.simulate` plays many seeded solitaire games; the average number of turns estimates
# the expectation, and the 95% interval is $\bar x \pm 1.96\, s/\sqrt{N}$ (lesson 01).

# %%
GAMES = 20_000
simulated = {}
for n in range(1, 11):
    out = cardlab.simulate("garbage", players=1, games=GAMES, seed=1200 + n, layout_sizes=[n], progress=False)
    turns = out.turns.astype(float)
    mean, half = turns.mean(), Z95 * turns.std(ddof=1) / np.sqrt(turns.size)
    simulated[n] = (mean, half)
    reshuffled = int(np.sum(out.extras["shuffles"] > 0))
    print(f"{n:>2} spots: {mean:6.3f} ± {half:.3f} draws   (reshuffles in {reshuffled} games)")

# %% [markdown]
# Two things to notice. The curve is **not** increasing: 6 spots take longer than 10. And the stock was never
# reshuffled — we will see that it cannot be.

# %% [markdown]
# ## 3. A state that remembers just enough
#
# **Exchangeability.** Nobody looks at a face-down card. So the cards nobody has seen — under the face-down spots
# and in the stock — are in uniformly random order, and the next card turned over (from the stock, or from under a
# spot) is equally likely to be any of them.
#
# **What matters about the unseen cards** is how many of them are *useful*. Write
#
# - $d$ = face-down spots, $w$ = spots showing a wild Jack, $U$ = unseen cards.
#
# If spot $k$ is not finished (face down, or showing a Jack), then **all four cards of rank $k$ are still unseen**:
# a $k$ turned over earlier would have gone to spot $k$ (forced), or displaced the Jack there (greedy). And no Jack
# is ever discarded while a spot is face down (greedy places it). So among the $U$ unseen cards there are
#
# $$4(d + w) \text{ useful pip cards}, \qquad 4 - w \text{ Jacks}, \qquad U - 4d - 3w - 4 \text{ dead cards}.$$
#
# **One card turned over** moves the state:
#
# | card | chance | what happens | new state |
# |---|---|---|---|
# | pip card of an unfinished spot | $4(d+w)/U$ | placed, or displaces a Jack | $(d-1,\ w,\ U-1)$, chain goes on |
# | a Jack | $(4-w)/U$ | placed on a face-down spot | $(d-1,\ w+1,\ U-1)$, chain goes on |
# | dead card | $(U-4d-3w-4)/U$ | discarded: the turn ends | $(d,\ w,\ U-1)$, next turn |
#
# A displaced Jack goes at once onto a face-down spot, so $d$ drops by one and $w$ stays the same. The layout is
# complete when $d = 0$ (Jacks count as face up).
#
# **No reshuffle, ever.** While $d \ge 1$ there are at least $4d + 4 > d$ useful unseen cards, but only $d$ of the
# unseen places are under the layout, so some useful card is still in the stock: the stock cannot be empty before
# the layout is complete.

# %% [markdown]
# ## 4. Exact answer by first-step analysis
#
# Let $F(d, w, U)$ be the expected number of turns *still to start* just before the next card is turned over.
# Conditioning on that card (the table above) gives a recursion; $U$ goes down by one at each step, so it ends:
#
# $$F(d,w,U) = \frac{4(d+w)}{U} F(d-1,w,U-1) + \frac{4-w}{U} F(d-1,w+1,U-1)
#   + \frac{U-4d-3w-4}{U}\bigl(1 + F(d,w,U-1)\bigr),$$
#
# with $F(0, \cdot, \cdot) = 0$. The first draw starts turn one, so $E[\text{draws}] = 1 + F(n, 0, 52)$. Python's
# `Fraction` keeps every step exact.

# %%
CARDS, PER_RANK, WILDS = 52, 4, 4


@cache
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
    print(f"{n:>2} spots: exact {float(e):8.5f}   simulated {mean:6.3f} ± {half:.3f}   inside the interval: {inside}")
    assert abs(float(e) - mean) < 2 * half     # 2 × the 95% half-width: about 4 standard errors
misses = sum(abs(float(exact[n]) - simulated[n][0]) > simulated[n][1] for n in exact)
print(f"intervals that miss the exact value: {misses} of {len(exact)}; chance of at least one miss among ten "
      f"independent 95% intervals: {1 - 0.95 ** len(exact):.0%}")

# %% [markdown]
# Ten 95% intervals, from ten independent simulations, each miss the exact value with probability 5%, so at least
# one miss happens about 40% of the time (the last line prints the count and that chance). A line saying
# `inside the interval: False` is therefore no evidence against the recursion; the cell checks something a real
# error would break: every simulated mean is within about four standard errors of the exact value.

# %% [markdown]
# A check by hand for one spot: the layout is done at the first Ace or Jack, 8 of the 52 cards. The position of the
# first of $K$ marked cards in a shuffled deck of $N$ has mean $(N+1)/(K+1)$, here $53/9$:

# %%
print(f"exact for 1 spot: {exact[1]}; (N+1)/(K+1) = {Fraction(53, 9)}")
print(f"exact for 10 spots as a fraction has a denominator of {len(str(exact[10].denominator))} digits")

# %% [markdown]
# ## 5. The same answer from the chain's matrix
#
# Look at the game only at the **start of each turn**: the state $(d, w, U)$ there is a Markov chain, and "complete"
# is its absorbing state. One turn may turn over several cards, so its transition probabilities add up all the
# chains of placements that end in a dead card (or in completion). With $Q$ the transitions among the unfinished
# states, the expected number of turns from each state solves $(I - Q)\,t = \mathbf 1$.

# %%
def one_turn(d, w, unseen):
    """The law of the state at the start of the next turn ("done" if the layout is completed in this turn)."""
    law = defaultdict(Fraction)

    def turn_over(d, w, unseen, p):
        if d == 0:
            law["done"] += p
            return
        pips, jacks = PER_RANK * (d + w), WILDS - w
        dead = unseen - pips - jacks
        if pips:
            turn_over(d - 1, w, unseen - 1, p * Fraction(pips, unseen))
        if jacks:
            turn_over(d - 1, w + 1, unseen - 1, p * Fraction(jacks, unseen))
        if dead:
            law[(d, w, unseen - 1)] += p * Fraction(dead, unseen)

    turn_over(d, w, unseen, Fraction(1))
    return law


def chain_expectation(spots):
    start = (spots, 0, CARDS)
    states, todo, rows = [start], [start], {}
    while todo:
        state = todo.pop()
        rows[state] = one_turn(*state)
        for nxt in rows[state]:
            if nxt != "done" and nxt not in rows and nxt not in todo:
                states.append(nxt)
                todo.append(nxt)
    index = {s: i for i, s in enumerate(states)}
    q = np.zeros((len(states), len(states)))
    for s, law in rows.items():
        for nxt, p in law.items():
            if nxt != "done":
                q[index[s], index[nxt]] = float(p)
    t = np.linalg.solve(np.eye(len(states)) - q, np.ones(len(states)))
    return t[index[start]], len(states)


for n in (1, 3, 6, 10):
    t, size = chain_expectation(n)
    print(f"{n:>2} spots: {size:>4} states before the end, (I-Q)^-1 gives {t:.10f}, "
          f"recursion gives {float(exact[n]):.10f}")

# %% [markdown]
# ## 6. Why can fewer spots take longer?
#
# The chart shows the exact expectation and the simulated means with their intervals.

# %%
sizes = list(range(1, 11))
chart = go.Figure(layout=go.Layout(
    title="Garbage solitaire: expected draws to complete n spots", width=640, height=380,
    xaxis={"title": "spots n", "dtick": 1}, yaxis={"title": "draws"}))
chart.add_scatter(x=sizes, y=[float(exact[n]) for n in sizes], mode="lines+markers", name="exact (recursion)")
chart.add_scatter(x=sizes, y=[simulated[n][0] for n in sizes], mode="markers", name=f"simulated, {GAMES} games",
                  error_y={"type": "data", "array": [simulated[n][1] for n in sizes]})
display(figure_view(chart))

# %% [markdown]
# Each spot you add is one more card to find — but it also adds **four useful cards** to the deck. A turn ends only
# at a dead card, and the number of turns is (roughly) the number of dead cards you meet before the layout is done.
# With few spots most of the deck is dead: almost every turn ends at once. With many spots a draw usually starts a
# long chain of placements. Compare the share of dead cards at the start with the number of cards a game turns over:

# %%
def expected_cards_turned(spots):
    """Exact expected number of cards turned over (drawn or uncovered) until the layout is complete."""

    @cache
    def more(d, w, unseen):
        if d == 0:
            return Fraction(0)
        pips, jacks = PER_RANK * (d + w), WILDS - w
        dead = unseen - pips - jacks
        value = 1 + Fraction(pips, unseen) * more(d - 1, w, unseen - 1)
        value += Fraction(jacks, unseen) * more(d - 1, w + 1, unseen - 1)
        if dead:
            value += Fraction(dead, unseen) * more(d, w, unseen - 1)
        return value

    return more(spots, 0, CARDS)


print("spots  dead share at start  cards turned over  draws (turns)  cards per draw")
for n in sizes:
    dead_share = Fraction(CARDS - 4 * n - 4, CARDS)
    cards = expected_cards_turned(n)
    print(f"{n:>5}  {float(dead_share):>19.3f}  {float(cards):>17.3f}  {float(exact[n]):>13.3f}  "
          f"{float(cards / exact[n]):>14.3f}")
longest = max(sizes, key=lambda n: exact[n])
print(f"the longest layout is {longest} spots: {float(exact[longest]):.4f} draws")

# %% [markdown]
# So the expected time first grows with $n$ (more cards to find) and then falls (longer chains per draw), peaking at
# a middle size (exercise 3 asks which). In a Garbage **match** a winner's layout shrinks by one spot each hand: down
# to that size, the "reward" actually makes the next hand slower for them.

# %% [markdown]
# ## 7. The whole distribution: $P(T \le k)$
#
# The mean is one number. The Markov chain gives the whole law of $T$, the number of draws: start with all the
# probability on the starting state, move it one turn at a time with `one_turn`, and collect what reaches "done".
# After $k$ turns the collected mass is exactly $P(T \le k)$. The simulated curve is the share of the 20 000
# simulated games with $T \le k$; the band around it is made so that it covers the *whole* true curve at once in at
# least 95 of 100 runs (pointwise intervals would not). A second chart
# follows one point of the curve, $P(T \le 10)$, as the simulated games add up.

# %%
def completion_curve(spots, turns):
    """Exact P(T <= k) for k = 1..turns, by moving the state's law one turn at a time."""
    law, done, curve = {(spots, 0, CARDS): Fraction(1)}, Fraction(0), []
    for _ in range(turns):
        after = defaultdict(Fraction)
        for state, p in law.items():
            for nxt, q in one_turn(*state).items():
                if nxt == "done":
                    done += p * q
                else:
                    after[nxt] += p * q
        law = after
        curve.append(done)
    return curve


K = 30
exact_curve = completion_curve(10, K)
out = cardlab.simulate("garbage", players=1, games=GAMES, seed=1210, layout_sizes=[10], progress=False)
ks = np.arange(1, K + 1)
simulated_curve = np.array([np.mean(out.turns <= k) for k in ks])
dkw = np.sqrt(np.log(2 / 0.05) / (2 * GAMES))
gap = np.max(np.abs(simulated_curve - np.array([float(c) for c in exact_curve])))
for k in (1, 3, 5, 10, 20, 30):
    print(f"P(T <= {k:>2}) = {float(exact_curve[k - 1]):.5f} exactly; simulated {simulated_curve[k - 1]:.5f}")
print(f"largest gap {gap:.4f}; 95% band half-width for the whole curve {dkw:.4f}; whole curve inside the band: "
      f"{gap <= dkw}")
assert gap < np.sqrt(np.log(2 / 1e-6) / (2 * GAMES))   # a gap beyond the one-in-a-million band would be a real fault
area = 1 + sum(1 - c for c in exact_curve[:-1])          # P(T > 0) + P(T > 1) + ... + P(T > K - 1)
print(f"area above the exact curve up to k = {K}: {float(area):.5f}; E[T] = {float(exact[10]):.5f}")
assert 0 <= float(exact[10] - area) < 1e-3              # E[T] = sum of P(T > k); the tail beyond K is tiny

curve_chart = go.Figure(layout=go.Layout(
    title="Garbage solitaire, 10 spots: P(complete within k draws)", width=640, height=380,
    xaxis={"title": "draws k"}, yaxis={"title": "P(T ≤ k)", "range": [0, 1.02]}))
curve_chart.add_scatter(x=ks, y=np.minimum(1, simulated_curve + dkw), mode="lines", line={"width": 0},
                        showlegend=False)
curve_chart.add_scatter(x=ks, y=np.maximum(0, simulated_curve - dkw), mode="lines", line={"width": 0},
                        fill="tonexty", fillcolor="rgba(31,119,180,0.2)", name="95% band, whole curve")
curve_chart.add_scatter(x=ks, y=simulated_curve, mode="markers", name=f"simulated, {GAMES} games")
curve_chart.add_scatter(x=ks, y=[float(c) for c in exact_curve], mode="lines", line={"shape": "hv"},
                        name="exact (Markov chain)")
display(figure_view(curve_chart))
within_10 = (out.turns <= 10).astype(float)
for row in convergence_rows(within_10, [10, 1_000, GAMES]):
    print("running share of games done within 10 draws,", row)
display(figure_view(convergence_figure(within_10, truth=exact_curve[9], label="share done within 10 draws",
                                       title="Garbage solitaire, 10 spots: P(T ≤ 10) as the games add up")))

# %% [teacher]
# **Teacher's note (section 7).** The whole-curve band is the Dvoretzky–Kiefer–Wolfowitz (DKW) band,
# half-width $\sqrt{\ln(2/\alpha)/(2N)}$ with $\alpha = 0.05$; the cell's assertion uses $\alpha = 10^{-6}$. The
# chain's states before "done" are its transient states, and $(I-Q)^{-1}\mathbf 1$ gives their expected times to
# absorption.

# %% [markdown]
# The simulated staircase lies on the exact one. If the printed line ever says the curve left the 95% band, that is
# an event the band allows at most one time in twenty; the cell checks a band so wide that leaving it by chance would
# happen
# less than once in a million runs. The mean is the area above the curve: $E[T] = \sum_{k \ge 0} P(T > k)$.
#
# ## 8. Misconceptions to discuss
#
# - *"More spots always take longer."* Not here: each spot also brings four useful cards (section 6).
# - *"The average game takes the expected number of draws."* The distribution is skewed: a few very long games pull
#   the mean above the median (the $k$ at which $P(T \le k)$ first passes 1/2). The histogram below shows it.
# - *"A simulated mean outside its interval disproves the exact answer."* Not one miss among ten (section 4).

# %%
median = int(next(k for k, c in zip(ks, exact_curve, strict=True) if c >= Fraction(1, 2)))
print(f"10 spots: mean {float(exact[10]):.3f} draws, median {median} draws; longest of {GAMES} simulated games "
      f"{int(out.turns.max())} draws")
assert float(exact[10]) > median                  # the long right tail pulls the mean up
spread = go.Figure(layout=go.Layout(title=f"Garbage solitaire, 10 spots: draws per game ({GAMES} games)", width=640,
                                    height=360, xaxis={"title": "draws"}, yaxis={"title": "games"}))
spread.add_histogram(x=out.turns, xbins={"size": 1}, name="games")
spread.add_vline(x=float(exact[10]), line_dash="dash", annotation_text="mean")
spread.add_vline(x=int(median), line_dash="dot", annotation_text="median")
display(figure_view(spread))

# %% [markdown]
# ## Exercises
#
# Type each answer in its box (a fraction 3/4, a decimal 0.75, a percentage 75%, or a number of draws) and press
# **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** Does it matter whether Jacks or Kings are wild? Argue from the state table, then check: simulate
# 20 000 solitaire games of 10 spots with `wild="K"`. What is the exact expected number of draws with Kings wild?

# %% [check]
exercise_1 = lesson("12").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "12.5"
exercise_1.check(answer_1)

# %% [solution]
out = cardlab.simulate("garbage", players=1, games=GAMES, seed=99, layout_sizes=[10], wild="K", progress=False)
turns = out.turns.astype(float)
mean, half = turns.mean(), Z95 * turns.std(ddof=1) / np.sqrt(turns.size)
print(f"Kings wild: {mean:.3f} ± {half:.3f}; exact (any wild rank with 4 cards) {float(exact[10]):.3f}; "
      f"inside: {abs(mean - float(exact[10])) <= half}")
assert abs(mean - float(exact[10])) < 2 * half       # about four standard errors
print(exercise_1.check(f"{float(exact[10]):.3f}"))
print(f"the simulated mean ({mean:.3f}):", exercise_1.check(f"{mean:.3f}"))
print(f"6 spots ({float(exact[6]):.3f}):", exercise_1.check(f"{float(exact[6]):.3f}"))
assert exercise_1.check(f"{float(exact[10]):.3f}").is_right
assert exercise_1.check(f"{mean:.3f}").status in ("right", "close")
assert exercise_1.check(f"{float(exact[6]):.3f}").status == "not yet"
answer_1 = f"{float(exact[10]):.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** Change the recursion of section 4 to give the chance of completing within $k$ draws, not only the
# mean. What is the exact chance of completing **6** spots within 5 draws? Check it against a simulation.

# %% [check]
exercise_2 = lesson("12").exercise(2)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
@cache
def within(d, w, unseen, turns_left):
    """Chance to complete before more than `turns_left` further turns start, just before the next card."""
    if d == 0:
        return Fraction(1)
    pips, jacks = PER_RANK * (d + w), WILDS - w
    dead = unseen - pips - jacks
    p = Fraction(pips, unseen) * within(d - 1, w, unseen - 1, turns_left)
    p += Fraction(jacks, unseen) * within(d - 1, w + 1, unseen - 1, turns_left)
    if dead and turns_left > 0:
        p += Fraction(dead, unseen) * within(d, w, unseen - 1, turns_left - 1)
    return p


p5 = within(6, 0, CARDS, 4)
out = cardlab.simulate("garbage", players=1, games=GAMES, seed=5, layout_sizes=[6], progress=False)
freq = wilson(float(np.sum(out.turns <= 5)), out.turns.size)
print(f"P(6 spots within 5 draws) = {float(p5):.5f} exactly; simulated {freq}; inside: {freq.contains(float(p5))}")
assert within(10, 0, CARDS, 4) == exact_curve[4]      # the recursion agrees with section 7's chain for 10 spots
assert abs(freq.value - float(p5)) < 4 * np.sqrt(float(p5 * (1 - p5)) / freq.n)
print(exercise_2.check(f"{float(p5):.4f}"))
print(f"10 spots' chance ({float(exact_curve[4]):.4f}):", exercise_2.check(f"{float(exact_curve[4]):.4f}"))
assert exercise_2.check(f"{float(p5):.4f}").is_right
assert exercise_2.check(f"{float(exact_curve[4]):.4f}").status == "not yet"
answer_2 = f"{float(p5):.4f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3.** How much longer, on average, does the slowest layout size take than a full layout of 10 spots?
# Give the exact difference as a decimal, and the size.

# %% [check]
exercise_3 = lesson("12").exercise(3)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "0.5"
exercise_3.check(answer_3)

# %% [solution]
slowest = max(exact, key=lambda n: exact[n])
difference = exact[slowest] - exact[10]
print(f"slowest: {slowest} spots, {float(difference):.4f} draws more than 10 spots")
print(exercise_3.check(f"{float(difference):.4f}"))
simulated_gap = simulated[slowest][0] - simulated[10][0]
print(f"from the simulated means ({simulated_gap:.3f}):", exercise_3.check(f"{simulated_gap:.3f}"))
assert exercise_3.check(f"{float(difference):.4f}").is_right
assert exercise_3.check(f"{simulated_gap:.3f}").status != "right"    # simulated means are only estimates
answer_3 = f"{float(difference):.4f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS
