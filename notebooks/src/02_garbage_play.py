# %% [markdown]
# # Garbage, part 1: playing the game
#
# **Learning goals**
#
# - **the idea:** the chance that the next card helps is a count of unseen cards, and it changes with every card
#   seen, because cards are drawn *without replacement*;
# - play Garbage in the stepper.
#
# **Predict first.** After ten moves of a game, is the chance that the next stock card can be used by the player
# to move (in the middle of a chain: the next player) above or below one half? Higher or lower than at the deal?
# Section 5 counts it.

# %% [teacher]
# **Learning goals:** the rules of Garbage (Trash, Ten) and its options; a chain of forced placements on a stacked
# deck; the only real choices (where a wild goes, displacing a wild, taking the discard); the exact chance that
# the next card can be used, and how drawing without replacement moves it.
#
# **Lesson plan (50 minutes).** 10 min: rules (section 1). 8 min: a chain, one card at a time (section 2).
# 8 min: the choices (section 3). 4 min: options (section 4). 10 min: panels, counting, drawing without
# replacement (section 5). 10 min: exercises.
#
# Rules not shown to students: 3–4 players use two packs, 5–6 players three. When the stock is empty, the discard
# pile except its top card is shuffled into a new stock.

# %% [markdown]
# ## 1. The rules
#
# - **Deal.** Each player gets one face-down card per layout spot, A (1) to 10, in two rows of five (one pack for
#   two players). Nobody may look at them. The rest is the face-down stock.
# - **A turn.** Draw the top stock card, or take the top discard if that card could be used.
# - **The chain.** A card A–10 whose spot is face down *must* go face up there; the card it displaces is turned
#   over and played the same way. The chain stops at a card that cannot be placed (Q, K, a number whose spot
#   already shows it), which is discarded, and the turn passes.
# - **Wild cards** (Jacks). A wild *may* go on any face-down spot, displacing its card into the chain, or be
#   discarded. A card whose spot holds a wild *may* displace it; the wild then moves on or is discarded.
# - **Winning.** The first player whose every spot is face up wins.
#
# Options: `wild="K"` (Kings wild, Jacks dead), `last_round=True` (the others get one last turn),
# `layout_sizes=[5, 5]` (spots per seat), `match=True` (play hands; a hand's winner has one spot fewer next).
#
# **Stacked decks.** `deck=[...]` lists the top of the deck; the rest is shuffled. Seat 0 gets the first cards for
# spots A, 2, 3, …, then seat 1; the next card is the top of the stock.

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
# The stock starts with 4♥, J♣, 5♦. Seat 0 draws 4♥: look at seat 0's cards in `DECK` and predict how many cards
# that one draw places.

# %%
DECK = ["AS", "QS", "2D", "3C", "7H", "6D", "JH", "8S", "9C", "10H",   # seat 0, spots A..10
        "KD", "9D", "QH", "4S", "5S", "6H", "KS", "8D", "2H", "10S",   # seat 1, spots A..10
        "4H", "JC", "5D"]                                              # top of the stock
chain = cardlab.Stepper("garbage", players=2, seed=1, deck=DECK)
display(chain)

# %% [markdown]
# Press **Step** above to see one event at a time. The next cell steps its own copy of the deal.

# %%
chain_code = cardlab.Stepper("garbage", players=2, seed=1, deck=DECK)    # not displayed: the code's own copy
while True:
    press(chain_code, "step")
    print(f"{status(chain_code):<75} | {chain_code.log_lines()[-1]}")
    if chain_code.game.move_count >= 1:
        break
placed = sum(card is not None for card in chain_code.game.observe(None).layouts[0])
print(f"cards placed by seat 0's first draw: {placed}")

# %% [markdown]
# ## 3. The real choices: wild cards, displacing, taking the discard
#
# Both seats are `human` here: we choose every move ourselves.

# %%
# hot_seat=False: the whole class watches one screen, so the stepper need not hide each hand between turns
choices = cardlab.Stepper("garbage", players=2, seed=1, deck=DECK, policies=["human", "human"],
                          hot_seat=False)
for move in ["draw stock", "draw stock", "jack to 5", "displace jack on 5", "jack to 2", "discard"]:
    play_and_show(choices, move)

# %% [markdown]
# Seat 1 put J♣ on spot 5, uncovering 5♠, which *displaced* the Jack; the Jack went on to spot 2 (uncovering 9♦,
# then 2♥), and seat 1 discarded 2♥. Seat 0's spot 2 shows 2♦, so only **draw stock** is offered.

# %%
for move in ["draw stock", "jack to 6", "discard"]:
    play_and_show(choices, move)

# %% [markdown]
# Seat 0 kept its Jack on spot 6 and discarded 6♦. Seat 1's spot 6 is face down, so **take discard** is offered.

# %%
play_and_show(choices, "take discard")
print(choices.game)

# %% [markdown]
# ## 4. Options
#
# **Kings wild.** With `wild="K"`, seat 1's J♣ is dead and ends its turn at once.

# %%
kings = cardlab.new_game("garbage", players=2, seed=1, deck=DECK, wild="K")
kings.play_all(["draw stock", "draw stock"])
for event in kings.events:
    print(event)

# %% [markdown]
# **One last round.** One spot each; seat 0 draws A♠ and completes. With `last_round=True` seat 1 draws A♥ and
# completes too, but the first to complete wins.

# %%
LAST = ["QS", "QH", "AS", "AH"]
for last_round in (False, True):
    g = cardlab.new_game("garbage", players=2, seed=1, deck=LAST, layout_sizes=[1, 1], last_round=last_round)
    while not g.is_over:
        g.play(g.legal_moves()[0])
    print(f"last_round={last_round}: hand winners {g.state.hand_winners}, winner seat {g.winner}, {g.turns} turns")

# %% [markdown]
# **A match** (`match=True`) between two greedy bots, one line per hand. It ends when a player with one spot wins
# a hand.

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
# ## 5. The panels, and counting a chance exactly
#
# The stepper's panels show chances of winning (*estimates*: lesson 03) and one *exact* number: the
# chance that the next stock card can be used. Here is a shuffled deal (seed 4) after ten greedy moves:

# %%
ten = cardlab.Stepper("garbage", players=2, seed=4)
for _ in range(10):
    press(ten)
display(ten)
print(ten.panel_numbers())

# %% [markdown]
# **Count it yourself.** The deck was shuffled, so the top of the stock is equally likely to be *any* card nobody
# has seen (face-down layout cards and stock together):
#
# $$P(\text{usable}) = \frac{\text{number of unseen cards the player can use}}{\text{number of unseen cards}}.$$
#
# A player can use a Jack while a spot is face down, and a number whose spot is face down or shows a Jack. The
# player is the one the panel names: the player to move, or in the middle of a chain the *next* player. Either may
# take the discard instead, leaving the stock card to the player after.

# %%
game = ten.game
seat = prob.garbage_next_drawer(game)
unseen = game.hidden_cards()
usable = [card for card in unseen if game.can_use(seat, card)]
print(f"seat {game.current_player} to move; the panel counts for seat {seat}")
print(f"{len(unseen)} unseen cards, {len(usable)} of them usable by seat {seat}: {len(usable)}/{len(unseen)} "
      f"= {len(usable) / len(unseen):.4f}")
assert prob.garbage_next_card_placeable(game) * len(unseen) == len(usable)   # the panel's exact number
at_deal = prob.garbage_next_card_placeable(cardlab.new_game("garbage", players=2, seed=4))
print(f"at the deal (every card unseen): {at_deal} = {float(at_deal):.4f}")

# %% [markdown]
# **Real deals.** Is the count at the deal right? In 2,000 shuffled deals, can seat 0 use the real top card?

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
# The share settles near the count. **One game is not every game:** here is the count after ten greedy moves in
# each of 1,000 deals.

# %%
def greedy_game(seed, moves):
    """A shuffled two-player game after `moves` moves of greedy bots (or fewer, if it ends first)."""
    g = cardlab.new_game("garbage", players=2, seed=seed)
    bot = make_policy("greedy", "garbage", np.random.default_rng(0))
    while g.move_count < moves and not g.is_over:
        g.play(choose(bot, g))
    return g


after_ten = [greedy_game(s, 10) for s in range(1000)]
chances = np.array([float(prob.garbage_next_card_placeable(g)) for g in after_ten if not g.is_over])
print(f"{len(chances)} of {len(after_ten)} games still running after ten moves")
print(f"chance above 1/2 in {np.mean(chances > 0.5):.0%} of them; below the deal's {float(at_deal):.4f} in "
      f"{np.mean(chances < float(at_deal)):.0%}; median {np.median(chances):.3f}")
