# The book's Python example (book/src/python.md): a problem from NumPy arrays, solved and
# checked. What it prints is book/src/generated/python_example.txt, and
# tests/test_book_example.py fails if the committed file differs (NONSMOOTH_BLESS=1
# rewrites it). Run: python python/examples/book_example.py

# ANCHOR: example
import textwrap

import numpy as np
import nonsmooth as ns

# Two boxes resting on the floor, the second pushed sideways: the Delassus operator W
# (1/kg), the free velocity q (m/s) and the friction coefficients, as an engine builds them.
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
                           labels=["box1/floor", "box2/floor"], units={"r": "N s", "u": "m/s"})
result = ns.solve(problem, method="nsn", tol=1e-10)
print(result.status, result.method, result.iterations, "iterations")
print("error <= 1e-10:", result.error <= 1e-10, " error_q <= 1e-10:", result.error_q <= 1e-10)
print("r =", np.round(result.r, 4) + 0.0)  # N s, [n, t1, t2] per contact
print("u =", np.round(result.u, 4) + 0.0)  # m/s

report = ns.check(problem, result.r, tol=1e-10)
print(report.verdict)
c = report.contacts  # a NumPy structured array, one record per contact
for k in range(problem.contacts):
    print(f"{c['label'][k]}: r_n {c['r_n'][k]:.4f}, slip {c['slip'][k]:.4f}")

# An engine that stops after two Gauss-Seidel sweeps, judged against the reference:
engine_r = ns.solve(problem, method="nsgs", tol=0.0, max_iter=2).r
report = ns.check(problem, engine_r, tol=1e-8)
# The grade is a sentence: wrapped to fit a narrow terminal (and the book's column).
print(textwrap.fill(report.grade, width=96, subsequent_indent="  ", break_on_hyphens=False))
worst = report.contacts[np.argmax(report.contacts["distance"])]
print("farthest:", worst["label"], f"{worst['distance']:.1e}", report.force_unit)
# ANCHOR_END: example
