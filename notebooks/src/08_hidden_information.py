# %% [markdown]
# # Hidden information: the same position, different (and correct) probabilities
#
# **Learning goals**
#
# - see that a probability depends on what you know: the table and each player give different answers about the
#   same card, and all of them are right;
# - compute a conditional probability by counting the cards a viewer cannot see;
# - check the **law of total probability**: averaged over what the table cannot see, a player's answer is the
#   table's answer — and see why that check shows *consistency*, while only real deals can show *correctness*;
# - use **Bayes' rule**: a forced pick-up (and every play) tells the table something about a hand, and the simple
#   count misses it;
# - predict, then reveal: guess what a player should believe before the stepper shows it;
# - count cards after a reshuffle: once known cards go back into the stock, counting beats treating every unseen card
#   alike.
#
# **Lesson plan (50 minutes).** 5 min: predict (below). 10 min: the same card, three answers (section 1). 10 min:
# total probability, and the test against real deals (section 2). 10 min: Bayes' rule after a pick-up (section 3).
# 5 min: card counting (sections 4–5). 10 min: predict-then-reveal (section 6) and exercises.
#
# **Predict first.** An Ace is on the pile; only a 2, a 10 or an Ace fits. Will seat 0, who holds none of those,
# think a face-down card is *more* or *less* likely to fit than the table thinks? And after seat 0 is seen picking
# up the pile, what is the chance that seat 0's hidden cards include a 10?

# %% [markdown]
# ## 1. Knowing more changes the answer
#
# A conditional probability $P(A \mid B)$ is the chance of $A$ *among the outcomes where $B$ holds*. With cards, $B$ is
# "what I have seen". Every card I have seen is not the next card. Then comes a **modelling assumption**: *every
# arrangement of the cards I have not seen is equally likely*. It holds at the deal (a fair shuffle); later it also
# needs *the other players' choices to carry no information* about their hidden cards, which is not always true
# (section 3 shows a case where it fails). Under that assumption, for the next unseen card,
#
# $$P(\text{it fits} \mid \text{what I know})
#   = \frac{\#\{\text{cards I cannot see that fit}\}}{\#\{\text{cards I cannot see}\}}.$$
#
# The table (everybody's common knowledge) cannot see any hand. A player sees their own hand. So they count
# different cards.
#
# The assumption is only an approximation once the players have chosen moves: a player who can play must play a
# card that fits, so the cards a hand kept are a little likelier not to fit. The cell below prints both numbers for
# each viewpoint, the plain share of the formula and the chance that also reads how the hands played; expect them
# to be close but not equal.
#
# We take a Shithead position from notebook `03_shithead`: an Ace on the pile, so only a 2, a 10 or an Ace fits, and
# ask: *would a face-down card fit?* (Nobody, not even the owner, has seen a face-down card.)

# %%
import re
from itertools import combinations
from math import comb

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.sim.stats import wilson
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
    print(f"{who}: cannot see {len(unseen)} cards, {len(fit)} fit ({len(fit) / len(unseen):.4f}) -> "
          f"P(face-down card fits) = {float(prob.shithead_blind_fits(position, viewpoint)):.4f}")

# %% [markdown]
# Each answer is close to its plain share of fitting cards but not equal to it, because it also reads how the two
# hands played (see `03_shithead`). The stepper shows the same thing: choose a viewpoint in its menu and its panels
# are recomputed from that person's knowledge. From code:

# %%
for label in ("table", "seat 0", "seat 1"):
    table.viewpoint.value = label
    print(f"--- viewpoint {label}")
    print(table.panel_numbers())
table.viewpoint.value = "table"

# %% [markdown]
# Which one is "the" probability? All of them. Each is the right chance *for the person who knows exactly that*. A
# probability is not a property of the card alone: the card is fixed; what varies is the information.

# %% [markdown]
# ## 2. Why all of them are right: the law of total probability
#
# The table does not know seat 0's hand. Seat 0's answer depends on it. If the table averages seat 0's answer over all
# the hands seat 0 might hold (weighted by how likely each is, given what the table knows), it must get its own
# answer back:
#
# $$P(A \mid \text{table}) = \sum_h P(\text{seat 0 holds } h \mid \text{table})\; P(A \mid \text{table}, h).$$
#
# Check it: redeal everything the table cannot see (`position.resample(None, rng)`) many times. In each redealt world,
# compute seat 0's exact answer, and see whether seat 0's first face-down card really fits.

# %%
rng = np.random.default_rng(11)
n = 4000
seat0_answers, fits = [], []
for _ in range(n):
    world = position.resample(None, rng)
    seat0_answers.append(float(prob.shithead_blind_fits(world, 0)))
    fits.append(world.fits(world.state.face_down[0][0]))
table_answer = float(prob.shithead_blind_fits(position, None))
mean, half = np.mean(seat0_answers), 1.96 * np.std(seat0_answers, ddof=1) / np.sqrt(n)
print(f"table's answer:                     {table_answer:.4f}")
print(f"average of seat 0's answers:        {mean:.4f} ± {half:.4f}")
print(f"share of worlds where the card fits: {wilson(sum(fits), n)}")

# %% [markdown]
# Seat 0's answer is also **calibrated** in these worlds: split them into three groups by seat 0's answer (cut at
# its thirds; many worlds share an answer, so the groups come out unequal), and within each group the card fits
# about as often as seat 0 said on average: each interval below contains the group's mean answer.

# %%
answers = np.array(seat0_answers)
fitted = np.array(fits)
edges = np.quantile(answers, [0, 1 / 3, 2 / 3, 1])          # three groups of about equal size
group_of = np.clip(np.searchsorted(edges, answers, side="right") - 1, 0, 2)
for g in range(3):
    group = group_of == g
    if group.sum() >= 100:
        said = answers[group]
        share = wilson(fitted[group].sum(), int(group.sum()))
        print(f"seat 0 says {said.min():.4f} to {said.max():.4f} (mean {said.mean():.4f}): the card fits in {share}")
        assert share.contains(float(said.mean()))

# %% [markdown]
# **What these two checks do and do not show.** Both redeal the unseen cards with cardlab's own law
# (`resample`), which makes the same assumption as the exact answers. So they show that the counts are *consistent* with
# the model: a model that was wrong about the world would pass them just as well. To test *correctness*, compare the
# answers with **real deals**: play 1000 seeded games with greedy bots for 16 moves, ask the table and seat 0 for
# the chance that seat 0's first face-down card fits, and look at that real card (the game knows it; nobody in the
# game has seen it). The **Brier score** (mean squared difference between the chance and what happened, 0 or 1)
# rewards both calibration and information.

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
    card = None if real.is_over else real.state.face_down[0][0]
    if card is None:
        continue
    said["table"].append(float(prob.shithead_blind_fits(real, None)))
    said["seat 0"].append(float(prob.shithead_blind_fits(real, 0)))
    real_fits.append(bool(real.fits(card)))
outcome = np.array(real_fits, dtype=float)
print(f"{outcome.size} real positions; the real card fits in {outcome.mean():.4f} of them")
for who, values in said.items():
    p = np.array(values)
    z = (outcome.sum() - p.sum()) / np.sqrt(np.sum(p * (1 - p)))
    brier = np.mean((p - outcome) ** 2)
    print(f"{who:>6}: mean chance {p.mean():.4f}, z = {z:+.2f}, Brier score {brier:.4f}")
    assert abs(z) < 4          # 4 standard errors would mean the answers are really off for real deals
brier_table = np.mean((np.array(said["table"]) - outcome) ** 2)
brier_seat0 = np.mean((np.array(said["seat 0"]) - outcome) ** 2)
print(f"seat 0's Brier score is lower than the table's: {brier_seat0 < brier_table}")
seat0_said = np.array(said["seat 0"])
order = np.arange(1, seat0_said.size + 1)
converge = go.Figure(layout=go.Layout(
    title="Real face-down cards against seat 0's exact chance", width=640, height=340,
    xaxis={"title": "real games", "type": "log"}, yaxis={"title": "share"}))
converge.add_scatter(x=order, y=np.cumsum(outcome) / order, mode="lines",
                     name="real cards that fit (running share)")
converge.add_scatter(x=order, y=np.cumsum(seat0_said) / order, mode="lines", name="mean exact chance (running)")
display(figure_view(converge))

# %% [markdown]
# On real deals, both the table's and seat 0's chances match how often the real card fits (|z| well below 3 means
# no detectable disagreement in 1000 games; the cell checks |z| < 4). Seat 0 knows more (its own hand). For a
# calibrated forecaster, more information cannot make the *expected* Brier score worse, but three or so hand cards
# out of dozens of unseen ones change the answers very little, so the two scores printed are close, and in one set of
# games either may come out lower (the last line says which). Knowing more does not make an answer "more true"; it
# makes it *sharper*.

# %% [markdown]
# ## 3. Bayes' rule after an observed pick-up
#
# In the `position` above, seat 0 is to move on an Ace and picks up the pile. A player who can play must play, so
# the table has just **learnt** something: seat 0 held no 2, no 10 and no Ace. The pile's cards are now known to be
# in seat 0's hand; what about the $h$ cards seat 0 held before?
#
# Let $K$ be "those cards include at least one King" and $N$ "none of them fits" (the pick-up). With $U$ cards unseen
# by the table before the pick-up, $F$ of them fitting and $k$ Kings, and every $h$-card hand equally likely
# beforehand (a simplification for this section: cardlab's law also reads seat 0's earlier plays, as the end of the
# section says),
#
# $$P(K \mid N) = \frac{P(N \mid K)\,P(K)}{P(N)}, \qquad P(N) = \frac{\binom{U-F}{h}}{\binom{U}{h}},
# \qquad P(K \mid N) = 1 - \frac{\binom{U-F-k}{h}}{\binom{U-F}{h}}.$$
#
# For a 10 the answer is immediate: a 10 always fits, so $P(\text{holds a } 10 \mid N) = 0$. We compute each term
# by Bayes' rule, check it by enumerating every possible hand, and compare with a count that ignores the pick-up.

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
    print(f"holds {name}: prior {prior:.4f}; P(pick-up) = {p_n:.4f}; after seeing the pick-up {posterior:.4f} "
          f"(Bayes), {brute:.4f} (all {len(hands)} hands enumerated)")
assert results["a 10"][1] == 0 < results["a 10"][0] and results["a King"][1] > results["a King"][0]
truth = list(before.state.hands[0])
print(f"seat 0's real hand before the pick-up (the game knows it): {', '.join(map(str, truth))}")

# %% [markdown]
# The pick-up moves the table's belief: the chance of a 10 drops from its prior to exactly 0, and the chance of a
# King *rises*, because the hand is now known to be made of non-fitting cards only, and Kings are among them. A
# player's move, even a forced one, carries information.
#
# Now a count that ignores it: after the pick-up, count the table's chance of a 10 among seat 0's unknown cards as
# if they were any unseen cards (the hypergeometric formula). Compare it with cardlab's resampler, whose chance law
# conditions on the pick-up (public information, not a choice):

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
resampled = wilson(hits, 4000)
print(f"ignoring the pick-up: {naive:.4f} (count); cardlab's resampler, which uses it: {resampled}; "
      f"Bayes: {results['a 10'][1]:.4f}")
assert results["a 10"][1] == 0 and naive > 0 and hits == 0

# %% [markdown]
# The count that ignores the pick-up is the right answer *to a different question* ("if seat 0's cards were any
# unseen cards"). cardlab's law uses what the pick-up showed: every card then in seat 0's hand was below the Ace and
# neither a 2 nor a 10. So none of its 4000 resampled hands holds a 10, as Bayes' rule says.
#
# cardlab's law goes one step further than this section. Every *play* is evidence too: a player who can play must
# play a card that fits, so a hand that has played is likelier to hold cards that did not fit. The law weighs each
# possible hand by the chance that a player choosing uniformly at random among the fitting cards would have played
# as this one did (Bayes' rule again). What stays an **assumption** is that model of how players choose; a player
# who chooses with its hand in mind (the greedy bot saves its 2s and 10s) tells more than it reads. `03_shithead`
# shows how much reading the plays changes the table's pick-up chance, and how it compares with real games.

# %% [markdown]
# ## 4. When there is nothing private, everybody agrees
#
# In Garbage nobody looks at a face-down card, and there are no hands. The table and every player know the same
# things, so they give the same answers.

# %%
garbage = cardlab.new_game("garbage", players=3, seed=6)
for _ in range(5):
    garbage.play(garbage.legal_moves()[0])
print([str(prob.garbage_next_card_placeable(garbage, v)) for v in (None, 0, 1, 2)])

# %% [markdown]
# ## 5. Card counting after a reshuffle
#
# In Spite and Malice a completed centre pile (A up to Q, 12 cards that everybody saw) is shuffled and put **under**
# the stock. When the players have drawn the stock down to it, the next card is one of those 12 known cards — minus
# any that have already been drawn again. A player who remembers the pile can count; a player who forgets treats
# every card they cannot see as equally likely.
#
# A seeded game of greedy bots, played until the stock is down to the first completed pile:

# %%
spite = cardlab.Stepper("spite-and-malice", seed=13)
while spite.game.observe(None).stock_layers[0][0] == 0:
    press(spite)
game = spite.game
print(re.sub(r"<[^>]+>", "", spite.counter.value))
print("stock layers (labels lo, hi, cards) from the top:", game.observe(None).stock_layers)
print("centre piles need:", game.observe(None).needed)

# %% [markdown]
# Right now nobody has drawn from that pile yet, so everybody counts the same 12 cards. Play on until the first of
# them are drawn, then follow the next moves. At each one, compare four answers to "will the next stock card fit a
# centre pile?": the table, seat 0 and seat 1 (each counts the known pile, and knows its own hand — including which
# of the pile's cards it drew), and a forgetful player who only looks at the table *now* and treats all the cards it
# cannot see alike.

# %%
def forgetful(game):
    """P(next stock card fits) for someone who treats every card the table cannot see as equally likely."""
    unseen = game.unseen_cards(None)
    return sum(game.can_play_on_centre(c) for c in unseen) / len(unseen)


while game.observe(None).stock_layers[0][2] == 12:
    press(spite)
print("move  stock  pile cards left  table   seat 0  seat 1  forgetful")
for _ in range(20):
    view = game.observe(None)
    answers = [prob.spite_next_stock_playable(game, v) for v in (None, 0, 1)]
    print(f"{game.move_count:>4}  {view.stock_size:>5}  {view.stock_layers[0][2]:>15}  "
          + "  ".join(f"{str(a):>6}" for a in answers) + f"  {forgetful(game):>9.4f}")
    press(spite)

# %% [markdown]
# Each player's answer differs from the table's once that player has drawn some of the pile's cards: the player
# knows which ones, the table only knows how many.

# %% [markdown]
# Who is right? Not a question the model can answer about itself: redealing the unseen cards with the counting model
# and looking at its top card would only check the model against itself. Ask real games instead. Play 1000 seeded
# games of greedy bots, each until the top layer of the stock is a reshuffled pile with 6 or fewer of its cards
# left, and at that moment write down both answers for the table and the card that is really on top of the stock
# (the game knows it; no player has seen it).
#
# Where the two answers agree, real games cannot tell them apart, so look where they disagree by more than 0.05: in
# the positions where forgetting gives the higher chance, and in those where it gives the lower one. Each group
# compares the number of real cards that fit with the number each answer expects, as a z score (a |z| above 3 would
# mean the answer is clearly off for real games).

# %%
REAL_SPITE = 1000
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
    for name, said in (("counting", counted[group]), ("forgetting", forgot[group])):
        z = (fits_here.sum() - said.sum()) / np.sqrt(np.sum(said * (1 - said)))
        z_scores[label, name] = z
        print(f"   {name:>10} expects {said.mean():.3f} on average: z = {z:+.2f}")
assert all(abs(z) < 3 for (_, name), z in z_scores.items() if name == "counting")
assert all(abs(z) > 3 for (_, name), z in z_scores.items() if name == "forgetting")

# %% [markdown]
# In both groups the real cards agree with counting and not with forgetting: where forgetting says higher, the real
# cards fit less often, and where it says lower, they fit more often (the cell checks that counting's |z| stays
# below 3 and forgetting's exceeds 3 in both groups). Remembering the pile is worth something in real games, not
# only in the model.

# %% [markdown]
# The same idea applies in Garbage: after a reshuffle the stock is made of discards everybody saw, and
# `prob.garbage_next_card_placeable` counts over that known stock only (notebook `01_garbage` shows why that is rare).

# %% [markdown]
# ## 6. Predict, then reveal
#
# A stepper made with `predict="blind_fits"` asks "what is the chance that a face-down card fits the pile?" at every
# move and hides its plots until you have guessed. Set the viewpoint to seat 0 and guess what *seat 0* should
# believe; then Reveal. Below, a "student" guesses the table's answer each time, although the viewpoint is seat 0:
# the reveal shows how far that is from seat 0's answer.

# %%
guess_me = cardlab.Stepper("shithead", players=2, seed=5, predict="blind_fits", rollouts=16, panel_rollouts=16)
guess_me.viewpoint.value = "seat 0"
display(guess_me)

# %%
for _ in range(6):
    press(guess_me)
for _ in range(6):
    if guess_me.game.is_over:
        break
    record = guess_me.predictor.submit(float(prob.shithead_blind_fits(guess_me.game, None)))
    print(f"move {record.move}: {guess_me.predictor.feedback}")
    assert record.answer == float(prob.shithead_blind_fits(guess_me.game, 0))
    press(guess_me)
print(guess_me.calibration())

# %% [markdown]
# The guesses are scored against the revealed answers (the "mean squared distance"): a panel question like this has
# no recorded outcome, so there is no Brier score here; the win question of notebook `00_start_here` has one.

# %% [markdown]
# ## Misconceptions to discuss
#
# - *"There is one true probability that the card fits."* The card is fixed; the probability describes a person's
#   information (section 1).
# - *"The resampling checks prove the model right."* They resample with the model: consistency, not correctness
#   (section 2).
# - *"Players' moves tell the table nothing."* A forced pick-up does, and so does every play (a player who can play
#   must play a card that fits); Bayes' rule measures how much (section 3).
# - *"Forgetting a few cards hardly matters."* After a reshuffle, counting changes the answer a lot (section 5).

# %% [markdown]
# ## Exercises

# %% [markdown]
# **Exercise 1.** After seat 0's pick-up in `position`, what is the table's chance that seat 0's unknown cards
# include a 5, by Bayes' rule (using the pick-up), and what would the count that ignores the pick-up say? (Which
# cards fit an Ace? Is a 5 among them?)

# %% [solution]
fives_before = rank_count(pool, cardlab.Rank.FIVE)
no_fit_pool = U - F
with_pickup = 1 - comb(no_fit_pool - fives_before, h) / comb(no_fit_pool, h)
fives_after = rank_count(unseen, cardlab.Rank.FIVE)
ignoring = 1 - comb(len(unseen) - fives_after, unknown) / comb(len(unseen), unknown)
print(f"using the pick-up (Bayes): {with_pickup:.4f}; ignoring it: {ignoring:.4f}")
five_hands = [hand for hand in no_fit if any(pool[i].rank == cardlab.Rank.FIVE for i in hand)]
assert abs(with_pickup - len(five_hands) / len(no_fit)) < 1e-12        # the same by enumerating the hands
assert with_pickup > ignoring > 0         # the pick-up makes a non-fitting rank more likely

# %% [markdown]
# **Exercise 2.** Check the law of total probability in Spite and Malice: in the game `game` above, average seat 1's
# exact answer to "will the next stock card fit?" over 2000 worlds resampled from the table's view. Is the table's
# answer inside the interval?

# %% [solution]
rng = np.random.default_rng(14)
values = [float(prob.spite_next_stock_playable(game.resample(None, rng), 1)) for _ in range(2000)]
mean, half = np.mean(values), 1.96 * np.std(values, ddof=1) / np.sqrt(len(values))
target = float(prob.spite_next_stock_playable(game, None))
inside = abs(mean - target) <= half + 1e-12
print(f"table {target:.4f}; average of seat 1's answers {mean:.4f} ± {half:.4f}; inside: {inside}")
assert abs(mean - target) < 2 * half + 1e-12     # within about four standard errors

# %% [markdown]
# **Exercise 3.** For the Shithead `position`, which viewpoint is *most* optimistic that a face-down card fits, and
# by how much does it differ from the table?

# %% [solution]
answers = {v: prob.shithead_blind_fits(position, v) for v in (None, 0, 1)}
best = max(answers, key=lambda v: answers[v])
print(f"most optimistic: {'table' if best is None else f'seat {best}'} with {float(answers[best]):.4f}; "
      f"difference from the table: {float(answers[best] - answers[None]):+.4f}")
