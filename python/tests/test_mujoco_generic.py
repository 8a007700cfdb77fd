"""MuJoCo scenes beyond the local friction problem, read as generic mechanical problems
(``kind == "gmp"``, ``nonsmooth.Problem.generic``): torsional and rolling friction
(condim 4 and 6), anisotropic elliptic cones (a ``<pair>`` with two tangential
coefficients), and elliptic cones together with equality, joint-limit and friction-loss
rows. The scenes are built here from XML.

What is checked, on each scene:

* the problem is MuJoCo's: ``W r + q`` at MuJoCo's ``efc_force`` equals MuJoCo's own
  dual residual ``J qacc - efc_aref + efc_R * efc_force`` (soft view), row by row in efc
  order, and ``W`` is ``J M^-1 J' + diag(efc_R)``, symmetric positive definite;
* the blocks are the rows' laws (``efc_type``) with ``mu_i = contact.friction[i - 1]``;
* MuJoCo's converged answer (Newton, ``tolerance = 1e-12``) is consistent as a CCP at
  ``CONSISTENT_TOL`` (the bound of ``test_mujoco.py``), both by the numpy natural map
  below and by ``nonsmooth.check``; an answer capped at two PGS sweeps without warm start
  is flagged inconsistent (error above ``INCONSISTENT_MIN``).

Tests marked "needs gmp solvers" call ``nonsmooth.check`` with its reference solve
(``gmp-newton``) or write files; they need the crate's gmp solvers and file formats.
"""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco", reason="mujoco is not installed (pip install mujoco)")

CONSISTENT_TOL = 1e-6
INCONSISTENT_MIN = 1e-4
OPT = 'timestep="0.002" solver="Newton" tolerance="1e-12" iterations="1000" integrator="Euler"'
CAPPED = 'timestep="0.002" solver="PGS" tolerance="1e-12" iterations="2" integrator="Euler"'
NO_WARMSTART = '<flag warmstart="disable"/>'


def _native():
    try:
        import nonsmooth

        return nonsmooth if hasattr(nonsmooth, "Problem") else None
    except ImportError:
        return None


ns = _native()
if ns is None:
    pytest.skip("the native nonsmooth package is not built", allow_module_level=True)
nmj = importlib.import_module("nonsmooth.mujoco")


# ---------------------------------------------------------------------------------------
# The generic problem's natural map in numpy (src/problem/generic.rs, module docs).


def _proj_iso(x, m):
    """Euclidean projection onto {r : |r_t| <= m r_n}, any dimension."""
    n, t = x[0], x[1:]
    nt = float(np.linalg.norm(t))
    if nt <= m * n and n >= 0:
        return x.copy()
    if m * nt <= -n:
        return np.zeros_like(x)
    a = (n + m * nt) / (1.0 + m * m)
    return np.concatenate([[a], m * a * t / nt])


def gmp_error(W, q, blocks, r, law="ccp"):
    """(relative error, per-block |e_b|): equality u; unilateral r - max(0, r - u);
    interval r - clip(r - u, lo, hi); isotropic contact r - P_K(r - u_hat); anisotropic
    contact the map of the scaled unknowns S^+ r, S u mapped back through S."""
    u = W @ r + q
    per, k = [], 0
    for b in blocks:
        if isinstance(b, str):
            e = u[k] if b == "equality" else r[k] - max(0.0, r[k] - u[k])
            per.append(abs(e))
            k += 1
            continue
        if b[0] == "interval":
            per.append(abs(r[k] - min(max(r[k] - u[k], b[1]), b[2])))
            k += 1
            continue
        mu = np.array(b[1], dtype=float)
        d = 1 + len(mu)
        rb, ub = r[k:k + d], u[k:k + d]
        shift = np.linalg.norm(mu * ub[1:]) if law == "coulomb" else 0.0
        if np.all(mu == mu[0]):
            z = rb - ub
            z[0] -= shift
            e = rb - _proj_iso(z, mu[0])
        else:
            inv = np.where(mu > 0, 1.0 / np.where(mu > 0, mu, 1.0), 0.0)
            rt = np.concatenate([[rb[0]], inv * rb[1:]])
            z = rt - np.concatenate([[ub[0] + shift], mu * ub[1:]])
            p = _proj_iso(z, 1.0)
            e = np.concatenate([[rt[0] - p[0]], mu * (rt[1:] - p[1:])])
        per.append(float(np.linalg.norm(e)))
        k += d
    assert k == len(r)
    per = np.array(per)
    denom = max(np.linalg.norm(q), np.linalg.norm(r), np.linalg.norm(u))
    return float(np.linalg.norm(per) / denom), per


# ---------------------------------------------------------------------------------------
# Scenes.


def balls_xml(opt=OPT, flags="", impratio=1, condim=6):
    """A ball and a box resting on a plane, condim 6 (torsional and rolling friction)."""
    return f"""
<mujoco model="condim6">
  <option {opt} cone="elliptic" impratio="{impratio}">{flags}</option>
  <default><geom condim="{condim}" friction="0.7 0.02 0.001"/></default>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 0.1"/>
    <body name="ball" pos="0 0 0.1"><freejoint/>
      <geom name="ball" type="sphere" size="0.1" mass="1"/></body>
    <body name="box" pos="0.4 0 0.05" euler="0 0 20"><freejoint/>
      <geom name="box" type="box" size="0.1 0.08 0.05" mass="2"/></body>
  </worldbody>
</mujoco>"""


def pair_xml(opt=OPT, flags="", condim=3, friction="0.8 0.3 0.005 0.0001 0.0001",
             impratio=1):
    """A box on a tilted plane, the contact set by a <pair> with anisotropic friction."""
    g, t = 9.81, math.radians(25.0)
    return f"""
<mujoco model="anisotropic">
  <option {opt} cone="elliptic" impratio="{impratio}"
          gravity="{g * math.sin(t):.12f} {0.3 * g * math.sin(t):.12f} {-g * math.cos(t):.12f}"
          >{flags}</option>
  <worldbody>
    <geom name="slope" type="plane" size="5 5 0.1"/>
    <body name="box" pos="0 0 0.05"><freejoint/>
      <geom name="box" type="box" size="0.1 0.08 0.05" mass="2"/></body>
  </worldbody>
  <contact><pair geom1="slope" geom2="box" condim="{condim}" friction="{friction}"/></contact>
</mujoco>"""


def chain_xml(opt=OPT, flags="", links=8):
    """Capsules joined by hinges (limited, with friction loss, two coupled by a joint
    equality) lying on the floor, elliptic cones."""
    def link(i):
        if i == links:
            return ""
        axis = "0 1 0" if i % 2 else "0 0 1"
        j = "" if i == 0 else (f'<joint name="h{i}" type="hinge" axis="{axis}" limited="true" '
                               f'range="-30 30" frictionloss="0.05"/>')
        pos = "0 0 0.03" if i == 0 else "0.1 0 0"
        fj = '<freejoint/>' if i == 0 else ""
        return (f'<body name="link{i}" pos="{pos}">{fj}{j}'
                f'<geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.03" mass="0.2"/>'
                f'{link(i + 1)}</body>')
    return f"""
<mujoco model="chain">
  <option {opt} cone="elliptic">{flags}</option>
  <default><geom friction="0.8"/></default>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 0.1"/>
    {link(0)}
  </worldbody>
  <equality><joint name="couple" joint1="h3" joint2="h5"/></equality>
</mujoco>"""


def run(xml, steps, bend=False):
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    if bend:  # two hinges past their limits so limit rows are active
        for name, a in (("h2", 0.6), ("h6", -0.6)):
            d.qpos[m.jnt_qposadr[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, name)]] = a
    for _ in range(steps):
        mujoco.mj_step(m, d)
    return m, d


def mujoco_residual(m, d):
    """MuJoCo's dual residual in efc rows, J qacc - aref + R f (acceleration level), and
    the part of it MuJoCo's primal solver left: J M^-1 g with its gradient
    g = M (qacc - qacc_smooth) - J' f (zero at an exact solution)."""
    nefc, nv = int(d.nefc), int(m.nv)
    J = np.zeros((nefc, nv))
    if mujoco.mj_isSparse(m):
        mujoco.mju_sparse2dense(J, d.efc_J, d.efc_J_rownnz, d.efc_J_rowadr, d.efc_J_colind)
    else:
        J[:] = np.array(d.efc_J[:nefc * nv]).reshape(nefc, nv)
    M = np.zeros((nv, nv))
    mujoco.mj_fullM(m, d, M)
    f = np.array(d.efc_force[:nefc])
    g = M @ (d.qacc - d.qacc_smooth) - J.T @ f
    left = J @ np.linalg.solve(M, g)
    return J @ d.qacc - d.efc_aref[:nefc] + d.efc_R[:nefc] * f, left


def assert_reproduces_mujoco(m, d, ex):
    """The gmp problem holds every efc row in order and W r + q is MuJoCo's residual."""
    nefc = int(d.nefc)
    assert ex.W.shape == (nefc, nefc)
    np.testing.assert_array_equal(ex.r, d.efc_force[:nefc])
    np.testing.assert_array_equal(ex.q, d.efc_b[:nefc])
    res, left = mujoco_residual(m, d)
    scale = max(1.0, float(np.abs(res).max()))
    # equal up to rounding and what MuJoCo's own solver left of its primal residual
    slack = 2 * float(np.abs(left).max())
    print(f"\n{ex.name}: max |W r + q - MuJoCo's residual| = "
          f"{np.abs(ex.u - res).max():.2e} (MuJoCo's primal slack {slack / 2:.2e})")
    np.testing.assert_allclose(ex.u, res, rtol=0, atol=1e-9 * scale + slack)
    np.testing.assert_array_equal(ex.W, ex.W.T)
    assert np.linalg.eigvalsh(ex.W).min() > 0  # diag(efc_R) > 0


def judge(ex, expect):
    """The numpy error and nonsmooth.check (no reference solve) agree, with the verdict."""
    err, per = gmp_error(ex.W, ex.q, ex.blocks, ex.r, ex.law)
    p = ex.problem()
    assert p.type == "gmp" and p.kind == ex.law and p.blocks == ex.blocks
    rep = ns.check(p, ex.r, tol=CONSISTENT_TOL, reference=False)
    print(f"\n{ex.name}: {len(ex.blocks)} blocks, {len(ex.q)} rows, error numpy {err:.3e}, "
          f"check {rep.error:.3e}, {'consistent' if rep.consistent else 'inconsistent'}")
    assert rep.error == pytest.approx(err, rel=1e-6, abs=1e-15)
    if expect == "consistent":
        assert err <= CONSISTENT_TOL and rep.consistent, err
    else:
        assert err > INCONSISTENT_MIN and not rep.consistent, err
    return err, per, p


# ---------------------------------------------------------------------------------------
# Tests.


def test_condim6_ball_and_box_reproduce_mujoco_and_are_consistent():
    m, d = run(balls_xml(), 200)
    ex = nmj.extract(m, d, name="condim6")
    assert ex.kind == "gmp" and ex.law == "ccp"
    assert set(ex.condims) == {6}, ex.condims
    assert ex.blocks == [("contact", [0.7, 0.7, 0.02, 0.001, 0.001])] * len(ex.condims)
    assert len(ex.block_labels) == len(ex.blocks) >= 2
    assert any("ball" in lab for lab in ex.block_labels)
    assert any("box" in lab for lab in ex.block_labels)
    assert_reproduces_mujoco(m, d, ex)
    judge(ex, "consistent")


def test_condim6_capped_answer_is_inconsistent():
    m, d = run(balls_xml(opt=CAPPED, flags=NO_WARMSTART), 200)
    assert d.solver_niter[0] <= 2
    ex = nmj.extract(m, d, name="condim6_capped")
    assert_reproduces_mujoco(m, d, ex)
    judge(ex, "inconsistent")


def test_condim4_is_a_gmp_with_torsion():
    m, d = run(balls_xml(condim=4), 200)
    ex = nmj.extract(m, d, name="condim4")
    assert set(ex.condims) == {4}
    assert ex.blocks[0] == ("contact", [0.7, 0.7, 0.02])
    assert_reproduces_mujoco(m, d, ex)
    judge(ex, "consistent")


@pytest.mark.parametrize("condim", [3, 6])
def test_anisotropic_pair_is_consistent(condim):
    m, d = run(pair_xml(condim=condim), 150)
    ex = nmj.extract(m, d, name=f"anisotropic{condim}")
    assert ex.kind == "gmp"
    assert ex.blocks[0] == ("contact", [0.8, 0.3, 0.005, 0.0001, 0.0001][:condim - 1])
    assert_reproduces_mujoco(m, d, ex)
    err, _, _ = judge(ex, "consistent")
    # an isotropic reading (friction[0] in both directions) does not fit MuJoCo's answer
    iso = [("contact", [b[1][0]] * len(b[1])) for b in ex.blocks]
    err_iso, _ = gmp_error(ex.W, ex.q, iso, ex.r)
    print(f"anisotropic condim {condim}: error {err:.2e}, read isotropic {err_iso:.2e}")
    assert err_iso > INCONSISTENT_MIN


def test_anisotropic_pair_capped_is_inconsistent():
    m, d = run(pair_xml(opt=CAPPED, flags=NO_WARMSTART), 150)
    judge(nmj.extract(m, d, name="anisotropic_capped"), "inconsistent")


def test_impratio_condim6_uses_friction_not_contact_mu():
    """impratio = 10 on condim 6: the force cone keeps mu_i = friction[i]; MuJoCo's
    contact.mu = friction[0] / sqrt(impratio) (and the other coefficients scaled alike)
    describe the rescaled cone of its primal solver, which its forces do not satisfy."""
    m, d = run(pair_xml(condim=6, impratio=10), 150)
    ex = nmj.extract(m, d, name="impratio10_condim6")
    assert any("impratio" in w for w in ex.warnings)
    c = [k for k in range(d.ncon) if d.contact[k].efc_address >= 0][0]
    assert d.contact[c].mu == pytest.approx(0.8 / math.sqrt(10))
    # impratio is in efc_R: R_t1 = R_n / impratio, and R_i friction[i-1]^2 the same for
    # every friction row i (MuJoCo's regularised elliptic cone)
    adr, fr = int(d.contact[c].efc_address), np.array(d.contact[c].friction)
    R = np.array(d.efc_R[adr:adr + 6])
    assert R[1] == pytest.approx(R[0] / 10, rel=1e-12)
    np.testing.assert_allclose(R[1:] * fr ** 2, R[1] * fr[0] ** 2, rtol=1e-12)
    assert_reproduces_mujoco(m, d, ex)
    err, _, _ = judge(ex, "consistent")
    scaled = [("contact", [x / math.sqrt(10) for x in b[1]]) for b in ex.blocks]
    err_scaled, _ = gmp_error(ex.W, ex.q, scaled, ex.r)
    print(f"impratio 10, condim 6: error with friction {err:.2e}, with "
          f"friction/sqrt(impratio) {err_scaled:.2e}")
    assert err_scaled > INCONSISTENT_MIN


def test_elliptic_chain_with_equality_limits_and_friction_loss():
    m, d = run(chain_xml(), 100, bend=True)
    types = set(int(t) for t in d.efc_type[: d.nefc])
    assert {0, 1, 3} <= types, types  # equality, dof friction loss, joint limit
    ex = nmj.extract(m, d, name="chain_elliptic")
    assert ex.kind == "gmp" and ex.law == "ccp"
    et = np.array(d.efc_type[: d.nefc])
    k = 0
    for b, lab in zip(ex.blocks, ex.block_labels):  # blocks follow efc_type, in order
        t = int(et[k])
        if t == 0:
            assert b == "equality" and lab == "equality couple", (b, lab)
        elif t == 1:
            assert b == ("interval", -0.05, 0.05) and lab.startswith("friction loss h"), b
        elif t == 3:
            assert b == "unilateral" and lab.startswith("joint limit h"), (b, lab)
        else:
            assert b == ("contact", [0.8, 0.8]), b
        k += 1 if isinstance(b, str) or b[0] != "contact" else 1 + len(b[1])
    assert k == d.nefc
    assert_reproduces_mujoco(m, d, ex)
    judge(ex, "consistent")
    # the old way stays: forces of the other rows held fixed, a ccp fc3d problem
    fixed = nmj.extract(m, d, extra_rows="fixed")
    assert fixed.kind == "ccp"


def test_elliptic_chain_capped_is_inconsistent():
    m, d = run(chain_xml(opt=CAPPED, flags=NO_WARMSTART), 5, bend=True)
    judge(nmj.extract(m, d, name="chain_capped"), "inconsistent")


def test_hard_view_is_a_coulomb_gmp_in_impulses():
    m, d = run(chain_xml(), 5, bend=True)
    soft, hard = nmj.extract(m, d), nmj.extract(m, d, view="hard")
    h = m.opt.timestep
    assert hard.kind == "gmp" and hard.law == "coulomb"
    np.testing.assert_allclose(hard.r, h * soft.r)
    lo = [b[1] for b in hard.blocks if isinstance(b, tuple) and b[0] == "interval"]
    np.testing.assert_allclose(lo, -h * 0.05)
    assert [b if isinstance(b, str) else b[0] for b in hard.blocks] == \
        [b if isinstance(b, str) else b[0] for b in soft.blocks]
    np.testing.assert_array_equal(hard.W, hard.W.T)
    assert np.linalg.eigvalsh(hard.W).min() > -1e-10 * np.abs(hard.W).max()
    np.testing.assert_allclose(hard.u, hard.W @ hard.r + hard.q)
    p = hard.problem()
    assert p.kind == "coulomb"
    rep = ns.check(p, hard.r, tol=CONSISTENT_TOL, reference=False)
    err, _ = gmp_error(hard.W, hard.q, hard.blocks, hard.r, "coulomb")
    assert rep.error == pytest.approx(err, rel=1e-6, abs=1e-15)
    print(f"\nhard view of the chain: error of h f as a Coulomb answer {err:.2e}")


def test_pure_condim3_isotropic_stays_fc3d():
    m, d = run(balls_xml(condim=3), 200)
    ex = nmj.extract(m, d)
    assert ex.kind == "ccp" and ex.blocks is None


def test_pyramidal_condim6_is_refused_naming_the_contact():
    m, d = run(balls_xml(condim=6).replace('cone="elliptic"', 'cone="pyramidal"'), 100)
    with pytest.raises(ValueError, match=r"contact 0 \(.*condim 6 with the pyramidal cone"):
        nmj.extract(m, d)


# ---- Need the crate's gmp solvers (gmp-newton, gmp-pgs) and gmp file formats.


def test_check_with_reference_solve():  # needs gmp solvers
    m, d = run(balls_xml(), 200)
    ex = nmj.extract(m, d)
    rep = ns.check(ex.problem(), ex.r, tol=CONSISTENT_TOL)
    assert rep.consistent
    ref = rep.reference  # the CCP's solution, found by gmp-newton
    assert ref["found"], ref
    assert ref["relative_distance"] < 1e-5, ref


def test_solve_reproduces_mujoco():  # needs gmp solvers
    m, d = run(chain_xml(), 5, bend=True)
    ex = nmj.extract(m, d)
    res = ns.solve(ex.problem(), "auto")
    scale = max(1.0, float(np.abs(ex.r).max()))
    np.testing.assert_allclose(res.r, ex.r, rtol=0, atol=1e-5 * scale)


def test_json_round_trip(tmp_path):  # needs gmp file formats
    m, d = run(pair_xml(condim=6), 150)
    ex = nmj.extract(m, d)
    f = tmp_path / "aniso.json"
    ex.to_json(f)
    p = ns.Problem.read(f)
    assert p.type == "gmp" and p.blocks == ex.blocks and p.labels == ex.block_labels
    np.testing.assert_array_equal(p.answer.r, ex.r)


@pytest.mark.parametrize("condim", [4, 6])
def test_mujoco_format_round_trip_of_torsion_and_rolling(tmp_path, condim):  # needs gmp file formats
    """Issue 32: a condim-4 or 6 step written in the MuJoCo export format (``to_json``, with
    each contact's ``friction``, ``geom`` and ``pos``) reads back, by ``Problem.read`` and
    so by the command line, as the same generic problem: blocks, W, q, MuJoCo's answer and
    labels; and MuJoCo's answer is judged the same way."""
    import json

    m, d = run(balls_xml(condim=condim), 200)
    ex = nmj.extract(m, d, name=f"condim{condim}")
    f = tmp_path / f"condim{condim}.json"
    ex.to_json(f)
    doc = json.loads(f.read_text())
    assert doc["cone"] == "elliptic" and "A" in doc and "format" not in doc
    assert all(len(c["friction"]) == 5 for c in doc["contacts"])
    p = ns.Problem.read(f)
    assert p.type == "gmp" and p.blocks == ex.blocks
    assert p.labels == ex.block_labels
    np.testing.assert_array_equal(np.asarray(p.W), ex.W)
    np.testing.assert_array_equal(np.asarray(p.q), ex.q)
    np.testing.assert_array_equal(p.answer.r, ex.r)
    a = ns.check(p, ex.r, tol=CONSISTENT_TOL, reference=False)
    b = ns.check(ex.problem(), ex.r, tol=CONSISTENT_TOL, reference=False)
    assert a.error == b.error and a.consistent == b.consistent
    # Without the coefficients the file is refused, naming the key and the bridge.
    for c in doc["contacts"]:
        del c["friction"]
    g = tmp_path / "bare.json"
    g.write_text(json.dumps(doc))
    with pytest.raises(Exception) as e:
        ns.Problem.read(g)
    assert "contacts[0].friction" in str(e.value) and "nonsmooth.mujoco.extract" in str(e.value)

