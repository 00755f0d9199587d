# %% [markdown]
# # Hidden information: the same card, different (and correct) probabilities
#
# **Learning goals**
#
# - **the idea:** a probability describes what someone knows. The table and each player give different chances for
#   the same hidden card, each right for its information; averaging a better-informed answer over what you cannot
#   see gives your own answer back.
# - count each viewer's chance from the cards that viewer cannot see;
# - check the answers against real deals, not only against the model's own redealt worlds.
#
# **Before this lesson:** Shithead, its rules and its chances (lessons 06–09); for section 3, Garbage (lesson 02).
#
# **Predict first.** An Ace is on the pile; only a 2, a 10 or an Ace fits. Will seat 0, who holds none of those,
# think a face-down card is *more* or *less* likely to fit than the table thinks? And if the table averaged seat 0's
# answer over every hand seat 0 might hold, would it get more than its own answer, less, or the same?

# %% [teacher]
# **Lesson plan (50 minutes).** 5 min: predict (above). 12 min: three answers for one card (section 1). 13 min: the
# law of total probability, then real deals (section 2). 5 min: when nothing is private (section 3). 15 min:
# exercises (exercise 1 is a count, 5 minutes; exercise 2 a loop over redealt worlds, 10 minutes).

# %% [markdown]
# ## 1. Knowing more changes the answer
#
# A conditional probability $P(A \mid B)$ is the chance of $A$ *among the outcomes where $B$ holds*. With cards, $B$
# is "what I have seen". Suppose (a **modelling assumption**) that every arrangement of the cards I cannot see is
# equally likely. Then for the next unseen card
#
# $$P(\text{it fits} \mid \text{what I know})
#   = \frac{\#\{\text{cards I cannot see that fit}\}}{\#\{\text{cards I cannot see}\}}.$$
#
# The table (everybody's common knowledge) sees no hand; a player sees their own. So they count different cards.
#
# The assumption holds at the deal of a fair shuffle, but only roughly later: a player who can play must play a card
# that fits, so the cards a hand kept are a little likelier not to fit. Below, each viewpoint gets both numbers:
# the formula's plain share, and the chance of lesson 08's model, which also reads how the hands played. Expect
# them close, not equal.
#
# The position: Shithead, an Ace on the pile. Would a face-down card fit? (Nobody has seen one.) It is dealt from a
# deck list printed in the code; the chances below are those of the players and the table, who have not read that
# list.

# %%
import numpy as np
from IPython.display import display

import cardlab
from cardlab.chance.stats import wilson
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view

DECK = ["5S", "KH", "9D", "QC", "3D", "8H", "3S", "4S", "7H", "10C", "JD", "AS", "2H", "6C", "7D", "8C", "QH", "KS",
        "7S", "7C", "KD", "10D", "AD", "5H", "4D", "9S", "6D", "3H", "10H"]
MOVES = ["face up A♠", "face up J♦", "face up 10♣", "face up K♠", "face up Q♥", "face up 8♣", "play 7", "play 7",
         "play 7", "play 6", "play 10", "play 3", "play 2", "play 4 x2", "play A"]

# Both seats are `human`, so no bot moves; this notebook plays both seats' moves itself and the whole class
# watches one screen, so `hot_seat=False` (with two people at one device, leave it out: the stepper then hides
# each hand behind a "pass the device" screen between their turns).
table = cardlab.Stepper("shithead", players=2, seed=1, deck=DECK, policies=["human", "human"],
                        hot_seat=False)
for move in MOVES:
    table.play(move)
    assert "⚠" not in table.message.value, table.message.value
position = table.game.copy()             # a copy: clicking the stepper's buttons does not change `position`
print(position, "| top of the pile:", position.top)
display(table)

# %%
plain, chances = {}, {}
for viewpoint in (None, 0, 1):
    who = "table " if viewpoint is None else f"seat {viewpoint}"
    unseen = position.unseen_cards(viewpoint)
    fit = [c for c in unseen if position.fits(c)]
    plain[viewpoint] = len(fit) / len(unseen)
    chances[viewpoint] = float(prob.shithead_blind_fits(position, viewpoint))
    print(f"{who}: cannot see {len(unseen)} cards, {len(fit)} fit ({plain[viewpoint]:.4f}) -> "
          f"P(face-down card fits) = {chances[viewpoint]:.4f}")
    assert 0 < abs(chances[viewpoint] - plain[viewpoint]) < 0.01     # close to the plain share, not equal to it

# %% [markdown]
# The stepper shows the same (press **Back** first if you played a move in it): choose a viewpoint in its menu and its
# panels are recomputed from that person's knowledge. A panel marked "exact" was counted, not sampled: exact *under
# lesson 08's model* of the players. From code:

# %%
for label in ("table", "seat 0", "seat 1"):
    table.viewpoint.value = label
    print(f"--- viewpoint {label}")
    print(table.panel_numbers())
table.viewpoint.value = "table"

# %% [markdown]
# Compare with your prediction: seat 0, who holds none of the cards that fit, is the most hopeful; seat 1 the least.
# Which one is "the" probability? All of them. Each is the right chance *for the person who knows exactly that*.
# The card is fixed; what varies is the information.

# %%
for by_viewer in (plain, chances):    # seat 0 the most hopeful, seat 1 the least (the text above)
    assert by_viewer[1] < by_viewer[None] < by_viewer[0]

# %% [markdown]
# ## 2. Why all of them are right: the law of total probability
#
# The table does not know seat 0's hand. If it averages seat 0's answer over all the hands seat 0 might hold
# (weighted by how likely each is, given what the table knows), it must get its own answer back:
#
# $$P(A \mid \text{table}) = \sum_h P(\text{seat 0 holds } h \mid \text{table})\; P(A \mid \text{table}, h).$$
#
# This works because seat 0 knows everything the table knows, and more. Check it: redeal everything the table
# cannot see, as the model says it could lie, 4000 times, and in each redealt world compute seat 0's answer.

# %%
rng = np.random.default_rng(11)
n = 4000
worlds = [position.resample(None, rng) for _ in range(n)]
seat0_answers = [float(prob.shithead_blind_fits(world, 0)) for world in worlds]
table_answer = float(prob.shithead_blind_fits(position, None))
mean, half = np.mean(seat0_answers), 1.96 * np.std(seat0_answers, ddof=1) / np.sqrt(n)
print(f"table's answer:              {table_answer:.4f}")
print(f"average of seat 0's answers: {mean:.4f} ± {half:.4f}")
assert abs(mean - table_answer) < 2 * half
answers = np.array(seat0_answers)                 # the teacher's note: calibrated within the model, by thirds
fits_in_world = np.array([world.fits(world.state.face_down[0][0]) for world in worlds], dtype=float)
for third in np.array_split(np.argsort(answers), 3):
    p = answers[third]
    assert abs(fits_in_world[third].sum() - p.sum()) < 3 * np.sqrt(np.sum(p * (1 - p)))

# %% [markdown]
# **Consistent is not correct.** The redealt worlds come from the same model as the answers, so this checks the
# *computing*: a model that was wrong about the world would pass just as well. Only **real deals** decide. Play
# 1000 seeded games with greedy bots for 16 moves, ask the table and seat 0 for the chance that seat 0's first
# face-down card fits, and look at that real card (the game knows it; no player has seen it). If the chances are
# right, the share of real cards that fit settles on their average.

# %%
REAL = 1000
said = {"table": [], "seat 0": []}
real_fits = []
for seed in range(REAL):
    real = cardlab.new_game("shithead", players=2, seed=seed)
    bot = make_policy("greedy", "shithead", np.random.default_rng(seed))
    for _ in range(16):
        if real.is_over:
            break
        real.play(choose(bot, real))
    if real.is_over:
        continue
    said["table"].append(float(prob.shithead_blind_fits(real, None)))
    said["seat 0"].append(float(prob.shithead_blind_fits(real, 0)))
    real_fits.append(bool(real.fits(real.state.face_down[0][0])))
outcome = np.array(real_fits, dtype=float)
share = wilson(int(outcome.sum()), outcome.size)
print(f"{outcome.size} real positions; the real card fits in {share}")
for who, values in said.items():
    print(f"{who:>6}'s chance, averaged over the games: {np.mean(values):.4f}; inside the interval: "
          f"{share.contains(float(np.mean(values)))}")
    assert share.contains(float(np.mean(values)))
apart = abs(np.mean(said["table"]) - np.mean(said["seat 0"]))
print(f"the interval's half-width: {share.half_width:.3f}; the two averages differ by {apart:.4f}")
assert 0.02 < share.half_width < 0.04 and apart < 0.01     # "about 3 points" and "less than 1 point"
brier_gap = (outcome - np.array(said["table"])) ** 2 - (outcome - np.array(said["seat 0"])) ** 2   # per game
assert abs(brier_gap.mean()) < 1.96 * brier_gap.std(ddof=1) / np.sqrt(brier_gap.size)          # teacher's note
for row in convergence_rows(outcome, [10, 100, outcome.size]):
    print("running share of real cards that fit,", row)
display(figure_view(convergence_figure(outcome, truth=float(np.mean(said["seat 0"])),
                                       title="Real face-down cards that fit, against seat 0's average chance",
                                       label="real cards that fit", x_title="real games")))

# %% [markdown]
# The running share settles near the dashed line (seat 0's average chance), and its interval contains both
# averages: 1000 real games show no disagreement with either answer. But the interval reaches about 3 points either
# side and the two averages differ by less than 1: this test cannot tell them apart. (Lesson 11 compares two
# answers that real deals can tell apart.)

# %% [teacher]
# **Teacher's note (section 2).** The law needs *nested* information: seat 0 knows all the table knows. Averaging
# seat 1's answer over worlds redealt from *seat 0's* view does not give seat 0's answer (seat 1 does not see seat
# 0's hand; `tests/course/test_lesson_10_11.py` checks it), which is why exercise 2 redeals from the table's view.
# The redealt worlds also show seat 0's answer *calibrated* within the model (cut the worlds at the thirds of seat
# 0's answer; in each group the card fits about as often as seat 0 said, |z| < 3, asserted), but that is again
# consistency. The real-deal check treats the 1000 outcomes as independent draws with different chances $p_i$: the
# count's variance $\sum p_i(1-p_i)$ is at most $n\bar p(1-\bar p)$, so the Wilson interval is, if anything,
# conservative for the average chance. A sharper per-game test is the z score of lesson 08,
# $(\sum y_i - \sum p_i)/\sqrt{\sum p_i(1-p_i)}$. Seat 0's extra information (three hand cards among dozens
# unseen) changes the answers very little, so its Brier score (the squared distance of a chance from the outcome)
# is not reliably lower than the table's in these 1000 games: the 95% interval of the paired per-game difference
# contains 0 (asserted). Knowing more makes an answer *sharper*, not "more true".

# %% [markdown]
# ## 3. When there is nothing private, everybody agrees
#
# In Garbage nobody looks at a face-down card, and there are no hands. The table and every player know the same
# things, so they give the same answers:

# %%
garbage = cardlab.new_game("garbage", players=3, seed=6)
for _ in range(5):
    garbage.play(garbage.legal_moves()[0])
answers = [str(prob.garbage_next_card_placeable(garbage, v)) for v in (None, 0, 1, 2)]
print(answers)
assert len(set(answers)) == 1

# %% [teacher]
# **Misconceptions to discuss.** *"There is one true probability that the card fits."* The card is fixed; the
# probability describes a person's information (section 1). *"Redealing the unseen cards proves the model right."*
# It redeals with the model: consistency, not correctness; real deals decide (section 2). *"The player who knows
# more has the true chance."* Both answers pass the real-deal test; knowing more makes an answer sharper (section 2).
# *"Averaging anybody's answers gives mine."* Only the answers of someone who knows all I know (exercise 2).

# %% [markdown]
# ## Exercises
#
# Type each answer in its box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** In `position`, seat 1 shows its hand to seat 0 (choose "seat 1" in the stepper's viewpoint menu
# to see it). Count again with the formula of section 1: what is seat 0's plain share of fitting cards among the
# cards it still cannot see?

# %% [check]
exercise_1 = lesson("10").exercise(1, game=position)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
still_unseen = list(position.unseen_cards(0))
for card in position.state.hands[1]:           # now seen by seat 0
    still_unseen.remove(card)
fit = [c for c in still_unseen if position.fits(c)]
print(f"seat 1's hand: {', '.join(map(str, position.state.hands[1]))}")
print(f"seat 0 still cannot see {len(still_unseen)} cards, {len(fit)} fit: {len(fit)}/{len(still_unseen)}")
print(exercise_1.check(f"{len(fit)}/{len(still_unseen)}"))
seat0_before = sum(map(position.fits, position.unseen_cards(0)))
print(f"the fitting cards left over all 32 ({len(fit)}/32):", exercise_1.check(f"{len(fit)}/32"))
print(f"seat 0's share before ({seat0_before}/32):", exercise_1.check(f"{seat0_before}/32"))
assert exercise_1.check(f"{len(fit)}/{len(still_unseen)}").is_right
for wrong in (f"{len(fit)}/32", f"{seat0_before}/32"):
    assert exercise_1.check(wrong).status == "not yet"
answer_1 = f"{len(fit)}/{len(still_unseen)}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** `later` is the game two moves on: seat 0 picks up the pile, seat 1 plays a 9. Average seat 1's
# answer to "will a face-down card fit?" over 2000 worlds redealt from the table's view (the cell below redeals one
# world). Type your average. Whose answer in `later` should it come close to?

# %%
later = position.copy()
for move in ("pick up", "play 9"):
    later.play(move)
rng = np.random.default_rng(14)


def redealt_world():
    """One world the table cannot tell from `later`: the cards it cannot see, dealt again at random."""
    return later.resample(None, rng)

# %% [check]
exercise_2 = lesson("10").exercise(2, game=later)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
values = [float(prob.shithead_blind_fits(redealt_world(), 1)) for _ in range(2000)]
mean, half = np.mean(values), 1.96 * np.std(values, ddof=1) / np.sqrt(len(values))
target = float(prob.shithead_blind_fits(later, None))
own = float(prob.shithead_blind_fits(later, 1))
print(f"average of seat 1's answers {mean:.4f} ± {half:.4f}; the table's answer {target:.4f}; "
      f"seat 1's own answer in this game {own:.4f}")
assert abs(mean - target) < 2 * half     # within about four standard errors
print(exercise_2.check(f"{mean:.4f}"))
print("seat 1's own answer:", exercise_2.check(f"{own:.4f}"))
assert exercise_2.check(f"{mean:.4f}").is_right and exercise_2.check(f"{own:.4f}").status == "not yet"
answer_2 = f"{mean:.4f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS
