from ._native import (
    Answer as Answer,
    CheckReport as CheckReport,
    FormatError as FormatError,
    OptionError as OptionError,
    Problem as Problem,
    ProblemError as ProblemError,
    ProblemWarning as ProblemWarning,
    Result as Result,
    SolveError as SolveError,
    __version__ as __version__,
    check as check,
    methods as methods,
    read_rollout as read_rollout,
    solve as solve,
    write_rollout as write_rollout,
)
from .trajectory import TrajectoryReport as TrajectoryReport, check_trajectory as check_trajectory
