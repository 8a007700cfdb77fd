"""MuJoCo's default (pyramidal) cone judged in forces (issue 32, item 1).

A pile in a bin stepped with the pyramidal cone, MuJoCo's answer capped at a few PGS
sweeps: ``extract(...).problem()`` carries the pyramid of the contacts, so
``nonsmooth.check`` gives one record per contact in the contact frame (``E p``, MuJoCo's
``mj_contactForce``), in N, with labels and the worst contact; ``Problem.read`` of the
export and ``nonsmooth check`` on it give the same numbers, and both also judge the
forces in the elliptic problem of the same contacts.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco", reason="mujoco is not installed (pip install mujoco)")
ns = pytest.importorskip("nonsmooth")
if not hasattr(ns, "Problem"):
    pytest.skip("the native nonsmooth package is not built", allow_module_level=True)
nmj = importlib.import_module("nonsmooth.mujoco")

BIN = Path(os.environ.get("NONSMOOTH_BIN", Path(__file__).resolve().parents[2]
                          / "target" / "release" / "nonsmooth"))

PILE = """
<mujoco>
  <option timestep="0.002" cone="pyramidal" solver="{solver}" iterations="{iters}"
          tolerance="1e-12" integrator="Euler"/>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1"/>
    <geom type="box" size="0.3 0.02 0.2" pos="0 0.3 0.2"/>
    <geom type="box" size="0.3 0.02 0.2" pos="0 -0.3 0.2"/>
    <geom type="box" size="0.02 0.3 0.2" pos="0.3 0 0.2"/>
    <geom type="box" size="0.02 0.3 0.2" pos="-0.3 0 0.2"/>
    {bodies}
  </worldbody>
</mujoco>
"""


def pile(iters, n=16, steps=300, solver="PGS"):
    rng = np.random.default_rng(7)
    bodies = []
    for i in range(n):
        x, y = rng.uniform(-0.2, 0.2, 2)
        z = 0.06 + 0.07 * i
        bodies.append(f'<body name="b{i}" pos="{x:.3f} {y:.3f} {z:.3f}"><freejoint/>'
                      f'<geom type="box" size="0.04 0.03 0.025" friction="0.6"/></body>')
    m = mujoco.MjModel.from_xml_string(PILE.format(iters=iters, solver=solver, bodies="".join(bodies)))
    d = mujoco.MjData(m)
    for _ in range(steps):
        mujoco.mj_step(m, d)
    return m, d


def test_pyramidal_answer_is_judged_as_contact_forces(tmp_path):
    m, d = pile(iters=4)
    ex = nmj.extract(m, d)
    assert ex.kind == "lcp" and ex.E is not None and len(ex.labels) > 20
    pyr = ex.pyramid()
    assert len(pyr) == len(ex.labels)
    rep = ns.check(ex.problem(), ex.r)
    assert rep.pyramid_contacts == len(ex.labels)
    assert rep.force_unit == "N"
    c = rep.contacts
    f = ex.E @ ex.r
    np.testing.assert_allclose(c["r_n"], f[0::3], rtol=1e-12, atol=1e-12 * abs(f).max())
    np.testing.assert_allclose(c["r_t1"], f[1::3], rtol=1e-12, atol=1e-12 * abs(f).max())
    np.testing.assert_allclose(c["r_t2"], f[2::3], rtol=1e-12, atol=1e-12 * abs(f).max())
    assert list(c["label"]) == ex.labels
    # four PGS sweeps leave MuJoCo far from the solution: flagged, in N, worst contact named
    assert not rep.consistent
    ref = rep.reference
    assert ref["found"], ref
    assert ref["distance_of"].startswith("contact-frame forces")
    assert ref["worst_label"] == ex.labels[ref["worst_contact"]]
    worst = int(np.argmax(c["distance"]))
    assert worst == ref["worst_contact"]

    # the export, read back by Python and by the command line: the same numbers
    path = tmp_path / "pyr.json"
    ex.to_json(path)
    back = ns.Problem.read(path)
    rb = ns.check(back, back.answer["r"] if isinstance(back.answer, dict) else ex.r)
    assert rb.reference["distance"] == pytest.approx(ref["distance"], rel=1e-9)
    assert rb.elliptic is not None and rb.elliptic["problem"].startswith("the same")
    if BIN.exists():
        out = subprocess.run([str(BIN), "check", str(path), "--json"], capture_output=True,
                             text=True)
        assert out.returncode == 1, out.stderr
        summary = json.loads(out.stdout.splitlines()[0])
        assert summary["reference"]["distance"] == pytest.approx(ref["distance"], rel=1e-9)
        assert summary["elliptic"]["error"] == pytest.approx(rb.elliptic["error"], rel=1e-9)


def test_a_converged_pyramidal_answer_is_consistent_and_differs_from_the_cone(tmp_path):
    m, d = pile(iters=1000, solver="Newton")
    ex = nmj.extract(m, d)
    path = tmp_path / "pyr.json"
    ex.to_json(path)
    p = ns.Problem.read(path)
    rep = ns.check(p, ex.r)
    assert rep.consistent, rep.grade
    e = rep.elliptic
    # the pyramid is inscribed in the cone: the two models' solutions differ
    if e["reference_found"]:
        assert e["between_references"] > 0
        assert e["distance"] == pytest.approx(e["between_references"], rel=1e-3)


def test_a_mujoco_rollout_fits_one_npz_and_checks_alike(tmp_path):
    """Every step of a MuJoCo rollout (pyramidal, PGS capped) in one archive: far smaller
    than one JSON export per step, read back with its pyramids and labels, and judged as
    the in-memory steps are."""
    m, d = pile(iters=20, steps=150)
    problems, json_bytes = [], 0
    for k in range(12):
        mujoco.mj_step(m, d)
        ex = nmj.extract(m, d)
        problems.append(ex.problem())
        ex.to_json(tmp_path / f"s{k}.json")
        json_bytes += (tmp_path / f"s{k}.json").stat().st_size
    path = tmp_path / "roll.npz"
    ns.write_rollout(path, problems)
    size = path.stat().st_size
    print(f"\nrollout of {len(problems)} steps ({problems[-1].contacts} contacts): "
          f"{size / len(problems) / 1e3:.1f} kB per step in the archive, "
          f"{json_bytes / len(problems) / 1e3:.1f} kB per step as JSON exports")
    assert size < json_bytes / 3
    back = ns.read_rollout(path)
    assert [list(p.labels) for p in back] == [list(p.labels) for p in problems]
    a = ns.check_trajectory([(p, p.answer.r) for p in problems])
    b = ns.check_trajectory(path, workers=2)
    np.testing.assert_allclose(a.steps["error"], b.steps["error"], rtol=1e-12)
    np.testing.assert_allclose(a.steps["distance"], b.steps["distance"], rtol=1e-9)
    assert a.labels == b.labels and any(a.labels)
    assert all(r.pyramid_contacts for r in b.reports)
