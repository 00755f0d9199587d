# %% [markdown]
# # A strategy tournament: is your bot really better?
#
# **Learning goals**
#
# - write your own policy — a Python function that chooses a move — and let it play in the stepper and in many games;
# - compare it fairly with the built-in bots: the same deals, both seats, and a baseline;
# - read a 95% interval to decide whether a difference is real or luck;
# - analyse a **paired** design as paired: both games of a deal are compared, not counted as independent games;
# - plan how many deals a tournament needs (a **power** calculation), instead of stopping when the interval looks
#   good;
# - see the *winner's curse*: the best of many tries looks better than it is, until you test it on fresh deals.
#
# **Lesson plan (50 minutes).** 5 min: predict (below). 10 min: write a policy and watch it (sections 1–2).
# 15 min: the fair tournament and its paired analysis (section 3). 10 min: power, the winner's curse, one-seat
# bias (sections 4–6). 10 min: exercises.
#
# **Predict first.** A bot that burns with a 10 whenever it can: better or worse than greedy? By how much? And how
# many games would you need to tell a 53% bot from a 50% one?

# %% [markdown]
# ## 1. A policy is a function
#
# A policy gets what its seat may see (`view`) and the legal moves, and returns one of the moves. That is all a bot
# is. In Shithead the `greedy` bot plays the lowest card that fits (all copies of it) and keeps 2s and 10s for
# emergencies. Here is a different idea: **burn with a 10 whenever you can**.

# %%
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.games.shithead import power
from cardlab.policies import make_policy
from cardlab.sim.stats import Z95, wilson
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
# A move carries named fields: a Shithead play has `move.source` ("hand" or "up"), `move.rank` (a number, Ace 1 …
# King 13) and `move.count`. Your policy may use `view` too: for example `view.top` (the card on the pile) or
# `view.hand`.
#
# ## 2. Watch it play
#
# Give the stepper a policy function for a seat; that seat shows as `custom` in the seat menu.

# %%
duel = cardlab.Stepper("shithead", players=2, seed=3, policies=[eager_tens, "greedy"])
for _ in range(30):
    duel.next_move()
tens = [e.text for e in duel.game.events if e.kind == "burn" or "burns" in e.text]
print(f"after {duel.game.move_count} moves: {len(tens)} burns")
print("\n".join(duel.log_lines()[-6:]))
display(duel)

# %% [markdown]
# ## 3. A fair tournament
#
# One game says nothing; many games say something, **if the comparison is fair**:
#
# - **the same deals**: `cardlab.simulate` deals game `i` of a run with seed `s` the same way whatever plays it;
# - **both seats**: the first player has an edge, so each deal is played twice, with the seats swapped;
# - **a baseline**: greedy against itself on those deals wins exactly half. Both games of a deal are then the same
#   game, so the same *seat* wins both; the "policy" greedy sits in seat 0 in one and in seat 1 in the other, so it
#   wins exactly one of the two. The baseline needs no interval: it is 1/2 by construction.
#
# The `max_turns` option ends a game that goes on for ever as a draw (a silly policy can do that in Shithead), and
# `progress=False` keeps `simulate` from drawing a progress bar.

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
        options.setdefault("max_turns", 500)
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


baseline = tournament("greedy")
print(f"greedy (baseline): wins {baseline.paired()[0]:.3f} exactly; draws {baseline.draws}; "
      f"it wins exactly one of the two games of every deal: {bool(np.all(baseline.a + baseline.b == 1))}")
assert baseline.draws == 0 and np.all(baseline.a + baseline.b == 1) and baseline.paired()[0] == 0.5
tens = tournament(eager_tens)
report("eager_tens", tens)

# %% [markdown]
# **Reading the result.** The baseline is 0.5 by construction (checked above), so it gets no interval. If the
# interval of your policy lies entirely below 0.5, the data are evidence, at the 5% level, that it is worse than
# greedy. A test can be wrong: a policy exactly as good as greedy shows an interval wholly below 0.5 about one time
# in forty, and one wholly above 0.5 about one time in forty (one time in twenty for either side).
# If it contains 0.5, you cannot tell yet — that is *not* evidence that the two are equally good; the interval says
# how large a difference the data still allow. The half-width shrinks like $1/\sqrt{n}$ (notebook
# `01_law_of_large_numbers`), so telling 53% from 50% takes thousands of games, not dozens (section 4).
#
# ### A paired design needs a paired analysis
#
# The two games of a deal are not independent: they share every card. Treating the $2n$ games as independent (one
# Wilson interval over all of them) ignores that. The right analysis takes one score per deal,
# $d_i = (a_i + b_i)/2$ (the share of that deal's two games the policy won), and a 95% interval
# $\bar d \pm 1.96\, s_d/\sqrt n$ from those $n$ independent deals. When the two games of a deal are negatively
# correlated (a deal that favours seat 0 helps the policy in one game and greedy in the other), the paired interval
# is *narrower*: the design has removed the luck of the deal.

# %%
garbage_greedy = make_policy("greedy", "garbage", np.random.default_rng(0))


def never_discard(view, legal_moves):
    """Garbage: always draw from the stock, never take the discard; otherwise play like greedy."""
    for move in legal_moves:
        if move.kind == "draw" and move.source == "stock":
            return move
    return garbage_greedy(view, legal_moves)


paired_demo = tournament(never_discard, games=1000, seed=5, name="garbage")
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

# %% [markdown]
# **A second opinion without the normal curve: the sign-flip test.** If `never_discard` were exactly as good as greedy,
# each deal's score minus 1/2 would be as likely to come out positive as negative (swap the two policies and the
# sign flips). So flip the signs of the real deal scores at random, many times, and see how often the mean of the
# flipped scores is at least as far from 0 as the real mean. That share is the test's p-value.

# %%
centred = (paired_demo.a + paired_demo.b) / 2 - 0.5
flips = np.random.default_rng(17).choice([-1.0, 1.0], size=(10_000, centred.size))
flipped_means = (flips * centred).mean(axis=1)
p_value = (np.sum(np.abs(flipped_means) >= abs(centred.mean())) + 1) / (flips.shape[0] + 1)
excludes = not (mean - half <= 0.5 <= mean + half)
print(f"paired 95% interval excludes 0.5: {excludes}; sign-flip test p-value {p_value:.4f} "
      f"(below 0.05: {p_value < 0.05})")
assert excludes == (p_value < 0.05)

# %% [markdown]
# The two analyses agree (the cell checks it): the interval excludes 0.5 exactly when the sign-flip test's p-value
# is below 5%. The sign-flip test assumes only that the deals are independent and that, if the policies were equally
# good, each deal's score would be symmetric about 1/2; the interval leans on the normal curve.
#
# The half-widths compare as $\sqrt{1+\rho}$, with $\rho$ the correlation between the two games of a deal (the
# cell checks that relation and that the paired interval is the narrower one exactly when $\rho < 0$). With a
# negative $\rho$, the unpaired analysis throws away precision the design had bought.
#
# ## 4. How many deals? A power calculation
#
# Suppose a policy really wins a share $p = 0.53$ of its games. We will declare "better than greedy" when the 95%
# interval excludes 0.5. The **power** is the chance that this happens. With $n$ independent games the estimate has
# standard error $\sigma/\sqrt n$, $\sigma = \sqrt{p(1-p)}$, and
#
# $$\text{power} \approx \Phi\!\left(\frac{p - 0.5}{\sigma/\sqrt n} - 1.96\right),
# \qquad n = \left(\frac{(1.96 + z_{0.80})\,\sigma}{p - 0.5}\right)^2 \text{ for 80% power},$$
#
# with $z_{0.80} \approx 0.84$. A common mistake is to choose $n$ so that the half-width $1.96\sigma/\sqrt n$
# *equals* the effect 0.03: then the estimate lands above 0.53 half of the time, and the power is only about 50%.

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
      f"(approximate 95% interval [{rho_low:+.2f}, {rho_high:+.2f}], Fisher's z)")
print(f"paired design with that correlation: {deals_paired} deals ({2 * deals_paired} games) for 80% power, "
      f"against {for_80} independent games")

# %% [markdown]
# The paired figure *assumes* that a new Shithead policy's two games of a deal are correlated as `eager_tens`'s were
# in section 3 (the cell measures that correlation on its 200 deals and prints an approximate 95% interval for it:
# it is itself only an estimate); a policy whose correlation differs needs a different number.
#
# Decide the number of games *before* playing them, from the effect you care about and the power you want. Stopping
# as soon as an interval excludes 0.5 ("peeking") makes false discoveries far more frequent than 5%. The paired
# design needs fewer games when $\rho < 0$, because each deal's score has variance $\sigma^2(1+\rho)/2$.

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
# One run can be lucky or unlucky, so repeat the whole procedure many times, with four "variants" that are in truth
# the *same* player: the random player, each copy measured on its own 100 deals. Any difference between them is
# luck. Each time, keep the best-looking copy and measure it again on 100 fresh deals. **Predict first:** will the
# kept copy's first score be higher than its fresh score on average?

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

# %% [markdown]
# On average the kept copy looks better when it is chosen than when it is measured again (the drop's paired interval
# lies above 0, and the cell checks it), although all four copies are the same player. Picking the maximum picks
# luck along with skill.
#
# Compare the two numbers for the winner. The best of several noisy measurements is biased upwards: part of its lead
# is luck, and luck does not come back on new deals, so the fresh measurement tends to be lower. Only the fresh one is
# an honest estimate. Choose on one set of deals, **judge on another** — and notice whether any variant's interval
# lies above 0.5 at all. With four variants each tested at the 5% level, the chance that at least one interval
# excludes 0.5 by luck alone would be $1 - 0.95^4 \approx 19\%$ if the four tests were independent; here they
# share their deals, so they are not, and the only sure bound is $4 \times 5\% = 20\%$. Several tests at once need
# a stricter level (for example 98.75% intervals, the Bonferroni correction) or a fresh test of the chosen one.

# %% [markdown]
# ## 6. Garbage has few choices — do they matter?
#
# In Garbage the only decisions are where a wild Jack goes, whether to displace a Jack, and whether to take the
# discard. A policy that puts a Jack on the *highest* face-down spot instead of the lowest:

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
# Measured from one seat only, `jack_high` seems to win more than half its games; with the seats swapped on the same
# deals the first-player edge cancels. By symmetry of the spots you might expect no difference at all. If the
# interval contains 0.5, the data are *consistent* with no difference; they do not prove it: the interval's ends say
# how large a difference is still possible.

# %% [markdown]
# ## Misconceptions to discuss
#
# - *"My bot won 7 of 10 games, so it is better."* Ten games cannot tell 70% from 50% (section 4).
# - *"2n games are 2n independent observations."* The two games of a deal share their cards (section 3).
# - *"The interval contains 0.5, so the bots are equally good."* It only bounds the difference.
# - *"Keep playing until the interval excludes 0.5."* Decide the number of games in advance (section 4).
# - *"The best of several variants is as good as it looked."* The winner's curse (section 5).

# %% [markdown]
# ## Exercises

# %% [markdown]
# **Exercise 1.** `never_discard` (section 3) never takes the discard. Is it worse than greedy? Judge on *fresh*
# deals (seed 6, 1000 deals), since section 3 already looked at seed 5; say what the interval can and cannot show.

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

# %% [markdown]
# **Exercise 2.** Suppose your policy really wins 53% against greedy. How many games give a 90% chance that the
# 95% interval excludes 0.5 (90% power), if the games were independent? And how many deals in the paired design,
# assuming the correlation $\rho$ that section 4 measured for a Shithead policy?

# %% [solution]
z_power = normal.inv_cdf(0.90)
games_90 = int(np.ceil(((Z95 + z_power) * sigma / effect) ** 2))
deals_90 = int(np.ceil(((Z95 + z_power) * sigma * np.sqrt((1 + rho_shithead) / 2) / effect) ** 2))
print(f"independent games: {games_90}; paired deals: {deals_90} ({2 * deals_90} games); "
      f"power check by formula: {power_of(games_90):.3f}")
assert abs(power_of(games_90) - 0.90) < 0.01

# %% [markdown]
# **Exercise 3.** In the Shithead set-up, greedy puts its best cards face up. Write a policy that puts its *lowest*
# cards face up instead (and plays like greedy afterwards). How much worse is it? (200 deals.)

# %% [solution]
def low_face_up(view, legal_moves):
    if legal_moves[0].kind == "setup":
        return min(legal_moves, key=lambda m: power(m.card))
    return greedy(view, legal_moves)


report("low_face_up", tournament(low_face_up, games=200, seed=9))
