# %% [markdown]
# # The law of large numbers: simulated frequencies settle on the exact answer
#
# **Learning goals**
#
# - see a simulated frequency wander at first and then settle on the exact probability (the law of large numbers);
# - read a 95% interval, and see it shrink like $1/\sqrt{n}$: four times the games for half the width;
# - check that a 95% interval really covers the true value about 95% of the time;
# - work out how many simulated games a question needs before you start.

# %% [markdown]
# ## 1. A question with an exact answer
#
# Garbage solitaire with a single spot (spot A): the first draw completes the layout if it is an Ace (placed on
# spot A) or a Jack (wild). That is 8 cards out of 52, so
#
# $$p = P(\text{complete on the first draw}) = \frac{8}{52} = \frac{2}{13} \approx 0.1538.$$
#
# We simulate many seeded games and watch the share of games that ended on the first draw. Here is one such game in
# the stepper:

# %%
import re
from fractions import Fraction

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.sim import fast_garbage, prob
from cardlab.sim.stats import Z95, wilson

one_spot = cardlab.Stepper("garbage", players=1, seed=2, layout_sizes=[1])
one_spot.next_move()
print(re.sub(r"<[^>]+>", "", one_spot.counter.value))
print("\n".join(one_spot.log_lines()))
display(one_spot)

# %% [markdown]
# ## 2. The running frequency
#
# `fast_garbage.play_fresh` plays many games at once with the same rules as the engine. `first[i]` is 1 if game
# `i` ended on its first draw. After $n$ games the frequency is $\hat p_n = (\text{first}_1 + \dots +
# \text{first}_n)/n$.

# %%
P = Fraction(2, 13)
N = 100_000
games = fast_garbage.play_fresh(N, np.random.default_rng(10), players=1, layout_sizes=[1])
first = (games.turns == 1).astype(float)
running = np.cumsum(first) / np.arange(1, N + 1)
for n in (10, 100, 1_000, 10_000, 100_000):
    est = wilson(float(first[:n].sum()), n)
    print(f"n = {n:>7}: frequency {running[n - 1]:.4f}, 95% interval [{est.low:.4f}, {est.high:.4f}], "
          f"error {running[n - 1] - float(P):+.4f}")
print(f"exact p = {P} = {float(P):.4f}")

# %%
shown = np.unique(np.geomspace(1, N, 300).astype(int))
bands = [wilson(float(first[:n].sum()), int(n)) for n in shown]
lln = go.FigureWidget(layout=go.Layout(
    title="Share of one-spot games completed on the first draw", width=700, height=380,
    xaxis={"title": "games simulated n", "type": "log"}, yaxis={"title": "frequency", "range": [0, 0.5]}))
lln.add_scatter(x=np.concatenate([shown, shown[::-1]]), y=[b.high for b in bands] + [b.low for b in bands][::-1],
                fill="toself", mode="lines", line={"width": 0}, fillcolor="rgba(31,119,180,0.2)", name="95% interval")
lln.add_scatter(x=shown, y=running[shown - 1], mode="lines", name="running frequency", line={"color": "#1f77b4"})
lln.add_scatter(x=[1, N], y=[float(P), float(P)], mode="lines", name="exact 2/13", line={"dash": "dash"})
display(lln)

# %% [markdown]
# The frequency jumps about for the first few dozen games — one game moves it a lot — and then settles on $2/13$.
# That is the **law of large numbers**: the frequency converges to the probability. It does *not* say that early
# "bad luck" gets compensated; the early games are simply outweighed by the many later ones.

# %% [markdown]
# ## 3. The interval shrinks like $1/\sqrt{n}$
#
# The standard deviation of $\hat p_n$ is $\sqrt{p(1-p)/n}$, so a 95% interval has a half-width of about
# $1.96\sqrt{p(1-p)/n}$. Multiply $n$ by 4 and the width halves; by 100 and it shrinks tenfold. So the half-width
# times $\sqrt n$ should stay near the constant $1.96\sqrt{p(1-p)}$, as the last column shows:

# %%
constant = Z95 * np.sqrt(float(P) * (1 - float(P)))
print(f"1.96 * sqrt(p(1-p)) = {constant:.4f}")
print("      n   half-width   half-width * sqrt(n)")
for n in (25, 100, 400, 1_600, 6_400, 25_600, 102_400):
    est = wilson(float(first[:min(n, N)].sum()), min(n, N)) if n <= N else None
    if est is None:
        extra = fast_garbage.play_fresh(n - N, np.random.default_rng(11), players=1, layout_sizes=[1])
        est = wilson(float(first.sum() + np.sum(extra.turns == 1)), n)
    print(f"{n:>7}   {est.half_width:.5f}      {est.half_width * np.sqrt(n):.4f}")

# %%
widths = go.FigureWidget(layout=go.Layout(
    title="Interval half-width against n (log-log): a line of slope -1/2", width=700, height=380,
    xaxis={"title": "games simulated n", "type": "log"}, yaxis={"title": "95% half-width", "type": "log"}))
widths.add_scatter(x=shown, y=[b.half_width for b in bands], mode="lines", name="Wilson interval half-width")
widths.add_scatter(x=shown, y=constant / np.sqrt(shown), mode="lines", name="1.96·sqrt(p(1-p)/n)",
                   line={"dash": "dash"})
display(widths)

# %% [markdown]
# ## 4. Does a 95% interval cover the truth 95% of the time?
#
# Repeat a whole experiment of $n$ games many times, each with its own seed, and count how often the interval
# contains $p$. The spread of the estimates shrinks like $1/\sqrt n$ as well: 16 times the games, a quarter the
# spread.

# %%
REPEATS = 1000
for n in (100, 1_600):
    out = fast_garbage.play_fresh(REPEATS * n, np.random.default_rng([10, n]), players=1, layout_sizes=[1])
    counts = (out.turns == 1).reshape(REPEATS, n).sum(axis=1)
    estimates = counts / n
    covered = np.mean([wilson(float(k), n).contains(float(P)) for k in counts])
    print(f"n = {n:>5}: estimates spread (sd) {estimates.std(ddof=1):.4f}; "
          f"theory {np.sqrt(float(P) * (1 - float(P)) / n):.4f}; intervals covering p: {covered:.1%}")

# %% [markdown]
# ## 5. The same law for an average
#
# The law of large numbers holds for averages too. The mean number of draws to complete one spot is exactly
# $53/9 \approx 5.889$ (notebook `12_expected_value_and_markov_chains` explains why); the running average of the
# same games settles on it, with an interval $\bar x \pm 1.96\,s/\sqrt n$.

# %%
draws = games.turns.astype(float)
for n in (10, 100, 1_000, 10_000, 100_000):
    half = Z95 * draws[:n].std(ddof=1) / np.sqrt(n)
    print(f"n = {n:>7}: mean draws {draws[:n].mean():.4f} ± {half:.4f}")
print(f"exact 53/9 = {53 / 9:.4f}")

# %% [markdown]
# ## 6. What this means for the stepper
#
# The stepper's P(win) chart uses a limited number of play-outs per move, so that it redraws at once
# (`stepper.rollouts` says how many). With $n$ play-outs the half-width is up to $1.96\sqrt{0.25/n}$: about 0.25 for
# 16 play-outs, 0.06 for 256. For a number you want to *trust*, ask for more play-outs:

# %%
position = cardlab.new_game("garbage", players=2, seed=3)
for rollouts in (16, 64, 256):
    est = prob.win_probability(position, None, rollouts=rollouts, rng=np.random.default_rng(rollouts))[0]
    print(f"{rollouts:>4} play-outs: seat 0 wins {est}; half-width {est.half_width:.3f}")

# %% [markdown]
# ## Exercises

# %% [markdown]
# **Exercise 1.** How many games do you need so that the 95% interval for $p = 2/13$ has a half-width of at most
# 0.005? Use $1.96\sqrt{p(1-p)/n} \le 0.005$, then check with a simulation of that many games.

# %% [solution]
needed = int(np.ceil((Z95 / 0.005) ** 2 * float(P) * (1 - float(P))))
check = fast_garbage.play_fresh(needed, np.random.default_rng(1), players=1, layout_sizes=[1])
est = wilson(float(np.sum(check.turns == 1)), needed)
print(f"n = {needed} games; simulated half-width {est.half_width:.5f}; "
      f"interval contains 2/13: {est.contains(float(P))}")

# %% [markdown]
# **Exercise 2.** The simple "normal" interval $\hat p \pm 1.96\sqrt{\hat p(1-\hat p)/n}$ is the one in most
# textbooks. For experiments of only $n = 20$ games, how often does it cover $p = 2/13$, compared with the Wilson
# interval cardlab uses? (Use 2000 repeated experiments.)

# %% [solution]
n, repeats = 20, 2000
out = fast_garbage.play_fresh(n * repeats, np.random.default_rng(20), players=1, layout_sizes=[1])
k = (out.turns == 1).reshape(repeats, n).sum(axis=1)
phat = k / n
normal_half = Z95 * np.sqrt(phat * (1 - phat) / n)
normal = np.mean((phat - normal_half <= float(P)) & (float(P) <= phat + normal_half))
wilson_cover = np.mean([wilson(float(x), n).contains(float(P)) for x in k])
print(f"n = 20: normal interval covers p in {normal:.1%} of experiments, Wilson in {wilson_cover:.1%}")

# %% [markdown]
# **Exercise 3.** After how many games does the running frequency in section 2 stay within 0.01 of $2/13$ for
# good (within these 100 000 games)?

# %% [solution]
outside = np.nonzero(np.abs(running - float(P)) > 0.01)[0]
settled = int(outside[-1]) + 2 if outside.size else 1
print(f"from game {settled} on, the running frequency stays within 0.01 of 2/13")
