"""check_trajectory: every step of an in-memory rollout, checked and summarised."""

import numpy as np
import pytest

import nonsmooth as ns
from conftest import generated


def rollout():
    """Six steps of one problem family, answered by NSGS capped at more and more sweeps:
    the early steps are far from the solution, the last ones close to it."""
    steps = []
    for i, sweeps in enumerate([1, 2, 4, 50, 200, 1000]):
        p, _, _ = generated(nc=4, seed=30 + i, kind="ccp")
        res = ns.solve(p, method="nsgs", tol=1e-14, max_iter=sweeps)
        steps.append((p, res.r))
    return steps


def test_each_step_is_what_check_says():
    steps = rollout()
    traj = ns.check_trajectory(steps, tol=1e-8)
    assert traj.steps.dtype == ns.trajectory.STEP_DTYPE
    assert list(traj.steps["step"]) == list(range(len(steps)))
    for row, (p, r) in zip(traj.steps, steps):
        rep = ns.check(p, r, tol=1e-8)
        assert row["error"] == rep.error
        assert row["consistent"] == rep.consistent
        assert row["contacts"] == p.contacts
        assert row["distance"] == pytest.approx(rep.reference["distance"], rel=1e-9, abs=1e-14)
    # the one-sweep answer is the worst by error and by distance; the summary says so
    assert traj.worst(1)["step"][0] == traj.worst(1, by="distance")["step"][0] == 0
    assert not traj.consistent
    assert traj.steps["consistent"][-1] and not traj.steps["consistent"][0]
    assert len(traj.table().splitlines()) == len(steps) + 1


def test_without_reference_distances_are_nan_and_worst_contact_by_error():
    traj = ns.check_trajectory(rollout()[:2], reference=False)
    assert np.all(np.isnan(traj.steps["distance"]))
    assert np.all(traj.steps["worst_contact"] >= 0)


def test_a_bad_step_is_named():
    steps = rollout()[:3]
    p, r = steps[1]
    steps[1] = (p, np.append(r, 1.0))
    with pytest.raises(ValueError, match="step 1"):
        ns.check_trajectory(steps)
    with pytest.raises(ValueError, match="by is"):
        ns.check_trajectory(rollout()[:1]).worst(by="time")


def test_labels_name_the_worst_contact_of_each_step():
    """Labelled problems (as the MuJoCo bridge makes them): each step's worst contact is
    named in ``labels`` and in the table; unlabelled ones leave ``""`` and no column."""
    steps = []
    for p, r in rollout()[:3]:
        names = [f"box{c}/floor" for c in range(p.contacts)]
        lp = ns.Problem.local(p.W, p.q, p.mu, kind="ccp", labels=names)
        steps.append((lp, r))
    traj = ns.check_trajectory(steps)
    for row, lab in zip(traj.steps, traj.labels):
        assert lab == f"box{row['worst_contact']}/floor"
    table = traj.table().splitlines()
    assert table[0].endswith("label") and table[1].endswith(traj.labels[0])
    plain = ns.check_trajectory(rollout()[:2])
    assert plain.labels == ["", ""] and not plain.table().splitlines()[0].endswith("label")


def test_plot_draws_every_step(tmp_path):
    """``plot`` (matplotlib, optional) draws one point per step of the error and of the
    relative distance, marks the inconsistent steps, and writes the file asked for."""
    pytest.importorskip("matplotlib")
    traj = ns.check_trajectory(rollout())
    out = tmp_path / "rollout.svg"
    fig = traj.plot(out)
    assert out.stat().st_size > 1000 and out.read_text().lstrip().startswith("<?xml")
    lines = fig.axes[0].get_lines()
    labels = [ln.get_label() for ln in lines]
    err = lines[labels.index("error")]
    assert list(err.get_xdata()) == list(traj.steps["step"])
    bad = lines[labels.index("inconsistent")]
    assert len(bad.get_xdata()) == int(np.sum(~traj.steps["consistent"])) > 0


def test_workers_give_the_same_report():
    """Steps checked in threads (``workers``) give the report of the sequential run, row by
    row; a bad step is still named; a bad ``workers`` is refused."""
    steps = rollout()
    one = ns.check_trajectory(steps)
    two = ns.check_trajectory(iter(steps), workers=2)
    assert one.steps.tobytes() == two.steps.tobytes() and one.labels == two.labels
    bad = list(steps)
    p, r = bad[4]
    bad[4] = (p, np.append(r, 1.0))
    with pytest.raises(ValueError, match="step 4"):
        ns.check_trajectory(bad, workers=3)
    with pytest.raises(ValueError, match="workers"):
        ns.check_trajectory(steps, workers=0)



def test_a_rollout_archive_round_trips_and_is_checked_alike(tmp_path):
    """write_rollout keeps every step (problem, answer, labels); check_trajectory on the
    archive gives the report of the in-memory steps, and so does `nonsmooth check`."""
    steps = rollout()
    path = tmp_path / "roll.npz"
    ns.write_rollout(path, steps)
    back = ns.read_rollout(path)
    assert len(back) == len(steps)
    for (p, r), q in zip(steps, back):
        np.testing.assert_array_equal(q.answer.r, r)
        assert q.dim == p.dim and q.contacts == p.contacts
        np.testing.assert_array_equal(np.asarray(q.W.todense() if hasattr(q.W, "todense")
                                                 else q.W), np.asarray(p.W))
    a = ns.check_trajectory(steps)
    b = ns.check_trajectory(path)
    np.testing.assert_array_equal(a.steps["error"], b.steps["error"])
    np.testing.assert_allclose(a.steps["distance"], b.steps["distance"], rtol=1e-9)
    import json
    import os
    import subprocess
    from pathlib import Path

    exe = Path(os.environ.get("NONSMOOTH_BIN", ""))
    if exe.is_file():
        out = subprocess.run([str(exe), "check", str(path), "--json"], capture_output=True,
                             text=True)
        assert out.returncode == 1, out.stderr  # the early steps are far off
        rows = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
        errors = [x["error"] for x in rows if "error" in x and "step" in x]
        np.testing.assert_allclose(errors, a.steps["error"], rtol=1e-12)


def test_bad_rollouts_are_refused(tmp_path):
    steps = rollout()[:2]
    with pytest.raises(ValueError, match="no problems"):
        ns.write_rollout(tmp_path / "e.npz", [])
    with pytest.raises(ns.FormatError, match="npz"):
        ns.write_rollout(tmp_path / "e.json", steps)
    p, r = steps[0]
    with pytest.raises(ns.ProblemError, match="step 1"):
        ns.write_rollout(tmp_path / "e.npz", [steps[0], (p, np.append(r, 1.0))])
    with pytest.raises(TypeError, match="step 0"):
        ns.write_rollout(tmp_path / "e.npz", [3])
    # never over an input: a rollout read back cannot be written over its own file
    path = tmp_path / "r.npz"
    ns.write_rollout(path, steps)
    with pytest.raises(ValueError, match="never written over an input"):
        ns.write_rollout(path, ns.read_rollout(path))
    # steps without answers cannot be checked from the archive
    p.write(tmp_path / "one.npz")
    ns.write_rollout(tmp_path / "noanswer.npz", [ns.Problem.read(tmp_path / "one.npz")])
    with pytest.raises(ValueError, match="step 0 carries no answer"):
        ns.check_trajectory(tmp_path / "noanswer.npz")
    # a rollout is not one problem
    with pytest.raises(ns.FormatError, match="rollout archive"):
        ns.Problem.read(path)
