# %% [markdown]
# # Garbage: the rules, every option, and its probability questions
#
# **Learning goals**
#
# - know the rules of Garbage (also called Trash or Ten) as cardlab plays them, and every option;
# - follow a chain of forced placements one card at a time in the stepper, on a *stacked* deck;
# - make the game's only real choices: where a wild card goes, whether to displace a wild, and whether to take the
#   discard;
# - answer Garbage's probability questions: the exact chance that the next card can be used, the chance to
#   complete a layout within k turns, and each seat's chance of winning;
# - read a simulation honestly: an interval for a probability, what "contains 0.5" does and does not show, and why
#   ten tests at once need a stricter level.
#
# **Lesson plan (50 minutes).** 10 min: rules and a chain, one card at a time (sections 1–2). 5 min: the choices
# (section 3). 5 min: predict, then the layout-size experiment (section 4). 10 min: a whole match (section 4).
# 10 min: the probability questions, exact and estimated (section 5). 10 min: exercises.
#
# **Predict first.** Seat 0 may choose to play with fewer spots than 10 against a full opponent. Which number of
# spots would you choose, and would 7 spots be better or worse for seat 0 than 10? Write your guess down before
# section 4.

# %% [markdown]
# ## 1. The rules
#
# These are the rules and choices written in the docstring of `cardlab/games/garbage/rules.py`; where the original text
# is unclear, cardlab follows pagat.com's most widely played version and makes the other reading an option.
#
# - **Packs.** 1–2 players use one 52-card pack, 3–4 players two packs, 5–6 players three. No jokers. One player
#   is a solitaire teaching mode: "how likely is it to complete a layout?" with no opponent.
# - **Deal.** Each player gets one face-down card per layout position, positions A (1) to 10 in two rows of five.
#   Nobody may look at them. The rest is the face-down stock; there is no discard pile at the start.
# - **A turn.** Draw the top stock card, or take the top discard instead. Taking the discard is offered only when
#   that card could be used (placed, or a wild with a face-down spot left): taking an unusable card would only put
#   it back, so it is not a real choice.
# - **The chain.** A card A–10 whose spot is face down *must* go face up there; the face-down card it displaces is
#   turned over and played the same way. The chain stops at a card that cannot be placed — a Q or K, a number whose
#   spot already shows that number, or a number above the layout size — which goes face up on the discard pile,
#   and the turn passes.
# - **Wild cards** (Jacks by default; option `wild="K"` makes Kings wild and Jacks dead). A wild card *may* go face
#   up on any face-down spot, displacing its card into the chain; this is a move (`"jack to 4"`), as is declining
#   (`"discard"`). A pip card whose spot holds a face-up wild *may* displace it (`"displace jack on 7"`); the wild
#   may then go to any face-down spot, or be discarded.
# - **Empty stock.** When the stock runs out, the discard pile except its top card is shuffled into a new stock.
#   That stock is a known multiset (every card in it was seen), which the exact probabilities use.
# - **Winning a hand.** The first player whose every spot is face up (its own number or a wild) wins at once.
#   Option `last_round=True` gives every other player one last turn instead; everyone who completes in it also
#   counts as a hand winner, and `winner` is the first to complete.
# - **Match** (option `match=True`). Cards are reshuffled and dealt again after each hand. A hand winner has one
#   spot fewer in every later hand (after one win spots A–9, and a 10 becomes unplayable for them). The winner of a
#   hand plays first in the next. The match ends when a player with a single spot wins a hand (by filling it with
#   an Ace or a wild).
#
# | option | default | accepted | what it does |
# |---|---|---|---|
# | `wild` | `"J"` | `"J"` or `"K"` | which rank is wild |
# | `last_round` | `False` | `True`, `False` | after a player completes, every other player gets one last turn |
# | `layout_sizes` | `None` (10 each) | one size 1–10 per player | starting layout size for each seat |
# | `match` | `False` | `True`, `False` | play hands until the match ends, shrinking winners' layouts |
#
# **Stacked decks.** `deck=[...]` lists the top of the deck, top card first; unnamed cards follow in seeded random
# order. Seat 0 gets the first cards for its spots A, 2, 3, … in order, then seat 1, and so on; the next card is
# the top of the stock.
#
# **Turns.** A turn is one player's go, from the draw to the discard (or the win). `game.turns` counts finished
# turns; the winning turn counts.

# %%
import re
from statistics import NormalDist

import numpy as np
import plotly.graph_objects as go
from IPython.display import display

import cardlab
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.sim.stats import wilson
from cardlab.viz.panels import figure_view


def status(stepper):
    """The stepper's move counter as plain text."""
    return re.sub(r"<[^>]+>", "", stepper.counter.value)


def press(stepper, button="next_move"):
    """Press a stepper button from code (next_move, step, back, reset); stop here if the stepper reports a problem."""
    getattr(stepper, button)()
    if "⚠" in stepper.message.value:
        raise RuntimeError(re.sub(r"<[^>]+>", "", stepper.message.value))


def play_and_show(stepper, move):
    """Play one move in the stepper, print what happened and what may follow."""
    before = len(stepper.game.events)
    stepper.play(move)
    assert "⚠" not in stepper.message.value, stepper.message.value
    print(f"> {move}")
    for event in stepper.game.events[before:]:
        print("   ", event)
    print("  legal now:", ", ".join(m.text for m in stepper.game.legal_moves()))


# %% [markdown]
# ## 2. A chain, one card at a time
#
# We stack the deck so that the first draw sets off a chain. Seat 0's spots A…10 get the first ten cards, seat 1's
# the next ten, and the stock starts with 4♥, J♣, 5♦.

# %%
DECK = ["AS", "QS", "2D", "3C", "7H", "6D", "JH", "8S", "9C", "10H",   # seat 0, spots A..10
        "KD", "9D", "QH", "4S", "5S", "6H", "KS", "8D", "2H", "10S",   # seat 1, spots A..10
        "4H", "JC", "5D"]                                              # top of the stock
chain = cardlab.Stepper("garbage", players=2, seed=1, deck=DECK)
display(chain)

# %% [markdown]
# Press **Step** in the stepper above, or run the next cell: each call shows one more event of the bot's move.

# %%
while True:
    press(chain, "step")
    print(f"{status(chain):<75} | {chain.log_lines()[-1]}")
    if chain.game.move_count == 1:
        break

# %% [markdown]
# 4♥ went to spot 4 and uncovered 3♣, which went to spot 3 and uncovered 2♦, which went to spot 2 and uncovered
# Q♠: a court card, so the chain stopped there and the turn passed. One draw, three cards placed.

# %% [markdown]
# ## 3. The real choices: wild cards, displacing, taking the discard
#
# Garbage has few decisions, and all of them are about wild cards and the discard pile. Here both seats are
# `human`, and we choose every move ourselves (in the stepper you would click the move buttons).

# %%
# Both seats are `human`, so no bot moves; this notebook plays both seats' moves itself and the whole class
# watches one screen, so `hot_seat=False` (with two people at one device, leave it out: the stepper then hides
# each hand behind a "pass the device" screen between their turns).
choices = cardlab.Stepper("garbage", players=2, seed=1, deck=DECK, policies=["human", "human"],
                          hot_seat=False)
for move in ["draw stock", "draw stock", "jack to 5", "displace jack on 5", "jack to 2", "discard"]:
    play_and_show(choices, move)

# %% [markdown]
# Seat 1 drew J♣ and chose spot 5 for it; the card it uncovered, 5♠, belongs on spot 5, so seat 1 could take the
# Jack back (*displace*) and place it again, this time on spot 2. Under spot 2 was 9♦, a forced placement, which
# uncovered 2♥ — and spot 2 now shows the Jack, so seat 1 chose to *discard* rather than displace again.
#
# Now seat 0: the discard top 2♥ is of no use to seat 0 (its spot 2 shows 2♦), so only **draw stock** is offered.

# %%
for move in ["draw stock", "jack to 6", "discard"]:
    play_and_show(choices, move)

# %% [markdown]
# Seat 0 put the Jack on spot 6, uncovered 6♦ and kept the Jack there, discarding 6♦. Seat 1's spot 6 is still
# face down, so for seat 1 the 6♦ is usable, and **take discard** is offered next to **draw stock**.

# %%
play_and_show(choices, "take discard")
print(choices.game)

# %% [markdown]
# ## 4. Every option
#
# ### `wild="K"`: Kings wild, Jacks dead
#
# The same stacked deck: now seat 1's J♣ is a dead card and ends its turn at once.

# %%
kings = cardlab.new_game("garbage", players=2, seed=1, deck=DECK, wild="K")
kings.play_all(["draw stock", "draw stock"])
for event in kings.events:
    print(event)

# %% [markdown]
# ### `last_round=True`: everyone else gets one last turn
#
# With one spot each (`layout_sizes=[1, 1]`) an Ace completes a layout. Seat 0 draws A♠ and completes; by default
# that ends the hand, but with the last round seat 1 draws once more, gets A♥, and completes too.

# %%
LAST = ["QS", "QH", "AS", "AH"]
for last_round in (False, True):
    g = cardlab.new_game("garbage", players=2, seed=1, deck=LAST, layout_sizes=[1, 1], last_round=last_round)
    while not g.is_over:
        g.play(g.legal_moves()[0])
    print(f"last_round={last_round}: hand winners {g.state.hand_winners}, winner seat {g.winner}, {g.turns} turns")

# %% [markdown]
# ### `layout_sizes`: a handicap?
#
# Fewer spots need fewer cards, so a beginner with fewer spots against an expert with 10 should be at an
# advantage. Is that so? `cardlab.simulate` plays thousands of greedy games on Garbage's fast kernel in a
# blink: 20 000 games for each size 1–10 of seat 0's layout, against 10 spots for seat 1. Each line is seat 0's win
# rate with a 95% interval **for the probability** that seat 0 wins.

# %%
SIZE_GAMES = 20_000
rates = {}
for size in range(1, 11):
    out = cardlab.simulate("garbage", players=2, games=SIZE_GAMES, seed=202_400 + size, layout_sizes=[size, 10],
                           progress=False)
    rates[size] = (int(np.sum(out.winners == 0)), out.winners.size)
    print(f"seat 0 with {size:>2} spots, seat 1 with 10: seat 0 wins {wilson(*rates[size])}")
est = {size: wilson(*counts) for size, counts in rates.items()}
lowest = min(range(1, 11), key=lambda size: est[size].value)
sizes_chart = go.Figure(layout=go.Layout(
    title="Seat 0's chance to win against 10 spots, by seat 0's layout size", width=640, height=360,
    xaxis={"title": "seat 0's spots", "dtick": 1}, yaxis={"title": "P(seat 0 wins), 95% interval"}))
sizes_chart.add_scatter(x=list(est), y=[e.value for e in est.values()], mode="markers+lines",
                        error_y={"type": "data", "symmetric": False,
                                 "array": [e.high - e.value for e in est.values()],
                                 "arrayminus": [e.value - e.low for e in est.values()]}, name="seat 0")
sizes_chart.add_scatter(x=[1, 10], y=[0.5, 0.5], mode="lines", line={"dash": "dash"}, name="1/2")
display(figure_view(sizes_chart))
middle_worse = [size for size in range(3, 10) if est[size].high < est[10].low]
print(f"lowest estimate at {lowest} spots; sizes whose whole interval is below the 10-spot one: {middle_worse}")
assert est[1].low > est[10].high and middle_worse   # the U-shape the text describes
assert 0.7 < est[1].value < 0.8 and est[10].low > 0.5

# %% [markdown]
# The curve is **U-shaped**. Very few spots are a huge gift (one spot wins about three games in four), and with 10
# spots each the first player has an edge (seat 0 draws first). In between, the win rate dips: the sizes listed
# above do *worse* than a full layout of 10, with the lowest estimate at the size printed (its neighbours are
# within the noise of it). With fewer spots fewer cards are useful, so the chains of forced placements are
# shorter; notebook `09_expected_value_and_markov_chains` computes exactly how many draws a layout of each size
# takes, and why a middle size can be the slowest.
#
# **An interval can miss.** A 95% interval misses the true probability one time in twenty. Here is the 10 against
# 10 game measured twice: with 4000 games (seed 2024), and with 400 000 games as a reference so precise that we
# can treat it as the truth to two decimals.

# %%
small = cardlab.simulate("garbage", players=2, games=4000, seed=2024, layout_sizes=[10, 10], progress=False)
small_est = wilson(float(np.sum(small.winners == 0)), small.winners.size)
big = cardlab.simulate("garbage", players=2, games=400_000, seed=7, layout_sizes=[10, 10], progress=False)
reference = wilson(float(np.sum(big.winners == 0)), big.winners.size)
print(f"4000 games:    seat 0 wins {small_est}")
print(f"400 000 games: seat 0 wins {reference}")
print(f"the 4000-game interval contains the reference value {reference.value:.3f}: "
      f"{small_est.contains(reference.value)}")
assert abs(small_est.value - reference.value) < 4 * np.sqrt(0.25 / 4000)   # within chance, if not within 95%

# %% [markdown]
# If the last line says `False`, the small experiment is one of the one-in-twenty misses: nothing is wrong with the
# simulation, and a statistician would expect about one such miss among the twenty or so intervals of this
# notebook. (The cell checks that the difference is within four standard errors, which would catch a real fault.)
# If it says `True`, the small interval covered the truth, as 95% of them do. Either way, the reference with 100
# times the games has an interval ten times narrower.

# %% [markdown]
# ### `match=True`: a whole match
#
# After each hand the winner loses a spot, and the winner of a hand plays first in the next one. The match ends
# when a player with a single spot wins a hand. Here is the whole match of seed 8, played by two greedy bots.

# %%
match = cardlab.new_game("garbage", players=2, seed=8, match=True)
bots = [make_policy("greedy", "garbage", np.random.default_rng(0))] * 2
while not match.is_over:
    match.play(choose(bots[match.current_player], match))
for event in match.events:
    if event.kind in ("hand", "deal", "match"):
        print(event)
print(f"hands won {match.state.wins}; match winner seat {match.winner}")

# %% [markdown]
# Read the match as a table: the layout sizes at each deal, who played first, who won. The cell also checks the
# rules in the printed log: a hand's winner has one spot fewer in the next deal, the loser keeps their size, and
# the winner plays first.

# %%
texts = [str(e) for e in match.events if e.kind in ("hand", "deal")]
hands = [(1, [10, 10], 0)]       # hand 1: ten spots each; seat 0 plays first (the deal's rule)
winners = []
for text in texts:
    won = re.search(r"hand (\d+) won by seat (\d+)", text)
    dealt = re.search(r"hand (\d+) dealt \(seat 0: (\d+), seat 1: (\d+) spots\); seat (\d+) plays first", text)
    if won:
        winners.append(int(won.group(2)))
    elif dealt:
        hands.append((int(dealt.group(1)), [int(dealt.group(2)), int(dealt.group(3))], int(dealt.group(4))))
print("hand  spots (seat 0, seat 1)  first  winner  first player won")
for (number, sizes, first), winner in zip(hands, winners, strict=True):
    print(f"{number:>4}  {str(sizes):>22}  {first:>5}  {winner:>6}  {first == winner}")
for (_, sizes, _), (_, after, first_next), winner in zip(hands, hands[1:], winners, strict=False):
    assert after[winner] == sizes[winner] - 1 and after[1 - winner] == sizes[1 - winner] and first_next == winner
firsts = sum(first == winner for (_, _, first), winner in zip(hands, winners, strict=True))
print(f"the first player won {firsts} of {len(winners)} hands; the match ended when a one-spot layout won")
assert hands[-1][1][winners[-1]] == 1 and match.winner == winners[-1]

# %% [markdown]
# A hand's winner is rewarded with a smaller layout, and (section above) a smaller layout is not always an
# advantage: the middle sizes listed by that experiment do *worse* against 10 spots than a full layout, and only
# the last few spots are a real gift. One match is one story; the layout-size experiment above is what tells you
# whether a reward helps.

# %% [markdown]
# ### Players and packs
#
# One pack for 1–2 players, two for 3–4, three for 5–6; the solitaire (one player) is the subject of notebook
# `09_expected_value_and_markov_chains`.

# %%
for players in range(1, 7):
    g = cardlab.new_game("garbage", players=players, seed=0)
    print(f"{players} player(s): {g.packs} pack(s), stock of {len(g.state.stock)} cards")

# %% [markdown]
# ## 5. Probability questions
#
# ### Can the next card be used? (exact)
#
# Nobody ever looks at a face-down card, so the top of the stock is equally likely to be *any* card nobody has seen
# yet: the face-down layout cards and the stock together. The chance that it can be used by the player who draws
# it (the player to move at the start of their turn; in the middle of a chain, the next player, since the current
# turn ends without another draw: `prob.garbage_next_drawer`) is a count:
#
# $$P(\text{usable}) = \frac{\#\{\text{unseen cards the player can use}\}}{\#\{\text{unseen cards}\}}.$$
#
# Take the position in `choices` above, and check the fraction with a simulation: redeal the unseen cards at random
# (`game.resample`) many times and look at the top stock card each time. A 95% interval misses the true value
# about one time in twenty, so one miss is no evidence against the count; a gap of more than four standard errors
# would be (the cell checks that).

# %%
game = choices.game
seat = prob.garbage_next_drawer(game)
exact = prob.garbage_next_card_placeable(game)
rng = np.random.default_rng(11)
n = 4000
hits = sum(game.can_use(seat, game.resample(None, rng).state.stock[-1]) for _ in range(n))
print(f"seat {game.current_player} to move, seat {seat} draws next; exact chance {exact} = {float(exact):.4f}")
print(f"simulated top cards: {wilson(hits, n)}; contains the exact value: {wilson(hits, n).contains(float(exact))}")
se = (float(exact) * (1 - float(exact)) / n) ** 0.5
print(f"gap from the exact value: {(hits / n - float(exact)) / se:+.2f} standard errors")
if not wilson(hits, n).contains(float(exact)):
    print("this 95% interval misses: that happens about one time in twenty, and the gap is under four standard errors")
assert abs(hits / n - float(exact)) < 4 * se  # four standard errors would be a real disagreement

# %% [markdown]
# ### Completing the layout first, within k turns (estimate)
#
# This needs the whole future of the hand, so it is estimated: resample the unseen cards, play on with greedy bots,
# and count how often each seat completes its layout within its next k turns. The hand ends as soon as one seat
# completes, so a seat "completes within k" only if it completes **first**: this is the chance to *win the hand
# within k turns*, and as k grows it levels off at the seat's chance of winning, not at 1. Each number has a 95%
# interval for that probability.

# %%
curves = {s: prob.completion_curve(game, s, (1, 2, 3, 5, 8), rollouts=2000, rng=np.random.default_rng(12))
          for s in range(game.players)}
for s, curve in curves.items():
    print(f"seat {s}: " + "  ".join(f"k={k}: {e.value:.3f} [{e.low:.3f}, {e.high:.3f}]"
                                    for k, e in zip((1, 2, 3, 5, 8), curve, strict=True)))

# %% [markdown]
# ### Who wins? (estimate)

# %%
for s, win in enumerate(prob.win_probability(game, None, rollouts=300, rng=np.random.default_rng(13))):
    print(f"seat {s} wins with chance {win}")

# %% [markdown]
# The stepper's panels show the same three questions at every move; here are its numbers for the chain demo.

# %%
print(chain.panel_numbers())
print(chain.history_numbers())

# %% [markdown]
# ### How often is the stock reshuffled?
#
# Almost never. A card that is useful to somebody is placed as soon as it is drawn, or taken from the discard pile
# by the next player who can use it, so the stock hardly ever runs out before a layout is complete. (For one player
# it cannot happen at all: notebook 09 shows why.) A simulation of many greedy games:

# %%
for players in (1, 2, 4, 6):
    out = cardlab.simulate("garbage", players=players, games=5000, seed=players, progress=False)
    reshuffled = out.extras["shuffles"] > 0
    print(f"{players} player(s): {int(np.sum(reshuffled))} of {reshuffled.size} games needed a reshuffle")

# %% [markdown]
# If a reshuffle does happen, the new stock is made of cards everybody saw on the discard pile. Then the chance
# that the next card is usable is counted over that known stock alone: card counting, which
# `prob.garbage_next_card_placeable` does whenever `game.state.stock_known` is true.

# %% [markdown]
# ## Misconceptions to discuss
#
# - *"Fewer spots is always a gift."* The layout-size curve is U-shaped (section 4).
# - *"The interval missed the true value, so something is broken."* One 95% interval in twenty misses (section 4).
# - *"Completes within k turns should reach 1 as k grows."* Only the first seat to complete wins the hand, so the
#   curve levels off at that seat's chance of winning (section 5).
# - *"A card nobody has seen is more likely to be one I need, since I have waited so long."* Every unseen card is
#   equally likely to be next (the assumption, true in Garbage because nobody looks at a face-down card).

# %% [markdown]
# ## Exercises

# %% [markdown]
# **Exercise 1.** Play the stacked deck `DECK` with Kings wild (`wild="K"`) and greedy bots for six moves. How
# many cards are face up in each layout then?

# %% [solution]
ex1 = cardlab.new_game("garbage", players=2, seed=1, deck=DECK, wild="K")
greedy = make_policy("greedy", "garbage", np.random.default_rng(0))
for _ in range(6):
    ex1.play(choose(greedy, ex1))
face_up = [sum(card is not None for card in layout) for layout in ex1.observe(None).layouts]
print(f"after 6 moves: face-up cards per seat {face_up}")

# %% [markdown]
# **Exercise 2.** In a fresh two-player game with five spots each (`layout_sizes=[5, 5]`), what is the exact
# chance that seat 0's first card can be used? Count it by hand first (which ranks are useful, and how many cards
# of each are there?), then check it with `prob.garbage_next_card_placeable`.

# %% [solution]
five = cardlab.new_game("garbage", players=2, seed=0, layout_sizes=[5, 5])
useful = 4 * 5 + 4          # four each of A-5, and the four Jacks
print(f"by hand: {useful}/52 = {useful / 52:.4f}; cardlab: {prob.garbage_next_card_placeable(five)}")
assert prob.garbage_next_card_placeable(five) * 52 == useful

# %% [markdown]
# **Exercise 3.** A teacher wants a fair handicap: a layout size for seat 0 against 10 spots for seat 1 such that
# each seat wins about half the time. Use the section 4 counts (`rates`). Why is "the 95% interval contains 0.5"
# *not* a proof that a size is fair, and why are ten 95% intervals at once too lenient? Which sizes can you
# **show** to be fair to within 2 percentage points, with intervals that hold for all ten sizes at once?

# %% [solution]
tests = len(rates)
z_all = NormalDist().inv_cdf(1 - 0.05 / (2 * tests))       # Bonferroni: each at 99.5%, all ten at 95% together
fair_within = []
for size, counts in rates.items():
    both = wilson(*counts, z=z_all)
    inside = 0.48 <= both.low and both.high <= 0.52
    if inside:
        fair_within.append(size)
    print(f"{size:>2} spots: simultaneous interval [{both.low:.3f}, {both.high:.3f}]; inside [0.48, 0.52]: {inside}")
print(f"shown fair to within 2 points (all ten intervals at once): {fair_within}")
print(f"with {tests} separate 95% tests: at least one false alarm {1 - 0.95 ** tests:.0%} of the time if the tests "
      f"were independent; at most {min(1.0, 0.05 * tests):.0%} whatever they share (the sum of their 5%s)")

# %% [markdown]
# An interval that contains 0.5 only says the data cannot rule fairness out; a wide interval contains 0.5 easily.
# To *show* fairness, fix a margin you would accept (here 2 points) and check that the whole interval lies inside
# it (an equivalence test). And with ten sizes tested at once, use intervals that hold for all ten together
# (Bonferroni: each at $1 - 0.05/10$), or one of ten intervals will often mislead by chance.
