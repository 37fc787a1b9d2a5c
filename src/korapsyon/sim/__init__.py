"""The balance simulator: many bot games in parallel, with statistics and charts.

* :mod:`.runner` - one game from a seed, and many games on all cores, deterministically;
* :mod:`.stats` - per-player-count statistics (win rates with 95% intervals, win reasons,
  game length, ability use);
* :mod:`.chart` - the PNG chart.
"""
