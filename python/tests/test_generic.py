"""`Problem.generic`: the generic mechanical problem (gmp) from arrays, its blocks, its
errors, and check/solve/files through the crate.

Tests marked "needs gmp solvers" / "needs gmp file formats" need the crate's gmp-newton
and gmp-pgs methods and its gmp readers and writers."""

import numpy as np
import pytest

import nonsmooth as ns

BLOCKS = ["equality", "unilateral", ("interval", -0.5, 0.5), ("contact", [0.6, 0.6, 0.02]),
          ("contact", [0.8, 0.3])]
N = 1 + 1 + 1 + 4 + 3


def spd(n, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, n))
    return a @ a.T + n * np.eye(n)


def test_generic_round_trip():
    W, q = spd(N), np.linspace(-1, 1, N)
    labels = ["weld", "limit", "friction loss", "ball/floor", "box/floor"]
    p = ns.Problem.generic(W, q, BLOCKS, labels=labels, answer={"r": np.ones(N), "source": "me"},
                           name="five", units={"r": "N"})
    assert p.type == "gmp" and p.kind == "ccp"
    assert p.contacts == 5 and p.dim == N
    assert p.blocks == [b if isinstance(b, str) else (b[0], *b[1:]) for b in BLOCKS]
    assert p.blocks[2] == ("interval", -0.5, 0.5)
    assert p.labels == labels and p.answer.source == "me" and p.name == "five"
    np.testing.assert_array_equal(p.W, W)
    np.testing.assert_array_equal(p.q, q)
    r = np.arange(N, dtype=float)
    np.testing.assert_allclose(p.velocity(r), W @ r + q)
    assert p.with_kind("coulomb").kind == "coulomb"
    assert "gmp ccp, 5 contacts, 10 unknowns" in repr(p)
    with pytest.raises(AttributeError, match="has no `mu`"):
        p.mu


def test_dict_blocks_infinite_bounds_and_sparse():
    sp = pytest.importorskip("scipy.sparse")
    W = spd(4)
    blocks = [{"type": "interval", "lo": -np.inf, "hi": 2.0},
              {"type": "contact", "mu": np.array([0.5, 0.5])}]
    p = ns.Problem.generic(sp.csr_array(W), np.zeros(4), blocks, "coulomb")
    assert p.blocks == [("interval", -np.inf, 2.0), ("contact", [0.5, 0.5])]
    assert p.kind == "coulomb"
    Wp = p.W
    np.testing.assert_array_equal(Wp.toarray() if hasattr(Wp, "toarray") else Wp, W)


@pytest.mark.parametrize("blocks, message", [
    (["eq"] + BLOCKS[1:], r"blocks\[0\]: unknown block `eq`"),
    (BLOCKS[:2] + [("interval", 1.0, -1.0)] + BLOCKS[3:], "lower bound 1 above its upper"),
    (BLOCKS[:2] + [("interval", 1.0)] + BLOCKS[3:], r"blocks\[2\]: `interval` takes 2"),
    (BLOCKS[:3] + [("contact", [-0.1, 0.6, 0.02])] + BLOCKS[4:], "negative friction"),
    (BLOCKS[:3] + [("contact", "0.6")] + BLOCKS[4:], r"blocks\[3\]: mu is a string"),
    (BLOCKS[:4], "the blocks' rows has size 7, expected 10"),
    ([{"mu": [0.5]}] + BLOCKS[1:], r"blocks\[0\]: a dict block needs the key `type`"),
    ([3.0] + BLOCKS[1:], r"blocks\[0\]: float is not a block"),
    ("equality", "expected a list of blocks"),
])
def test_bad_blocks_are_problem_errors(blocks, message):
    with pytest.raises(ns.ProblemError, match=message):
        ns.Problem.generic(spd(N), np.zeros(N), blocks)


def test_bad_arrays_and_labels():
    with pytest.raises(ns.ProblemError, match="labels has size 1, expected 5"):
        ns.Problem.generic(spd(N), np.zeros(N), BLOCKS, labels=["a"])
    q = np.zeros(N)
    q[3] = np.nan
    with pytest.raises(ns.ProblemError):
        ns.Problem.generic(spd(N), q, BLOCKS)
    with pytest.raises(ns.ProblemError):
        ns.Problem.generic(spd(N)[:, :-1], np.zeros(N), BLOCKS)
    with pytest.raises(ns.ProblemError):
        ns.Problem.generic(spd(N), np.zeros(N), BLOCKS, kind="dry")


def test_check_judges_a_known_solution():
    """With q >= 0 in every normal/unilateral row, zero tangential q, r = 0 is the
    solution (equality and interval rows need u = 0 there: q = 0 on them)."""
    q = np.array([0.0, 1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0])
    p = ns.Problem.generic(spd(N), q, BLOCKS)
    rep = ns.check(p, np.zeros(N), tol=1e-12, reference=False)
    assert rep.consistent and rep.error == 0.0
    bad = np.zeros(N)
    bad[1] = 1.0  # a unilateral force with a separating velocity
    rep = ns.check(p, bad, tol=1e-6, reference=False)
    assert not rep.consistent and rep.error > 1e-3


def test_solve_reaches_the_ccp_solution():  # needs gmp solvers
    W, q = spd(N, 3), np.linspace(-2, 1, N)
    p = ns.Problem.generic(W, q, BLOCKS)
    res = ns.solve(p, "auto", tol=1e-10)
    rep = ns.check(p, res.r, tol=1e-8)
    assert rep.consistent


def test_json_file_round_trip(tmp_path):  # needs gmp file formats
    W, q = spd(N), np.linspace(-1, 1, N)
    p = ns.Problem.generic(W, q, BLOCKS, labels=list("abcde"), answer=np.ones(N))
    p.write(tmp_path / "g.json")
    back = ns.Problem.read(tmp_path / "g.json")
    assert back.type == "gmp" and back.blocks == p.blocks and back.labels == p.labels
    np.testing.assert_array_equal(back.W, W)
    np.testing.assert_array_equal(back.answer.r, np.ones(N))


def test_siconos_dat_is_refused(tmp_path):
    p = ns.Problem.generic(spd(N), np.zeros(N), BLOCKS)
    with pytest.raises(ns.FormatError, match="cannot be written as Siconos"):
        p.write(tmp_path / "g.dat")
