# %% [markdown]
# # Shithead (Palace): the rules, every option, and its probability questions
#
# **Learning goals**
#
# - know the rules of Shithead as cardlab plays them, and every option;
# - follow the special cards — the 2 that resets, the 10 that burns, four in a row that clears — in the stepper on a
#   stacked deck;
# - compute exact chances for a card nobody has seen (a face-down card, the top of the draw pile), and see why the
#   two are the same: **exchangeability**;
# - see that the same question has different right answers for the table and for a player who knows their hand;
# - derive the chance that the player to move must pick up (a hypergeometric count) and check it by simulation;
# - estimate what cannot be counted (winning) by simulation, with intervals;
# - state the model's assumptions as assumptions, and test them against real deals.
#
# **Lesson plan (50 minutes).** 5 min: predict (below). 10 min: rules (section 1). 10 min: the special cards on
# a stacked deck (sections 2–3). 15 min: exact chances, exchangeability, the pick-up count and the test against
# real deals (section 4). 10 min: exercises.
#
# **Predict first.** An Ace is on the pile, so only a 2, a 10 or an Ace fits. You hold 3 cards the table cannot
# see. Roughly what chance would the table give that you must pick up the pile?

# %% [markdown]
# ## 1. The rules
#
# Copied from the docstring of `cardlab/games/shithead/rules.py`; where the original text is silent, cardlab takes the
# default below and offers the other reading as an option.
#
# - **Packs.** 2 players use one 52-card pack, 3–5 players two. No jokers.
# - **Order.** 3 < 4 < … < 10 < J < Q < K < A. The 2 and the 10 are special.
# - **Deal.** Three face-down cards to each player, which nobody may look at (the owner included), then six cards to
#   each hand.
# - **Set-up.** Each player in turn (seat 0, 1, …) puts three hand cards face up on the face-down ones, one card per
#   move: `"face up 7♥"`. The rest of the deck is the draw pile.
# - **Starting card.** After the set-up the first player turns the top of the draw pile face up to start the discard
#   pile. A 2 as starting card resets: anything may follow. A 10 as starting card burns at once (it goes out of
#   play) and the first player plays anything on the empty pile.
# - **First player.** Option `first="seat0"` (default; the text names nobody) or `"lowest3"` (pagat): after the
#   set-up, the holder of the lowest card in hand starts — a 3 if anyone holds one, else a 4, and so on up to the
#   Ace; 2s and 10s do not count as low. Several holders of that rank: the lowest seat number starts. Nobody holding
#   any such card: seat 0.
# - **A play.** One card, or several of the same rank, equal to or higher than the top of the pile: `"play 7"`,
#   `"play 7 x2"`. On an empty pile, or on a 2, anything goes. A 2 and a 10 go on anything. Suits never matter.
# - **Must play.** A player who can play must play. A player who cannot picks up the whole pile into the hand
#   (`"pick up"`) and the turn ends.
# - **Drawing.** After playing, the player draws back up to three cards in hand while the draw pile lasts.
# - **2** resets the pile: anything may follow it.
# - **10** burns the pile: every card of the pile goes out of play; the same player draws up to three and plays
#   again, any card.
# - **Four in a row.** Four or more cards of the same rank on top of the pile in a row, whether one player or several
#   played them, clear the pile out of play. By default the **next** player plays anything on the empty pile; option
#   `four_kind_plays_again=True` (pagat) gives the same player another play instead.
# - **Sources.** A player plays from the hand while it holds cards; with no hand, from the face-up cards
#   (`"play face-up 7"`); with neither, a face-down card **blind** (`"play face-down card 2"`). The blind card is
#   turned: it is played if it fits, otherwise it goes to the hand together with the pile, and the turn ends. Cards
#   picked up must be played from the hand before any table card. One play never mixes sources.
# - **Winning.** The first player out of all cards (hand, face up, face down) wins and the game ends. Option
#   `play_to_last=True` plays on, skipping finished players, to rank everyone; the last player is the shithead.
# - **Safety rule.** With cards leaving play only through 10s and four in a row, two players could pass the pile
#   back and forth for a very long time. Option `max_turns` (default 4000) declares the game drawn (`winner` is
#   `None`) when that many turns have been played.
#
# | option | default | accepted | what it does |
# |---|---|---|---|
# | `four_kind_plays_again` | `False` | `True`, `False` | four in a row: the same player plays again |
# | `play_to_last` | `False` | `True`, `False` | play on after the first player is out, to rank everyone |
# | `first` | `"seat0"` | `"seat0"`, `"lowest3"` | who plays first |
# | `max_turns` | `4000` | a whole number ≥ 1 | safety rule: the game is drawn after this many turns |
# | `seven_lower` | `False` | `True`, `False` | house rule: after a 7 the next player plays a 7 or lower, a 2 or a 10 |
# | `invisible_three` | `False` | `True`, `False` | house rule: a 3 takes the rank of the card under it |
# | `eight_skips` | `False` | `True`, `False` | house rule: an 8 makes the next player miss a turn |
#
# **Stacked decks.** `deck=[...]` lists the top of the deck, top card first: seat 0's three face-down cards, then
# seat 1's, …; then seat 0's six hand cards, seat 1's, …; the next card is the top of the draw pile, which becomes
# the starting card.
#
# **Public knowledge.** The pile is face up, so cards picked up from it are known to everyone; the views show them.
# Face-down cards are hidden from everyone, their owner included.

# %%
import re
from fractions import Fraction
from math import comb

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.sim.stats import wilson
from cardlab.viz.panels import figure_view

greedy = make_policy("greedy", "shithead", np.random.default_rng(0))


def status(stepper):
    return re.sub(r"<[^>]+>", "", stepper.counter.value)


def press(stepper, button="next_move"):
    """Press a stepper button from code (next_move, step, back, reset); stop here if the stepper reports a problem."""
    getattr(stepper, button)()
    if "⚠" in stepper.message.value:
        raise RuntimeError(re.sub(r"<[^>]+>", "", stepper.message.value))


def play_and_show(stepper, move):
    """Play one move in the stepper and print what the table saw."""
    before = len(stepper.game.events)
    stepper.play(move)
    assert "⚠" not in stepper.message.value, stepper.message.value
    print(f"> {move}")
    for event in stepper.game.events[before:]:
        print("   ", event)


# %% [markdown]
# ## 2. The special cards, on a stacked deck
#
# Both seats are `human` here, so we choose every move. The deck gives seat 0 the hand 3♠ 4♠ 7♥ 10♣ J♦ A♠ and seat 1
# the hand 2♥ 6♣ 7♦ 8♣ Q♥ K♠; the starting card is 7♠, and the draw pile begins 7♣ K♦ 10♦ A♦ 5♥ 4♦ 9♠ 6♦ 3♥ 10♥.

# %%
DECK = ["5S", "KH", "9D", "QC", "3D", "8H",                  # face down: seat 0, then seat 1
        "3S", "4S", "7H", "10C", "JD", "AS",                 # seat 0's hand
        "2H", "6C", "7D", "8C", "QH", "KS",                  # seat 1's hand
        "7S",                                                # the starting card
        "7C", "KD", "10D", "AD", "5H", "4D", "9S", "6D", "3H", "10H"]
# Both seats are `human`, so no bot moves; this notebook plays both seats' moves itself and the whole class
# watches one screen, so `hot_seat=False` (with two people at one device, leave it out: the stepper then hides
# each hand behind a "pass the device" screen between their turns).
palace = cardlab.Stepper("shithead", players=2, seed=1, deck=DECK, policies=["human", "human"],
                         hot_seat=False)
display(palace)

# %% [markdown]
# **Set-up.** Each player keeps the strong cards for the end of the game, when there is no hand left to help: a 10,
# a 2, high cards.

# %%
for move in ["face up A♠", "face up J♦", "face up 10♣", "face up K♠", "face up Q♥", "face up 8♣"]:
    play_and_show(palace, move)

