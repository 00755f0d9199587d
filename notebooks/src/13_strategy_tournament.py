# %% [markdown]
# # A strategy tournament: is your bot really better?
#
# **Learning goals**
#
# - write your own policy — a Python function that chooses a move — and let it play in the stepper and in many games;
# - compare it fairly with the built-in bots: the same deals, both seats, and a baseline;
# - read a 95% interval to decide whether a difference is real or luck;
# - see the *winner's curse*: the best of many tries looks better than it is, until you test it on fresh deals.

# %% [markdown]
# ## 1. A policy is a function
#
# A policy gets what its seat may see (`view`) and the legal moves, and returns one of the moves. That is all a bot
# is. In Shithead the `greedy` bot plays the lowest card that fits (all copies of it) and keeps 2s and 10s for
# emergencies. Here is a different idea: **burn with a 10 whenever you can**.

# %%
import numpy as np
from IPython.display import display

import cardlab
from cardlab.games.shithead import power
from cardlab.policies import make_policy
from cardlab.sim.stats import wilson

greedy = make_policy("greedy", "shithead", np.random.default_rng(0))


def eager_tens(view, legal_moves):
    """Play a 10 as soon as one is legal (it burns the pile and I play again); otherwise play like greedy."""
    for move in legal_moves:
        if move.kind == "play" and move.args[1] == 10:
            return move
    return greedy(view, legal_moves)


print([m.text for m in cardlab.new_game("shithead", players=2, seed=0).legal_moves()][:4], "...")

# %% [markdown]
# A move carries machine-readable `args`: for a Shithead play, `(source, rank, count)` with the rank as a number
# (Ace 1 … King 13). Your policy may use `view` too: for example `view.top` (the card on the pile) or `view.hand`.
#
# ## 2. Watch it play
#
# Give the stepper a policy function for a seat; that seat shows as `custom` in the seat menu.

# %%
duel = cardlab.Stepper("shithead", players=2, seed=3, policies=[eager_tens, "greedy"])
for _ in range(30):
    duel.next_move()
tens = [e.text for e in duel.game.events if e.kind == "burn" or "burns" in e.text]
print(f"after {duel.game.move_count} moves: {len(tens)} burns")
print("\n".join(duel.log_lines()[-6:]))
display(duel)

# %% [markdown]
# ## 3. A fair tournament
#
# One game says nothing; many games say something, **if the comparison is fair**:
#
# - **the same deals**: `cardlab.simulate` deals game `i` of a run with seed `s` the same way whatever plays it;
# - **both seats**: the first player has an edge, so each deal is played twice, with the seats swapped;
# - **a baseline**: greedy against itself on those deals wins exactly half (each deal is won once by each seat).
#
# The `max_turns` option ends a game that goes on for ever as a draw (a silly policy can do that in Shithead), and
# `progress=False` keeps `simulate` from drawing a progress bar.

# %%
def tournament(policy, games=200, seed=1, name="shithead", **options):
    """Win rate of `policy` against greedy over `games` deals, each played with `policy` in seat 0 and in seat 1."""
    if name == "shithead":
        options.setdefault("max_turns", 500)
    first = cardlab.simulate(name, players=2, games=games, seed=seed, policy=[policy, "greedy"], progress=False,
                             **options)
    second = cardlab.simulate(name, players=2, games=games, seed=seed, policy=["greedy", policy], progress=False,
                              **options)
    wins = int(first.wins[0] + second.wins[1])
    draws = first.draws + second.draws
    return wilson(wins, 2 * games), draws


for label, policy in [("greedy (baseline)", "greedy"), ("eager_tens", eager_tens)]:
    est, draws = tournament(policy)
    print(f"{label:>18}: wins {est}  draws {draws}")

# %% [markdown]
# **Reading the result.** The baseline is 0.5 by construction. If the interval of your policy lies entirely below
# 0.5, it is worse than greedy — on this evidence, with 95% confidence. If it contains 0.5, you cannot tell yet: play
# more deals. The half-width shrinks like $1/\sqrt{n}$ (notebook `10_law_of_large_numbers`), so telling 52% from 50%
# takes thousands of deals, not dozens.

# %% [markdown]
# ## 4. The winner's curse
#
# Try several variants and keep the best: *save a 10 unless the pile has at least k cards*. Each variant is measured
# on the same 150 deals. The best-looking k is then re-measured on 150 **fresh** deals.

# %%
def tens_when_pile_at_least(k):
    def policy(view, legal_moves):
        if len(view.pile) >= k:
            for move in legal_moves:
                if move.kind == "play" and move.args[1] == 10:
                    return move
        return greedy(view, legal_moves)

    policy.__name__ = f"tens_at_{k}"
    return policy


scores = {}
for k in (1, 3, 5, 8):
    scores[k], _ = tournament(tens_when_pile_at_least(k), games=150, seed=7)
    print(f"k = {k}: {scores[k]}")
best = max(scores, key=lambda k: scores[k].value)
fresh, _ = tournament(tens_when_pile_at_least(best), games=150, seed=8)
print(f"best on the first deals: k = {best}, {scores[best].value:.3f}; on fresh deals: {fresh}")

# %% [markdown]
# Compare the two numbers for the winner. The best of several noisy measurements is biased upwards: part of its lead
# is luck, and luck does not come back on new deals, so the fresh measurement tends to be lower. Only the fresh one is
# an honest estimate. Choose on one set of deals, **judge on another** — and notice whether any variant's interval
# lies above 0.5 at all.

# %% [markdown]
# ## 5. Garbage has few choices — do they matter?
#
# In Garbage the only decisions are where a wild Jack goes, whether to displace a Jack, and whether to take the
# discard. A policy that puts a Jack on the *highest* face-down spot instead of the lowest:

# %%
garbage_greedy = make_policy("greedy", "garbage", np.random.default_rng(0))


def jack_high(view, legal_moves):
    """Like greedy, but a wild goes on the highest face-down spot."""
    wild = [m for m in legal_moves if m.kind == "wild"]
    if wild:
        return max(wild, key=lambda m: m.args[0])
    return garbage_greedy(view, legal_moves)


one_seat = cardlab.simulate("garbage", players=2, games=1000, seed=3, policy=[jack_high, "greedy"],
                            progress=False)
print(f"jack_high in seat 0 only: {one_seat.win_rate(0)} (looks good? seat 0 draws first...)")
est, _ = tournament(jack_high, games=1000, seed=3, name="garbage")
print(f"jack_high, both seats:    {est}")

# %% [markdown]
# Measured from one seat only, `jack_high` seems to win more than half its games; with the seats swapped on the same
# deals the first-player edge cancels. By symmetry of the spots you might expect no difference at all — check whether
# the interval agrees.

# %% [markdown]
# ## Exercises

# %% [markdown]
# **Exercise 1.** Write a Garbage policy that **never takes the discard** (it always draws from the stock, and
# otherwise plays like greedy). Is it worse than greedy? Use `tournament(..., name="garbage")` with 1000 deals.

# %% [solution]
def never_discard(view, legal_moves):
    for move in legal_moves:
        if move.kind == "draw" and move.args[0] == "stock":
            return move
    return garbage_greedy(view, legal_moves)


est, _ = tournament(never_discard, games=1000, seed=5, name="garbage")
print(f"never_discard against greedy: {est}; worse for sure (interval below 0.5): {est.high < 0.5}")

# %% [markdown]
# **Exercise 2.** Suppose your policy really wins 53% against greedy. How many deals (each played in both seats)
# does the tournament need before the 95% interval's half-width is below 0.03, so that the interval excludes 0.5?
# Use half-width $\approx 1.96\sqrt{p(1-p)/(2n)}$.

# %% [solution]
p = 0.53
deals = int(np.ceil((1.96 / 0.03) ** 2 * p * (1 - p) / 2))
print(f"about {deals} deals ({2 * deals} games)")

# %% [markdown]
# **Exercise 3.** In the Shithead set-up, greedy puts its best cards face up. Write a policy that puts its *lowest*
# cards face up instead (and plays like greedy afterwards). How much worse is it? (200 deals.)

# %% [solution]
def low_face_up(view, legal_moves):
    if legal_moves[0].kind == "setup":
        return min(legal_moves, key=lambda m: power(m.args[0]))
    return greedy(view, legal_moves)


est, draws = tournament(low_face_up, games=200, seed=9)
print(f"low_face_up against greedy: {est}; draws {draws}")
