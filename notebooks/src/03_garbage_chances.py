# %% [markdown]
# # Garbage, part 2: its chances
#
# **Learning goals**
#
# - **the idea:** a count or an estimate is checked against real outcomes with an interval, which can miss: one
#   of many will.
# - test counts on real deals.
#
# **Predict first.** Seat 0 may play with fewer than 10 spots against a full opponent. Which number would you
# choose? Would 7 spots be better or worse for seat 0 than 10? Write your guess down.
#
# This lesson uses the rules of `02_garbage_play` and the intervals of `01_law_of_large_numbers`.

# %% [teacher]
# **Learning goals**
#
# - check an exact count against real deals, and watch the share of real outcomes settle on it;
# - estimate the chances that need the whole future of a game: winning, and winning within k turns;
# - use a simulation to answer a design question: is a smaller layout a handicap?
# - read intervals honestly: what a 95% interval for a probability covers, how often one of many misses, and why
#   "the interval contains 0.5" does not show that a game is fair.
#
# **Lesson plan (50 minutes).** 5 min: predict (below). 9 min: exact counts and real deals, and the power of the
# check (section 1). 8 min: who wins (section 2). 8 min: layout sizes, and intervals at other levels (section 3).
# 4 min: an interval can miss (section 4). 16 min: exercises (1, 10 min: a level, then ten intervals in code; 2
# and 3, 3 min each).

# %%
import math
from statistics import NormalDist

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.chance.stats import Z95, wilson
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view


def greedy_game(seed, moves):
    """A shuffled two-player game after `moves` moves of greedy bots (fewer if it ends sooner)."""
    g = cardlab.new_game("garbage", players=2, seed=seed)
    bot = make_policy("greedy", "garbage", np.random.default_rng(0))
    while g.move_count < moves and not g.is_over:
        g.play(choose(bot, g))
    return g

# %% [markdown]
# ## 1. Exact counts against real deals
#
# Lesson 02 counted the exact chance that the next player to draw can use the next stock card: (unseen cards that
# player can use) / (all unseen cards). It assumes that every unseen card is equally likely to be on top of the
# stock. Is that so in real games?
#
# Take 2,000 shuffled deals (seeds 0 to 1,999), played by greedy bots for ten moves (games that end sooner drop
# out). In each, count the exact chance, and look at the real top card of the stock: usable (1) or not (0). If the
# count is right, the share of usable top cards matches the average exact chance. The chart shows the running
# share with its 95% band, and the average exact chance dashed.

# %%
PACK = cardlab.new_game("garbage", players=2, seed=0).hidden_cards()   # at the deal every card is unseen
exact, real, careless = [], [], []
for s in range(2000):
    g = greedy_game(s, 10)
    if g.is_over:          # a few games end within ten moves
        continue
    seat = prob.garbage_next_drawer(g)
    exact.append(float(prob.garbage_next_card_placeable(g)))
    real.append(int(g.can_use(seat, g.state.stock[-1])))               # the real top card of the stock
    careless.append(sum(g.can_use(seat, card) for card in PACK) / 52)  # a count that forgets the seen cards
exact, real, careless = np.array(exact), np.array(real), np.array(careless)
display(figure_view(convergence_figure(real, truth=float(exact.mean()), title="Is the real top stock card usable?",
                                       label="usable top card", x_title="real games")))
for row in convergence_rows(real, [10, 100, 1000, len(real)]):
    print(f"after {row.n:>4} games: {row.value:.3f} [{row.low:.3f}, {row.high:.3f}]")
print(f"{len(real)} of 2000 games still running at move 10 (used below); average exact chance {exact.mean():.4f}")
gaps = {}
for name, chance in (("exact count", exact), ("count over a full pack", careless)):
    diff = real - chance                       # each game against its own chance: a paired comparison
    se = diff.std(ddof=1) / np.sqrt(len(diff))
    gaps[name] = diff.mean() / se
    print(f"real minus {name}: {diff.mean():+.4f} per game, 95% interval [{diff.mean() - Z95 * se:+.4f}, "
          f"{diff.mean() + Z95 * se:+.4f}]; gap {gaps[name]:+.2f} standard errors")
se_exact = (real - exact).std(ddof=1) / np.sqrt(len(real))
# NormalDist().cdf(x): the normal curve's share below x; the gap lands beyond 1.96 on either side
power = NormalDist().cdf(0.04 / se_exact - Z95) + NormalDist().cdf(-0.04 / se_exact - Z95)
print(f"an average error of 4 points would put the gap {0.04 / se_exact:.1f} standard errors out, on average; "
      f"it passes 1.96 with chance {power:.2f}")

