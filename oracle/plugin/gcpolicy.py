"""The cyclic garbage collector during a run: paused while the suite is checked and
collected, back on (with what was built frozen out of its sight) when the tests start, and
as it was at the end.

Its own object, held by the run (``OracleRun.gc``), because it is a policy about the process,
not about the scenarios: the plugin's hooks say when (``pytest_configure`` pauses it,
``OracleRun.pytest_runtestloop`` resumes it, ``pytest_unconfigure`` thaws it), this says how.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass

TEST_GC_THRESHOLD = 10_000
"""The garbage collector's first threshold while the tests run (Python's default is 700).
Each scenario leaves its reports and verdict behind (about 80 tracked objects) and makes
little cyclic garbage, so at 700 the collector ran about 1,900 times in a 10,400-test
suite, 0.4 s, and its full passes over everything kept 1.7 s more; at 10,000 it ran 140
times (0.66 s in all)."""


@dataclass(eq=False)
class GcPolicy:
    """Whether this run switched the collector off (``pause``), whether it froze what was
    made before the tests (``resume``), and the threshold it found."""

    paused: bool = False
    frozen: bool = False
    threshold: tuple[int, ...] = ()

    def pause(self) -> None:
        """Switch the cyclic garbage collector off until the tests start.

        Checking and collecting a suite builds objects that live for the whole run (a
        5,000-scenario suite: millions), and the collector walked them over and over as
        they were made: a third of the time before the first test. Nothing collected then
        is garbage worth finding early; ``resume`` switches it back on."""
        if gc.isenabled():
            gc.disable()
            self.paused = True

    def resume(self, freeze: bool = False) -> None:
        """Switch the collector back on; with ``freeze``, first move every object made so
        far (the session, its items, the parsed suite) out of its sight (``gc.freeze``).

        Why freeze: those objects live for the whole run, yet each full collection during
        the tests walked all of them again. In a 5,000-scenario suite (10,400 tests) that
        was 4 s of garbage collection in a 34 s run, 3 s of it in four full passes.
        ``thaw`` hands them back at the end, so an in-process run (pytester) leaves no
        frozen garbage behind."""
        if self.paused:
            self.paused = False
            if freeze:
                gc.freeze()
                self.frozen = True
                self.threshold = gc.get_threshold()
                gc.set_threshold(max(TEST_GC_THRESHOLD, self.threshold[0]),
                                 *self.threshold[1:])
            gc.enable()

    def thaw(self) -> None:
        """Undo ``resume``'s freeze (and a pause that was never resumed)."""
        self.resume()
        if self.frozen:
            self.frozen = False
            gc.unfreeze()
            gc.set_threshold(*self.threshold)
