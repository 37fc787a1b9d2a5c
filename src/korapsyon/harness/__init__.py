"""Harnesses that run the server under stress and measure it (benchmarks and attacks); they
are tools for the project's engineers, not part of a game."""
