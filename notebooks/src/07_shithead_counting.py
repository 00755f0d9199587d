# %% [markdown]
# # Shithead (Palace), part 2: chances by counting, tested on real deals
#
# **The idea:** cards nobody has seen are *exchangeable*: a face-down card and the top of the draw pile have
# exactly the same chance to fit. Counting that chance as "fitting unseen cards / unseen cards" needs one more
# assumption, and only real deals can test it.
#
# **Learning goals**
#
# - count a chance for a card nobody has seen, as each viewer sees it;
# - test a count, and a house rule's effect, on real deals, deal by deal.
#
# **Predict first.** The deck is shuffled and dealt. What is the chance that the top card of the draw pile is a 2
# or a 10? Write it down; section 1 counts it.
#
# This lesson uses the rules of lesson `06_shithead_play`, the intervals of lesson `01_law_of_large_numbers`, and
# the deal-by-deal comparisons and the shared 5% of lesson `03_garbage_chances`.

# %% [teacher]
# **Learning goals:** a chance at the deal as a count (exact for a fair shuffle), tested on 2,000 real deals;
# exchangeability (a face-down card and the draw pile's top: equal chances, with no assumption) against the count
# of their common value (an assumption); one count per viewer; real deals as the judge of a count; a paired
# comparison of house rules on the same deals, with four intervals read together.
#
# **Lesson plan (50 minutes).** 5 min: predict (above). 6 min: at the deal (section 1). 9 min: after the
# set-up, exchangeable cards and three viewers (section 2). 10 min: real deals decide, and what "no gap in the
# data" can show (section 3). 8 min: house rules and pick-ups, and the endless game (section 4). 12 min: exercises
# (1, 4 min: a count by hand; 2, 8 min: counting unseen cards in code).
#
# **Why shuffled deals.** Lesson 06's stacked deck is printed in the code, so for the class its cards are not
# unseen: after its set-up the top of the draw pile is 7♣ (seat 0 draws and plays it), which fits for certain.
# Counting "every unseen card equally likely" describes only cards that really were shuffled, so this lesson and
# its exercises use seeded shuffled deals.

# %%
from fractions import Fraction
from statistics import NormalDist

import numpy as np
from IPython.display import display

import cardlab
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view

# %% [markdown]
# ## 1. At the deal
#
# A fair shuffle makes every order of the 52 cards equally likely, so the top of the draw pile is equally likely
# to be any of the 52 cards. Count the 2s and 10s, and compare with your prediction.

# %%
pack = cardlab.new_game("shithead", players=2, seed=0).unseen_cards(None)
special = [c for c in pack if c.rank in (cardlab.Rank.TWO, cardlab.Rank.TEN)]
exact_special = Fraction(len(special), len(pack))
print(f"{len(special)} of {len(pack)} cards are 2s or 10s: {exact_special} = {float(exact_special):.4f}")

# %% [markdown]
# This count is exact if the shuffle is fair. Real deals test that: deal 2,000 seeded games and look at the top
# of the draw pile each time. **Predict first:** after 20 deals, after 200, after 2,000, how far from the count
# will the share of 2s and 10s be?

# %%
DEALS = 2000
tops = [cardlab.new_game("shithead", players=2, seed=seed).state.draw[-1] for seed in range(DEALS)]
is_special = np.array([c.rank in (cardlab.Rank.TWO, cardlab.Rank.TEN) for c in tops], dtype=float)
fig = convergence_figure(is_special, truth=float(exact_special), title="Top of the draw pile: a 2 or a 10?",
                         label="share of deals", x_title="deals")
display(figure_view(fig))
for row in convergence_rows(is_special, [20, 200, DEALS]):
    print(f"after {row}; contains the count: {row.contains(float(exact_special))}")
se = np.sqrt(float(exact_special) * (1 - float(exact_special)) / DEALS)
print(f"gap after {DEALS} deals: {(is_special.mean() - float(exact_special)) / se:+.2f} standard errors")

# %% [markdown]
# The running share wanders early and settles near the count; its 95% band narrows like $1/\sqrt{n}$ (lesson 01).

# %%
assert abs(is_special.mean() - float(exact_special)) < 4 * se          # the text above, checked

# %% [markdown]
# ## 2. After the set-up: the draw pile's top and a face-down card
#
# Now a shuffled deal (seed 14) after greedy set-ups. Nobody has seen a face-down card, not even its owner, nor the
# draw pile. The shuffle placed them alike and nothing since has told them apart, so a face-down card and the draw
# pile's top have **exactly the same chance** to fit: they are **exchangeable**.
#
# Their common *value* is another matter. The count
#
# $$\frac{\#\{\text{unseen cards that fit the pile}\}}{\#\{\text{unseen cards}\}}$$
#
# **assumes** that every unseen card is equally likely there, as if the set-up told nothing about the hands. Right
# after the set-up the stepper's panel shows this count (the cell checks it), marked *exact* because it is not
# simulated; after play it reads the play too (lesson 08). Section 3 tests the count.
#
# **Predict first:** is the count the same for the table, for seat 0 and for seat 1?

# %%
def greedy_setup(seed, **house_rules):
    """A shuffled two-player deal after greedy bots have made the set-up."""
    deal = cardlab.new_game("shithead", players=2, seed=seed, **house_rules)
    bot = make_policy("greedy", "shithead", np.random.default_rng(seed))
    while deal.state.phase == "setup":
        deal.play(choose(bot, deal))
    return deal


after_setup = greedy_setup(14)
print(f"top of the pile: {after_setup.top}; seat {after_setup.current_player} to move")
counts = {}
for viewpoint in (None, 0, 1):
    who = "table" if viewpoint is None else f"seat {viewpoint}"
    unseen = after_setup.unseen_cards(viewpoint)
    fit = sum(after_setup.fits(c) for c in unseen)
    counts[who] = Fraction(fit, len(unseen))
    top, blind = prob.shithead_draw_top_fits(after_setup, viewpoint), prob.shithead_blind_fits(after_setup, viewpoint)
    print(f"{who:>6}: {fit}/{len(unseen)} unseen cards fit = {float(counts[who]):.4f}; "
          f"stepper: draw top {float(top):.4f}, face-down card {float(blind):.4f}")
    assert counts[who] == top == blind

# %% [markdown]
# The stepper's values are these counts (the cell checks it). The table cannot see 45 cards, each seat a different
# 42, and a different share of them fits: three counts, one per viewer's knowledge.

# %%
assert len(set(counts.values())) == 3                                  # the text above, checked
assert [len(after_setup.unseen_cards(v)) for v in (None, 0, 1)] == [45, 42, 42]
assert after_setup.unseen_cards(0) != after_setup.unseen_cards(1)

# %% [markdown]
# ## 3. Real deals decide
#
# Deal 10,000 games, let greedy make the set-up, and look at what the draw pile's top and seat 0's first face-down
# card really were. **Predict first:** do they fit equally often? As often as the table's count says?

# %%
REAL = 10_000
count, top_fits, down_fits = np.empty(REAL), np.empty(REAL), np.empty(REAL)
for seed in range(REAL):
    deal = greedy_setup(seed)
    unseen = deal.unseen_cards(None)
    count[seed] = sum(deal.fits(c) for c in unseen) / len(unseen)
    top_fits[seed] = deal.fits(deal.state.draw[-1])
    down_fits[seed] = deal.fits(deal.state.face_down[0][0])


def mean_interval(x):
    """The mean of the per-deal values, with its 95% interval (low, high)."""
    half = 1.96 * x.std(ddof=1) / np.sqrt(x.size)
    return x.mean(), x.mean() - half, x.mean() + half


def shown(interval):
    return "{:+.3f} [{:+.3f}, {:+.3f}]".format(*interval)


same = mean_interval(top_fits - down_fits)
real_minus_count = {"draw top": mean_interval(top_fits - count), "face-down": mean_interval(down_fits - count)}
print(f"{REAL} greedy set-ups: the table's count, on average {count.mean():.3f}")
print(f"really fits: draw pile's top {top_fits.mean():.3f}, seat 0's face-down card {down_fits.mean():.3f}")
print(f"top minus face-down, deal by deal: {shown(same)}")
print("real minus count, deal by deal:", ", ".join(f"{k} {shown(v)}" for k, v in real_minus_count.items()))

# %% [markdown]
# The data see no gap between the two hidden cards (the interval holds 0 and rules out a gap above about 1
# point); that there is none at all comes from exchangeability, not from the data. Both fit more often than the
# count, by about 3 points. Each interval is at 95%: about one in twenty such intervals misses.
#
# The unseen cards include the hands, where greedy set-ups kept the weaker cards; a face-down card or the draw
# pile's top is one of the others. The count is a good first answer, not an exact one; lesson 08 shows how later
# play changes the chances.

# %%
assert same[1] < 0 < same[2] and max(-same[1], same[2]) < 0.015           # the text above, checked
for mean, low, _ in real_minus_count.values():
    assert 0.015 < low and 0.02 < mean < 0.04

# %% [teacher]
# **Misconceptions to discuss.** *"The face-down card and the top of the draw pile have different chances."* Nobody
# has seen either and nothing has told them apart: their chances are exactly equal (section 3 finds no gap).
# *"The count is exact."* Only if every unseen card is equally likely; after greedy set-ups the real rate is about 3
# points higher. *"The table is wrong because seat 0 knows better."* Each count uses what its viewer has seen; each
# rests on the same assumption about the set-up. *"No gap in the data proves the chances equal."* The interval
# only rules out gaps of more than about a point; the exact equality is the theorem (exchangeability).

# %% [markdown]
# ## 4. House rules and pick-ups
#
# **Predict first:** under each house rule of lesson 06, will greedy players pick up the pile more often or less
# often than under the plain rules? Which changes it more, the invisible 3 or `seven_lower`?
#
# The cell deals the **same** 2,000 games under each set of rules (it checks that their cards are the same) and
# measures each change deal by deal. It reads four intervals at once, one per question above. To keep the chance
# that *any* of them misses at 5% or less, each gets a 5% / 4 share of the misses (**Bonferroni**, as in lesson
# 03's Exercise 1): each is made at 98.75%. A game still going after 4,000 turns (the option `max_turns`) is
# stopped: a draw.

# %%
HOUSE_GAMES = 2000
RULES = {"plain": {}, "seven_lower": {"seven_lower": True}, "invisible_three": {"invisible_three": True},
         "eight_skips": {"eight_skips": True}}
INTERVALS = 4
z = NormalDist().inv_cdf(1 - 0.05 / INTERVALS / 2)


def dealt_cards(index, **house_rules):
    """Game `index` of the run with seed 31, as dealt: face-down cards, hands, draw pile."""
    state = cardlab.new_game("shithead", players=2, seed=31, index=index, **house_rules).state
    return state.face_down, state.hands, state.draw


assert all(dealt_cards(i) == dealt_cards(i, **rules) for i in range(HOUSE_GAMES) for rules in RULES.values())


def played(index, **house_rules):
    """Game `index` of the run with seed 31, played by greedy bots with the engine."""
    game = cardlab.new_game("shithead", players=2, seed=31, index=index, **house_rules)
    bot = make_policy("greedy", "shithead", np.random.default_rng(0))
    while not game.is_over:
        game.play(choose(bot, game))
    return game


def pickups(**house_rules):
    """Pick-ups per game, and which games never ended (a draw at the safety rule `max_turns`)."""
    run = cardlab.simulate("shithead", players=2, games=HOUSE_GAMES, seed=31, progress=False, **house_rules)
    for index in range(3):                              # the run's game `index` is the deal checked above
        assert played(index, **house_rules).state.pickups == run.extras["pickups"][index]
    return run.extras["pickups"], run.winners < 0


def paired_interval(change):
    """The mean change per deal, with its interval at the 1 - 5%/INTERVALS level."""
    half = z * change.std(ddof=1) / np.sqrt(change.size)
    return change.mean(), change.mean() - half, change.mean() + half


results = {name: pickups(**rules) for name, rules in RULES.items()}
unfinished = np.any([drawn for _, drawn in results.values()], axis=0)
kept = ~unfinished                                       # deals played to the end under every set of rules
plain = results["plain"][0][kept]
house = {name: results[name][0][kept] for name in RULES if name != "plain"}
print(f"deals new_game(seed=31, index=i), i < {HOUSE_GAMES}: their cards the same under all four sets of rules")
print("the runs' games 0-2, replayed from those deals with the engine: the same pick-ups")
stopped = {int(i): [name for name, (_, drawn) in results.items() if drawn[i]] for i in np.flatnonzero(unfinished)}
print(f"deals set aside, a game stopped at max_turns: {len(stopped)} of {HOUSE_GAMES}; "
      + "; ".join(f"deal {i} under {', '.join(names)}" for i, names in stopped.items()))
print(f"each interval at the {1 - 0.05 / INTERVALS:.2%} level (z = {z:.2f}), over {kept.sum()} deals")
print(f"{'rules':>16}  pick-ups per game  change per game [interval]")
print(f"{'plain':>16}  {plain.mean():17.2f}")
changes = {}
for rule, values in house.items():
    changes[rule] = paired_interval(values - plain)
    print(f"{rule:>16}  {values.mean():17.2f}  " + "{:+.2f} [{:+.2f}, {:+.2f}]".format(*changes[rule]))
three_vs_seven = paired_interval(house["invisible_three"] - house["seven_lower"])
print("invisible_three minus seven_lower, deal by deal: {:+.2f} [{:+.2f}, {:+.2f}]".format(*three_vs_seven))
all_deals = paired_interval(results["seven_lower"][0] - results["plain"][0])
print("seven_lower minus plain over all {} deals, a stopped game at its pick-ups so far: "
      "{:+.2f} [{:+.2f}, {:+.2f}]".format(HOUSE_GAMES, *all_deals))

# %% [markdown]
# In the deals that end under every set of rules, `seven_lower` and the invisible 3 lower greedy players'
# pick-ups, and the invisible 3 more than `seven_lower` (these three intervals lie below 0). The interval of
# `eight_skips` contains 0: these deals cannot tell its effect from none, nor its direction.
#
# The deal set aside never ended under `seven_lower`: greedy players looped until `max_turns`. It has no final
# pick-up count, so it is left out under every set of rules, keeping the pairs; counted as it stood when stopped,
# it alone swamps the rest (the last line). So `seven_lower` also made one game endless, a cost these intervals
# do not show.

# %%
assert changes["seven_lower"][2] < 0 and changes["invisible_three"][2] < 0 and three_vs_seven[2] < 0  # as above
assert changes["eight_skips"][1] < 0 < changes["eight_skips"][2]
assert list(stopped.values()) == [["seven_lower"]] and kept.sum() == HOUSE_GAMES - 1
endless = played(next(iter(stopped)), seven_lower=True)   # the deal set aside, replayed with the engine
assert endless.winner is None and endless.state.turn == endless.options["max_turns"] == 4000
assert endless.state.pickups == results["seven_lower"][0][unfinished][0]
assert all_deals[1] < 0 < all_deals[2]                   # with it counted in, the interval spans 0

# %% [teacher]
# **House rules.** Four intervals read together at 98.75% each (Bonferroni: the chance that at least one misses is
# at most the sum of the four 1.25% chances, 5%). One `seven_lower` deal of seed 31 loops until `max_turns` (1,321
# pick-ups): kept in, that one game moves the mean change by about +0.65 and the interval spans 0 (the last line
# printed); the cell sets aside, under every set of rules, the deals where a game never ended, and says which. The
# deal was set aside because of its outcome, so the intervals speak of deals that end; the endless game is a
# finding of its own. The cell compares the cards of `new_game(seed=31, index=i)` for all 2,000 deals; it links
# them to the runs by replaying each run's first three games (and the endless one) with the engine: the run's game
# *i* is that deal (`simulate`'s documented seeding).

# %% [markdown]
# ## Exercises
#
# Type your answer in the box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** In a fresh two-player game, before the set-up, what is the table's exact chance (a fair
# shuffle) that the top of the draw pile would fit on a Queen? Count: which ranks fit on a Queen, and how many
# cards is that?

# %% [check]
exercise_1 = lesson("07").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
fresh = cardlab.new_game("shithead", players=2, seed=0)
unseen = fresh.unseen_cards(None)
on_queen = [c for c in unseen if c.rank in (cardlab.Rank.TWO, cardlab.Rank.TEN, cardlab.Rank.QUEEN,
                                             cardlab.Rank.KING, cardlab.Rank.ACE)]
print(f"2, 10, Q, K, A fit on a Queen: {len(on_queen)}/{len(unseen)} = {len(on_queen) / len(unseen):.4f}")
print(exercise_1.check(f"{len(on_queen)}/{len(unseen)}"))
assert exercise_1.check(f"{len(on_queen)}/{len(unseen)}").is_right
forgot_2_and_10 = f"{len(on_queen) - 8}/{len(unseen)}"
print(f"forgetting the 2s and 10s ({forgot_2_and_10}):", exercise_1.check(forgot_2_and_10))
assert exercise_1.check(forgot_2_and_10).status == "not yet"
answer_1 = f"{len(on_queen)}/{len(unseen)}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** Deal section 2's game again with the house rule `seven_lower=True` (the next cell does it, and
# checks that every card lies where it lay in section 2, with the same 7 on the pile). What is now the table's
# count (fitting unseen cards / unseen cards) for the top of the draw pile? Which ranks fit on a 7 under this rule?

# %%
lower = greedy_setup(14, seven_lower=True)


def places(game):
    """Where every card lies: face-down, face-up, hands, draw pile, pile."""
    s = game.state
    return s.face_down, s.face_up, s.hands, s.draw, s.pile


assert places(lower) == places(after_setup)             # the same set-up as section 2's deal
print(f"top of the pile: {lower.top}; face-up cards: {[[str(c) for c in up] for up in lower.state.face_up]}")
print("every card where it lay in section 2:", places(lower) == places(after_setup))

# %% [check]
exercise_2 = lesson("07").exercise(2, game=lower)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
unseen = lower.unseen_cards(None)
low_ranks = (cardlab.Rank.TWO, cardlab.Rank.THREE, cardlab.Rank.FOUR, cardlab.Rank.FIVE, cardlab.Rank.SIX,
             cardlab.Rank.SEVEN, cardlab.Rank.TEN)
assert lower.top.rank == cardlab.Rank.SEVEN
fit = sum(c.rank in low_ranks for c in unseen)
print(f"2-7 and 10 among the table's unseen cards: {fit}/{len(unseen)} = {fit / len(unseen):.4f}")
print(exercise_2.check(f"{fit}/{len(unseen)}"))
assert exercise_2.check(f"{fit}/{len(unseen)}").is_right
plain_rules = counts["table"]                        # section 2's count, under the plain rules
print(f"the plain rules' {plain_rules} instead:", exercise_2.check(str(plain_rules)))
assert exercise_2.check(str(plain_rules)).status == "not yet"
answer_2 = f"{fit}/{len(unseen)}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS
