"""The Python API: problems from arrays, solve, check, errors, files."""

import numpy as np
import pytest

import nonsmooth as ns
from conftest import generated


def test_arrays_round_trip():
    p, W, q = generated(nc=5, seed=1, mu=0.3)
    assert p.type == "fc3d" and p.kind == "coulomb"
    assert p.contacts == 5 and p.dim == 15
    np.testing.assert_array_equal(p.W, W)
    np.testing.assert_array_equal(p.q, q)
    np.testing.assert_array_equal(p.mu, np.full(5, 0.3))
    assert p.W.dtype == np.float64 and p.W.shape == (15, 15)
    # a Fortran-ordered or integer W reads the same
    p2 = ns.Problem.local(np.asfortranarray(W), list(q), [0.3] * 5)
    np.testing.assert_array_equal(p2.W, W)
    p3 = ns.Problem.local(np.eye(3, dtype=np.int32), [-1, 0, 0], np.float64(0.5))
    np.testing.assert_array_equal(p3.W, np.eye(3))
    assert p3.mu.tolist() == [0.5]


def test_labels_and_answer_kept():
    p, W, q = generated(nc=2)
    r = np.arange(6.0)
    p = ns.Problem.local(W, q, 0.5, labels=["a/floor", "b/floor"], answer={"r": r, "source": "me"},
                         units={"r": "N s", "u": "m/s"}, name="two")
    assert p.labels == ["a/floor", "b/floor"]
    assert p.answer.source == "me"
    np.testing.assert_array_equal(p.answer.r, r)
    assert p.answer.u is None
    assert p.provenance["units"] == {"r": "N s", "u": "m/s"}
    assert p.name == "two"
    with pytest.raises(ns.ProblemError, match="labels has size 1, expected 2"):
        ns.Problem.local(W, q, 0.5, labels=["a"])
    with pytest.raises(ns.ProblemError, match="answer r has size 3, expected 6"):
        ns.Problem.local(W, q, 0.5, answer=np.zeros(3))


@pytest.mark.parametrize("kind", ["coulomb", "ccp"])
def test_solve_converges_and_agrees_with_check(kind):
    p, W, q = generated(nc=6, seed=2, kind=kind, sliding=True)
    res = ns.solve(p, tol=1e-10)
    assert res.converged and res.status == "converged"
    # auto is a strategy: its label names the method it ended with, its route the stages
    assert res.method.startswith("auto:") and res.kind == kind
    assert res.stats["route"].startswith("nsgs")
    assert res.error <= 1e-10 and res.iterations >= 1
    assert res.r.shape == (18,) and res.u.shape == (18,)
    np.testing.assert_allclose(res.u, W @ res.r + q, atol=1e-12)
    rep = ns.check(p, res.r, tol=1e-10)
    assert rep.error == pytest.approx(res.error, rel=1e-6, abs=1e-15)
    assert rep.error_q == pytest.approx(res.error_q, rel=1e-6, abs=1e-15)
    assert rep.kind == kind and rep.type == "fc3d"
    assert rep.verdict == "consistent" and rep.consistent
    # the reference solve lands on the same answer (the CCP's is unique)
    assert rep.reference["found"] and rep.reference["distance"] < 1e-6
    assert (rep.contacts["distance"] < 1e-6).all()
    # normal reactions are non-negative and the bodies do not approach
    assert (res.r[0::3] >= -1e-9).all() and (res.u[0::3] >= -1e-8).all()


def test_ccp_and_coulomb_differ_when_contacts_slide():
    pc, W, q = generated(nc=6, seed=2, kind="coulomb", sliding=True)
    pp = pc.with_kind("ccp")
    assert pp.kind == "ccp" and pc.kind == "coulomb"
    rc = ns.solve(pc, tol=1e-10)
    rp = ns.solve(pp, tol=1e-10)
    assert rc.converged and rp.converged
    # a sliding contact separates under CCP (u_n = mu |u_t| > 0), not under Coulomb
    slip = np.hypot(rp.u[1::3], rp.u[2::3])
    assert slip.max() > 1e-3
    assert rp.u[0::3].max() > 1e-3
    # the Coulomb answer judged as CCP is not a CCP answer
    assert ns.check(pc, rc.r, kind="ccp").error > 1e-6


def test_sparse_and_dense_give_the_same_solve():
    sp = pytest.importorskip("scipy.sparse")
    p, W, q = generated(nc=5, seed=3)
    Wd = W.copy()
    Wd[np.abs(Wd) < 0.05] = 0.0  # make it worth storing sparse
    Wd = (Wd + Wd.T) / 2 + 0.5 * np.eye(15)
    dense = ns.Problem.local(Wd, q, 0.5)
    for conv in (sp.csr_matrix, sp.csc_matrix, sp.coo_matrix, sp.csr_array):
        sparse = ns.Problem.local(conv(Wd), q, 0.5)
        assert sp.issparse(sparse.W)
        np.testing.assert_array_equal(sparse.W.toarray(), Wd)
        for method in ("nsgs", "nsn"):
            a = ns.solve(dense, method, tol=1e-12)
            b = ns.solve(sparse, method, tol=1e-12)
            assert a.converged and b.converged
            np.testing.assert_allclose(a.r, b.r, atol=1e-10)
            assert a.iterations == b.iterations


def test_sparse_with_duplicates_and_unsorted_indices():
    sp = pytest.importorskip("scipy.sparse")
    # row 0 holds (0, 2) before (0, 0), and (0, 0) twice: summed, as SciPy sums them
    m = sp.csr_matrix(
        (np.array([0.5, 1.0, 1.0, 3.0, 1.0]), np.array([2, 0, 0, 1, 2]), np.array([0, 3, 4, 5])),
        shape=(3, 3),
    )
    assert not m.has_canonical_format
    p = ns.Problem.local(m, [-1.0, 0, 0], 0.5)
    np.testing.assert_array_equal(p.W.toarray(), m.toarray())
    np.testing.assert_array_equal(p.W.toarray()[0], [2.0, 0.0, 0.5])


def test_warm_start():
    p, _, _ = generated(nc=6, seed=4, sliding=True)
    cold = ns.solve(p, "nsgs", tol=1e-9)
    assert cold.converged and cold.iterations > 1
    warm = ns.solve(p, "nsgs", tol=1e-9, warm_start=cold.r)
    assert warm.converged and warm.iterations == 0
    np.testing.assert_array_equal(warm.r, cold.r)
    with pytest.raises(ns.ProblemError, match="the warm start has size 3, expected 18"):
        ns.solve(p, warm_start=np.zeros(3))
    with pytest.raises(ns.ProblemError, match="the warm start has a non-finite entry NaN at index 0"):
        ns.solve(p, warm_start=np.full(18, np.nan))


def test_options_by_keyword():
    p, _, _ = generated(nc=6, seed=5, sliding=True)
    res = ns.solve(p, "prox-gs", tol=1e-8, r_factor="global=5", window=1)
    assert res.method == "prox-gs"
    assert res.options["window"] == 1
    default = ns.solve(p, "prox-gs", tol=1e-8)
    assert default.options["window"] != 1
    lcp = ns.Problem.lcp(np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([-5.0, -6.0]))
    a = ns.solve(lcp, "psor", omega=1.5, tol=1e-12)
    assert a.converged and a.options["omega"] == 1.5
    np.testing.assert_allclose(a.r, [4 / 3, 7 / 3], atol=1e-10)
    np.testing.assert_allclose(a.u, [0, 0], atol=1e-10)
    b = ns.solve(lcp, "psor", omega=np.float64(1.2), tol=1e-12)
    assert b.options["omega"] == 1.2 and b.iterations != a.iterations


def test_max_iterations_is_a_result_not_an_exception():
    p, _, _ = generated(nc=6, seed=6, sliding=True)
    res = ns.solve(p, "nsgs", tol=1e-14, max_iter=2)
    assert res.status == "max-iterations" and not res.converged and not res
    assert res.iterations == 2 and res.error > 1e-14
    assert "no convergence after 2 iterations" in res.message
    assert np.isfinite(res.r).all()


def test_history():
    p, _, _ = generated(nc=4, seed=7)
    res = ns.solve(p, "nsgs", tol=1e-10, history=True)
    h = res.history
    assert set(h) == {"iteration", "error", "error_q", "error_abs", "time"}
    n = len(h["iteration"])
    assert n == res.iterations + 1
    assert h["iteration"].dtype == np.int64 and h["error"].dtype == np.float64
    assert h["error"][-1] == pytest.approx(res.error)
    assert (np.diff(h["time"]) >= 0).all()
    assert ns.solve(p, "nsgs").history is None


def test_stats_are_the_methods():
    p, _, _ = generated(nc=4, seed=8)
    res = ns.solve(p, "nsn")
    assert isinstance(res.stats, dict) and "backtracks" in res.stats
    assert res.time_s >= 0.0


def test_methods_listing():
    ms = {m["name"]: m for m in ns.methods()}
    assert {"auto", "nsgs", "nsn", "lemke", "prox-gs"} <= set(ms)
    assert "fc3d" in ms["nsgs"]["applies_to"] and "lcp" not in ms["nsgs"]["applies_to"]
    assert ms["psor"]["options"]["omega"] > 0
    assert ms["auto"]["options"] == {}


def test_global_form_matches_its_local_form():
    rng = np.random.default_rng(9)
    ndof, nc = 12, 3
    A = rng.normal(size=(ndof, ndof))
    M = A @ A.T + ndof * np.eye(ndof)
    H = rng.normal(size=(ndof, 3 * nc))
    qg = rng.normal(size=ndof)
    b = np.zeros(3 * nc)
    b[0::3] = -1.0
    g = ns.Problem.global_form(M, H, qg, b, 0.4)
    assert g.type == "gfc3d" and g.dofs == ndof and g.contacts == nc
    loc = g.to_local()
    Minv = np.linalg.inv(M)
    W = H.T @ Minv @ H
    Wl = loc.W.toarray() if hasattr(loc.W, "toarray") else loc.W
    np.testing.assert_allclose(Wl, W, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(loc.q, H.T @ Minv @ qg + b, rtol=1e-10, atol=1e-10)
    rg = ns.solve(g, tol=1e-10)
    rl = ns.solve(loc, tol=1e-10)
    assert rg.converged and rl.converged
    np.testing.assert_allclose(rg.r, rl.r, atol=1e-7)
    np.testing.assert_allclose(rg.v, Minv @ (qg + H @ rg.r), atol=1e-9)
    with pytest.raises(AttributeError, match="to_local"):
        g.W
    with pytest.raises(ns.ProblemError, match="M must be symmetric"):
        ns.Problem.global_form(M + np.triu(np.ones((ndof, ndof)), 1), H, qg, b, 0.4)


# ---- errors carry the library's message ----


def test_nan_in_W():
    W = np.eye(3)
    W[1, 2] = np.nan
    with pytest.raises(ns.ProblemError, match="W has a non-finite entry NaN at index 5"):
        ns.Problem.local(W, np.zeros(3), 0.5)


def test_non_square_W():
    with pytest.raises(ns.ProblemError, match="W must be square, but it is 3 x 6"):
        ns.Problem.local(np.zeros((3, 6)), np.zeros(3), 0.5)
    with pytest.raises(ns.ProblemError, match="W must be a 2-D array"):
        ns.Problem.local(np.zeros(9), np.zeros(3), 0.5)


def test_negative_mu():
    with pytest.raises(ns.ProblemError, match="contact 1 has a negative friction coefficient mu = -0.1"):
        ns.Problem.local(np.eye(6), np.zeros(6), [0.5, -0.1])


def test_wrong_sizes():
    with pytest.raises(ns.ProblemError, match="q has size 4, expected 6"):
        ns.Problem.local(np.eye(6), np.zeros(4), 0.5)
    with pytest.raises(ns.ProblemError, match="not a multiple of the contact dimension 3"):
        ns.Problem.local(np.eye(4), np.zeros(4), 0.5)
    with pytest.raises(ns.ProblemError, match="unknown friction kind `stiction`"):
        ns.Problem.local(np.eye(3), np.zeros(3), 0.5, kind="stiction")


def test_unknown_method():
    p, _, _ = generated(nc=2)
    with pytest.raises(ns.OptionError, match="unknown method `pgss` \\(expected one of auto, lemke"):
        ns.solve(p, "pgss")
    assert issubclass(ns.OptionError, ValueError)


def test_unknown_option():
    p, _, _ = generated(nc=2)
    with pytest.raises(ns.OptionError, match="method `nsgs` has no option `omega` \\(its options: "):
        ns.solve(p, "nsgs", omega=1.2)
    with pytest.raises(ns.OptionError, match="option `omega` of method `psor`: 2.5 is outside \\(0, 2\\)"):
        ns.solve(ns.Problem.lcp(np.eye(2), -np.ones(2)), "psor", omega=2.5)


def test_method_that_does_not_apply():
    lcp = ns.Problem.lcp(np.eye(2), -np.ones(2))
    with pytest.raises(ns.ProblemError, match="method `nsgs` does not apply to an LCP"):
        ns.solve(lcp, "nsgs")


def test_wrong_r_length():
    p, _, _ = generated(nc=2)
    with pytest.raises(ns.ProblemError, match="the answer has 5 numbers, the problem 6 unknowns"):
        ns.check(p, np.zeros(5))
    r = np.zeros(6)
    r[4] = np.inf
    with pytest.raises(ns.ProblemError, match="entry 4 of the answer is inf, not a finite number"):
        ns.check(p, r)
    with pytest.raises(ns.ProblemError, match="r has size 5, expected 6"):
        p.velocity(np.zeros(5))


def test_exception_hierarchy():
    assert issubclass(ns.ProblemError, ValueError)
    assert issubclass(ns.FormatError, ValueError)
    assert issubclass(ns.SolveError, RuntimeError)


def test_an_infeasible_problem_raises_solve_error_with_its_certificate():
    # w = -x - 1 >= 0 is infeasible for x >= 0: Lemke ends on a ray, and y = 1 proves it
    lcp = ns.Problem.lcp(np.array([[-1.0]]), np.array([-1.0]))
    with pytest.raises(ns.SolveError, match="no solution") as e:
        ns.solve(lcp, "lemke")
    assert e.value.status == "infeasible"
    assert e.value.r.shape == (1,)
    assert e.value.certificate["law"] == "lcp" and e.value.certificate["q_dot_d"] < 0
    # the friction example: W = 0, q pushes the contact in
    p = ns.Problem.local(np.zeros((3, 3)), np.array([-1.0, 0.0, 0.0]), 0.5)
    for method in ["auto", "ppa", "nsgs"]:
        with pytest.raises(ns.SolveError) as e:
            ns.solve(p, method)
        assert e.value.status == "infeasible", method
        assert e.value.certificate["support"] == [0]


def test_max_iter_and_time_limit_are_checked():
    p, _, _ = generated(nc=4, seed=3)
    for bad in [0, -1, 10**12]:
        with pytest.raises(ns.OptionError, match="max_iter must be a whole number"):
            ns.solve(p, "nsgs", max_iter=bad)
    for bad in [0.0, -1.0, float("nan"), float("inf")]:
        with pytest.raises(ns.OptionError, match="time_limit must be"):
            ns.solve(p, "nsgs", time_limit=bad)
    # a time limit ends a solve that cannot finish, with its best iterate
    big, _, _ = generated(nc=300, seed=3)
    res = ns.solve(big, "nsgs", tol=0.0, max_iter=10**9, time_limit=0.05)
    assert res.status == "time-limit" and np.isfinite(res.r).all()
    assert res.error_scaled >= res.error * (1 - 1e-12)


def test_solve_releases_the_gil():
    import threading

    p, _, _ = generated(nc=30, seed=10, sliding=True)
    results = []

    def work():
        results.append(ns.solve(p, "nsgs", tol=1e-12).r)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


CONTACT_FIELDS = ["contact", "label", "r_n", "u_n", "slip", "penetration", "cone_violation",
                  "dual_violation", "complementarity", "dissipation", "error", "distance"]


def test_check_report_fields_and_structured_array():
    p, W, q = generated(nc=4, seed=13, kind="ccp", sliding=True)
    p = ns.Problem.local(W, q, 0.5, "ccp", labels=["a", "bb", "ccc", "dddd"],
                         units={"r": "N s", "u": "m/s"})
    res = ns.solve(p, tol=1e-12)
    off = res.r.copy()
    off[3] += 0.01  # contact 1 pushed off the solution
    rep = ns.check(p, off, tol=1e-8)
    c = rep.contacts
    assert list(c.dtype.names) == CONTACT_FIELDS
    assert c.shape == (4,)
    assert c.dtype["contact"] == np.int64 and c.dtype["r_n"] == np.float64
    assert c.dtype["label"].kind == "U"
    assert c["label"].tolist() == ["a", "bb", "ccc", "dddd"]
    assert c["contact"].tolist() == [0, 1, 2, 3]
    np.testing.assert_allclose(c["r_n"], off[0::3])
    u = W @ off + q
    np.testing.assert_allclose(c["u_n"], u[0::3], atol=1e-12)
    np.testing.assert_allclose(c["slip"], np.hypot(u[1::3], u[2::3]), atol=1e-12)
    # the distance to the (unique) CCP reference is the push, on contact 1 only
    assert rep.verdict == "inconsistent" and not rep.consistent
    assert int(np.argmax(c["distance"])) == 1
    assert c["distance"][1] == pytest.approx(0.01, rel=1e-5)
    assert rep.reference["unique"] is True
    assert rep.level == "velocity" and rep.force_unit == "N s"
    assert rep.other_law["kind"] == "coulomb"
    d = rep.to_dict()
    assert d["verdict"] == "inconsistent" and d["contacts"] is c
    with pytest.raises(AttributeError, match="no attribute `nope`"):
        rep.nope


def test_check_without_reference_and_without_labels():
    p, _, _ = generated(nc=3, seed=14)
    res = ns.solve(p, tol=1e-10)
    rep = ns.check(p, res.r, tol=1e-8, reference=False)
    assert rep.reference is None
    assert np.isnan(rep.contacts["distance"]).all()
    assert rep.contacts["label"].tolist() == ["", "", ""]
    assert rep.contacts.dtype["label"].kind == "U"


def test_check_by_distance():
    # W = diag(1, 1e-8, 1), q = (-1, 1e-9, 0): r* = (1, -0.1, 0) sticks; dropping the
    # tangential force leaves a residual of about 1e-9 but forces 0.1 away
    W = np.diag([1.0, 1e-8, 1.0])
    p = ns.Problem.local(W, np.array([-1.0, 1e-9, 0.0]), 0.5, "ccp")
    r = np.array([1.0, 0.0, 0.0])
    by_residual = ns.check(p, r, tol=1e-8)
    assert by_residual.by == "residual" and by_residual.consistent
    by_distance = ns.check(p, r, tol=1e-8, by="distance")
    assert by_distance.by == "distance" and by_distance.verdict == "inconsistent"
    assert by_distance.reference["relative_distance"] > 0.09
    assert ns.check(p, r, tol=1e-8, by="both").verdict == "inconsistent"
    assert ns.check(p, r, tol=0.2, by="distance").consistent
    with pytest.raises(ns.OptionError, match="residual, distance or both"):
        ns.check(p, r, by="force")
    with pytest.raises(ns.OptionError, match="reference=False"):
        ns.check(p, r, by="distance", reference=False)


def test_check_kind_of_an_lcp_is_refused():
    lcp = ns.Problem.lcp(np.eye(2), -np.ones(2))
    with pytest.raises(ns.ProblemError, match="friction law `ccp` asked for a problem of type lcp"):
        ns.check(lcp, np.ones(2), kind="ccp")
    rep = ns.check(lcp, np.ones(2))
    assert rep.verdict == "consistent" and rep.contacts.shape == (0,)


def test_check_fields_are_those_of_the_command_line(tmp_path):
    """The summary attributes and the record fields are exactly `nonsmooth check --json`'s."""
    import json
    import os
    import pathlib
    import subprocess

    root = pathlib.Path(__file__).resolve().parents[2]
    binary = pathlib.Path(os.environ.get("NONSMOOTH_BIN", root / "target" / "release" / "nonsmooth"))
    if not binary.exists():
        pytest.skip(f"{binary} not built (cargo build --release --bin nonsmooth; CI sets NONSMOOTH_BIN)")
    p, W, q = generated(nc=3, seed=15, kind="ccp", sliding=True)
    p = ns.Problem.local(W, q, 0.5, "ccp", labels=["x", "y", "z"])
    r = ns.solve(p, tol=1e-6).r
    p.write(tmp_path / "p.json")
    np.save(tmp_path / "r.npy", r)
    run = subprocess.run([str(binary), "check", str(tmp_path / "p.json"), "--answer", str(tmp_path / "r.npy"),
                          "--json"], capture_output=True, text=True)
    lines = [json.loads(x) for x in run.stdout.splitlines() if x.strip()]
    summary, records = lines[0], lines[1:]
    rep = ns.check(p, r)
    cli_summary = set(summary) - {"file", "answer_source"}
    assert cli_summary == set(rep.to_dict()) - {"contacts"}
    assert list(records[0]) == list(rep.contacts.dtype.names)
    for rec, row in zip(records, rep.contacts):
        assert rec["label"] == row["label"]
        assert rec["r_n"] == row["r_n"] and rec["error"] == row["error"]
    assert summary["verdict"] == rep.verdict and summary["error"] == rep.error


def test_warnings_are_python_warnings(tmp_path):
    import warnings

    # a W with a negative diagonal entry and an asymmetry: a valid problem, warned twice
    W = np.array([[-1.0, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    with pytest.warns(ns.ProblemWarning) as caught:
        p = ns.Problem.local(W, np.array([-1.0, 0.0, 0.0]), 0.5)
    texts = [str(w.message) for w in caught]
    assert any("not symmetric" in t for t in texts), texts
    assert any("W[0,0] = -1e0 is negative" in t for t in texts), texts
    assert p.warnings == texts
    assert issubclass(ns.ProblemWarning, UserWarning)
    # turned into errors by the warnings filter, as any Python warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", ns.ProblemWarning)
        with pytest.raises(ns.ProblemWarning):
            ns.Problem.local(W, np.array([-1.0, 0.0, 0.0]), 0.5)
    # a NumPy folder without meta.json: the law assumed, said as a warning on read
    d = tmp_path / "folder"
    d.mkdir()
    np.save(d / "W.npy", np.eye(3))
    np.save(d / "q.npy", np.array([-1.0, 0.0, 0.0]))
    np.save(d / "mu.npy", np.array([0.5]))
    with pytest.warns(ns.ProblemWarning, match="friction law assumed coulomb"):
        ns.Problem.read(str(d))
    # a symmetric W with a nonnegative diagonal warns nothing
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ns.Problem.local(np.eye(3), np.array([-1.0, 0.0, 0.0]), 0.5)


def test_report_attributes_equal_the_summary_dict():
    """The plain fields read straight from the report equal the summary dict's (the dict
    and the contacts array are made on first use)."""
    p, _, _ = generated(nc=4, seed=3, kind="ccp")
    for r in (ns.solve(p, method="nsgs", tol=1e-14, max_iter=2).r, np.zeros(p.dim)):
        rep = ns.check(p, r)
        d = rep.to_dict()
        for k in ("verdict", "grade", "type", "by", "level", "tol", "error", "error_q",
                  "error_abs", "error_normal", "error_scaled", "reference", "kind"):
            assert getattr(rep, k) == d[k], k
        assert rep.contacts is rep.contacts  # made once, then kept
        assert len(rep.contacts) == p.contacts
