# %% [markdown]
# # Spite and Malice: the game, and the chances you can count
#
# **Learning goals**
#
# - **the idea:** the chance that the next stock card fits is a count of the cards the viewer has not seen: it
#   depends on who counts.
# - play Spite and Malice in the stepper.
#
# **Predict first.** At the deal every centre pile is empty, so only an Ace or a King fits. Guess the chance that
# the top stock card fits one. Larger or smaller for a player who has seen their hand?

# %% [teacher]
# **Learning goals**
#
# - know the rules of Spite and Malice and what each of its options changes;
# - play a first turn in the stepper and read its two panels;
# - see where a completed centre pile goes, and why that lets the players count cards;
# - count the exact chance that the next stock card fits a centre pile, for the table and for a player who knows
#   their own hand, and say which assumption the count rests on.
#
# **Lesson plan (50 minutes).** 5 min: predict (below). 8 min: the rules (section 1). 12 min: a first turn in the
# stepper, its panels, the standard error of a difference, whose view (section 2). 5 min: completed piles
# (section 3). 10 min: counting (section 4). 10 min: exercises (5 min each, counted by hand). "Going further" (a
# whole match) is optional, for homework or a spare moment.

# %% [markdown]
# ## 1. The rules
#
# - **Cards.** Two packs shuffled together (104 cards). Ace 1, 2–10, Jack 11, Queen 12; **Kings are wild**.
# - **Deal.** Each player gets a **payoff pile** of 20 cards (top card face up), a **hand** of 5 and 4 empty
#   **side piles**. The 3 **centre piles** start empty; the rest is the face-down **stock**.
# - **Centre piles** build up from Ace to Queen whatever the suit; a King stands for any value needed. A complete
#   pile's 12 cards are shuffled and put **under** the stock.
# - **Side piles** take any hand card; only their top card can be played.
# - **A turn.** Draw until the hand holds 5, then play the payoff top, a side-pile top or a hand card onto a
#   centre pile, as often as you can. A hand card put on a side pile ends the turn; an emptied hand draws 5 more.
# - **Who starts.** The higher payoff top (King highest); on a tie both payoff piles are reshuffled.
# - **Winning.** The first to play their last payoff card wins the round, scoring the cards left in the other
#   payoff pile; if the stock runs out, the round is drawn. A **match** ends when a player has 50 points.

# %% [teacher]
# **Options** (set when dealing):
#
# | option | default | other choice | what it changes |
# |---|---|---|---|
# | `payoff_size` | `20` | 1 to 40 | cards in each payoff pile |
# | `king_starts_pile` | `True` | `False` | a King may not start an empty centre pile |
# | `refill_on_empty` | `True` | `False` | an emptied hand ends the turn instead of drawing 5 more |
# | `completed_to` | `"bottom"` | `"shuffle"` | a completed pile is shuffled into the whole stock |
# | `first` | `"higher"` | `"seat0"` | seat 0 always starts |
# | `match` | `False` | `True` | play rounds until a player reaches the target |
# | `target` | `50` | any whole number from 1 | points that win a match |

# %%
import re
from fractions import Fraction

import numpy as np
from IPython.display import display

import cardlab
from cardlab.course import lesson
from cardlab.games.spite_malice.kernel import payoff_this_turn
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view

greedy = make_policy("greedy", "spite-and-malice", np.random.default_rng(0))


def play_and_show(stepper, move):
    """Play one move in the stepper and print what happened."""
    before = len(stepper.game.events)
    stepper.play(move)
    print(f"> {move}")
    for event in stepper.game.events[before:]:
        print("   ", event)


def describe_stock(game):
    """The stock from the top: which part nobody has seen since the deal, and which part is a completed pile."""
    for first, _, count in game.observe(None).stock_layers:
        what = "cards nobody has seen since the deal" if first == 0 else f"cards of completed pile {first}"
        print(f"   {count:>3} {what}")


def top_part_unseen(game):
    """True while the top part of the stock is cards nobody has seen since the deal."""
    return game.observe(None).stock_layers[0][0] == 0


# %% [markdown]
# ## 2. A first turn in the stepper
#
# The deck below is **stacked** so that the first turn shows every kind of move; both seats are `"human"`. The
# stepper shows the deal; the cells play their own copy, `spite`.

# %%
DECK = ["3S", "9H", "9D", "9C",                  # seat 0's payoff pile, top first
        "2H", "QH", "QD", "QC",                  # seat 1's payoff pile
        "AS", "2S", "KS", "5D", "7D",            # seat 0's hand
        "AH", "4C", "6C", "8C", "10C",           # seat 1's hand
        "3H", "4H", "5H", "6H", "7H", "8H"]      # top of the stock
# hot_seat=False: one screen for the whole class, no "pass the device" cover screens
shown_deal = cardlab.Stepper("spite-and-malice", seed=1, deck=DECK, payoff_size=4, policies=["human", "human"],
                             hot_seat=False)
spite = cardlab.Stepper("spite-and-malice", seed=1, deck=DECK, payoff_size=4, policies=["human", "human"],
                        hot_seat=False)       # the code's copy, not displayed
print(spite.game.state.opening)
display(shown_deal)

# %% [markdown]
# Seat 0 holds A♠ 2♠ 5♦ 7♦ K♠ and its payoff top is 3♠. **Try it in the stepper above first:** how far can seat 0
# build centre pile 1 in this turn? Then run the cell.

# %%
for move in ["hand A♠ to centre 1", "hand 2♠ to centre 1", "payoff to centre 1", "hand K♠ to centre 1",
             "hand 5♦ to centre 1", "hand 7♦ to side 1"]:
    play_and_show(spite, move)

# %% [markdown]
# Seat 1 plays its turn:

# %%
for move in ["hand 6♣ to centre 1", "hand A♥ to centre 2", "payoff to centre 2", "hand 10♣ to side 1"]:
    play_and_show(spite, move)
view = spite.game.observe(None)
print("centre piles have reached:", view.centre_values, "| payoff tops:", [str(c) for c in view.payoff_tops])

# %% [markdown]
# ### The two panels
#
# Top plot: each seat's chance of winning if both play on like the greedy bot (it plays every card that fits but
# keeps Kings unless they alone reach its payoff card). Bottom plot: the player to move
# (seat 0), from what seat 0 has seen:
#
# - *next stock card fits a centre pile*: a **count** (exact under the assumption of section 4);
# - *payoff top playable now*: 0 or 1 (all face up);
# - *payoff card played this turn with greedy play*: an **estimate** (95% interval) from play-outs of the turn.
#
# In the code's copy:

# %%
print(spite.panel_numbers())

# %% [markdown]
# **How the estimate settles.** 2,000 fresh play-outs of the same question, with the running share.
#
# Two estimates from separate play-outs differ by chance: their difference has **standard error**
# $\sqrt{se_1^2 + se_2^2}$ ($se$: each one's standard error). A gap beyond 4 of those would be strong evidence that
# they measure different things (by chance about once in 16,000, lesson 05).

# %%
panel_estimate = [q for q in spite.quantities if q.key == "payoff_this_turn"][0]
mover = spite.game.current_player                   # the stepper shows the human seat to move: the panel's view
assert spite.controller.viewpoint == f"seat {mover}"
outcomes = payoff_this_turn(spite.game, mover, 2000, np.random.default_rng(2024))
display(figure_view(convergence_figure(outcomes, title="Payoff card played this turn, play-out by play-out",
                                       label="share of play-outs", x_title="play-outs")))
rows = convergence_rows(outcomes, [10, 100, 1000, 2000])
for row in rows:
    print(row)
se_panel = np.sqrt(panel_estimate.value * (1 - panel_estimate.value) / panel_estimate.n)
se_fresh = np.sqrt(rows[-1].value * (1 - rows[-1].value) / rows[-1].n)
gap = (rows[-1].value - panel_estimate.value) / np.sqrt(se_panel ** 2 + se_fresh ** 2)
print(f"the panel said {panel_estimate.value:.3f}; 2,000 fresh play-outs say {rows[-1].value:.3f} "
      f"({gap:+.2f} standard errors of the difference apart)")
assert abs(gap) < 4 and rows[-1].high - rows[-1].low < rows[1].high - rows[1].low

# %% [markdown]
# The share settles close to the panel's number.

# %% [markdown]
# **Whose view?** Seat 0 has not seen our deck list; we have. **Predict:** what is the next stock card, does it
# fit, and can seat 0 play its payoff 9♥ this turn? Then run the cell: seat 0 plays its turn like the greedy bot.

# %%
next_card = spite.game.state.stock[-1]
fits_now = spite.game.can_play_on_centre(next_card)
print(f"the real next stock card: {next_card}; fits a centre pile now: {fits_now}")
before = len(spite.game.events)
while spite.game.current_player == 0 and not spite.game.is_over:
    play_and_show(spite, str(choose(greedy, spite.game)))

# %% [markdown]
# Both are right for what each knows: seat 0 assumes every card it has not seen is equally likely; we knew where
# the cards lay. A chance belongs to a viewer.

# %%
assert str(next_card) == "8♥" and not fits_now
assert any("9♥ from the payoff pile" in str(event) for event in spite.game.events[before:])

# %% [teacher]
# **For the teacher: whose chance.** The panels give seat 0's chances (the stepper shows the human seat to move):
# the next stock card fits with the printed fraction, and the payoff card comes this turn, with greedy play, with
# the printed estimate. A student who has read `DECK` knows that the next card is 8♥, which fits no pile now, and
# that seat 0 reaches its payoff 9♥ by emptying its hand onto the piles, drawing 8♥ and playing it (the cell plays
# seat 0's turn as the greedy bot, which does just that, so its moves are not in the code for the class to read
# before predicting). Both are right for what each knows. Only the listed cards are known: the rest of the deck is
# shuffled by the seed. Sections 3 and 4, "Going further" and the exercises use shuffled deals. The first turn is
# for the class to try in the stepper before running its cell, whose move list shows how far pile 1 goes.

# %% [markdown]
# ## 3. Completed piles go under the stock
#
# Two greedy bots play a seeded round until the first centre pile is complete.

# %%
bots = cardlab.Stepper("spite-and-malice", seed=3)
while bots.game.state.completions == 0:
    bots.next_move()
game = bots.game
for event in game.events[-3:]:
    print(event)
print(f"move {game.move_count}; the stock, from the top:")
describe_stock(game)

# %% [markdown]
# **Discuss:** everybody saw those 12 cards on the table. What will a player who remembers them know once the
# stock has been drawn down to them?

# %% [markdown]
# ## 4. Counting: will the next stock card fit?
#
# We **assume** that the next stock card is equally likely to be any card the viewer has not seen (the stock, the
# other hand, the cards under the payoff tops). Then the chance is a count:
#
# $$P(\text{fits}) = \frac{\text{unseen cards that fit a centre pile}}{\text{all unseen cards}}.$$
#
# Right after a deal without ties this is a fact; later it is a model (lesson 05 tests it).
#
# **Predict:** in the deal of seed 0, who gives the top stock card a higher chance to fit, the table or seat 0?

# %%
deal = cardlab.new_game("spite-and-malice", seed=0)
print("payoff tops:", *deal.observe(0).payoff_tops, "| seat 0's hand:", *deal.observe(0).hand)
for viewpoint in (None, 0):
    unseen = deal.unseen_cards(viewpoint)
    fits = [card for card in unseen if deal.can_play_on_centre(card)]
    who = "table" if viewpoint is None else f"seat {viewpoint}"
    print(f"{who:>6}: {len(fits)} of {len(unseen)} unseen cards fit; the stepper's count: "
          f"{prob.spite_next_stock_playable(deal, viewpoint)}")
    assert prob.spite_next_stock_playable(deal, viewpoint) == Fraction(len(fits), len(unseen))

# %% [markdown]
# **Discuss:** can the cards in your own hand raise your chance, lower it, or both?
#
# Back to the bots' round, just after the first pile was completed. Its 12 cards lie under the stock, so the count
# leaves them out. **Predict:** do the table and the players agree now?

# %%
print(f"move {game.move_count}; the centre piles need {game.observe(None).needed} (a King fits any pile)")
for viewpoint in (None, 0, 1):
    who = "table" if viewpoint is None else f"seat {viewpoint}"
    chance = prob.spite_next_stock_playable(game, viewpoint)
    print(f"{who:>6}: the next stock card fits with chance {chance} = {float(chance):.3f}")

# %% [markdown]
# The bots play on until the stock is down to the completed piles (section 3's question):

# %%
while top_part_unseen(game):
    bots.next_move()
print(f"move {game.move_count}; the centre piles need {game.observe(None).needed}; the stock, from the top:")
describe_stock(game)
for viewpoint in (None, 0, 1):
    who = "table" if viewpoint is None else f"seat {viewpoint}"
    print(f"{who:>6}: the next stock card fits with chance {prob.spite_next_stock_playable(game, viewpoint)}")

# %% [markdown]
# Now every viewer counts the same cards and gives the same chance.

# %%
assert len({prob.spite_next_stock_playable(game, viewpoint) for viewpoint in (None, 0, 1)}) == 1

# %% [teacher]
# **For the teacher: the other options in one cell each.** The lesson shows none of them to the students. To
# show them:
#
# ```python
# # king_starts_pile=False: only an Ace may start an empty centre pile (a King then fits only a started pile)
# # refill_on_empty=False: a hand of A 2 3 4 5 played out on one pile ends the turn instead of drawing 5 more
# RUN = ["9S", "9H", "9D", "9C", "8H", "QH", "QD", "QC", "AS", "2H", "3D", "4C", "5S", "AH", "4D", "6C", "8C", "10C"]
# g = cardlab.new_game("spite-and-malice", seed=1, deck=RUN, payoff_size=4, refill_on_empty=False)
# g.play_all(["hand A♠ to centre 1", "hand 2♥ to centre 1", "hand 3♦ to centre 1", "hand 4♣ to centre 1",
#             "hand 5♠ to centre 1"])
# # completed_to="shuffle": the stock becomes one mixed part, and the completed pile's cards can come up any time
# # first="seat0": no comparison of payoff tops; payoff_size=5: much shorter rounds (count res.turns.mean() with
# # cardlab.simulate("spite-and-malice", games=60, seed=3, payoff_size=5, progress=False))
# ```
#
# The stepper's panel and the counts in section 4 use the same rule: the next stock card is equally likely to be
# any card the viewer has not seen, except tied payoff tops (known to lie in their payoff piles; Exercise 1) and,
# once the stock is down to a completed pile, only that pile's cards still in the stock.

# %% [markdown]
# ## Going further (optional, outside the 50 minutes): a whole match
#
# Two greedy bots play a match to 50 points (`match=True`), one line per round.

# %%
full = cardlab.new_game("spite-and-malice", seed=2, match=True)
while not full.is_over:
    full.play(choose(greedy, full))
running = [0, 0]
print("round  winner  points  scores after")
for number, (winner, points) in enumerate(full.state.results, start=1):
    if winner >= 0:
        running[winner] += points
    print(f"{number:>5}  {f'seat {winner}' if winner >= 0 else 'draw':>6}  {points:>6}  {running}")
print(f"match winner: seat {full.winner}")
assert running == list(full.state.scores) and max(running) >= 50 and full.winner == full.state.results[-1][0]

# %% [markdown]
# Both seats play the same greedy bot, yet the score is lopsided: luck of the deal, not skill. A match is a noisy
# judge of which player is better.

# %%
assert max(running) - min(running) >= 30      # the lopsided score the text describes (same bot in both seats)

# %% [markdown]
# ## Exercises
#
# Type your answer in the box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** The cell below deals seed 28; its opening has a tie. Before any move, which cards could the top
# stock card be, as the table knows the deal? **How many** are they? (Not checked: what chance to fit does that
# give? Compare with `prob.spite_next_stock_playable(seed_28)`.)

# %%
seed_28 = cardlab.new_game("spite-and-malice", seed=28)
print(seed_28.state.opening)
print("cards the table cannot see right now:", len(seed_28.unseen_cards(None)))

# %% [check]
exercise_1 = lesson("04").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "12"
exercise_1.check(answer_1)

# %% [solution]
start = cardlab.new_game("spite-and-malice", seed=28)
print(start.state.opening)
unseen = start.unseen_cards(None)           # every card the table cannot see right now
# the tied tops were seen: each went back into its own payoff pile, so none of them can be the top stock card
tied = [cardlab.Card.parse(c) for pair in re.findall(r"payoff tops (\S+) and (\S+) tie", start.state.opening)
        for c in pair]
print("tied, back in their payoff piles:", *tied)
assert tied
never_seen = list(unseen)
for card in tied:
    never_seen.remove(card)
fitting = [c for c in never_seen if c.rank in (cardlab.Rank.ACE, cardlab.Rank.KING)]
ex1 = prob.spite_next_stock_playable(start)
print(f"the top stock card is one of {len(never_seen)} never-seen cards ({len(unseen)} unseen less the "
      f"{len(tied)} tied); {len(fitting)} of them are Aces or Kings: {len(fitting)}/{len(never_seen)} = {ex1}, "
      f"the stepper's count")
assert ex1 == Fraction(len(fitting), len(never_seen))
print("right answer:", exercise_1.check(str(len(never_seen))))
assert exercise_1.check(str(len(never_seen))).is_right
print(f"counting the tied cards as never seen ({len(unseen)}):", exercise_1.check(str(len(unseen))))
print("the whole deck (104):", exercise_1.check("104"))
assert exercise_1.check(str(len(unseen))).status == exercise_1.check("104").status == "not yet"
# the count against real deals: every round among seeds 0-2999 that opens with a tie, and its real first stock card
tie_deals, predicted, spread, real_hits = 0, 0.0, 0.0, 0
for seed in range(3000):
    deal = cardlab.new_game("spite-and-malice", seed=seed)
    if "tie" not in deal.state.opening:
        continue
    p = float(prob.spite_next_stock_playable(deal))
    tie_deals, predicted, spread = tie_deals + 1, predicted + p, spread + p * (1 - p)
    real_hits += deal.can_play_on_centre(deal.state.stock[-1])
z = (real_hits - predicted) / spread ** 0.5
print(f"{tie_deals} real deals open with a tie: predicted {predicted:.1f} top stock cards that fit, really "
      f"{real_hits}; z = {z:+.2f}")
assert tie_deals > 100 and abs(z) < 3
answer_1 = str(len(never_seen))   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [teacher]
# **For the teacher: the tie is a lesson in conditioning.** Seed 28 opens with a tie: A♦ against A♠. Both payoff
# piles were reshuffled, each on its own, so the A♦ lies in one payoff pile and the A♠ in the other. The top stock
# card is one of the 104 − 2 tops − 2 tied cards = 100 cards nobody has seen, with 6 Aces and 8 Kings: 14/100 =
# 7/50, the stepper's count. Counting the tied cards as unseen gives 102 cards and 16/102: it forgets *where* a
# seen card must now be. The exercise asks for the number of cards, which the reduced fraction 7/50 does not show,
# so the function cannot answer it. At the deal nobody has chosen anything yet, so the count is exact. The real
# tied deals in the solution show no disagreement with the counts (|z| below 2), but a few hundred deals cannot
# tell 7/50 from 16/102 in one position; lesson 05's Exercise 1 sizes a simulation that can.

# %% [markdown]
# **Exercise 2.** The cell below deals seed 1 and prints what seat 0 sees: its hand and the payoff tops. What is
# **seat 0's** chance that the top stock card is a King (wild, so it always fits)?

# %%
seed_1 = cardlab.new_game("spite-and-malice", seed=1)
print("seat 0's hand:", *seed_1.observe(0).hand, "| payoff tops:", *seed_1.observe(0).payoff_tops)

# %% [check]
exercise_2 = lesson("04").exercise(2)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
deal_1 = cardlab.new_game("spite-and-malice", seed=1)
seen_by_0 = [*deal_1.observe(0).hand, *deal_1.observe(0).payoff_tops]
print("seat 0 sees:", *seen_by_0)
kings_seen = sum(c.rank == cardlab.Rank.KING for c in seen_by_0)
hidden = 104 - len(seen_by_0)
kings_unseen = [c for c in deal_1.unseen_cards(0) if c.rank == cardlab.Rank.KING]
assert len(kings_unseen) == 8 - kings_seen and len(deal_1.unseen_cards(0)) == hidden
print(f"Kings seat 0 cannot see: {8 - kings_seen} of {hidden} cards")
print("right answer:", exercise_2.check(f"{8 - kings_seen}/{hidden}"))
assert exercise_2.check(f"{8 - kings_seen}/{hidden}").is_right
table_unseen = deal_1.unseen_cards(None)
table = f"{sum(c.rank == cardlab.Rank.KING for c in table_unseen)}/{len(table_unseen)}"
print(f"the table's chance instead ({table}):", exercise_2.check(table))
print("every King, every card (8/104):", exercise_2.check("8/104"))
print(f"forgetting its own hand (8/{hidden}):", exercise_2.check(f"8/{hidden}"))
assert {exercise_2.check(wrong).status for wrong in (table, "8/104", f"8/{hidden}")} == {"not yet"}
answer_2 = f"{8 - kings_seen}/{hidden}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS
