"""The contact problem MuJoCo solved, rebuilt from ``mjData``, with MuJoCo's answer.

``extract(model, data)`` reads the constraint stage of the last ``mj_forward`` or
``mj_step`` and returns an :class:`Extracted`: the matrix ``W``, the vector ``q``, the
friction coefficients ``mu``, the cone, MuJoCo's own answer ``r`` (and ``u = W r + q``),
one label per contact, units and warnings. ``.to_json(path)`` writes a file that
``nonsmooth check`` reads (for the soft view of contacts the MuJoCo export format of
``src/io/mujoco.rs``, else the project's own format); ``.problem()`` builds a
``nonsmooth.Problem`` when the native package is installed. Torsional and rolling
friction, anisotropic cones and elliptic cones mixed with other constraint rows make a
generic mechanical problem (``kind == "gmp"``, ``.blocks``).

Pure Python: needs ``numpy`` and ``mujoco`` (imported by the caller, who passes the
``MjModel`` and ``MjData``). Source of the formulas: MuJoCo's documentation, chapter
*Computation*, sections *Dual problem* (the constraint forces solve
``min 1/2 f'(A + R) f + f'(a_u - a_ref)`` over ``Omega``, ``A = J M^-1 J'``) and
*Friction cones* (elliptic ``f_1 >= 0, f_1^2 >= sum f_i^2 / mu_(i-1)^2``; pyramidal edges
``f >= 0``).

Which state is read
-------------------
Every array used (``efc_J``, ``efc_R``, ``efc_b``, ``efc_aref``, ``efc_vel``,
``efc_force``, ``efc_type``, ``efc_frictionloss``, ``contact``, and the factorisation of
``M`` used by ``mj_solveM``) is written by the constraint stage of ``mj_forward``, which
``mj_step`` runs before it integrates. ``mj_step`` then advances ``qpos``/``qvel`` but
leaves those arrays as they were: after ``mj_step`` you get the problem of the step just
taken (at the *previous* ``qpos``/``qvel``), after ``mj_forward`` the problem at the
current state. ``data.qvel`` and ``data.qpos`` are never read (the velocity enters through
``efc_vel = J v``), so both are consistent; do not change ``qpos``/``qvel`` between the
call and ``extract`` without calling ``mj_forward`` again.

Views
-----
* ``view="soft"`` (default): the problem MuJoCo's solver solved, acceleration level.
  ``W = J M^-1 J' + diag(efc_R)`` (``M^-1`` applied with ``mj_solveM``), ``q = efc_b``
  (``= J qacc_smooth - efc_aref``, m/s^2 for translational rows), answer
  ``r = efc_force`` (N), ``u = W r + q``. Elliptic cone: a CCP (MuJoCo solves the convex
  relaxation, no De Saxce term), 3 rows ``[n, t1, t2]`` per contact. Pyramidal cone: an
  LCP in pyramid-edge forces (4 rows per condim-3 contact, MuJoCo's order
  ``[n+mu t1, n-mu t1, n+mu t2, n-mu t2]``), ``E`` maps them to ``[n, t1, t2]``.
* ``view="hard"``: the same step unregularised at the velocity level, a Coulomb problem:
  ``W = J_c M^-1 J_c'`` (``J_c`` the contact-frame rows ``[n, t1, t2]``), ``q`` the free
  velocity ``J_c v + h J_c qacc_smooth`` (m/s, from ``efc_vel`` and ``efc_b + efc_aref``),
  answer ``r = h f`` (N s, ``f`` the contact-frame force; ``E p`` for the pyramidal cone).
  With the Euler integrator ``W r + q`` is ``J_c`` times the next velocity; other
  integrators add damping/implicit terms this view leaves out (a warning says so).

``impratio`` and ``friction[0]``
--------------------------------
``mu`` is ``contact.friction[0]``, the coefficient of MuJoCo's force cone (condim 4 and 6,
anisotropic cones: ``mu_i = contact.friction[i - 1]`` for tangential row ``i``). ``impratio``
does not change that cone: it divides the regulariser of the friction rows
(elliptic: ``efc_R`` of ``t1, t2`` is ``R_n / impratio``; pyramidal: every edge's
``efc_R`` is divided by ``impratio``), and that is already in ``efc_R``, hence in ``W``.
``contact.mu`` is ``friction[0] / sqrt(impratio)``, the slope of the *rescaled* cone the
primal (Newton/CG) solver works in; it is not a friction coefficient of the forces.
Using it with ``impratio != 1`` gives a cone MuJoCo's answer does not satisfy: a
consistent answer is then judged inconsistent (issue 13). ``tests/test_mujoco.py`` checks
both readings on a sliding box with ``impratio = 10``, ``tests/test_mujoco_generic.py`` on
an anisotropic condim-6 contact (MuJoCo sets the other friction rows' ``efc_R`` so that
``R_i friction[i-1]^2`` is the same for every ``i``; the force cone keeps ``friction``).

Supported, and what is not
--------------------------
* condim 1 (frictionless) and 3, alone or mixed, in both cones. In the elliptic soft and
  in every hard view a condim-1 contact is padded to 3 rows with ``mu = 0``
  (``W_tt = W_nn`` on the diagonal, zeros elsewhere, ``q_t = r_t = 0``), exactly as
  ``src/io/mujoco.rs`` does; a warning names them.
* condim 4 and 6 (torsional, rolling friction) and anisotropic friction
  (``friction[0] != friction[1]``) with the elliptic cone: a generic mechanical problem
  (``kind = "gmp"``, ``nonsmooth.Problem.generic``), one contact block
  ``("contact", [friction[0], .., friction[condim-2]])`` of ``condim`` rows per contact
  (condim-1 contacts are ``"unilateral"`` blocks there, not padded). With the pyramidal
  cone condim 4 and 6 are a ``ValueError`` naming the contact.
* Other constraint rows (``efc_type``: equality, joint/tendon friction loss, joint/tendon
  limits). With the pyramidal cone in the soft view all rows together are exactly a
  boxed LCP (equality ``(-inf, inf)``, limits and edges ``[0, inf)``, friction loss
  ``[-efc_frictionloss, efc_frictionloss]``): ``extra_rows="box"`` (the default there)
  builds it, ``kind = "boxed-lcp"``. With the elliptic cone (or the hard view) the
  default, ``extra_rows="generic"``, makes every row a block of a generic mechanical
  problem in MuJoCo's efc order: ``mjCNSTR_EQUALITY`` -> ``"equality"``, joint and tendon
  limits -> ``"unilateral"``, dof and tendon friction loss -> ``("interval", -fl, fl)``
  (``fl = efc_frictionloss``, N; ``h fl`` in N s in the hard view), contacts -> contact
  blocks; the soft view's law is ``"ccp"``, the hard view's ``"coulomb"``.
  ``extra_rows="fixed"`` instead keeps MuJoCo's forces of those rows fixed and moves them
  into ``q`` (``q_c += W_cx f_x``), with a warning; that problem is MuJoCo's only if its
  forces of those rows were right.
* The result is ``"ccp"``/``"coulomb"`` (fc3d, 3 rows per contact) whenever every contact
  is condim 1 or isotropic condim 3 and no other row is read, as before.
* ``noslip_iterations > 0``: MuJoCo post-processes the friction forces, so its answer is
  not the solution of this (or any single) problem; a warning says so.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Extracted", "extract"]

# mjtConstraint values (mujoco.mjtConstraint), fixed by MuJoCo's API.
_EQUALITY, _FRICTION_DOF, _FRICTION_TENDON = 0, 1, 2
_LIMIT_JOINT, _LIMIT_TENDON = 3, 4
_FRICTIONLESS, _PYRAMIDAL, _ELLIPTIC = 5, 6, 7
_CONTACT_TYPES = (_FRICTIONLESS, _PYRAMIDAL, _ELLIPTIC)
_TYPE_NAMES = {
    _EQUALITY: "equality",
    _FRICTION_DOF: "dof friction loss",
    _FRICTION_TENDON: "tendon friction loss",
    _LIMIT_JOINT: "joint limit",
    _LIMIT_TENDON: "tendon limit",
}


@dataclass
class Extracted:
    """A MuJoCo step as a contact problem, with MuJoCo's answer.

    Attributes
    ----------
    W : ndarray (m, m)
        Delassus operator of the view: soft ``J M^-1 J' + diag(efc_R)`` (acceleration per
        unit force), hard ``J_c M^-1 J_c'`` (velocity per unit impulse).
    q : ndarray (m,)
        Soft: ``efc_b`` (m/s^2); hard: free velocity (m/s).
    mu : ndarray (nc,)
        ``contact.friction[0]`` per contact (0 for condim 1).
    cone : str
        ``"elliptic"`` or ``"pyramidal"`` (``model.opt.cone``).
    kind : str
        ``"ccp"`` (elliptic soft: 3 rows per contact), ``"coulomb"`` (hard view: 3 rows
        per contact), ``"lcp"`` (pyramidal soft: edge rows), ``"boxed-lcp"``
        (pyramidal soft with other constraint rows: those rows first, then the edges) or
        ``"gmp"`` (a generic mechanical problem: condim 4/6 or anisotropic elliptic
        contacts, or other constraint rows with the elliptic cone or the hard view; rows
        in MuJoCo's efc order, see ``blocks`` and ``law``).
    view : str
        ``"soft"`` or ``"hard"``.
    r, u : ndarray (m,)
        MuJoCo's answer (soft: ``efc_force`` in N; hard: ``h f`` in N s) and
        ``u = W r + q``.
    labels : list of str
        One per contact, e.g. ``"box3/floor at (0.10, 0.00, 0.05)"``.
    units : dict
        Units of ``W``, ``q``, ``r`` and ``timestep_s``.
    timestep : float
        ``model.opt.timestep`` (s).
    condims : list of int
        Each contact's condim.
    warnings : list of str
        Everything changed or assumed; empty when nothing was.
    lo, hi : ndarray or None
        Row bounds of a boxed LCP (``kind == "boxed-lcp"``), ``-inf``/``inf`` unbounded.
    E : ndarray (3 nc, m_c) or None
        Pyramidal soft view: maps the edge forces of the contact rows to ``[n, t1, t2]``.
    blocks : list or None
        ``kind == "gmp"``: the blocks in row order, as ``nonsmooth.Problem.generic``
        takes them: ``"equality"``, ``"unilateral"`` (limits, condim-1 contacts),
        ``("interval", lo, hi)`` (friction loss; N, or N s in the hard view),
        ``("contact", [mu_1, .., mu_k])`` (``mu_i = contact.friction[i - 1]``).
    block_labels : list of str or None
        ``kind == "gmp"``: one label per block (contacts as ``labels``, other rows named
        by their joint, tendon or equality).
    law : str or None
        ``kind == "gmp"``: ``"ccp"`` (soft view) or ``"coulomb"`` (hard view).
    """

    W: np.ndarray
    q: np.ndarray
    mu: np.ndarray
    cone: str
    kind: str
    view: str
    r: np.ndarray
    u: np.ndarray
    labels: list
    units: dict
    timestep: float
    condims: list
    warnings: list = field(default_factory=list)
    lo: np.ndarray | None = None
    hi: np.ndarray | None = None
    E: np.ndarray | None = None
    name: str = "mujoco"
    blocks: list | None = None
    block_labels: list | None = None
    law: str | None = None
    _export: dict = field(default_factory=dict, repr=False)

    @property
    def n_contacts(self) -> int:
        return len(self.labels)

    def to_json(self, path) -> None:
        """Writes this problem and MuJoCo's answer for ``nonsmooth check path``, which
        then judges exactly what this object holds.

        Soft view, contacts only: the MuJoCo export format ``src/io/mujoco.rs`` reads
        (keys ``A``, ``b``, ``mu``, ``engine_solution``, ``engine_solution_velocity``,
        the hard view ``A_unregularized``/``b_hard_velocity``/``engine_impulse`` or their
        ``_contact_frame`` forms beside it, ``E_edges_to_contact_force``,
        ``contacts[i].dim``, ``.efc_address``, ``.label``, ``raw.opt``, ``units``).
        The hard view, a boxed LCP, or forces fixed into ``q`` cannot be the main problem
        of that format: the project's own format is written instead
        (:meth:`to_problem_json`). A generic mechanical problem of contacts only (condim 4
        and 6, anisotropic cones; soft view) is written in the MuJoCo format with each
        contact's ``friction``, which the crate reads back as the same gmp problem; one
        with other rows (equality, limits, friction loss) or the hard view is written by
        the native package (``self.problem().write(path, "json")``).
        """
        mujoco_format = (self.view == "soft" and self._export
                         and not self._export.get("_not_mujoco_format"))
        if self.kind == "gmp" and not mujoco_format:
            self.problem().write(path, "json")
            return
        if not mujoco_format:
            self.to_problem_json(path)
            return
        doc = {k: v for k, v in self._export.items() if not k.startswith("_")}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(_jsonable(doc), f)

    def to_problem_json(self, path) -> None:
        """Writes exactly this view in the project's format (``src/io/json.rs``):
        ``"fc3d"`` with law ``ccp``/``coulomb``, ``"lcp"`` or ``"boxed-lcp"``, with the
        labels in ``provenance.labels`` and MuJoCo's answer (a gmp problem: through the
        native package, :meth:`to_json`)."""
        if self.kind == "gmp":
            self.problem().write(path, "json")
            return
        data: dict[str, Any] = {}
        dense = {"storage": "dense", "nrows": len(self.q), "ncols": len(self.q),
                 "rows": self.W.tolist()}
        law = None
        if self.kind in ("ccp", "coulomb"):
            ty, law = "fc3d", self.kind
            data.update(W=dense, q=self.q.tolist(), mu=self.mu.tolist())
        elif self.kind == "lcp":
            ty = "lcp"
            data.update(A=dense, b=self.q.tolist())
        else:
            ty = "boxed-lcp"
            fin = lambda v: None if not math.isfinite(v) else float(v)  # noqa: E731
            data.update(A=dense, b=self.q.tolist(), lo=[fin(v) for v in self.lo],
                        hi=[fin(v) for v in self.hi], dep=[-1] * len(self.q),
                        factor=[0.0] * len(self.q))
        doc = {
            "format": "nonsmooth-problem", "version": 1, "name": self.name, "type": ty,
            "provenance": {"source": self._export.get("_source", "MuJoCo"),
                           "description": "; ".join(self.warnings),
                           "units": {k: str(v) for k, v in self.units.items()},
                           "labels": self._problem_labels(),
                           **({"pyramid": {"contacts": [
                               {"row": row, "mu": mus} for row, mus in self.pyramid()]}}
                              if self.pyramid() is not None else {})},
            "data": data,
            "answer": {"source": self._export.get("_source", "MuJoCo"), "r": self.r.tolist(),
                       "u": self.u.tolist()},
        }
        if law:
            doc["law"] = law
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)

    def _problem_labels(self) -> list:
        """Labels per unknown group the crate counts as contacts (friction problems and
        the pyramid of an edge LCP: one per contact; a gmp problem: one per block)."""
        if self.kind == "gmp":
            return list(self.block_labels)
        if self.kind in ("ccp", "coulomb") or self.pyramid() is not None:
            return list(self.labels)
        return []

    def pyramid(self):
        """The pyramid of an edge LCP (``kind`` ``"lcp"`` or ``"boxed-lcp"``): one
        ``(first_row, [mu_1, mu_2])`` per contact (``[]`` for condim 1), read from ``E``
        (the columns a contact's normal row sums are its edge rows; ``mu_i`` is the entry
        of row ``t_i`` at the first edge of direction ``i``), as ``Problem.lcp(...,
        pyramid=...)`` and the crate's ``provenance.pyramid`` take it. ``None`` for the
        other views."""
        if self.E is None or self.kind not in ("lcp", "boxed-lcp"):
            return None
        out = []
        for c in range(self.E.shape[0] // 3):
            cols = np.flatnonzero(self.E[3 * c] != 0.0)
            if len(cols) == 0:
                return None
            first = int(cols[0])
            mus = [float(self.E[3 * c + i, first + 2 * (i - 1)])
                   for i in (1, 2)] if len(cols) > 1 else []
            out.append((first, mus))
        return out

    def problem(self):
        """A ``nonsmooth.Problem`` of this view, with the labels and MuJoCo's answer
        (needs the native ``nonsmooth`` package; API of ``python/src/problem.rs``).

        Friction views use ``Problem.local(W, q, mu, kind, labels=..., answer=...)``, a
        generic mechanical problem ``Problem.generic(W, q, blocks, law, ...)``, the edge
        LCP ``Problem.lcp``; a boxed LCP is written with :meth:`to_problem_json` to a
        temporary file and read with ``Problem.read`` (the constructor the Python API
        offers for it). Raises ``ImportError`` when the native package is not installed;
        then use :meth:`to_json` and ``nonsmooth check``.
        """
        import nonsmooth  # the native package (PyO3)

        src = self._export.get("_source", "MuJoCo")
        desc = "; ".join(self.warnings)
        if self.kind in ("ccp", "coulomb"):
            return nonsmooth.Problem.local(
                self.W, self.q, self.mu, self.kind, labels=list(self.labels),
                answer={"r": self.r, "u": self.u, "source": src}, name=self.name,
                source=src, description=desc,
                units={k: str(v) for k, v in self.units.items()})
        if self.kind == "gmp":
            return nonsmooth.Problem.generic(
                self.W, self.q, self.blocks, self.law, labels=list(self.block_labels),
                answer={"r": self.r, "u": self.u, "source": src}, name=self.name,
                source=src, description=desc,
                units={k: str(v) for k, v in self.units.items()})
        if self.kind == "lcp":
            return nonsmooth.Problem.lcp(
                self.W, self.q, pyramid=self.pyramid(), labels=list(self.labels),
                answer={"r": self.r, "u": self.u, "source": src}, name=self.name,
                source=src, description=desc,
                units={k: str(v) for k, v in self.units.items()})
        import os
        import tempfile

        fd, path = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        try:
            self.to_problem_json(path)
            return nonsmooth.Problem.read(path)
        finally:
            os.remove(path)


def _jsonable(x):
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if isinstance(x, (np.floating,)):
        return float(x)
    if isinstance(x, (np.integer,)):
        return int(x)
    return x


def _name(model, mujoco, objtype, i):
    n = mujoco.mj_id2name(model, objtype, int(i))
    return n if n else None


def _geom_label(model, mujoco, g):
    gname = _name(model, mujoco, mujoco.mjtObj.mjOBJ_GEOM, g)
    body = int(model.geom_bodyid[g])
    bname = _name(model, mujoco, mujoco.mjtObj.mjOBJ_BODY, body) or (
        "world" if body == 0 else f"body{body}")
    if gname:
        return gname if (gname == bname or body == 0) else f"{gname}({bname})"
    return bname if body == 0 else f"{bname}:geom{g}"


def contact_label(model, data, i) -> str:
    """``"geom1/geom2 at (x, y, z)"`` for contact ``i`` (geom names, else body names and
    geom ids; the position ``contact.pos`` in m, world frame)."""
    import mujoco

    c = data.contact[i]
    g1, g2 = int(c.geom[0]), int(c.geom[1])
    p = ["0.00" if f"{x:.2f}" == "-0.00" else f"{x:.2f}" for x in c.pos]
    return (f"{_geom_label(model, mujoco, g1)}/{_geom_label(model, mujoco, g2)} "
            f"at ({p[0]}, {p[1]}, {p[2]})")


def _dense_J(model, data, mujoco):
    nefc, nv = int(data.nefc), int(model.nv)
    if not mujoco.mj_isSparse(model):
        return np.array(data.efc_J[: nefc * nv]).reshape(nefc, nv)
    J = np.zeros((nefc, nv))
    rownnz, rowadr, colind = data.efc_J_rownnz, data.efc_J_rowadr, data.efc_J_colind
    for i in range(nefc):
        a, n = int(rowadr[i]), int(rownnz[i])
        J[i, colind[a:a + n]] = data.efc_J[a:a + n]
    return J


def _minv_jt(model, data, mujoco, J):
    """``M^-1 J'`` as rows (``(nrows, nv)``), with MuJoCo's own factorisation."""
    if J.shape[0] == 0:
        return np.zeros_like(J)
    X = np.zeros_like(J, order="C")
    mujoco.mj_solveM(model, data, X, np.ascontiguousarray(J))
    return X


def _pad(W, q, r, u, rows):
    """3 rows per contact: contact c with rows[c] (1 or 3) rows is padded with
    ``W_tt = W_nn``, zeros elsewhere (see src/io/mujoco.rs)."""
    nc = len(rows)
    starts = np.concatenate([[0], np.cumsum(rows)[:-1]]).astype(int)
    idx = []  # (file row, padded row)
    for c, (s, k) in enumerate(zip(starts, rows)):
        idx += [(s + j, 3 * c + j) for j in range(k)]
    fi = np.array([a for a, _ in idx], dtype=int)
    pi = np.array([b for _, b in idx], dtype=int)
    Wp = np.zeros((3 * nc, 3 * nc))
    Wp[np.ix_(pi, pi)] = W[np.ix_(fi, fi)]
    for c, (s, k) in enumerate(zip(starts, rows)):
        for j in range(k, 3):
            Wp[3 * c + j, 3 * c + j] = W[s, s]
    out = [Wp]
    for v in (q, r, u):
        vp = np.zeros(3 * nc)
        vp[pi] = v[fi]
        out.append(vp)
    return out


def extract(model, data, view: str = "soft", extra_rows: str | None = None,
            name: str = "mujoco") -> Extracted:
    """The contact problem MuJoCo solved at ``data`` and MuJoCo's answer.

    Parameters
    ----------
    model, data : mujoco.MjModel, mujoco.MjData
        After ``mj_forward`` or ``mj_step`` (see the module docs for which state).
    view : ``"soft"`` or ``"hard"``
        Acceleration-level regularised problem MuJoCo solved, or the velocity-level
        unregularised Coulomb problem of the same step (module docs).
    extra_rows : None, ``"box"``, ``"generic"`` or ``"fixed"``
        What to do with non-contact constraint rows; ``None``: ``"box"`` for the
        pyramidal soft view (a boxed LCP), ``"generic"`` otherwise (a gmp problem).
    name : str
        Name written to exports.

    Raises
    ------
    ValueError
        Unknown view; condim 4 or 6 with the pyramidal cone; an ``extra_rows`` the view
        cannot hold (``"box"`` beyond the pyramidal soft view, ``"generic"`` in it); no
        active contact.
    """
    import mujoco

    if view not in ("soft", "hard"):
        raise ValueError(f"view must be 'soft' or 'hard', not {view!r}")
    if extra_rows not in (None, "box", "fixed", "generic"):
        raise ValueError(f"extra_rows must be None, 'box', 'fixed' or 'generic', not "
                         f"{extra_rows!r}")
    cone = "elliptic" if int(model.opt.cone) == int(mujoco.mjtCone.mjCONE_ELLIPTIC) \
        else "pyramidal"
    h = float(model.opt.timestep)
    impratio = float(model.opt.impratio)
    nefc = int(data.nefc)
    warnings: list[str] = []

    # Active contacts (efc_address >= 0), in MuJoCo's row order.
    contacts, labels, condims, mus = [], [], [], []
    inactive = 0
    for i in range(int(data.ncon)):
        c = data.contact[i]
        if int(c.efc_address) < 0:
            inactive += 1
            continue
        lab = contact_label(model, data, i)
        dim = int(c.dim)
        if dim not in (1, 3, 4, 6):
            raise ValueError(f"contact {len(contacts)} ({lab}) has condim {dim}, which MuJoCo "
                             f"does not define (1, 3, 4 or 6)")
        if dim > 3 and cone == "pyramidal":
            raise ValueError(
                f"contact {len(contacts)} ({lab}) has condim {dim} with the pyramidal cone: "
                f"torsional (4) and rolling (6) friction are read with the elliptic cone "
                f"(<option cone=\"elliptic\"/>, a gmp problem), not as pyramid edges; set "
                f"condim=\"3\" (or 1) on the geoms or use the elliptic cone")
        fr = np.array(c.friction, dtype=float)
        contacts.append(i)
        labels.append(lab)
        condims.append(dim)
        mus.append(float(fr[0]) if dim > 1 else 0.0)
    if not contacts:
        raise ValueError("no active contact (data.ncon = %d, %d inactive): call mj_forward "
                         "or mj_step first, at a state where bodies touch" %
                         (int(data.ncon), inactive))
    if inactive:
        warnings.append(f"{inactive} contacts with efc_address = -1 (inside the gap, no "
                        f"constraint rows) are left out")
    if int(model.opt.noslip_iterations) > 0:
        warnings.append(
            f"noslip_iterations = {int(model.opt.noslip_iterations)}: MuJoCo post-processed "
            f"the friction forces with R = 0 after its main solve, so its answer solves no "
            f"single problem and is not expected to be consistent with this one")

    efc_type = np.array(data.efc_type[:nefc], dtype=int)
    rows_of = [d if (d == 1 or cone == "elliptic") else 4 for d in condims]
    # the crate's fc3d problem holds isotropic 3-row cones (and condim 1, padded); anything
    # else in an elliptic (or the hard) view makes a generic mechanical problem
    frs = [np.array(data.contact[i].friction, dtype=float) for i in contacts]
    beyond_fc3d = [c for c, (d, fr) in enumerate(zip(condims, frs))
                   if d > 3 or (d == 3 and cone == "elliptic" and fr[0] != fr[1])]
    contact_rows = []
    for i, k in zip(contacts, rows_of):
        a = int(data.contact[i].efc_address)
        contact_rows += list(range(a, a + k))
    contact_rows = np.array(contact_rows, dtype=int)
    if not np.all(np.isin(efc_type[contact_rows], _CONTACT_TYPES)):
        raise ValueError("MuJoCo's contact rows (efc_address, condim) do not match efc_type")
    other = np.array([j for j in range(nefc) if efc_type[j] not in _CONTACT_TYPES], dtype=int)
    n_contact_typed = int(np.isin(efc_type, _CONTACT_TYPES).sum())
    if n_contact_typed != len(contact_rows):
        raise ValueError(f"{n_contact_typed} contact rows in efc_type, {len(contact_rows)} "
                         f"from the contacts' efc_address and condim")

    J = _dense_J(model, data, mujoco)
    X = _minv_jt(model, data, mujoco, J)
    A = J @ X.T
    A = 0.5 * (A + A.T)  # exact symmetry (rounding of the two products)
    R = np.array(data.efc_R[:nefc], dtype=float)
    b = np.array(data.efc_b[:nefc], dtype=float)
    f = np.array(data.efc_force[:nefc], dtype=float)
    vel = np.array(data.efc_vel[:nefc], dtype=float)
    jqs = b + np.array(data.efc_aref[:nefc], dtype=float)  # J qacc_smooth

    # Other rows: describe them.
    if len(other):
        kinds: dict[str, int] = {}
        for j in other:
            kinds[_TYPE_NAMES.get(int(efc_type[j]), f"type {efc_type[j]}")] = \
                kinds.get(_TYPE_NAMES.get(int(efc_type[j]), f"type {efc_type[j]}"), 0) + 1
        other_text = ", ".join(f"{v} {k} row{'s' if v > 1 else ''}" for k, v in kinds.items())
        mode = extra_rows
        pyr_soft = cone == "pyramidal" and view == "soft"
        if mode is None:
            mode = "box" if pyr_soft else "generic"
        if mode == "box" and not pyr_soft:
            raise ValueError(
                f"besides its contacts MuJoCo's problem has {other_text} (efc rows "
                f"{other.tolist()[:20]}{'...' if len(other) > 20 else ''}); extra_rows='box' "
                f"is the pyramidal soft view's boxed LCP. With the elliptic cone or the hard "
                f"view those rows are blocks of a generic mechanical problem "
                f"(extra_rows='generic', the default), or held fixed (extra_rows='fixed')")
        if mode == "generic" and pyr_soft:
            raise ValueError(
                f"extra_rows='generic' with the pyramidal cone's soft view: its {other_text} "
                f"and pyramid edges are exactly a boxed LCP, extra_rows='box' (the default)")
    else:
        mode, other_text = None, ""

    # Contact-frame rows for the hard view and the E matrix (pyramidal).
    nc = len(contacts)
    frame_rows = [d for d in condims]  # 1 or 3
    Jc_rows = []  # contact-frame J rows, [n, t1, t2] (or [n])
    # contact-frame force rows of contact c start at eo[c] (3 c unless condim 4/6)
    eo = np.concatenate([[0], np.cumsum([max(3, d) for d in condims])]).astype(int)
    E_blocks = np.zeros((int(eo[-1]), len(contact_rows)))
    col = 0
    mu_zero_pyr = []
    for c, (i, d) in enumerate(zip(contacts, condims)):
        a = int(data.contact[i].efc_address)
        if cone == "elliptic" or d == 1:
            for k in range(d):
                Jc_rows.append(("row", a + k))
            for k in range(d):
                E_blocks[eo[c] + k, col + k] = 1.0
            col += d
        else:
            m1, m2 = float(data.contact[i].friction[0]), float(data.contact[i].friction[1])
            # edges [n+m1 t1, n-m1 t1, n+m2 t2, n-m2 t2]: f = E p
            E_blocks[3 * c, col:col + 4] = 1.0
            E_blocks[3 * c + 1, col:col + 2] = [m1, -m1]
            E_blocks[3 * c + 2, col + 2:col + 4] = [m2, -m2]
            if m1 == 0.0 or m2 == 0.0:
                mu_zero_pyr.append(c)
                frame_rows[c] = 1
                Jc_rows.append(("comb", [(a, 0.5), (a + 1, 0.5)]))
            else:
                Jc_rows.append(("comb", [(a, 0.5), (a + 1, 0.5)]))
                Jc_rows.append(("comb", [(a, 0.5 / m1), (a + 1, -0.5 / m1)]))
                Jc_rows.append(("comb", [(a + 2, 0.5 / m2), (a + 3, -0.5 / m2)]))
            col += 4

    def combine(v):
        out = []
        for kind_, spec in Jc_rows:
            if kind_ == "row":
                out.append(v[spec])
            else:
                out.append(sum(w * v[j] for j, w in spec))
        return np.array(out)

    Jc = np.array([combine(J[:, k]) for k in range(J.shape[1])]).T if J.shape[1] else \
        np.zeros((len(Jc_rows), 0))
    Xc = _minv_jt(model, data, mujoco, np.ascontiguousarray(Jc))
    Ac = Jc @ Xc.T
    Ac = 0.5 * (Ac + Ac.T)
    qc_hard = combine(vel) + h * combine(jqs)
    fc = E_blocks @ f[contact_rows]  # [n, t1, t2] forces
    # keep only the rows of the frame (condim 1 / mu = 0 pyramidal: normal only)
    keep = []
    for c, d in enumerate(frame_rows):
        keep += [int(eo[c]) + k for k in range(d)]
    fc_rows = fc[keep]
    imp_c = h * fc_rows

    # Other rows held fixed: their forces move into q.
    if mode == "fixed":
        xo = other
        q_soft_c = b[contact_rows] + A[np.ix_(contact_rows, xo)] @ f[xo]
        Jx = J[xo]
        q_hard_c = qc_hard + h * (Jc @ _minv_jt(model, data, mujoco, Jx).T) @ f[xo]
        warnings.append(
            f"extra_rows='fixed': MuJoCo's forces of its {other_text} are held fixed and "
            f"moved into q (q_c += W_cx f_x); this is MuJoCo's contact problem only if "
            f"those forces were right, and it says nothing about them")
    else:
        q_soft_c = b[contact_rows]
        q_hard_c = qc_hard

    src = f"MuJoCo {mujoco.__version__}"
    source = {"engine": "MuJoCo", "version": mujoco.__version__,
              "python_package": "mujoco (PyPI)", "scene": name,
              "snapshot": "nonsmooth.mujoco.extract: efc_* of the last constraint stage"}
    if cone == "elliptic" and impratio != 1.0:
        warnings.append(
            f"impratio = {impratio}: mu is contact.friction[0] (the force cone), not "
            f"contact.mu = friction[0]/sqrt(impratio); impratio enters through efc_R")
    pad_idx = [c for c, d in enumerate(condims) if d == 1]
    if view == "hard" and model.opt.integrator != mujoco.mjtIntegrator.mjINT_EULER:
        warnings.append(
            "hard view with a non-Euler integrator: W r + q is J_c times the next velocity "
            "only for the Euler integrator; the hard problem is still the unregularised "
            "velocity-level problem of this step")

    # Soft problem in its own rows.
    Wsoft_c = A[np.ix_(contact_rows, contact_rows)] + np.diag(R[contact_rows])
    r_soft_c = f[contact_rows]
    u_soft_c = Wsoft_c @ r_soft_c + q_soft_c

    mu_arr = np.array(mus)
    # MuJoCo export (contacts only, soft main problem + hard view).
    export: dict[str, Any] = {}
    pad_warn = None
    if pad_idx or mu_zero_pyr:
        shown = ", ".join(str(c) for c in (pad_idx + mu_zero_pyr)[:10])
        pad_warn = (f"{len(pad_idx) + len(mu_zero_pyr)} of {nc} contacts ({shown}"
                    f"{', ...' if len(pad_idx) + len(mu_zero_pyr) > 10 else ''}) are "
                    f"frictionless (condim 1, or mu = 0): read as 3-row contacts [n, t1, t2] "
                    f"with mu = 0, tangential rows added (W_tt = W_nn, q_t = r_t = 0), exactly "
                    f"as src/io/mujoco.rs does")
    if mode is None:
        export = {
            "name": name, "source": source,
            "problem_type": ("CCP (MuJoCo elliptic cone, soft)" if cone == "elliptic" else
                             "LCP in pyramid-edge forces (MuJoCo pyramidal cone, soft)"),
            "n_contacts": nc, "dim": None, "cone": cone,
            "row_order": ("per contact [n, t1, t2] (condim 3) or [n] (condim 1)"
                          if cone == "elliptic" else
                          "per contact [n+mu t1, n-mu t1, n+mu t2, n-mu t2] or [n]"),
            "A": Wsoft_c, "b": q_soft_c, "mu": mu_arr,
            "engine_solution": r_soft_c, "engine_solution_velocity": u_soft_c,
            "R_diag": R[contact_rows],
            "units": {"A": "acceleration per unit force: J M^-1 J' + diag(efc_R)",
                      "b": "m/s^2 (efc_b = J qacc_smooth - efc_aref)",
                      "engine_solution": "N (efc_force)", "timestep_s": h,
                      "impulse_form": "hard view: A_unregularized, b_hard_velocity (m/s), "
                                      "engine_impulse = h f (N s)"},
            "contacts": [
                {"dim": d, "efc_address": int(data.contact[i].efc_address), "label": lab,
                 "geom": [int(g) for g in data.contact[i].geom],
                 "pos": np.array(data.contact[i].pos), "frame":
                 np.array(data.contact[i].frame).reshape(3, 3),
                 "dist": float(data.contact[i].dist),
                 "friction": np.array(data.contact[i].friction),
                 "mu_regularized_cone": float(data.contact[i].mu)}
                for i, d, lab in zip(contacts, condims, labels)],
            "raw": {"opt": {"cone": cone, "impratio": impratio,
                            "solver": int(model.opt.solver),
                            "tolerance": float(model.opt.tolerance),
                            "iterations": int(model.opt.iterations),
                            "noslip_iterations": int(model.opt.noslip_iterations),
                            "integrator": int(model.opt.integrator), "timestep": h},
                    "solver_niter": int(data.solver_niter[0])},
            "notes": "mu = contact.friction[0]; impratio enters through efc_R. Written by "
                     "nonsmooth.mujoco.extract.",
        }
        if cone == "elliptic":
            export.update(A_unregularized=Ac, b_hard_velocity=q_hard_c, engine_impulse=imp_c)
        else:
            if not mu_zero_pyr:
                export.update(A_contact_frame_unregularized=Ac,
                              b_hard_velocity_contact_frame=q_hard_c,
                              engine_impulse_contact_frame=imp_c)
            export["E_edges_to_contact_force"] = E_blocks
    else:
        export = {"_not_mujoco_format": True}
    export["_source"] = src

    units_soft = {"W": "acceleration per unit force (J M^-1 J' + diag(efc_R))",
                  "q": "m/s^2", "r": "N", "u": "m/s^2", "timestep_s": h}
    units_hard = {"W": "velocity per unit impulse (J M^-1 J')", "q": "m/s", "r": "N s",
                  "u": "m/s", "timestep_s": h}

    E_out, lo, hi = None, None, None
    blocks = block_labels = law = None
    if beyond_fc3d or mode == "generic":
        if cone == "elliptic" and impratio != 1.0 and beyond_fc3d:
            warnings.append(
                "impratio: each contact's cone has mu_i = contact.friction[i] (the force "
                "cone); MuJoCo's efc_R of the friction rows holds impratio")
        # one unit per block, in efc order: (efc row, row specs, block, label, forces)
        parts = []
        fc_at = 0  # position in fc_rows / Jc_rows (contact-frame rows, contact order)
        for c, (i, d) in enumerate(zip(contacts, condims)):
            k = frame_rows[c]
            a = int(data.contact[i].efc_address)
            if k == 1:
                blk = "unilateral"
            elif cone == "elliptic":
                blk = ("contact", [float(x) for x in frs[c][: d - 1]])
            else:
                blk = ("contact", [float(frs[c][0]), float(frs[c][1])])
            parts.append((a, Jc_rows[fc_at:fc_at + k], blk, labels[c], fc_rows[fc_at:fc_at + k],
                          list(range(a, a + rows_of[c]))))
            fc_at += k
        if mode == "generic":
            for j in other:
                t = int(efc_type[j])
                if t == _EQUALITY:
                    blk = "equality"
                elif t in (_FRICTION_DOF, _FRICTION_TENDON):
                    fl = float(data.efc_frictionloss[j])
                    blk = ("interval", -fl, fl) if view == "soft" else ("interval", -h * fl,
                                                                        h * fl)
                else:
                    blk = "unilateral"
                parts.append((int(j), [("row", int(j))], blk,
                              _row_label(model, data, mujoco, int(j), t), f[[j]], [int(j)]))
        parts.sort(key=lambda x: x[0])
        blocks = [x[2] for x in parts]
        block_labels = [x[3] for x in parts]
        if view == "soft":
            rows = np.array([j for x in parts for j in x[5]], dtype=int)
            W = A[np.ix_(rows, rows)] + np.diag(R[rows])
            q = b[rows].copy()
            r = f[rows]
            if mode == "fixed":
                q += A[np.ix_(rows, other)] @ f[other]
            law, units = "ccp", units_soft
        else:
            specs = [sp for x in parts for sp in x[1]]

            def comb(v, specs=specs):
                return np.array([v[sp] if kd == "row" else sum(w * v[j] for j, w in sp)
                                 for kd, sp in specs])

            Jg = np.array([comb(J[:, k]) for k in range(J.shape[1])]).T if J.shape[1] else \
                np.zeros((len(specs), 0))
            Xg = _minv_jt(model, data, mujoco, np.ascontiguousarray(Jg))
            W = Jg @ Xg.T
            W = 0.5 * (W + W.T)
            q = comb(vel) + h * comb(jqs)
            if mode == "fixed":
                q += h * (Jg @ _minv_jt(model, data, mujoco, J[other]).T) @ f[other]
            r = h * np.concatenate([x[4] for x in parts])
            law, units = "coulomb", units_hard
        u = W @ r + q
        kind = "gmp"
        described = [f"{len(contacts)} contacts"]
        if len(other) and mode == "generic":
            described.append(other_text)
        warnings.append(
            f"generic mechanical problem ({law}): {len(blocks)} blocks in efc order ("
            + ", ".join(described) + ")" + (
                f"; contacts {beyond_fc3d[:10]} have condim 4/6 or anisotropic friction"
                if beyond_fc3d else ""))
    elif view == "soft":
        if cone == "elliptic":
            W, q, r, u = _pad(Wsoft_c, q_soft_c, r_soft_c, u_soft_c, rows_of) if pad_idx \
                else (Wsoft_c, q_soft_c, r_soft_c, u_soft_c)
            if pad_warn and pad_idx:
                warnings.append(pad_warn)
            kind = "ccp"
        elif mode == "box":
            allr = np.concatenate([other, contact_rows])
            W = A[np.ix_(allr, allr)] + np.diag(R[allr])
            q = b[allr]
            r = f[allr]
            u = W @ r + q
            lo = np.zeros(len(allr))
            hi = np.full(len(allr), np.inf)
            for k, j in enumerate(other):
                t = int(efc_type[j])
                if t == _EQUALITY:
                    lo[k] = -np.inf
                elif t in (_FRICTION_DOF, _FRICTION_TENDON):
                    fl = float(data.efc_frictionloss[j])
                    lo[k], hi[k] = -fl, fl
            kind = "boxed-lcp"
            E_out = np.hstack([np.zeros((3 * nc, len(other))), E_blocks])
            warnings.append(f"boxed LCP: the first {len(other)} rows are MuJoCo's "
                            f"{other_text} (efc order), then the contacts' edge rows")
        else:
            W, q, r, u = Wsoft_c, q_soft_c, r_soft_c, u_soft_c
            kind = "lcp"
            E_out = E_blocks
        units = units_soft
    else:
        u_hard = Ac @ imp_c + q_hard_c
        if any(d == 1 for d in frame_rows):
            W, q, r, u = _pad(Ac, q_hard_c, imp_c, u_hard, frame_rows)
            if pad_warn:
                warnings.append(pad_warn)
        else:
            W, q, r, u = Ac, q_hard_c, imp_c, u_hard
        kind = "coulomb"
        units = units_hard
    if kind == "gmp" and (mode is not None or view != "soft"):
        export = {"_not_mujoco_format": True, "_source": src}
    elif kind == "gmp":
        # Contacts only, soft view: the MuJoCo format holds it, each contact's rows up to
        # its condim and its friction coefficients; src/io/mujoco.rs reads it back as this
        # gmp problem (it does not read a hard view beside such a problem, so none is
        # written).
        for key in ("A_unregularized", "b_hard_velocity", "engine_impulse"):
            export.pop(key, None)
        export["row_order"] = ("per contact, MuJoCo's efc rows [n, t1, t2, torsion, roll1, "
                               "roll2] up to its condim")
        export["problem_type"] = "generic mechanical problem (MuJoCo elliptic cone, soft)"
    return Extracted(W=W, q=q, mu=mu_arr, cone=cone, kind=kind, view=view, r=r, u=u,
                     labels=labels, units=units, timestep=h, condims=condims,
                     warnings=warnings, lo=lo, hi=hi, E=E_out, name=name, blocks=blocks,
                     block_labels=block_labels, law=law, _export=export)


def _row_label(model, data, mujoco, j, t):
    """A non-contact efc row named by what it constrains: ``"equality weld1"``, ``"joint
    limit h2"``, ``"friction loss h3"`` (the joint of the dof), ``"tendon limit t0"``."""
    i = int(data.efc_id[j])
    obj = mujoco.mjtObj
    if t == _EQUALITY:
        return f"equality {_name(model, mujoco, obj.mjOBJ_EQUALITY, i) or i}"
    if t == _FRICTION_DOF:
        jnt = int(model.dof_jntid[i])
        return (f"friction loss {_name(model, mujoco, obj.mjOBJ_JOINT, jnt) or f'joint{jnt}'}"
                f" (dof {i})")
    if t == _FRICTION_TENDON:
        return f"friction loss tendon {_name(model, mujoco, obj.mjOBJ_TENDON, i) or i}"
    if t == _LIMIT_JOINT:
        return f"joint limit {_name(model, mujoco, obj.mjOBJ_JOINT, i) or i}"
    if t == _LIMIT_TENDON:
        return f"tendon limit {_name(model, mujoco, obj.mjOBJ_TENDON, i) or i}"
    return f"efc row {j} (type {t})"
