# %% [markdown]
# # Hidden information: the same position, different (and correct) probabilities
#
# **The one idea:** a probability describes what someone knows: the table and each player give different answers
# about the same card, each right for its information, and a move seen (even a forced one) changes them.
#
# **Before this lesson:** Shithead (lessons 06–08) and the Spite and Malice stock (lesson 04, for section 5).
#
# **Learning goals**
#
# - compute a conditional probability for each viewer by counting;
# - use Bayes' rule after a forced pick-up, and count cards after a reshuffle.
#
# **Lesson plan (50 minutes).** 5 min: predict. 10 min: section 1. 10 min: section 2. 10 min: section 3. 5 min:
# sections 4–5. 10 min: section 6 and exercises.
#
# **Predict first.** An Ace is on the pile; only a 2, a 10 or an Ace fits. Will seat 0, who holds none of those,
# think a face-down card is *more* or *less* likely to fit than the table thinks? And after seat 0 is seen picking
# up the pile, what is the chance that seat 0's **hand** (the cards it holds, not its face-down cards) includes a
# 10?

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
# the formula's plain share, and the chance that also reads how the hands played. Expect them close, not equal.
#
# The position: Shithead (lessons 06–08), an Ace on the pile. Would a face-down card fit? (Nobody has seen one.) It
# is dealt from a deck list printed in the code; the chances below are those of the players and the table, who have
# not read that list.

# %%
import re
from itertools import combinations
from math import comb

import numpy as np
from IPython.display import display

import cardlab
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.sim.stats import wilson
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view

DECK = ["5S", "KH", "9D", "QC", "3D", "8H", "3S", "4S", "7H", "10C", "JD", "AS", "2H", "6C", "7D", "8C", "QH", "KS",
        "7S", "7C", "KD", "10D", "AD", "5H", "4D", "9S", "6D", "3H", "10H"]
MOVES = ["face up A♠", "face up J♦", "face up 10♣", "face up K♠", "face up Q♥", "face up 8♣", "play 7", "play 7",
         "play 7", "play 6", "play 10", "play 3", "play 2", "play 4 x2", "play A"]


def press(stepper, button="next_move"):
    """Press a stepper button from code (next_move, step, back, reset); stop here if the stepper reports a problem."""
    getattr(stepper, button)()
    if "⚠" in stepper.message.value:
        raise RuntimeError(re.sub(r"<[^>]+>", "", stepper.message.value))


# Both seats are `human`, so no bot moves; this notebook plays both seats' moves itself and the whole class
# watches one screen, so `hot_seat=False` (with two people at one device, leave it out: the stepper then hides
# each hand behind a "pass the device" screen between their turns).
table = cardlab.Stepper("shithead", players=2, seed=1, deck=DECK, policies=["human", "human"],
                        hot_seat=False)
for move in MOVES:
    table.play(move)
    assert "⚠" not in table.message.value, table.message.value
position = table.game
print(position, "| top of the pile:", position.top)
display(table)

# %%
for viewpoint in (None, 0, 1):
    who = "table " if viewpoint is None else f"seat {viewpoint}"
    unseen = position.unseen_cards(viewpoint)
    fit = [c for c in unseen if position.fits(c)]
    chance = float(prob.shithead_blind_fits(position, viewpoint))
    print(f"{who}: cannot see {len(unseen)} cards, {len(fit)} fit ({len(fit) / len(unseen):.4f}) -> "
          f"P(face-down card fits) = {chance:.4f}")
    assert 0 < abs(chance - len(fit) / len(unseen)) < 0.01     # close to the plain share, not equal to it

# %% [markdown]
# The stepper shows the same: choose a viewpoint in its menu and its panels are recomputed from that person's
# knowledge. From code:

# %%
for label in ("table", "seat 0", "seat 1"):
    table.viewpoint.value = label
    print(f"--- viewpoint {label}")
    print(table.panel_numbers())
