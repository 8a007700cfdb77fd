"""Tests of ``nonsmooth.mujoco``: MuJoCo scenes built here from XML, their contact
problems extracted, and MuJoCo's own answers judged, in Python and by the command line
(``nonsmooth check FILE --json``).

Skipped (with the reason) when ``mujoco`` is not importable. The command-line tests need
the binary: ``NONSMOOTH_BIN``, else ``target/release/nonsmooth`` of this repository
(``cargo build --release --bin nonsmooth``); they skip with that hint when it is absent.

Tolerances. MuJoCo's Newton solver stops when the cost improvement, the gradient norm or
the Newton decrement ``1/2 g' H^-1 g`` (the predicted improvement of the next iteration)
falls below ``opt.tolerance`` (documentation, *Computation*, *Algorithms*; ``g`` and the
cost are scaled by ``1 / (meaninertia * max(1, nv))``). The decrement test lets a
gradient of order ``sqrt(2 tolerance)`` remain: ``1.4e-6`` at the scenes'
``tolerance = 1e-12``, relative to the scaled forces. ``CONSISTENT_TOL = 1e-6`` is that
bound, rounded down; the measured errors are printed (``pytest -s``) and lie far below it
(the elliptic pile's is of order ``1e-9``, the others near rounding). An answer capped at
two PGS sweeps without warm start is far from converged: ``INCONSISTENT_MIN = 1e-4`` is
what the tests require of its error, and of the error of MuJoCo's answer judged with
``contact.mu`` instead of ``friction[0]`` at ``impratio = 10``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco", reason="mujoco is not installed (pip install mujoco)")

ROOT = Path(__file__).resolve().parents[2]
CONSISTENT_TOL = 1e-6
INCONSISTENT_MIN = 1e-4
ROUNDING = 1e-12  # errors the CLI and numpy may compute differently by rounding alone


def _load_bridge():
    """``nonsmooth.mujoco`` of the installed package; the file itself when the package's
    native part is absent (the source folder is not put first on the path: it would hide
    the installed package, whose native module it lacks)."""
    try:
        return importlib.import_module("nonsmooth.mujoco")
    except ImportError:
        path = ROOT / "python" / "nonsmooth" / "mujoco.py"
        spec = importlib.util.spec_from_file_location("nonsmooth_mujoco_file", path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
        return mod


nmj = _load_bridge()


def _native():
    try:
        import nonsmooth

        return nonsmooth if hasattr(nonsmooth, "Problem") else None
    except ImportError:
        return None


# ---------------------------------------------------------------------------------------
# The crate's error measures, in numpy (src/merit.rs): natural map over
# max(|q|, |r|, |u|) for friction problems, min map over |b| for (boxed) LCPs.


def _proj_cone(x, mu):
    n, t = x[0], x[1:]
    nt = float(np.linalg.norm(t))
    if nt <= mu * n:
        return x.copy()
    if mu * nt <= -n:
        return np.zeros(3)
    a = (n + mu * nt) / (1.0 + mu * mu)
    return np.concatenate([[a], mu * a * t / nt])


def friction_errors(W, q, mu, r, kind):
    """(relative error, per-contact |e_c|) of the CCP or Coulomb (De Saxce) natural map."""
    u = W @ r + q
    per = []
    for c in range(len(mu)):
        s = slice(3 * c, 3 * c + 3)
        uc = u[s].copy()
        if kind == "coulomb":
            uc[0] += mu[c] * np.linalg.norm(uc[1:])
        per.append(np.linalg.norm(r[s] - _proj_cone(r[s] - uc, mu[c])))
    per = np.array(per)
    denom = max(np.linalg.norm(q), np.linalg.norm(r), np.linalg.norm(u))
    return float(np.linalg.norm(per) / denom), per


def lcp_error(W, q, x, lo=None, hi=None):
    w = W @ x + q
    if lo is None:
        h = np.minimum(x, w)
    else:
        h = np.minimum(x - lo, np.maximum(x - hi, w))
    return float(np.linalg.norm(h) / np.linalg.norm(q)), h


def python_error(ex):
    """The crate's error of MuJoCo's answer for this view, and per-contact errors."""
    if ex.kind in ("ccp", "coulomb"):
        return friction_errors(ex.W, ex.q, ex.mu, ex.r, ex.kind)
    if ex.kind == "lcp":
        e, h = lcp_error(ex.W, ex.q, ex.r)
    else:
        e, h = lcp_error(ex.W, ex.q, ex.r, ex.lo, ex.hi)
    # per contact: the norm of its edge rows' residuals (contact rows are the last ones)
    m_c = ex.E.shape[1] if ex.kind == "lcp" else None
    edges = h[-sum(1 if d == 1 else 4 for d in ex.condims):] if m_c is None else h
    per, k = [], 0
    for d in ex.condims:
        n = 1 if d == 1 else 4
        per.append(np.linalg.norm(edges[k:k + n]))
        k += n
    return e, np.array(per)


# ---------------------------------------------------------------------------------------
# The command line.


BIN = Path(os.environ.get("NONSMOOTH_BIN", ROOT / "target" / "release" / "nonsmooth"))
NO_BIN = (f"{BIN} not found: build it with `cargo build --release --bin nonsmooth` or set "
          f"NONSMOOTH_BIN")


def nonsmooth_bin():
    if not BIN.exists():
        pytest.skip(NO_BIN)
    return BIN


def cli_check(path, tol=CONSISTENT_TOL, worst=None):
    """Runs ``nonsmooth check path --json``: (summary, per-contact lines, seconds)."""
    cmd = [str(nonsmooth_bin()), "check", str(path), "--json", "--tol", repr(tol)]
    if worst:
        cmd += ["--worst", str(worst)]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    assert out.returncode in (0, 1), out.stderr
    lines = [json.loads(s) for s in out.stdout.splitlines() if s.strip()]
    summary, contacts = lines[0], lines[1:]
    assert (summary["verdict"] == "consistent") == (out.returncode == 0)
    return summary, contacts, dt


# ---------------------------------------------------------------------------------------
# Scenes.

OPT = 'timestep="0.002" solver="Newton" tolerance="1e-12" iterations="1000" ' \
      'integrator="Euler"'


def pile_xml(cone="elliptic", n=30, impratio=1, mixed=False, opt=OPT, flags=""):
    """~n bodies (boxes, spheres, capsules) dropped into a bin. mixed: spheres, floor and
    walls condim 1, boxes and capsules condim 3 (a contact's condim is the larger)."""
    c1 = ' condim="1"' if mixed else ""
    bodies = []
    rng = np.random.default_rng(7)
    for i in range(n):
        x, y = -0.16 + 0.16 * (i % 3), -0.16 + 0.16 * ((i // 3) % 3)
        z = 0.1 + 0.12 * (i // 9)
        x, y = x + 0.01 * rng.standard_normal(), y + 0.01 * rng.standard_normal()
        kind = i % 3
        if kind == 0:
            g = '<geom type="box" size="0.04 0.05 0.03" mass="1"/>'
        elif kind == 1:
            g = f'<geom type="sphere" size="0.045" mass="0.5"{c1}/>'
        else:
            g = '<geom type="capsule" size="0.03 0.04" mass="0.7" euler="90 0 0"/>'
        bodies.append(f'<body name="b{i}" pos="{x:.4f} {y:.4f} {z:.4f}" '
                      f'euler="{rng.uniform(0, 40):.1f} {rng.uniform(0, 40):.1f} 0">'
                      f'<freejoint/>{g}</body>')
    return f"""
<mujoco model="pile">
  <option {opt} cone="{cone}" impratio="{impratio}">{flags}</option>
  <default><geom friction="0.6"/></default>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"{c1}/>
    <geom name="wall_x0" type="box" pos="-0.3 0 0.2" size="0.02 0.3 0.2"{c1}/>
    <geom name="wall_x1" type="box" pos="0.3 0 0.2" size="0.02 0.3 0.2"{c1}/>
    <geom name="wall_y0" type="box" pos="0 -0.3 0.2" size="0.3 0.02 0.2"{c1}/>
    <geom name="wall_y1" type="box" pos="0 0.3 0.2" size="0.3 0.02 0.2"{c1}/>
    {''.join(bodies)}
  </worldbody>
</mujoco>"""


def chain_xml(cone="pyramidal", links=10):
    """A body of `links` capsules joined by links-1 hinges (limited, with friction loss,
    two of them coupled by a joint equality), lying on the floor."""
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
  <option {OPT} cone="{cone}"/>
  <default><geom friction="0.8"/></default>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 0.1"/>
    {link(0)}
  </worldbody>
  <equality><joint joint1="h3" joint2="h5"/></equality>
</mujoco>"""


def incline_xml(theta_deg, mu=0.5, cone="elliptic", impratio=1, condim=3):
    """A box on a slope of theta_deg (gravity tilted by theta), friction mu."""
    g, t = 9.81, math.radians(theta_deg)
    return f"""
<mujoco model="incline">
  <option {OPT} cone="{cone}" impratio="{impratio}"
          gravity="{g * math.sin(t):.12f} 0 {-g * math.cos(t):.12f}"/>
  <worldbody>
    <geom name="slope" type="plane" size="5 5 0.1" friction="{mu}" condim="{condim}"/>
    <body name="box" pos="0 0 0.05"><freejoint/>
      <geom name="box" type="box" size="0.1 0.08 0.05" mass="2" friction="{mu}"
            condim="{condim}"/>
    </body>
  </worldbody>
</mujoco>"""


def run(xml, steps):
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    for _ in range(steps):
        mujoco.mj_step(m, d)
    return m, d


def run_to_contacts(xml, steps, n_contacts=4, limit=200):
    """Steps at least `steps` times, then on until `n_contacts` contacts are active (a
    sliding box chatters: the convex relaxation lets sliding contacts separate)."""
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    for k in range(steps + limit):
        mujoco.mj_step(m, d)
        active = sum(1 for i in range(d.ncon) if d.contact[i].efc_address >= 0)
        if k + 1 >= steps and active == n_contacts:
            return m, d
    raise AssertionError(f"no state with {n_contacts} active contacts")


def chain_state(cone):
    m = mujoco.MjModel.from_xml_string(chain_xml(cone))
    d = mujoco.MjData(m)
    # bend two hinges past their limits so limit rows are active
    for name, a in (("h2", 0.6), ("h7", -0.6)):
        d.qpos[m.jnt_qposadr[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, name)]] = a
    for _ in range(5):
        mujoco.mj_step(m, d)
    return m, d


def assert_psd(W, rel=1e-10):
    assert np.array_equal(W, W.T), "W is not symmetric"
    ev = np.linalg.eigvalsh(W)
    assert ev.min() >= -rel * max(1.0, ev.max()), f"W has eigenvalue {ev.min()}"


TIMES: list = []


def check_both_ways(ex, tmp_path, name, tol=CONSISTENT_TOL, expect=None):
    """Python error vs. `nonsmooth check` on the JSON export: same verdict, same error."""
    t0 = time.perf_counter()
    err, per = python_error(ex)
    t_py = time.perf_counter() - t0
    py_verdict = "consistent" if err <= tol else "inconsistent"
    if expect is not None:
        assert py_verdict == expect, (name, err)
    f = tmp_path / f"{name}.json"
    ex.to_json(f)
    if not BIN.exists():
        print(f"\n{name}: python error {err:.3e}; command line not run: {NO_BIN}")
        return err, per, None, None
    summary, contacts, t_cli = cli_check(f, tol=tol)
    TIMES.append((name, ex.W.shape[0], t_py, t_cli))
    print(f"\n{name}: {ex.kind}, {len(ex.labels)} contacts, {ex.W.shape[0]} rows: python "
          f"error {err:.3e} ({t_py * 1e3:.2f} ms), CLI error {summary['error']:.3e} "
          f"verdict {summary['verdict']} ({t_cli * 1e3:.1f} ms incl. process start)")
    assert summary["verdict"] == py_verdict, (summary, err)
    # the same number up to rounding: u = W r + q summed in another order moves an error
    # at rounding level (1e-16..1e-13 here) by tens of percent, far below any tolerance
    assert summary["error"] == pytest.approx(err, rel=1e-6, abs=ROUNDING)
    return err, per, summary, contacts


# ---------------------------------------------------------------------------------------
# Tests.


@pytest.mark.parametrize("cone", ["elliptic", "pyramidal"])
def test_pile_converged_answer_is_consistent(cone, tmp_path):
    m, d = run(pile_xml(cone), 400)
    ex = nmj.extract(m, d)
    assert len(ex.labels) >= 30, len(ex.labels)
    assert ex.kind == ("ccp" if cone == "elliptic" else "lcp")
    assert_psd(ex.W)
    # W is J M^-1 J' + diag(efc_R): positive definite, the regulariser is on its diagonal
    assert np.linalg.eigvalsh(ex.W).min() > 0
    # MuJoCo's own consistency: W r + q is the constraint-space acceleration J qacc - aref
    # + R f (the dual residual), with M qacc = M qacc_smooth + J' f
    check_both_ways(ex, tmp_path, f"pile_{cone}", expect="consistent")
    hard = nmj.extract(m, d, view="hard")
    assert hard.kind == "coulomb" and hard.W.shape == (3 * len(hard.labels),) * 2
    assert_psd(hard.W)
    assert np.all(hard.r[0::3] >= 0)
    np.testing.assert_allclose(hard.u, hard.W @ hard.r + hard.q)
    # MuJoCo did not solve the hard problem: whatever its error, the CLI reads the same
    err_h, *_ = check_both_ways(hard, tmp_path, f"pile_{cone}_hard")
    print(f"hard view ({cone}): error of h f as a Coulomb answer {err_h:.2e}")


def test_labels_name_geoms_bodies_and_position():
    m, d = run(pile_xml("elliptic", n=6), 300)
    ex = nmj.extract(m, d)
    for lab, i in zip(ex.labels, [k for k in range(d.ncon) if d.contact[k].efc_address >= 0]):
        # two decimals; a coordinate that rounds to zero is written 0.00 whatever its sign
        p = [f"{x:.2f}" if f"{x:.2f}" != "-0.00" else "0.00" for x in d.contact[i].pos]
        assert lab.endswith(f"at ({p[0]}, {p[1]}, {p[2]})"), lab
        assert "-0.00" not in lab, lab
    assert any(lab.startswith("floor/") for lab in ex.labels), ex.labels
    assert any("b0" in lab or "b1" in lab for lab in ex.labels), ex.labels


def test_W_q_from_first_principles_dense_and_sparse():
    """W = J M^-1 J' + diag(efc_R) with M from mj_fullM and numpy's solve; MuJoCo's
    equations of motion M (qacc - qacc_smooth) = J' efc_force hold for its answer; a
    sparse Jacobian (efc_J_rownnz/rowadr/colind) gives the same W as a dense one."""
    m, d = run(pile_xml("elliptic", n=12, opt=OPT + ' jacobian="dense"'), 300)
    assert not mujoco.mj_isSparse(m)
    ex = nmj.extract(m, d)
    J = np.array(d.efc_J[: d.nefc * m.nv]).reshape(d.nefc, m.nv)
    M = np.zeros((m.nv, m.nv))
    mujoco.mj_fullM(m, d, M)
    jf = J.T @ d.efc_force
    np.testing.assert_allclose(M @ (d.qacc - d.qacc_smooth), jf, atol=1e-9 * np.abs(jf).max())
    W = J @ np.linalg.solve(M, J.T) + np.diag(d.efc_R[: d.nefc])
    np.testing.assert_allclose(ex.W, W, rtol=1e-10, atol=1e-10 * np.abs(W).max())
    np.testing.assert_array_equal(ex.q, d.efc_b[: d.nefc])
    np.testing.assert_array_equal(ex.r, d.efc_force[: d.nefc])
    ms, ds = run(pile_xml("elliptic", n=12, opt=OPT + ' jacobian="sparse"'), 300)
    assert mujoco.mj_isSparse(ms)
    exs = nmj.extract(ms, ds)
    assert exs.W.shape == ex.W.shape
    np.testing.assert_allclose(exs.W, ex.W, rtol=1e-8, atol=1e-8 * np.abs(W).max())


# the third-party problems: $NONSMOOTH_SHARED_DATA, else the copy shipped in data/
SHARED = Path(os.environ.get("NONSMOOTH_SHARED_DATA") or ROOT / "data") / "mujoco"
# initial velocities the shared exports' scene descriptions give (not in their MJCF)
LAUNCH = {"mujoco_sliding_slab_elliptic.json": {0: 2.0}}


@pytest.mark.parametrize("fname", sorted(p.name for p in SHARED.glob("*.json"))
                         if SHARED.exists() else ["(none)"])
def test_reproduces_the_shared_exports(fname):
    """The shared exports (made by an independent script, data/mujoco/, whose
    source.mjcf and steps_before_snapshot say how) are rebuilt from their scenes: W, q,
    MuJoCo's answer and the hard view, entry by entry."""
    if not SHARED.exists():
        message = f"{SHARED} is absent (third-party data, present in CI)"
        if os.environ.get("NONSMOOTH_REQUIRE_SHARED_DATA") == "1":
            pytest.fail(message)
        pytest.skip(message)
    doc = json.loads((SHARED / fname).read_text())
    src = doc["source"]
    if src["version"] != mujoco.__version__:
        pytest.skip(f"{fname} was made with MuJoCo {src['version']}, this is "
                    f"{mujoco.__version__}")
    m = mujoco.MjModel.from_xml_string(src["mjcf"])
    d = mujoco.MjData(m)
    for i, v in LAUNCH.get(fname, {}).items():
        d.qvel[i] = v
    for _ in range(src["steps_before_snapshot"]):
        mujoco.mj_step(m, d)
    mujoco.mj_forward(m, d)  # "mj_step x N, then mj_forward" (source.snapshot)
    ex, hx = nmj.extract(m, d), nmj.extract(m, d, view="hard")
    A = np.array(doc["A"])
    np.testing.assert_allclose(ex.W, A, rtol=0, atol=1e-12 * np.abs(A).max())
    np.testing.assert_allclose(ex.q, doc["b"], rtol=1e-12, atol=0)
    np.testing.assert_allclose(ex.r, doc["engine_solution"], rtol=1e-12, atol=0)
    np.testing.assert_allclose(ex.mu, doc["mu"], rtol=0, atol=0)
    fr = "" if "A_unregularized" in doc else "_contact_frame"
    Ah = np.array(doc["A_unregularized" if not fr else "A_contact_frame_unregularized"])
    np.testing.assert_allclose(hx.W, Ah, rtol=0, atol=1e-12 * np.abs(Ah).max())
    bh = np.array(doc["b_hard_velocity" + fr])
    np.testing.assert_allclose(hx.q, bh, rtol=0, atol=1e-12 * np.abs(bh).max())
    rh = np.array(doc["engine_impulse" + fr])
    np.testing.assert_allclose(hx.r, rh, rtol=0, atol=1e-12 * np.abs(rh).max())


def test_mixed_condim_is_padded_and_consistent(tmp_path):
    m, d = run(pile_xml("elliptic", n=18, mixed=True), 400)
    ex = nmj.extract(m, d)
    assert set(ex.condims) == {1, 3}, ex.condims
    assert any("frictionless" in w for w in ex.warnings)
    assert ex.W.shape == (3 * len(ex.condims),) * 2
    for c, dim in enumerate(ex.condims):
        if dim == 1:
            assert ex.mu[c] == 0 and ex.r[3 * c + 1] == 0 and ex.r[3 * c + 2] == 0
            assert ex.W[3 * c + 1, 3 * c + 1] == ex.W[3 * c, 3 * c]
    assert_psd(ex.W)
    check_both_ways(ex, tmp_path, "pile_mixed_elliptic", expect="consistent")
    mp, dp = run(pile_xml("pyramidal", n=18, mixed=True), 400)
    exp = nmj.extract(mp, dp)
    assert set(exp.condims) == {1, 3}
    check_both_ways(exp, tmp_path, "pile_mixed_pyramidal", expect="consistent")


def test_condim_4_is_a_gmp_elliptic_and_refused_pyramidal():
    """condim 4 (torsion) with the elliptic cone: a generic mechanical problem with 4-row
    contact blocks (tests/test_mujoco_generic.py judges such answers); with the pyramidal
    cone still a ValueError naming the contact."""
    m, d = run(incline_xml(10, condim=4), 20)
    ex = nmj.extract(m, d)
    assert ex.kind == "gmp" and ex.law == "ccp"
    assert all(b[0] == "contact" and len(b[1]) == 3 for b in ex.blocks), ex.blocks
    mp, dp = run(incline_xml(10, condim=4, cone="pyramidal"), 20)
    with pytest.raises(ValueError, match=r"contact 0 \(slope/box at .*condim 4 with the "
                                         r"pyramidal cone"):
        nmj.extract(mp, dp)


def test_anisotropic_elliptic_friction_is_a_gmp():
    xml = incline_xml(10).replace("</worldbody>", """</worldbody>
  <contact><pair geom1="slope" geom2="box" condim="3" friction="0.5 0.3 0.005 0.0001 0.0001"/>
  </contact>""")
    m, d = run(xml, 20)
    ex = nmj.extract(m, d)  # an elliptic cone with a coefficient per direction
    assert ex.kind == "gmp" and ex.blocks[0] == ("contact", [0.5, 0.3])
    mp, dp = run(xml.replace('cone="elliptic"', 'cone="pyramidal"'), 20)
    ex = nmj.extract(mp, dp)  # the pyramid's edges hold each direction's coefficient
    assert ex.E[1, 0] == 0.5 and ex.E[2, 2] == pytest.approx(0.3)


def test_noslip_is_announced():
    xml = incline_xml(20.0).replace('integrator="Euler"', 'integrator="Euler" '
                                    'noslip_iterations="5"')
    m, d = run(xml, 20)
    ex = nmj.extract(m, d)
    assert any("noslip_iterations = 5" in w for w in ex.warnings), ex.warnings


def test_capped_iterations_are_flagged_with_worst_contacts(tmp_path):
    opt = ('timestep="0.002" solver="PGS" tolerance="1e-12" iterations="2" '
           'integrator="Euler"')
    flags = '<flag warmstart="disable"/>'
    m, d = run(pile_xml("elliptic", opt=opt, flags=flags), 400)
    assert d.solver_niter[0] <= 2
    ex = nmj.extract(m, d)
    err, per, summary, contacts = check_both_ways(ex, tmp_path, "pile_capped",
                                                  expect="inconsistent")
    assert err > INCONSISTENT_MIN, err
    worst = np.argsort(-per)[:3]
    names = [ex.labels[i] for i in worst]
    print("worst contacts:", "; ".join(f"{n} (|e| = {per[i]:.2e})"
                                      for n, i in zip(names, worst)))
    # the export carries the labels, so the command line can name them
    doc = json.loads((tmp_path / "pile_capped.json").read_text())
    assert [doc["contacts"][i]["label"] for i in worst] == names
    _, top, _ = cli_check(tmp_path / "pile_capped.json", worst=3)
    assert [c["contact"] for c in top] == [int(i) for i in worst]


@pytest.mark.parametrize("cone", ["elliptic", "pyramidal"])
@pytest.mark.parametrize("theta", [20.0, 35.0])
def test_incline_sticks_below_and_slides_above_threshold(cone, theta, tmp_path):
    mu = 0.5  # threshold atan(0.5) = 26.6 degrees
    m, d = run_to_contacts(incline_xml(theta, mu, cone), 30)
    ex = nmj.extract(m, d)
    f = ex.r.reshape(-1, 3) if cone == "elliptic" else (ex.E @ ex.r).reshape(-1, 3)
    rn, rt = f[:, 0], np.linalg.norm(f[:, 1:], axis=1)
    vx = d.qvel[0]
    check_both_ways(ex, tmp_path, f"incline_{cone}_{theta:.0f}", expect="consistent")
    if math.tan(math.radians(theta)) < mu:
        assert np.all(rt < 0.95 * mu * rn), (rt, mu * rn)  # strictly inside the cone
        assert abs(vx) < 5e-3, vx  # creep of the soft contact, not sliding
    else:
        np.testing.assert_allclose(rt, mu * rn, rtol=1e-6)  # on the cone's boundary
        # accelerating down the slope at about g (sin - mu cos) (the box chatters)
        assert vx > 0.5 * 9.81 * (math.sin(math.radians(theta)) - mu * math.cos(
            math.radians(theta))) * d.time, (vx, d.time)


def test_impratio_uses_friction0_not_contact_mu(tmp_path):
    """Issue 13: with impratio = 10 the force cone is friction[0]; contact.mu =
    friction[0] / sqrt(impratio) turns MuJoCo's consistent answer inconsistent."""
    m, d = run_to_contacts(incline_xml(35.0, 0.5, "elliptic", impratio=10), 30)
    ex = nmj.extract(m, d)
    assert any("impratio" in w for w in ex.warnings)
    c0 = [k for k in range(d.ncon) if d.contact[k].efc_address >= 0][0]
    assert ex.mu[0] == d.contact[c0].friction[0]
    assert d.contact[c0].mu == pytest.approx(0.5 / math.sqrt(10))
    err, *_ = check_both_ways(ex, tmp_path, "incline_impratio10", expect="consistent")
    wrong = np.array([d.contact[k].mu for k in range(d.ncon)
                      if d.contact[k].efc_address >= 0])
    err_wrong, _ = friction_errors(ex.W, ex.q, wrong, ex.r, "ccp")
    print(f"\nimpratio 10: error with friction[0] {err:.2e}, with contact.mu {err_wrong:.2e}")
    assert err_wrong > 1e3 * max(err, CONSISTENT_TOL) and err_wrong > INCONSISTENT_MIN
    # impratio is in efc_R: R_t = R_n / impratio on every elliptic contact
    a = int(d.contact[c0].efc_address)
    assert d.efc_R[a + 1] == pytest.approx(d.efc_R[a] / 10, rel=1e-12)


@pytest.mark.parametrize("cone", ["elliptic", "pyramidal"])
def test_impratio_divides_the_friction_regulariser(cone):
    """At one state, impratio 1 -> 10 divides efc_R of the friction rows (elliptic t1, t2;
    pyramidal: every edge) by 10 and leaves the normal row's; mu stays friction[0]; W
    changes only on its diagonal."""
    m = mujoco.MjModel.from_xml_string(incline_xml(20.0, 0.5, cone, impratio=1))
    d = mujoco.MjData(m)
    for _ in range(30):
        mujoco.mj_step(m, d)
    mujoco.mj_forward(m, d)
    a = int(d.contact[0].efc_address)
    k = 3 if cone == "elliptic" else 4
    r1, ex1 = np.array(d.efc_R[a:a + k]), nmj.extract(m, d)
    m.opt.impratio = 10
    mujoco.mj_forward(m, d)
    r10, ex10 = np.array(d.efc_R[a:a + k]), nmj.extract(m, d)
    if cone == "elliptic":
        assert r10[0] == pytest.approx(r1[0], rel=1e-14)
        np.testing.assert_allclose(r1[1:] / r10[1:], 10, rtol=1e-12)
    else:
        np.testing.assert_allclose(r1 / r10, 10, rtol=1e-12)
    np.testing.assert_array_equal(ex1.mu, ex10.mu)
    off = ~np.eye(len(ex1.q), dtype=bool)
    np.testing.assert_allclose(ex1.W[off], ex10.W[off], rtol=0, atol=1e-14)


def test_chain_pyramidal_is_a_boxed_lcp(tmp_path):
    m, d = chain_state("pyramidal")
    types = set(int(t) for t in d.efc_type[: d.nefc])
    assert {0, 1, 3} <= types, types  # equality, dof friction loss, joint limit
    ex = nmj.extract(m, d)
    assert ex.kind == "boxed-lcp"
    assert np.isneginf(ex.lo).sum() >= 1 and np.isfinite(ex.hi).sum() >= 9
    assert_psd(ex.W)
    check_both_ways(ex, tmp_path, "chain_pyramidal_boxed", expect="consistent")
    ns = _native()
    if ns is not None:  # Problem.read of the project's boxed-lcp file
        p = ex.problem()
        assert p.type == "boxed-lcp" and p.dim == len(ex.q)
        np.testing.assert_array_equal(np.asarray(p.A.todense() if hasattr(p.A, "todense")
                                                 else p.A), ex.W)


def test_chain_elliptic_is_a_gmp_or_fixed_rows(tmp_path):
    m, d = chain_state("elliptic")
    ex = nmj.extract(m, d)  # every row a block (tests/test_mujoco_generic.py judges it)
    assert ex.kind == "gmp" and {"equality", "unilateral"} <= set(
        b for b in ex.blocks if isinstance(b, str))
    with pytest.raises(ValueError, match="equality.*friction loss.*limit.*generic"):
        nmj.extract(m, d, extra_rows="box")
    ex = nmj.extract(m, d, extra_rows="fixed")
    assert any("held fixed" in w for w in ex.warnings)
    assert ex.kind == "ccp"
    check_both_ways(ex, tmp_path, "chain_elliptic_fixed", expect="consistent")
    assert nmj.extract(m, d, view="hard").kind == "gmp"


def test_hard_view_units_and_impulse():
    m, d = run(incline_xml(20.0), 100)
    soft, hard = nmj.extract(m, d), nmj.extract(m, d, view="hard")
    h = m.opt.timestep
    np.testing.assert_allclose(hard.r, h * soft.r)
    assert hard.units["r"] == "N s" and soft.units["r"] == "N"
    assert hard.kind == "coulomb"
    # the box rests: the hard velocity after the step nearly vanishes in the normal rows
    assert np.abs(hard.u[0::3]).max() < 1e-3


def test_native_problem_matches_when_available():
    ns = _native()
    if ns is None:
        pytest.skip("the native nonsmooth package is not built (python/ is tested through "
                    "the JSON export and the command line)")
    for xml, capped in ((pile_xml("elliptic"), False),
                        (pile_xml("elliptic", opt=OPT.replace('"1000"', '"1"').replace(
                            "Newton", "PGS"), flags='<flag warmstart="disable"/>'), True)):
        m, d = run(xml, 400)
        ex = nmj.extract(m, d)
        p = ex.problem()
        t0 = time.perf_counter()
        rep = ns.check(p, ex.r, tol=CONSISTENT_TOL)
        t_native = time.perf_counter() - t0
        err, per = python_error(ex)
        TIMES.append(("native check " + ("capped" if capped else "converged"),
                      ex.W.shape[0], t_native, None))
        assert rep.error == pytest.approx(err, rel=1e-6, abs=ROUNDING)
        assert rep.consistent == (not capped)
        assert list(rep.contacts["label"]) == ex.labels
        if capped:  # the worst contacts, named as the numpy path names them
            worst = np.argsort(-np.asarray(rep.contacts["error"]))[:3]
            assert list(worst) == list(np.argsort(-per)[:3])
    hx = nmj.extract(m, d, view="hard")
    rep = ns.check(hx.problem(), hx.r, tol=CONSISTENT_TOL)
    assert rep.kind == "coulomb"
    assert rep.error == pytest.approx(python_error(hx)[0], rel=1e-6, abs=ROUNDING)


def test_print_times():
    """Prints the time of each check recorded above (pytest -s)."""
    for name, rows, t_py, t_cli in TIMES:
        if t_cli is None:  # the native ns.check
            print(f"{name:28s} {rows:5d} rows  ns.check {t_py * 1e3:8.2f} ms")
        else:
            print(f"{name:28s} {rows:5d} rows  numpy {t_py * 1e3:8.2f} ms  CLI {t_cli * 1e3:8.1f} ms"
                  f" (with process start)")
