# %% [markdown]
# # Markov chains: the whole story of a Garbage layout
#
# **Learning goals**
#
# - **the idea:** a **Markov chain** (states, and the chance of each next state) gives more than a mean: the same
#   expected value by solving one set of equations, and the whole distribution $P(T \le k)$ by moving the
#   probability one turn at a time;
# - see why fewer spots can take longer, and read a distribution's shape: its mean, median and most likely value.
#
# **Predict first.** A 10-spot solitaire takes $E[T] \approx 9.37$ draws on average (lesson 12). What is the
# chance of completing it within 5 draws? Do more than half, half, or fewer than half of the games take longer than
# 9.37 draws? Write your guesses down.
#
# It builds on lesson `12_expected_value`: its state $(d, w, U)$ and its table.

# %% [teacher]
# **Learning goals:** a Markov chain on the states at the start of each turn, with "complete" absorbing; the
# expected time to absorption from the chain's matrix, $(I - Q)\,t = \mathbf 1$, equal to lesson 12's recursion;
# why the expected time is not increasing in the number of spots (draws = 1 + dead cards turned over); the law of
# $T$ by pushing the state's law forward one turn at a time; a band for a whole curve; the mean as the area above
# $P(T \le k)$; a skewed distribution (mode < median < mean).
#
# **Lesson plan (50 minutes).** 5 min: predict (above). 7 min: turns as a Markov chain (section 1). 6 min: the
# matrix (section 2). 7 min: why fewer spots can take longer (section 3). 8 min: the whole distribution (section 4).
# 5 min: its shape (section 5). 2 min: misconceptions (section 6). 10 min: exercises (1 and 2, about 5 minutes
# each).

# %%
from collections import defaultdict
from fractions import Fraction
from functools import cache

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.chance.stats import wilson
from cardlab.course import lesson
from cardlab.viz.panels import figure_view

CARDS, PER_RANK, WILDS = 52, 4, 4
SIZES = range(1, 11)


@cache                     # remembers each state's value, so each is computed once
def future_turns(d, w, unseen):
    """Lesson 12's recursion F(d, w, U): expected turns still to start, just before the next card is turned over."""
    if d == 0:
        return Fraction(0)
    pips, jacks = PER_RANK * (d + w), WILDS - w
    dead = unseen - pips - jacks
    expected = Fraction(pips, unseen) * future_turns(d - 1, w, unseen - 1)
    expected += Fraction(jacks, unseen) * future_turns(d - 1, w + 1, unseen - 1)
    if dead:
        expected += Fraction(dead, unseen) * (1 + future_turns(d, w, unseen - 1))
    return expected


exact = {n: 1 + future_turns(n, 0, CARDS) for n in SIZES}      # lesson 12's exact E[T] for 1 to 10 spots
print(f"lesson 12's exact expectations, 10 spots: {float(exact[10]):.5f} draws; 6 spots: {float(exact[6]):.5f}")

# %% [markdown]
# ## 1. Turns as a Markov chain
#
# Lesson 12 followed the game card by card. Now look only at the **start of each turn**. A **Markov chain** is a
# sequence of states in which the chance of the next state depends only on the present state, not on the path that
# led to it. The state $(d, w, U)$ at the start of each turn is one: lesson 12's table uses nothing else. One turn
# may turn over several cards, so the chance of each next state adds up every chain of placements that ends in a
# dead card. "Complete" is an **absorbing** state: once there, the chain stays.

# %%
def one_turn(d, w, unseen):
    """The law of the state at the start of the next turn ("done" if the layout is completed in this turn)."""
    law = defaultdict(Fraction)    # a dict whose missing entries start at 0

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


start = one_turn(10, 0, CARDS)
print("from the deal of 10 spots, (10, 0, 52), the first turn ends in:")
for state, p in sorted(start.items(), key=lambda item: -item[1])[:4]:
    print(f"  {state}: {float(p):.4f}")
print(f"  ... ({len(start) - 1} states in all) and complete in the first turn: {float(start['done']):.4f}; "
      f"all chances add up to {sum(start.values())}")
assert sum(start.values()) == 1

# %% [markdown]
# ## 2. The same answer from the chain's matrix
#
# Put the chances between unfinished states in a table $Q$: one row and one column per state, $Q[s, s']$ = the
# chance that a turn from $s$ ends in $s'$. Let $t(s)$ be the expected number of turns from the start of a turn in
# $s$. First-step analysis, one turn at a time: one turn, then the turns still to come from where it lands,
#
# $$t(s) = 1 + \sum_{s'} Q[s, s']\, t(s').$$
#
# That is one equation per state, a system of linear equations $t = \mathbf 1 + Q t$, or $(I - Q)\,t = \mathbf 1$
# ($I$: ones on the diagonal, zeros elsewhere), which numpy solves at once.

# %%
def chain_matrix(spots):
    """The states reachable from the deal before "done", in the order found, and the matrix Q among them."""
    first = (spots, 0, CARDS)
    states, todo, rows = [first], [first], {}
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
    return states, q


for n in (1, 3, 6, 10):
    states, q = chain_matrix(n)
    t = np.linalg.solve(np.eye(len(states)) - q, np.ones(len(states)))
    print(f"{n:>2} spot{'s' if n > 1 else ' '}: {len(states):>4} unfinished states; (I - Q) t = 1 gives "
          f"{t[0]:.10f}, lesson 12's recursion {float(exact[n]):.10f}")
    assert abs(t[0] - float(exact[n])) < 1e-9

# %% [markdown]
# ## 3. Why can fewer spots take longer?
#
# Lesson 12 found that 6 spots take longer than 10. Count the cards turned over before the layout is complete
# (leaving out the card under the last spot): each either brings one more spot face up ($n$ of them in all) or is
# dead and ends the turn. Every turn but the last ends at a dead card, so
#
# $$\text{draws} = 1 + \text{dead cards turned over}, \qquad \text{cards turned over} = n + \text{draws} - 1.$$
#
# Each spot you add is one more card to find, but it also turns **four dead cards into useful ones**. With few spots
# most of the pack is dead, so most turns end at the first card. With many spots a draw turns over more cards: 1.96
# with 10 spots (the last column).

# %%
@cache
def more_cards(d, w, unseen):
    """Expected number of cards still to be turned over (drawn or uncovered) before the layout is complete (the
    card uncovered by the last spot filled is not counted)."""
    if d == 0:
        return Fraction(0)
    pips, jacks = PER_RANK * (d + w), WILDS - w
    dead = unseen - pips - jacks
    value = 1 + Fraction(pips, unseen) * more_cards(d - 1, w, unseen - 1)
    value += Fraction(jacks, unseen) * more_cards(d - 1, w + 1, unseen - 1)
    if dead:
        value += Fraction(dead, unseen) * more_cards(d, w, unseen - 1)
    return value


print("spots  dead share at the deal  cards before completion  draws (turns)  cards per draw")
for n in SIZES:
    cards = more_cards(n, 0, CARDS)
    assert cards == n + exact[n] - 1                       # the identity above, exactly
    dead_share = Fraction(CARDS - 4 * n - 4, CARDS)
    print(f"{n:>5}  {float(dead_share):>22.3f}  {float(cards):>23.3f}  {float(exact[n]):>13.3f}  "
          f"{float(cards / exact[n]):>14.3f}")
longest = max(SIZES, key=lambda n: exact[n])
print(f"the longest layout is {longest} spots: {float(exact[longest]):.4f} draws")
assert f"{float(more_cards(10, 0, CARDS) / exact[10]):.2f}" == "1.96"        # the text's "1.96 with 10 spots"
assert longest == 6 and all((exact[n] < exact[n + 1]) == (n < longest) for n in range(1, 10))   # up, then down

# %% [markdown]
# So the expected time first grows with $n$ (more cards to find), then falls (longer chains per draw), peaking at
# 6 spots. Compare lesson 03 (section 3): in two-player games, some middle sizes won less often against 10 spots
# than a full layout did.

# %% [markdown]
# ## 4. The whole distribution: $P(T \le k)$
#
# The chain also gives the whole distribution of $T$: put all the probability on the starting state, move it one
# turn at a time with `one_turn`, and collect what reaches "done". After $k$ turns the collected probability is
# exactly $P(T \le k)$. The simulated curve is the share of 20 000 games with $T \le k$. Its band has half-width
# $\sqrt{\ln(2/0.05)/(2N)}$ for $N$ games: a theorem (stated here without proof) says that the whole simulated
# curve, at every $k$ at once, lies this close to the true curve in at least 95 runs of 100. One 95% interval for
# each $k$ promises less: each may miss 5 times in 100, each at its own $k$.

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


GAMES, K = 20_000, 30
exact_curve = completion_curve(10, K)
out = cardlab.simulate("garbage", players=1, games=GAMES, seed=1210, layout_sizes=[10], progress=False)
ks = np.arange(1, K + 1)
simulated_curve = np.array([np.mean(out.turns <= k) for k in ks])
band = np.sqrt(np.log(2 / 0.05) / (2 * GAMES))
gap = np.max(np.abs(simulated_curve - np.array([float(c) for c in exact_curve])))
for k in (1, 3, 5, 10, 20, 30):
    print(f"P(T <= {k:>2}) = {float(exact_curve[k - 1]):.5f} exactly; simulated {simulated_curve[k - 1]:.5f}")
print(f"largest gap {gap:.4f}; band half-width {band:.4f}; whole simulated curve inside the band: {gap <= band}")
assert gap <= band                                     # this run; a run outside would happen in at most 5 of 100
assert gap < np.sqrt(np.log(2 / 1e-6) / (2 * GAMES))  # leaving this wider band by chance: under one run in a million

curve_chart = go.Figure(layout=go.Layout(
    title="Garbage solitaire, 10 spots: P(complete within k draws)", width=640, height=380,
    xaxis={"title": "draws k"}, yaxis={"title": "P(T ≤ k)", "range": [0, 1.02]}))
curve_chart.add_scatter(x=ks, y=np.minimum(1, simulated_curve + band), mode="lines", line={"width": 0},
                        showlegend=False)
curve_chart.add_scatter(x=ks, y=np.maximum(0, simulated_curve - band), mode="lines", line={"width": 0},
                        fill="tonexty", fillcolor="rgba(31,119,180,0.2)", name="95% band, whole curve")
curve_chart.add_scatter(x=ks, y=simulated_curve, mode="markers", name=f"simulated, {GAMES} games")
curve_chart.add_scatter(x=ks, y=[float(c) for c in exact_curve], mode="lines", line={"shape": "hv"},
                        name="exact (Markov chain)")
display(figure_view(curve_chart))

# %% [markdown]
# The simulated points lie on the exact staircase, inside the band.
#
# **The mean is the area above the curve.** $T$ counts the $k = 0, 1, 2, \dots$ with $T > k$; averaging gives
# $E[T] = \sum_{k \ge 0} P(T > k)$.

# %%
area = 1 + sum(1 - c for c in exact_curve[:-1])          # P(T > 0) + P(T > 1) + ... + P(T > K - 1)
print(f"area above the exact curve up to k = {K}: {float(area):.5f}; E[T] = {float(exact[10]):.5f}")
assert 0 <= float(exact[10] - area) < 1e-3              # the tail beyond K adds less than 0.001

# %% [markdown]
# ## 5. The shape of the distribution
#
# The histogram shows how many of the 20 000 games took each number of draws, with the exact chances (times
# 20 000) as dots. The **median** is the first $k$ with $P(T \le k) \ge 1/2$: at least half the games take at most
# that many draws.

# %%
pmf = [exact_curve[0]] + [exact_curve[k] - exact_curve[k - 1] for k in range(1, K)]   # P(T = k), k = 1..K
mode = 1 + max(range(K), key=lambda i: pmf[i])
median = 1 + next(i for i, c in enumerate(exact_curve) if c >= Fraction(1, 2))
mean = exact[10]
longer = 1 - exact_curve[int(mean) - 1]                 # T > 9.37 means T >= 10
print(f"10 spots: most likely {mode} draws (chance {float(pmf[mode - 1]):.3f}); median {median}; "
      f"mean {float(mean):.3f}")
print(f"P(T > mean) = {float(longer):.4f}; of the simulated games the shortest took {int(out.turns.min())} "
      f"draw(s), the longest {int(out.turns.max())}")
print("distance from the mean   at least that much shorter   at least that much longer")
for distance in (2, 4, 6, 8):
    shorter = exact_curve[int(mean - distance) - 1]                      # P(T <= mean - distance)
    slower = 1 - exact_curve[int(np.ceil(float(mean + distance))) - 2]   # P(T >= mean + distance)
    print(f"{distance:>22}  {float(shorter):>27.4f}  {float(slower):>26.4f}")
    assert (shorter > slower) == (distance <= 4)          # a little shorter: more often; far out: slower

spread = go.Figure(layout=go.Layout(title=f"Garbage solitaire, 10 spots: draws per game ({GAMES} games)", width=640,
                                    height=360, xaxis={"title": "draws"}, yaxis={"title": "games"}))
spread.add_histogram(x=out.turns, xbins={"start": 0.5, "size": 1}, name="simulated games")
spread.add_scatter(x=ks, y=[float(p) * GAMES for p in pmf], mode="markers", name="exact chance × games")
top = 1.05 * max(np.bincount(out.turns))
for x, label, dash in ((mode, f"most likely: {mode}", "solid"), (median, f"median: {median}", "dot"),
                       (float(mean), f"mean: {float(mean):.2f}", "dash")):
    spread.add_scatter(x=[x, x], y=[0, top], mode="lines", line={"dash": dash, "color": "black"}, name=label)
display(figure_view(spread))

# %% [markdown]
# The distribution is **skewed to the right**: the shortest possible game (one draw) is about 8 draws below the mean,
# but the longest of these games took over 20 draws more. Within 4 draws of the mean, shorter games are the more
# common; further out, slow games outnumber fast ones (the table). That long right tail pulls the mean above the
# median and the most likely value. Fewer than half of the games take longer than the mean.

# %%
print(f"most likely < median < mean: {mode < median < mean}; P(T > mean) below one half: {longer < Fraction(1, 2)}; "
      f"mean - 1 = {float(mean - 1):.2f}; longest game - mean = {float(out.turns.max() - mean):.2f}")
assert mode < median < mean and longer < Fraction(1, 2)
assert 7 < mean - 1 < 9 and out.turns.max() >= mean + 20    # the text's "about 8 below" and "over 20 more"

# %% [markdown]
# ## 6. Misconceptions to discuss
#
# - *"More spots always take longer."* Not here: each spot also turns four dead cards into useful ones (section 3).
# - *"A typical game takes the mean number of draws."* The most likely number is lower, and most games take no
#   longer than the mean (section 5).

# %% [teacher]
# **Teacher's notes.** The whole-curve band is the Dvoretzky–Kiefer–Wolfowitz (DKW) band, half-width
# $\sqrt{\ln(2/\alpha)/(2N)}$ with $\alpha = 0.05$ (Massart's constant); for a discrete $T$ it is conservative. The
# cell also asserts the band with $\alpha = 10^{-6}$, a fault check that at most one honest run in a million fails.
# The chain's unfinished states are its *transient* states, and $(I-Q)^{-1}\mathbf 1$ gives their expected times to
# absorption (the fundamental matrix $N = (I - Q)^{-1}$). The identity draws = 1 + dead cards holds game by game, so
# the expected cards turned over before completion (the card under the last spot not counted: a 1-spot game of 6 draws
# turns over 7 cards, 6 of them counted) is exactly $n - 1 + E[T]$ (asserted as fractions). A third misconception to
# raise if time allows: *"the mean and the chance of finishing quickly are separate questions"*: both come from one
# chain, and the mean is the area above $P(T \le k)$ (section 4). Section 3's "some middle sizes won less often
# against 10 spots" speaks of who wins a hand, which also depends on the other player (lesson 03's section 3); the
# draws to complete one's own layout are this lesson's question.
#
# Left out for time: lesson 01's convergence chart of one point of the curve, $P(T \le 10)$, as the games add up.
# To show it, run after section 4:
#
# ```python
# from cardlab.viz.charts import convergence_figure
# within_10 = (out.turns <= 10).astype(float)
# display(figure_view(convergence_figure(within_10, truth=exact_curve[9], label="share done within 10 draws")))
# ```
#
# About half the draws place no card at all (0.473 of the draws with 10 spots, 0.531 with 8): "1.96 cards per draw"
# (section 3) averages draws that place nothing and draws that start a chain.

# %% [markdown]
# ## Exercises
#
# Type each answer in its box (a fraction 3/4, a decimal 0.75 or a percentage 75%) and press **Check**, or write it
# in the answer cell.

# %% [markdown]
# **Exercise 1.** What is the exact chance of completing **6** spots within 5 draws, to three decimals? Check it
# against a simulation of 20 000 games.

# %% [check]
exercise_1 = lesson("13").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "0.123"
exercise_1.check(answer_1)

# %% [solution]
p5 = completion_curve(6, 5)[4]
six = cardlab.simulate("garbage", players=1, games=GAMES, seed=5, layout_sizes=[6], progress=False)
freq = wilson(float(np.sum(six.turns <= 5)), six.turns.size)
print(f"P(6 spots within 5 draws) = {float(p5):.5f} exactly; simulated {freq}; inside: {freq.contains(float(p5))}")
assert abs(freq.value - float(p5)) < 4 * np.sqrt(float(p5 * (1 - p5)) / freq.n)    # about four standard errors
print(exercise_1.check(f"{float(p5):.3f}"))
print(f"10 spots' chance ({float(exact_curve[4]):.3f}):", exercise_1.check(f"{float(exact_curve[4]):.3f}"))
assert exercise_1.check(f"{float(p5):.3f}").is_right
assert exercise_1.check(f"{float(exact_curve[4]):.3f}").status == "not yet"
answer_1 = f"{float(p5):.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** One spot takes $53/9 \approx 5.89$ draws on average (lesson 12). What is the exact chance that a
# one-spot game takes **more** draws than that, to three decimals? Is it above or below one half?

# %% [check]
exercise_2 = lesson("13").exercise(2)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "0.123"
exercise_2.check(answer_2)

# %% [solution]
one = completion_curve(1, 6)
more = 1 - one[4]                                      # T > 53/9 means T >= 6: not complete within 5 draws
print(f"P(T > 53/9) for one spot = 1 - P(T <= 5) = {float(more):.5f}: below one half")
by_hand = Fraction(44 * 43 * 42 * 41 * 40, 52 * 51 * 50 * 49 * 48)      # the first five cards drawn all dead
print(f"by hand, the first five draws are none of the 8 Aces and Jacks: {float(by_hand):.5f}")
assert more == by_hand and exact[1] == Fraction(53, 9) and more < Fraction(1, 2)
print(exercise_2.check(f"{float(more):.3f}"))
off_by_one = 1 - one[5]                                # P(T > 6): forgets that T = 6 is more than 5.89
print(f"P(T > 6) ({float(off_by_one):.3f}):", exercise_2.check(f"{float(off_by_one):.3f}"))
print("one half (0.5):", exercise_2.check("0.5"))
with_replacement = Fraction(44, 52) ** 5                 # the slip: the five draws as if with replacement
print(f"with replacement ({float(with_replacement):.3f}):", exercise_2.check(f"{float(with_replacement):.3f}"))
assert exercise_2.check(f"{float(with_replacement):.3f}").status == "not yet"
assert exercise_2.check(f"{float(more):.3f}").is_right
assert exercise_2.check(f"{float(off_by_one):.3f}").status == "not yet" and exercise_2.check("0.5").status == "not yet"
answer_2 = f"{float(more):.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS
