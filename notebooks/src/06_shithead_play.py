# %% [markdown]
# # Shithead (Palace), part 1: playing the game
#
# **The idea:** every move in Shithead turns on one question: *does a card fit the pile?* Who can play must; who
# cannot picks up the whole pile. For a card nobody has seen, the answer is a chance.
#
# **Learning goals**
#
# - know the rules of Shithead and three house rules;
# - play the special cards on a stacked deck, and read the stepper's panels in mid-game and at a blind play.
#
# **Predict first.** At the end of a game, a player turns a face-down card over *blind*: nobody has seen it. Does
# it fit the pile more often or less often than one time in two? Write your guess down; section 3 counts it.
#
# This lesson uses the stepper of lesson `00_start_here` and the intervals of lesson `01_law_of_large_numbers`.

# %% [teacher]
# **Learning goals:** the rules of Shithead (Palace) and its house rules; the special cards (2, 10, four in a row)
# and picking up, replayed on a stacked deck; the order of the sources (hand, face-up, face-down blind); the
# stepper's panels, which say which chances are counted and which are estimated by play-outs.
#
# **Lesson plan (50 minutes).** 5 min: predict (above). 10 min: the rules (section 1). 10 min: the special cards on
# a stacked deck (section 2). 10 min: the panels in mid-game and at the first blind play, and how often a blind
# play fits (section 3). 15 min: exercises (1 and 2, 5 min: the fit rule, counted by hand; 3, 10 min: a loop over
# one game's moves).

# %% [markdown]
# ## 1. The rules
#
# - **Deal.** Each of 2 players gets three face-down cards (nobody may look at them) and six hand cards; the rest
#   is the draw pile. **Set-up:** each puts three hand cards face up on the face-down ones; then the draw pile's top
#   card starts the *pile*.
# - **A play.** One card, or several of one rank, equal to or higher than the pile's top (3 < … < K < A; suits never
#   matter). Who can play must; who cannot picks up the pile. Then draw back up to three cards.
# - **Special cards.** A **2** goes on anything, and anything may follow it. A **10** goes on anything and burns the
#   pile; the same player plays again. **Four in a row** of one rank also clear the pile.
# - **Sources.** First the hand, then the face-up cards, then a face-down card **blind**: turned over, played if it
#   fits, else picked up with the pile. The first player out of all cards wins.
#
# | house rule (option, default `False`) | what it does |
# |---|---|
# | `seven_lower` | after a 7 the next player plays a 7 or lower, a 2 or a 10 |
# | `invisible_three` | a 3 goes on anything and takes the rank of the card under it |
# | `eight_skips` | an 8 makes the next player miss a turn |

# %% [teacher]
# **Sources and defaults.** The rules follow the docstring of `cardlab/games/shithead/rules.py`, which cites its sources
# (pagat for `first="lowest3"`, `four_kind_plays_again=True` and `play_to_last`). A 2 as starting card resets; a 10 as
# starting card burns at once and the first player plays anything. Several holders of the lowest card under `"lowest3"`:
# the lowest seat number starts; nobody holding a low card: seat 0. Cards picked up must be played from the hand before
# any table card, and one play never mixes sources. A stacked deck, `deck=[...]`, lists the top of the deck first: seat
# 0's three face-down cards, then seat 1's, then seat 0's six hand cards, seat 1's, then the starting card. Two packs
# for 3–5 players. Other options: `first` (`"seat0"`; `"lowest3"`: the holder of the lowest card in hand, 2s and 10s not
# counting), `four_kind_plays_again` (four in a row: the same player plays again), `play_to_last` (play on to rank
# everyone; the last is the shithead), `max_turns` (4000: then a draw). The stepper's `hot_seat=False` is for one screen
# watched by the whole class; with two players at one device leave it out, and the stepper hides each hand between
# turns.

# %%
import numpy as np
from IPython.display import display

import cardlab
from cardlab.course import lesson
from cardlab.policies import choose, make_policy


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
# A stacked deck (not shuffled) shows the special cards quickly. Seat 0 holds 3♠ 4♠ 7♥ 10♣ J♦ A♠, seat 1 holds 2♥
# 6♣ 7♦ 8♣ Q♥ K♠; the starting card is 7♠. Both seats are `human`. The stepper shows the deal; the cells below play
# on an unshown copy and print what the table saw: replay them in the stepper.

# %%
DECK = ["5S", "KH", "9D", "QC", "3D", "8H",                  # face down: seat 0, then seat 1
        "3S", "4S", "7H", "10C", "JD", "AS",                 # seat 0's hand
        "2H", "6C", "7D", "8C", "QH", "KS",                  # seat 1's hand
        "7S",                                                # the starting card
        "7C", "KD", "10D", "AD", "5H", "4D", "9S", "6D", "3H", "10H"]
palace = cardlab.Stepper("shithead", players=2, seed=1, deck=DECK, policies=["human", "human"],
                         hot_seat=False)
table = cardlab.Stepper("shithead", players=2, seed=1, deck=DECK, policies=["human", "human"],
                        hot_seat=False)   # the copy the cells below play on
display(palace)

# %% [markdown]
# **Set-up.** Each player keeps strong cards for the end of the game, when there is no hand left to help.

# %%
SETUP = ["face up A♠", "face up J♦", "face up 10♣", "face up K♠", "face up Q♥", "face up 8♣"]
for move in SETUP:
    play_and_show(table, move)

# %% [markdown]
# **Four sevens in a row clear the pile**, although two players played them.

# %%
for move in ["play 7", "play 7", "play 7"]:
    play_and_show(table, move)

# %% [markdown]
# **A 10 burns the pile**, and the same player plays again. **A 2 resets**: anything may follow.

# %%
for move in ["play 6", "play 10", "play 3", "play 2", "play 4 x2"]:
    play_and_show(table, move)

# %% [markdown]
# **Picking up.** On an Ace only a 2, a 10 or an Ace fits. Seat 0's hand holds none, so it must pick up. Everyone
# saw those cards: the table now *knows* them in seat 0's hand.

# %%
play_and_show(table, "play A")
print("seat 0 may only:", [m.text for m in table.game.legal_moves()])
play_and_show(table, "pick up")
print("cards the table knows seat 0 holds:", [str(c) for c in table.game.observe(None).known[0]])
assert palace.game.move_count == 0     # the stepper shown is still at the deal

# %% [markdown]
# ## 3. The panels and blind plays, in a bot game
#
# Greedy bots play a shuffled game (seed 5). The stepper shows it after 10 moves, in mid-game.

# %%
bots = cardlab.Stepper("shithead", players=2, seed=5)
while bots.game.move_count < 10:
    bots.next_move()
mid_draw = bots.game.observe(None).draw_size
print(f"top of the pile: {bots.game.top}; seat {bots.game.current_player} to play; draw pile: {mid_draw} cards")
display(bots)

# %% [markdown]
# The stepper's panel asks the game's questions at every move. **Predict first:** which of them can be counted,
# and which need a simulation? Each line of the panel says *exact* (computed, with no simulation), or gives an
# estimate with its interval and its number of play-outs.

# %%
mid_game = bots.panel_numbers()
print(mid_game)

# %% [markdown]
# Here the chances about cards lying now are computed: a face-down card fits, the draw pile's top fits, the mover
# picks up in this turn. A pick-up on a *later* turn depends on the moves before it: the stepper estimates it by
# dealing the unseen cards again and playing on.
#
# *Exact* means no simulation, not no assumption. Right after the set-up it is the plain count of lesson 07. After
# play it also rests on a model of the players (lesson 08), so here it differs from that count.

# %%
def panel_lines(panel):
    """The panel's lines as {question: answer}."""
    return dict(line.split(": ", 1) for line in panel.splitlines())


for question, answer in panel_lines(mid_game).items():       # the text above, checked
    assert answer.endswith("(exact)") == ("next turn" not in question), (question, answer)
    assert ("play-outs" in answer) == ("next turn" in question), (question, answer)
table_unseen = bots.game.unseen_cards(None)                   # lesson 07's plain count differs here
plain_count = sum(bots.game.fits(c) for c in table_unseen) / len(table_unseen)
assert abs(float(panel_lines(mid_game)["a face-down card fits the pile"].split()[-2]) - plain_count) > 0.01

# %% [markdown]
# **The first blind play.** The face-down cards come last. Play on until a player has no hand and no face-up card
# left and must turn a face-down card over. The next cell does it in a stepper of its own, with the same game: the
# stepper above stays at move 10 for you.

# %%
blind = cardlab.Stepper("shithead", players=2, seed=5)   # the same game; not shown
while not any("face-down" in move.text for move in blind.game.legal_moves()):
    blind.next_move()
for event in blind.game.events[-2:]:
    print(event)
print(f"seat {blind.game.current_player} may only:", [move.text for move in blind.game.legal_moves()])
at_blind = blind.panel_numbers()
blind_draw = blind.game.observe(None).draw_size
print(at_blind)
print(f"draw pile: {blind_draw} cards; seat 0's face-up cards: {[str(c) for c in blind.game.state.face_up[0]]}")

# %% [markdown]
# An empty draw pile has no top card: *not applicable* is not a chance of 0. Seat 0 still has a 2 face up, and a
# 2 goes on anything, so it cannot pick up on its next turn: the play-outs find 0, as they must.

# %%
for panel, draw_size in ((mid_game, mid_draw), (at_blind, blind_draw)):     # the text above, checked
    draw_line = panel_lines(panel)["top of the draw pile fits"]
    assert draw_line.startswith("not applicable") == (draw_size == 0), draw_line
assert blind_draw == 0 < mid_draw
assert not blind.game.state.hands[0] and cardlab.Rank.TWO in [c.rank for c in blind.game.state.face_up[0]]
assert bots.game.move_count == 10                     # the stepper shown above is where the text left it
assert panel_lines(at_blind)["seat 0 picks up on its next turn"].startswith("0.000 ")

# %% [markdown]
# **How often does a blind play fit?** Check your prediction: 2,000 games of greedy bots, every blind play counted.

# %%
run = cardlab.simulate("shithead", players=2, games=2000, seed=5, progress=False)
blind, fit = int(run.extras["blind_plays"].sum()), int(run.extras["blind_fits"].sum())
print(f"blind plays in 2000 games: {blind}; they fit: {fit} ({fit / blind:.0%})")

# %% [markdown]
# In these games a blind play fits about three times in four: more often than one time in two.

# %%
assert 0.7 < fit / blind < 0.8                           # the text above, checked

# %% [markdown]
# ## Exercises
#
# Type your answer in the box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** With the plain rules, how many of a pack's 52 cards may be played on a 7?

# %% [check]
exercise_1 = lesson("06").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "12"
exercise_1.check(answer_1)

# %% [solution]
on_seven = [cardlab.Rank.SEVEN, cardlab.Rank.EIGHT, cardlab.Rank.NINE, cardlab.Rank.TEN, cardlab.Rank.JACK,
            cardlab.Rank.QUEEN, cardlab.Rank.KING, cardlab.Rank.ACE, cardlab.Rank.TWO]   # 7 or higher, and the 2
print(f"{len(on_seven)} ranks, 4 cards each: {4 * len(on_seven)} cards")
print(exercise_1.check(str(4 * len(on_seven))))
assert exercise_1.check(str(4 * len(on_seven))).is_right
forgot_2 = str(4 * (len(on_seven) - 1))
print(f"forgetting the 2s ({forgot_2}):", exercise_1.check(forgot_2))
assert exercise_1.check(forgot_2).status == "not yet"
answer_1 = str(4 * len(on_seven))   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** With the house rule `invisible_three=True`, how many of a pack's 52 cards may be played on a
# King?

# %% [check]
exercise_2 = lesson("06").exercise(2)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "12"
exercise_2.check(answer_2)

# %% [solution]
on_king = [cardlab.Rank.KING, cardlab.Rank.ACE, cardlab.Rank.TWO, cardlab.Rank.TEN, cardlab.Rank.THREE]
print(f"K, A, and the 2, 10 and 3 that go on anything: {4 * len(on_king)} cards")
print(exercise_2.check(str(4 * len(on_king))))
assert exercise_2.check(str(4 * len(on_king))).is_right
plain_rules = str(4 * (len(on_king) - 1))
print(f"forgetting the invisible 3 ({plain_rules}):", exercise_2.check(plain_rules))
assert exercise_2.check(plain_rules).status == "not yet"
answer_2 = str(4 * len(on_king))   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3.** Play the game of section 3 (seed 5, greedy bots) on to its end. How many times in the whole
# game is the pile picked up? (A stepper's game is `stepper.game`; its events are `game.events`.)

# %% [check]
exercise_3 = lesson("06").exercise(3)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "12"
exercise_3.check(answer_3)

# %% [solution]
whole = cardlab.new_game("shithead", players=2, seed=5)
bot = make_policy("greedy", "shithead", np.random.default_rng(5))
while not whole.is_over:
    whole.play(choose(bot, whole))
picked = [str(e) for e in whole.events if "picks up" in str(e)]
for event in picked:
    print(event)
print(exercise_3.check(str(len(picked))))
assert exercise_3.check(str(len(picked))).is_right
cannot_play = str(sum("cannot play" in event for event in picked))
print(f"only the players who could not play ({cannot_play}):", exercise_3.check(cannot_play))
assert exercise_3.check(cannot_play).status == "not yet"
answer_3 = str(len(picked))   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS
