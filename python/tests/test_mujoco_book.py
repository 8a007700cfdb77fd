"""Writes and checks ``book/src/generated/mujoco_bridge.txt``, the output shown in the
book's chapter *The MuJoCo bridge*.

Write it: ``python python/tests/test_mujoco_book.py`` (with ``mujoco`` installed).
The test regenerates the text and fails when the file differs, so the book shows what the
code prints. Numbers are printed to two significant digits, and errors at rounding level
as a bound, so that the text does not depend on the last bits of a CPU's arithmetic; the
file records the MuJoCo version, and the test skips (saying so) under another version.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco", reason="mujoco is not installed (pip install mujoco)")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_mujoco as T  # noqa: E402  (the scenes and the error measures)

OUT = T.ROOT / "book" / "src" / "generated" / "mujoco_bridge.txt"
# The tolerance guidance of the section "Which tolerance, and which measure".
OUT_DEFAULTS = T.ROOT / "book" / "src" / "generated" / "mujoco_defaults.txt"


def _err(e: float) -> str:
    return "< 1e-12" if e < 1e-12 else f"{e:.1e}"


def generate() -> str:
    lines = [f"MuJoCo {mujoco.__version__} (Python package), nonsmooth.mujoco.extract", ""]
    for theta in (20.0, 35.0):
        m, d = T.run_to_contacts(T.incline_xml(theta, 0.5, "elliptic", impratio=10), 30)
        ex = T.nmj.extract(m, d)
        f = ex.r.reshape(-1, 3)
        ratio = np.linalg.norm(f[:, 1:], axis=1) / (ex.mu * f[:, 0])
        right, _ = T.friction_errors(ex.W, ex.q, ex.mu, ex.r, "ccp")
        cmu = np.array([d.contact[i].mu for i in range(d.ncon)
                        if d.contact[i].efc_address >= 0])
        wrong, _ = T.friction_errors(ex.W, ex.q, cmu, ex.r, "ccp")
        state = "sticks" if math.tan(math.radians(theta)) < 0.5 else "slides"
        lines += [
            f"box on a {theta:.0f} degree slope, friction[0] = 0.5, impratio = 10, elliptic "
            f"cone: tan(theta) = {math.tan(math.radians(theta)):.2f}, the box {state}",
            f"  contacts                         {len(ex.labels)} ({ex.labels[0]}, ...)",
            f"  |r_t| / (mu r_n), largest        {ratio.max():.2f}",
            f"  contact.mu = friction[0]/sqrt(impratio) = {cmu[0]:.3f}",
            f"  error judged with friction[0]    {_err(right)}",
            f"  error judged with contact.mu     {_err(wrong)}",
            "",
        ]
    opt = ('timestep="0.002" solver="PGS" tolerance="1e-12" iterations="2" '
           'integrator="Euler"')
    m, d = T.run(T.pile_xml("elliptic", opt=opt, flags='<flag warmstart="disable"/>'), 400)
    ex = T.nmj.extract(m, d)
    err, per = T.python_error(ex)
    lines += [f"pile of 30 bodies in a bin, PGS capped at {m.opt.iterations} sweeps, no warm "
              f"start: {len(ex.labels)} contacts, error {_err(err)}; worst contacts:"]
    for i in np.argsort(-per)[:3]:
        lines.append(f"  {i:4d}  {ex.labels[i]}  |e_c| = {per[i]:.1e}")
    m, d = T.run(T.pile_xml("elliptic"), 400)
    ex = T.nmj.extract(m, d)
    err, _ = T.python_error(ex)
    lines += [f"the same pile, Newton converged (tolerance 1e-12): error "
              f"{'below 1e-6' if err < 1e-6 else _err(err)}"]
    lines += ["", *_verdicts_and_distances()]
    lines += ["", *_generic_scenes()]
    return "\n".join(lines) + "\n"


def _generic_scenes() -> list:
    """Scenes the local friction problem cannot hold, read as generic mechanical problems
    (test_mujoco_generic.py): error of MuJoCo's answer (numpy natural map, and
    nonsmooth.check, which must agree), the verdict, and the distance to the reference
    solution nonsmooth.check finds with gmp-newton."""
    import test_mujoco_generic as G

    ns = T._native()
    nw = G.NO_WARMSTART
    scenes = [
        ("ball and box, condim 6", lambda: G.run(G.balls_xml(), 200)),
        ("the same, PGS 2 sweeps", lambda: G.run(G.balls_xml(opt=G.CAPPED, flags=nw), 200)),
        ("pair friction 0.8/0.3, c. 3", lambda: G.run(G.pair_xml(condim=3), 150)),
        ("the same, condim 6, imp. 10", lambda: G.run(G.pair_xml(condim=6, impratio=10), 150)),
        ("chain, elliptic, all rows", lambda: G.run(G.chain_xml(), 100, bend=True)),
        ("the same, PGS 2 sweeps", lambda: G.run(G.chain_xml(opt=G.CAPPED, flags=nw), 5,
                                                  bend=True)),
    ]
    rows = [f"generic mechanical problems (gmp, soft view, ccp): nonsmooth.check at tolerance "
            f"{T.CONSISTENT_TOL:g}",
            f"  {'scene':28s} {'rows':>4s} {'blocks':46s} {'verdict':12s} {'error':>8s}  "
            f"{'distance':>8s}"]
    notes = []
    for name, make in scenes:
        m, d = make()
        ex = T.nmj.extract(m, d)
        err, _ = G.gmp_error(ex.W, ex.q, ex.blocks, ex.r)
        rep = ns.check(ex.problem(), ex.r, tol=T.CONSISTENT_TOL)
        ref = rep.reference or {}
        unique = {True: "yes", False: "no"}.get(ref.get("unique"), "?")
        found = f"{ref.get('method', '?')} ({ref.get('found_from', '?')})" if ref else "none"
        assert rep.error == pytest.approx(err, rel=1e-6, abs=1e-15)
        count: dict = {}
        for b in ex.blocks:
            key = b if isinstance(b, str) else (b[0] if b[0] == "interval"
                                                 else f"contact{1 + len(b[1])}")
            count[key] = count.get(key, 0) + 1
        kinds = " ".join(f"{v} {k}" for k, v in count.items())
        rows.append(f"  {name:28s} {len(ex.q):4d} {kinds:46s} {rep.verdict:12s} "
                    f"{_err(rep.error):>8s}  {_dist(ref.get('distance')):>8s}")
        notes.append(f"unique {unique}, reference from {found}")
    # Whether the reference is unique and where it came from: one line when every row
    # shares them (the table then fits the book's column), else one line per row.
    if len(set(notes)) == 1:
        rows.append(f"  every row: {notes[0]}")
    else:
        rows += [f"  {name}: {n}" for (name, _), n in zip(scenes, notes)]
    return rows


def generate_defaults() -> str:
    return "\n".join([f"MuJoCo {mujoco.__version__} (Python package)", *_default_settings()]) + "\n"


def _default_settings() -> list:
    """Tolerance guidance: what MuJoCo's solvers reach at their default settings
    (tolerance 1e-8, 100 iterations, warm start on), in both measures, on the chapter's
    pile and incline. Each answer is judged by residual and by distance at the chapter's
    tolerance; `relative` is ||r - r*|| / ||r*||, `contact` the worst contact's distance
    over the largest contact force."""
    ns = T._native()
    tol = T.CONSISTENT_TOL
    rows = [f"MuJoCo's default settings (tolerance 1e-8, 100 iterations), elliptic cone: "
            f"nonsmooth.check at {tol:g}",
            f"  {'scene':24s} {'solver':7s} {'rows':>4s}  {'error':>8s}  {'relative':>8s}  "
            f"{'contact':>8s}  {'by residual':12s} by distance"]
    for solver in ("Newton", "CG", "PGS"):
        opt = f'timestep="0.002" solver="{solver}" integrator="Euler"'
        scenes = [
            ("pile of 30, 400 steps", lambda: T.run(T.pile_xml("elliptic", opt=opt), 400)),
            ("incline 20 deg (sticks)", lambda: T.run_to_contacts(
                T.incline_xml(20.0, 0.5, "elliptic", impratio=10).replace(T.OPT, opt), 30)),
        ]
        for name, make in scenes:
            m, d = make()
            ex = T.nmj.extract(m, d)
            res = ns.check(ex.problem(), ex.r, tol=tol, by="residual")
            dis = ns.check(ex.problem(), ex.r, tol=tol, by="distance")
            ref = dis.reference or {}
            rows.append(f"  {name:24s} {solver:7s} {len(ex.q):4d}  {_err(res.error):>8s}  "
                        f"{_dist(ref.get('relative_distance')):>8s}  "
                        f"{_dist(ref.get('worst_relative_distance')):>8s}  "
                        f"{res.verdict:12s} {dis.verdict}")
    return rows


def _dist(x) -> str:
    """A distance to two digits, or a bound where it is at the reference's own accuracy."""
    if x is None:
        return "none"
    return "< 1e-9" if x < 1e-9 else f"{x:.1e}"


def _verdicts_and_distances() -> list:
    """`nonsmooth.check` (with its reference solve) on the issue's three scenes."""
    ns = T._native()
    if ns is None:
        raise RuntimeError("the native nonsmooth package is not built: pip install ./python")
    opt_capped = ('timestep="0.002" solver="PGS" tolerance="1e-12" iterations="2" '
                  'integrator="Euler"')
    scenes = [
        ("incline 20 deg (sticks)", lambda: T.run_to_contacts(
            T.incline_xml(20.0, 0.5, "elliptic", impratio=10), 30)),
        ("incline 35 deg (slides)", lambda: T.run_to_contacts(
            T.incline_xml(35.0, 0.5, "elliptic", impratio=10), 30)),
        ("pile, Newton converged", lambda: T.run(T.pile_xml("elliptic"), 400)),
        ("pile, PGS 2 sweeps", lambda: T.run(
            T.pile_xml("elliptic", opt=opt_capped, flags='<flag warmstart="disable"/>'), 400)),
        ("nine hinges, pyramidal", lambda: T.chain_state("pyramidal")),
    ]
    head = (f"nonsmooth.check at tolerance {T.CONSISTENT_TOL:g}, reference solve on "
            f"(soft view: forces in N)")
    rows = [head, f"  {'scene':26s} {'problem':10s} {'rows':>5s}  {'verdict':12s} "
                  f"{'error':>8s}  {'distance':>8s}  {'relative':>8s}  {'unique':>6s}"]
    for name, make in scenes:
        m, d = make()
        ex = T.nmj.extract(m, d)
        rep = ns.check(ex.problem(), ex.r, tol=T.CONSISTENT_TOL)
        ref = rep.reference or {}
        dist = ref.get("distance")
        unique = {True: "yes", False: "no"}.get(ref.get("unique"), "?")
        worst = ""
        if dist is not None and dist >= 1e-9 and ref.get("worst_contact") is not None:
            worst = f"{ref['worst_contact']} ({ref.get('worst_label') or 'no label'})"
        rows.append(f"  {name:26s} {rep.type:10s} {len(ex.q):5d}  {rep.verdict:12s} "
                    f"{_err(rep.error):>8s}  {_dist(dist):>8s}  {_dist(ref.get('relative_distance')):>8s}  "
                    f"{unique:>6s}")
        # The worst contact on a line of its own under its row (its label is long).
        if worst:
            rows.append(f"{'':30s}worst contact by distance: {worst}")
    return rows


def test_generated_text_is_current():
    if not OUT.exists():
        pytest.fail(f"{OUT} is missing: run python {Path(__file__).name}")
    old = OUT.read_text()
    first = old.splitlines()[0]
    if not first.startswith(f"MuJoCo {mujoco.__version__} "):
        pytest.skip(f"{OUT.name} was made with {first.split(' (')[0]}, this is MuJoCo "
                    f"{mujoco.__version__}")
    assert generate() == old, f"{OUT} is stale: run python {Path(__file__).name}"


def test_generated_defaults_are_current():
    if not OUT_DEFAULTS.exists():
        pytest.fail(f"{OUT_DEFAULTS} is missing: run python {Path(__file__).name}")
    old = OUT_DEFAULTS.read_text()
    first = old.splitlines()[0]
    if not first.startswith(f"MuJoCo {mujoco.__version__} "):
        pytest.skip(f"{OUT_DEFAULTS.name} was made with {first.split(' (')[0]}, this is "
                    f"MuJoCo {mujoco.__version__}")
    assert generate_defaults() == old, f"{OUT_DEFAULTS} is stale: run python {Path(__file__).name}"


if __name__ == "__main__":
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(generate())
    OUT_DEFAULTS.write_text(generate_defaults())
    print(OUT.read_text(), end="")
    print(OUT_DEFAULTS.read_text(), end="")
