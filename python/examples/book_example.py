"""The book's Python example (book/src/python.md): a problem from NumPy arrays, solved and
checked. Its output is book/src/generated/python_example.txt; tests/test_book_example.py
fails if the committed file differs (NONSMOOTH_BLESS=1 rewrites it).

    python python/examples/book_example.py        # prints the output
"""

import io
from contextlib import redirect_stdout


def main():
    # ANCHOR: example
    import numpy as np
    import nonsmooth as ns

    # Two boxes resting on the floor, one pushed sideways: the Delassus operator W (1/kg),
    # the free velocity q (m/s) and the friction coefficients, as an engine assembles them.
    W = np.array([
        [1.0, 0.0, 0.0, 0.2, 0.0, 0.0],
        [0.0, 2.0, 0.0, 0.0, 0.1, 0.0],
        [0.0, 0.0, 2.0, 0.0, 0.0, 0.1],
        [0.2, 0.0, 0.0, 1.0, 0.0, 0.0],
        [0.0, 0.1, 0.0, 0.0, 2.0, 0.0],
        [0.0, 0.0, 0.1, 0.0, 0.0, 2.0],
    ])
    q = np.array([-1.0, 0.1, 0.0, -1.0, 3.0, 0.0])
    problem = ns.Problem.local(W, q, mu=[0.5, 0.5], kind="coulomb",
                               labels=["box1/floor", "box2/floor"])
    result = ns.solve(problem, method="nsn", tol=1e-10)
    print(result.status, result.method, result.iterations, "iterations")
    print("error <= 1e-10:", result.error <= 1e-10, " error_q <= 1e-10:", result.error_q <= 1e-10)
    print("r =", np.round(result.r, 4) + 0.0)  # N s, [n, t1, t2] per contact
    print("u =", np.round(result.u, 4) + 0.0)  # m/s

    report = ns.check(problem, result.r, tol=1e-10)
    c = report.contacts
    for k in range(problem.contacts):
        print(f"{c['label'][k]}: r_n {c['r_n'][k]:.4f}, slip {c['slip'][k]:.4f}")
    # ANCHOR_END: example


def output():
    """What main() prints."""
    buf = io.StringIO()
    with redirect_stdout(buf):
        main()
    return buf.getvalue()


if __name__ == "__main__":
    print(output(), end="")
