# %% [markdown]
# # Shithead (Palace), part 1: the game, house rules, and first chances
#
# **The one idea:** cards nobody has seen are *exchangeable*: a face-down card and the top of the draw pile have
# the same chance, exactly. Counting that chance as "fitting unseen cards / unseen cards" needs one more assumption.
#
# **Learning goals**
#
# - know the rules of Shithead and three house rules, and read the stepper's panels;
# - count a chance for a card nobody has seen, and test the count on real deals.
#
# **Lesson plan (50 minutes).** 5 min: predict. 10 min: rules. 10 min: the stepper. 12 min: counting. 5 min:
# house rules. 8 min: exercises.
#
# **Predict first.** The deck is shuffled and dealt. What is the chance that the top card of the draw pile is a 2
# or a 10? Write it down; section 4 counts it.

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
from fractions import Fraction
from statistics import NormalDist

import numpy as np
from IPython.display import display

import cardlab
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view


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
# ## 3. Blind plays and the panels, in a bot game
#
# The face-down cards come last. Here greedy bots play a shuffled game (seed 5) until the first blind play; the
# stepper shows that position.

# %%
bots = cardlab.Stepper("shithead", players=2, seed=5)
while bots.game.state.blind_plays == 0:
    bots.next_move()
for event in bots.game.events[-4:]:
    print(event)
display(bots)

# %% [markdown]
# The stepper's panel asks the game's questions at every move. **Predict first:** which of them can be counted
# exactly, and which need a simulation? Each line of the panel says *exact*, or gives an estimate with its interval
# and its number of play-outs.

# %%
panel = bots.panel_numbers()
print(panel)
empty_draw = bots.game.observe(None).draw_size == 0
print(f"draw pile empty: {empty_draw}")
assert "(exact)" in panel and "play-outs" in panel
assert empty_draw == ("not applicable" in panel)

# %% [markdown]
# An empty draw pile has no top card: *not applicable* is not a chance of 0. A pick-up on a *later* turn depends on
# the future: the stepper estimates it by dealing the unseen cards again and playing on.

# %% [markdown]
# ## 4. Chances by counting, tested on real deals
#
# ### At the deal
#
# A fair shuffle makes every order of the 52 cards equally likely, so the top of the draw pile is equally likely
# to be any of the 52 cards. Count the 2s and 10s, and compare with the prediction you wrote down.

# %%
pack = cardlab.new_game("shithead", players=2, seed=0).unseen_cards(None)
special = [c for c in pack if c.rank in (cardlab.Rank.TWO, cardlab.Rank.TEN)]
exact_special = Fraction(len(special), len(pack))
print(f"{len(special)} of {len(pack)} cards are 2s or 10s: {exact_special} = {float(exact_special):.4f}")

# %% [markdown]
# A count rests on the assumption that the shuffle is fair. Real deals test it: deal 2,000 seeded games and look
# at the top of the draw pile each time. **Predict first:** after 20 deals, after 200, after 2,000, how far from
# the count will the share of 2s and 10s be?

# %%
DEALS = 2000
tops = [cardlab.new_game("shithead", players=2, seed=seed).state.draw[-1] for seed in range(DEALS)]
is_special = np.array([c.rank in (cardlab.Rank.TWO, cardlab.Rank.TEN) for c in tops], dtype=float)
fig = convergence_figure(is_special, truth=float(exact_special), title="Top of the draw pile: a 2 or a 10?",
                         label="share of deals", x_title="deals")
display(figure_view(fig))
for row in convergence_rows(is_special, [20, 200, DEALS]):
    print(f"after {row}; contains the count: {row.contains(float(exact_special))}")
se = np.sqrt(float(exact_special) * (1 - float(exact_special)) / DEALS)
print(f"gap after {DEALS} deals: {(is_special.mean() - float(exact_special)) / se:+.2f} standard errors")
assert abs(is_special.mean() - float(exact_special)) < 4 * se

# %% [markdown]
# The running share wanders early and settles near the count; its 95% band narrows like $1/\sqrt{n}$ (lesson 01).
#
# ### After the set-up: the top of the draw pile, and a face-down card
#
# Now a shuffled deal (seed 14) after greedy set-ups. Nobody has seen a face-down card, not even its owner, nor the
# draw pile. The shuffle placed them alike and nothing since has told them apart, so a face-down card and the draw
# pile's top have **exactly the same chance** to fit: they are **exchangeable**, with no assumption.
#
# Their common *value* is another matter. The count
#
# $$\frac{\#\{\text{unseen cards that fit the pile}\}}{\#\{\text{unseen cards}\}}$$
#
# **assumes** every unseen card is equally likely there, as if the set-up told nothing about the hands. Greedy
# players put strong cards face up, so it is an approximation; section 4's last cell measures how good.
#
# **Predict first:** is the chance the same for the table, for seat 0 and for seat 1?

# %%
def greedy_setup(seed, **house_rules):
    """A shuffled two-player deal after greedy bots have made the set-up."""
    deal = cardlab.new_game("shithead", players=2, seed=seed, **house_rules)
    bot = make_policy("greedy", "shithead", np.random.default_rng(seed))
    while deal.state.phase == "setup":
        deal.play(choose(bot, deal))
    return deal


after_setup = greedy_setup(14)
print(f"top of the pile: {after_setup.top}; seat {after_setup.current_player} to move")
counts = {}
for viewpoint in (None, 0, 1):
    who = "table" if viewpoint is None else f"seat {viewpoint}"
    unseen = after_setup.unseen_cards(viewpoint)
    fit = sum(after_setup.fits(c) for c in unseen)
    counts[who] = Fraction(fit, len(unseen))
    top, blind = prob.shithead_draw_top_fits(after_setup, viewpoint), prob.shithead_blind_fits(after_setup, viewpoint)
    print(f"{who:>6}: {fit}/{len(unseen)} unseen cards fit = {float(counts[who]):.4f}; "
          f"stepper's exact value: draw top {float(top):.4f}, face-down card {float(blind):.4f}")
    assert counts[who] == top == blind
assert len(set(counts.values())) == 3                    # three viewers, three different answers
assert [len(after_setup.unseen_cards(v)) for v in (None, 0, 1)] == [45, 42, 42]   # as the text below says

# %% [markdown]
# The stepper's values are the same counts (the cell checks it). Each viewer sees different cards: the table cannot
# see 45, each seat a different 42, and a different share of them fits: three counts, one per viewer's knowledge.
#
# **Real deals decide.** Deal 10,000 games, let greedy make the set-up, and look at what the draw pile's top and
# seat 0's first face-down card really were. **Predict first:** do they fit equally often? As often as the count
# says?

# %%
REAL = 10_000
count, top_fits, down_fits = np.empty(REAL), np.empty(REAL), np.empty(REAL)
for seed in range(REAL):
    deal = greedy_setup(seed)
    unseen = deal.unseen_cards(None)
    count[seed] = sum(deal.fits(c) for c in unseen) / len(unseen)
    top_fits[seed] = deal.fits(deal.state.draw[-1])
    down_fits[seed] = deal.fits(deal.state.face_down[0][0])


def mean_interval(x):
    half = 1.96 * x.std(ddof=1) / np.sqrt(x.size)
    return f"{x.mean():+.3f} [{x.mean() - half:+.3f}, {x.mean() + half:+.3f}]"


print(f"{REAL} greedy set-ups: the table's count, on average {count.mean():.3f}")
print(f"really fits: draw pile's top {top_fits.mean():.3f}, seat 0's face-down card {down_fits.mean():.3f}")
print(f"top minus face-down, deal by deal: {mean_interval(top_fits - down_fits)}")
print(f"real minus count: draw top {mean_interval(top_fits - count)}, face-down {mean_interval(down_fits - count)}")
gap = top_fits - down_fits
assert abs(gap.mean()) < 1.96 * gap.std(ddof=1) / np.sqrt(REAL) * 1.5      # exchangeable: no visible gap
for real in (top_fits, down_fits):
    assert (real - count).mean() - 1.96 * (real - count).std(ddof=1) / np.sqrt(REAL) > 0.015   # the count is low

# %% [markdown]
# The two hidden cards fit equally often (exchangeability, exact), but more often than the count says, by about
# 3 points: the greedy set-up kept weaker cards in the hands, so the unseen cards are stronger than a random share.
# The count is a good first answer, not an exact one; lesson 08 shows how later play changes the chances.

# %% [teacher]
# **Why a shuffled deal here.** The stacked deck of section 2 is printed in the code, so for the class its cards are
# not unseen: after that set-up the top of the draw pile is 7♣ (seat 0 draws and plays it), which fits for certain,
# while the table's count says 29/45. Counting "every unseen card equally likely" is right only where the cards
# really were shuffled, so sections 4 and exercise 2 use a seeded shuffled deal (seed 14) with a greedy set-up;
# **House rules:** four intervals read together at 98.75% each (Bonferroni, family level 95%). One `seven_lower`
# deal of seed 31 loops until `max_turns` (1,321 pick-ups): kept in, that one game moves the mean change by about
# +0.65 and the interval spans 0; the cell sets aside, under every set of rules, the deals where a game never
# ended, and says how many.

# %% [markdown]
# ## 5. House rules and pick-ups
#
# **Predict first:** which house rules change how often players pick up the pile, and in which direction? Does the
# invisible 3 lower it more than `seven_lower`?
#
# The cell plays the **same** 2,000 deals under each set of rules (greedy players) and measures each change deal by
# deal. It reads four intervals at once (three rules against the plain rules, the invisible 3 against `seven_lower`),
# each at 98.75%, so all four cover their true values together in at least 95% of runs (**Bonferroni**).

# %%
HOUSE_GAMES = 2000
INTERVALS = 4
z = NormalDist().inv_cdf(1 - 0.05 / INTERVALS / 2)


def paired_interval(change):
    """The mean change per deal, with its interval at the 1 - 5%/INTERVALS level."""
    half = z * change.std(ddof=1) / np.sqrt(change.size)
    return change.mean(), change.mean() - half, change.mean() + half


def pickups(**house_rules):
    """Pick-ups per game, and which games never ended (a draw at the safety rule `max_turns`)."""
    run = cardlab.simulate("shithead", players=2, games=HOUSE_GAMES, seed=31, progress=False, **house_rules)
    return run.extras["pickups"], run.winners < 0


plain, unfinished = pickups()
house = {}
for rule in ("seven_lower", "invisible_three", "eight_skips"):
    house[rule], drawn = pickups(**{rule: True})
    unfinished |= drawn
kept = ~unfinished                                       # deals played to the end under every set of rules
print(f"deals set aside because a game never ended (a draw at max_turns): {unfinished.sum()} of {HOUSE_GAMES}")
print(f"each interval at the {1 - 0.05 / INTERVALS:.2%} level (z = {z:.2f}), over {kept.sum()} deals")
print(f"{'rules':>16}  pick-ups per game  change per game [interval]")
print(f"{'plain':>16}  {plain[kept].mean():17.2f}")
changes = {}
for rule in house:
    changes[rule] = paired_interval(house[rule][kept] - plain[kept])
    mean, low, high = changes[rule]
    print(f"{rule:>16}  {house[rule][kept].mean():17.2f}  {mean:+.2f} [{low:+.2f}, {high:+.2f}]")
mean, low, high = paired_interval(house["invisible_three"][kept] - house["seven_lower"][kept])
print(f"invisible_three minus seven_lower, deal by deal: {mean:+.2f} [{low:+.2f}, {high:+.2f}]")
assert changes["seven_lower"][2] < 0 and changes["invisible_three"][2] < 0 and high < 0   # what the text says
assert changes["eight_skips"][1] < 0 < changes["eight_skips"][2]

# %% [markdown]
# With greedy players, `seven_lower` and the invisible 3 lower the pick-ups, and the invisible 3 more than
# `seven_lower` (the cell checks that these three intervals lie below 0). The interval of `eight_skips` contains 0:
# these deals cannot tell its effect from none. A game that never ends has no pick-up count to compare, so its deal
# is set aside under every set of rules, keeping the pairs.

# %% [teacher]
# **Misconceptions to discuss.** *"The face-down card and the top of the draw pile have different chances."* Nobody
# has seen either and nothing has told them apart: their chances are exactly equal (section 4 measures it).
# *"The count is exact."* Only if every unseen card is equally likely; after greedy set-ups the real rate is about 3
# points higher. *"The table is wrong because seat 0 knows better."* Each count uses what its viewer has seen; each
# rests on the same assumption about the set-up.

# %% [markdown]
# ## Exercises
#
# Type your answer in the box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** In a fresh two-player game, before the set-up, what is the table's exact chance that the top of
# the draw pile would fit on a Queen? Count: which ranks fit on a Queen, and how many cards is that?

# %% [check]
exercise_1 = lesson("06").exercise(1)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
fresh = cardlab.new_game("shithead", players=2, seed=0)
unseen = fresh.unseen_cards(None)
on_queen = [c for c in unseen if c.rank in (cardlab.Rank.TWO, cardlab.Rank.TEN, cardlab.Rank.QUEEN,
                                             cardlab.Rank.KING, cardlab.Rank.ACE)]
print(f"2, 10, Q, K, A fit on a Queen: {len(on_queen)}/{len(unseen)} = {len(on_queen) / len(unseen):.4f}")
print(exercise_1.check(f"{len(on_queen)}/{len(unseen)}"))
assert exercise_1.check(f"{len(on_queen)}/{len(unseen)}").is_right
forgot_2_and_10 = f"{len(on_queen) - 8}/{len(unseen)}"
print(f"forgetting the 2s and 10s ({forgot_2_and_10}):", exercise_1.check(forgot_2_and_10))
assert exercise_1.check(forgot_2_and_10).status == "not yet"
answer_1 = f"{len(on_queen)}/{len(unseen)}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** Deal section 4's game again with the house rule `seven_lower=True` (the next cell does it): the
# same set-up, and the same 7 on the pile. What is now the table's count (fitting unseen cards / unseen cards) for
# the top of the draw pile? Which ranks fit on a 7 under this rule?

# %%
lower = greedy_setup(14, seven_lower=True)
print(f"top of the pile: {lower.top}; face-up cards: {[[str(c) for c in up] for up in lower.state.face_up]}")

# %% [check]
exercise_2 = lesson("06").exercise(2, game=lower)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
unseen = lower.unseen_cards(None)
low_ranks = (cardlab.Rank.TWO, cardlab.Rank.THREE, cardlab.Rank.FOUR, cardlab.Rank.FIVE, cardlab.Rank.SIX,
             cardlab.Rank.SEVEN, cardlab.Rank.TEN)
assert lower.top.rank == cardlab.Rank.SEVEN
fit = sum(c.rank in low_ranks for c in unseen)
print(f"2-7 and 10 among the table's unseen cards: {fit}/{len(unseen)} = {fit / len(unseen):.4f}")
print(exercise_2.check(f"{fit}/{len(unseen)}"))
assert exercise_2.check(f"{fit}/{len(unseen)}").is_right
plain_rules = prob.shithead_draw_top_fits(greedy_setup(14), None)
print(f"the plain rules' {plain_rules} instead:", exercise_2.check(str(plain_rules)))
assert exercise_2.check(str(plain_rules)).status == "not yet"
answer_2 = f"{fit}/{len(unseen)}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS
