# %% [markdown]
# # The law of large numbers: simulated frequencies settle on the exact answer
#
# **Learning goals**
#
# - **the idea:** a simulated frequency settles on the exact probability as independent games come in; a 95%
#   interval says how far off it may still be.
# - read a 95% interval; size a simulation.
#
# **Predict first.** Write down: (a) the chance that a one-spot solitaire is complete on its first draw; (b) after
# 100 simulated games, how far from that chance the frequency typically is; (c) how many games make a 95% interval
# for it only ±0.005 wide.

# %% [teacher]
# **Learning goals**
#
# - see a simulated frequency (an **estimate**) wander at first and then settle on the exact probability (the law
#   of large numbers), and say what that needs: independent games;
# - read a 95% interval *for a probability* (the Wilson interval), and see it shrink like $1/\sqrt{n}$;
# - see the **sampling distribution** of an estimate, and check that 95% intervals cover the truth about 95 times
#   in 100 (**coverage**);
# - work out how many simulated games a question needs before you start.
#
# **Lesson plan (50 minutes).** 5 min: predict. 4 min: section 1. 10 min: sections 2–3. 13 min: sections 4–5.
# 6 min: sections 6–8. 12 min: exercises (Exercise 1 is a calculation, 5 min; Exercise 2 comes with its loop
# written, the student fills in one line, 5 min; Exercise 3, 2 min). Section 9 (the exact coverage) is optional and
# not timed: for a class that is ahead, or as homework.

# %% [markdown]
# ## 1. A question with an exact answer
#
# Garbage (lesson 00) for one player with one spot, A: the first draw completes the layout if it is an Ace or a
# Jack (wild). Counting them gives $p$, the chance of completing on the first draw, exactly. Check prediction (a)
# below; the stepper shows one game (press **Next move**).

# %%
import re
from fractions import Fraction
from math import comb

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.chance.stats import Z95, wilson
from cardlab.course import lesson
from cardlab.sim import prob
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view

P = prob.garbage_next_card_placeable(cardlab.new_game("garbage", players=1, seed=0, layout_sizes=[1]))
print(f"p = {P} = {float(P):.4f}")
assert P == Fraction(4 + 4, 52)                  # the four Aces and the four wild Jacks
one_spot = cardlab.Stepper("garbage", players=1, seed=2, layout_sizes=[1], intervals=False)
display(one_spot)                          # at the deal: press Next move
its_copy = cardlab.Stepper("garbage", players=1, seed=2, layout_sizes=[1], intervals=False)   # not displayed
its_copy.next_move()
print(re.sub(r"<[^>]+>", "", its_copy.counter.value))
print("\n".join(its_copy.log_lines()))
after_a_miss = prob.garbage_next_card_placeable(its_copy.game)
print(f"after that miss, the next card can be used with chance {after_a_miss}")
assert after_a_miss == Fraction(8, 51)          # the same 8 useful cards, one card fewer in the deck

# %% [markdown]
# ## 2. The running frequency
#
# After $n$ games, the share of them that ended on the first draw (the
# frequency $\hat p_n$) is an **estimate** of $p$.
#
# **What the law needs, and says.** Each game is dealt from its own fresh shuffle, so the games are
# **independent**, each a hit with probability $p$. Then for every margin $\varepsilon > 0$,
# $P(|\hat p_n - p| > \varepsilon) \to 0$ as $n \to \infty$: the **law of large numbers**. It does not say that
# the error shrinks steadily.
#
# Each row has a **95% interval for $p$** (Wilson's): a range computed from the games, made so that such intervals
# cover $p$ in about 95 of 100 runs. The rows come from *one* growing run, so one unlucky early
# stretch can make several rows miss together.

# %%
N = 100_000
games = cardlab.simulate("garbage", players=1, games=N, seed=10, layout_sizes=[1], progress=False)
first = (games.turns == 1).astype(float)
running = np.cumsum(first) / np.arange(1, N + 1)
misses = 0
for n in (10, 100, 1_000, 10_000, 100_000):
    est = wilson(float(first[:n].sum()), n)
    misses += not est.contains(float(P))
    print(f"n = {n:>7}: frequency {running[n - 1]:.4f}, 95% interval for p [{est.low:.4f}, {est.high:.4f}], "
          f"error {running[n - 1] - float(P):+.4f}, contains 2/13: {est.contains(float(P))}")
print(f"exact p = {P} = {float(P):.4f}; rows whose interval misses 2/13: {misses} of 5")
# the final error is within what chance allows (4 standard errors would point to a real fault)
assert abs(running[-1] - float(P)) < 4 * np.sqrt(float(P) * (1 - float(P)) / N)

