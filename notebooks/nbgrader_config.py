"""nbgrader's configuration for a course built on the cardlab lessons (copy it into the course's root folder).

The lessons' solution cells follow nbgrader's conventions (``notebooks/student.py``). nbgrader's default stub for a
removed solution raises ``NotImplementedError``, which would stop a student's top-to-bottom run at the first
exercise; this stub is a comment (the same as the one in ``make lab``'s student copies), so a released lesson runs
to the end with blank answers, and each exercise's self-check says that no answer was typed yet.

    nbgrader generate_assignment LESSON --no-db     # in the course folder, with source/LESSON/NAME.ipynb

Grading: each exercise's graded test cell holds its check between ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN
TESTS``; ``nbgrader generate_assignment LESSON`` (with the gradebook) records them, the release leaves them out, and
``nbgrader autograde LESSON`` puts them back and runs them on each submission. Some lessons run cells for a few
minutes (simulations, play-outs), longer than nbgrader's default of 30 s per cell, hence the timeout below.
"""

c = get_config()  # noqa: F821  (nbgrader provides get_config when it loads this file)
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE: write your own code, then run the cell"}
c.Execute.timeout = 900   # seconds per cell when autograding (the longest lesson cells run a few minutes)
