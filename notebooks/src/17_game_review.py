# %% [markdown]
# # A game review: learn from your mistakes
#
# **Learning goals**
#
# - **the idea:** a decision is judged by what its player knew when making it: its value, from that player's
#   information, against the best move's value on the same worlds.
# - see how what a player knows changes a value, and what seeing every card would add;
# - read a game review and its intervals, and find a better move at your own worst decision.
#
# **Predict first.** In Shithead you see your own hand; nobody else does. Is your chance of winning, computed from
# your hand, higher or lower than the table's, or can it be either? Write your guess down before section 1.
#
# This lesson uses the move values of lesson 16 and the paired tournaments of lesson 14.

# %% [teacher]
# **Lesson plan (50 minutes).** 5 min: predict (above). 10 min: what you know changes the value (section 1).
# 5 min: seeing every card (section 2). 5 min: a player that looks ahead (section 3). 10 min: a game review and
# learning from its worst decision (sections 4–5). 15 min: exercises (exercise 1, 5 min; exercise 2, 10 min: the
# student may change the policy and review its new game).
#
# **Teacher's notes.** All move values assume that after the move every seat plays on as the greedy bot would:
# "best" means best against greedy play. In Shithead every hidden hand is weighed by a model of how players choose
# (lesson 08); the greedy bot tells more about its hand than the model reads, so the table's view is an estimate
# under that assumption. The all-seeing player of section 2 also knows the later shuffles, but uses that knowledge
# only at this one decision and then plays greedy, so its gain is a lower bound on what seeing every card is
# worth, not the value of perfect information. The search player is one step of policy improvement over greedy
# (it keeps greedy's move unless another one is better beyond the noise, at a Bonferroni-corrected level); its
# budget here (100 play-outs per decision) is a fifth of its default, to keep the notebook short.

# %% [markdown]
# ## 1. What you know changes the value
#
# A move's value (lesson 16) uses what the **player to move knows**. In Garbage nobody looks at a face-down card,
# so a player knows what the table (everybody watching) knows. In Shithead a player sees its own hand; the table
# does not. Here is a Shithead position, and the win chance of the player to move as the table sees it and as the
# player sees it (40,000 play-outs each).

# %%
import numpy as np
from IPython.display import HTML, display

import cardlab
from cardlab.chance.stats import Z95, wilson
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.policies.search import SearchPolicy
from cardlab.sim import prob
from cardlab.sim.move_values import move_values
from cardlab.sim.review import position_before, review_game
from cardlab.sim.tournament import paired_tournament
from cardlab.viz import table_html
from cardlab.viz.moves import review_figure
from cardlab.viz.panels import figure_view


def greedy_position(name, seed, moves):
    """The game `name` dealt with `seed`, after `moves` moves of greedy bots."""
    game = cardlab.new_game(name, players=2, seed=seed)
    bot = make_policy("greedy", name, np.random.default_rng(0))
    while game.move_count < moves:
        game.play(choose(bot, game))
    return game


shithead = greedy_position("shithead", seed=6, moves=24)
seat = shithead.current_player
print(f"seat {seat} to move; its hand (the table cannot see it): "
      f"{' '.join(str(c) for c in shithead.observe(seat).hand)}")
display(HTML(table_html(shithead, None)))

# %% [markdown]
# **Predict first:** with the hand printed above, will the player's own chance of winning be higher or lower than
# the table's?

# %%
def two_views(game, playouts=40000):
    """The chance of winning of the player to move, as the table sees it and as the player sees it, and the 95%
    interval of their difference (separate play-outs, so their variances add)."""
    me = game.current_player
    table_view = prob.win_probability(game, None, rollouts=playouts, rng=np.random.default_rng(3))[me].value
    own_view = prob.win_probability(game, me, rollouts=playouts, rng=np.random.default_rng(4))[me].value
    half = Z95 * np.sqrt(table_view * (1 - table_view) / playouts + own_view * (1 - own_view) / playouts)
    return table_view, own_view, own_view - table_view, half


other = greedy_position("shithead", seed=7, moves=24)
views = {}
for name, game in (("seed 6", shithead), ("seed 7", other)):
    table_view, own_view, difference, half = views[name] = two_views(game)
    print(f"{name}, hand {' '.join(str(c) for c in game.observe(game.current_player).hand)}: the table's view "
          f"{table_view:.3f}, the player's own view {own_view:.3f}; difference {difference:+.3f} "
          f"[{difference - half:+.3f}, {difference + half:+.3f}]")
position = greedy_position("garbage", seed=12, moves=8)   # lesson 16's Garbage position
mover = position.current_player
garbage_views = [prob.win_probability(position, v, rollouts=2000, rng=np.random.default_rng(1))[mover].value
                 for v in (None, mover)]
print(f"lesson 16's Garbage position, seat {mover}'s chance: the table's view {garbage_views[0]:.3f}, "
      f"seat {mover}'s own view {garbage_views[1]:.3f}")
assert garbage_views[0] == garbage_views[1]   # the same knowledge gives the same answer
assert position.observe(None).discard[-1].rank == 8   # the 8 of section 2

# %% [markdown]
# The two estimates come from separate play-outs, so the variance of their difference is the sum of their
# variances (lesson 16). With the first hand the player's own view is lower, beyond the noise; in a second position
# (seed 7), with another hand, it is higher. Same position, two chances, both honest: the table averages over every
# hand the player might hold, weighted by a model of how players choose (an assumption, lesson 08); the player
# knows its hand. A probability describes somebody's knowledge.

# %%
difference_6, half_6 = views["seed 6"][2:]
difference_7, half_7 = views["seed 7"][2:]
assert difference_6 + half_6 < 0 < difference_7 - half_7   # lower, then higher, beyond the noise (the text above)

# %% [markdown]
# ## 2. Seeing every card
#
# Back to lesson 16's Garbage position: take the 8♣ from the discard or draw blind. A player who could see every
# hidden card and every later shuffle *at this one decision* would pick, in each world, a move that wins there, and
# then play on like greedy. **Predict first:** how much more would this all-seeing player win than the best single
# move?

# %%
def one_playout_each(game, seed):
    """Each move played out once from `game` on the same world (seeded): 1 if the mover won, else 0."""
    once = move_values(game, rollouts=1, rng=np.random.default_rng(seed))
    return {v.move.text: int(v.win.value) for v in once.values}


MOVES = ["draw stock", "take discard"]
WORLDS = 4000
common = np.array([[one_playout_each(position, s)[m] for m in MOVES] for s in range(WORLDS)])
all_seeing = common.max(axis=1).mean()
best_move = common.mean(axis=0).max()
gain = all_seeing - best_move
print(f"the all-seeing player wins {all_seeing:.3f}; the best single move (take discard) wins {best_move:.3f}")
print(f"gain {gain:.3f}")
assert common[:, 1].mean() == best_move   # as printed

# %% [markdown]
# Seeing the cards helps at this decision only where it could change the choice: in the worlds where the better
# move loses and the other wins. The gain is a **lower bound** on what seeing every card is worth: this player sees
# only once, then plays greedy. A player who kept seeing could also win some worlds where both moves lose here.

# %%
only_drawing = wilson(float(np.sum(common.max(axis=1) > common[:, 1])), WORLDS)
print(f"share of worlds where only drawing wins: {only_drawing}")
assert np.isclose(gain, only_drawing.value) and only_drawing.low > 0   # the gain, and it "helps" (the text above)

# %% [markdown]
# ## 3. A player that looks ahead
#
# A **search player** uses move values: before each decision it plays every move out a few times from what it knows,
# and keeps the greedy bot's move unless another beats it by more than the noise.
#
# A **paired tournament** of Shithead plays each deal twice, seats swapped. A deal pair scores the search player's
# wins minus its losses (−2 to +2). As in lesson 14, the deal is the unit: the pairs are independent, and their
# average gets a 95% interval. **Predict first:** in how many of 40 deal pairs will the search player come out
# ahead?

# %%
searcher = SearchPolicy(np.random.default_rng(5), budget=100)
duel = paired_tournament("shithead", searcher, "greedy", pairs=40, seed=1)
scores = duel.scores
print(f"deal pairs: {len(scores)}; ahead in {np.sum(scores > 0)}, behind in {np.sum(scores < 0)}, "
      f"even in {np.sum(scores == 0)}")
print(f"scores -2..+2: {[int(np.sum(scores == k)) for k in range(-2, 3)]}")
print(f"advantage per deal pair {duel.advantage:+.3f}, 95% interval [{duel.low:+.3f}, {duel.high:+.3f}]")

# %% [markdown]
# The interval lies above 0 (the cell below checks it): evidence, at the 5% level, that the search player, with only
# 100 play-outs per decision, beats greedy at Shithead.

# %%
assert duel.low > 0   # what the text above says

# %% [markdown]
# ## 4. A game review
#
# After a game, each decision can be judged from what the player knew **at the time**: how much win chance did it
# give up against the best move, on the same worlds? As in a chess review, a loss of at least 5, 10 or 15
# percentage points is an *inaccuracy*, a *mistake* or a *blunder*, when the paired interval of the loss is above
# 0. A short Garbage game: the random bot (seat 0) against greedy (seat 1).

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
given_up = [row["loss_total"] for row in review.summary()]
blunders = [d for d in review.decisions if d.label == "blunder"]
assert [d.seat for d in blunders] == [0] and blunders[0].loss > given_up[0] / 2
assert given_up[1] < 0.05 and not any(d.seat == 1 for d in review.costly())
judged = [d for d in review.decisions if d.label not in ("best", "forced")]
print(f"{len(judged)} decisions judged by an interval; if each covers its true loss 95 times in 100, independently, "
      f"at least one misses with chance {1 - 0.95 ** len(judged):.2f}")

# %% [markdown]
# The random bot gave up much more win chance, most of it in one blunder; greedy, whose moves the values assume,
# gave up under 5 points in all. Each label rests on noisy estimates: an interval misses about one time in twenty,
# and a loss near 5, 10 or 15 points can land on either side of the line. Over a long game, expect a few wrong
# labels: read a review as hints, not verdicts.

# %% [markdown]
# ## 5. Learn from your mistakes
#
# A chess site stops at your worst decision and asks for a better move; Exercise 2 does that. Here is the position
# before the random bot's worst decision (the largest loss whose interval is above 0). **Predict first:** on fresh
# play-outs, will its loss be larger or smaller than the review's, and will the review's best move stay alone at
# the top?

# %%
worst = review.worst(0)
before = position_before(game, worst.move_number)
display(HTML(table_html(before, 0)))
print(f"move {worst.move_number}, seat {before.current_player} to move; moves: "
      f"{[m.text for m in before.legal_moves()]}")
assert before.current_player == 0 and worst.label == "blunder"

# %% [markdown]
# The worst of many noisy losses is likely to be overestimated (the *winner's curse*: the best-looking of many
# tries looks better than it is), so the cell below values the moves again on fresh play-outs.

# %%
again = move_values(before, rollouts=4000, rng=np.random.default_rng(2))
mine = again.value_of(worst.played)
print(f"played {worst.played!r}: wins {mine.win.value:.3f}; best {again.best_move.text!r}: wins "
      f"{again.values[again.best].win.value:.3f}; given up {mine.gap:.3f} [{mine.gap_low:.3f}, {mine.gap_high:.3f}]")
print(f"not clearly worse than the best: {[v.move.text for v in again.values if not v.separated]}")
# six Jack placements compared with the best: with this many intervals, one may exclude 0 by chance
print(f"the review's own estimate of the loss: {worst.loss:.3f}")
assert mine.separated and mine.gap > 0.15   # still a blunder on a second look
assert mine.gap < worst.loss and sum(not v.separated for v in again.values) > 1   # smaller; not alone at the top

# %% [teacher]
# **Misconceptions to discuss.**
#
# - *"The table and the player disagree, so one of them is wrong."* Each is right for its information (section 1).
# - *"Seeing every card at once is worth exactly the printed gain."* It is a lower bound (section 2).
# - *"A blunder label is certain."* Each label rests on noisy estimates; many intervals, a few misses (section 4).
# - *"The review's worst loss is the true loss."* It is the largest of many estimates: value it again (section 5).

# %% [markdown]
# ## Exercises
#
# Exercise 1: type your answer in the box. Exercise 2: choose a move in the menu. Then press
# **Check**, or write your answer between the quotes in the answer cell.

# %% [markdown]
# **Exercise 1.** The cell below prints 20 of section 2's worlds (1 = seat 0 won). Count by hand: in these 20
# worlds, what share would the all-seeing player of section 2 win?

# %%
start = next(s for s, (dr, tk) in enumerate(common) if dr == 1 and tk == 0)   # the first world only drawing wins
first_20 = common[start:start + 20]
assert len(first_20) == 20
for s, (dr, tk) in enumerate(first_20, start=start):
    print(f"world {s:>3}: draw stock {dr}, take discard {tk}")

# %% [check]
exercise_1 = lesson("17").exercise(1, worlds=first_20)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
ex1_wins = sum(1 for dr, tk in first_20 if dr == 1 or tk == 1)
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
# **Exercise 2.** Learn from your own mistakes. `my_policy` below plays Shithead: for now it plays the first legal
# move in the list. The check plays it in seat 0 against greedy (seed 3), reviews the game, shows the position of
# your worst decision and asks for a move as good as the best. Think first; then value the moves as in lesson 16,
# with 4,000 play-outs per move (`exercise_2.position` is that position). Change the policy (keep it deterministic:
# the grader replays it) and check again to review a new game.

# %%
def my_policy(view, legal_moves):
    """Your Shithead policy: what your seat sees and the legal moves -> one of the moves."""
    return legal_moves[0]

# %% [check]
exercise_2 = lesson("17").exercise(2, policy=my_policy)
display(exercise_2)

# %%
answer_2 = ""   # a move between the quotes, as listed (its text or its number)
exercise_2.check(answer_2)

# %% [solution]
ex2 = move_values(exercise_2.position, rollouts=4000, rng=np.random.default_rng(21))
for v in ex2.values:
    print(f"{v.move.text:>12}: wins {v.win.value:.3f}; gives up {v.gap:.3f} [{v.gap_low:.3f}, {v.gap_high:.3f}]")
print(exercise_2.check(ex2.best_move.text))
assert exercise_2.check(ex2.best_move.text).is_right
print("the move played:", exercise_2.check(exercise_2.played))
assert exercise_2.check(exercise_2.played).status == "not yet"
played_wins = ex2.value_of(exercise_2.played).win.value
better_only = [v.move.text for v in ex2.values if v.separated and v.win.value > played_wins]
print("better than the move played, clearly worse than the best:",
      {move: exercise_2.check(move).status for move in better_only})
assert better_only and all(exercise_2.check(move).status == "not yet" for move in better_only)
answer_2 = ex2.best_move.text   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS
