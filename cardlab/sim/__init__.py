"""Simulation, Monte Carlo estimates with intervals, and exact probabilities."""
