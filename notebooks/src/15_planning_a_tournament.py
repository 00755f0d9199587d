# %% [markdown]
# # Planning a tournament: how many deals, and which to trust
#
# **Learning goals**
#
# - **the idea:** plan a tournament *before* you play it: enough deals to detect the difference you care about
#   (its **power**), and fresh deals to judge the variant you picked;
# - compute a tournament's power; meet the winner's curse and the first seat's edge.
#
# **Predict first.** A bot really wins 53% of its games against greedy. How many games would tell it from a 50%
# bot: 100, 1,000 or 10,000? And if you keep the best-looking of four variants, will it do as well on new deals?
#
# This lesson uses the tournament of lesson `14_strategy_tournament`: the same deals from both seats, one score per
# deal, a paired interval.

# %% [teacher]
# **Learning goals:** the power of a tournament and the number of deals for a given power, with independent games
# and with the paired design (whose deal scores have variance about $\sigma^2(1+\rho)/2$); the common mistake of setting
# the half-width equal to the effect; the winner's curse (the best of several variants is biased upwards, so judge
# it on fresh deals); the first seat's edge, which only both seats cancel. Going further (outside the 50 minutes):
# peeking, the sign-flip test, many tests at once, the arenas.
#
# **Lesson plan (50 minutes).** 5 min: predict (above). 15 min: power and the number of deals (section 1). 10 min:
# the winner's curse (section 2). 5 min: why both seats (section 3). 15 min: exercises 1–3 (5 min each).
# "Going further" is optional, for a second session or for homework.

# %% [markdown]
# Lesson 14's `tournament` and `report` in one cell, with its check that a run deals the same games whatever plays
# them.

# %%
import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.chance.stats import Z95, wilson
from cardlab.course import lesson
from cardlab.policies import make_policy
from cardlab.viz.panels import figure_view

greedy = make_policy("greedy", "shithead", np.random.default_rng(0))
garbage_greedy = make_policy("greedy", "garbage", np.random.default_rng(0))


def eager_tens(view, legal_moves):
    """Lesson 14's policy: play a 10 as soon as one is legal; otherwise play like greedy."""
    for move in legal_moves:
        if move.kind == "play" and move.rank == 10:
            return move
    return greedy(view, legal_moves)


@dataclass
class Tournament:
    """Per deal i: did `policy` win the game where it sat in seat 0 (a[i]) and in seat 1 (b[i])?"""

    a: np.ndarray
    b: np.ndarray
    draws: int

    @property
    def deals(self):
        return self.a.size

    def scores(self):
        return (self.a + self.b) / 2

    def paired(self):
        """Win rate with a 95% interval from the per-deal scores (a + b) / 2: the paired analysis."""
        d = self.scores()
        return d.mean(), Z95 * d.std(ddof=1) / np.sqrt(d.size)

    def correlation(self):
        return float(np.corrcoef(self.a, self.b)[0, 1])


def tournament(policy, games=200, seed=1, name="shithead", **options):
    """`policy` against greedy over `games` deals, each played with `policy` in seat 0 and in seat 1."""
    if name == "shithead":
        options.setdefault("max_turns", 500)      # a game that goes on for ever (a silly policy) ends as a draw
    first = cardlab.simulate(name, players=2, games=games, seed=seed, policy=[policy, "greedy"], progress=False,
                             **options)
    second = cardlab.simulate(name, players=2, games=games, seed=seed, policy=["greedy", policy], progress=False,
                              **options)
    return Tournament((first.winners == 0).astype(float), (second.winners == 1).astype(float),
                      first.draws + second.draws)


def report(label, t):
    mean, half = t.paired()
    print(f"{label:>18}: wins {mean:.3f}, paired 95% interval [{mean - half:.3f}, {mean + half:.3f}] "
          f"over {t.deals} deals ({2 * t.deals} games); draws {t.draws}")


def greedy_as_function(view, legal_moves):
    return greedy(view, legal_moves)


runs = [cardlab.simulate("shithead", players=2, games=100, seed=1, policy=[seat0, "greedy"], progress=False,
                         max_turns=500) for seat0 in ("greedy", greedy_as_function)]
same_deals = bool(np.array_equal(runs[0].winners, runs[1].winners) and np.array_equal(runs[0].turns, runs[1].turns))
print(f"greedy built in vs greedy as a function, 100 deals: same winner and length in every game: {same_deals}")
assert same_deals

# %% [markdown]
# ## 1. How many deals? A power calculation
#
# Suppose a policy really wins a share $p = 0.53$ against greedy. We call it better when the 95% interval lies
# wholly above 0.5; the **power** is the chance of that. With $n$ independent games and $\sigma = \sqrt{p(1-p)}$,
#
# $$\text{power} \approx \Phi\!\left(\frac{p - 0.5}{\sigma/\sqrt n} - 1.96\right),
# \qquad n = \left(\frac{(1.96 + z_{0.80})\,\sigma}{p - 0.5}\right)^2 \text{ for 80% power},$$
#
# where $\Phi(x)$ is the chance that a normal variable with mean 0 and standard deviation 1 lies below $x$, and
# $\Phi(z_{0.80}) = 0.80$ ($z_{0.80} \approx 0.84$). A common mistake: choosing $n$ so that the half-width
# $1.96\sigma/\sqrt n$ *equals* the effect 0.03. **Predict** its power; the cell also simulates 4000 tournaments.

# %%
normal = NormalDist()
p_true, effect = 0.53, 0.03
sigma = np.sqrt(p_true * (1 - p_true))
half_equal = int(np.ceil((Z95 * sigma / effect) ** 2))
for_80 = int(np.ceil(((Z95 + normal.inv_cdf(0.80)) * sigma / effect) ** 2))


def power_of(games):
    return normal.cdf(effect / (sigma / np.sqrt(games)) - Z95)


rng = np.random.default_rng(13)
for label, games in (("half-width = effect", half_equal), ("80% power", for_80)):
    wins = rng.binomial(games, p_true, size=4000)
    low = np.array([wilson(float(w), games).low for w in wins])
    print(f"{label:>20}: {games} independent games, power by formula {power_of(games):.2f}, "
          f"by 4000 simulated tournaments {np.mean(low > 0.5):.2f}")
    assert abs(np.mean(low > 0.5) - power_of(games)) < 0.05
ten_games = sum(math.comb(10, k) * 0.7 ** k * 0.3 ** (10 - k) for k in range(11) if wilson(float(k), 10).low > 0.5)
print(f"a bot that really wins 70%, judged on 10 games: power {ten_games:.2f}")
assert 0.1 < ten_games < 0.2

# %% [markdown]
# Compare with your prediction. With the half-width equal to the effect, the interval clears 0.5 only when the
# estimate lands above 0.53, the true share: about one time in two. 80% power needs about twice the games. Ten
# games rarely show even a 70% bot (the last line, computed exactly).
#
# **The paired design.** A deal's score averages two games; with their correlation $\rho$ (lesson 14) its standard
# deviation is about $\sigma_d = \sigma\sqrt{(1+\rho)/2}$. Use $\sigma_d$ for $\sigma$ and $n$ deals for $n$ games.
# For Shithead, measure $\rho$ in Shithead (`eager_tens`).

# %%
assert abs(power_of(half_equal) - 0.5) < 0.01 and 1.9 < for_80 / half_equal < 2.2   # "one time in two", "twice"
tens = tournament(eager_tens)
rho_shithead = tens.correlation()
deals_paired = int(np.ceil(((Z95 + normal.inv_cdf(0.80)) * sigma * np.sqrt((1 + rho_shithead) / 2) / effect) ** 2))
fisher = np.arctanh(rho_shithead)      # Fisher's z: an approximate interval for a correlation
rho_low, rho_high = np.tanh(fisher - Z95 / np.sqrt(tens.deals - 3)), np.tanh(fisher + Z95 / np.sqrt(tens.deals - 3))
print(f"Shithead, correlation of a deal's two games measured for eager_tens: {rho_shithead:+.2f} "
      f"(approximate 95% interval [{rho_low:+.2f}, {rho_high:+.2f}])")
print(f"paired design with that correlation: {deals_paired} deals ({2 * deals_paired} games) for 80% power, "
      f"against {for_80} independent games")
assert rho_high < 0 and 2 * deals_paired < for_80      # a negative correlation; fewer games (the text below)

# %% [markdown]
# $\rho$ is negative, so the paired design needs fewer games, *assuming* a new policy's games correlate as
# `eager_tens`'s did. Fix the number of deals *before* playing: stopping as soon as an interval excludes 0.5
# ("peeking") makes false alarms far more frequent than 5% (see "Going further").

# %% [teacher]
# **Teacher's note (section 1).** Choosing $n$ so that the half-width equals the effect puts the boundary of "better"
# at the true share: the estimate lands above it half of the time, so the power is only about 50% (the cell shows it
# by formula and by 4000 simulated tournaments). 80% power needs $((1.96+0.84)/1.96)^2 \approx 2.04$ times as many
# games. The paired design needs fewer games when $\rho < 0$, because each deal's score has variance about
# $\sigma^2(1+\rho)/2$ (exactly, when both seats' results have the same variance); the sample size for a Shithead
# question uses a correlation measured on a Shithead policy, not one borrowed from Garbage (lesson 14's
# `never_discard`). The correlation's interval is Fisher's z ($\tanh(\operatorname{artanh} r \pm 1.96/\sqrt{n-3})$).
# The 10-game line sums the binomial chances of the win counts whose Wilson interval lies above 0.5 (9 or 10 wins);
# the normal formula would say about 0.28, because it is poor at n = 10.

# %% [markdown]
# ## 2. The winner's curse
#
# Try several variants and keep the best: *save a 10 unless the pile has at least k cards*. Each variant is measured
# on the same 150 deals. The best-looking k is then re-measured on 150 **fresh** deals.

# %%
def tens_when_pile_at_least(k):
    def policy(view, legal_moves):
        if len(view.pile) >= k:
            for move in legal_moves:
                if move.kind == "play" and move.rank == 10:
                    return move
        return greedy(view, legal_moves)

    policy.__name__ = f"tens_at_{k}"
    return policy


scores = {}
for k in (1, 3, 5, 8):
    scores[k] = tournament(tens_when_pile_at_least(k), games=150, seed=7)
    report(f"k = {k}", scores[k])
best = max(scores, key=lambda k: scores[k].paired()[0])
fresh = tournament(tens_when_pile_at_least(best), games=150, seed=8)
print(f"best on the first deals: k = {best}, {scores[best].paired()[0]:.3f}; on fresh deals:")
report(f"k = {best}, fresh", fresh)

# %% [markdown]
# Each of these five 95% intervals alone misses one time in twenty (a quarter of a miss is expected among them);
# but the score of the variant picked *because* it looked best is biased upwards. To see it apart from luck, repeat
# the procedure 40 times with four "variants" that are the *same* (random) player, each on its own 100 deals: keep
# the best-looking, re-measure it on 100 fresh deals. **Predict first:** is the kept copy's first score, on
# average, above its fresh one?

# %%
REPEATS, DEALS = 40, 100
kept, again = [], []
next_seed = 1000
for _ in range(REPEATS):
    scores_here = []
    for _variant in range(4):
        scores_here.append(tournament("random", games=DEALS, seed=next_seed).paired()[0])
        next_seed += 1
    kept.append(max(scores_here))
    again.append(tournament("random", games=DEALS, seed=next_seed).paired()[0])
    next_seed += 1
kept, again = np.array(kept), np.array(again)
drop = kept - again
drop_half = Z95 * drop.std(ddof=1) / np.sqrt(REPEATS)
print(f"{REPEATS} repeats: the kept copy scored {kept.mean():.3f} on average when chosen, {again.mean():.3f} on "
      f"fresh deals; drop {drop.mean():.3f}, paired 95% interval [{drop.mean() - drop_half:.3f}, "
      f"{drop.mean() + drop_half:.3f}]")
curse = go.Figure(layout=go.Layout(
    title="The best of four identical players: its score when chosen and on fresh deals", width=700, height=360,
    xaxis={"title": "share of games won against greedy over 100 deals"}, yaxis={"title": "repeats"},
    barmode="overlay"))
curse.add_histogram(x=kept, name="when chosen (best of four)", opacity=0.6, xbins={"size": 0.01})
curse.add_histogram(x=again, name="on fresh deals", opacity=0.6, xbins={"size": 0.01})
display(figure_view(curse))

# %% [markdown]
# Compare with your prediction: the drop's interval lies above 0. Picking the best of four copies of one player picks
# luck, which does not come back on new deals: choose on one set of deals, **judge on another**.

# %%
assert drop.mean() - drop_half > 0     # the curse: the chosen score is biased upwards (the text above)
assert again.mean() + Z95 * again.std(ddof=1) / np.sqrt(REPEATS) < 0.1   # the chart: random wins under a tenth

# %% [markdown]
# ## 3. Why both seats
#
# A Garbage policy that puts a wild Jack on the *highest* face-down spot instead of the lowest, first from seat 0
# only. Before it, greedy against greedy on 20,000 deals: how often does seat 0 win?

# %%
def jack_high(view, legal_moves):
    """Like greedy, but a wild goes on the highest face-down spot."""
    wild = [m for m in legal_moves if m.kind == "wild"]
    if wild:
        return max(wild, key=lambda m: m.spot)
    return garbage_greedy(view, legal_moves)


seat_edge = cardlab.simulate("garbage", players=2, games=20_000, seed=3, policy="greedy", progress=False).win_rate(0)
print(f"greedy against greedy, seat 0 wins: {seat_edge}")
one_seat = cardlab.simulate("garbage", players=2, games=1000, seed=3, policy=[jack_high, "greedy"],
                            progress=False).win_rate(0)
print(f"jack_high in seat 0 only: {one_seat}")
both_seats = tournament(jack_high, games=1000, seed=3, name="garbage")
report("jack_high, both", both_seats)

# %% [markdown]
# Seat 0 has an edge in Garbage: greedy's interval against itself lies wholly above 0.5. So `jack_high`'s seat-0
# share, above 0.5 too, mixes policy and seat. From both seats the edge cancels, and the paired interval contains
# 0.5: these 1000 deals cannot tell `jack_high` from greedy, which is not evidence that the two are equal.

# %%
mean, half = both_seats.paired()
assert seat_edge.low > 0.5 and one_seat.low > 0.5 and mean - half <= 0.5 <= mean + half    # the text above

# %% [teacher]
# **Misconceptions to discuss.**
#
# - *"My bot won 7 of 10 games, so it is better."* Ten games rarely detect even a 70% bot (section 1: power about
#   0.15).
# - *"Choose the games so that the half-width equals the difference."* That gives about 50% power (section 1).
# - *"The best variant is as good as it looked."* The winner's curse (section 2).
# - *"My bot wins 54% from seat 0."* Seat 0's edge, not the bot's (section 3).
# - *"The interval contains 0.5, so the bots are equally good."* It only bounds the difference.
# - *"Keep playing until the interval excludes 0.5."* Decide the number in advance ("Going further").
#
# **Teacher's note (going further).** Peeking: twenty looks at a fair policy's running interval give a false alarm
# in about a quarter of the tournaments (the cell checks 0.2 to 0.35); one look at the planned end, about 5%
# (0.0517 exactly; the cell checks the simulation within four standard errors of it). The
# sign-flip test assumes only independent deals and, under "interchangeable", deal scores symmetric about 1/2; the
# interval leans on the normal curve. The cell checks that the two agree here. With four tests sharing their deals
# the sure bound is 4 × 5% = 20% (1 − 0.95⁴ ≈ 19% only if they were independent).

# %% [markdown]
# ## Going further (optional, outside the 50 minutes)
#
# **Peeking.** 2000 simulated tournaments of a policy exactly as good as greedy (each game a fair coin): look at
# the interval after every 100 games up to 2000, and stop at the first that excludes 0.5.

# %%
LOOKS = np.arange(100, 2001, 100)
wins_so_far = np.random.default_rng(21).binomial(100, 0.5, size=(2000, LOOKS.size)).cumsum(axis=1)
alarm = np.abs(wins_so_far / LOOKS - 0.5) > Z95 * 0.5 / np.sqrt(LOOKS)    # the interval excludes 0.5
peeking, at_end = wilson(float(alarm.any(axis=1).sum()), 2000), wilson(float(alarm[:, -1].sum()), 2000)
planned = sum(math.comb(2000, k) for k in range(2001) if abs(k / 2000 - 0.5) > Z95 * 0.5 / np.sqrt(2000)) / 2 ** 2000
print(f"false alarms with 20 looks: {peeking}; with one look at 2000 games: {at_end} (exactly {planned:.4f})")
assert 0.2 < peeking.low and peeking.high < 0.35 and peeking.low > 3 * planned        # far more than 5%
assert abs(at_end.value - planned) < 4 * np.sqrt(planned * (1 - planned) / 2000)     # one planned look: about 5%

# %% [markdown]
# **The sign-flip test.** Were `eager_tens` and greedy interchangeable (the test's assumption), each deal's score
# minus 1/2 would be as likely positive as negative. The share of 10,000 random sign flips whose mean is as far
# from 0 as the real one is the p-value.

# %%
centred = tens.scores() - 0.5
mean, half = tens.paired()
flips = np.random.default_rng(17).choice([-1.0, 1.0], size=(10_000, centred.size))
flipped_means = (flips * centred).mean(axis=1)
p_value = (np.sum(np.abs(flipped_means) >= abs(centred.mean())) + 1) / (flips.shape[0] + 1)
excludes = not (mean - half <= 0.5 <= mean + half)
print(f"eager_tens: paired 95% interval excludes 0.5: {excludes}; sign-flip test p-value {p_value:.4f} "
      f"(below 0.05: {p_value < 0.05})")
assert excludes == (p_value < 0.05)

# %% [markdown]
# **Many variants.** Were section 2's four variants all as good as greedy, the chance that some interval excludes
# 0.5 by luck is at most 4 × 5% = 20%. Use 98.75% intervals (5% / 4 each: Bonferroni), or judge the chosen one on
# fresh deals.
#
# **Other arenas.** Your policy can also play in PettingZoo and OpenSpiel: see [docs/arenas.md](../docs/arenas.md).

# %% [markdown]
# ## Exercises
#
# Type each answer in its box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** Suppose your policy really wins 53% against greedy. By section 1's formula, how many independent
# games give a 90% chance that the 95% interval lies wholly above 0.5 (90% power)? How
# many deals would the paired design need, with the correlation section 1 measured?

# %% [check]
exercise_1 = lesson("15").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "1234"
exercise_1.check(answer_1)

# %% [solution]
z_power = normal.inv_cdf(0.90)
games_90 = int(np.ceil(((Z95 + z_power) * sigma / effect) ** 2))
deals_90 = int(np.ceil(((Z95 + z_power) * sigma * np.sqrt((1 + rho_shithead) / 2) / effect) ** 2))
print(f"independent games: {games_90}; paired deals: {deals_90} ({2 * deals_90} games); "
      f"power check by formula: {power_of(games_90):.3f}")
assert abs(power_of(games_90) - 0.90) < 0.01
print(exercise_1.check(str(games_90)))
by_hand = int(np.ceil(((1.96 + 1.28) * 0.499 / 0.03) ** 2))   # z and sigma rounded as a hand calculation would
print(f"by hand with z = 1.96 and 1.28 ({by_hand} games):", exercise_1.check(str(by_hand)))
print(f"80% power ({for_80} games):", exercise_1.check(str(for_80)))
print("2898 games (the smallest n whose exact binomial power reaches 0.90):", exercise_1.check("2898"))
assert exercise_1.check(str(by_hand)).is_right and exercise_1.check("2898").is_right
assert exercise_1.check(str(games_90)).is_right and exercise_1.check(str(for_80)).status == "not yet"
assert "section 1's normal formula" in str(exercise_1.check(str(games_90)))      # not called exact
answer_1 = str(games_90)   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** A classmate plans a paired tournament of 400 deals for a policy that really wins 53% against
# greedy, assuming a deal's two games correlate as `eager_tens`'s did (`rho_shithead`). What is the plan's power?
# Is it a good plan?

# %% [check]
exercise_2 = lesson("15").exercise(2, policy=eager_tens)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
sigma_d = sigma * np.sqrt((1 + rho_shithead) / 2)
plan = normal.cdf(effect / (sigma_d / np.sqrt(400)) - Z95)
as_independent = power_of(800)
print(f"power of 400 paired deals: {plan:.3f} (800 games wrongly taken as independent: {as_independent:.3f})")
print(exercise_2.check(f"{plan:.3f}"))
rounded = normal.cdf(0.03 / (0.5 * np.sqrt((1 - 0.31) / 2) / 20) - 1.96)   # sigma and rho rounded by hand
print(f"by hand with sigma 0.5 and rho -0.31 ({rounded:.3f}):", exercise_2.check(f"{rounded:.3f}"))
print(f"800 independent games ({as_independent:.3f}):", exercise_2.check(f"{as_independent:.3f}"))
assert exercise_2.check(f"{plan:.3f}").is_right and exercise_2.check(f"{rounded:.3f}").is_right
assert exercise_2.check(f"{as_independent:.3f}").status == "not yet"
assert exercise_2.check(f"{power_of(400):.3f}").status == "not yet"     # 400 independent games
assert 0.4 < plan < 0.6
print("about a coin toss: not a good plan; section 1's number of deals gives 80%")
answer_2 = f"{plan:.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3.** On 1000 fresh deals (seed 4), play `jack_high` against greedy from seat 1 only: what share of its
# games does it win, to three decimals? Play these deals from seat 0 only and from both seats too: how do the three
# shares relate?

# %% [check]
exercise_3 = lesson("15").exercise(3, policy=jack_high)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_3.check(answer_3)

# %% [solution]
seat_1 = cardlab.simulate("garbage", players=2, games=1000, seed=4, policy=["greedy", jack_high],
                          progress=False).win_rate(1)
seat_0 = cardlab.simulate("garbage", players=2, games=1000, seed=4, policy=[jack_high, "greedy"],
                          progress=False).win_rate(0)
both_4 = tournament(jack_high, games=1000, seed=4, name="garbage")
average = (seat_0.value + seat_1.value) / 2
print(f"seed 4, jack_high in seat 1 only: {seat_1}; in seat 0 only: {seat_0}")
report("jack_high, both", both_4)
print(f"average of the two one-seat shares {average:.4f}, the both-seats estimate {both_4.paired()[0]:.4f}: "
      "the same number (no draws), since a deal's score averages its seat-0 and seat-1 games")
assert both_4.draws == 0 and abs(average - both_4.paired()[0]) < 1e-12
print(exercise_3.check(f"{seat_1.value:.3f}"))
print(f"to two decimals ({seat_1.value:.2f}):", exercise_3.check(f"{seat_1.value:.2f}"))
for label, wrong in (("seat 0's share", seat_0.value), ("both seats", average), ("no seat effect", 0.5),
                     ("seed 3's seat-1 share (section 3's numbers)", 2 * both_seats.paired()[0] - one_seat.value)):
    print(f"{label} ({wrong:.3f}):", exercise_3.check(f"{wrong:.3f}"))
    assert exercise_3.check(f"{wrong:.3f}").status == "not yet"
assert exercise_3.check(f"{seat_1.value:.3f}").is_right
answer_3 = f"{seat_1.value:.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS
