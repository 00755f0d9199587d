# %% [markdown]
# # Spite and Malice: chances you estimate
#
# **Learning goals**
#
# - **the idea:** a count rests on an assumption, and only real deals, played by the players we care about, can
#   test it; two estimates are compared by the standard error of their difference.
# - size a simulation.
#
# **Predict first.** Lesson `04_spite_and_malice_play` counted the chance that the next stock card fits, assuming
# it is equally likely to be any card the viewer has not seen. Greedy bots play almost every card that fits before
# ending their turn (section 2 says which). Against them, is that count right, too high, or too low?

# %% [teacher]
# **Learning goals**
#
# - test a count against real deals, and watch the running share of real cards settle (a convergence chart);
# - check whether a counting model still holds once the players make choices, and name the assumption it needs;
# - estimate what cannot be counted from play-outs, and judge whether two estimates of one probability differ by
#   more than chance;
# - size a simulation so that it can tell two answers apart, and size a study so that its interval is narrow
#   enough.
#
# **Lesson plan (50 minutes).** 5 min: predict (below). 8 min: real deals (section 1). 9 min: when the players
# choose (section 2). 10 min: estimates, a model of the player, two estimates compared (section 3). 18 min:
# exercises (1, 4 min; 2, 10 min: a loop over deals, scaffolded; 3, 4 min). "Going further" (a broken panel or an
# unlucky one) and the second half of Exercise 3 (a first-player study) are optional, outside the 50 minutes.

# %%
import math

import numpy as np
from IPython.display import display

import cardlab
from cardlab.chance.stats import wilson
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view

ACE_OR_KING = (cardlab.Rank.ACE, cardlab.Rank.KING)

# %% [markdown]
# ## 1. Does the count match real deals?
#
# At the deal the assumption is a fact (the deck was shuffled), so the count should agree with real deals. Take the
# rounds of seeds 0 to 2999 that open without a tie and with no Ace or King on a payoff top: in each, the table
# counts the same chance that the top stock card fits an (empty) centre pile, and we look at the real top card.

# %%
counted, fits = [], []
for seed in range(3000):
    deal = cardlab.new_game("spite-and-malice", seed=seed)
    tops = deal.observe(None).payoff_tops
    if "tie" in deal.state.opening or any(card.rank in ACE_OR_KING for card in tops):
        continue
    counted.append(prob.spite_next_stock_playable(deal))
    fits.append(int(deal.can_play_on_centre(deal.state.stock[-1])))   # the real top stock card, empty piles
exact = counted[0]
assert all(chance == exact for chance in counted)
display(figure_view(convergence_figure(fits, truth=exact, title="Real top stock cards against the count",
                                       label="top stock card fits", x_title="real deals")))
for row in convergence_rows(fits, [10, 100, 1000, len(fits)]):
    print(f"after {row.n:>4} deals: {row.value:.3f} [{row.low:.3f}, {row.high:.3f}]")
gap = (sum(fits) - len(fits) * exact) / math.sqrt(len(fits) * exact * (1 - exact))
print(f"the count: {exact} = {float(exact):.4f}; the final interval contains it: "
      f"{wilson(sum(fits), len(fits)).contains(float(exact))}; gap {gap:+.2f} standard errors")
assert abs(gap) < 4      # a gap of four standard errors would be strong evidence against the count (lesson 03)

# %% [markdown]
# ## 2. When the players choose
#
# Later in a round, "every unseen card is equally likely" is an **assumption**: that the players' choices say
# nothing about their hidden cards. We test it on real rounds with two kinds of players: each time a new card comes
# to the top of the stock, we compare the table's count with the real card.
#
# - An **uninformed** player picks a hand card at random, plays it if it fits, else discards it: its choices say
#   nothing about its hidden cards.
# - A **greedy** player plays every card that fits before it ends its turn, except Kings, which it keeps unless
#   its Kings alone can bring a pile up to its payoff card.
#
# For each kind, $z$ is the gap between the cards that fitted and the sum of the counted chances $p$, in standard
# errors ($\sqrt{\sum p(1-p)}$). Two cautions: predictions within one round share one stock, so they are not quite
# independent (read $z$ as a gauge, not an exact test); and with two tests, the chance that at least one $|z|$
# exceeds 3 by luck alone is about 2 × 0.3% = 0.6%.

# %%
def count_against_cards(player_for_seed, rounds):
    """For each new top card of the stock in real rounds: the table's count, and whether the real card fitted."""
    chances, fitted = [], []
    for seed in range(rounds):
        game = cardlab.new_game("spite-and-malice", seed=seed)
        player = player_for_seed(seed)
        asked = set()
        while not game.is_over:
            state = game.state
            when = (state.completions, len(state.stock))   # this moment of the round: a new card on top
            if state.stock and when not in asked:
                asked.add(when)
                chances.append(float(prob.spite_next_stock_playable(game)))
                fitted.append(game.can_play_on_centre(state.stock[-1]))
            game.play(choose(player, game))
    return np.array(chances), np.array(fitted, dtype=float)


PLAYERS = {
    "uninformed": (60, lambda seed: make_policy("uninformed", "spite-and-malice", np.random.default_rng([seed, 1]))),
    "greedy": (100, lambda seed: make_policy("greedy", "spite-and-malice", np.random.default_rng(seed))),
}
z_of = {}
for name, (rounds, player_for_seed) in PLAYERS.items():
    p, y = count_against_cards(player_for_seed, rounds)
    z_of[name] = (y.sum() - p.sum()) / np.sqrt(np.sum(p * (1 - p)))
    print(f"{name:>10} players, {rounds} rounds, {p.size} new top cards: mean count {p.mean():.3f}, "
          f"share that fitted {wilson(y.sum(), y.size)}, z = {z_of[name]:+.2f}")

# %% [markdown]
# **Discuss:** which player's choices break the assumption? Think about what a greedy player's hand holds when it
# ends its turn, and what that leaves among the cards nobody has seen. A count can be exact for its model and
# still be off for real players.

# %%
assert abs(z_of["uninformed"]) < 3 and z_of["greedy"] > 3

# %% [teacher]
# **For the teacher: calibration by groups, and a trap.** The earlier version of this lesson grouped the predictions by
# their value (0–0.2, 0.2–0.35, 0.35–0.5, 0.5–1; 200 rounds each). With uninformed players every group's |z| was
# below 3; with greedy players every group fitted more often than predicted, by 2 to 4.5 percentage points, the
# busiest group at z ≈ +4.7. Eight groups at once: each |z| exceeds 3 about 3 times in 1000 under a correct model,
# so one of eight does about 2 times in 100. The trap: key each prediction by *when* a card comes to the top, not by
# *which* card it is. A card can come back to the top through a completed pile, and skipping it the second time
# selects by the card's history, which depends on its face (a King fits every pile), so that skip makes a correct
# count look wrong.

# %% [markdown]
# ## 3. Estimates: a payoff card this turn, and winning
#
# Whether the mover plays a payoff card before the turn ends is estimated from play-outs in which the mover plays
# on **like the greedy bot**: an estimate is about a model of the player. The mover knows its hand and the table
# does not, so their estimates can differ. Greedy bots play a seeded round until the stock is down to the first
# completed pile:

# %%
bots = cardlab.Stepper("spite-and-malice", seed=13)
while bots.game.state.completions == 0:
    bots.next_move()
while bots.game.observe(None).stock_layers[0][0] == 0:
    bots.next_move()
game = bots.game
mover = game.current_player
assert mover == 0
seen = game.observe(0)
print(f"move {game.move_count}: seat 0 to move; its hand {' '.join(map(str, seen.hand))}; the centre piles need "
      f"{seen.needed} (a King fits any pile); its payoff top {seen.payoff_tops[0]}, which fits now: "
      f"{prob.spite_payoff_playable_now(game)}")
for viewpoint in (None, 0):
    who = "the table" if viewpoint is None else "seat 0 (who knows its hand)"
    est = prob.spite_payoff_this_turn(game, viewpoint, rollouts=4000, rng=np.random.default_rng(7))
    print(f"seat 0 plays a payoff card this turn, if it plays on like the greedy bot, as {who} sees it: {est}")
    if viewpoint is None:
        table_payoff = est
    else:
        own_payoff = est
for seat, est in enumerate(prob.win_probability(game, None, rollouts=60, rng=np.random.default_rng(8))):
    print(f"seat {seat} wins the round: {est}")

# %% [markdown]
# **Discuss:** from seat 0's hand, what the piles need and its payoff top: could seat 0 play its payoff card this
# turn? Then run the cell.

# %%
line = game.copy()                     # a copy: the bots' round goes on unchanged
line.play_all(["hand K♠ to centre 2", "hand 8♠ to centre 2", "payoff to centre 2"])
for event in line.events[-3:]:
    print(event)

# %% [markdown]
# Seat 0 can do it for sure (King as 7, then 8, then its payoff card), but the greedy bot keeps its King, so seat
# 0's estimate is 0: right for the greedy bot, not for a player who plays better.

# %%
assert "from the payoff pile" in str(line.events[-1]) and own_payoff.high < 0.01   # the text above, checked
assert "K" not in choose(make_policy("greedy", "spite-and-malice", np.random.default_rng(0)), game).text

# %% [teacher]
# **For the teacher: an estimate is about a model of the player.** Both numbers above come from play-outs in which
# seat 0 plays on like the greedy bot. The greedy bot plays a King only when its Kings alone bring a pile within
# reach of its payoff card (here the piles are 3, 2 and 5 cards short of taking 9♣ and it holds one King), so it
# discards and ends its turn: 0 from seat 0's view is right for that bot. Seat 0 itself can play K♠ as 7, 8♠ and
# 9♣ for certain. The table, which does not know seat 0's hand, gives about 1/3. The stepper's panel label says
# "with greedy play" for this reason.

# %% [markdown]
# The stepper's panel estimates the table's chance of a payoff card this turn again, from its own 1000 play-outs
# (its view is the table's: the cell checks it). **Predict:** will its interval contain the 4000-play-out value
# above?
#
# Two estimates from separate play-outs differ by chance; lesson 04 gave the standard error of their difference,
# $\sqrt{se_1^2 + se_2^2}$. Between two correct estimates, a gap beyond 2 of those happens about once in 20
# comparisons, beyond 3 once in 370, and beyond 4 about once in 16,000: strong evidence that the two compute
# different things.

# %%
assert bots.controller.viewpoint == "table"
print(bots.panel_numbers())
panel_payoff = next(q for q in bots.quantities if q.key == "payoff_this_turn")
se_diff = np.sqrt(panel_payoff.value * (1 - panel_payoff.value) / panel_payoff.n
                  + table_payoff.value * (1 - table_payoff.value) / table_payoff.n)
gap = (panel_payoff.value - table_payoff.value) / se_diff
print(f"panel {panel_payoff.value:.3f} (n={panel_payoff.n}) against {table_payoff.value:.3f} (n={table_payoff.n}): "
      f"difference {gap:+.2f} standard errors; panel interval contains the larger run's value: "
      f"{panel_payoff.low <= table_payoff.value <= panel_payoff.high}")
print(f"chance of a gap at least this large between two correct estimates: {math.erfc(abs(gap) / math.sqrt(2)):.3f}")
assert round(1 / math.erfc(4 / math.sqrt(2)), -3) == 16_000 and round(1 / math.erfc(3 / math.sqrt(2)), -1) == 370
assert round(1 / math.erfc(2 / math.sqrt(2))) in (20, 21, 22)   # the text's "once in 20, 370, 16,000"
assert abs(gap) < 4   # four standard errors would mean the panel computes something else

# %% [markdown]
# ## Going further (optional): a broken panel or an unlucky one?
#
# Ask the panel's question 20 more times, 1000 play-outs each, and see where the answers fall.

# %%
again = [next(q for q in prob.panel_quantities(game, None, rng=np.random.default_rng([70, k]), rollouts=1000)
              if q.key == "payoff_this_turn").value for k in range(20)]
spread = np.std(again, ddof=1)
theory = math.sqrt(table_payoff.value * (1 - table_payoff.value) / 1000)
print(f"20 repeats of 1000 play-outs: from {min(again):.3f} to {max(again):.3f}, mean {np.mean(again):.3f}, "
      f"spread (sd) {spread:.3f} (theory {theory:.3f}); the 4000 play-outs said {table_payoff.value:.3f}")
far = abs(panel_payoff.value - table_payoff.value)
expected = 20 * math.erfc(far / theory / math.sqrt(2))    # repeats expected at least that far, by chance alone
print(f"repeats at least as far from {table_payoff.value:.3f} as the panel's {panel_payoff.value:.3f}: "
      f"{sum(abs(v - table_payoff.value) >= far for v in again)} of 20 (about {expected:.0f} expected by chance)")
assert abs(np.mean(again) - table_payoff.value) < 4 * spread / np.sqrt(20)

# %% [markdown]
# Do the repeats scatter around the panel's value or around the 4000 play-outs? Any one estimate can be unlucky:
# read its interval.

# %% [markdown]
# ## Exercises
#
# Type your answer in the box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** In lesson 04's Exercise 1 (seed 28) the table's chance that the top stock card fits is
# $p$ = 14/100 (the cell below computes it); forgetting the tied cards gives 16/102. A simulation deals the table's
# hidden cards again $n$ times and counts how often the top stock card fits; its standard error is
# $\sqrt{p(1-p)/n}$. How small must that be for $p$ and 16/102 to lie **6 standard errors** apart? Type it, then
# work out the $n$ it takes (Exercise 2 needs it).

# %%
start = cardlab.new_game("spite-and-malice", seed=28)
p = prob.spite_next_stock_playable(start)
print(f"p = {p} = {float(p):.4f}; 16/102 = {16 / 102:.4f}")

# %% [check]
exercise_1 = lesson("05").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "0.01"
exercise_1.check(answer_1)

# %% [solution]
gap_counts = 16 / 102 - float(p)
standard_error = gap_counts / 6
n_deals = math.ceil(float(p) * (1 - float(p)) / standard_error ** 2)
print(f"the two answers differ by {gap_counts:.4f}: one standard error must be {standard_error:.5f}, which takes "
      f"n = p(1 - p) / {standard_error:.5f}² = {n_deals} deals")
print(exercise_1.check(f"{standard_error:.5f}"))
print(f"only 2 standard errors apart ({gap_counts / 2:.4f}):", exercise_1.check(f"{gap_counts / 2:.4f}"))
assert exercise_1.check(f"{standard_error:.5f}").is_right
assert exercise_1.check(f"{gap_counts / 2:.4f}").status == "not yet"
answer_1 = f"{standard_error:.5f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** Run that simulation: complete the loop below, with $n$ = Exercise 1's $n$ rounded up to a whole
# thousand, and keep its seed. **How many** of your deals have an Ace or a King on top? (Not checked: what share
# is that, and which answer does it support?) (It deals by the count's own rule, so it checks the counting,
# not the assumption.)

# %%
rng = np.random.default_rng(41)   # keep this seed: the check counts the same deals
n = 0                             # Exercise 1's n, rounded up to a whole thousand
hits = 0
for _ in range(n):
    deal = start.resample(None, rng)      # one new deal of the cards the table cannot see
    top = deal.state.stock[-1]
    # your code: add 1 to hits when top is an Ace or a King (its rank is in ACE_OR_KING)
print(f"{hits} of {n} deals have an Ace or a King on top")

# %% [check]
exercise_2 = lesson("05").exercise(2)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "1234"
exercise_2.check(answer_2)

# %% [solution]
rng = np.random.default_rng(41)
n = math.ceil(n_deals / 1000) * 1000
hits = 0
for _ in range(n):
    deal = start.resample(None, rng)
    top = deal.state.stock[-1]
    hits += top.rank in ACE_OR_KING
print(f"{hits} of {n} deals have an Ace or a King on top")
share = wilson(hits, n)
z_right = (share.value - float(p)) / math.sqrt(float(p) * (1 - float(p)) / n)
z_wrong = (share.value - 16 / 102) / math.sqrt(16 / 102 * (1 - 16 / 102) / n)
print(f"share {share}; from p: {z_right:+.2f} standard errors, from 16/102: {z_wrong:+.2f}: it supports p")
print(exercise_2.check(str(hits)))
print(f"p × n without dealing ({round(float(p) * n)}):", exercise_2.check(str(round(float(p) * n))))
assert abs(z_right) < 3 and z_wrong < -3
assert exercise_2.check(str(hits)).is_right
assert exercise_2.check(str(round(float(p) * n))).status == "not yet"
answer_2 = str(hits)   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [teacher]
# **For the teacher: why a count, with a fixed seed.** The cell fixes the seed (41) and the loop (one
# `start.resample(None, rng)` per deal) and the exercise fixes n (Exercise 1's 15,244 rounded up: 16,000), so every
# correct simulation gives the same count and the check can ask for it exactly; the key runs the same loop. p × n,
# typed without dealing, is "not yet", and so is 16/102 × n. The share (about 0.137) lies about 1 standard error
# from 7/50 and about 7 from 16/102. Rounding n up keeps a student who rounded the standard error on the way
# (0.0028 gives n = 15,357) on the same 16,000.

# %% [markdown]
# **Exercise 3.** Is there a first-player advantage? With the option `first="seat0"` seat 0 always starts, and
# `cardlab.simulate("spite-and-malice", games=..., seed=..., first="seat0", progress=False).winners` plays greedy
# rounds (−1 marks a drawn round). A first try plays 200 decided rounds. What is the largest half-width its 95%
# interval for seat 0's share of the decided rounds can have, whatever the true share? Could it show a 2-point
# edge?
#
# *Going further (not checked):* how many decided rounds bring the half-width down to 0.02? If seat 0 truly won
# 52% of them, would an interval that wide exclude 1/2 reliably? Play them: what does your interval show?

# %% [check]
exercise_3 = lesson("05").exercise(3)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "0.25"
exercise_3.check(answer_3)

# %% [solution]
half_200 = 1.96 * math.sqrt(0.25 / 200)
print(f"200 rounds: half-width up to 1.96 × √(0.25/200) = {half_200:.4f}:", exercise_3.check(f"{half_200:.3f}"))
print(f"without the 1.96 ({half_200 / 1.96:.4f}):", exercise_3.check(f"{half_200 / 1.96:.4f}"))
assert exercise_3.check(f"{half_200:.3f}").is_right
assert exercise_3.check(f"{half_200 / 1.96:.4f}").status == "not yet"
needed = math.ceil((1.96 / 0.02) ** 2 * 0.25)
print(f"a half-width of 0.02 takes 1.96² × 0.25 / 0.02² = {needed} decided rounds")
se_needed = math.sqrt(0.25 / needed)
detects = 1 - math.erfc((0.02 - 1.96 * se_needed) / se_needed / math.sqrt(2)) / 2   # estimate above 1/2 + half-width
print(f"if seat 0 truly wins 52%, that interval excludes 1/2 with chance about {detects:.2f}: not reliably")
assert 0.45 < detects < 0.55
ROUNDS = 4000   # a few percent of rounds are drawn, so 4000 rounds give enough decided ones
winners = cardlab.simulate("spite-and-malice", games=ROUNDS, seed=0, first="seat0", progress=False).winners
decided = int(np.sum(winners >= 0))
first_wins = wilson(float(np.sum(winners == 0)), decided)
print(f"{ROUNDS} rounds, {ROUNDS - decided} drawn; seat 0 (always first) wins {first_wins} of the decided rounds")
print(f"half-width {first_wins.half_width:.4f}; the interval contains 1/2: {first_wins.contains(0.5)}")
assert half_200 > 0.02 and decided >= needed and first_wins.half_width <= 0.02
answer_3 = f"{half_200:.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS

# %% [teacher]
# **For the teacher: reading Exercise 3.** If the interval excludes 1/2, the rounds are evidence (at the 5% level)
# of an edge, in the direction shown. If it contains 1/2, they do **not** show that there is no advantage, only that
# an edge beyond the interval's ends fits these rounds badly. The 95% describes the method: intervals made this way
# cover the true chance in about 95 of 100 experiments; it is not a 95% chance that the chance lies inside this one
# interval. A half-width of 0.02 is not enough to *detect* a 2-point edge reliably: if seat 0 truly wins 52%, an
# interval of that width excludes 1/2 only about half the time; 80% power needs about (1.96 + 0.84)² × 0.25 / 0.02²
# ≈ 4,900 decided rounds. 200 rounds, as a first try might use, leave a half-width of about 0.07.