table.viewpoint.value = "table"

# %% [markdown]
# Which one is "the" probability? All of them. Each is the right chance *for the person who knows exactly that*.
# The card is fixed; what varies is the information.

# %% [markdown]
# ## 2. Why all of them are right: the law of total probability
#
# The table does not know seat 0's hand. If it averages seat 0's answer over all the hands seat 0 might hold
# (weighted by how likely each is, given what the table knows), it must get its own answer back:
#
# $$P(A \mid \text{table}) = \sum_h P(\text{seat 0 holds } h \mid \text{table})\; P(A \mid \text{table}, h).$$
#
# Check it: redeal everything the table cannot see many times, and in each redealt world compute seat 0's exact
# answer.

# %%
rng = np.random.default_rng(11)
n = 4000
seat0_answers = [float(prob.shithead_blind_fits(position.resample(None, rng), 0)) for _ in range(n)]
table_answer = float(prob.shithead_blind_fits(position, None))
mean, half = np.mean(seat0_answers), 1.96 * np.std(seat0_answers, ddof=1) / np.sqrt(n)
print(f"table's answer:              {table_answer:.4f}")
print(f"average of seat 0's answers: {mean:.4f} ± {half:.4f}")
assert abs(mean - table_answer) < 2 * half

# %% [markdown]
# **Consistent is not correct.** The redealt worlds come from the same model as the exact answers, so a model that
# was wrong about the world would pass this check just as well. To test *correctness*, use **real deals**: play 1000
# seeded games with greedy bots for 16 moves, ask the table and seat 0 for the chance that seat 0's first face-down
# card fits, and look at that real card (the game knows it; no player has seen it). If the chances are right, the
# share of real cards that fit settles on their average.

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
for row in convergence_rows(outcome, [10, 100, outcome.size]):
    print("running share of real cards that fit,", row)
display(figure_view(convergence_figure(outcome, truth=float(np.mean(said["seat 0"])),
                                       title="Real face-down cards that fit, against seat 0's average chance",
                                       label="real cards that fit", x_title="real games")))

# %% [markdown]
# The running share settles near the dashed line (seat 0's average chance), and its interval contains both
# averages: 1000 real games show no disagreement with either answer. But the interval reaches about 3 points either
# side and the two averages differ by less than 1: this test cannot tell them apart (section 5 shows real deals
# that can).

# %% [teacher]
# **Teacher's note (section 2).** The redealt worlds also show seat 0's answer *calibrated* within the model (cut the
# worlds at the thirds of seat 0's answer; in each group the card fits about as often as seat 0 said), but that is
# again consistency. The real-deal check treats the 1000 outcomes as independent draws with different chances
# $p_i$: the count's variance $\sum p_i(1-p_i)$ is at most $n\bar p(1-\bar p)$, so the Wilson interval is, if
# anything, conservative for the average chance. A sharper per-game test is the z score
# $(\sum y_i - \sum p_i)/\sqrt{\sum p_i(1-p_i)}$. Seat 0's extra information (three hand cards among dozens unseen)
# changes the answers very little, so its Brier score is not reliably lower than the table's in one set of 1000
# games; knowing more makes an answer *sharper*, not "more true".

# %% [markdown]
# ## 3. Bayes' rule after an observed pick-up
#
# In `position`, seat 0 is to move on an Ace and picks up the pile. A player who can play must play, so the table
# has just **learnt** something: seat 0 held no 2, no 10 and no Ace. What does that say about the $h$ cards seat 0
# held before?
#
# Let $K$ be "those cards include at least one King" and $N$ "none of them fits" (the pick-up). Bayes' rule:
#
# $$P(K \mid N) = \frac{P(N \mid K)\,P(K)}{P(N)}.$$
#
# Assume (a simplification for this section) that every $h$-card hand was equally likely before the pick-up. The
# cell computes each term by counting, checks the result by listing every possible hand, and does the same for a 10.

# %%
before = position                         # seat 0 to move on an Ace
h = len(before.state.hands[0])
pool = before.unseen_cards(None)          # what the table cannot see before the pick-up
U, F = len(pool), sum(before.fits(c) for c in pool)


def rank_count(cards, rank):
    return sum(c.rank == rank for c in cards)


results = {}
for name, rank in (("a King", cardlab.Rank.KING), ("a 10", cardlab.Rank.TEN)):
    k = rank_count(pool, rank)
    prior = 1 - comb(U - k, h) / comb(U, h)
    p_n = comb(U - F, h) / comb(U, h)
    fitting_rank = before.fits(next(c for c in pool if c.rank == rank))
    both = 0.0 if fitting_rank else (comb(U - F, h) - comb(U - F - k, h)) / comb(U, h)    # P(K and N)
    posterior = both / p_n                                                                   # Bayes' rule
    hands = list(combinations(range(U), h))                                                  # brute force
    no_fit = [hand for hand in hands if not any(before.fits(pool[i]) for i in hand)]
    brute = sum(any(pool[i].rank == rank for i in hand) for hand in no_fit) / len(no_fit)
    assert abs(posterior - brute) < 1e-12 and len(no_fit) / len(hands) == p_n
    results[name] = (prior, posterior)
    print(f"holds {name}: before {prior:.4f}; after seeing the pick-up {posterior:.4f} (Bayes), "
          f"{brute:.4f} (all {len(hands)} hands listed)")
assert results["a 10"][1] == 0 < results["a 10"][0] and results["a King"][1] > results["a King"][0]
print(f"seat 0's real hand before the pick-up (the game knows it): {', '.join(map(str, before.state.hands[0]))}")

# %% [markdown]
# Compare with your prediction. Why does one chance fall and the other rise? A player's move, even a forced one,
# carries information.
#
# Now a count that ignores the pick-up: treat seat 0's unknown cards as any unseen cards. Compare it with a
# simulation that redeals only hands the table has not ruled out:

# %%
after = position.copy()
after.play("pick up")
unseen = after.unseen_cards(None)
tens = rank_count(unseen, cardlab.Rank.TEN)
unknown = len(after.state.hands[0]) - len(after.state.known[0])
naive = 1 - comb(len(unseen) - tens, unknown) / comb(len(unseen), unknown)
rng = np.random.default_rng(13)
hits = 0
for _ in range(4000):
    world = after.resample(None, rng)
    rest = list(world.state.hands[0])
    for card in world.state.known[0]:
        rest.remove(card)
    hits += any(c.rank == cardlab.Rank.TEN for c in rest)
print(f"holds a 10: ignoring the pick-up {naive:.4f}; simulation that uses it {wilson(hits, 4000)}; "
      f"Bayes {results['a 10'][1]:.4f}")
assert results["a 10"][1] == 0 and naive > 0 and hits == 0

# %% [markdown]
# The count that ignores the pick-up answers a *different question* ("if seat 0's cards were any unseen cards").

# %% [teacher]
# **Teacher's note (section 3).** A hand that had to pick up is made only of cards that do not fit, so a rank that
# fits (the 10) cannot be in it, and a rank that does not fit (the King) becomes likelier. With $U$ cards unseen by
# the table, $F$ of them fitting and $k$ Kings, $P(N) = \binom{U-F}{h}/\binom{U}{h}$ and
# $P(K \mid N) = 1 - \binom{U-F-k}{h}/\binom{U-F}{h}$. cardlab's
# resampler goes one step further than the section: every *play* is evidence too, so its chance law weighs each
# possible hand by the chance that a player choosing uniformly at random among the fitting cards would have played
# as this one did (Bayes' rule again). That model of how players choose stays an assumption: the greedy bot saves
# its 2s and 10s, so it tells more than the law reads. Lesson 08 shows how much reading the plays changes the
# table's pick-up chance, against real games.

# %% [markdown]
# ## 4. When there is nothing private, everybody agrees
#
# In Garbage nobody looks at a face-down card, and there are no hands. The table and every player know the same
# things, so they give the same answers:

# %%
garbage = cardlab.new_game("garbage", players=3, seed=6)
for _ in range(5):
    garbage.play(garbage.legal_moves()[0])
print([str(prob.garbage_next_card_placeable(garbage, v)) for v in (None, 0, 1, 2)])

# %% [markdown]
# ## 5. Card counting after a reshuffle
#
# In Spite and Malice a completed centre pile (A up to Q, 12 cards that everybody saw, Kings standing in as wild
# cards) is shuffled and put **under** the stock. When the stock is drawn down to it, the next card is one of those
# 12 cards, minus any already drawn again. A player who remembers the pile can count; a forgetful player treats
# every card they cannot see alike. A seeded game of greedy bots, played until the stock is down to the first
# completed pile:

# %%
spite = cardlab.Stepper("spite-and-malice", seed=13)
while spite.game.observe(None).stock_layers[0][0] == 0:
    press(spite)
game = spite.game
at_the_pile = game.copy()                       # kept for exercise 3
pile = sorted(game.state.stock[-game.observe(None).stock_layers[0][2]:])   # which cards: everybody saw them
print(re.sub(r"<[^>]+>", "", spite.counter.value))
print(f"stock: {game.observe(None).stock_size} cards, all from the completed pile:", " ".join(map(str, pile)))
print("centre piles need:", game.observe(None).needed)

# %% [markdown]
# Play on until half of those cards are drawn, then follow the next moves. At each one, compare four answers to
# "will the next stock card fit a centre pile?": the table, seat 0 and seat 1 (each remembers the pile, and knows
# which of its cards it drew), and a forgetful player.

# %%
def forgetful(game):
    """P(next stock card fits) for someone who treats every card the table cannot see as equally likely."""
    unseen = game.unseen_cards(None)
    return sum(game.can_play_on_centre(c) for c in unseen) / len(unseen)


while game.observe(None).stock_layers[0][2] > 6:
    press(spite)
print("move  stock  pile cards left  table   seat 0  seat 1  forgetful")
for _ in range(20):
    view = game.observe(None)
    answers = [prob.spite_next_stock_playable(game, v) for v in (None, 0, 1)]
    print(f"{game.move_count:>4}  {view.stock_size:>5}  {view.stock_layers[0][2]:>15}  "
          + "  ".join(f"{str(a):>6}" for a in answers) + f"  {forgetful(game):>9.4f}")
    press(spite)

# %% [markdown]
# Who is right? Redealing with the counting model would only check it against itself, so ask real games. Play 2000
# seeded games of greedy bots, each until the stock's top layer is a reshuffled pile with 6 or fewer cards left; then
# write down both answers for the table and whether the real top card fits (the game knows it; no player has seen
# it). Where the answers disagree by more than 0.05, compare the number of real cards that fit with the number each
# answer expects, as a z score (|z| above 3: clearly off).

# %%
REAL_SPITE = 2000
counted, forgot, top_fits = [], [], []
for seed in range(REAL_SPITE):
    real = cardlab.new_game("spite-and-malice", players=2, seed=seed)
    bot = make_policy("greedy", "spite-and-malice", np.random.default_rng(seed))
    while not real.is_over:
        layers = real.observe(None).stock_layers
        if layers and layers[0][0] != 0 and layers[0][2] <= 6:
            break
        real.play(choose(bot, real))
    if real.is_over:
        continue
    counted.append(float(prob.spite_next_stock_playable(real, None)))
    forgot.append(forgetful(real))
    top_fits.append(real.can_play_on_centre(real.state.stock[-1]))
counted, forgot, top_fits = np.array(counted), np.array(forgot), np.array(top_fits, dtype=float)
print(f"{top_fits.size} real positions (the other games ended first)")
z_scores = {}
for label, group in (("forgetting says higher", forgot > counted + 0.05),
                     ("forgetting says lower", forgot < counted - 0.05)):
    fits_here = top_fits[group]
    print(f"{label}: {int(group.sum())} positions, the real top card fits in {wilson(fits_here.sum(), fits_here.size)}")
    for name, expected in (("counting", counted[group]), ("forgetting", forgot[group])):
        z = (fits_here.sum() - expected.sum()) / np.sqrt(np.sum(expected * (1 - expected)))
        z_scores[label, name] = z
        print(f"   {name:>10} expects {expected.mean():.3f} on average: z = {z:+.2f}")
assert all(abs(z) < 3 for (_, name), z in z_scores.items() if name == "counting")
assert all(abs(z) > 3 for (_, name), z in z_scores.items() if name == "forgetting")

# %% [markdown]
# Read the z scores: which answer do real cards agree with, in each group? (The cell checks that counting's |z|
# stays below 3 and forgetting's exceeds 3 in both.)

# %% [teacher]
# **Teacher's note (section 5).** Where the two answers agree, real games cannot tell them apart, hence the two
# groups. Counting is right in both directions: where forgetting says higher the real cards fit less often, and
# where it says lower they fit more often; remembering the pile is worth something in real games, not only in the
# model. Garbage counts the same way after a reshuffle: its stock is then made of discards everybody saw, and
# `prob.garbage_next_card_placeable` counts over that known stock only (lessons 02–03 show why that is rare).

# %% [markdown]
# ## 6. Predict, then reveal
#
# This stepper asks "what is the chance that a face-down card fits the pile?" at every move and hides its plots
# until you have guessed. Set the viewpoint to seat 0 and guess what *seat 0* should
# believe; then Reveal. It starts at the deal and waits for your first guess. The next cell is a "student" made of
# code, on its own stepper (not shown), who guesses the table's answer each time: the calibration it prints is that
# code's, not yours.

# %%
guess_me = cardlab.Stepper("shithead", players=2, seed=5, predict="blind_fits", rollouts=16, panel_rollouts=16)
guess_me.viewpoint.value = "seat 0"
display(guess_me)

# %%
coded = cardlab.Stepper("shithead", players=2, seed=5, predict="blind_fits", rollouts=16, panel_rollouts=16)
coded.viewpoint.value = "seat 0"                # the code's own stepper: guess_me above stays at the deal
for _ in range(6):
    press(coded)
for _ in range(6):
    if coded.game.is_over:
        break
    record = coded.predictor.submit(float(prob.shithead_blind_fits(coded.game, None)))
    print(f"move {record.move}: {coded.predictor.feedback}")
    assert record.answer == float(prob.shithead_blind_fits(coded.game, 0))
    press(coded)
calibration = str(coded.calibration()).splitlines()
print("the code's calibration:", "\n".join(line for line in calibration if "Brier" not in line))   # a later lesson
assert guess_me.game.move_count == 0           # the stepper shown still waits at the deal

# %% [teacher]
# **Teacher's note (section 6).** The guesses are scored against the revealed answers (the "mean squared
# distance"): this question has no recorded outcome, so there is no Brier score here; the win question of lesson 00
# has one.

# %% [teacher]
# **Misconceptions to discuss.** *"There is one true probability that the card fits."* The card is fixed; the
# probability describes a person's information (section 1). *"Redealing the unseen cards proves the model right."*
# It redeals with the model: consistency, not correctness (section 2). *"Players' moves tell the table nothing."* A
# forced pick-up does (section 3). *"Forgetting a few cards hardly matters."* After a reshuffle, it does (section 5).

# %% [markdown]
# ## Exercises
#
# Type each answer in its box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** After seat 0's pick-up in `position`, what is the table's chance that seat 0's earlier hand
# included a 5, by Bayes' rule (using the pick-up, and every hand equally likely before it as in section 3)? Does a
# 5 fit an Ace?

# %% [check]
exercise_1 = lesson("10").exercise(1, game=position)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
fives = rank_count(pool, cardlab.Rank.FIVE)
with_pickup = 1 - comb(U - F - fives, h) / comb(U - F, h)          # Bayes, as for the King in section 3
ignoring = 1 - comb(U - fives, h) / comb(U, h)                      # the prior: any h unseen cards
print(f"using the pick-up (Bayes): {with_pickup:.4f}; ignoring it: {ignoring:.4f}")
print(exercise_1.check(f"{with_pickup:.4f}"))
print("ignoring the pick-up:", exercise_1.check(f"{ignoring:.4f}"))
assert exercise_1.check(f"{with_pickup:.4f}").is_right and exercise_1.check(f"{ignoring:.4f}").status == "not yet"
answer_1 = f"{with_pickup:.4f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** Check the law of total probability in Spite and Malice, in `game` as section 5 left it: average
# seat 1's exact answer to "will the next stock card fit?" over 2000 worlds redealt from the table's view (the
# cell below redeals one world). What number should the average come close to, and does it?

# %%
rng = np.random.default_rng(14)


def redealt_world():
    """One world the table cannot tell from `game`: the cards it cannot see, dealt again at random."""
    return game.resample(None, rng)

# %% [check]
exercise_2 = lesson("10").exercise(2, game=game)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
values = [float(prob.spite_next_stock_playable(redealt_world(), 1)) for _ in range(2000)]
mean, half = np.mean(values), 1.96 * np.std(values, ddof=1) / np.sqrt(len(values))
target = float(prob.spite_next_stock_playable(game, None))
own = float(prob.spite_next_stock_playable(game, 1))
print(f"table {target:.4f}; average of seat 1's answers {mean:.4f} ± {half:.4f}; seat 1 in this game {own:.4f}")
assert abs(mean - target) < 2 * half + 1e-12     # within about four standard errors
print(exercise_2.check(f"{mean:.4f}"))
print("seat 1's own answer:", exercise_2.check(f"{own:.4f}"))
assert exercise_2.check(f"{mean:.4f}").is_right
# seat 1's own answer is accepted only where it happens to equal the table's (in this deal both are 1/4)
assert exercise_2.check(f"{own:.4f}").is_right == (abs(own - target) < 5e-5)
answer_2 = f"{mean:.4f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3.** Go back to the moment when the stock was down to the completed pile and nobody had drawn from it
# (the first cell of section 5 printed the pile and what the centre piles need). What is the chance that the next
# stock card fits a centre pile, for a player who remembers the pile? Count by hand (Kings are wild).

# %% [check]
exercise_3 = lesson("10").exercise(3, game=at_the_pile)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_3.check(answer_3)

# %% [solution]
fitting = [c for c in pile if at_the_pile.can_play_on_centre(c)]
print(f"{len(fitting)} of the pile's {len(pile)} cards fit ({' '.join(map(str, fitting))}): {len(fitting)}/{len(pile)}")
print(exercise_3.check(f"{len(fitting)}/{len(pile)}"))
no_kings = sum(c.rank != cardlab.Rank.KING for c in fitting)
print(f"forgetting the Kings ({no_kings}/{len(pile)}):", exercise_3.check(f"{no_kings}/{len(pile)}"))
print(f"forgetful ({forgetful(at_the_pile):.4f}):", exercise_3.check(f"{forgetful(at_the_pile):.4f}"))
assert exercise_3.check(f"{len(fitting)}/{len(pile)}").is_right
for wrong in (f"{no_kings}/{len(pile)}", f"{forgetful(at_the_pile):.4f}"):
    assert exercise_3.check(wrong).status == "not yet"
answer_3 = f"{len(fitting)}/{len(pile)}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS
