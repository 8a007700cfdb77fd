"""Checking every step of a rollout: ``check_trajectory``.

The command line does the same for a folder of problem files or a JSON Lines file
(``nonsmooth check DIR``); this is the in-memory version for a rollout in Python, where
writing one file per step would be the only other way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence, Tuple

import numpy as np

from ._native import CheckReport, Problem, check

#: The fields of one step's row, in order (see ``TrajectoryReport.steps``).
STEP_DTYPE = np.dtype(
    [
        ("step", np.int64),
        ("contacts", np.int64),
        ("error", np.float64),
        ("distance", np.float64),
        ("relative_distance", np.float64),
        ("worst_contact", np.int64),
        ("consistent", np.bool_),
    ]
)


@dataclass
class TrajectoryReport:
    """What ``check_trajectory`` found.

    ``steps`` is a NumPy structured array with one row per step and the fields of
    ``STEP_DTYPE``: the step's index, its number of contacts, its error (Siconos 4.4
    normalisation), its distance ``‖r - r*‖`` to the reference solution and that distance
    relative to ``‖r*‖`` (NaN where no reference was found or it was not asked for), the
    contact farthest from the reference by the per-contact distance (-1 if none; by the
    per-contact error when there is no distance) and whether the step is consistent at
    the tolerance. ``reports`` holds every step's full ``CheckReport``.
    """

    steps: np.ndarray
    reports: list = field(repr=False)
    tol: float = 1e-8

    @property
    def consistent(self) -> bool:
        """Every step consistent."""
        return bool(np.all(self.steps["consistent"]))

    def worst(self, n: int = 3, by: str = "error") -> np.ndarray:
        """The ``n`` steps with the largest ``by`` ("error" or "distance"), largest first
        (NaN distances last)."""
        if by not in ("error", "distance"):
            raise ValueError(f'by is "error" or "distance", not {by!r}')
        key = np.nan_to_num(self.steps[by], nan=-np.inf)
        order = np.argsort(-key, kind="stable")
        return self.steps[order[:n]]

    def table(self) -> str:
        """The per-step summary as text, the same columns as ``nonsmooth check DIR``."""
        lines = [f"{'step':>5} {'contacts':>8} {'error':>9} {'distance':>9} {'worst':>6}  verdict"]
        for s in self.steps:
            d = "-" if np.isnan(s["distance"]) else f"{s['distance']:.2e}"
            w = "-" if s["worst_contact"] < 0 else str(s["worst_contact"])
            v = "consistent" if s["consistent"] else "inconsistent"
            lines.append(f"{s['step']:>5} {s['contacts']:>8} {s['error']:>9.2e} {d:>9} {w:>6}  {v}")
        return "\n".join(lines)


def check_trajectory(
    steps: Iterable[Tuple[Problem, Any]],
    tol: float = 1e-8,
    kind: Optional[str] = None,
    reference: bool = True,
    by: str = "residual",
) -> TrajectoryReport:
    """Checks each ``(problem, r)`` of a rollout with ``check`` and summarises the steps.

    ``steps``: an iterable of pairs, a problem and the engine's answer at that step (an
    array of ``problem.dim`` numbers). ``tol``, ``kind``, ``reference`` and ``by`` are passed to
    ``check`` for every step. Errors of ``check`` (a wrong length, NaN in ``r``) are raised
    naming the step.
    """
    rows = []
    reports: list = []
    for i, (problem, r) in enumerate(steps):
        try:
            rep: CheckReport = check(problem, r, tol=tol, kind=kind, reference=reference, by=by)
        except Exception as e:  # name the step, keep the exception's type
            raise type(e)(f"step {i}: {e}") from e
        reports.append(rep)
        ref = rep.reference or {}
        dist = ref.get("distance")
        rel = ref.get("relative_distance")
        worst = ref.get("worst_contact") if dist is not None else None
        if worst is None and len(rep.contacts):
            worst = int(np.argmax(np.asarray(rep.contacts["error"])))
        rows.append(
            (
                i,
                len(rep.contacts),
                rep.error,
                np.nan if dist is None else dist,
                np.nan if rel is None else rel,
                -1 if worst is None else int(worst),
                rep.consistent,
            )
        )
    return TrajectoryReport(np.array(rows, dtype=STEP_DTYPE), reports, tol)


__all__: Sequence[str] = ["STEP_DTYPE", "TrajectoryReport", "check_trajectory"]
