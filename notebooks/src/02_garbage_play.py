# %% [markdown]
# # Garbage, part 1: playing the game
#
# **Learning goals**
#
# - know the rules of Garbage (also called Trash or Ten) and its options;
# - follow a chain of forced placements one card at a time in the stepper, on a *stacked* deck;
# - make the game's only real choices: where a wild card goes, whether to displace a wild, and whether to take the
#   discard;
# - read the stepper's panels, and count the exact chance that the next card can be used in a shuffled deal.
#
# **Lesson plan (50 minutes).** 10 min: rules (section 1). 10 min: a chain, one card at a time (section 2).
# 10 min: the choices (section 3). 5 min: options (section 4). 5 min: panels and counting (section 5).
# 10 min: exercises.
#
# **Predict first.** After ten moves of a game, is the chance that the next stock card is useful to the player
# who draws it above or below one half? Higher or lower than at the deal? Write down a guess; section 5 counts it.

# %% [markdown]
# ## 1. The rules
#
# - **Packs.** 1–2 players use one 52-card pack, 3–4 players two packs, 5–6 players three. No jokers.
# - **Deal.** Each player gets one face-down card per layout spot, A (1) to 10, in two rows of five. Nobody may
#   look at them. The rest is the face-down stock; there is no discard pile at the start.
# - **A turn.** Draw the top stock card, or take the top discard instead. Taking the discard is offered only when
#   that card could be used.
# - **The chain.** A card A–10 whose spot is face down *must* go face up there; the face-down card it displaces is
#   turned over and played the same way. The chain stops at a card that cannot be placed (a Q or K, a number whose
#   spot already shows that number, or a number above the layout size), which goes face up on the discard pile,
#   and the turn passes.
# - **Wild cards** (Jacks; with `wild="K"` Kings are wild and Jacks dead). A wild card *may* go face up on any
#   face-down spot, displacing its card into the chain, or be discarded. A card whose spot holds a face-up wild
#   *may* displace it; the wild may then go to any face-down spot, or be discarded.
# - **Empty stock.** The discard pile except its top card is shuffled into a new stock.
# - **Winning.** The first player whose every spot is face up (its own number or a wild) wins at once.
#
# | option | default | what it does |
# |---|---|---|
# | `wild` | `"J"` | which rank is wild: `"J"` or `"K"` |
# | `last_round` | `False` | after a player completes, every other player gets one last turn |
# | `layout_sizes` | 10 each | starting layout size for each seat (1–10) |
# | `match` | `False` | play hands until the match ends; a hand's winner has one spot fewer in later hands |
#
# **Stacked decks.** `deck=[...]` lists the top of the deck, top card first; the other cards follow in seeded
# random order. Seat 0 gets the first cards for its spots A, 2, 3, … in order, then seat 1; the next card is the
# top of the stock.

# %%
import re

import numpy as np
from IPython.display import HTML, display

import cardlab
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.viz import table_html
from cardlab.viz.charts import convergence_figure, convergence_rows
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
# the next ten, and the stock starts with 4♥, J♣, 5♦. Before you run the next cells: seat 0 draws 4♥. Look at
# seat 0's cards in `DECK` and predict how many cards that one draw places.

# %%
DECK = ["AS", "QS", "2D", "3C", "7H", "6D", "JH", "8S", "9C", "10H",   # seat 0, spots A..10
        "KD", "9D", "QH", "4S", "5S", "6H", "KS", "8D", "2H", "10S",   # seat 1, spots A..10
        "4H", "JC", "5D"]                                              # top of the stock
chain = cardlab.Stepper("garbage", players=2, seed=1, deck=DECK)
display(chain)

# %% [markdown]
# Press **Step** in the stepper above, or run the next cell: each press shows one more event of the bot's move.

# %%
press(chain, "reset")      # back to the deal, in case you pressed buttons above
while True:
    press(chain, "step")
    print(f"{status(chain):<75} | {chain.log_lines()[-1]}")
    if chain.game.move_count >= 1:
        break
placed = sum(card is not None for card in chain.game.observe(None).layouts[0])
print(f"cards placed by seat 0's first draw: {placed}")

# %% [markdown]
# ## 3. The real choices: wild cards, displacing, taking the discard
#
# Garbage has few decisions, and all of them are about wild cards and the discard pile. Here both seats are
# `human`, and we choose every move ourselves (in the stepper you would click the move buttons).

# %%
# hot_seat=False: the whole class watches one screen, so the stepper need not hide each hand between turns
choices = cardlab.Stepper("garbage", players=2, seed=1, deck=DECK, policies=["human", "human"],
                          hot_seat=False)
for move in ["draw stock", "draw stock", "jack to 5", "displace jack on 5", "jack to 2", "discard"]:
    play_and_show(choices, move)

# %% [markdown]
# Seat 1 drew J♣ and chose spot 5 for it; the card it uncovered, 5♠, belongs on spot 5, so seat 1 could take the
# Jack back (*displace*) and place it again, this time on spot 2. Under spot 2 was 9♦, a forced placement, which
# uncovered 2♥; spot 2 now shows the Jack, so seat 1 chose to *discard* rather than displace again.
#
# Now seat 0: the discard 2♥ is of no use to seat 0 (its spot 2 shows 2♦), so only **draw stock** is offered.

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
# ## 4. Options
#
# **Kings wild.** The same stacked deck with `wild="K"`: now seat 1's J♣ is a dead card and ends its turn at once.

# %%
kings = cardlab.new_game("garbage", players=2, seed=1, deck=DECK, wild="K")
kings.play_all(["draw stock", "draw stock"])
for event in kings.events:
    print(event)

# %% [markdown]
# **One last round.** With one spot each an Ace completes a layout. Seat 0 draws A♠ and completes; by default that
# ends the hand, but with `last_round=True` seat 1 draws once more, gets A♥, and completes too. Both are then hand
# winners, and the game's winner is the first to complete: seat 0.

# %%
LAST = ["QS", "QH", "AS", "AH"]
for last_round in (False, True):
    g = cardlab.new_game("garbage", players=2, seed=1, deck=LAST, layout_sizes=[1, 1], last_round=last_round)
    while not g.is_over:
        g.play(g.legal_moves()[0])
    print(f"last_round={last_round}: hand winners {g.state.hand_winners}, winner seat {g.winner}, {g.turns} turns")

# %% [markdown]
# **A match.** With `match=True` the cards are dealt again after each hand; the hand's winner has one spot fewer
# from then on, and plays first in the next hand. The match ends when a player with a single spot wins a hand.
# Here is a whole match between two greedy bots, one line per hand.

# %%
match = cardlab.new_game("garbage", players=2, seed=8, match=True)
bots = [make_policy("greedy", "garbage", np.random.default_rng(0))] * 2
while not match.is_over:
    match.play(choose(bots[match.current_player], match))
hands = [(1, [10, 10], 0)]       # hand 1: ten spots each; seat 0 plays first
winners = []
for text in (str(e) for e in match.events if e.kind in ("hand", "deal")):
    won = re.search(r"hand (\d+) won by seat (\d+)", text)
    dealt = re.search(r"hand (\d+) dealt \(seat 0: (\d+), seat 1: (\d+) spots\); seat (\d+) plays first", text)
    if won:
        winners.append(int(won.group(2)))
    elif dealt:
        hands.append((int(dealt.group(1)), [int(dealt.group(2)), int(dealt.group(3))], int(dealt.group(4))))
print("hand  spots (seat 0, seat 1)  first  winner")
for (number, sizes, first), winner in zip(hands, winners, strict=True):
    print(f"{number:>4}  {str(sizes):>22}  {first:>5}  {winner:>6}")
for (_, sizes, _), (_, after, first_next), winner in zip(hands, hands[1:], winners, strict=False):
    assert after[winner] == sizes[winner] - 1 and after[1 - winner] == sizes[1 - winner] and first_next == winner
assert hands[-1][1][winners[-1]] == 1 and match.winner == winners[-1]
print(f"hands won {match.state.wins}; match winner seat {match.winner}")

# %% [markdown]
# Check the rules in the table: does each hand's winner lose exactly one spot and play first next?

# %% [markdown]
# ## 5. The panels, and counting a chance exactly
#
# The stepper's plots show, at every move, each seat's chance of winning and the chance of winning within the next
# few turns (*estimates*, from many play-outs; lesson `03_garbage_chances` is about them), and one *exact* number:
# the chance that the next stock card can be used.
#
# The stacked game of section 3 is no good for counting: you have read `DECK`. Here is a shuffled deal (seed 4)
# after ten moves of two greedy bots, and its panels' numbers:

# %%
ten = cardlab.Stepper("garbage", players=2, seed=4)
for _ in range(10):
    press(ten)
display(ten)
print(ten.panel_numbers())

# %% [markdown]
# **Count it yourself.** The deck was shuffled and nobody ever looks at a face-down card, so the top of the stock
# is equally likely to be *any* card nobody has seen yet: the face-down layout cards and the stock together. The
# chance that it can be used by the next player to draw is a count:
#
# $$P(\text{usable}) = \frac{\text{number of unseen cards the player can use}}{\text{number of unseen cards}}.$$
#
# A player can use a Jack (wild) while one of their spots is face down, and a number whose spot is still face
# down or shows a Jack (the number displaces the Jack). The next player to draw is the player to move if their turn
# has not started; in the middle of a chain the turn ends without another draw, so it is the *next* player (who may
# take the discard instead: the count is still the chance for the top card). Was your prediction right?

# %%
game = ten.game
seat = prob.garbage_next_drawer(game)
unseen = game.hidden_cards()
usable = [card for card in unseen if game.can_use(seat, card)]
print(f"seat {game.current_player} to move, seat {seat} is the next player to draw (or take the discard)")
print(f"{len(unseen)} unseen cards, {len(usable)} of them usable by seat {seat}: {len(usable)}/{len(unseen)} "
      f"= {len(usable) / len(unseen):.4f}")
assert prob.garbage_next_card_placeable(game) * len(unseen) == len(usable)   # the panel's exact number
at_deal = prob.garbage_next_card_placeable(cardlab.new_game("garbage", players=2, seed=4))
print(f"at the deal (every card unseen): {at_deal} = {float(at_deal):.4f}")

# %% [markdown]
# **Real deals.** At the deal the count is the same for every shuffle. Is it right? Deal 2,000 shuffled games and
# look at the real top card of the stock: can seat 0 use it? The chart shows the running share with its 95% band,
# and the count dashed.

# %%
first_usable = []
for deal_seed in range(1000, 3000):
    deal = cardlab.new_game("garbage", players=2, seed=deal_seed)
    first_usable.append(int(deal.can_use(0, deal.state.stock[-1])))   # the real top card of the stock
display(figure_view(convergence_figure(first_usable, truth=float(at_deal), label="usable first card",
                                       title="Real deals: can seat 0 use its first card?", x_title="real deals")))
for row in convergence_rows(first_usable, [10, 100, 1000, len(first_usable)]):
    print(row)
share = np.mean(first_usable)
gap = (share - float(at_deal)) / np.sqrt(float(at_deal) * (1 - float(at_deal)) / len(first_usable))
print(f"real share {share:.4f} against the count {float(at_deal):.4f}: {gap:+.2f} standard errors")
assert abs(gap) < 4     # as close as 2,000 deals can show (a gap of 4 would be strong evidence against the count)

# %% [markdown]
# The running share jumps about at first and settles near the count: on real deals the count holds, as far as 2,000
# deals can tell.

# %% [markdown]
# ## Misconceptions to discuss
#
# - *"A card nobody has seen is more likely to be one I need, since I have waited so long."* In a shuffled deal
#   every unseen card is equally likely to be next; waiting changes nothing.
# - *"The chance is about the player to move."* It is about the next player to draw, as section 5 defines it.

# %% [markdown]
# ## Exercises
#
# Each exercise checks your answer. Type it in the box (a number, a fraction such as 3/4, a decimal such as 0.75,
# or a percentage such as 75%) and press **Check**, or write it between the quotes in the answer cell and run that
# cell.

# %% [markdown]
# **Exercise 1.** Play the stacked deck `DECK` with Kings wild (`wild="K"`) and greedy bots for six moves, on seed 1
# (as `chain` above). How many cards are face up in seat 0's layout then?

# %% [check]
exercise_1 = lesson("02").exercise(1, deck=DECK)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "4"
exercise_1.check(answer_1)

# %% [solution]
ex1 = cardlab.new_game("garbage", players=2, seed=1, deck=DECK, wild="K")
greedy = make_policy("greedy", "garbage", np.random.default_rng(0))
for _ in range(6):
    ex1.play(choose(greedy, ex1))
face_up = [sum(card is not None for card in layout) for layout in ex1.observe(None).layouts]
print(f"after 6 moves: face-up cards per seat {face_up}")
print(exercise_1.check(str(face_up[0])))
assert exercise_1.check(str(face_up[0])).is_right
slip = cardlab.new_game("garbage", players=2, seed=1, deck=DECK)     # the plausible slip: forgetting wild="K"
slip_bot = make_policy("greedy", "garbage", np.random.default_rng(0))
for _ in range(6):
    slip.play(choose(slip_bot, slip))
jacks_wild = sum(card is not None for card in slip.observe(None).layouts[0])
print(f"with Jacks wild instead ({jacks_wild}):", exercise_1.check(str(jacks_wild)))
assert jacks_wild != face_up[0] and exercise_1.check(str(jacks_wild)).status == "not yet"
answer_1 = str(face_up[0])   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** In a fresh two-player game with five spots each (`layout_sizes=[5, 5]`), what is the exact
# chance that seat 0's first card can be used? Count it by hand first: which ranks are useful, and how many cards
# of each are there?

# %% [check]
exercise_2 = lesson("02").exercise(2)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
five = cardlab.new_game("garbage", players=2, seed=0, layout_sizes=[5, 5])
useful = 4 * 5 + 4          # four each of A-5, and the four Jacks
print(f"by hand: {useful}/52 = {useful / 52:.4f}")
assert prob.garbage_next_card_placeable(five) * 52 == useful
print(exercise_2.check(f"{useful}/52"))
assert exercise_2.check(f"{useful}/52").is_right
print("without the Jacks (20/52):", exercise_2.check("20/52"))
assert exercise_2.check("20/52").status == "not yet"
answer_2 = f"{useful}/52"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3.** The cell below deals a shuffled game (seed 2) and lets two greedy bots play four moves. Seat 0 is
# in the middle of a chain: it holds a Jack and must choose a spot for it or discard it. Who is the next player to
# draw, and what is the exact chance that they can use the top card of the stock? (Section 5 shows how to count.)

# %%
def greedy_game(seed, moves):
    """A shuffled two-player game after `moves` moves of greedy bots."""
    g = cardlab.new_game("garbage", players=2, seed=seed)
    bot = make_policy("greedy", "garbage", np.random.default_rng(0))
    while g.move_count < moves:
        g.play(choose(bot, g))
    return g


g3 = greedy_game(2, 4)
display(HTML(table_html(g3, None)))
print(f"seat {g3.current_player} to move; legal now: {', '.join(m.text for m in g3.legal_moves())}")

# %% [check]
exercise_3 = lesson("02").exercise(3, game=g3)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_3.check(answer_3)

# %% [solution]
drawer = 1 - g3.current_player          # two players: the next player is the next to draw
hidden = g3.hidden_cards()
count = sum(g3.can_use(drawer, card) for card in hidden)
print(f"seat {g3.current_player} to move; seat {drawer} is the next to draw: {count}/{len(hidden)} = "
      f"{count / len(hidden):.4f}")
assert drawer == prob.garbage_next_drawer(g3) and g3.current_player == 0
print(exercise_3.check(f"{count}/{len(hidden)}"))
assert exercise_3.check(f"{count}/{len(hidden)}").is_right
wrong_seat = sum(g3.can_use(g3.current_player, card) for card in hidden)   # the slip: counting the mover's spots
print(f"counting seat {g3.current_player}'s spots ({wrong_seat}/{len(hidden)}):",
      exercise_3.check(f"{wrong_seat}/{len(hidden)}"))
assert exercise_3.check(f"{wrong_seat}/{len(hidden)}").status == "not yet"
answer_3 = f"{count}/{len(hidden)}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS
