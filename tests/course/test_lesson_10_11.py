"""Answer keys of lessons 10 ("Hidden information") and 11 ("Bayes' rule and card counting"): each truth counted
here by hand from the rules, the route a student takes with the defaults the question leaves open "Right!", and
the plausible wrong answers not.

The positions are the lessons' own (lesson 10's deck list and moves, copied: the key takes the game), plus other
positions, so that a key is seen to compute from the game it is given.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
import pytest

import cardlab
from cardlab.course import lesson
from cardlab.engine.game import Game
from cardlab.policies import choose, make_policy
from cardlab.sim import prob

DECK = ["5S", "KH", "9D", "QC", "3D", "8H", "3S", "4S", "7H", "10C", "JD", "AS", "2H", "6C", "7D", "8C", "QH", "KS",
        "7S", "7C", "KD", "10D", "AD", "5H", "4D", "9S", "6D", "3H", "10H"]
MOVES = ["face up A♠", "face up J♦", "face up 10♣", "face up K♠", "face up Q♥", "face up 8♣", "play 7", "play 7",
         "play 7", "play 6", "play 10", "play 3", "play 2", "play 4 x2", "play A"]


def position() -> Game[Any]:
    """Lessons 10 and 11's ``position``: Shithead, an Ace on the pile, seat 0 to move and unable to play."""
    game = cardlab.new_game("shithead", players=2, seed=1, deck=DECK)
    for move in MOVES:
        game.play(move)
    return game


def later() -> Game[Any]:
    """Lesson 10's ``later``: seat 0 picks up, seat 1 plays a 9."""
    game = position()
    for move in ("pick up", "play 9"):
        game.play(move)
    return game


def greedy(name: str, seed: int, stop: Any) -> Game[Any]:
    """A seeded game of greedy bots, played until ``stop(game)`` holds."""
    game = cardlab.new_game(name, players=2, seed=seed)
    bot = make_policy("greedy", name, np.random.default_rng(seed))
    while not stop(game):
        assert not game.is_over, "the game ended before the position the test needs"
        game.play(choose(bot, game))
    return game


def share_after_seeing_seat_1(game: Game[Any]) -> Fraction:
    """By hand: the cards seat 0 cannot see, less seat 1's hand; the share of them that fit."""
    unseen = list(game.unseen_cards(0))
    for card in game.state.hands[1]:
        unseen.remove(card)
    return Fraction(sum(bool(game.fits(card)) for card in unseen), len(unseen))


def test_10_exercise_1_takes_seat_1s_hand_out_of_both_counts() -> None:
    game = position()
    unseen, fit = len(game.unseen_cards(0)), sum(map(game.fits, game.unseen_cards(0)))
    held = len(game.state.hands[1])
    held_fit = sum(map(game.fits, game.state.hands[1]))
    assert held_fit > 0                       # seat 1's hand holds a card that fits, so the question is not idle
    right = Fraction(fit - held_fit, unseen - held)
    assert right == share_after_seeing_seat_1(game)
    exercise = lesson("10").exercise(1, game=game)
    assert exercise.check(str(right)).is_right and exercise.check(f"{float(right):.3f}").is_right
    for wrong in (Fraction(fit - held_fit, unseen),      # the fitting ones taken out, not the total
                  Fraction(fit, unseen),                 # seat 0's share before
                  Fraction(fit, unseen - held)):         # the total taken out, not the fitting ones
        assert exercise.check(str(wrong)).status == "not yet", wrong


def test_10_exercise_1_counts_in_the_position_it_is_given() -> None:
    game = greedy("shithead", 7, lambda g: g.state.phase != "setup" and g.top is not None and g.move_count > 12
                  and len(g.state.hands[1]) > 0)
    right = share_after_seeing_seat_1(game)
    assert right != share_after_seeing_seat_1(position())
    assert lesson("10").exercise(1, game=game).check(str(right)).is_right


@pytest.mark.parametrize("seed", [14, 3])
def test_10_exercise_2_the_students_average_is_right(seed: int) -> None:
    """The route the question sets: seat 1's answer in each of 2000 worlds redealt from the table's view,
    averaged, typed with four decimals (any seed)."""
    game = later()
    rng = np.random.default_rng(seed)
    average = np.mean([float(prob.shithead_blind_fits(game.resample(None, rng), 1)) for _ in range(2000)])
    assert lesson("10").exercise(2, game=game).check(f"{average:.4f}").is_right


def test_10_exercise_2_rejects_the_plausible_wrong_answers() -> None:
    """Seat 1's own answer (also what worlds redealt from seat 1's view give: there seat 1's answer never
    changes), seat 0's own, and the table's answer in lesson 10's first position."""
    game = later()
    exercise = lesson("10").exercise(2, game=game)
    rng = np.random.default_rng(0)
    own_view = {float(prob.shithead_blind_fits(game.resample(1, rng), 1)) for _ in range(20)}
    seat_1 = float(prob.shithead_blind_fits(game, 1))
    assert max(abs(v - seat_1) for v in own_view) < 1e-12
    for wrong in (seat_1, float(prob.shithead_blind_fits(game, 0)),
                  float(prob.shithead_blind_fits(position(), None))):
        assert exercise.check(f"{wrong:.4f}").status == "not yet", wrong


def test_10_total_probability_needs_nested_views() -> None:
    """Lesson 10's teacher's note: seat 1's answers averaged over worlds redealt from *seat 0's* view do not give
    seat 0's answer (seat 1 does not see seat 0's hand); over worlds redealt from the table's view they give the
    table's."""
    game = position()
    rng = np.random.default_rng(5)
    from_seat_0 = np.array([float(prob.shithead_blind_fits(game.resample(0, rng), 1)) for _ in range(1000)])
    se = from_seat_0.std(ddof=1) / np.sqrt(from_seat_0.size)
    assert abs(from_seat_0.mean() - float(prob.shithead_blind_fits(game, 0))) > 10 * se


def test_11_exercise_1_is_bayes_rule_by_the_formula() -> None:
    """P(a 5 | no card fits) = 1 - C(U-F-k, h) / C(U-F, h), with every h-card hand equally likely beforehand; the
    prior 1 - C(U-k, h) / C(U, h) (the pick-up ignored) is not yet."""
    game = position()
    pool = game.unseen_cards(None)
    u, f, h = len(pool), sum(map(game.fits, pool)), len(game.state.hands[0])
    k = sum(card.rank == cardlab.Rank.FIVE for card in pool)
    assert not game.fits(next(card for card in pool if card.rank == cardlab.Rank.FIVE))
    bayes = 1 - Fraction(comb(u - f - k, h), comb(u - f, h))
    prior = 1 - Fraction(comb(u - k, h), comb(u, h))
    exercise = lesson("11").exercise(1, game=game)
    assert exercise.check(f"{float(bayes):.4f}").is_right and exercise.check(str(bayes)).is_right
    assert exercise.check(f"{float(prior):.4f}").status == "not yet"


def test_11_exercise_2_counts_the_remembered_pile() -> None:
    """At the moment the stock is down to a completed pile and nobody has drawn from it: the share of that pile's
    cards a centre pile can take (Kings wild); the same count without the Kings, and the forgetful share, are not
    yet. (Lesson 11's seed 13 and the next seeds whose pile is whole when it comes up: in others a draw of several
    cards ran into it.)"""
    tried = 0
    for seed in range(13, 40):
        game = greedy("spite-and-malice", seed, lambda g: g.observe(None).stock_layers[0][0] != 0)
        size = game.observe(None).stock_layers[0][2]
        if size != 12:
            continue
        tried += 1
        pile = game.state.stock[-size:]
        fits = [card for card in pile if game.can_play_on_centre(card)]
        right = Fraction(len(fits), size)
        exercise = lesson("11").exercise(2, game=game)
        assert exercise.check(str(right)).is_right, (seed, right)
        kings = sum(card.rank == cardlab.Rank.KING for card in fits)
        unseen = game.unseen_cards(None)
        forgetful = Fraction(sum(map(game.can_play_on_centre, unseen)), len(unseen))
        wrongs = [forgetful] + ([Fraction(len(fits) - kings, size)] if kings else [])
        for wrong in wrongs:
            if abs(wrong - right) > Fraction(1, 20):
                assert exercise.check(str(wrong)).status == "not yet", (seed, wrong)
    assert tried >= 3


def test_11_the_greedy_set_up_is_the_main_cause_of_the_king_shortfall() -> None:
    """Lesson 11's teacher's note (section 1): the same 2000 games as the lesson, but the set-up cards chosen as the
    uninformed player chooses them (random hand cards, as the chance law assumes) and greedy play after it. Bayes'
    King answer after the first pick-up on an Ace is then not clearly off (|z| < 3), and real hands fall short of it
    by less than 3.5 points (with the greedy set-up the lesson asserts more than 5)."""
    chances, held = [], []
    for seed in range(2000):
        game = cardlab.new_game("shithead", players=2, seed=seed)
        bot = make_policy("greedy", "shithead", np.random.default_rng(seed))
        set_up = make_policy("uninformed", "shithead", np.random.default_rng([seed, 1]))
        while not game.is_over:
            move = choose(set_up if game.state.phase == "setup" else bot, game)
            hand = game.state.hands[game.current_player]
            if move.text == "pick up" and game.top.rank == cardlab.Rank.ACE and hand \
                    and not game.state.known[game.current_player]:
                unseen = game.unseen_cards(None)
                u, f, h = len(unseen), sum(map(game.fits, unseen)), len(hand)
                k = sum(card.rank == cardlab.Rank.KING for card in unseen)
                chances.append(1 - comb(u - f - k, h) / comb(u - f, h))
                held.append(float(any(card.rank == cardlab.Rank.KING for card in hand)))
                break
            game.play(move)
    p, y = np.array(chances), np.array(held)
    z = (y.sum() - p.sum()) / np.sqrt(np.sum(p * (1 - p)))
    assert y.size > 1000 and abs(z) < 3 and 0 < p.mean() - y.mean() < 0.035, (y.size, z, p.mean(), y.mean())