# %%
shown = np.unique(np.geomspace(1, N, 300).astype(int))
bands = [wilson(float(first[:n].sum()), int(n)) for n in shown]
for row in convergence_rows(first, [10, 1_000, N]):
    print("running frequency,", row)
display(figure_view(convergence_figure(first, truth=P, title="Share of one-spot games completed on the first draw",
                                       label="frequency", x_title="games simulated n")))

# %% [markdown]
# The frequency jumps about at first, then its error shrinks. A row with
# `contains 2/13: False` is no contradiction: a 95% interval may miss one time in twenty. Early "bad luck" is not
# made up for (the gambler's fallacy); the many later games outweigh it.
#
# ## 3. Many runs at once
#
# Below are 20 independent runs of 5000 games. The typical distance between $\hat p_n$ and
# $p$ is called the **standard error** of $\hat p_n$: $\sqrt{p(1-p)/n}$. At any $n$, about 95% of the runs should
# lie within 1.96 standard errors of $p$ (the dotted band; section 5 shows why).

# %%
PATHS, LENGTH = 20, 5000
many = cardlab.simulate("garbage", players=1, games=PATHS * LENGTH, seed=30, layout_sizes=[1], progress=False)
hits = (many.turns == 1).reshape(PATHS, LENGTH).astype(float)
paths = np.cumsum(hits, axis=1) / np.arange(1, LENGTH + 1)
steps = np.unique(np.geomspace(1, LENGTH, 150).astype(int))
band = Z95 * np.sqrt(float(P) * (1 - float(P)) / steps)
fan = go.Figure(layout=go.Layout(
    title=f"{PATHS} independent runs of the running frequency", width=700, height=380,
    xaxis={"title": "games simulated n", "type": "log"}, yaxis={"title": "frequency", "range": [0, 0.6]}))
for i in range(PATHS):
    fan.add_scatter(x=steps, y=paths[i, steps - 1], mode="lines", line={"width": 1}, opacity=0.6,
                    showlegend=i == 0, name="one run")
fan.add_scatter(x=steps, y=float(P) + band, mode="lines", line={"dash": "dot", "color": "black"},
                name="p ± 1.96·sqrt(p(1-p)/n)")
fan.add_scatter(x=steps, y=float(P) - band, mode="lines", line={"dash": "dot", "color": "black"}, showlegend=False)
display(figure_view(fan))
for n in (100, 1000, 5000):
    far = np.abs(paths[:, n - 1] - float(P))
    inside = int(np.sum(far <= Z95 * np.sqrt(float(P) * (1 - float(P)) / n)))
    print(f"n = {n:>4}: runs inside the band {inside} of {PATHS}; largest error {far.max():.4f}")
assert np.abs(paths[:, LENGTH - 1] - float(P)).max() < np.abs(paths[:, 99] - float(P)).max()

# %% [markdown]
# About 19 of 20 runs should be inside the band at each $n$ (17 to 20 is ordinary), and the largest error shrinks
# as $n$ grows. The law describes the *spread* of the runs, not any one run.

# %% [markdown]
# ## 4. The interval shrinks like $1/\sqrt{n}$
#
# A 95% interval reaches about 1.96 standard errors either side: a half-width of $1.96\sqrt{p(1-p)/n}$. Multiply
# $n$ by 4 and the width halves; by 100 and it shrinks tenfold. So the half-width times $\sqrt n$ should stay near
# $1.96\sqrt{p(1-p)}$, as the last column shows:

# %%
constant = Z95 * np.sqrt(float(P) * (1 - float(P)))
print(f"1.96 * sqrt(p(1-p)) = {constant:.4f}")
print("      n   half-width   half-width * sqrt(n)")
for n in (25, 100, 400, 1_600, 6_400, 25_600, 102_400):
    est = wilson(float(first[:min(n, N)].sum()), min(n, N)) if n <= N else None
    if est is None:
        extra = cardlab.simulate("garbage", players=1, games=n - N, seed=11, layout_sizes=[1], progress=False)
        est = wilson(float(first.sum() + np.sum(extra.turns == 1)), n)
    print(f"{n:>7}   {est.half_width:.5f}      {est.half_width * np.sqrt(n):.4f}")

# %%
widths = go.Figure(layout=go.Layout(
    title="Interval half-width against n (log-log): a line of slope -1/2", width=700, height=380,
    xaxis={"title": "games simulated n", "type": "log"}, yaxis={"title": "95% half-width", "type": "log"}))
widths.add_scatter(x=shown, y=[b.half_width for b in bands], mode="lines", name="Wilson interval half-width")
widths.add_scatter(x=shown, y=constant / np.sqrt(shown), mode="lines", name="1.96·sqrt(p(1-p)/n)",
                   line={"dash": "dash"})
display(figure_view(widths))

# %% [markdown]
# ## 5. The sampling distribution of the estimate
#
# Repeat a whole experiment of $n$ games many times: each gives one estimate $\hat p$. Their histogram is the
# **sampling distribution** of $\hat p$: centred on $p$, its spread (typical distance from $p$) one standard
# error, and by the **central limit theorem** close to a normal curve as $n$ grows. That is why ±1.96 standard
# errors covers the truth about 95% of the time. **Predict first:** out of 100 experiments' Wilson intervals, how
# many miss $p$?

# %%
REPEATS = 1000
sampled, counted_hits = {}, {}
for n in (100, 1_600):
    out = cardlab.simulate("garbage", players=1, games=REPEATS * n, seed=10_000 + n, layout_sizes=[1],
                           progress=False)
    counts = (out.turns == 1).reshape(REPEATS, n).sum(axis=1)
    estimates = counts / n
    covered = np.mean([wilson(float(k), n).contains(float(P)) for k in counts])
    theory = np.sqrt(float(P) * (1 - float(P)) / n)
    print(f"n = {n:>5}: estimates mean {estimates.mean():.4f} (p = {float(P):.4f}), spread (sd) "
          f"{estimates.std(ddof=1):.4f}, theory {theory:.4f}; intervals covering p: {covered:.1%}")
    sampled[n] = estimates
    counted_hits[n] = counts
    # 1000 experiments give the coverage to about ±1.4 points: below 91% would be a real fault
    assert covered > 0.91 and abs(estimates.std(ddof=1) / theory - 1) < 0.15

# %%
clt = go.Figure(layout=go.Layout(
    title="Sampling distribution of the estimate (1000 experiments each) and the normal curve", width=700,
    height=380, xaxis={"title": "estimate p̂"}, yaxis={"title": "density"}, barmode="overlay"))
for n, colour in ((100, "#1f77b4"), (1_600, "#d62728")):
    clt.add_histogram(x=sampled[n], histnorm="probability density", opacity=0.5, name=f"n = {n}",
                      marker={"color": colour}, xbins={"size": 0.01 if n == 100 else 0.004})
    sd = np.sqrt(float(P) * (1 - float(P)) / n)
    xs = np.linspace(float(P) - 4 * sd, float(P) + 4 * sd, 200)
    clt.add_scatter(x=xs, y=np.exp(-0.5 * ((xs - float(P)) / sd) ** 2) / (sd * np.sqrt(2 * np.pi)), mode="lines",
                    line={"color": colour}, name=f"normal curve, n = {n}")
display(figure_view(clt))

# %% [markdown]
# At $n = 100$ the histogram is lumpy and skewed ($p$ is near 0); at $n = 1600$ it is close to the normal curve,
# and four times narrower.

# %% [markdown]
# **Seeing coverage.** The first 100 experiments of $n = 100$ games, each drawn as its 95% interval, with the true
# $p$ dashed. Count the red ones (misses) against your prediction; the cell counts nine more batches too.

# %%
hits100 = counted_hits[100]
bounds = [wilson(float(k), 100) for k in hits100]
miss = np.array([not b.contains(float(P)) for b in bounds])
coverage_fig = go.Figure(layout=go.Layout(
    title="100 experiments of 100 games: each line is one 95% interval (red: misses p)", width=700, height=480,
    xaxis={"title": "p", "range": [0, 0.35]}, yaxis={"title": "experiment"}, showlegend=False))
for i, b in enumerate(bounds[:100]):
    coverage_fig.add_scatter(x=[b.low, b.high], y=[i, i], mode="lines",
                             line={"color": "#d62728" if miss[i] else "#1f77b4", "width": 2})
coverage_fig.add_scatter(x=[float(P), float(P)], y=[-1, 100], mode="lines", line={"dash": "dash", "color": "black"})
display(figure_view(coverage_fig))
batches = miss.reshape(10, 100).sum(axis=1)
print(f"misses in the first batch of 100 intervals: {batches[0]}")
print(f"misses in each of the 10 batches: {batches.tolist()}; in all 1000: {int(miss.sum())}")
spread = np.sqrt(100 * 0.05 * 0.95)
print(f"a method that covers exactly 95% would give 5 misses per batch on average, give or take {spread:.1f}")
assert abs(batches.mean() - 5) < 4 * spread / np.sqrt(10)  # a coverage far from 95% would break this

# %% [markdown]
# "95%" describes how often the method succeeds over many uses: read many intervals and expect some to miss.

# %% [markdown]
# ## 6. The same law for an average
#
# The mean number of draws to complete one spot is exactly $53/9 \approx 5.889$ (lesson 12); the running average
# $\bar x$ settles on it. Its standard error is $s/\sqrt n$, where $s$ (the standard deviation) is the typical
# distance of one game's draws from their mean. The interval $\bar x \pm 1.96\,s/\sqrt n$ rests on the normal
# curve; the draws are skewed, so we start at $n = 100$.

# %%
draws = games.turns.astype(float)
mean_misses = 0
for n in (100, 1_000, 10_000, 100_000):
    half = Z95 * draws[:n].std(ddof=1) / np.sqrt(n)
    inside = abs(draws[:n].mean() - 53 / 9) <= half
    mean_misses += not inside
    print(f"n = {n:>7}: mean draws {draws[:n].mean():.4f} ± {half:.4f}, contains 53/9: {inside}")
print(f"exact 53/9 = {53 / 9:.4f}; rows that miss: {mean_misses} of 4 (each may miss one time in twenty)")
assert abs(draws.mean() - 53 / 9) < 4 * draws.std(ddof=1) / np.sqrt(N)

# %% [markdown]
# ## 7. What this means for the stepper
#
# From now on the stepper draws each estimate with its 95% interval (hidden until now). With $n$ play-outs the
# half-width is at most about $1.96\sqrt{0.25/n}$: 0.25 for 16, 0.06 for 256.

# %%
position = cardlab.new_game("garbage", players=2, seed=3)
for rollouts in (16, 64, 256):
    est = prob.win_probability(position, None, rollouts=rollouts, rng=np.random.default_rng(rollouts))[0]
    print(f"{rollouts:>4} play-outs: seat 0 wins {est}; half-width {est.half_width:.3f}")

# %% [markdown]
# ## 8. Misconceptions to discuss
#
# - *"After many misses, a hit is due."* No: the games are independent (fresh shuffles). Within *one* deck, each
#   card seen does change the next (section 1: 8/51 after a miss; lesson 02).
# - *"This interval contains $p$ with probability 95%."* Once computed, it does or does not. *Before* the games,
#   the method's chance of covering $p$ is *about* 95% (section 9).

# %% [teacher]
# More misconceptions: *"An interval that misses means the simulation is wrong."* One miss in twenty is what a 95%
# interval allows; misses much more frequent than that are suspect. *"The textbook interval is fine."* At small
# $n$, or $p$ near 0 or 1, check its coverage (exercise 2).

# %% [teacher]
# **Teacher's note.** The strong law, $P(\hat p_n \to p) = 1$ (almost every infinite run converges), is the other
# half of the story; section 2 states only the weak law. At $n = 10$ an interval is so wide, and a count out of 10 so
# coarse, that it is only a rough guide; the Wilson interval covers $p$ about as often as it promises even for small
# samples, where the textbook normal interval does not (exercise 2 compares them at $n = 20$, where the exact
# coverages are computable from the binomial law). The coverage cell checks the ten batches' average number of misses
# against 5 within four standard errors, and the 1000-experiment coverage above 91%.

# %% [markdown]
# ## 9. Going further (optional): the exact coverage
#
# Add up the chances $\binom{n}{k}p^k(1-p)^{n-k}$ (the binomial law) of the counts $k$ whose Wilson interval
# contains $p$: its exact coverage is only *about* 95%.

# %%
def wilson_coverage(n):
    """The exact chance that Wilson's 95% interval from n games contains p: a sum over the binomial law."""
    q = float(P)
    return sum(comb(n, k) * q ** k * (1 - q) ** (n - k) for k in range(n + 1) if wilson(float(k), n).contains(q))


for n in (20, 100, 1_000):
    print(f"n = {n:>5}: Wilson's 95% interval contains p = 2/13 with probability {wilson_coverage(n):.4f}")
assert round(wilson_coverage(20), 3) == 0.975 and round(wilson_coverage(100), 3) == 0.949    # teaching.md's numbers

# %% [markdown]
# ## Exercises
#
# Type each answer in its box and press **Check**.

# %% [markdown]
# **Exercise 1.** At least how many games make the 95% interval for $p = 2/13$ reach at most 0.005 either side?
# Solve $1.96\sqrt{p(1-p)/n} \le 0.005$ with $p = 2/13$ exactly. Type a whole number.

# %% [check]
exercise_1 = lesson("01").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "1234"
exercise_1.check(answer_1)

# %% [solution]
needed = int(np.ceil((1.96 / 0.005) ** 2 * float(P) * (1 - float(P))))
sim = cardlab.simulate("garbage", players=1, games=needed, seed=1, layout_sizes=[1], progress=False)
est = wilson(float(np.sum(sim.turns == 1)), needed)
print(f"n = {needed} games; simulated half-width {est.half_width:.5f}; "
      f"interval contains 2/13: {est.contains(float(P))}")
assert est.half_width <= 0.0051
print(exercise_1.check(str(needed)))
with_z95 = int(np.ceil((Z95 / 0.005) ** 2 * float(P) * (1 - float(P))))   # z = 1.95996... instead of 1.96
print(f"with z = {Z95:.5f} ({with_z95}):", exercise_1.check(str(with_z95)))
assert exercise_1.check(str(with_z95)).is_right
rounded = int(np.ceil((1.96 / 0.005) ** 2 * 0.1538 * (1 - 0.1538)))   # the slip: p rounded to 0.1538
print(f"with p rounded to 0.1538 ({rounded}):", exercise_1.check(str(rounded)))
assert rounded < needed and not exercise_1.check(str(rounded)).is_right
forgot = int(np.ceil(float(P) * (1 - float(P)) / 0.005 ** 2))          # without the 1.96
print(f"without the 1.96 ({forgot}):", exercise_1.check(str(forgot)))
assert exercise_1.check(str(needed)).is_right and exercise_1.check(str(forgot)).status == "not yet"
answer_1 = str(needed)   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** Most textbooks use the "normal" interval $\hat p \pm 1.96\sqrt{\hat p(1-\hat p)/n}$. For
# experiments of $n = 20$ games, how often does it cover $p = 2/13$? The cell below simulates 2000 experiments:
# fill in the half-width, run it, and compare with Wilson's.

# %% [check]
exercise_2 = lesson("01").exercise(2)
display(exercise_2)

# %%
n, repeats = 20, 2000
out = cardlab.simulate("garbage", players=1, games=n * repeats, seed=20, layout_sizes=[1], progress=False)
k = (out.turns == 1).reshape(repeats, n).sum(axis=1)    # hits in each experiment of 20 games
phat = k / n                                            # each experiment's estimate
half = 0 * phat      # replace 0 * phat: the normal interval's half-width, 1.96 * np.sqrt(...), one per experiment
if not np.any(half):
    print("fill in the half-width (the line 'half = ...'), then run this cell again")
else:
    normal_covers = np.abs(phat - float(P)) <= half
    wilson_covers = [wilson(float(x), n).contains(float(P)) for x in k]
    print(f"normal interval covers p in {np.mean(normal_covers):.3f} of the experiments, "
          f"Wilson's in {np.mean(wilson_covers):.3f}")

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
normal_half = Z95 * np.sqrt(phat * (1 - phat) / n)          # the line to fill in, with the cell above's phat
normal = np.mean((phat - normal_half <= float(P)) & (float(P) <= phat + normal_half))
wilson_cover = np.mean([wilson(float(x), n).contains(float(P)) for x in k])
print(f"n = 20: normal interval covers p in {normal:.1%} of experiments, Wilson in {wilson_cover:.1%}")
# 2000 experiments give each coverage to about ±1 point: the normal interval is clearly worse here
assert normal < 0.9 and wilson_cover > normal + 0.03
print(exercise_2.check(f"{normal:.3f}"))
print("the promised 95%:", exercise_2.check("95%"))
assert exercise_2.check(f"{normal:.3f}").is_right and exercise_2.check("95%").status == "not yet"
answer_2 = f"{normal:.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3.** A report shows 20 independent 95% intervals. What is the chance that at least one misses its true
# value? Compare with section 5's misses.

# %% [check]
exercise_3 = lesson("01").exercise(3)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_3.check(answer_3)

# %% [solution]
exact = 1 - 0.95 ** 20
groups = miss.reshape(50, 20)                                  # section 5's 1000 Wilson intervals, 20 at a time
print(f"1 - 0.95^20 = {exact:.4f}; bound 20 × 5% = 100% (useless here); "
      f"groups of 20 of section 5's intervals with a miss: {int(groups.any(axis=1).sum())} of 50")
print(exercise_3.check(f"{exact:.3f}"))
print("one in twenty (0.05):", exercise_3.check("0.05"))
assert exercise_3.check(f"{exact:.3f}").is_right and exercise_3.check("0.05").status == "not yet"
answer_3 = f"{exact:.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS
