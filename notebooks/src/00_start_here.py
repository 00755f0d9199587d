# %% [markdown]
# # Start here: a tour of cardlab
#
# **Learning goals**
#
# - deal a seeded game in the **stepper** and see that the same seed always gives the same game;
# - step through it move by move and read the move log;
# - read the two probability panels: each seat's chance of winning, and the game's own questions;
# - tell an *exact* probability (a fraction counted from the unseen cards) from an *estimate* (a simulation with
#   a 95% interval for the probability);
# - watch an estimate settle as the number of games grows;
# - **predict, then reveal**: guess a chance before the stepper shows it, and score your guesses.
#
# **Lesson plan (50 minutes).** 5 min: predict. 10 min: sections 1–2. 10 min: section 3. 5 min: section 4.
# 5 min: sections 5–6. 5 min: section 7. 10 min: exercises.
#
# **Predict first.** Two players, ten face-down spots each; seat 0 draws first. Who is more likely to win, seat 0
# or seat 1, and by how much? Write your guess down.
#
# Run each cell with **Shift+Enter**, from the top. Every notebook here is *seeded*: it prints the same numbers on
# every machine, so you can compare answers with your neighbour.

# %% [markdown]
# ## 1. Deal a game
#
# The **stepper** deals a game and draws it with its controls. We start with **Garbage** for two players: each
# player has ten face-down cards, one for each spot A (1) to 10; a card drawn whose spot is still face down goes
# there, and the card it uncovers is played the same way. Jacks are wild. The first player with all ten spots face
# up wins. (Lesson `02_garbage_play` has the full rules.)

# %%
from fractions import Fraction

import numpy as np
from IPython.display import display

import cardlab
from cardlab.course import lesson
from cardlab.sim import prob
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view

stepper = cardlab.Stepper("garbage", players=2, seed=3)
display(stepper)

# %% [markdown]
# What you see:
#
# - **the deal row**: game, number of players, seed, and **New deal**;
# - **the play row**: **Step** (one card at a time), **Next move**, **Back**, **Reset**, **Autoplay**;
# - **viewpoint**: whose knowledge the table and the probabilities use, and one menu per seat to choose who
#   plays it: the `greedy` bot, the `random` bot, or a `human` (you);
# - **the table** on the left, the **move log** under it, and **two plots** on the right.
#
# Click **Next move** a few times and watch the plots. The cells below do the same from code.

# %% [markdown]
# ## 2. Step the game from code
#
# Every button has a method of the same name, such as `stepper.next_move()`.

# %%
stepper.reset()        # back to the deal, in case you clicked above
for _ in range(4):
    stepper.next_move()
print(stepper.game)
for line in stepper.log_lines():
    print(line)

# %% [markdown]
# A move is one decision, such as *draw from the stock*, and everything it sets off: one move can place several
# cards (the Garbage chain).

# %% [markdown]
# ## 3. Read the panels
#
# **P(win) by move** (top plot): for every position so far, each seat's chance of winning if everybody plays on
# with the greedy bot. Nobody knows the face-down cards, so the stepper deals the unseen cards again at random
# many times, plays each of these *play-outs* to the end, and counts wins. The shaded band is a 95% interval for
# the **probability** of winning. It rests on an assumption: *every arrangement of the unseen cards is equally
# likely* (true at the deal, since the deck is shuffled; in Garbage nobody looks at a face-down card, so no choice
# can carry information about one). The stepper answers at once, so it uses a limited number of play-outs per
# point; the bands show how uncertain each number is. Here are the plot's numbers:

# %%
print(f"play-outs per point: {stepper.rollouts}")
print(stepper.history_numbers())

# %% [markdown]
# **The game's own panel** (bottom plot). For Garbage it shows
#
# - *next stock card can be used*: an **exact** fraction. The next stock card is equally likely to be any
#   card nobody has seen, so the chance is (unseen cards the player who draws it can use) / (all unseen cards);
# - *seat s wins within k turns*, for k = 1 … 5: **estimates**, with their intervals. Only the first layout
#   completed wins, so the curve levels off at that seat's chance to win.

# %%
print(stepper.panel_numbers())

# %% [markdown]
# ### Check the exact number by counting
#
# The unseen cards are the face-down layout cards plus the stock. A player can use a card if it is a Jack (wild)
# while one of their spots is face down, or a number whose spot is face down or shows a Jack. *Whose* spots? The
# next player to draw: the player to move if their turn has not started; in the middle of a chain, the *next*
# player.

# %%
game = stepper.game
seat = prob.garbage_next_drawer(game)
unseen = game.hidden_cards()
usable = [card for card in unseen if game.can_use(seat, card)]
print(f"seat {game.current_player} to move, seat {seat} is the next player to draw")
print(f"{len(unseen)} unseen cards, {len(usable)} of them usable by seat {seat}")
print("by counting:      ", f"{len(usable)}/{len(unseen)}")
print("the panel's exact:", prob.garbage_next_card_placeable(game))
assert Fraction(len(usable), len(unseen)) == prob.garbage_next_card_placeable(game)

# %% [markdown]
# ## 4. Many games: watching an estimate settle
#
# Back to the prediction at the top. Play many whole games from fresh deals with the greedy bot, and follow the
# share won by seat 0 as the games come in. The line is that running
# share; the band around it is the 95% interval for the probability after that many games.

# %%
GAMES = 4000
fresh_games = cardlab.simulate("garbage", players=2, games=GAMES, seed=2026, progress=False)
seat0_won = (fresh_games.winners == 0).astype(int)
display(figure_view(convergence_figure(seat0_won, title="Seat 0's share of wins as games come in",
                                       label="seat 0 wins")))
rows = convergence_rows(seat0_won, [10, 100, 1000, GAMES])
for row in rows:
    print(f"after {row.n:>4} games: seat 0 won {row.value:.3f} [{row.low:.3f}, {row.high:.3f}]")
widths = [row.high - row.low for row in rows]
assert widths == sorted(widths, reverse=True)      # the band narrows as the games come in
print(f"the final interval contains 1/2: {rows[-1].contains(0.5)}")
print(f"the stepper's estimate at the deal of seed 3 (move 0): {stepper.win_history[0].estimates[0]}")

# %% [markdown]
# After ten games the share can be far from the truth, and its interval is wide; the band narrows as the games
# come in. Does the final interval contain 1/2? If it lies wholly above 1/2, the games are evidence that seat 0,
# who draws first, has an edge. At the deal nobody has seen a card, so the stepper's first P(win) point estimates
# this same chance.

# %% [markdown]
# ## 5. The same game, every time
#
# A seed fixes the deal and every later shuffle; the bots are seeded too. Two steppers with the same seed play
# the same moves.

# %%
twin = cardlab.Stepper("garbage", players=2, seed=3)
for _ in range(4):
    twin.next_move()
print("same moves:", [m.text for m in twin.game.moves] == [m.text for m in stepper.game.moves])
print("same P(win) history:", twin.history_numbers() == stepper.history_numbers())

# %% [markdown]
# ## 6. Viewpoints
#
# Choose `seat 0` in the **viewpoint** menu and the table shows what seat 0 knows; `everything revealed` shows
# every card (a teacher's view). In Garbage nobody looks at a face-down card, so every seat knows the same. In
# Spite and Malice and in Shithead each player sees their own hand, and the probabilities differ from seat to
# seat: lesson `08_hidden_information` is about that.

# %% [markdown]
# ## 7. Predict, then reveal
#
# With `predict=True` the stepper hides its plots until you have guessed the current question: "what is the
# chance that seat 0 wins this game?" Move the slider (or type `0.3`, `30%` or `1/3`) and press **Reveal**: the
# plots appear, with a line comparing your guess with the estimate. At the end of the game every guess is scored.
# In class: let everyone guess at each move before one person presses Reveal.

# %%
guess_me = cardlab.Stepper("garbage", players=2, seed=3, predict=True)
display(guess_me)

# %% [markdown]
# The same from code, for a "student" who gives the seat with more spots face up a 70% chance, and 50% when the
# spots are level:

# %%
def face_up(game, seat):
    return sum(card is not None for card in game.observe(None).layouts[seat])


while not guess_me.game.is_over:
    lead = face_up(guess_me.game, 0) - face_up(guess_me.game, 1)
    record = guess_me.predictor.submit(0.5 if lead == 0 else (0.7 if lead > 0 else 0.3))
    if record.move % 10 == 0:
        print(f"move {record.move}: {guess_me.predictor.feedback}")
    guess_me.next_move()
calibration = guess_me.calibration()
print(f"seat {guess_me.game.winner} won after {guess_me.game.move_count} moves")
print(calibration)

# %% [markdown]
# **Reading the scores.** The **Brier score** is the mean of $(\text{guess} - \text{outcome})^2$, where the
# outcome is 1 if seat 0 won and 0 if not: 0 is perfect, and always guessing 1/2 scores 0.25. Compare it with the
# score of the stepper's own estimates on the same outcome. The **calibration table** groups the guesses: guesses
# of about 0.7 should come true about 70% of the time. All the guesses of one game share its single outcome, so
# one game's table starts a discussion, not a verdict; only several games begin to count.

# %%
display(figure_view(calibration.figure()))
assert calibration.resolved == len(calibration.records) > 0
outcome = float(guess_me.game.winner == 0)
assert abs(calibration.brier - np.mean([(r.guess - outcome) ** 2 for r in calibration.records])) < 1e-12

# %% [markdown]
# ## Misconceptions to discuss
#
# - *"An estimate of 0.62 means seat 0 wins 62% of the games from here."* Only if the model is right (greedy play,
#   every arrangement of the unseen cards equally likely), and up to the interval's width.
# - *"An exact probability is certain."* An exact 42/47 is a *probability*: the next card is still unknown.
# - *"My 70% guess was wrong because the other seat won."* One outcome cannot show that; many scored guesses can.

# %% [markdown]
# ## Where next
#
# | lesson | what it is about |
# |---|---|
# | `01_law_of_large_numbers` | estimates settle on the exact answer; intervals and how they shrink |
# | `02_garbage_play`, `03_garbage_chances` | Garbage: play it, then its probabilities |
# | `04_spite_and_malice_play`, `05_spite_and_malice_chances` | Spite and Malice: play it, then its probabilities |
# | `06_shithead_play`, `07_shithead_chances` | Shithead: play it, then its probabilities |
# | `08_hidden_information` | the same position, different (and correct) probabilities for different people |
# | `09_expected_value_and_markov_chains` | how many draws to complete a Garbage layout, exactly |
# | `10_strategy_tournament` | write your own bot and find out whether it is really better |
# | `11_deciding_under_uncertainty` | choosing a move by its chances |

# %% [markdown]
# ## Exercises
#
# Each exercise checks your answer. Type it in the box (a fraction such as 3/4, a decimal such as 0.75, or a
# percentage such as 75%) and press **Check**, or write it between the quotes in the answer cell and run that
# cell. The check computes the true answer from the game and says whether you are right, close, or not there yet.

# %% [markdown]
# **Exercise 1.** Deal Garbage for two players with seed 11 in a new stepper and press **Next move** five times.
# Who draws the next stock card, and what is the exact chance that they can use it? (The check looks at the
# chance.)

# %% [check]
exercise_1 = lesson("00").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
ex1 = cardlab.Stepper("garbage", players=2, seed=11)
for _ in range(5):
    ex1.next_move()
ex1_chance = prob.garbage_next_card_placeable(ex1.game)
print(f"seat {ex1.game.current_player} to move; next card usable with chance {ex1_chance} = {float(ex1_chance):.4f}")
ex1_unseen = ex1.game.hidden_cards()
assert ex1_chance == Fraction(sum(ex1.game.can_use(ex1.game.current_player, c) for c in ex1_unseen), len(ex1_unseen))
print(exercise_1.check(str(ex1_chance)))
assert exercise_1.check(str(ex1_chance)).is_right
other = 1 - ex1.game.current_player     # the slip: counting the other seat's spots
ex1_other = Fraction(sum(ex1.game.can_use(other, c) for c in ex1_unseen), len(ex1_unseen))
print(f"counting seat {other}'s spots ({ex1_other}):", exercise_1.check(str(ex1_other)))
assert ex1_other != ex1_chance and exercise_1.check(str(ex1_other)).status == "not yet"
answer_1 = str(ex1_chance)   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** At the very start of a two-player Garbage game (before anybody draws), what is the exact
# chance that seat 0's first card can be placed? Count it by hand: which cards are unseen, and which of them
# have a face-down spot?

# %% [check]
exercise_2 = lesson("00").exercise(2)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
fresh = cardlab.new_game("garbage", players=2, seed=0)
unseen = fresh.hidden_cards()
by_hand = [card for card in unseen if card.rank <= cardlab.Rank.JACK]   # A-10 and the Jacks
ex2_chance = prob.garbage_next_card_placeable(fresh)
print(f"by hand: {len(by_hand)} of {len(unseen)} unseen cards = {len(by_hand) / len(unseen):.4f}")
print(f"cardlab: {ex2_chance} = {float(ex2_chance):.4f}")
assert ex2_chance == Fraction(len(by_hand), len(unseen)) == Fraction(11, 13)
print(exercise_2.check(f"{len(by_hand)}/{len(unseen)}"))
forgot_the_jacks = sum(card.rank <= 10 for card in unseen)
print(f"without the Jacks ({forgot_the_jacks}/{len(unseen)}):", exercise_2.check(f"{forgot_the_jacks}/{len(unseen)}"))
assert exercise_2.check(f"{forgot_the_jacks}/{len(unseen)}").status == "not yet"
answer_2 = f"{len(by_hand)}/{len(unseen)}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3.** In `stepper` above (seed 3, after four moves), the P(win) estimates of the two seats have 95%
# intervals. Check that seat 1's estimate is exactly 1 minus seat 0's. Is one seat really ahead: which single
# interval answers that (not checked: discuss it)? The cell below redoes the estimate with four times as many
# play-outs: the new interval's width is what fraction of the old one?

# %%
more = prob.win_probability(stepper.game, None, rollouts=4 * stepper.rollouts, rng=np.random.default_rng(2024))
print(f"{4 * stepper.rollouts} play-outs: seat 0 {more[0]}, seat 1 {more[1]}")

# %% [check]
exercise_3 = lesson("00").exercise(3, rollouts=stepper.rollouts)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_3.check(answer_3)

# %% [solution]
now = stepper.win_history[-1].estimates
print(f"stepper ({now[0].n} play-outs): seat 0 {now[0]}, seat 1 {now[1]}")
print(f"seat 0 + seat 1 = {now[0].value + now[1].value:.6f}: every play-out has one winner, so the two estimates "
      "are complements from the same play-outs")
assert abs(now[0].value + now[1].value - 1) < 1e-12
print(f"seat 0's interval contains 1/2: {now[0].contains(0.5)}")
assert more[0].n == 4 * now[0].n
print(f"{more[0].n} play-outs: seat 0 {more[0]}; contains 1/2: {more[0].contains(0.5)}")
ratio = more[0].half_width / now[0].half_width
print(f"interval width for seat 0: {2 * now[0].half_width:.3f} -> {2 * more[0].half_width:.3f} (ratio {ratio:.2f})")
assert 0.35 < ratio < 0.7     # about 1/2: four times the play-outs, half the width
print("1/2:", exercise_3.check("1/2"))
print("1/4:", exercise_3.check("1/4"))
assert exercise_3.check("1/2").is_right and exercise_3.check("1/4").status == "not yet"
answer_3 = "1/2"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS

# %% [teacher]
# With two players the two estimates are mirror images, so comparing their intervals compares an estimate with
# itself; the question is whether **seat 0's interval contains 1/2**. If it does not, the play-outs are evidence
# (at the 5% level, under the model's assumptions) that seat 0 is ahead or behind. If it does, they cannot tell,
# which is not evidence that the seats are level. Four times the play-outs halve the width (the $1/\sqrt n$ law of
# lesson `01_law_of_large_numbers`), up to noise.