# %% [markdown]
# **Four sevens in a row clear the pile**, although two players played them.

# %%
for move in ["play 7", "play 7", "play 7"]:
    play_and_show(palace, move)

# %% [markdown]
# **A 10 burns the pile**, and the same player plays again. **A 2 resets**: anything may follow.

# %%
for move in ["play 6", "play 10", "play 3", "play 2", "play 4 x2"]:
    play_and_show(palace, move)

# %% [markdown]
# **Picking up.** On an Ace only a 2 or a 10 fits. Seat 0 holds neither, so picking up the pile is its only move;
# everyone saw those cards, so they stay *known* in seat 0's hand.

# %%
play_and_show(palace, "play A")
print("seat 0 may only:", [m.text for m in palace.game.legal_moves()])
play_and_show(palace, "pick up")
print("cards the table knows seat 0 holds:", [str(c) for c in palace.game.observe(None).known[0]])

# %% [markdown]
# ## 3. Blind plays, in a bot game
#
# The face-down cards come last. Greedy bots play this seeded game until the first blind play; here are its events.

# %%
bots = cardlab.Stepper("shithead", players=2, seed=5)
while bots.game.state.blind_plays == 0:
    press(bots)
for event in bots.game.events[-4:]:
    print(event)
print(status(bots))

# %% [markdown]
# ## 4. Probability questions
#
# ### Will a face-down card fit? Will the top of the draw pile? (exact)
#
# Nobody has seen a face-down card — not even its owner. Before anyone has played, it is equally likely to be *any*
# card the viewer cannot locate, and so is the top of the draw pile. So both chances are the same count:
#
# $$P(\text{fits}) = \frac{\#\{\text{unseen cards that fit the pile}\}}{\#\{\text{unseen cards}\}}.$$
#
# This is **exchangeability**: at the deal, that is what a fair shuffle means. Once the players have played, what
# the viewer saw includes *how they played*, and a player who can play must play. So even a player who picks at
# random picks among the cards that **fit**: cards that do not fit tend to stay in the hand, and a player who had to
# pick up held none that fitted. cardlab's chance law reads every hand that way, by Bayes' rule, under a stated
# **model** of the players: from the hand, a uniformly random card among those that fit (the `uninformed` player of
# `make_policy`). Each possible hand is weighted by the chance that such a player would have played as this one did.
# The unseen cards are then no longer all alike — a hand that has played is likely to hold cards that did not fit,
# which leaves the face-down cards and the draw pile a little richer in cards that do — and the count above becomes a
# weighted sum (still exact). The face-down cards and the top of the draw pile stay alike, though: nothing
# distinguishes them, so the two chances remain equal. The model is a **modelling assumption** about the players:
# a player who chooses with its cards in mind (the greedy bot plays its lowest fitting card and saves its 2s and
# 10s) tells more than the law reads. We test it against real
# deals below. The answer also depends on who is asking: seat 0 knows its own hand, so fewer cards are unseen for
# seat 0 than for the table.
#
# Take the position just before seat 0 had to pick up: an Ace on top, so only a 2, a 10 or another Ace fits. Had
# seat 0 been down to its face-down cards, how likely would a blind card have saved it?

# %%
game = palace.game.copy()
game.undo()                    # back to the position before the pick-up
print(f"top of the pile: {game.top}; draw pile {len(game.state.draw)} cards; seat {game.current_player} to move")
for viewpoint in (None, 0, 1):
    who = "table" if viewpoint is None else f"seat {viewpoint}"
    unseen = game.unseen_cards(viewpoint)
    fit = sum(game.fits(c) for c in unseen)
    blind, top = prob.shithead_blind_fits(game, viewpoint), prob.shithead_draw_top_fits(game, viewpoint)
    print(f"{who:>6}: {fit}/{len(unseen)} = {fit / len(unseen):.4f} of the unseen cards fit; the law, which reads "
          f"how the hands played: blind {float(blind):.4f}, draw top {float(top):.4f}")
    assert blind == top                   # the two places stay exchangeable
    assert blind > Fraction(fit, len(unseen))     # what the hands kept is likelier not to fit

# %% [markdown]
# The table cannot see either hand; seat 0 knows its own, which holds no 2, 10 or Ace, so for seat 0 the fitting
# cards are a larger share of what is left unseen. Each viewer's law differs a little from its plain share: both
# hands have played, and what they kept is likelier not to fit. All these numbers are right: each is the chance
# *given what that person knows*, under the stated model of the players. (The exact values are fractions with
# large denominators, so they are printed as decimals.)
#
# A simulation should agree within its sampling error: redeal the cards the table cannot see (`game.resample`) and
# look at seat 0's first face-down card each time. A 95% interval misses the true value about one time in twenty,
# so a single miss is no evidence against the count; a gap of more than four standard errors would be (the cell
# checks that).

# %%
rng = np.random.default_rng(3)
n = 3000
hits = sum(game.fits(game.resample(None, rng).state.face_down[0][0]) for _ in range(n))
exact = prob.shithead_blind_fits(game, None)
est = wilson(hits, n)
print(f"exact {float(exact):.4f}; simulated {est}; contains exact: {est.contains(float(exact))}")
se = (float(exact) * (1 - float(exact)) / n) ** 0.5
print(f"gap from the exact value: {(est.value - float(exact)) / se:+.2f} standard errors")
if not est.contains(float(exact)):
    print("this 95% interval misses: that happens about one time in twenty, and the gap is under four standard errors")
assert abs(est.value - float(exact)) < 4 * se

# %% [markdown]
# That simulation resamples with cardlab's own law, so it checks the *computing*, not the *assumption*: a wrong
# model would agree with itself. The honest test uses **real deals**: play 1000 seeded games with greedy bots for
# 16 moves, take the table's exact chance that the top of the draw pile fits, and compare it with what the real top
# card (which the game knows) does. If the assumption were badly wrong, the cards would fit more or less often than
# predicted; the $z$ score measures the gap in standard errors (for a sum of independent games with chances
# $p_i$, the standard error is $\sqrt{\sum p_i(1-p_i)}$).

# %%
REAL = 1000
predicted, happened = [], []
for seed in range(REAL):
    real = cardlab.new_game("shithead", players=2, seed=seed)
    bot = make_policy("greedy", "shithead", np.random.default_rng(seed))
    for _ in range(16):
        if real.is_over:
            break
        real.play(choose(bot, real))
    if real.is_over or not real.state.draw:
        continue
    predicted.append(float(prob.shithead_draw_top_fits(real, None)))
    happened.append(bool(real.fits(real.state.draw[-1])))      # the real top card: the truth, not a resample
predicted, happened = np.array(predicted), np.array(happened, dtype=float)
print(f"{predicted.size} real positions; mean predicted chance {predicted.mean():.4f}, "
      f"share whose real top card fits {happened.mean():.4f}")
print("predicted chance   positions   mean predicted   observed   z")
for low, high in ((0.0, 0.6), (0.6, 0.75), (0.75, 0.9), (0.9, 1.01)):
    inside = (predicted >= low) & (predicted < high)
    if inside.sum() < 20:
        continue
    p, o = predicted[inside], happened[inside]
    z = (o.sum() - p.sum()) / np.sqrt(max(1e-12, float(np.sum(p * (1 - p)))))
    print(f"[{low:.2f}, {min(high, 1):.2f})  {inside.sum():>10}   {p.mean():>14.4f}   {o.mean():>8.4f}  {z:+.2f}")
z_all = (happened.sum() - predicted.sum()) / np.sqrt(np.sum(predicted * (1 - predicted)))
print(f"all positions: z = {z_all:+.2f}")
order = np.arange(1, predicted.size + 1)
converge = go.Figure(layout=go.Layout(
    title="Real draw-pile tops against the table's exact chance", width=640, height=340,
    xaxis={"title": "real games", "type": "log"}, yaxis={"title": "share"}))
converge.add_scatter(x=order, y=np.cumsum(happened) / order, mode="lines",
                     name="real top cards that fit (running share)")
converge.add_scatter(x=order, y=np.cumsum(predicted) / order, mode="lines", name="mean exact chance (running)")
display(figure_view(converge))
assert abs(z_all) < 4          # a gap of 4 standard errors would mean the model's chances are really off

# %% [markdown]
# A $|z|$ below about 2 in every bin means the real deals show no disagreement that 1000 games could detect: the
# assumption is good enough *for this question at this point of the game*. It does not prove the assumption, and a
# few hundred positions cannot see a small effect. A $|z|$ above 3 would mean the model's chances are measurably
# off. (Several bins are tested at once, so one $|z|$ a little above 2 is not alarming on its own.)
#
# ### Must the player to move pick up? (exact)
#
# Seat 0 is to move with an Ace on the pile. It must pick up exactly when none of its hand cards fits. If seat 0's
# $h$ hand cards were a random $h$-subset of the $U$ cards the table cannot see, $F$ of them fitting, the answer
# would be the hypergeometric chance of drawing no fitting card,
#
# $$P(\text{pick up}) = \frac{\binom{U-F}{h}}{\binom{U}{h}}.$$
#
# (A 10 burns and lets seat 0 play again on an empty pile, and a 2 resets the pile, so any fitting card in hand
# saves seat 0 this turn.) But seat 0's hand is not a random subset: seat 0 has played, and each play was a card
# that fitted, so the cards it kept are likelier not to fit. The law weighs each possible hand by the chance that a
# player of the model would have played as seat 0 did, and its exact answer is the weighted share of hands with no
# fitting card (Bayes' rule; `shithead_mover_picks_up`). Play-outs that redeal the unseen cards from the same law
# must agree with it.

# %%
hand_size = len(game.state.hands[game.current_player])
unseen_table = game.unseen_cards(None)
fitting = sum(game.fits(c) for c in unseen_table)
random_subset = comb(len(unseen_table) - fitting, hand_size) / comb(len(unseen_table), hand_size)
exact_pickup = float(prob.shithead_mover_picks_up(game, None))
print(f"h = {hand_size} cards in hand, U = {len(unseen_table)} unseen to the table, F = {fitting} of them fit")
print(f"if the hand were a random subset: C({len(unseen_table) - fitting},{hand_size})/"
      f"C({len(unseen_table)},{hand_size}) = {random_subset:.4f}")
print(f"the law, which reads how seat {game.current_player} played: P(picks up) = {exact_pickup:.4f}")
check = prob.shithead_must_pick_up(game, game.current_player, None, rollouts=4000, rng=np.random.default_rng(6))
print(f"simulated by play-outs: {check}; contains the exact value: {check.contains(exact_pickup)}")
assert abs(check.value - exact_pickup) < 4 * np.sqrt(exact_pickup * (1 - exact_pickup) / check.n)
assert exact_pickup > random_subset       # what seat 0 kept is likelier not to fit

# %% [markdown]
# Reading the play raises the table's chance that seat 0 must pick up above the random-subset count (the cell
# checks it). The play-outs agree with the exact value (the cell checks the gap is within four standard errors; a
# `False` above would be one of the one-in-twenty misses of a 95% interval). Seat 0 itself knows its hand and knows
# it must pick up: for seat 0 the chance is 1.
#
# The play-outs redeal from the same law, so their agreement checks the *computing*, not the *model*. Against real
# games (`benchmarks/bench_chance_law.py --shithead-calibration`, figures in `docs/performance.md`): over 300 games
# of players who choose like the model (the `uninformed` player), the table's exact pick-up chance agrees with the
# real pick-ups in every bin of predicted chance (|z| < 3). A law that read a play as a uniformly random card of
# the hand, ignoring that it had to fit, missed there by about six standard errors: a student who forgets that
# "a player who can play must play" is information makes exactly that mistake. Against the greedy bot the law is
# off again, the other way: the bot plays its lowest fitting card and saves its 2s and 10s, so its hand holds more
# cards that fit than a random player's, and it picks up less often than the law predicts (see
# `docs/performance.md`). The model is an assumption about how people play.
#
# ### Will a player have to pick up on a later turn? Who will win? (estimates)
#
# These depend on the whole future of the game, so they are estimated by resampling the unseen cards and playing on
# with greedy bots, under the same assumption.

# %%
for seat in (0, 1):
    for viewpoint in (None, seat):
        who = "the table" if viewpoint is None else f"seat {seat} itself"
        est = prob.shithead_must_pick_up(game, seat, viewpoint, rollouts=200, rng=np.random.default_rng(4))
        print(f"seat {seat} picks up on its next turn, as {who} sees it: {est}")
for seat, est in enumerate(prob.win_probability(game, None, rollouts=100, rng=np.random.default_rng(5))):
    print(f"seat {seat} wins: {est}")

# %% [markdown]
# The stepper's panels show the same questions at every move, each estimate from a fixed number of play-outs (the
# cell prints how many). Below, the same panel is computed for the stepper's position with fewer play-outs, 400 per
# estimate, so its intervals are wider than the stepper's. At the first blind play the draw pile is
# already empty, so "top of the draw pile fits" has no meaning there: it is *not applicable*, not an exact 0.

# %%
empty_draw = bots.game.observe(None).draw_size == 0
print(f"the stepper uses {bots.panel_rollouts} play-outs per estimate; this cell 400. Draw pile empty: {empty_draw}")
assert bots.panel_rollouts > 400
for q in prob.panel_quantities(bots.game, None, rng=np.random.default_rng(7), rollouts=400):
    if q.key == "draw_top_fits" and empty_draw:
        print(f"{q.label}: not applicable (the draw pile is empty)")
    else:
        print(q)

# %% [markdown]
# ## 5. Every option

# %% [markdown]
# ### `four_kind_plays_again=True` (pagat)
#
# The same four sevens: now the player who completed the four plays again.

# %%
SETUP = ["face up A♠", "face up J♦", "face up 10♣", "face up K♠", "face up Q♥", "face up 8♣"]
again = cardlab.new_game("shithead", players=2, seed=1, deck=DECK, four_kind_plays_again=True)
again.play_all(SETUP + ["play 7", "play 7", "play 7"])
for event in again.events[-3:]:
    print(event)

# %% [markdown]
# ### `first="lowest3"` (pagat)
#
# The holder of the lowest ordinary card in hand after the set-up starts (2s and 10s do not count).

# %%
def starter(game):
    """Play the greedy set-up, then say who starts and what each hand holds."""
    while game.state.phase == "setup":
        game.play(choose(greedy, game))
    hands = ", ".join(f"seat {p}: " + " ".join(str(c) for c in game.state.hands[p]) for p in range(game.players))
    return f"{hands} -> seat {game.current_player} starts"


print("stacked deck:", starter(cardlab.new_game("shithead", players=2, seed=1, deck=DECK, first="lowest3")))
for seed in range(4):
    print(f"seed {seed}:", starter(cardlab.new_game("shithead", players=3, seed=seed, first="lowest3")))

# %% [markdown]
# ### `play_to_last=True`: rank everyone, and find the shithead

# %%
r = cardlab.new_game("shithead", players=4, seed=7, play_to_last=True)
while not r.is_over:
    r.play(choose(greedy, r))
print(f"finishing order {r.state.ranking}: seat {r.winner} wins, seat {r.state.ranking[-1]} is the shithead")

# %% [markdown]
# ### `max_turns`: the safety rule
#
# A game cut short after 20 turns is a draw:

# %%
short = cardlab.new_game("shithead", players=2, seed=7, max_turns=20)
while not short.is_over:
    short.play(choose(greedy, short))
print(f"turns {short.turns}, winner {short.winner}, stopped by the safety rule: {short.state.stopped}")
print(short.events[-1])

# %% [markdown]
# ### House rules: what does the invisible 3 do to picking up?
#
# Players change the rules, and three well-known house rules are options: `seven_lower`, `invisible_three` and
# `eight_skips` (the table above). **Predict first:** which of them makes players pick up the pile least often?
# The same 2000 deals are played under each set of rules by greedy players, so each rule's change is measured deal
# by deal against the plain rules: a paired comparison, with a 95% interval for the mean change per game.

# %%
HOUSE_GAMES = 2000
plain = cardlab.simulate("shithead", players=2, games=HOUSE_GAMES, seed=31, progress=False)
print(f"{'rules':>16}  pick-ups per game  change per game [paired 95% interval]")
print(f"{'plain':>16}  {plain.extras['pickups'].mean():17.2f}")
changes = {}
for rule in ("seven_lower", "invisible_three", "eight_skips"):
    house = cardlab.simulate("shithead", players=2, games=HOUSE_GAMES, seed=31, progress=False, **{rule: True})
    change = house.extras["pickups"] - plain.extras["pickups"]
    half = 1.96 * change.std(ddof=1) / np.sqrt(HOUSE_GAMES)
    changes[rule] = (change.mean() - half, change.mean() + half)
    print(f"{rule:>16}  {house.extras['pickups'].mean():17.2f}  {change.mean():+.2f} "
          f"[{change.mean() - half:+.2f}, {change.mean() + half:+.2f}]")
fewest = min(changes, key=lambda r: changes[r][1])
print(f"fewest pick-ups: {fewest}")
assert fewest == "invisible_three" and all(high < 0 for _, high in changes.values())

# %% [markdown]
# Every house rule lowers the number of pick-ups (each interval lies below 0; the cell checks it), and the invisible
# 3 lowers it most: a 3 now goes on anything, so a hand holding one always has a card to play. The chance laws,
# the panels and the bots all follow an option, so the stepper's questions can be asked under any house rule:
# `cardlab.Stepper("shithead", invisible_three=True)`.

# %% [markdown]
# ### Many games at once
#
# `cardlab.simulate` plays seeded games and collects each game's statistics.

# %%
result = cardlab.simulate("shithead", players=2, games=200, seed=11, progress=False)
print(result.summary())
for key, values in result.extras.items():
    print(f"{key:>12}: {values.mean():.2f} per game")

# %% [markdown]
# **Does the first seat have an edge?** Seat 0's interval above comes from only 200 games, so it is wide: an edge of
# several points either way would fit it. (Had it fallen wholly on one side of 1/2, these 200 games alone would have
# counted as evidence at the 5% level; but a 95% interval misses the true rate about one time in twenty, so a
# surprise from a small run is checked on fresh deals before anyone believes it.) A much larger run, on other deals:

# %%
big = cardlab.simulate("shithead", players=2, games=10_000, seed=12, progress=False)
small, large = result.win_rate(0), big.win_rate(0)
print(f"200 games (seed 11): seat 0 wins {small}")
print(f"10,000 games (seed 12): seat 0 wins {large}; contains 1/2: {large.contains(0.5)}")
assert small.contains(0.5) and large.half_width < 0.011 and large.contains(0.5)  # what the text says

# %% [markdown]
# The 10,000 games give seat 0 an interval about one point wide on each side, and it contains 1/2: any edge of the
# first seat is at most about a point, far too small for 200 games (or the 400 of exercise 3) to see.

# %% [markdown]
# ## Misconceptions to discuss
#
# - *"The face-down card and the top of the draw pile have different chances."* Exchangeability: the two are
#   interchangeable (no pick-up ever limits them), so their chances are equal. Neither is simply the share of
#   unseen cards that fit: the plays so far tell something about the hands, so the law's chance (0.2019 at the
#   Ace above) differs a little from the plain share 7/35.
# - *"The table is wrong because seat 0 knows better."* Both answers are right for their information.
# - *"A simulation with cardlab's resampler proves the model."* It shows consistency; only real deals test the
#   assumption (section 4).

# %% [markdown]
# ## Exercises

