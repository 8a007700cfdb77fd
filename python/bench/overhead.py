"""The Python package's overhead per call: `check` and `solve` on a 10-contact problem,
timed from Python (timeit) and, for the same work, inside Rust (the library alone, no
conversion). Prints both and the difference. A `CheckReport` converts its summary and
contacts to Python objects when they are first read, so the cost of reading them is
printed too. Machine-dependent: not checked by a test.

    python python/bench/overhead.py
"""

import pathlib
import sys
import timeit

import numpy as np

import nonsmooth as ns
from nonsmooth import _native

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
from conftest import generated  # noqa: E402


def per_call(fn, number):
    """Best of 7 runs of `number` calls, seconds per call."""
    return min(timeit.repeat(fn, number=number, repeat=7)) / number


def main():
    p, _, _ = generated(nc=10, seed=0, sliding=True)
    res = ns.solve(p, tol=1e-10)
    assert res.converged, res
    r = res.r

    for reference, number in ((False, 20000), (True, 200)):
        rust_check = min(_native._time_check(p, r, number, reference) for _ in range(7))
        py_check = per_call(lambda: ns.check(p, r, reference=reference), number)
        print(f"check, {p.contacts} contacts ({p.dim} unknowns), dense W, reference={reference}:")
        print(f"  library alone (Rust loop) {rust_check * 1e6:8.2f} us per call")
        print(f"  from Python (timeit)      {py_check * 1e6:8.2f} us per call")
        print(f"  Python overhead           {(py_check - rust_check) * 1e6:8.2f} us per call")
    # The report's summary dict and contacts array are made when first read: what reading
    # them costs on top of the call.
    py_read = per_call(lambda: (lambda rep: (rep.error, rep.contacts))(ns.check(p, r)), 20000)
    print(f"  check and read .error, .contacts (reference=False): {py_read * 1e6:.2f} us per call")

    for method in ("nsn", "nsgs"):
        rust_solve = min(_native._time_solve(p, method, 1e-8, 2000) for _ in range(7))
        py_solve = per_call(lambda: ns.solve(p, method, tol=1e-8), 2000)
        print(f"solve ({method}, tol 1e-8, from zero), same problem:")
        print(f"  library alone (Rust loop) {rust_solve * 1e6:8.2f} us per call")
        print(f"  from Python (timeit)      {py_solve * 1e6:8.2f} us per call")
        print(f"  Python overhead           {(py_solve - rust_solve) * 1e6:8.2f} us per call")

    # the overhead of the call itself, for scale
    noop = per_call(lambda: p.dim, 200000)
    print(f"a property read (p.dim), for scale: {noop * 1e6:.3f} us")
    print(f"numpy {np.__version__}, Python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
