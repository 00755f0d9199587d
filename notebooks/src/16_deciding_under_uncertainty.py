# %% [markdown]
# # Deciding under uncertainty: which move is best?
#
# **The one idea:** a move's value is an **expected value**, its chance of winning averaged over the ways the hidden
# cards can fall; one game cannot show it, many play-outs on the *same* random worlds can.
#
# **Learning goals**
#
# - value a move by play-outs, paired on the same worlds;
# - tell what a player knows from what the table knows.
#
# **Lesson plan (50 minutes).** 5 min: predict (below). 10 min: the value of a move and one game (sections 1–2).
# 10 min: noise and common random numbers (section 3). 10 min: information (section 4). 5 min: a tournament and a
# game review (sections 5–6). 10 min: exercises.
#
# **Predict first.** In Garbage you may take the top discard when you can place it, or draw blind from the stock.
# Is taking a card you can use always better? By how much would it raise your chance of winning: 1, 10 or 30
# percentage points?

# %% [markdown]
# ## 1. The value of a move
#
# A Garbage game between two greedy bots, stopped after nine moves. Seat 0 is to move. The top discard is a 3, and
# seat 0's spot 3 holds a Jack (wild): taking the 3 frees the Jack for a face-down spot.

# %%

import numpy as np
from IPython.display import HTML, display

import cardlab
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.policies.search import SearchPolicy
from cardlab.sim import prob
from cardlab.sim.move_values import move_values
from cardlab.sim.review import review_game
from cardlab.sim.stats import Z95
from cardlab.sim.tournament import paired_tournament
from cardlab.viz import table_html
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.moves import move_values_figure_from, review_figure
from cardlab.viz.panels import figure_view


def greedy_position(name, seed, moves):
    """The game `name` dealt with `seed`, after `moves` moves of greedy bots."""
    game = cardlab.new_game(name, players=2, seed=seed)
    bot = make_policy("greedy", name, np.random.default_rng(0))
    while game.move_count < moves:
        game.play(choose(bot, game))
    return game


position = greedy_position("garbage", seed=12, moves=8)
mover = position.current_player
display(HTML(table_html(position, mover)))
print(f"seat {mover} to move; moves: {[m.text for m in position.legal_moves()]}")

# %% [markdown]
# Nobody sees the stock or the face-down cards, so "which move is better?" has no sure answer. We *can* ask: if seat
# 0 makes this move and both seats then play on as the greedy bot would, **how likely is seat 0 to win?** That
# chance is the move's value.
#
# It is an **expected value**: count a win as 1 and a loss as 0; the chance of winning is the average of that
# result over all the ways the unknown cards can lie. We estimate it by playing many games out from here, each time
# dealing the unknown cards at random from what seat 0 knows.

# %%
values = move_values(position, rollouts=2000, rng=np.random.default_rng(1))
for v in values.values:
    print(f"{v.move.text:>13}: wins {v.win.value:.3f}, 95% interval [{v.win.low:.3f}, {v.win.high:.3f}]"
          f" over {v.win.n} play-outs")
display(figure_view(move_values_figure_from(values.records(), title="Seat 0's chance of winning after each move")))
gap = values.value_of("draw stock")
print(f"taking the discard is better by {gap.gap:.3f}, paired 95% interval [{gap.gap_low:.3f}, {gap.gap_high:.3f}]")
assert values.best_move.text == "take discard" and gap.separated

# %% [markdown]
# The question is about the **difference** of the two values, so the last line gives an interval for the difference
# itself (section 3). It lies above 0 (the cell checks it): evidence that taking the discard is the better move.

# %% [markdown]
# ## 2. One game proves nothing
#
# **Predict first.** Play each move out once, on the same hidden cards. How often will drawing blind win while
# taking the discard loses?
#
# The helper below plays every move out once on one random world (the same hidden cards and later shuffles for
# every move) and returns 1 or 0 per move.

# %%
def one_playout_each(game, seed, common=True):
    """Each move played out once from `game` (seeded): 1 if the mover won, else 0. With common=True every move
    gets the same world; with common=False each move gets its own."""
    once = move_values(game, rollouts=1, rng=np.random.default_rng(seed), crn=common)
    return {v.move.text: int(v.win.value) for v in once.values}


misleading = next(s for s in range(1000) if one_playout_each(position, s) == {"draw stock": 1, "take discard": 0})
print(f"world {misleading}: {one_playout_each(position, misleading)}")

# %% [markdown]
# In that world drawing won and taking lost: a player who saw only this game would think drawing was right. Now
# count over 1,000 worlds.

# %%
MOVES = ["draw stock", "take discard"]
WORLDS = 1000
common = np.array([[one_playout_each(position, s)[m] for m in MOVES] for s in range(WORLDS)])
draw, take = common[:, 0], common[:, 1]
kinds = {"both win": np.mean((draw == 1) & (take == 1)), "both lose": np.mean((draw == 0) & (take == 0)),
         "only taking wins": np.mean((draw == 0) & (take == 1)),
         "only drawing wins": np.mean((draw == 1) & (take == 0))}
for kind, share in kinds.items():
    print(f"{kind:>18}: {share:.3f} of the worlds")
print(f"averages: draw {draw.mean():.3f}, take {take.mean():.3f}")
assert 0 < kinds["only drawing wins"] < kinds["only taking wins"]

# %% [markdown]
# In most worlds both moves end the same way. Where they differ, "only taking wins" is more common than "only
# drawing wins", but not certain. A move that won its one game can still be the worse move: a good decision has a
# high expected value; it need not win every time.

# %% [markdown]
# ## 3. Noise, and comparing on the same worlds
#
# An estimate from $n$ play-outs is noisy; its 95% interval shrinks like $1/\sqrt n$. The chart follows the
# estimate for "take discard" world by world.

# %%
display(figure_view(convergence_figure(take, title="Win chance after taking the discard, world by world",
                                       label="take discard", x_title="play-outs")))
rows = convergence_rows(take, ns=[10, 100, 1000])
for row in rows:
    print(f"after {row.n:>4} play-outs: {row.value:.3f}, 95% interval [{row.low:.3f}, {row.high:.3f}]")
shrink = (rows[1].high - rows[1].low) / (rows[2].high - rows[2].low)
print(f"ten times the play-outs: the interval is {shrink:.2f} times narrower (square root of 10: {np.sqrt(10):.2f})")
assert 2.5 < shrink < 4

# %% [markdown]
# To compare two moves we need the **difference** of their values. There are two ways to play them out:
#
# - **independently**: each move on its own random worlds;
# - **paired** (*common random numbers*): both moves on the same worlds, as above.
#
# Independently, the variance of a difference is the sum of the two variances. **Predict first:** will paired
# differences vary less or more than independent ones, and by what factor?

# %%
independent = np.array([[one_playout_each(position, s, common=False)[m] for m in MOVES]
                        for s in range(WORLDS, 2 * WORLDS)])
var_paired = np.var(take - draw, ddof=1)
var_independent = np.var(independent[:, 1] - independent[:, 0], ddof=1)
ratio = var_paired / var_independent
print(f"variance of one difference: paired {var_paired:.3f}, independent {var_independent:.3f}; ratio {ratio:.2f}")
print(f"the same ratio estimated from section 1's 2000 paired play-outs: {values.variance_ratio:.2f}")
assert ratio < 0.8 and values.variance_ratio < 0.8

# %% [markdown]
# Paired, the worlds where both moves win or both lose give a difference of 0, whatever the luck of the cards. The
# ratio is the factor by which pairing multiplies the variance of a difference. An interval's width goes with the
# square root of the variance. Compare the widths, 2,000 play-outs per move each way:

# %%
apart = move_values(position, rollouts=2000, rng=np.random.default_rng(1), crn=False).value_of("draw stock")
width_paired, width_apart = gap.gap_high - gap.gap_low, apart.gap_high - apart.gap_low
print(f"interval for the difference: paired {width_paired:.3f} wide, independent {width_apart:.3f} wide "
      f"(ratio {width_paired / width_apart:.2f}; square root of the variance ratio {np.sqrt(ratio):.2f})")
assert width_paired < width_apart

# %% [markdown]
# Pairing is free: the same play-outs, compared better. This is why every move value in this lesson uses it.

# %% [markdown]
# ## 4. What you know changes the value
#
# The values above use what **seat 0 knows**. In Garbage nobody looks at a face-down card, so seat 0 knows what the
# table (everybody watching) knows. In Shithead a player sees its own hand; the table does not. Here is a Shithead
# position, and the win chance of the player to move as the table sees it and as the player sees it (2,000
# play-outs each, separate random numbers).

# %%
shithead = greedy_position("shithead", seed=6, moves=24)
seat = shithead.current_player
print(f"seat {seat} to move; its hand (the table cannot see it): "
      f"{' '.join(str(c) for c in shithead.observe(seat).hand)}")
display(HTML(table_html(shithead, None)))

# %% [markdown]
# **Predict first:** with the hand printed above, will the player's own chance of winning be higher or lower than
# the table's?

# %%
table_view = prob.win_probability(shithead, None, rollouts=2000, rng=np.random.default_rng(3))[seat]
player_view = prob.win_probability(shithead, seat, rollouts=2000, rng=np.random.default_rng(4))[seat]
half = Z95 * np.sqrt(table_view.value * (1 - table_view.value) / 2000
                     + player_view.value * (1 - player_view.value) / 2000)
difference = player_view.value - table_view.value
print(f"seat {seat}'s chance of winning: the table's view {table_view.value:.3f}, seat {seat}'s own view "
      f"{player_view.value:.3f}; difference {difference:+.3f} [{difference - half:+.3f}, {difference + half:+.3f}]")
assert difference + half < 0
garbage_views = [prob.win_probability(position, v, rollouts=2000, rng=np.random.default_rng(1))[mover].value
                 for v in (None, mover)]
print(f"the Garbage position of section 1, seat {mover}'s chance: the table's view {garbage_views[0]:.3f}, "
      f"seat {mover}'s own view {garbage_views[1]:.3f}")
assert garbage_views[0] == garbage_views[1]   # the same knowledge gives the same answer

# %% [markdown]
# Same position, two chances, both honest: the table averages over every hand the player might hold, weighted by a
# model of how players choose (an assumption: lesson `08_shithead_chances`); the player knows its hand. A
# probability describes somebody's knowledge. (The table cannot even value the player's moves: it does not know
# which cards, so which moves, the player has.)
#
# **The value of information.** Back to Garbage. A player who could see every hidden card and every later shuffle
# *at this one decision* would pick, in each world, a move that wins there, and then play on like greedy (as every
# play-out does). Seat 0 must pick one move for all worlds. **Predict first:** how much more would this all-seeing
# player win?

# %%
all_seeing = common.max(axis=1).mean()
best_move = common.mean(axis=0).max()
print(f"the all-seeing player wins {all_seeing:.3f}; the best single move wins {best_move:.3f}; "
      f"seeing everything at this decision is worth {all_seeing - best_move:.3f}, a lower bound on the value of "
      "seeing everything throughout")
assert all_seeing >= best_move

# %% [markdown]
# The difference is the share of worlds where the better move loses and the other wins: seeing the cards helps at
# this decision only where it could change the choice. It is a **lower bound** on the value of perfect
# information: this player sees only once and then plays greedy. A player who kept seeing every card could also
# win some of the worlds where both moves lose here, by better later decisions.

# %% [markdown]
# ## 5. A player that looks ahead
#
# A **search player** uses move values: before each decision it plays every move out a few times from what it knows,
# and keeps the greedy bot's move unless another beats it by more than the noise.
#
# A **paired tournament** of Shithead plays each deal twice, seats swapped. A deal pair scores the search player's
# wins minus its losses (−2 to +2). The two games of a pair share their cards, so the pair is the unit: the pairs are
# independent, and their average gets a 95% interval. **Predict first:** in how many of 40 deal pairs will the
# search player come out ahead?

# %%
searcher = SearchPolicy(np.random.default_rng(5), budget=100)
duel = paired_tournament("shithead", searcher, "greedy", pairs=40, seed=1)
scores = duel.scores
print(f"deal pairs: {len(scores)}; ahead in {np.sum(scores > 0)}, behind in {np.sum(scores < 0)}, "
      f"even in {np.sum(scores == 0)}")
print(f"scores -2..+2: {[int(np.sum(scores == k)) for k in range(-2, 3)]}")
print(f"advantage per deal pair {duel.advantage:+.3f}, 95% interval [{duel.low:+.3f}, {duel.high:+.3f}]")
assert duel.low > 0

# %% [markdown]
# An interval made this way covers the true advantage in about 95 of 100 tournaments. This one lies above 0 (the
# cell checks it): evidence, at the 5% level, that the search player, with only 100 play-outs per decision, beats
# greedy at Shithead. More deal pairs would narrow the interval.

# %% [markdown]
# ## 6. A game review
#
# After a game, each decision can be judged from what the player knew **at the time**: how much win chance did it
# give up against the best move? As in a chess review, a loss of at least 5, 10 or 15 percentage points is an
# *inaccuracy*, a *mistake* or a *blunder*, when the interval of the loss is above 0. A short Garbage game: the random
# bot (seat 0) against greedy (seat 1).

# %%
game = cardlab.new_game("garbage", players=2, seed=1)
bots = [make_policy("random", "garbage", np.random.default_rng(1)), make_policy("greedy", "garbage",
                                                                                np.random.default_rng(1))]
while not game.is_over:
    game.play(choose(bots[game.current_player], game))
review = review_game(game, rollouts=300, rng=np.random.default_rng(1))
print(f"{game.move_count} moves; winner: seat {game.winner}")
print(review)
display(figure_view(review_figure(review.records(), players=2, title="Win chance given up at each decision")))
assert any(d.label == "blunder" and d.seat == 0 for d in review.decisions)
given_up = [row["loss_total"] for row in review.summary()]
assert given_up[0] > 0.3 > given_up[1] and not any(d.seat == 1 for d in review.costly())

# %% [markdown]
# The random bot gave up much more win chance (most of it in one blunder); greedy, whose moves the values assume,
# gave up almost nothing.
# Each decision has its own 95% interval, and each interval misses its true value about one time in twenty, so
# over many decisions expect a wrong label now and then: read a review as hints where to look, not as verdicts.

# %% [teacher]
# **Teacher notes.** All move values assume that after the move every seat plays on as the greedy bot would: "best"
# means best against greedy play. The search player is one step of policy improvement over greedy (it keeps greedy's
# move unless another one is better beyond the noise, with a Bonferroni-corrected level). Its budget here (100
# play-outs per decision) is a tenth of its default, to keep the notebook short. The variance ratio printed in
# section 3 is the direct measurement (independent against paired play-outs on the same position); the second line
# is the estimate from the paired play-outs alone. In section 4 the all-seeing player knows the later shuffles too,
# but uses that knowledge only at this one decision and then plays greedy, so the printed gain is a lower bound on
# the expected value of perfect information (a player who kept seeing could do better at later decisions).

# %% [markdown]
# ## Exercises
#
# Each exercise checks your answer: type it in the box (a fraction such as 3/4, a decimal such as 0.75, or a
# percentage such as 75%) and press **Check**, or write it between the quotes in the answer cell.

# %% [markdown]
# **Exercise 1.** The cell below prints 20 of section 2's worlds (1 = seat 0 won). Count by hand: in these 20
# worlds, what share would the all-seeing player of section 4 win?

# %% [check]
first_20 = common[misleading:misleading + 20]   # from the world printed in section 2 on
assert len(first_20) == 20
for s, (d, t) in enumerate(first_20, start=misleading):
    print(f"world {s:>3}: draw stock {d}, take discard {t}")

exercise_1 = lesson("16").exercise(1, worlds=first_20)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
ex1_wins = sum(1 for d, t in first_20 if d == 1 or t == 1)
ex1_single = int(first_20.sum(axis=0).max())
print(f"worlds with at least one winning move: {ex1_wins} of 20; the better single move wins {ex1_single} of 20")
print(exercise_1.check(f"{ex1_wins}/20"))
assert exercise_1.check(f"{ex1_wins}/20").is_right
assert ex1_single < ex1_wins   # the plausible wrong answer (one move for all 20 worlds) differs
print("one move for all worlds:", exercise_1.check(f"{ex1_single}/20"))
assert exercise_1.check(f"{ex1_single}/20").status != "right"
answer_1 = f"{ex1_wins}/20"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** Use the first variance ratio printed in section 3 (paired over independent, from the 1,000
# worlds). For a difference of two move values to
# be as precise with independent play-outs as with paired ones, independent play-outs need how many times as many
# play-outs?

# %% [check]
exercise_2 = lesson("16").exercise(2, paired=common, independent=independent)
display(exercise_2)

# %%
answer_2 = ""   # your answer, e.g. "1.5"
exercise_2.check(answer_2)

# %% [solution]
ex2_factor = 1 / ratio
print(f"variance ratio {ratio:.3f}; independent play-outs need {ex2_factor:.2f} times as many")
print(exercise_2.check(f"{ex2_factor:.2f}"))
assert exercise_2.check(f"{ex2_factor:.2f}").is_right
print("the ratio itself:", exercise_2.check(f"{ratio:.2f}"))
assert exercise_2.check(f"{ratio:.2f}").status == "not yet"   # the plausible wrong direction
answer_2 = f"{ex2_factor:.2f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3.** The cell below shows a Garbage game (seed 17) after 5 greedy moves: seat 1 has just turned up a
# 3, and its spot 3 holds a Jack. It may put the 3 there (the Jack then goes to a face-down spot) or discard the 3.
# How much win chance does discarding give up against the best move? Value the moves of this position with 4,000
# play-outs, as in section 1, and give the difference to two decimals.

# %%
ex3_position = greedy_position("garbage", seed=17, moves=5)
display(HTML(table_html(ex3_position, None)))
print(f"seat {ex3_position.current_player} to move; moves: {[m.text for m in ex3_position.legal_moves()]}")

# %% [check]
exercise_3 = lesson("16").exercise(3)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "0.05"
exercise_3.check(answer_3)

# %% [solution]
assert ex3_position.current_player == 1
ex3 = move_values(ex3_position, rollouts=4000, rng=np.random.default_rng(11))
for v in ex3.values:
    print(f"{v.move.text:>20}: wins {v.win.value:.3f}; gives up {v.gap:.3f} [{v.gap_low:.3f}, {v.gap_high:.3f}]")
ex3_loss = ex3.value_of("discard").gap
print(exercise_3.check(f"{ex3_loss:.2f}"))
assert ex3.value_of("discard").separated and exercise_3.check(f"{ex3_loss:.2f}").is_right
ex3_win = ex3.value_of("discard").win.value
print("the discard's own win chance instead:", exercise_3.check(f"{ex3_win:.2f}"))
assert exercise_3.check(f"{ex3_win:.2f}").status == "not yet"   # the plausible wrong answer
answer_3 = f"{ex3_loss:.2f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS
