# %% [markdown]
# # Hidden information: the same position, different (and correct) probabilities
#
# **Learning goals**
#
# - see that a probability depends on what you know: the table and each player give different answers about the
#   same card, and all of them are right;
# - compute a conditional probability by counting the cards a viewer cannot see;
# - check the **law of total probability**: averaged over what the table cannot see, a player's answer is the
#   table's answer;
# - count cards after a reshuffle: once known cards go back into the stock, counting beats treating every unseen card
#   alike.

# %% [markdown]
# ## 1. Knowing more changes the answer
#
# A conditional probability $P(A \mid B)$ is the chance of $A$ *among the outcomes where $B$ holds*. With cards, $B$ is
# "what I have seen". Every card I have seen is not the next card; every arrangement of the cards I have **not** seen
# is equally likely. So for the next unseen card,
#
# $$P(\text{it fits} \mid \text{what I know})
#   = \frac{\#\{\text{cards I cannot see that fit}\}}{\#\{\text{cards I cannot see}\}}.$$
#
# The table (everybody's common knowledge) cannot see any hand. A player sees their own hand. So they count
# different cards.
#
# We take a Shithead position from notebook `03_shithead`: an Ace on the pile, so only a 2, a 10 or an Ace fits, and
# ask: *would a face-down card fit?* (Nobody, not even the owner, has seen a face-down card.)

# %%
import re
from math import comb

import numpy as np
from IPython.display import display

import cardlab
from cardlab.sim import prob
from cardlab.sim.stats import wilson

DECK = ["5S", "KH", "9D", "QC", "3D", "8H", "3S", "4S", "7H", "10C", "JD", "AS", "2H", "6C", "7D", "8C", "QH", "KS",
        "7S", "7C", "KD", "10D", "AD", "5H", "4D", "9S", "6D", "3H", "10H"]
MOVES = ["face up A♠", "face up J♦", "face up 10♣", "face up K♠", "face up Q♥", "face up 8♣", "play 7", "play 7",
         "play 7", "play 6", "play 10", "play 3", "play 2", "play 4 x2", "play A"]
def press(stepper, button="next_move"):
    """Press a stepper button from code (next_move, step, back, reset); stop here if the stepper reports a problem."""
    getattr(stepper, button)()
    if "⚠" in stepper.message.value:
        raise RuntimeError(re.sub(r"<[^>]+>", "", stepper.message.value))


table = cardlab.Stepper("shithead", players=2, seed=1, deck=DECK, policies=["human", "human"])
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
    print(f"{who}: cannot see {len(unseen)} cards, {len(fit)} fit -> "
          f"P(face-down card fits) = {prob.shithead_blind_fits(position, viewpoint)}")

# %% [markdown]
# The stepper shows the same thing: choose a viewpoint in its menu and its panels are recomputed from that person's
# knowledge. From code:

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
# Seat 0's answer is also **calibrated**: group the worlds by seat 0's answer, and within each group the card fits
# about as often as seat 0 said.

# %%
answers = np.array(seat0_answers)
fitted = np.array(fits)
for value in np.unique(answers):
    group = answers == value
    if group.sum() >= 100:
        print(f"seat 0 says {value:.4f}: the card fits in {wilson(fitted[group].sum(), int(group.sum()))}")

# %% [markdown]
# ## 3. When there is nothing private, everybody agrees
#
# In Garbage nobody looks at a face-down card, and there are no hands. The table and every player know the same
# things, so they give the same answers.

# %%
garbage = cardlab.new_game("garbage", players=3, seed=6)
for _ in range(5):
    garbage.play(garbage.legal_moves()[0])
print([str(prob.garbage_next_card_placeable(garbage, v)) for v in (None, 0, 1, 2)])

# %% [markdown]
# ## 4. Card counting after a reshuffle
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
# Who is right? Resample what the table cannot see, many times, and look at the real top of the stock:

# %%
rng = np.random.default_rng(12)
n = 3000
hits = sum(game.can_play_on_centre(game.resample(None, rng).state.stock[-1]) for _ in range(n))
est = wilson(hits, n)
counted = float(prob.spite_next_stock_playable(game, None))
print(f"counting says {counted:.4f}; forgetting says {forgetful(game):.4f}; the stock top fits in {est}")
print(f"interval contains the counted answer: {est.contains(counted)}, "
      f"the forgetful one: {est.contains(forgetful(game))}")

# %% [markdown]
# The same idea applies in Garbage: after a reshuffle the stock is made of discards everybody saw, and
# `prob.garbage_next_card_placeable` counts over that known stock only (notebook `01_garbage` shows why that is rare).

# %% [markdown]
# ## Exercises

# %% [markdown]
# **Exercise 1.** In the Shithead `position`, seat 0 has just picked up the pile, so the table knows five of seat 0's
# cards; the rest of seat 0's hand is unknown to the table. What is the table's exact chance that seat 0 holds at
# least one 10 among those unknown cards? (Hypergeometric: $1 - \binom{U-t}{h}/\binom{U}{h}$ with $U$ unseen cards,
# $t$ unseen 10s, $h$ unknown hand cards.) Check it by resampling. (Play the pick-up first.)

# %% [solution]
after = position.copy()
after.play("pick up")
unseen = after.unseen_cards(None)
tens = sum(c.rank == cardlab.Rank.TEN for c in unseen)
unknown = len(after.state.hands[0]) - len(after.state.known[0])
exact = 1 - comb(len(unseen) - tens, unknown) / comb(len(unseen), unknown)
rng = np.random.default_rng(13)
hits = 0
for _ in range(4000):
    world = after.resample(None, rng)
    known = list(world.state.known[0])
    rest = list(world.state.hands[0])
    for card in known:
        rest.remove(card)
    hits += any(c.rank == cardlab.Rank.TEN for c in rest)
print(f"U={len(unseen)}, t={tens}, h={unknown}: exact {exact:.4f}; simulated {wilson(hits, 4000)}")

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

# %% [markdown]
# **Exercise 3.** For the Shithead `position`, which viewpoint is *most* optimistic that a face-down card fits, and
# by how much does it differ from the table (as an exact fraction)?

# %% [solution]
answers = {v: prob.shithead_blind_fits(position, v) for v in (None, 0, 1)}
best = max(answers, key=lambda v: answers[v])
print(f"most optimistic: {'table' if best is None else f'seat {best}'} with {answers[best]}; "
      f"difference from the table: {answers[best] - answers[None]}")