# %% [markdown]
# **Exercise 1.** In a fresh two-player game, before the set-up, what is the table's exact chance that the top of
# the draw pile would fit on an empty pile? And on a Queen? Count: which ranks fit on a Queen?

# %%
fresh = cardlab.new_game("shithead", players=2, seed=0)

# %% [solution]
unseen = fresh.unseen_cards(None)
on_queen = [c for c in unseen if c.rank in (cardlab.Rank.TWO, cardlab.Rank.TEN, cardlab.Rank.QUEEN,
                                             cardlab.Rank.KING, cardlab.Rank.ACE)]
print(f"on an empty pile: {prob.shithead_draw_top_fits(fresh)} (anything fits)")
print(f"on a Queen: 2, 10, Q, K, A fit: {len(on_queen)}/{len(unseen)} = {len(on_queen) / len(unseen):.4f}")
assert prob.shithead_draw_top_fits(fresh) == 1 and len(on_queen) == 20 and len(unseen) == 52

# %% [markdown]
# **Exercise 2.** In the position `game` above (an Ace on top, seat 0 to move), seat 1 would like to know the
# chance that the top of the draw pile fits. Give it for seat 1 and for the table, compare each with the plain share
# of fitting cards among the cards that viewer cannot see, and say which cards make the difference between the two
# viewers.

# %% [solution]
for viewpoint in (None, 1):
    who = "table" if viewpoint is None else "seat 1"
    unseen = game.unseen_cards(viewpoint)
    fit = sum(game.fits(c) for c in unseen)
    law = prob.shithead_draw_top_fits(game, viewpoint)
    print(f"{who}: {float(law):.4f} by the law; plain share {fit}/{len(unseen)} = {fit / len(unseen):.4f}")
own = game.state.hands[1]
print("seat 1's own hand, unseen for the table:", " ".join(str(c) for c in own),
      f"({sum(game.fits(c) for c in own)} of them fit)")

# %% [markdown]
# **Exercise 3.** Does the first player have an advantage? Simulate 400 greedy games with `first="seat0"` (seat 0
# always starts) and read the interval of seat 0's win rate: what can it show, and what can it not? Then do the same
# with `first="lowest3"`, where the starter depends on the cards. Is the starter there equally likely to be either
# seat? Count it over 2000 deals before you answer.

# %% [solution]
for first in ("seat0", "lowest3"):
    res = cardlab.simulate("shithead", players=2, games=400, seed=21, first=first, progress=False)
    est = res.win_rate(0)
    if est.low > 0.5:
        verdict = "the whole interval is above 1/2: evidence (5% level) that seat 0 is favoured"
    elif est.high < 0.5:
        verdict = "the whole interval is below 1/2: evidence (5% level) that seat 0 is at a disadvantage"
    else:
        verdict = (f"contains 1/2: these games cannot tell; the 95% interval for seat 0's edge runs from "
                   f"{est.low - 0.5:+.3f} to {est.high - 0.5:+.3f}")
    print(f"first={first!r}: seat 0 wins {est}; {verdict}")
seat0_starts = 0
for seed in range(2000):
    deal = cardlab.new_game("shithead", players=2, seed=seed, first="lowest3")
    while deal.state.phase == "setup":
        deal.play(choose(greedy, deal))
    seat0_starts += deal.current_player == 0
starts = wilson(seat0_starts, 2000)
print(f"first='lowest3': seat 0 starts {starts} of 2000 deals (greedy set-up)")
assert starts.low > 0.5

# %% [markdown]
# 400 games give a half-width of about 0.05, so an edge of a few points is invisible either way: "contains 1/2" is
# not evidence of fairness. With `first="lowest3"` the deal is symmetric but the rule is not: when both hands tie
# for the lowest card, or neither holds a low card, seat 0 starts, so seat 0 starts in more than half of the deals
# (the cell counts them and checks it). Seat 0's rate there mixes games it started with games it did not; the
# `seat0` games are the ones that measure the first player's edge. A 95% interval is a range produced by a method
# that captures the true rate in 95% of repeated experiments; it is not a 95% chance that this one range holds
# it.
