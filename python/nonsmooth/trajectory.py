"""Checking every step of a rollout: ``check_trajectory``.

The command line does the same for a folder of problem files, a JSON Lines file or a
rollout archive (``nonsmooth check DIR``, ``nonsmooth check rollout.npz``); this is the
in-memory version for a rollout in Python, which also reads a rollout archive
(``write_rollout`` writes one: every step in one ``.npz`` file, sparse matrices as CSR).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence, Tuple

import numpy as np

import os

from ._native import CheckReport, Problem, check, read_rollout

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
    the tolerance. ``reports`` holds every step's full ``CheckReport``. ``labels`` holds,
    per step, the label of that worst contact when the step's problem has labels (one per
    contact, as ``nonsmooth.mujoco.extract`` and labelled files give them), else ``""``.
    """

    steps: np.ndarray
    reports: list = field(repr=False)
    tol: float = 1e-8
    labels: list = field(default_factory=list)

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
        """The per-step summary as text, the same columns as ``nonsmooth check DIR``, and
        the worst contact's label where the problems have labels."""
        labelled = any(self.labels)
        head = f"{'step':>5} {'contacts':>8} {'error':>9} {'distance':>9} {'worst':>6}  verdict"
        lines = [head + ("       label" if labelled else "")]
        for s, lab in zip(self.steps, self.labels or [""] * len(self.steps)):
            d = "-" if np.isnan(s["distance"]) else f"{s['distance']:.2e}"
            w = "-" if s["worst_contact"] < 0 else str(s["worst_contact"])
            v = "consistent" if s["consistent"] else "inconsistent"
            row = f"{s['step']:>5} {s['contacts']:>8} {s['error']:>9.2e} {d:>9} {w:>6}  {v:<12}"
            lines.append((row + (f" {lab}" if labelled else "")).rstrip())
        return "\n".join(lines)

    def plot(self, path=None):
        """The rollout at a glance, as ``nonsmooth check DIR --plot`` draws it: each step's
        error (Siconos 4.4 normalisation) and relative distance to the reference on a
        logarithmic axis, the tolerance as a line, inconsistent steps marked. Returns the
        matplotlib ``Figure``; with ``path``, also saves it there (the format from the
        suffix: ``.svg``, ``.png``, ``.pdf``).

        Needs matplotlib (``pip install matplotlib``, or the ``plot`` extra); raises
        ``ImportError`` saying so when it is missing. Zeros and NaN (no reference) are not
        drawn on the logarithmic axis.
        """
        try:
            import matplotlib

            if path is not None:
                matplotlib.use("Agg", force=False)
            import matplotlib.pyplot as plt
        except ImportError as e:  # an optional dependency: say how to get it
            raise ImportError(
                "TrajectoryReport.plot needs matplotlib: pip install matplotlib "
                "(or the package's extra: nonsmooth[plot])") from e
        s = self.steps
        fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
        pos = lambda v: np.where(np.asarray(v, dtype=float) > 0, v, np.nan)  # noqa: E731
        ax.semilogy(s["step"], pos(s["error"]), "o-", ms=3, label="error")
        if not np.all(np.isnan(s["relative_distance"])):
            ax.semilogy(s["step"], pos(s["relative_distance"]), "s--", ms=3,
                        label="relative distance to the reference")
        ax.axhline(self.tol, color="gray", lw=0.8, ls=":", label=f"tolerance {self.tol:g}")
        bad = ~s["consistent"]
        if np.any(bad):
            ax.semilogy(s["step"][bad], pos(s["error"][bad]), "x", color="red", ms=7,
                        label="inconsistent")
        ax.set_xlabel("step")
        ax.set_ylabel("error, relative distance")
        ax.legend(fontsize="small", loc="best")
        if path is not None:
            fig.savefig(path)
        return fig


def check_trajectory(
    steps: "Iterable[Tuple[Problem, Any]] | str | os.PathLike[str]",
    tol: float = 1e-8,
    kind: Optional[str] = None,
    reference: bool = True,
    by: str = "residual",
    workers: int = 1,
) -> TrajectoryReport:
    """Checks each ``(problem, r)`` of a rollout with ``check`` and summarises the steps.

    ``steps``: an iterable of pairs, a problem and the engine's answer at that step (an
    array of ``problem.dim`` numbers); or the path of a rollout archive
    (``write_rollout``), whose steps carry their answers (a step without one is a
    ``ValueError`` naming it). ``tol``, ``kind``, ``reference`` and ``by`` are passed to
    ``check`` for every step. ``workers`` (``>= 1``) checks that many steps at once in
    threads (``check`` releases the GIL while it works); with more than one, the whole
    iterable is taken first. The report is the same whatever ``workers``. Errors of
    ``check`` (a wrong length, NaN in ``r``) are raised naming the step (the first such
    step in order).
    """
    if not (isinstance(workers, int) and workers >= 1):
        raise ValueError(f"workers is an integer >= 1, not {workers!r}")
    if isinstance(steps, (str, os.PathLike)):
        problems = read_rollout(steps)
        missing = [i for i, p in enumerate(problems) if p.answer is None]
        if missing:
            raise ValueError(f"{os.fspath(steps)}: step {missing[0]} carries no answer "
                             f"({len(missing)} of {len(problems)} steps without one)")
        steps = [(p, p.answer.r) for p in problems]

    def one(i: int, problem: Problem, r: Any) -> CheckReport:
        try:
            return check(problem, r, tol=tol, kind=kind, reference=reference, by=by)
        except Exception as e:  # name the step, keep the exception's type
            raise type(e)(f"step {i}: {e}") from e

    if workers == 1:
        done = ((problem, one(i, problem, r)) for i, (problem, r) in enumerate(steps))
    else:
        from concurrent.futures import ThreadPoolExecutor

        pairs = list(steps)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(one, i, p, r) for i, (p, r) in enumerate(pairs)]
            done = [(p, f.result()) for (p, _), f in zip(pairs, futures)]
    rows = []
    reports: list = []
    labels: list = []
    for i, (problem, rep) in enumerate(done):
        reports.append(rep)
        ref = rep.reference or {}
        dist = ref.get("distance")
        rel = ref.get("relative_distance")
        worst = ref.get("worst_contact") if dist is not None else None
        if worst is None and len(rep.contacts):
            worst = int(np.argmax(np.asarray(rep.contacts["error"])))
        names = list(problem.labels)
        labels.append(names[int(worst)] if worst is not None and 0 <= worst < len(names) else "")
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
    return TrajectoryReport(np.array(rows, dtype=STEP_DTYPE), reports, tol, labels)


__all__: Sequence[str] = ["STEP_DTYPE", "TrajectoryReport", "check_trajectory"]
