# %% [markdown]
# # A strategy tournament: is your bot really better?
#
# **Learning goals**
#
# - **the idea:** to tell whether your bot beats another, play both on the **same deals** from both seats and
#   analyse each deal's two games together (a *paired* design gets a *paired* analysis);
# - write a policy, watch it play, and compare it with greedy in a fair tournament.
#
# **Predict first.** A bot that burns the pile with a 10 whenever it can: better or worse than greedy? And when each
# of 1,000 deals is played twice, seats swapped, is the interval narrower or wider than that of 2,000 games on
# 2,000 different deals? Write both guesses down; sections 3 and 4 answer them.
#
# This lesson uses the Shithead rules of lesson `06_shithead_play`, the Garbage rules of lesson `02_garbage_play`
# and the intervals of lesson `01_law_of_large_numbers`.

# %% [teacher]
# **Learning goals:** a policy is a function of what its seat sees and the legal moves; a tournament is fair when
# both players meet the same deals from both seats; the games of a deal are not independent, so the analysis takes
# one score per deal; an interval that contains 0.5 cannot tell, it does not show that two bots are equally good.
# How many deals a tournament needs (power), the winner's curse and why both seats are lesson 15.
#
# **Lesson plan (50 minutes).** 5 min: predict (above). 8 min: a policy, and watching it play (sections 1–2).
# 12 min: a fair tournament (section 3). 8 min: the paired analysis (section 4). 5 min: exercise 1. 12 min:
# exercise 2 (writing a policy).

# %% [markdown]
# ## 1. A policy is a function
#
# A policy gets what its seat may see (`view`) and the legal moves, and returns one of the moves. In Shithead the
# `greedy` bot plays the lowest card that fits (all copies of it) and keeps 2s and 10s for emergencies. Here is a
# different idea: **burn with a 10 whenever you can**.

# %%
from dataclasses import dataclass

import numpy as np
from IPython.display import display

import cardlab
from cardlab.chance.stats import Z95, wilson
from cardlab.course import lesson
from cardlab.games.shithead import power
from cardlab.policies import make_policy
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
# also read `view.top` (the card on the pile), `view.pile` (all the pile's cards) or `view.hand`.
#
# ## 2. Watch it play
#
# Give the stepper a policy function for a seat (shown as `custom`). The cell plays 30 moves of seed 3's deal on an
# unshown copy and prints the last six lines of its log; the stepper below starts at that deal.

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
#   in exactly as many turns, as built-in greedy;
# - **both seats**: each deal is played twice, with the seats swapped, so both players get the same seats and the
#   same cards (lesson 15 shows what one seat alone gets wrong);
# - **a baseline**: greedy against itself wins exactly one of the two games of every deal (both are the same game,
#   so the same *seat* wins), so exactly half, with no interval needed.
#
# A deal's **score** is the share of its two games the policy won: 0, 1/2 or 1.

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
# **Reading the result.** The interval is $\bar d \pm 1.96\, s_d/\sqrt n$, from the $n$ deal scores $d_i$ (their
# mean $\bar d$ and standard deviation $s_d$). Here it lies wholly below 0.5: evidence, at the 5% level, that
# `eager_tens` is worse than greedy. An interval that contains 0.5 cannot tell yet; it is *not* evidence that the
# two are equally good.
#
# Each 95% interval misses its true share one time in twenty: of the few intervals this lesson prints, most likely
# none misses, but one may.

# %%
assert tens.paired()[0] + tens.paired()[1] < 0.5      # "wholly below 0.5" (the text above)

# %% [markdown]
# ## 4. A paired design needs a paired analysis
#
# The two games of a deal share every card, so they are not independent: the $n$ deals are independent, the $2n$
# games are not. That is why the interval above uses one score per deal. Below, a Garbage policy's games are also
# (wrongly) treated as $2n$ independent ones; that unpaired interval is what $2n$ games on $2n$ different deals
# would give, had they been won as often.
#
# The **correlation** $\rho$ of a deal's two results (a number from −1 to 1) is negative when a win in one game
# tends to go with a loss in the other: a deal that favours seat 0 helps the policy once and greedy once.

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
assert abs(half / naive.half_width - np.sqrt(max(0.0, 1 + rho))) < 0.05      # "about" the rule of the text below
deal_scores = (paired_demo.a + paired_demo.b) / 2
for row in convergence_rows(deal_scores, [100, 500, deal_scores.size]):
    print("running paired estimate,", row)
display(figure_view(convergence_figure(deal_scores, title="never_discard against greedy, deal by deal",
                                       label="share of games won", x_title="deals")))

# %% [markdown]
# Compare with your prediction. The correlation is negative, and the paired interval is the *narrower* one, by
# about the factor $\sqrt{1+\rho}$ (the cell checks that rule): playing each deal from both seats has removed part
# of the luck of the deal, and the unpaired analysis would throw that precision away. Why: if one game's result has
# variance $\sigma^2$, a deal's score $(a+b)/2$ has variance $\sigma^2(1+\rho)/2$, not the $\sigma^2/2$ of two
# independent games. With a positive $\rho$ the unpaired interval would be too narrow, claiming more than the games
# show. Either way, a paired design gets a paired analysis. (The chart's band is rough for the first few dozen
# deals, like the small-$n$ intervals of lesson 01.)

# %%
assert rho < 0 and half < naive.half_width      # "negative" and "narrower" (the text above)

# %% [teacher]
# **Teacher's note (sections 3–4).** The half-widths compare as about $\sqrt{1+\rho}$, with $\rho$ the correlation
# between the two games of a deal: each deal score has variance $\sigma^2(1+\rho)/2$ against $\sigma^2/2$ for the
# mean of two independent games when both seats' results have the same variance $\sigma^2$; here the seats' shares
# differ a little, so the rule is approximate (the cell checks the ratio within 0.05, and that the paired interval
# is the narrower one here, where $\rho < 0$). The chart's band is the normal interval of the deal scores (0, 1/2
# or 1), rough for the first few dozen deals (lesson 01's exercise 2), so the printed rows start at 100. A policy
# exactly as good as greedy shows an interval wholly below 0.5 about one time in forty (and wholly above, one time
# in forty): each is a one-sided event of a two-sided 95% interval. The lesson prints about five 95% intervals for
# different things (eager_tens, never_discard on two sets of deals, the nested running estimates): a quarter of a
# miss is expected on average.
#
# **Misconceptions to discuss.**
#
# - *"My bot won 7 of 10 games, so it is better."* Ten games cannot tell 70% from 50% (lesson 15 counts how many
#   can).
# - *"2n games are 2n independent observations."* A deal's two games share their cards (section 4).
# - *"The interval contains 0.5, so the bots are equally good."* It only bounds the difference.
# - *"A Python function and a built-in bot are compared on other deals."* The cell of section 3 asserts the same
#   winner and length in every game, so the paired analysis pairs game i with game i.

# %% [markdown]
# ## Exercises
#
# Type each answer in its box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** Is `never_discard` (section 4) worse than greedy? Judge it on *fresh* deals (seed 6, 1000 deals),
# since section 4 already looked at seed 2. Print its paired estimate and interval. What is the half-width of the paired
# interval (the number after ±), to three decimals? Would the unpaired half-width be larger or smaller, and why? What
# can the interval show, and what not? (The check looks at the paired half-width.)

# %% [check]
exercise_1 = lesson("14").exercise(1, policy=never_discard)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "0.05"
exercise_1.check(answer_1)

# %% [solution]
ex1 = tournament(never_discard, games=1000, seed=6, name="garbage")
report("never_discard", ex1)
mean, half = ex1.paired()
wrong = ex1.unpaired()
narrower = "paired" if half < wrong.half_width else "unpaired"
print(f"paired half-width {half:.4f}; unpaired {wrong.half_width:.4f} (correlation {ex1.correlation():+.2f}: "
      f"the {narrower} one is narrower)")
if mean + half < 0.5:
    verdict = "the whole interval is below 0.5: evidence at the 5% level that never_discard is worse"
elif mean - half > 0.5:
    verdict = "the whole interval is above 0.5: evidence at the 5% level that never_discard is better"
else:
    verdict = ("the interval contains 0.5: these deals cannot tell; a difference up to the interval's ends "
               "remains possible")
print(verdict)
print(exercise_1.check(f"{half:.4f}"))
print(f"to three decimals ({half:.3f}):", exercise_1.check(f"{half:.3f}"))
print(f"the unpaired half-width ({wrong.half_width:.4f}):", exercise_1.check(f"{wrong.half_width:.4f}"))
assert (ex1.correlation() < 0) == (half < wrong.half_width)
assert exercise_1.check(f"{half:.4f}").is_right and exercise_1.check(f"{half:.3f}").is_right
assert exercise_1.check(f"{wrong.half_width:.4f}").status == "not yet"   # the games treated as independent
answer_1 = f"{half:.4f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** In the Shithead set-up, greedy puts its best cards face up. Write a policy `lowest_up` that puts
# its *lowest* cards face up instead, lowest by `power` (2, 3, …, King, Ace), and plays like greedy afterwards. What
# share of the games does it win against greedy (paired, 200 deals, seed 9), to three decimals? The check first
# tests your policy's set-up choices, then plays its tournament.

# %%
def lowest_up(view, legal_moves):
    """Your policy. In the set-up every legal move has .kind "setup" and a .card; for now it plays like greedy."""
    return greedy(view, legal_moves)

# %% [check]
exercise_2 = lesson("14").exercise(2, policy=lowest_up)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
def lowest_up(view, legal_moves):
    if legal_moves[0].kind == "setup":
        return min(legal_moves, key=lambda m: power(m.card))
    return greedy(view, legal_moves)


exercise_2 = lesson("14").exercise(2, policy=lowest_up)   # made again for this policy, as a student runs it again
ex2 = tournament(lowest_up, games=200, seed=9)
report("lowest_up", ex2)
print(exercise_2.check(f"{ex2.paired()[0]:.3f}"))
print("no difference (0.5):", exercise_2.check("0.5"))
with_greedy = lesson("14").exercise(2, policy=greedy)      # the plausible wrong policy: greedy's own set-up
print("greedy's set-up:", with_greedy.question)
print("lowest_up's share checked for greedy's set-up:", with_greedy.check(f"{ex2.paired()[0]:.3f}"))
assert exercise_2.check(f"{ex2.paired()[0]:.3f}").is_right and exercise_2.check("0.5").status == "not yet"
assert "keeps the rule" in exercise_2.question and "breaks the rule" in with_greedy.question
assert with_greedy.check(f"{ex2.paired()[0]:.3f}").status == "not yet"
answer_2 = f"{ex2.paired()[0]:.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS
