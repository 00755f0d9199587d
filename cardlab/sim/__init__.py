"""Analyses over any registered game: simulate, shards, Monte Carlo and exact probabilities for the panels, move
values, game review and tournaments. The building blocks these and the games share live below the games, in
:mod:`cardlab.chance`."""
