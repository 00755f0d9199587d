"""``python -m cardlab`` runs the ``cardlab`` command (see :mod:`cardlab.cli`)."""

from cardlab.cli import main

if __name__ == "__main__":  # worker processes started with "spawn" import this module too
    raise SystemExit(main())