# %% [markdown]
# The share settles near the dashed line. Each game's real top card is compared with *that game's* exact chance (a
# paired comparison); the average difference, real minus exact, gets a 95% interval (an average's, lesson 01). For
# the exact count it contains 0: these games show no disagreement. A careless count over a full pack of 52,
# forgetting the cards already seen, is off by more than four standard errors.
#
# Would the check have seen a real error? If the count were off by 4 points on average, the gap would sit about
# 3.5 standard errors out; the normal curve (lesson 01) puts it beyond 1.96 with chance about 0.94, the check's
# **power** (`NormalDist().cdf` gives such chances). A smaller error might not show.
#
# When a count is right, a gap of two standard errors still happens about one run in 20 (weak evidence); a gap of
# four, about once in 16,000 (strong evidence).

# %%
assert abs(gaps["exact count"]) < Z95 and gaps["count over a full pack"] > 4   # the text above, checked
assert 3.3 < 0.04 / se_exact < 3.7 and 0.92 < power < 0.96

# %% [markdown]
# ## 2. Who wins, and how soon?
#
# Who wins needs the whole future of the hand, so it is estimated: deal the unseen cards again at random, play on
# with greedy bots, and count. The same kind of play-outs count how often each seat completes its layout **within
# its next k turns** (one set for both seats). The position is lesson 02's section 5 (the cell checks that the
# moves are the same). **Predict:** as k grows, do seat 0's numbers grow towards 1?

# %%
game = greedy_game(4, 10)
ten = cardlab.Stepper("garbage", players=2, seed=4)   # lesson 02's section 5
for _ in range(10):
    ten.next_move()
assert ten.game.moves == game.moves                   # the same ten moves, so the same position
ten.close()
KS = (1, 2, 3, 5, 8)
curves = prob.completion_curves(game, KS, rollouts=2000, rng=np.random.default_rng(12))
wins = prob.win_probability(game, None, rollouts=2000, rng=np.random.default_rng(13))
for s, curve in enumerate(curves):
    print(f"seat {s}: " + "  ".join(f"k={k}: {e.value:.3f} [{e.low:.3f}, {e.high:.3f}]"
                                    for k, e in zip(KS, curve, strict=True)))
    print(f"        wins the hand: {wins[s]}")

# %% [markdown]
# The hand ends as soon as one seat completes, so a seat "completes within k" only if it completes first. Compare
# seat 0's k = 8 number with seat 0's chance to win the hand (separate play-outs: noise can flip their order when
# they are close). Why can the two seats' numbers for one k never add up to more than 1?

# %%
assert all([e.value for e in curve] == sorted(e.value for e in curve) for curve in curves)
assert sum(curve[-1].value for curve in curves) <= 1

# %% [markdown]
# ## 3. Layout sizes: a handicap?
#
# Fewer spots need fewer cards: is a smaller layout an advantage? Simulate 20 000 greedy games for each size 1–10
# of seat 0's layout, against 10 spots for seat 1. Each line is seat 0's share of wins with a 95% interval. Check
# your prediction.

# %%
SIZE_GAMES = 20_000
rates = {}
for size in range(1, 11):
    out = cardlab.simulate("garbage", players=2, games=SIZE_GAMES, seed=202_400 + size, layout_sizes=[size, 10],
                           progress=False)
    rates[size] = (int(np.sum(out.winners == 0)), out.winners.size)
    print(f"seat 0 with {size:>2} spots, seat 1 with 10: seat 0 wins {wilson(*rates[size])}")
est = {size: wilson(*counts) for size, counts in rates.items()}
lowest = min(range(1, 11), key=lambda size: est[size].value)
sizes_chart = go.Figure(layout=go.Layout(
    title="Seat 0's chance to win against 10 spots, by seat 0's layout size", width=640, height=360,
    xaxis={"title": "seat 0's spots", "dtick": 1}, yaxis={"title": "P(seat 0 wins), 95% interval"}))
sizes_chart.add_scatter(x=list(est), y=[e.value for e in est.values()], mode="markers+lines",
                        error_y={"type": "data", "symmetric": False,
                                 "array": [e.high - e.value for e in est.values()],
                                 "arrayminus": [e.value - e.low for e in est.values()]}, name="seat 0")
sizes_chart.add_scatter(x=[1, 10], y=[0.5, 0.5], mode="lines", line={"dash": "dash"}, name="1/2")
display(figure_view(sizes_chart))
middle_worse = [size for size in range(3, 10) if est[size].high < est[10].low]
print(f"lowest estimate at {lowest} spots; sizes whose whole interval is below the 10-spot one: {middle_worse}")

# %% [markdown]
# Describe the shape of the curve. Which sizes do *worse* than a full layout of 10 (seven comparisons at once, so
# one of them could mislead: see exercise 1), and what does that say about your prediction? With fewer spots
# fewer cards are useful; how could that make a middle size slow?

# %%
# the chart, checked: one spot wins about three games in four, more than 10 spots do; 10 spots win more than half;
# sizes 5 to 8 each have their whole interval below the 10-spot one
assert est[1].low > est[10].high and 0.7 < est[1].value < 0.8 and est[10].low > 0.5
assert {5, 6, 7, 8} <= set(middle_worse)

# %% [markdown]
# **Other levels.** `wilson(wins, games, z=...)` makes an interval at any level $L$: $z$ is 1.96 for 95%, and in
# general `NormalDist().inv_cdf(1 - (1 - L) / 2)`. A higher level gives a wider interval:

# %%
for level in (0.95, 0.99):
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    print(f"seat 0 with 10 spots, {level:.0%} interval (z = {z:.3f}): {wilson(*rates[10], z=z)}")
assert abs(NormalDist().inv_cdf(0.975) - Z95) < 1e-3
assert wilson(*rates[10], z=NormalDist().inv_cdf(0.995)).half_width > est[10].half_width

# %% [teacher]
# The curve is U-shaped: very few spots are a huge gift (one spot wins about three games in four), and with 10
# spots each the first player has an edge (seat 0 draws first). In between, the win rate dips below the 10-spot
# value: with fewer spots fewer cards are useful, so the chains of forced placements are shorter. Neighbours of
# the lowest estimate are within the noise of it, so "the lowest size" is not sharply determined. In a match, a
# hand's winner is "rewarded" with a smaller layout, which for the middle sizes is a penalty.

# %% [markdown]
# ## 4. An interval can miss
#
# A 95% interval covers the true probability in about 95 runs of 100. Here the 10-against-10 game is measured 100
# times, 1,000 games each, and once with 400,000 games: a reference so precise that we treat it as the truth to two
# decimals. **Predict:** could none of the 100 intervals miss it? Could 10?

# %%
RUNS, RUN_GAMES = 100, 1000
many = cardlab.simulate("garbage", players=2, games=RUNS * RUN_GAMES, seed=2024, layout_sizes=[10, 10],
                        progress=False)
runs = [wilson(float(np.sum(block == 0)), RUN_GAMES) for block in many.winners.reshape(RUNS, RUN_GAMES)]
big = cardlab.simulate("garbage", players=2, games=400_000, seed=7, layout_sizes=[10, 10], progress=False)
reference = wilson(float(np.sum(big.winners == 0)), big.winners.size)
print(f"400 000 games: seat 0 wins {reference}")
missed = [i for i, run in enumerate(runs) if not run.contains(reference.value)]
print(f"{len(missed)} of {RUNS} intervals from {RUN_GAMES} games miss the reference value {reference.value:.3f}")
for i in missed[:3]:
    print(f"  run {i}: seat 0 wins {runs[i]}")

# %% [markdown]
# Each miss is an ordinary run, not a fault: about 5 of 100 are expected, and the number varies from one set of
# 100 runs to the next (none at all: about 1 chance in 170; 10 or more: about 1 in 35). This lesson prints dozens
# of intervals, so a miss or two somewhere is expected too. The reference's interval is about 20 times narrower
# (400 times the games).

# %%
# the text above, checked: the chance of k misses of 100 when each interval misses 5% of the time
miss_chance = [math.comb(RUNS, k) * 0.05 ** k * 0.95 ** (RUNS - k) for k in range(RUNS + 1)]
assert round(1 / miss_chance[0], -1) == 170 and round(1 / sum(miss_chance[10:])) == 35
assert 1 <= len(missed) <= 12       # more than 12 misses: about 1 chance in 700 (sum(miss_chance[13:]))
assert reference.half_width < runs[0].half_width / 15    # 400 times the games: about a 20th of the width

# %% [teacher]
# **Misconceptions to discuss** (lesson 12 computes exactly how many draws each layout size takes)
#
# - *"Fewer spots is always a gift."* Look again at the chart of section 3.
# - *"The interval missed the true value, so something is broken."* See sections 1 and 4.
# - *"Winning within k turns should reach 1 as k grows."* Compare with the chance to win (section 2).
# - *"Seat 0's interval contains 0.5, so the game is fair."* A wide interval contains 0.5 easily: it only says that
#   the data cannot rule fairness out (exercise 1).

# %% [markdown]
# ## Exercises
#
# Type your answer in the box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** A teacher wants a fair handicap: a size for seat 0 against 10 spots where each seat wins about
# half the time. To *show* a size fair to within 2 points, its whole interval must lie inside [0.48, 0.52]; and
# with ten sizes tested at once, all ten intervals must hold together in at least 95 runs of 100 (share the 5%
# equally among the ten). At what level must each interval be made? Then (not checked) make the ten intervals at
# that level from section 3's `rates` and list the sizes shown fair.

# %% [check]
exercise_1 = lesson("03").exercise(1, intervals=len(rates))
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
level = 1 - 0.05 / len(rates)
z_all = NormalDist().inv_cdf(1 - (1 - level) / 2)
print(f"each interval at {level:.1%} (z = {z_all:.3f})")
fair_within = []
for size, counts in rates.items():
    both = wilson(*counts, z=z_all)
    inside = 0.48 <= both.low and both.high <= 0.52
    if inside:
        fair_within.append(size)
    print(f"{size:>2} spots: simultaneous interval [{both.low:.3f}, {both.high:.3f}]; inside [0.48, 0.52]: {inside}")
print(f"shown fair to within 2 points (all ten intervals at once): {fair_within}")
print(exercise_1.check(f"{level:.1%}"))
assert exercise_1.check(f"{level:.1%}").is_right
print("each at 95% (0.95):", exercise_1.check("0.95"))
assert exercise_1.check("0.95").status == "not yet"
answer_1 = f"{level:.1%}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [teacher]
# An interval that contains 0.5 only says the data cannot rule fairness out. To *show* fairness, fix a margin you
# would accept and check that the whole interval lies inside it (an equivalence test). With ten sizes at once,
# intervals that hold for all ten together (Bonferroni: each at 1 − 0.05/10) keep the chance that any of them
# misleads at 5% or less; ten separate 95% intervals do not. The solution makes the ten intervals at 99.5% (z from
# `NormalDist().inv_cdf`, as section 3 shows) and lists the sizes shown fair. The check takes 99.5% (Šidák's
# 1 − 0.95^(1/10) ≈ 99.49%, which does not share the 5% equally and holds for independent intervals only, is
# "close") and judges closeness on the miss rate: 99% misses twice as often as allowed and is "not yet".
#
# **Exercises 2 and 3.** Exercise 2 shows that sharing out the 5% is safe: ten independent intervals at 99.5% miss
# together with chance 1 − 0.995¹⁰ ≈ 0.0489, just under 5% (typing 0.05 gets "close"); ten 95% intervals would miss
# with chance 0.401. Exercise 3 uses section 1's power: 2 points must sit as many standard errors out as 4 points
# do, so the standard error must halve, which takes four times the games (about 7,000; doubling is "not yet").

# %% [markdown]
# **Exercise 2.** Suppose the ten intervals of Exercise 1, each at the level you found, came from ten
# *independent* experiments. What is the chance that at least one of the ten misses? Compare it with the 5% that
# Exercise 1 shared out.

# %% [check]
exercise_2 = lesson("03").exercise(2, intervals=len(rates))
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
k = len(rates)
each = 1 - 0.05 / k                       # Exercise 1's level
all_cover = each ** k                     # independent: multiply
print(f"all {k} cover: {each}^{k} = {all_cover:.4f}; at least one misses: {1 - all_cover:.4f}")
print("the 5% shared out is the most it can be, whatever the intervals share; independent ones stay just below")
print(exercise_2.check(f"{1 - all_cover:.4f}"))
assert exercise_2.check(f"{1 - all_cover:.4f}").is_right and 1 - all_cover < 0.05
print("the 5% itself (0.05):", exercise_2.check("0.05"))
print(f"ten 95% intervals instead ({1 - 0.95 ** k:.3f}):", exercise_2.check(f"{1 - 0.95 ** k:.3f}"))
assert exercise_2.check("0.05").status == "close" and exercise_2.check(f"{1 - 0.95 ** k:.3f}").status == "not yet"
answer_2 = f"{1 - all_cover:.4f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3.** Section 1's check notices an average error of 4 points in about 94 runs of 100. About how many
# games like the ones it used would it need to notice an error of **2** points as often?

# %% [check]
exercise_3 = lesson("03").exercise(3, games=len(real))
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "3000"
exercise_3.check(answer_3)

# %% [solution]
# 2 points must sit as many standard errors out as 4 points do now: half the standard error, which shrinks like
# 1/sqrt(n), so four times the games
games_2 = 4 * len(real)
se_2 = (real - exact).std(ddof=1) / np.sqrt(games_2)      # the same spread per game, four times the games
power_2 = NormalDist().cdf(0.02 / se_2 - Z95) + NormalDist().cdf(-0.02 / se_2 - Z95)
print(f"4 × {len(real)} = {games_2} games: a 2-point error sits {0.02 / se_2:.1f} standard errors out, "
      f"noticed with chance {power_2:.2f}")
print(exercise_3.check(str(games_2)))
assert exercise_3.check(str(games_2)).is_right and abs(power_2 - power) < 1e-9
print(f"twice the games ({2 * len(real)}):", exercise_3.check(str(2 * len(real))))
assert exercise_3.check(str(2 * len(real))).status == "not yet"
answer_3 = str(games_2)   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS
