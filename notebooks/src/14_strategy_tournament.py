# %% [markdown]
# # A strategy tournament: is your bot really better?
#
# **The one idea:** to tell whether your bot beats another, play both on the **same deals** from both seats and
# analyse each deal's two games together (a *paired* design).
#
# **Learning goals**
#
# - write a policy and compare it with greedy on the same deals, both seats, paired;
# - plan the number of deals, and beware the best of many tries.
#
# **Lesson plan (50 minutes).** 5 min: predict. 10 min: sections 1–2. 15 min: section 3. 10 min: sections 4–6.
# 10 min: exercises.
#
# **Predict first.** A bot that burns with a 10 whenever it can: better or worse than greedy? How many games would
# you need to tell a 53% bot from a 50% one?

# %% [markdown]
# ## 1. A policy is a function
#
# A policy gets what its seat may see (`view`) and the legal moves, and returns one of the moves. In Shithead the
# `greedy` bot plays the lowest card that fits (all copies of it) and keeps 2s and 10s for emergencies. Here is a
# different idea: **burn with a 10 whenever you can**.

# %%
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.course import lesson
from cardlab.games.shithead import power
from cardlab.policies import make_policy
from cardlab.sim.stats import Z95, wilson
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view

greedy = make_policy("greedy", "shithead", np.random.default_rng(0))


def eager_tens(view, legal_moves):
    """Play a 10 as soon as one is legal (it burns the pile and I play again); otherwise play like greedy."""
    for move in legal_moves:
        if move.kind == "play" and move.rank == 10:
            return move
    return greedy(view, legal_moves)


print([m.text for m in cardlab.new_game("shithead", players=2, seed=0).legal_moves()][:4], "...")

# %% [markdown]
# A Shithead play has `move.source` ("hand" or "up"), `move.rank` (Ace 1 … King 13) and `move.count`; a policy may
# also read `view.top` (the card on the pile) or `view.hand`.
#
# ## 2. Watch it play
#
# Give the stepper a policy function for a seat (shown as `custom`). The cell plays 30 moves of seed 3's deal on an
# unshown copy and prints the last six; the stepper below starts at that deal.

# %%
copy = cardlab.Stepper("shithead", players=2, seed=3, policies=[eager_tens, "greedy"])
for _ in range(30):
    copy.next_move()
tens = [e.text for e in copy.game.events if e.kind == "burn" or "burns" in e.text]
print(f"after {copy.game.move_count} moves: {len(tens)} burns")
print("\n".join(copy.log_lines()[-6:]))
duel = cardlab.Stepper("shithead", players=2, seed=3, policies=[eager_tens, "greedy"])
assert duel.game.move_count == 0      # the stepper shown starts at the deal
display(duel)

# %% [markdown]
# ## 3. A fair tournament
#
# One game says nothing; many games say something, **if the comparison is fair**:
#
# - **the same deals**: `cardlab.simulate` deals game `i` of a run with seed `s` the same way whatever plays it, a
#   built-in bot or your function. The cell checks it: greedy wrapped in a Python function wins exactly the games,
#   in exactly as many moves, as built-in greedy;
# - **both seats**: the first player has an edge, so each deal is played twice, with the seats swapped;
# - **a baseline**: greedy against itself wins exactly one of the two games of every deal (both are the same game,
#   so the same *seat* wins), so exactly half, with no interval needed.

# %%
@dataclass
class Tournament:
    """Per deal i: did `policy` win the game where it sat in seat 0 (a[i]) and in seat 1 (b[i])?"""

    a: np.ndarray
    b: np.ndarray
    draws: int

    @property
    def deals(self):
        return self.a.size

    def paired(self):
        """Win rate with a 95% interval from the per-deal scores (a + b) / 2: the paired analysis."""
        d = (self.a + self.b) / 2
        return d.mean(), Z95 * d.std(ddof=1) / np.sqrt(d.size)

    def unpaired(self):
        """The same games wrongly treated as 2n independent ones (a Wilson interval over all games)."""
        return wilson(float(self.a.sum() + self.b.sum()), 2 * self.deals)

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
    """Built-in greedy, wrapped in a Python function as your policies are."""
    return greedy(view, legal_moves)


runs = [cardlab.simulate("shithead", players=2, games=200, seed=1, policy=[seat0, "greedy"], progress=False,
                         max_turns=500) for seat0 in ("greedy", greedy_as_function)]
same_deals = bool(np.array_equal(runs[0].winners, runs[1].winners) and np.array_equal(runs[0].turns, runs[1].turns))
print(f"greedy built in vs greedy as a function, 200 deals: same winner and length in every game: {same_deals}")
assert same_deals
baseline = tournament("greedy")
print(f"greedy (baseline): wins {baseline.paired()[0]:.3f} exactly; draws {baseline.draws}; "
      f"it wins exactly one of the two games of every deal: {bool(np.all(baseline.a + baseline.b == 1))}")
assert baseline.draws == 0 and np.all(baseline.a + baseline.b == 1) and baseline.paired()[0] == 0.5
tens = tournament(eager_tens)
report("eager_tens", tens)

# %% [markdown]
# **Reading the result.** An interval wholly below 0.5 is evidence, at the 5% level, that the policy is worse than
# greedy. An interval that contains 0.5 cannot tell yet; it is *not* evidence that the two are equally good.
#
# ### A paired design needs a paired analysis
#
# The two games of a deal share every card, so they are not independent. The paired analysis takes one score per
# deal, $d_i = (a_i + b_i)/2$, the share of deal $i$'s two games the policy won, and a 95% interval
# $\bar d \pm 1.96\, s_d/\sqrt n$ from the $n$ independent deals. Below, the same games are also (wrongly) treated
# as $2n$ independent ones.

# %%
garbage_greedy = make_policy("greedy", "garbage", np.random.default_rng(0))


def never_discard(view, legal_moves):
    """Garbage: always draw from the stock, never take the discard; otherwise play like greedy."""
    for move in legal_moves:
        if move.kind == "draw" and move.source == "stock":
            return move
    return garbage_greedy(view, legal_moves)


paired_demo = tournament(never_discard, games=1000, seed=2, name="garbage")
mean, half = paired_demo.paired()
naive = paired_demo.unpaired()
rho = paired_demo.correlation()
print(f"never_discard (Garbage), {paired_demo.deals} deals: correlation of the two games of a deal {rho:+.2f}")
print(f"  paired:   {mean:.3f} ± {half:.3f}")
print(f"  unpaired: {naive.value:.3f} ± {naive.half_width:.3f} (wrongly treating {2 * paired_demo.deals} games "
      "as independent)")
print(f"  ratio of half-widths paired/unpaired {half / naive.half_width:.2f}; theory sqrt(1 + rho) = "
      f"{np.sqrt(1 + rho):.2f}")
assert abs(half / naive.half_width - np.sqrt(max(0.0, 1 + rho))) < 0.05
assert (half < naive.half_width) == (rho < 0)
deal_scores = (paired_demo.a + paired_demo.b) / 2
for row in convergence_rows(deal_scores, [10, 100, deal_scores.size]):
    print("running paired estimate,", row)
display(figure_view(convergence_figure(deal_scores, title="never_discard against greedy, deal by deal",
                                       label="share of games won", x_title="deals")))

# %% [teacher]
# **Teacher's note (section 3).** The half-widths compare as $\sqrt{1+\rho}$, with $\rho$ the correlation between
# the two games of a deal (the cell checks that relation, and that the paired interval is the narrower one exactly
# when $\rho < 0$): with a negative $\rho$ the unpaired analysis throws away precision the design had bought. The
# chart's band is the normal interval of the deal scores (0, 1/2 or 1). A policy exactly as good as greedy shows an
# interval wholly below 0.5 about one time in forty: a one-sided event of a two-sided 95% interval.

# %% [markdown]
# When a deal that favours seat 0 helps the policy in one game and greedy in the other (a negative correlation
# $\rho$), the paired interval is the *narrower* one: the design has removed the luck of the deal.
#
# ## 4. How many deals? A power calculation
#
# Suppose a policy really wins a share $p = 0.53$. We declare "better than greedy" when the 95% interval excludes
# 0.5; the **power** is the chance that this happens. With $n$ independent games and $\sigma = \sqrt{p(1-p)}$,
#
# $$\text{power} \approx \Phi\!\left(\frac{p - 0.5}{\sigma/\sqrt n} - 1.96\right),
# \qquad n = \left(\frac{(1.96 + z_{0.80})\,\sigma}{p - 0.5}\right)^2 \text{ for 80% power},$$
#
# with $z_{0.80} \approx 0.84$. A common mistake: choosing $n$ so that the half-width $1.96\sigma/\sqrt n$ *equals*
# the effect 0.03. Predict the power of that choice before running the cell.

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
rho_shithead = tens.correlation()
deals_paired = int(np.ceil(((Z95 + normal.inv_cdf(0.80)) * sigma * np.sqrt((1 + rho_shithead) / 2) / effect) ** 2))
fisher = np.arctanh(rho_shithead)
rho_low, rho_high = np.tanh(fisher - Z95 / np.sqrt(tens.deals - 3)), np.tanh(fisher + Z95 / np.sqrt(tens.deals - 3))
print(f"Shithead, correlation of a deal's two games measured for eager_tens: {rho_shithead:+.2f} "
      f"(approximate 95% interval [{rho_low:+.2f}, {rho_high:+.2f}])")
print(f"paired design with that correlation: {deals_paired} deals ({2 * deals_paired} games) for 80% power, "
      f"against {for_80} independent games")

# %% [teacher]
# **Teacher's note (section 4).** Choosing $n$ so that the half-width equals the effect puts the estimate's centre
# at the boundary: it lands above 0.53 half of the time, so the power is only about 50% (the cell shows it by
# formula and by 4000 simulated tournaments). The paired design needs fewer games when $\rho < 0$, because each
# deal's score has variance $\sigma^2(1+\rho)/2$; the sample size for a Shithead question uses a correlation
# measured on a Shithead policy, not one borrowed from Garbage. The correlation's interval is Fisher's z
# ($\tanh(\operatorname{artanh} r \pm 1.96/\sqrt{n-3})$). A policy exactly as good as greedy shows an interval
# wholly below 0.5 about one time in forty (and wholly above, one time in forty).

# %% [markdown]
# The paired figure *assumes* a new policy's games correlate as `eager_tens`'s did (an estimate, with its
# interval). Decide the number of games *before* playing; stopping as soon as an interval excludes 0.5 ("peeking")
# makes false discoveries far more frequent than 5%.

# %% [markdown]
# ## 5. The winner's curse
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
# One run can be lucky, so repeat the procedure 40 times with four "variants" that are the *same* player (the
# random player), each copy on its own 100 deals. Each time, keep the best-looking copy and measure it again on 100
# fresh deals. **Predict first:** on average, is the kept copy's first score higher than its fresh score?

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
    xaxis={"title": "share of the deal's two games won against greedy"}, yaxis={"title": "repeats"},
    barmode="overlay"))
curse.add_histogram(x=kept, name="when chosen (best of four)", opacity=0.6, xbins={"size": 0.01})
curse.add_histogram(x=again, name="on fresh deals", opacity=0.6, xbins={"size": 0.01})
display(figure_view(curse))
assert drop.mean() - drop_half > 0     # the curse: the chosen score is biased upwards
assert again.mean() + Z95 * again.std(ddof=1) / np.sqrt(REPEATS) < 0.1   # "under a tenth" (fresh scores)

# %% [markdown]
# Compare with your prediction (the cell checks the sign of the drop; the random player wins under a tenth of its
# games against greedy). All four copies are the same player, so picking the maximum picks luck, and luck does not
# come back on new deals: choose on one set of deals, **judge on another**.

# %% [markdown]
# ## 6. Why both seats
#
# A Garbage policy that puts a wild Jack on the *highest* face-down spot instead of the lowest, first from seat 0
# only:

# %%
def jack_high(view, legal_moves):
    """Like greedy, but a wild goes on the highest face-down spot."""
    wild = [m for m in legal_moves if m.kind == "wild"]
    if wild:
        return max(wild, key=lambda m: m.spot)
    return garbage_greedy(view, legal_moves)


one_seat = cardlab.simulate("garbage", players=2, games=1000, seed=3, policy=[jack_high, "greedy"],
                            progress=False)
print(f"jack_high in seat 0 only: {one_seat.win_rate(0)} (looks good? seat 0 draws first...)")
report("jack_high, both seats", tournament(jack_high, games=1000, seed=3, name="garbage"))

# %% [markdown]
# From seat 0 only, `jack_high` seems to win more than half its games; with the seats swapped on the same deals, the
# first player's edge cancels.

# %% [teacher]
# **Misconceptions to discuss.**
#
# - *"My bot won 7 of 10 games, so it is better."* Ten games cannot tell 70% from 50% (section 4).
# - *"2n games are 2n independent observations."* A deal's two games share their cards (section 3).
# - *"The interval contains 0.5, so the bots are equally good."* It only bounds the difference.
# - *"Keep playing until the interval excludes 0.5."* Decide the number in advance (section 4).
# - *"The best variant is as good as it looked."* The winner's curse (section 5).

# %% [markdown]
# ## Going further (optional, outside the 50 minutes)
#
# **The sign-flip test.** Were `never_discard` as good as greedy, each deal's score minus 1/2 would be as likely
# positive as negative; the share of random sign flips whose mean is as far from 0 is the p-value.

# %% [teacher]
# **Teacher's note (going further).** The sign-flip test assumes only independent deals and, under "equally good",
# deal scores symmetric about 1/2; the interval leans on the normal curve. The cell checks that the two agree here.
# With four tests sharing their deals the sure bound is 4 × 5% = 20% (1 − 0.95⁴ ≈ 19% only if they were
# independent).

# %%
centred = (paired_demo.a + paired_demo.b) / 2 - 0.5
mean, half = paired_demo.paired()
flips = np.random.default_rng(17).choice([-1.0, 1.0], size=(10_000, centred.size))
flipped_means = (flips * centred).mean(axis=1)
p_value = (np.sum(np.abs(flipped_means) >= abs(centred.mean())) + 1) / (flips.shape[0] + 1)
excludes = not (mean - half <= 0.5 <= mean + half)
print(f"paired 95% interval excludes 0.5: {excludes}; sign-flip test p-value {p_value:.4f} "
      f"(below 0.05: {p_value < 0.05})")
assert excludes == (p_value < 0.05)

# %% [markdown]
# **Many variants, many false alarms.** With four tests at the 5% level, the chance that one interval excludes 0.5
# by luck alone can reach 20%. Use 98.75% intervals (Bonferroni) or judge the chosen one on fresh deals.
#
# **Other arenas.** Your policy can also play in the environments of PettingZoo and OpenSpiel, libraries for
# game-playing research: see [docs/arenas.md](../docs/arenas.md).

# %% [markdown]
# ## Exercises
#
# Type each answer in its box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** `never_discard` (section 3) never takes the discard. Is it worse than greedy? Judge on *fresh*
# deals (seed 6, 1000 deals), since section 3 already looked at seed 2. What share of the games does it win (the
# paired estimate)? What can its interval show, and what not? (The check looks at the share; discuss the interval.)

# %% [check]
exercise_1 = lesson("14").exercise(1, policy=never_discard)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
ex1 = tournament(never_discard, games=1000, seed=6, name="garbage")
report("never_discard", ex1)
mean, half = ex1.paired()
if mean + half < 0.5:
    verdict = "the whole interval is below 0.5: evidence at the 5% level that never_discard is worse"
elif mean - half > 0.5:
    verdict = "the whole interval is above 0.5: evidence at the 5% level that never_discard is better"
else:
    verdict = ("the interval contains 0.5: these deals cannot tell; a difference up to the interval's ends "
               "remains possible")
print(verdict)
print(exercise_1.check(f"{mean:.3f}"))
print(f"section 3's estimate ({paired_demo.paired()[0]:.3f}):", exercise_1.check(f"{paired_demo.paired()[0]:.3f}"))
assert exercise_1.check(f"{mean:.3f}").is_right
assert not exercise_1.check(f"{paired_demo.paired()[0]:.3f}").is_right   # the deals already looked at
answer_1 = f"{mean:.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** Suppose your policy really wins 53% against greedy. How many independent games give a 90% chance
# that the 95% interval excludes 0.5 (90% power)? How many deals would the paired design need, with the correlation
# section 4 measured? (The check looks at the independent games.)

# %% [check]
exercise_2 = lesson("14").exercise(2)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "1234"
exercise_2.check(answer_2)

# %% [solution]
z_power = normal.inv_cdf(0.90)
games_90 = int(np.ceil(((Z95 + z_power) * sigma / effect) ** 2))
deals_90 = int(np.ceil(((Z95 + z_power) * sigma * np.sqrt((1 + rho_shithead) / 2) / effect) ** 2))
print(f"independent games: {games_90}; paired deals: {deals_90} ({2 * deals_90} games); "
      f"power check by formula: {power_of(games_90):.3f}")
assert abs(power_of(games_90) - 0.90) < 0.01
print(exercise_2.check(str(games_90)))
by_hand = int(np.ceil(((1.96 + 1.28) * 0.499 / 0.03) ** 2))   # z and sigma rounded as a hand calculation would
print(f"by hand with z = 1.96 and 1.28 ({by_hand} games):", exercise_2.check(str(by_hand)))
print(f"80% power ({for_80} games):", exercise_2.check(str(for_80)))
assert exercise_2.check(str(by_hand)).is_right
assert exercise_2.check(str(games_90)).is_right and exercise_2.check(str(for_80)).status == "not yet"
answer_2 = str(games_90)   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3.** In the Shithead set-up, greedy puts its best cards face up. Write a policy `lowest_up` that puts
# its *lowest* cards face up instead, lowest by `power` (2, 3, …, King, Ace), and plays like greedy afterwards. What
# share of the games does it win against greedy (paired, 200 deals, seed 9)? The check first tests your policy's
# set-up choices, then plays its tournament.

# %%
def lowest_up(view, legal_moves):
    """Your policy. In the set-up every legal move is a 'face up' move with a .card; for now it plays like greedy."""
    return greedy(view, legal_moves)

# %% [check]
exercise_3 = lesson("14").exercise(3, policy=lowest_up)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_3.check(answer_3)

# %% [solution]
def lowest_up(view, legal_moves):
    if legal_moves[0].kind == "setup":
        return min(legal_moves, key=lambda m: power(m.card))
    return greedy(view, legal_moves)


exercise_3 = lesson("14").exercise(3, policy=lowest_up)   # made again for this policy, as a student runs it again
ex3 = tournament(lowest_up, games=200, seed=9)
report("lowest_up", ex3)
print(exercise_3.check(f"{ex3.paired()[0]:.3f}"))
print("no difference (0.5):", exercise_3.check("0.5"))
with_greedy = lesson("14").exercise(3, policy=greedy)      # the plausible wrong policy: greedy's own set-up
print("greedy's set-up:", with_greedy.question)
print("lowest_up's share checked for greedy's set-up:", with_greedy.check(f"{ex3.paired()[0]:.3f}"))
assert exercise_3.check(f"{ex3.paired()[0]:.3f}").is_right and exercise_3.check("0.5").status == "not yet"
assert "keeps the rule" in exercise_3.question and "breaks the rule" in with_greedy.question
assert with_greedy.check(f"{ex3.paired()[0]:.3f}").status == "not yet"
answer_3 = f"{ex3.paired()[0]:.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS
