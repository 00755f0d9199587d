# %% [markdown]
# # Shithead (Palace), part 4: must you pick up, and does starting help?
#
# **The idea:** which answer is right depends on who plays. Real games *of the players in question* decide
# between answers, and their interval says how large a difference they could have missed.
#
# **Learning goals**
#
# - compute the chance of a pick-up two ways, and test both on real games of two kinds of players;
# - read what an interval for the first player's edge rules out, and what it cannot show.
#
# **Predict first.** An Ace is on the pile, so only a 2, a 10 or an Ace fits. You hold 3 cards the table cannot
# see. Roughly what chance would the table give that you must pick up the pile? Would it be right for every kind
# of player?
#
# This lesson uses the model of lesson `08_shithead_models_and_real_deals` and the intervals of lesson 01.

# %% [teacher]
# **Lesson plan (50 minutes).** 5 min: predict (above). 8 min: two answers for one pick-up (section 1). 12 min:
# real games decide, for two kinds of players (section 2). 7 min: the first player (section 3). 18 min: exercises
# (exercise 1 about 5 min; exercise 2, a loop over 2,000 deals, about 10 min; exercise 3 about 3 min).
#
# The lesson needs lesson 08's model (a player plays a random card among those that fit) and its lesson that a
# simulation dealt from a model checks only the computing. Section 2's cell plays 200 games and computes the model
# at about 4,000 positions: about 42 s of processor time, 50–80 s measured on a 2-core machine shared with other
# work (more when busier). Section 1's cell takes under a second, about 10 s on a first run that compiles code.

# %%
from fractions import Fraction
from itertools import combinations

import numpy as np
from IPython.display import display

import cardlab
from cardlab.chance.stats import wilson
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.sim import prob

game = cardlab.new_game("shithead", players=2, seed=129)          # lesson 08's position
bots = make_policy("greedy", "shithead", np.random.default_rng(129))
for _ in range(16):                                                  # the set-up, then ten moves
    game.play(choose(bots, game))
for event in game.events[-4:]:
    print(event)
print(f"top of the pile: {game.top}; seat {game.current_player} to move, holding {len(game.state.hands[0])} "
      "cards the table cannot see")
assert game.top.rank == cardlab.Rank.ACE and game.current_player == 0 and not game.state.known[0]

# %% [markdown]
# ## 1. Must the player to move pick up?
#
# This is lesson 08's position (seed 129, greedy bots). Seat 0 must pick up exactly when none of its $h = 3$ hand
# cards fits. The table cannot see $U$ cards, $F$ of which fit. Suppose seat 0's hand were $h$ of them drawn at
# random. The first card misses with chance $(U-F)/U$; once it has missed, one non-fitting card is gone, so the
# second misses with chance $(U-F-1)/(U-1)$ (lesson 02), and so on. All three miss with the product of these
# chances:
#
# $$\frac{U-F}{U}\times\frac{U-F-1}{U-1}\times\frac{U-F-2}{U-2},$$
#
# the **random-subset count**. But seat 0 has played, each time a card that fitted, so its hand is not a random
# draw; lesson 08's model reads that. **Predict first:** does reading the play raise or lower the chance?

# %%
def random_subset_count(unseen, fit, hand_size):
    """The chance that none of hand_size cards drawn at random from `unseen` cards, `fit` of which fit, fits."""
    chance = 1.0
    for i in range(hand_size):
        chance *= (unseen - fit - i) / (unseen - i)        # the next hand card does not fit either
    return chance


hand_size = len(game.state.hands[game.current_player])
unseen_table = game.unseen_cards(None)
U, F = len(unseen_table), sum(game.fits(c) for c in unseen_table)
random_subset = random_subset_count(U, F, hand_size)
model_pickup = float(prob.shithead_mover_picks_up(game, None))
print(f"h = {hand_size}, U = {U}, F = {F}")
print(f"the random-subset count: ({U - F}/{U})({U - F - 1}/{U - 1})({U - F - 2}/{U - 2}) = {random_subset:.4f}")
print(f"lesson 08's model, which reads how seat {game.current_player} played: {model_pickup:.4f}")
check = prob.shithead_must_pick_up(game, game.current_player, None, rollouts=4000, rng=np.random.default_rng(6))
print(f"play-outs dealt from the model: {check}; contains the model's value: {check.contains(model_pickup)}")
print(f"for seat 0, who sees its own hand: {float(prob.shithead_mover_picks_up(game, 0)):.0f}")

# %% [markdown]
# Reading the play raises the table's chance: the cards seat 0 kept are likelier to be ones that did not fit. The
# play-outs agree with the model, but they are dealt *from* the model: as in lesson 08, they check the computing,
# not which answer is right. Seat 0 itself sees a 10 in its hand, so for seat 0 the chance is 0. The next cell
# checks these claims.

# %%
hands = list(combinations(unseen_table, hand_size))      # every hand of 3 unseen cards, each equally likely
assert abs(random_subset - sum(not any(game.fits(c) for c in h) for h in hands) / len(hands)) < 1e-12
assert model_pickup > random_subset
assert abs(check.value - model_pickup) < 4 * np.sqrt(model_pickup * (1 - model_pickup) / check.n)
assert any(c.rank == cardlab.Rank.TEN for c in game.state.hands[0])                  # seat 0 sees a 10

# %% [markdown]
# ## 2. Real games decide, for given players
#
# Play 100 real games, stopping each at move 300 (most uninformed games run longer), and take every position where
# the pile is not empty and the player to move holds exactly 3 hand cards, none seen by the table. Compare both
# answers with what really happened, for greedy players and for **uninformed** players, who play as lesson 08's
# model assumes (random face-up cards at the set-up, then a random card among those that fit).
#
# Positions of one game share a deal, so they are not independent; the games are. So each game gives one number:
# its total of the differences (say real − predicted) minus the average difference times its number of positions.
# The standard error is lesson 01's $s/\sqrt n$ over these 100 numbers, divided by the average number of positions
# per game. Each 95% interval misses its true value about one run in twenty; with six, at most about one run in
# three has a miss among them. **Predict first:** which answer wins for which players?

# %%
REAL_GAMES, CUT = 100, 300


def pickup_positions(player):
    """Every position of REAL_GAMES real games of `player`, each stopped at move CUT, where the pile is not empty
    and the mover holds 3 hand cards the table has not seen: the model's chance that it must pick up, the
    random-subset count, what really happened, and the game; and how many games were still running at the cut."""
    rows, running = [], 0
    for seed in range(REAL_GAMES):
        real = cardlab.new_game("shithead", players=2, seed=seed)
        bot = make_policy(player, "shithead", np.random.default_rng(seed))
        while not real.is_over and real.move_count < CUT:
            mover, hand = real.current_player, real.state.hands[real.current_player]
            if real.state.phase != "setup" and real.top is not None and len(hand) == 3 and not real.state.known[mover]:
                unseen = real.unseen_cards(None)
                rows.append((float(prob.shithead_mover_picks_up(real, None)),
                             random_subset_count(len(unseen), sum(real.fits(c) for c in unseen), 3),
                             float(not any(real.fits(c) for c in hand)), seed))
            real.play(choose(bot, real))
        running += not real.is_over
    return np.array(rows), running


def by_games(d, game):
    """The average of d over all positions, its 95% interval with each game as one unit, and the standard errors
    with games as units and with positions counted as if independent."""
    size = np.array([np.sum(game == s) for s in range(REAL_GAMES)])                     # positions per game
    apart = np.array([d[game == s].sum() for s in range(REAL_GAMES)]) - d.mean() * size  # one number per game
    se = apart.std(ddof=1) / np.sqrt(REAL_GAMES) / size.mean()
    return d.mean(), d.mean() - 1.96 * se, d.mean() + 1.96 * se, se, d.std(ddof=1) / np.sqrt(d.size)


gaps, cut = {}, {}
for player in ("greedy", "uninformed"):
    rows, running = pickup_positions(player)
    cut[player] = running
    print(f"{player}: {len(rows)} positions in {REAL_GAMES} games ({running} still running at move {CUT}); real "
          f"pick-up rate {rows[:, 2].mean():.3f}, the model {rows[:, 0].mean():.3f}, the count {rows[:, 1].mean():.3f}")
    for column, name in ((0, "real minus the model"), (1, "real minus the count"), (None, "the model minus the count")):
        d = rows[:, 0] - rows[:, 1] if column is None else rows[:, 2] - rows[:, column]
        gaps[player, column] = by_games(d, rows[:, 3])
        mean, low, high, se, se_positions = gaps[player, column]
        print(f"    {name}: {mean:+.3f} [{low:+.3f}, {high:+.3f}]; standard error {se:.4f} "
              f"(positions as if independent: {se_positions:.4f})")

# %% [markdown]
# For greedy players both answers are too high, the model by more: on the same positions it lies about 3 points
# above the count. Greedy players keep their 2s and 10s and play their lowest card that fits, so they pick up less
# often than either answer assumes. For uninformed players the model agrees with the real pick-ups: these games
# rule out its being more than about 2 points too high or 1 point too low; the count is too low.
#
# Counting positions as if independent is not justified, and it can err either way: here it gives
# standard errors larger than (or close to) the games' for real minus an answer, but smaller ones for the
# model minus the count. An answer is right or wrong *for some players*; only real games of those players tell which.

# %%
assert gaps["greedy", 0][2] < 0 and gaps["greedy", 1][2] < 0                    # both too high for greedy
assert gaps["greedy", None][1] > 0 and 0.025 < gaps["greedy", None][0] < 0.04   # the model by more, about 3 points
assert -0.025 < gaps["uninformed", 0][1] < -0.015 < 0 < 0.005 < gaps["uninformed", 0][2] < 0.015   # agrees
assert gaps["uninformed", 1][1] > 0                                             # the count too low
assert cut["uninformed"] > REAL_GAMES / 2                                       # most uninformed games are cut
assert all(gaps[key][4] > 0.97 * gaps[key][3] for key in gaps if key[1] is not None)   # larger or about the same
assert any(gaps[key][4] > 1.1 * gaps[key][3] for key in gaps if key[1] is not None)    # clearly larger for some
assert all(gaps[key][4] < 0.95 * gaps[key][3] for key in gaps if key[1] is None)       # and smaller here

# %% [teacher]
# **Calibration of the pick-up chance against real games** (`benchmarks/bench_chance_law.py
# --shithead-calibration`, figures in docs/performance.md): over 300 games of players who choose as the model says
# (the `uninformed` player of `make_policy`), the table's pick-up chance agrees with the real pick-ups in every bin
# of predicted chance (|z| < 3). A law that read a play as a uniformly random card of the hand, ignoring that it
# had to fit, missed by about six standard errors: a student who forgets that "a player who can play must play" is
# information makes exactly that mistake. Against the greedy bot the law is off the other way: the bot plays its
# lowest fitting card and saves its 2s and 10s, so it picks up less often than the law predicts (greedy calibration
# in docs/performance.md: the table's uncertain pick-ups 0.207 predicted, 0.131 real, z = −16.8; largest bin
# |z| 8.65). The benchmark's bins count positions, not games, so its |z| is a gauge; section 2 counts each game as
# one unit.

# %% [markdown]
# ## 3. Does the first player have an edge?
#
# With the default rules seat 0 always starts. **Predict first:** when both players are greedy, does starting help
# seat 0 win? Here are 200 greedy games, then 10,000 others.

# %%
small = cardlab.simulate("shithead", players=2, games=200, seed=11, progress=False).win_rate(0)
large = cardlab.simulate("shithead", players=2, games=10_000, seed=12, progress=False).win_rate(0)
print(f"200 games (seed 11): seat 0 wins {small}; contains 1/2: {small.contains(0.5)}")
print(f"10,000 games (seed 12): seat 0 wins {large}; contains 1/2: {large.contains(0.5)}")
print(f"seat 0's edge over 1/2, 95% interval: from {100 * (large.low - 0.5):+.1f} to {100 * (large.high - 0.5):+.1f} "
      "points")

# %% [markdown]
# The 200 games give a wide interval: an edge of several points either way would fit it. The 10,000 games give an
# interval about one point wide on each side that contains 1/2: edges outside it (below −1.2 or above +0.7 points)
# do not fit these games. "Contains 1/2" does not prove the game fair: it bounds the edge these games could have
# missed, and only for greedy players.

# %%
assert small.contains(0.5) and small.low < 0.47 and small.high > 0.53             # several points either way
assert large.contains(0.5) and 0.009 < large.half_width < 0.011                   # about one point each side
assert -0.0125 < large.low - 0.5 < -0.0115 and 0.0065 < large.high - 0.5 < 0.0075    # -1.2 and +0.7 points

# %% [teacher]
# **Misconceptions to discuss.** *"Reading the play must give the better answer."* Only for players who play as the
# model assumes; for greedy players the random-subset count is closer (section 2). *"The play-outs agree with the model,
# so the model is right."* They are dealt from it (section 1, as in lesson 08). *"Positions are data points like
# games."* Positions of one game share a deal, so the games are the independent units (section 2). Counting positions as
# independent is not justified, and errs either way: here larger (or about the same) standard errors for real minus an
# answer, smaller ones for the model minus the count. *"The interval contains 1/2, so the seats are equal."* It only
# bounds the edge, for the players who played (section 3, exercise 3).

# %% [markdown]
# ## Exercises
#
# Type your answer in the box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** Seat 1 knows its own hand, so fewer cards are unseen for seat 1 than for the table. In the position
# `game` (an Ace on the pile, seat 0 to move), use the random-subset count of section 1 from **seat 1's** view: what
# chance that seat 0 must pick up (a fraction, or two or more decimals)? Then compare it with the model's answer for
# seat 1.

# %% [check]
exercise_1 = lesson("09").exercise(1, game=game)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
unseen_1 = game.unseen_cards(1)
hands = list(combinations(unseen_1, hand_size))          # every hand seat 0 could hold, as seat 1 sees it
no_fit = sum(not any(game.fits(c) for c in hand) for hand in hands)
by_listing = Fraction(no_fit, len(hands))
U1, F1 = len(unseen_1), sum(game.fits(c) for c in unseen_1)
by_product = Fraction(U1 - F1, U1) * Fraction(U1 - F1 - 1, U1 - 1) * Fraction(U1 - F1 - 2, U1 - 2)
assert by_product == by_listing
print(f"seat 1: {no_fit} of {len(hands)} possible hands hold no fitting card = {float(by_listing):.4f}")
print(f"the same by the product: ({U1 - F1}/{U1})({U1 - F1 - 1}/{U1 - 1})({U1 - F1 - 2}/{U1 - 2})")
print(f"the model, for seat 1: {float(prob.shithead_mover_picks_up(game, 1)):.4f}")
print(exercise_1.check(str(by_listing)))
assert exercise_1.check(str(by_listing)).is_right
print(f"the table's count {random_subset:.4f}:", exercise_1.check(f"{random_subset:.4f}"))
assert exercise_1.check(f"{random_subset:.4f}").status == "not yet"
model_1 = f"{float(prob.shithead_mover_picks_up(game, 1)):.4f}"
print(f"the model's answer for seat 1, {model_1}:", exercise_1.check(model_1))
assert exercise_1.check(model_1).status == "not yet"
answer_1 = str(by_listing)   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_1 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_1.check(answer_1).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 2.** With `first="lowest3"` the holder of the lowest card in hand starts (2s and 10s do not count);
# ties, and deals where nobody holds such a card, go to seat 0. Over the two-player deals with seeds 0 to 1999,
# greedy set-up, in what share of them does seat 0 start? Is the starter equally likely to be either seat?

# %% [check]
exercise_2 = lesson("09").exercise(2)
display(exercise_2)

# %%
answer_2 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_2.check(answer_2)

# %% [solution]
SPECIAL = (cardlab.Rank.TWO, cardlab.Rank.TEN)
ORDER = [cardlab.Rank.THREE, cardlab.Rank.FOUR, cardlab.Rank.FIVE, cardlab.Rank.SIX, cardlab.Rank.SEVEN,
         cardlab.Rank.EIGHT, cardlab.Rank.NINE, cardlab.Rank.JACK, cardlab.Rank.QUEEN, cardlab.Rank.KING,
         cardlab.Rank.ACE]
setup_bot = make_policy("greedy", "shithead", np.random.default_rng(0))
seat0 = 0
for seed in range(2000):
    deal = cardlab.new_game("shithead", players=2, seed=seed, first="lowest3")
    for _ in range(6):                                              # the six set-up moves
        deal.play(choose(setup_bot, deal))
    lows = [min((ORDER.index(c.rank) for c in hand if c.rank not in SPECIAL), default=99)
            for hand in deal.state.hands]
    seat0 += lows[0] <= lows[1]                                     # ties and no low card: seat 0
starts = wilson(seat0, 2000)
print(f"seat 0 starts in {seat0} of 2000 deals: {starts}; contains 1/2: {starts.contains(0.5)}")
print(exercise_2.check(f"{seat0}/2000"))
assert exercise_2.check(f"{seat0}/2000").is_right and starts.low > 0.5
print("equally likely, 1/2:", exercise_2.check("1/2"))
assert exercise_2.check("1/2").status == "not yet"
answer_2 = f"{seat0}/2000"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_2 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_2.check(answer_2).is_right
### END HIDDEN TESTS

# %% [markdown]
# **Exercise 3.** The next cell plays 400 greedy games and prints seat 0's win rate. What is the half-width of its
# 95% interval (the distance from the estimate to either end)? Could these games show an edge of two points?

# %%
games400 = cardlab.simulate("shithead", players=2, games=400, seed=21, progress=False)
print(f"seat 0 wins {games400.wins[0]} of 400 games")

# %% [check]
exercise_3 = lesson("09").exercise(3)
display(exercise_3)

# %%
answer_3 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_3.check(answer_3)

# %% [solution]
p400 = games400.wins[0] / 400
half = 1.96 * np.sqrt(p400 * (1 - p400) / 400)
print(f"seat 0 wins {games400.win_rate(0)}; half-width by 1.96 standard errors: {half:.4f}")
print(exercise_3.check(f"{half:.3f}"))
assert exercise_3.check(f"{half:.3f}").is_right and half > 0.02
print("the whole width:", exercise_3.check(f"{2 * half:.3f}"))
assert exercise_3.check(f"{2 * half:.3f}").status == "not yet"
print(f"an edge of 0.02 lies well inside ±{half:.3f}: 400 games cannot show it")
answer_3 = f"{half:.3f}"   # the key's answer, as a student types it (graded below)

# %% [tests]
# graded: answer_3 is checked here when the lesson is graded
### BEGIN HIDDEN TESTS
assert exercise_3.check(answer_3).is_right
### END HIDDEN TESTS
