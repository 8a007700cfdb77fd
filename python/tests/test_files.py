"""Reading and writing problem files, and the shared third-party problems."""

import numpy as np
import pytest

import nonsmooth as ns
from conftest import generated, require_shared


def dense(m):
    return m.toarray() if hasattr(m, "toarray") else np.asarray(m)


@pytest.mark.parametrize("name,fmt", [("p.json", None), ("p.dat", None), ("folder", None),
                                      ("p.npz", None), ("c.bin", "npz-compressed"),
                                      ("x.txt", "json"), ("y.out", "siconos"), ("z", "numpy")])
def test_local_round_trip(tmp_path, name, fmt):
    p, W, q = generated(nc=3, seed=11, kind="ccp")
    p = ns.Problem.local(W, q, [0.1, 0.2, 0.3], "ccp", labels=["a", "b", "c"], answer=np.ones(9),
                         name="roundtrip", source="test")
    path = tmp_path / name
    p.write(path, format=fmt)
    back = ns.Problem.read(path)
    assert back.type == "fc3d"
    np.testing.assert_array_equal(dense(back.W), W)
    np.testing.assert_array_equal(back.q, q)
    np.testing.assert_array_equal(back.mu, [0.1, 0.2, 0.3])
    written = fmt or {"p.json": "json", "p.dat": "siconos", "folder": "numpy", "p.npz": "npz"}[name]
    if written in ("json", "npz", "npz-compressed"):
        assert back.format == ("nonsmooth-json" if written == "json" else "numpy-npz")
        assert back.kind == "ccp" and back.labels == ["a", "b", "c"]
        assert back.name == "roundtrip" and back.provenance["source"] == "test"
        np.testing.assert_array_equal(back.answer.r, np.ones(9))
    elif written == "numpy":
        assert back.format == "numpy-folder" and back.kind == "ccp"
        np.testing.assert_array_equal(back.answer.r, np.ones(9))
    else:
        # Siconos files hold the data only: the law is Coulomb, as Siconos poses it
        assert back.format == "siconos-dat" and back.kind == "coulomb" and back.answer is None


def test_global_and_lcp_round_trip(tmp_path):
    rng = np.random.default_rng(12)
    M = np.diag(rng.uniform(1, 2, 6))
    H = rng.normal(size=(6, 6))
    g = ns.Problem.global_form(M, H, rng.normal(size=6), -np.ones(6), 0.3)
    lcp = ns.Problem.lcp(np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([-5.0, -6.0]))
    for ext in ("json", "dat", "npz"):
        g.write(tmp_path / f"g.{ext}")
        back = ns.Problem.read(tmp_path / f"g.{ext}")
        assert back.type == "gfc3d"
        np.testing.assert_array_equal(dense(back.M), M)
        np.testing.assert_array_equal(dense(back.H), H)
        np.testing.assert_array_equal(back.b, -np.ones(6))
        lcp.write(tmp_path / f"l.{ext}")
        back = ns.Problem.read(tmp_path / f"l.{ext}")
        assert back.type == "lcp"
        np.testing.assert_array_equal(dense(back.A), [[2.0, 1.0], [1.0, 2.0]])


def test_sparse_round_trip_through_json(tmp_path):
    sp = pytest.importorskip("scipy.sparse")
    W = sp.random(30, 30, density=0.1, random_state=1, format="csr") + sp.identity(30, format="csr")
    p = ns.Problem.local(W, -np.ones(30), 0.5)
    p.write(tmp_path / "s.json")
    back = ns.Problem.read(tmp_path / "s.json")
    assert sp.issparse(back.W)
    np.testing.assert_array_equal(back.W.toarray(), W.toarray())


def test_write_and_read_errors(tmp_path):
    p, _, _ = generated(nc=2)
    with pytest.raises(ns.FormatError, match="unknown output format `xml`"):
        p.write(tmp_path / "p.xml", format="xml")
    with pytest.raises(ns.FormatError, match="files are read, not written"):
        p.write(tmp_path / "p.hdf5")
    with pytest.raises(FileNotFoundError, match="missing.json"):
        ns.Problem.read(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nonsmooth-problem", "version": 1,')
    with pytest.raises(ns.FormatError, match="bad.json: line 1"):
        ns.Problem.read(bad)
    with pytest.raises(OSError):
        p.write(tmp_path / "no" / "such" / "folder" / "p.json")


def test_invalid_problem_in_a_file_is_a_problem_error(tmp_path):
    p, W, q = generated(nc=1)
    p.write(tmp_path / "p.json")
    text = (tmp_path / "p.json").read_text().replace('"mu":[0.5]', '"mu":[-0.5]')
    assert '"mu":[-0.5]' in text
    (tmp_path / "p.json").write_text(text)
    with pytest.raises(ns.ProblemError, match="negative friction coefficient"):
        ns.Problem.read(tmp_path / "p.json")


def test_shared_siconos_fc3d():
    path = require_shared("siconos/fc3d/NESpheres_10_1.dat")
    p = ns.Problem.read(str(path))
    assert p.type == "fc3d" and p.kind == "coulomb" and p.format == "siconos-dat"
    res = ns.solve(p, tol=1e-8)
    assert res.converged
    rep = ns.check(p, res.r, tol=1e-8)
    assert rep.error == pytest.approx(res.error, rel=1e-6, abs=1e-14)
    assert len(rep.contacts) == p.contacts


def test_shared_mujoco_answer_and_kind():
    path = require_shared("mujoco/mujoco_box_stack4_elliptic.json")
    p = ns.Problem.read(path)
    assert p.format == "mujoco-json" and p.kind == "ccp"
    assert p.answer is not None and p.answer.r.shape == (p.dim,)
    rep = ns.check(p, p.answer.r, tol=1e-3)
    assert np.isfinite(rep.error)
    # MuJoCo's data are at the acceleration level: forces in N, the file's units say so
    assert rep.level == "acceleration" and rep.force_unit == "N"
    assert rep.contacts.shape == (p.contacts,)


def test_shared_opentissue_boxed_lcp():
    path = require_shared("opentissue/dlm/72")
    p = ns.Problem.read(path)
    assert p.type == "boxed-lcp" and p.format == "opentissue-dlm"
    assert p.warm_start is not None and p.warm_start.shape == (p.dim,)
    res = ns.solve(p, "pgs", tol=1e-6, max_iter=50, warm_start=p.warm_start)
    assert res.status in ("converged", "max-iterations") and np.isfinite(res.r).all()


def test_shared_global():
    path = require_shared("siconos/gfc3d/GFC3D_Example1.dat")
    p = ns.Problem.read(path)
    assert p.type == "gfc3d"
    res = ns.solve(p, tol=1e-8)
    assert res.converged and res.v.shape == (p.dofs,)
