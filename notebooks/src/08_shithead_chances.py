# %% [markdown]
# # Shithead (Palace), part 2: what play tells, simulation and real deals
#
# **The one idea:** a chance for a hidden card rests on a **model** of how the players play. A simulation dealt
# from the model checks only the computing; **real deals** decide whether the model is right, and for which players.
#
# **Learning goals**
#
# - see how play changes a hidden card's chance, under a stated model of the players;
# - test two answers on real games, not on the model's own play-outs.
#
# **Lesson plan (50 minutes).** 5 min: predict. 10 min: what play tells (section 1). 10 min: simulation and real
# deals (sections 2–3). 12 min: picking up, on real games (section 4). 5 min: the first player (section 5). 8 min:
# exercises.
#
# **Predict first.** An Ace is on the pile, so only a 2, a 10 or an Ace fits. You hold 3 cards the table cannot
# see. Roughly what chance would the table give that you must pick up the pile?

# %%
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
from IPython.display import display

import cardlab
from cardlab.course import lesson
from cardlab.policies import choose, make_policy
from cardlab.sim import prob
from cardlab.sim.stats import wilson
from cardlab.viz.charts import convergence_figure, convergence_rows
from cardlab.viz.panels import figure_view

game = cardlab.new_game("shithead", players=2, seed=129)          # a shuffled deal
bots = make_policy("greedy", "shithead", np.random.default_rng(129))
for _ in range(16):                                                  # the set-up, then ten moves
    game.play(choose(bots, game))
for event in game.events[7:]:
    print(event)
print(f"top of the pile: {game.top}; draw pile {len(game.state.draw)} cards; seat {game.current_player} to move, "
      f"holding {len(game.state.hands[0])} cards the table cannot see")
assert game.top.rank == cardlab.Rank.ACE and game.current_player == 0 and not game.state.known[0]

# %% [markdown]
# ## 1. What play tells
#
# A shuffled deal (seed 129), played by greedy bots. Lesson 06 counted chances as the share of unseen cards that
# fit. Since then both players have played, and a player who can play **must** play.
#
# To use that we need a **model** of the players. Here: *a player plays a card chosen at random among those that
# fit.* Each possible hand is weighted by the chance that such a player would have played as this one did (Bayes'
# rule), and the chance that a card fits becomes a weighted count, exact *under the model*. The model is an
# **assumption**: a player who saves 2s and 10s tells more than the model reads into its play.
#
# **Predict first:** compared with the plain share, will the model's chance that a face-down card fits be higher
# or lower? And will a face-down card and the top of the draw pile still have equal chances?

# %%
for viewpoint in (None, 0, 1):
    who = "table" if viewpoint is None else f"seat {viewpoint}"
    unseen = game.unseen_cards(viewpoint)
    fit = sum(game.fits(c) for c in unseen)
    blind, top = prob.shithead_blind_fits(game, viewpoint), prob.shithead_draw_top_fits(game, viewpoint)
    print(f"{who:>6}: plain share {fit}/{len(unseen)} = {fit / len(unseen):.4f}; "
          f"the model: face-down card {float(blind):.4f}, top of the draw pile {float(top):.4f}")
    assert blind == top                             # the two places stay exchangeable
    assert blind > Fraction(fit, len(unseen))       # what the hands kept is likelier not to fit

# %% [markdown]
# For every viewer the model's chance is a little above the plain share (the cell checks it). A card that stayed in
# a hand is likelier to be one that did not fit, and a player who picked up held nothing that fitted; that leaves
# the hidden places a little richer in cards that do. Nothing tells a face-down card from the top of the draw pile,
# so those two chances stay equal. And each viewer gets a different answer, each right for what that viewer knows,
# if the model holds.

# %% [markdown]
# ## 2. Checking by simulation
#
# A simulation should agree with an exact answer within its sampling error. Deal the cards the table cannot see
# again at random, as the model says they could lie, 3,000 times, and look at seat 0's first face-down card each
# time. **Predict first:** how close to the exact value will the share be after 30 deals, and after 3,000?

# %%
rng = np.random.default_rng(3)
SIMS = 3000
exact = float(prob.shithead_blind_fits(game, None))
fits = np.array([game.fits(game.resample(None, rng).state.face_down[0][0]) for _ in range(SIMS)], dtype=float)
display(figure_view(convergence_figure(fits, truth=exact, title="Seat 0's first face-down card fits",
                                       label="share of simulated deals", x_title="simulated deals")))
est = wilson(fits.sum(), SIMS)
se = np.sqrt(exact * (1 - exact) / SIMS)
for row in convergence_rows(fits, [30, 300, SIMS]):
    print(f"after {row}")
print(f"exact {exact:.4f}")
print(f"interval contains the exact value: {est.contains(exact)}; gap {(est.value - exact) / se:+.2f} standard errors")
assert abs(est.value - exact) < 4 * se

# %% [markdown]
# Even when the exact value is right, such an interval misses about one run in twenty; a gap of more than four
# standard errors would be strong evidence of a fault (the cell checks there is none). This simulation deals from
# the model itself, so it checks the *computing*, not the *assumption*: a wrong model agrees with itself.

# %% [markdown]
# ## 3. Real deals
#
# The honest test uses real deals. Play 1,000 seeded games with greedy bots for 16 moves, take the model's chance
# that the top of the draw pile fits, and compare it with the real top card. The $z$ score measures the gap in
# standard errors: for independent games with chances $p_i$, the count of cards that fit has standard error
# $\sqrt{\sum p_i(1-p_i)}$. An average error of one standard error (the cell prints it) would usually pass unseen.

# %%
REAL = 1000
predicted, plain, happened = [], [], []
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
    unseen = real.unseen_cards(None)
    plain.append(sum(real.fits(c) for c in unseen) / len(unseen))
    happened.append(bool(real.fits(real.state.draw[-1])))      # the real top card: the truth
predicted, plain, happened = np.array(predicted), np.array(plain), np.array(happened, dtype=float)
print(f"{predicted.size} real positions; mean predicted {predicted.mean():.4f}, share that fit {happened.mean():.4f}")
print("predicted chance   positions   mean predicted   observed   z")
zs = []
for low, high in ((0.0, 0.6), (0.6, 0.75), (0.75, 0.9), (0.9, 1.01)):
    inside = (predicted >= low) & (predicted < high)
    if inside.sum() < 20:
        continue
    p, o = predicted[inside], happened[inside]
    zs.append((o.sum() - p.sum()) / np.sqrt(float(np.sum(p * (1 - p)))))
    print(f"[{low:.2f}, {min(high, 1):.2f})  {inside.sum():>10}   {p.mean():>14.4f}   {o.mean():>8.4f}  {zs[-1]:+.2f}")


def z_score(p):
    """The gap between the cards that fit and the chances p, in standard errors."""
    return (happened.sum() - p.sum()) / np.sqrt(np.sum(p * (1 - p)))


z_all, z_plain = z_score(predicted), z_score(plain)
test_se = np.sqrt(np.sum(predicted * (1 - predicted))) / predicted.size      # one standard error, as a share
gap = np.mean(predicted - plain)
print(f"all positions: z = {z_all:+.2f} for the model; "
      f"z = {z_plain:+.2f} for the plain share (mean {plain.mean():.4f})")
print(f"the model minus the plain share: {gap:+.4f} on average; one standard error of this test: {test_se:.4f}")
assert max(abs(z) for z in zs) < 2 and abs(z_all) < 2 and abs(z_plain) < 2       # what the text below says
assert abs(gap) < 2 * test_se                                                    # too close to tell apart

# %% [markdown]
# Every bin is within 2 standard errors (the cell checks it): no disagreement that 1,000 games could detect, *for
# this question at this point of the game*. But the plain share passes too: the two differ by about one standard
# error of this test. Passing a weak test does not prove the model; section 4 asks a question where they differ.

# %% [markdown]
# ## 4. Must the player to move pick up?
#
# Back to the Ace: seat 0 must pick up exactly when none of its $h$ hand cards fits. If those cards were a random
# $h$-subset of the $U$ cards the table cannot see, $F$ of which fit, the chance would be the hypergeometric chance
# of drawing no fitting card,
#
# $$P(\text{pick up}) = \frac{\binom{U-F}{h}}{\binom{U}{h}}.$$
#
# But seat 0 has played, and each play was a card that fitted, so its hand is not a random subset. **Predict
# first:** does reading the play raise or lower this chance? The cell also checks the model's exact answer with
# play-outs dealt from the model.

# %%
hand_size = len(game.state.hands[game.current_player])
unseen_table = game.unseen_cards(None)
fitting = sum(game.fits(c) for c in unseen_table)
random_subset = comb(len(unseen_table) - fitting, hand_size) / comb(len(unseen_table), hand_size)
exact_pickup = float(prob.shithead_mover_picks_up(game, None))
print(f"h = {hand_size}, U = {len(unseen_table)}, F = {fitting}")
print(f"a random subset: C({len(unseen_table) - fitting},{hand_size})/C({len(unseen_table)},{hand_size}) "
      f"= {random_subset:.4f}")
print(f"the model, which reads how seat {game.current_player} played: {exact_pickup:.4f}")
check = prob.shithead_must_pick_up(game, game.current_player, None, rollouts=4000, rng=np.random.default_rng(6))
se = np.sqrt(exact_pickup * (1 - exact_pickup) / check.n)
print(f"play-outs dealt from the model: {check}; contains the model's exact value: {check.contains(exact_pickup)}")
print(f"for seat 0, who sees its own hand: {float(prob.shithead_mover_picks_up(game, 0)):.0f}")
assert any(c.rank == cardlab.Rank.TEN for c in game.state.hands[0])             # seat 0 sees a 10
assert abs(check.value - exact_pickup) < 4 * se and exact_pickup > random_subset

# %% [markdown]
# Reading the play raises the table's chance above the random-subset count (the cell checks it). The play-outs
# agree with the model, but they are dealt *from* the model: they check the computing, not which answer is right.
# Seat 0 itself sees a 10 in its hand: for seat 0 the chance is 0.
#
# **Real deals decide.** Take every position of 50 real games where the player to move holds 3 cards the table
# cannot see, and compare both answers with what really happened, for greedy players and for `uninformed` players,
# who play a random fitting card as the model assumes. Positions of one game are not independent, so the
# intervals count each game as one unit. **Predict first:** which answer wins for which players?

# %%
REAL_GAMES = 50


def pickup_positions(player):
    """Every position of REAL_GAMES real games of `player` where the mover holds 3 hand cards the table cannot see:
    the model's chance that it must pick up, the random-subset count, what really happened, and the game."""
    rows = []
    for seed in range(REAL_GAMES):
        real = cardlab.new_game("shithead", players=2, seed=seed)
        bot = make_policy(player, "shithead", np.random.default_rng(seed))
        while not real.is_over and real.move_count < 2000:
            mover, hand = real.current_player, real.state.hands[real.current_player]
            if real.state.phase != "setup" and real.top is not None and len(hand) == 3 and not real.state.known[mover]:
                unseen = real.unseen_cards(None)
                fit = sum(real.fits(c) for c in unseen)
                rows.append((float(prob.shithead_mover_picks_up(real, None)),
                             comb(len(unseen) - fit, 3) / comb(len(unseen), 3),
                             float(not any(real.fits(c) for c in hand)), seed))
            real.play(choose(bot, real))
    return np.array(rows)


def real_minus(rows, column):
    """Real pick-ups minus a prediction, on average, with a 95% interval; positions of one game are not
    independent, so the standard error treats each game as one cluster."""
    d = rows[:, 2] - rows[:, column]
    per_game = np.array([d[rows[:, 3] == s].sum() for s in range(REAL_GAMES)])
    size = np.array([(rows[:, 3] == s).sum() for s in range(REAL_GAMES)])
    se = np.sqrt(np.sum((per_game - d.mean() * size) ** 2) * REAL_GAMES / (REAL_GAMES - 1)) / d.size
    return d.mean(), d.mean() - 1.96 * se, d.mean() + 1.96 * se


gaps = {}
for player in ("greedy", "uninformed"):
    rows = pickup_positions(player)
    print(f"{player:>10}: {len(rows)} positions in {REAL_GAMES} games; real pick-up rate {rows[:, 2].mean():.3f}, "
          f"the model {rows[:, 0].mean():.3f}, the random-subset count {rows[:, 1].mean():.3f}")
    for column, name in ((0, "the model"), (1, "the random-subset count")):
        gaps[player, column] = real_minus(rows, column)
        mean, low, high = gaps[player, column]
        print(f"{'':>12}real minus {name}: {mean:+.3f} [{low:+.3f}, {high:+.3f}]")
assert gaps["greedy", 0][2] < 0 and abs(gaps["greedy", 1][0]) < abs(gaps["greedy", 0][0])      # what the text says
assert gaps["uninformed", 0][1] < 0 < gaps["uninformed", 0][2] and gaps["uninformed", 1][1] > 0

# %% [markdown]
# For greedy players the model is the worse answer: they keep 2s and 10s and pick up less often than it predicts,
# and the random-subset count comes closer. For players who play as the model assumes, the model's answer agrees
# with the real pick-ups and the random-subset count is too low (the cell checks both). A model is right or wrong
# *for some players*; only real games of those players tell which.

# %% [teacher]
# **Calibration of the pick-up chance against real games** (`benchmarks/bench_chance_law.py
# --shithead-calibration`, figures in docs/performance.md): over 300 games of players who choose as the model says
# (the `uninformed` player of `make_policy`), the table's exact pick-up chance agrees with the real pick-ups in every
# bin of predicted chance (|z| < 3). A law that read a play as a uniformly random card of the hand, ignoring that it
# had to fit, missed by about six standard errors: a student who forgets that "a player who can play must play" is
# information makes exactly that mistake. Against the greedy bot the law is off the other way: the bot plays its
# lowest fitting card and saves its 2s and 10s, so it picks up less often than the law predicts (greedy calibration
# in docs/performance.md: the table's uncertain pick-ups 0.207 predicted, 0.131 real, z = −16.8; largest bin
# |z| 8.65). The draw-pile top is off too, less so (largest bin |z| about 4 over all positions of 300 games).
# Section 3 passes because it looks at one moment (move 16) of 1,000 games and has little power: the model and
# the plain share differ there by about one standard error of the test, and both pass.

# %% [markdown]
# ## 5. Does the first player have an edge?
#
# With the default rules seat 0 always starts. **Predict first:** does that help it win? Here are 200 greedy games,
# then 10,000 others.

# %%
small = cardlab.simulate("shithead", players=2, games=200, seed=11, progress=False).win_rate(0)
large = cardlab.simulate("shithead", players=2, games=10_000, seed=12, progress=False).win_rate(0)
print(f"200 games (seed 11): seat 0 wins {small}; contains 1/2: {small.contains(0.5)}")
print(f"10,000 games (seed 12): seat 0 wins {large}; contains 1/2: {large.contains(0.5)}")
assert small.contains(0.5) and large.contains(0.5) and large.half_width < 0.011    # what the text says

# %% [markdown]
# The 200 games give a wide interval: an edge of several points either way would fit it. The 10,000 games give an
# interval about one point wide on each side that contains 1/2: larger edges are ruled out at the 5% level.
# "Contains 1/2" is not proof that the game is fair; it says how large an edge these games could have missed.

# %% [teacher]
# **Misconceptions to discuss.** *"Once players have played, a hidden card is still any unseen card, equally
# likely."* Play tells (section 1). *"A simulation that agrees with the exact answer proves the model."* It shows the
# computing is right; only real deals test the assumption (section 4). *"The interval contains 1/2, so the seats are
# equal."* It only bounds the edge.

# %% [markdown]
# ## Exercises
#
# Type your answer in the box and press **Check**, or write it in the answer cell.

# %% [markdown]
# **Exercise 1.** Seat 1 knows its own hand, so fewer cards are unseen for seat 1 than for the table. In the
# position `game` (an Ace on the pile, seat 0 to move), use the random-subset count of section 4 from **seat 1's**
# view: what chance that seat 0 must pick up? Then compare it with the model's answer for seat 1.

# %% [check]
exercise_1 = lesson("08").exercise(1, game=game)
display(exercise_1)

# %%
answer_1 = ""   # your answer between the quotes, e.g. "3/4", "0.75" or "75%"
exercise_1.check(answer_1)

# %% [solution]
unseen_1 = game.unseen_cards(1)
hands = list(combinations(unseen_1, hand_size))          # every hand seat 0 could hold, as seat 1 sees it
no_fit = sum(not any(game.fits(c) for c in hand) for hand in hands)
by_listing = Fraction(no_fit, len(hands))
print(f"seat 1: {no_fit} of {len(hands)} possible hands hold no fitting card = {float(by_listing):.4f}")
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
exercise_2 = lesson("08").exercise(2)
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
exercise_3 = lesson("08").exercise(3)
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
