"""Building blocks the games use, below the games and above the engine: the chance-law protocol and its
laws (:mod:`.law`), the law of hands read through their play (:mod:`.hands_law`), the compiled kernels'
generator and helpers (:mod:`.jitkit`), intervals (:mod:`.stats`) and the panels' quantities and anytime
estimates (:mod:`.estimates`).

Nothing here imports a game or an analysis (``cardlab.sim``, the players, the view); a test of the import graph
checks it (``tests/test_structure.py``).
"""
