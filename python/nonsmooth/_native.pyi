"""Type stubs of the native module nonsmooth._native (Rust, PyO3)."""

import os
from typing import Any, Literal, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

ArrayLike = npt.ArrayLike
FloatArray = npt.NDArray[np.float64]
PathLike = Union[str, "os.PathLike[str]"]
Kind = Literal["coulomb", "ccp"]
# A dense 2-D array-like, or a SciPy sparse matrix/array (anything with .tocsr()).
MatrixLike = Any
# A block of a generic mechanical problem: "equality", "unilateral", ("interval", lo, hi),
# ("contact", [mu1, .., muk]) (1 + k rows [n, t1, .., tk]), or the dict forms
# {"type": "interval", "lo": .., "hi": ..}, {"type": "contact", "mu": [..]}.
Block = Union[
    Literal["equality", "unilateral"],
    tuple[Literal["interval"], float, float],
    tuple[Literal["contact"], Sequence[float]],
    Mapping[str, Any],
]

class ProblemError(ValueError):
    """The data do not make a valid problem, or a solver refused the problem."""

class SolveError(RuntimeError):
    """A solve that failed without an answer (diverged, ray termination, singular)."""

    status: str
    r: FloatArray
    method: str

class FormatError(ValueError):
    """A file that cannot be read or written as a problem."""

class OptionError(ValueError):
    """An unknown method, option, or an option value of the wrong type or range."""

class ProblemWarning(UserWarning):
    """Doubtful data in a valid problem (a law assumed, a non-symmetric W)."""

class Answer:
    """An engine's answer carried with a problem."""

    @property
    def source(self) -> str: ...
    @property
    def r(self) -> FloatArray:
        """The reaction, shape (dim,)."""
    @property
    def u(self) -> Optional[FloatArray]:
        """The velocity the engine reported, shape (dim,), or None."""

class Problem:
    """A contact problem: local (fc3d), global (gfc3d), LCP, boxed LCP or generic
    mechanical (gmp)."""

    @staticmethod
    def local(
        W: MatrixLike,
        q: ArrayLike,
        mu: Union[float, ArrayLike],
        kind: Kind = "coulomb",
        *,
        labels: Optional[Sequence[str]] = None,
        answer: Union[None, ArrayLike, Mapping[str, Any]] = None,
        name: Optional[str] = None,
        source: Optional[str] = None,
        description: Optional[str] = None,
        units: Optional[Mapping[str, str]] = None,
    ) -> "Problem":
        """u = W r + q; W (3nc, 3nc) dense or SciPy sparse, q (3nc,), mu (nc,) or a number."""
    @staticmethod
    def global_form(
        M: MatrixLike,
        H: MatrixLike,
        q: ArrayLike,
        b: ArrayLike,
        mu: Union[float, ArrayLike],
        kind: Kind = "coulomb",
        *,
        labels: Optional[Sequence[str]] = None,
        answer: Union[None, ArrayLike, Mapping[str, Any]] = None,
        name: Optional[str] = None,
        source: Optional[str] = None,
        description: Optional[str] = None,
        units: Optional[Mapping[str, str]] = None,
    ) -> "Problem":
        """M v = q + H r, u = H^T v + b; M (ndof, ndof) SPD, H (ndof, 3nc), q (ndof,), b (3nc,)."""
    @staticmethod
    def generic(
        W: MatrixLike,
        q: ArrayLike,
        blocks: Sequence[Block],
        kind: Kind = "ccp",
        *,
        labels: Optional[Sequence[str]] = None,
        answer: Union[None, ArrayLike, Mapping[str, Any]] = None,
        name: Optional[str] = None,
        source: Optional[str] = None,
        description: Optional[str] = None,
        units: Optional[Mapping[str, str]] = None,
    ) -> "Problem":
        """u = W r + q with per-block laws; W (n, n) dense or SciPy sparse, q (n,), the
        blocks' rows adding up to n; labels one per block. ProblemError for bad data."""
    @staticmethod
    def lcp(
        A: MatrixLike,
        b: ArrayLike,
        *,
        pyramid: Optional[Sequence[Tuple[int, Sequence[float]]]] = None,
        labels: Optional[Sequence[str]] = None,
        answer: Optional[Any] = None,
        name: Optional[str] = None,
        source: Optional[str] = None,
        description: Optional[str] = None,
        units: Optional[Mapping[str, str]] = None,
    ) -> "Problem":
        """w = A x + b, 0 <= x _|_ w >= 0; A (n, n), b (n,); pyramid: (first_row, [mu..])
        per contact when x are pyramid-edge forces (judged as contact-frame forces)."""
    @staticmethod
    def read(path: PathLike) -> "Problem":
        """Any file the library reads (JSON, Siconos .dat, MuJoCo JSON, NumPy folder, OpenTissue)."""
    def write(self, path: PathLike, format: Optional[Literal["json", "npz", "npz-compressed", "siconos", "numpy"]] = None) -> None:
        """Writes the problem; the format by name, or by the path (.json, .npz, .dat, else a NumPy folder)."""
    def with_kind(self, kind: Kind) -> "Problem": ...
    def to_local(self) -> "Problem": ...
    def velocity(self, r: ArrayLike) -> FloatArray:
        """u at r, shape (dim,)."""
    @property
    def type(self) -> Literal["fc3d", "gfc3d", "lcp", "boxed-lcp", "gmp"]: ...
    @property
    def kind(self) -> Optional[Kind]: ...
    @property
    def contacts(self) -> int:
        """Contacts (fc3d, gfc3d; an LCP's pyramid contacts, else 0 for LCPs), blocks (gmp)."""
    @property
    def dim(self) -> int: ...
    @property
    def dofs(self) -> Optional[int]: ...
    @property
    def W(self) -> Any:
        """(3nc, 3nc) ((n, n) for gmp): NumPy array, or scipy.sparse.csr_array when stored
        sparse."""
    @property
    def M(self) -> Any: ...
    @property
    def H(self) -> Any: ...
    @property
    def A(self) -> Any: ...
    @property
    def q(self) -> FloatArray: ...
    @property
    def b(self) -> FloatArray: ...
    @property
    def mu(self) -> FloatArray: ...
    @property
    def blocks(self) -> list[Any]:
        """gmp only: the blocks in row order, "equality", "unilateral",
        ("interval", lo, hi), ("contact", [mu1, ..])."""
    @property
    def name(self) -> str: ...
    @property
    def format(self) -> Optional[str]: ...
    @property
    def path(self) -> Optional[str]: ...
    @property
    def labels(self) -> list[str]: ...
    @property
    def answer(self) -> Optional[Answer]: ...
    @property
    def warm_start(self) -> Optional[FloatArray]: ...
    @property
    def provenance(self) -> dict[str, Any]: ...
    @property
    def warnings(self) -> list[str]: ...

class Result:
    """What a solve produced."""

    @property
    def r(self) -> FloatArray:
        """The answer, shape (dim,)."""
    @property
    def u(self) -> FloatArray:
        """The velocity at r, shape (dim,)."""
    @property
    def v(self) -> Optional[FloatArray]:
        """A global problem's generalised velocity, shape (ndof,)."""
    @property
    def status(self) -> Literal["converged", "max-iterations", "stopped", "stalled"]: ...
    @property
    def converged(self) -> bool: ...
    @property
    def iterations(self) -> int: ...
    @property
    def error(self) -> float:
        """Siconos 4.4 normalisation."""
    @property
    def error_q(self) -> float:
        """||q||-scaled normalisation (Siconos <= 4.3, the 2018 benchmark)."""
    @property
    def error_abs(self) -> float: ...
    @property
    def error_normal(self) -> float: ...
    @property
    def error_scaled(self) -> float:
        """The error against the problem's own scale (the verdict requires it too)."""
    @property
    def time_s(self) -> float: ...
    @property
    def stats(self) -> Any: ...
    @property
    def history(self) -> Optional[dict[str, npt.NDArray[Any]]]:
        """iteration (int64), error, error_q, error_abs, time (seconds)."""
    @property
    def method(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def kind(self) -> Optional[Kind]: ...
    @property
    def message(self) -> Optional[str]: ...
    def __bool__(self) -> bool: ...

class CheckReport:
    """The judgement of an answer, as `nonsmooth check --json` gives it.

    `contacts` is a NumPy structured array, one record per contact, with the fields
    contact (int64), label (unicode), r_n, u_n, slip, penetration, cone_violation,
    dual_violation, complementarity, dissipation, error, distance (float64; NaN without a
    reference).
    """

    contacts: npt.NDArray[np.void]
    verdict: Literal["consistent", "inconsistent"]
    grade: str
    type: Literal["fc3d", "gfc3d", "lcp", "boxed-lcp"]
    kind: Optional[Kind]
    tol: float
    error: float
    error_q: float
    error_abs: float
    error_normal: float
    error_scaled: float
    level: Literal["velocity", "acceleration", "unknown"]
    force_unit: Optional[str]
    penetration_name: str
    max_penetration: Optional[float]
    max_cone_violation: Optional[float]
    max_complementarity: Optional[float]
    min_dissipation: Optional[float]
    other_law: Optional[dict[str, Any]]
    note: Optional[str]
    reference: Optional[dict[str, Any]]
    @property
    def consistent(self) -> bool: ...
    def to_dict(self) -> dict[str, Any]: ...

def solve(
    problem: Problem,
    method: str = "auto",
    tol: float = 1e-8,
    max_iter: Optional[int] = None,
    warm_start: Optional[ArrayLike] = None,
    history: bool = False,
    measure: Literal["rel", "rel-q", "abs"] = "rel",
    time_limit: Optional[float] = None,
    **options: Any,
) -> Result: ...
def check(
    problem: Problem,
    r: ArrayLike,
    tol: float = 1e-8,
    kind: Optional[Kind] = None,
    reference: bool = True,
    by: Literal["residual", "distance", "both"] = "residual",
) -> CheckReport: ...
def methods() -> list[dict[str, Any]]: ...
def write_rollout(path: PathLike, problems: Sequence[Problem], compress: bool = False) -> None:
    """Every step (a Problem with its answer) into one .npz rollout archive."""
def read_rollout(path: PathLike) -> list[Problem]:
    """The steps of a rollout archive, each a Problem with its answer."""
