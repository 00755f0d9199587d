# %% [markdown]
# # Start here: a tour of cardlab
#
# **Learning goals**
#
# - **the idea:** a chance can be *counted exactly* from the unseen cards, or *estimated* by playing many games;
#   an estimate settles as the games come in.
# - read the stepper, and score guesses.
#
# **Predict first.** Two players, ten face-down spots each; seat 0 draws first. Who is more likely to win, and by
# how much? Write your guess down.
#
# Run each cell with **Shift+Enter**, from the top. The notebooks are *seeded*: they print the same numbers on every
# machine.

# %% [teacher]
# **Learning goals:** deal a seeded game in the stepper (same seed, same game); step it and read the move log;
# read the two panels; tell an exact probability (a count of unseen cards) from an estimate (play-outs); watch an
# estimate settle; predict, then reveal, and score the guesses; play together as a class.
#
# **Lesson plan (50 minutes).** 5 min: predict. 10 min: sections 1–2. 8 min: section 3. 5 min: section 4.
# 4 min: sections 5–6. 5 min: section 7. 3 min: section 8. 10 min: exercises.
#
# Intervals are not taught here: every stepper is made with `intervals=False` (no band or error bar, no interval
# in its numbers, feedback or scores), and section 4's chart has no band; lesson 01 teaches the 95% interval.

# %% [markdown]
# ## 1. Deal a game
#
# The **stepper** deals a game and draws it. We play **Garbage** for two: each player has ten face-down cards, one
# per spot A (1) to 10. A card drawn whose spot is face down goes there, and the card it uncovers is played the
# same way. Jacks are wild. The first player with all ten spots face up wins (rules: lesson 02).

# %%
from fractions import Fraction

import numpy as np
from IPython.display import display

import cardlab
from cardlab.course import lesson
from cardlab.sim import prob
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view

# intervals=False: estimates alone (lesson 01 adds how far off they may be)
stepper = cardlab.Stepper("garbage", players=2, seed=3, intervals=False)
display(stepper)

# %% [markdown]
# What you see:
#
# - **the deal row**: game, players, seed, **New deal**;
# - **the play row**: **Step** (one card), **Next move**, **Back**, **Reset**, **Play to the end**;
# - **viewpoint**, and one menu per seat: the `greedy` bot, the `random` bot, or a `human` (you);
# - **the table**, the **move log** under it, and **two plots**.
#
# Click **Next move** a few times and watch the plots.

# %% [markdown]
# ## 2. Step the game from code
#
# Every button has a method of the same name, such as `next_move()`. The code steps its own stepper, `walk` (same
# seed, not displayed), so the one above stays where you left it.

# %%
walk = cardlab.Stepper("garbage", players=2, seed=3, intervals=False)
for _ in range(3):
    walk.next_move()
print(walk.game)
for line in walk.log_lines():
    print(line)

# %% [markdown]
# A move is one decision, such as *draw from the stock*, and all it sets off: one move can place several cards.

# %% [markdown]
# ## 3. Read the panels
#
# **P(win) by move** (top plot): each seat's chance of winning if everybody plays on like the greedy bot. Nobody
# knows the face-down cards, so the stepper deals the unseen cards again at random many times, plays each of these
# *play-outs* to the end, and counts wins: an **estimate**. It assumes *every arrangement of the unseen cards is
# equally likely* (true in Garbage, where nobody looks at a face-down card). The numbers:

# %%
print(f"play-outs per point: {walk.rollouts}")
for point in walk.win_history:
    print(f"move {point.move}: seat 0 P(win) {point.estimates[0].value:.3f}, seat 1 {point.estimates[1].value:.3f}")

# %% [markdown]
# **The game's own panel** (bottom plot), for Garbage:
#
# - *next stock card can be used by seat s*: an **exact** fraction, (unseen cards seat s can use) / (all unseen
#   cards), as the next stock card is equally likely to be any card nobody has seen;
# - *seat s wins within k turns*, k = 1 … 5: **estimates**.

# %%
print(walk.panel_numbers())

# %% [markdown]
# ### Check the exact number by counting
#
# The unseen cards are the face-down layout cards plus the stock. A player can use a Jack while a spot is face
# down, or a number whose spot is face down or shows a Jack. *Whose* spots? Seat s: the player to move (in the
# middle of a chain, the *next* player). Here seat s can only draw, so it draws that card.

# %%
game = walk.game
seat = prob.garbage_next_drawer(game)
unseen = game.hidden_cards()
usable = [card for card in unseen if game.can_use(seat, card)]
legal = [move.text for move in game.legal_moves()]
print(f"seat {game.current_player} to move, seat s = {seat}; legal moves: {', '.join(legal)}")
assert seat == game.current_player and legal == ["draw stock"]      # seat s draws the next stock card
print(f"{len(unseen)} unseen cards, {len(usable)} of them usable by seat {seat}")
print("by counting:      ", f"{len(usable)}/{len(unseen)}")
print("the panel's exact:", prob.garbage_next_card_placeable(game))
assert Fraction(len(usable), len(unseen)) == prob.garbage_next_card_placeable(game)

# %% [markdown]
# ## 4. Many games: watching an estimate settle
#
# Back to the prediction at the top. Play many whole games from fresh deals with the greedy bot, and follow seat 0's
# share of wins as the games come in.

# %%
GAMES = 4000
fresh_games = cardlab.simulate("garbage", players=2, games=GAMES, seed=2026, progress=False)
seat0_won = (fresh_games.winners == 0).astype(int)
display(figure_view(convergence_figure(seat0_won, title="Seat 0's share of wins as games come in",
                                       label="seat 0 wins", intervals=False)))
rows = convergence_rows(seat0_won, [10, 100, 1000, GAMES])
for row in rows:
    print(f"after {row.n:>4} games: seat 0 won {row.value:.3f}")
away = [abs(row.value - rows[-1].value) for row in rows[:-1]]     # distance from the share after all the games
assert away[2] < min(away[:2])                     # after 1000 games it has settled closer than after 10 or 100
print(f"after {GAMES} games seat 0 won {int(seat0_won.sum())} ({seat0_won.mean():.3f}), seat 1 "
      f"{int((fresh_games.winners == 1).sum())}")

# %% [markdown]
# After ten games the share jumps about; as the games come in it settles. How far from the true chance can the last
# share be? Lesson 01 teaches that; lesson 03 measures seat 0's edge.

# %% [markdown]
# ## 5. The same game, every time
#
# A seed fixes the deal, every later shuffle and the bots. Two steppers with the same seed play the same moves.

# %%
twin = cardlab.Stepper("garbage", players=2, seed=3, intervals=False)
for _ in range(3):
    twin.next_move()
same_moves = [m.text for m in twin.game.moves] == [m.text for m in walk.game.moves]
print("same moves:", same_moves)
print("same P(win) history:", twin.history_numbers() == walk.history_numbers())
assert same_moves

# %% [markdown]
# ## 6. Viewpoints
#
# The **viewpoint** menu: `seat 0` shows what seat 0 knows; `everything revealed` shows every card. In Garbage every
# seat knows the same; in Spite and Malice and Shithead each player sees their own hand.

# %% [markdown]
# ## 7. Predict, then reveal
#
# With `predict=True` the stepper hides its plots until you guess "what is the chance that seat 0 wins?" Move the
# slider (or type `0.3`, `30%` or `1/3`) and press **Reveal**. At the end every guess is scored.

# %%
guess_me = cardlab.Stepper("garbage", players=2, seed=3, predict=True, intervals=False)
display(guess_me)

# %% [markdown]
# Below, *code* guesses in a stepper of its own: 70% for the seat with more spots face up, 50% when level.

# %%
def face_up(game, seat):
    return sum(card is not None for card in game.observe(None).layouts[seat])


code_guesser = cardlab.Stepper("garbage", players=2, seed=3, predict=True, intervals=False)     # not displayed
while not code_guesser.game.is_over:
    lead = face_up(code_guesser.game, 0) - face_up(code_guesser.game, 1)
    record = code_guesser.predictor.submit(0.5 if lead == 0 else (0.7 if lead > 0 else 0.3))
    if record.move % 5 == 0:
        print(f"move {record.move}: the code guessed {record.guess:.2f}, the stepper's estimate {record.answer:.3f}")
    code_guesser.next_move()
calibration = code_guesser.calibration()
print(f"seat {code_guesser.game.winner} won after {code_guesser.game.move_count} moves")
print(f"{len(calibration.records)} guesses; Brier score {calibration.brier:.3f}")
assert guess_me.game.move_count == 0 and not guess_me.predictor.records      # yours still waits at the deal

# %% [markdown]
# **Reading the scores.** The **Brier score** is the mean of $(\text{guess} - \text{outcome})^2$, the outcome being
# 1 if seat 0 won, else 0: 0 is perfect; always guessing 1/2 scores 0.25. The **calibration** chart groups the
# guesses: guesses of about 0.7 should come true about 70% of the time. One game has one outcome, so its chart
# starts a discussion, not a verdict.

# %%
code_chart = calibration.figure()
code_chart.update_layout(title="The code's guesses, one game (seed 3)")
display(figure_view(code_chart))
assert calibration.resolved == len(calibration.records) > 0
outcome = float(code_guesser.game.winner == 0)
assert abs(calibration.brier - np.mean([(r.guess - outcome) ** 2 for r in calibration.records])) < 1e-12

# %% [markdown]
# ## 8. Play together as a class
#
# The whole class can guess at once, each on a phone: the teacher starts the class server and runs
# `play_as_a_class()` (defined below) on the projector.

# %% [teacher]
# **Starting the class server.** Install the class extra (`pip install "cardlab[class]"`) and run `cardlab class`
# in a terminal, in the notebook's folder. It prints the students' page, a join code and a QR code; then run
# `play_as_a_class()` in the notebook on the projector (it needs the server).

# %%
def play_as_a_class(seed=3):
    """A stepper connected to the class server started in this folder with `cardlab class`."""
    session = cardlab.ClassSession.local()
    class_stepper = cardlab.Stepper("garbage", players=2, seed=seed, session=session, intervals=False)
    display(class_stepper)
    return class_stepper

# %% [markdown]
# The stepper gets a row of its own: choose a question, press **Ask the class**, watch the guesses come in as a
# histogram, then press **Reveal**: every phone shows the answer. A chart compares the class's mean guess with each
# answer. The phones score a guess against the revealed chance $p$, not the outcome: its Brier score averaged over
# the outcome, $(\text{guess} - p)^2 + p(1-p)$, beside the best possible, $p(1-p)$: a perfect guess scores $p(1-p)$,
# not 0.

# %% [teacher]
# **Misconceptions to discuss**
#
# - *"An estimate of 0.62 means seat 0 wins 62% of the games from here."* Only if the model is right (greedy play,
#   every arrangement of the unseen cards equally likely), and up to the play-outs' own noise (lesson 01).
# - *"An exact probability is certain."* An exact 42/47 is a *probability*: the next card is still unknown.
# - *"My 70% guess was wrong because the other seat won."* One outcome cannot show that; many scored guesses can.

# %% [teacher]
# **Where next**
#
# | lesson | what it is about |
# |---|---|
# | `01_law_of_large_numbers` | estimates settle on the exact answer; intervals and how they shrink |
# | `02_garbage_play`, `03_garbage_chances` | Garbage: play it, then its probabilities |
# | `04_spite_and_malice_play`, `05_spite_and_malice_chances` | Spite and Malice: play it, then its probabilities |
# | `06_shithead_play`, `07_shithead_counting` | Shithead: play it; count a hidden card's chance, test on real deals |
# | `08_shithead_models_and_real_deals` | what play tells; a model of the players, decided by real deals |
# | `09_shithead_pickups_and_first_player` | must you pick up, and does starting help? |
# | `10_hidden_information`, `11_bayes_rule` | the same card, different (and correct) chances; what a move tells |
# | `12_expected_value`, `13_markov_chains` | how many draws a Garbage layout takes, exactly; its whole story |
# | `14_strategy_tournament`, `15_planning_a_tournament` | write your own bot and find out whether it is really better |
# | `16_deciding_under_uncertainty`, `17_game_review` | choosing a move by its chances; learn from your mistakes |

# %% [markdown]
# ## Exercises
#
# Type your answer in the box (3/4, 0.75 or 75%) and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** Deal Garbage for two players with seed 11 in a new stepper (as in section 1) and press **Next move**
# five times. What is the exact chance that the next player to draw can use the next stock card?

# %% [check]
exercise_1 = lesson("00").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
ex1 = cardlab.Stepper("garbage", players=2, seed=11, intervals=False)
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
# **Exercise 2.** At the start of a two-player Garbage game, what is the exact chance that seat 0's first card can
# be placed? Count by hand.

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
# **Exercise 3.** Play 1,000 games as section 4 does, with seed 7:
# `cardlab.simulate("garbage", players=2, games=1000, seed=7, progress=False)`. In what share of them did seat 0
# win?

# %% [check]
exercise_3 = lesson("00").exercise(3)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "0.75" or "75%"
exercise_3.check(answer_3)

# %% [solution]
seven = cardlab.simulate("garbage", players=2, games=1000, seed=7, progress=False)
share_7 = float(np.mean(seven.winners == 0))
print(f"seed 7: seat 0 won {share_7:.3f} of 1000 games; section 4: {seat0_won.mean():.3f} of {GAMES}")
print(exercise_3.check(f"{share_7:.3f}"))
assert exercise_3.check(f"{share_7:.3f}").is_right and exercise_3.check(f"{share_7:.1%}").is_right
seat_1_share = float(np.mean(seven.winners == 1))       # the slip: seat 1's share
print(f"seat 1's share ({seat_1_share:.3f}):", exercise_3.check(f"{seat_1_share:.3f}"))
assert exercise_3.check(f"{seat_1_share:.3f}").status != "right"
answer_3 = f"{share_7:.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS

# %% [teacher]
# Exercise 3: a second run of 1,000 games gives another share, near section 4's but not equal to it: an estimate
# from games is itself random. Lesson 01 says how far apart two such shares can fall by chance.