assert 0 < np.mean(chances > 0.5) < 1 and np.mean(chances < float(at_deal)) > 0.9

# %% [markdown]
# "Above or below one half?" depends on the game: below in most, above in many. Against the deal two effects
# compete: face-up spots leave fewer ranks to use (down), useless cards seen leave the useful ones a bigger share
# (up, next). The spots win in almost every game.

# %% [markdown]
# ### Drawing without replacement: each card seen changes the next
#
# One spot each (`layout_sizes=[1, 1]`): only an Ace or a Jack helps, 8 cards of 52. If the top ten stock cards
# are useless, 42 cards are unseen and all 8 useful ones are among them: the eleventh card's chance is 8/42.
# Drawn *without replacement*, each useless card makes the useful ones a bigger share of what is left. Real deals:

# %%
first, eleventh = [], []
for deal_seed in range(20000):
    deal = cardlab.new_game("garbage", players=2, seed=deal_seed, layout_sizes=[1, 1])
    top = [deal.can_use(0, card) for card in deal.state.stock[::-1][:11]]   # the stock from its top card down
    first.append(top[0])
    if not any(top[:10]):
        eleventh.append(top[10])                                                # only deals with ten misses
for label, draws, count in (("first card", first, 8 / 52), ("eleventh, after ten misses", eleventh, 8 / 42)):
    share, se = np.mean(draws), np.sqrt(count * (1 - count) / len(draws))
    print(f"{label:<27} {len(draws):>6} deals: share {share:.4f}, count {count:.4f}, "
          f"{(share - count) / se:+.2f} standard errors")
    assert abs(share - count) < 4 * se
fresh_se = np.sqrt(8 / 52 * (1 - 8 / 52) / len(eleventh))        # if the eleventh card were like a fresh deck's
rise = (np.mean(eleventh) - 8 / 52) / fresh_se
print(f"eleventh card against a fresh deck's 8/52 = {8 / 52:.4f}: {rise:+.1f} standard errors")
assert rise > 4                                                  # far more than chance: the chance did rise

# %% [markdown]
# After ten misses the useful share is far above a fresh deck's. This is not the gambler's fallacy of lesson 01:
# those were independent games from fresh shuffles; here the cards come from one deck.

# %% [teacher]
# **Misconceptions to discuss**
#
# - *"Each draw is like a fresh deck: ten useless cards leave my chance where it was."* Within one deal the
#   cards are drawn without replacement, so each useless card seen raises the chance of a useful one (8/52, then
#   8/42). Only independent repetitions, such as separate games (lesson 01), do not remember.
# - *"The chance is about the player who draws the card."* It is about the seat the panel names: the player to
#   move, or in the middle of a chain the next player (section 5). That player may take the discard instead (greedy
#   bots often do), and then the player after draws the stock card.

# %% [markdown]
# ## Exercises
#
# Type each answer in its box and press **Check**.

# %% [markdown]
# **Exercise 1.** Play `DECK` on seed 1 with Kings wild (`wild="K"`) and greedy bots for six moves. How many
# cards are face up in seat 0's layout then? Type a whole number.

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
# **Exercise 2.** Two players, five spots each (`layout_sizes=[5, 5]`): what is the exact chance that seat 0's
# first card can be used? Count by hand first.

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
# **Exercise 3.** Below, seed 21 after three greedy moves: seat 0 is in the middle of a chain, holding a Jack.
# What is the exact chance that the next player can use the top card of the stock?

# %%
g3 = greedy_game(21, 3)
display(HTML(table_html(g3, None)))
print(f"seat {g3.current_player} to move; legal now: {', '.join(m.text for m in g3.legal_moves())}")

# %% [check]
exercise_3 = lesson("02").exercise(3, game=g3)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_3.check(answer_3)

# %% [solution]
drawer = 1 - g3.current_player          # two players: the next player is the other seat
hidden = g3.hidden_cards()
count = sum(g3.can_use(drawer, card) for card in hidden)
print(f"seat {g3.current_player} to move; seat {drawer} is the next player: {count}/{len(hidden)} = "
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
