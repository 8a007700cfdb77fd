"""nonsmooth: the verified reference for the numerical methods that compute contact forces
in rigid-body simulation, from Python.

Build a problem from NumPy arrays (``Problem.local``, ``Problem.global_form``,
``Problem.lcp``, ``Problem.generic`` for blocks of equality, unilateral, interval and
elliptic-contact rows) or read one from any file the library reads (``Problem.read``); solve it
with any method of the library's registry (``solve``, ``methods()``); judge an answer,
overall and per contact (``check``), or every step of a rollout (``check_trajectory``),
kept in one ``.npz`` file (``write_rollout``, ``read_rollout``).

Rows come in triples ``[n, t1, t2]`` per contact; a positive normal velocity separates.
At the velocity level ``r`` is an impulse (N s) and ``u`` a velocity (m/s).

The MuJoCo bridge is the submodule ``nonsmooth.mujoco`` (imported on demand; it needs the
``mujoco`` package).
"""

from ._native import (
    Answer,
    CheckReport,
    FormatError,
    OptionError,
    Problem,
    ProblemError,
    ProblemWarning,
    Result,
    SolveError,
    __version__,
    check,
    methods,
    read_rollout,
    solve,
    write_rollout,
)
from .trajectory import TrajectoryReport, check_trajectory

__all__ = [
    "Answer",
    "CheckReport",
    "FormatError",
    "OptionError",
    "Problem",
    "ProblemError",
    "ProblemWarning",
    "Result",
    "SolveError",
    "__version__",
    "check",
    "methods",
    "read_rollout",
    "solve",
    "write_rollout",
    "TrajectoryReport",
    "check_trajectory",
]
