# %% [markdown]
# # Deciding under uncertainty: the value of a move
#
# **Learning goals**
#
# - **the idea:** a move's value is an **expected value**, its chance of winning averaged over the ways the hidden
#   cards can fall; one game cannot show it, many play-outs can, and on the *same* random worlds fewer are needed.
# - value a move by play-outs, with an interval for the difference of two moves;
# - see why comparing two moves on the same worlds (paired) needs fewer play-outs.
#
# **Predict first.** In Garbage you may take the top discard when you can place it, or draw blind from the stock.
# Is taking a card you can use always better? By how much would it raise your chance of winning: 1, 10 or 30
# percentage points? Write your guess down before section 1.
#
# This lesson uses the intervals of lesson 01, the expected values of lesson 12 and the paired deals of lesson 14.

# %% [teacher]
# **Lesson plan (50 minutes).** 5 min: predict (above). 10 min: the value of a move (section 1). 10 min: one game
# proves nothing (section 2). 10 min: noise and comparing on the same worlds (section 3). 15 min: exercises
# (exercises 1 and 2, 5 min; exercise 3, 10 min: it needs new code).
#
# **Teacher's notes.** All move values assume that after the move every seat plays on as the greedy bot would:
# "best" means best against greedy play. The variance ratio printed in section 3 is measured twice: directly
# (independent against paired play-outs of the same position, 4,000 worlds each) and from section 1's paired
# play-outs alone; both are estimates, and they agree roughly. The paired interval of a difference is the interval
# of the mean of the per-world differences, $\bar d \pm 1.96\, s_d/\sqrt n$, as for lesson 14's deal scores.

# %% [markdown]
# ## 1. The value of a move
#
# A Garbage game between two greedy bots, stopped after eight moves. Seat 0 is to move. The top discard is the 8♣,
# and seat 0's spot 8 is still face down: seat 0 may take the 8 and place it there, or draw blind from the stock.

# %%

import numpy as np
from IPython.display import HTML, display

import cardlab
from cardlab.chance.stats import Z95
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.sim.move_values import move_values
from cardlab.viz import table_html
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.moves import move_values_figure_from
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
top = position.observe(None).discard[-1]
display(HTML(table_html(position, mover)))
print(f"seat {mover} to move; top discard {top}; moves: {[m.text for m in position.legal_moves()]}")
assert mover == 0 and top.rank == 8 and position.observe(None).layouts[0][7] is None   # as the text above says
assert position.can_use(mover, top)

# %% [markdown]
# Nobody sees the stock or the face-down cards, so "which move is better?" has no sure answer. We *can* ask: if seat
# 0 makes this move and both seats then play on as the greedy bot would, **how likely is seat 0 to win?** That
# chance is the move's value.
#
# It is an **expected value** (lesson 12): count a win as 1 and a loss as 0; the chance of winning is the average of
# that result over all the ways the unknown cards can lie. We estimate it by playing many games out from here, each
# time dealing the unknown cards at random from what seat 0 knows (`rollouts=2000`: 2,000 play-outs per move).

# %%
values = move_values(position, rollouts=2000, rng=np.random.default_rng(1))
for v in values.values:
    print(f"{v.move.text:>13}: wins {v.win.value:.3f}, 95% interval [{v.win.low:.3f}, {v.win.high:.3f}]"
          f" over {v.win.n} play-outs")
display(figure_view(move_values_figure_from(values.records(), title="Seat 0's chance of winning after each move")))
gap = values.value_of("draw stock")
print(f"taking the discard is better by {gap.gap:.3f}, paired 95% interval [{gap.gap_low:.3f}, {gap.gap_high:.3f}]")

# %% [markdown]
# The question is about the **difference** of the two values. Both moves were played out on the same 2,000 worlds,
# so the last line is a paired interval (section 3): the interval of the average per-world difference. It lies
# above 0 (the cell below checks it): evidence that taking the discard is the better move in this position (one
# position cannot show "always").

# %%
assert values.best_move.text == "take discard" and gap.separated                       # what the text above says

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
# count over 4,000 worlds.

# %%
MOVES = ["draw stock", "take discard"]
WORLDS = 4000
common = np.array([[one_playout_each(position, s)[m] for m in MOVES] for s in range(WORLDS)])
draw, take = common[:, 0], common[:, 1]
kinds = {"both win": np.mean((draw == 1) & (take == 1)), "both lose": np.mean((draw == 0) & (take == 0)),
         "only taking wins": np.mean((draw == 0) & (take == 1)),
         "only drawing wins": np.mean((draw == 1) & (take == 0))}
for kind, share in kinds.items():
    print(f"{kind:>18}: {share:.3f} of the worlds")
d = take - draw                         # one difference per world: 1, 0 or -1
half = Z95 * d.std(ddof=1) / np.sqrt(WORLDS)
print(f"averages: draw {draw.mean():.3f}, take {take.mean():.3f}; take minus draw per world {d.mean():.3f}, "
      f"paired 95% interval [{d.mean() - half:.3f}, {d.mean() + half:.3f}]")

# %% [markdown]
# In most worlds both moves end the same way. Where they differ, "only taking wins" is more common than "only
# drawing wins", but not certain. A move that won its one game can still be the worse move: a good decision has a
# high expected value; it need not win every time. The per-world differences, analysed together as lesson 14
# analysed its deal scores, give an interval above 0 again.

# %%
assert 0 < kinds["only drawing wins"] < kinds["only taking wins"] and d.mean() - half > 0   # what the text above says
assert kinds["both win"] + kinds["both lose"] > 0.5                                      # what the text above says

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
assert 2.5 < shrink < 4   # what the text above says

# %% [markdown]
# To compare two moves we need the **difference** of their values. There are two ways to play them out:
#
# - **independently**: each move on its own random worlds;
# - **paired** (*common random numbers*): both moves on the same worlds, as above.
#
# The **variance** of a result is the square of its standard deviation (lesson 01), and the variance of an average
# of $n$ play-outs is the variance of one divided by $n$. Independently, the variance of a difference is the sum of
# the two variances. **Predict first:** will paired differences vary less or more than independent ones, and by
# what factor?

# %%
independent = np.array([[one_playout_each(position, s, common=False)[m] for m in MOVES]
                        for s in range(WORLDS, 2 * WORLDS)])
var_paired = np.var(take - draw, ddof=1)
var_independent = np.var(independent[:, 1] - independent[:, 0], ddof=1)
ratio = var_paired / var_independent
print(f"variance of one difference: paired {var_paired:.3f}, independent {var_independent:.3f}; ratio {ratio:.2f}")
print(f"the same ratio estimated from section 1's 2000 paired play-outs: {values.variance_ratio:.2f}")

# %% [markdown]
# Paired, the worlds where both moves win or both lose give a difference of 0, whatever the luck of the cards. The
# ratio estimates the factor by which pairing multiplies the variance of a difference (two estimates from different
# play-outs, each noisy, that roughly agree). An interval's width goes with the square root of the variance.
# Compare the widths, 2,000 play-outs per move each way:

# %%
assert ratio < 0.8 and values.variance_ratio < 0.8 and abs(ratio - values.variance_ratio) < 0.1   # the text above
apart = move_values(position, rollouts=2000, rng=np.random.default_rng(1), crn=False).value_of("draw stock")
width_paired, width_apart = gap.gap_high - gap.gap_low, apart.gap_high - apart.gap_low
print(f"interval for the difference: paired {width_paired:.3f} wide, independent {width_apart:.3f} wide "
      f"(ratio {width_paired / width_apart:.2f}; square root of the variance ratio {np.sqrt(ratio):.2f})")
assert width_paired < width_apart   # what the text below says

# %% [markdown]
# Pairing is free: the same number of play-outs, compared better. Paired play-outs need a paired analysis, one
# difference per world, as in lesson 14. Lesson 17 uses these values to judge a whole game.

# %% [teacher]
# **Misconceptions to discuss.**
#
# - *"Drawing won, so drawing was right."* One play-out is one world (section 2).
# - *"The move with the higher estimate is better."* Only when the interval of the difference excludes 0
#   (section 1); with few play-outs it often does not.
# - *"Two overlapping intervals mean no difference."* The moves were played out on the same worlds: the paired
#   interval of the difference decides, not the overlap of the two separate intervals.
# - *"Pairing is a trick that biases the result."* Each move's own estimate is unchanged; only the noise of the
#   difference shrinks.

# %% [markdown]
# ## Exercises
#
# Type your answer in the box (3/4, 0.75 or 75%) and press **Check**, or write it between the quotes in the answer
# cell.

# %% [markdown]
# **Exercise 1.** The cell below prints 20 of section 2's worlds (1 = seat 0 won). Count by hand: in what share of
# these 20 worlds would a player who saw only that one game think drawing blind is the better move?

# %% [check]
first_20 = common[misleading:misleading + 20]   # from the world printed in section 2 on
assert len(first_20) == 20
for s, (dr, tk) in enumerate(first_20, start=misleading):
    print(f"world {s:>3}: draw stock {dr}, take discard {tk}")

exercise_1 = lesson("16").exercise(1, worlds=first_20)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
ex1_misleading = sum(1 for dr, tk in first_20 if dr == 1 and tk == 0)
ex1_draw_wins = int(first_20[:, 0].sum())
print(f"worlds where drawing wins and taking loses: {ex1_misleading} of 20; drawing wins in {ex1_draw_wins} of 20")
print(exercise_1.check(f"{ex1_misleading}/20"))
assert exercise_1.check(f"{ex1_misleading}/20").is_right
assert ex1_draw_wins > ex1_misleading   # the plausible wrong answer (every world where drawing wins) differs
print("every world where drawing wins:", exercise_1.check(f"{ex1_draw_wins}/20"))
assert exercise_1.check(f"{ex1_draw_wins}/20").status != "right"
answer_1 = f"{ex1_misleading}/20"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** Use the first variance ratio printed in section 3 (paired over independent, from the 4,000
# worlds). For a difference of two move values to be as precise with independent play-outs as with paired ones,
# independent play-outs need how many times as many play-outs?

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
# play-outs per move, as in section 1, and give the difference to two decimals.

# %%
ex3_position = greedy_position("garbage", seed=17, moves=5)
display(HTML(table_html(ex3_position, None)))
print(f"seat {ex3_position.current_player} to move; moves: {[m.text for m in ex3_position.legal_moves()]}")
ex3_view = ex3_position.observe(None)
assert ex3_view.held.rank == 3 and ex3_view.layouts[1][2].rank == ex3_view.wild   # a 3 held; a Jack on spot 3

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
