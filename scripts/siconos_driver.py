#!/usr/bin/python3
"""Drive Siconos numerics 4.4 (Debian python3-siconos) for nonsmooth's cross-checks and
benchmarks. Run with /usr/bin/python3. Every command prints one JSON object per line.

  siconos_driver.py solve-lcp FILE...             Lemke (NSGS_SBM for sparse-block files)
  siconos_driver.py solve-fc3d FILE... [--solver NSGS] [--tol 1e-8] [--max-iter 1000]
  siconos_driver.py error-fc3d FILE ANSWER.json   Siconos's own error of an answer {"r": [...]}
  siconos_driver.py bench-nsgs FILE... [--sweeps 200] [--repeat 5]
                                           seconds per NSGS sweep (tolerance 0, light
                                           error evaluation), best of --repeat runs
  siconos_driver.py bench-prox FILE... [--tol 1e-8] [--max-iter 1000] [--repeat 5]
                                           seconds per PROX iteration (the proximal point
                                           method with its inner Newton solver, run to --tol),
                                           best of --repeat runs, with the outer and the
                                           cumulative inner iteration counts
  siconos_driver.py bench-solve FILE... [--solver NSN_AC] [--tol 1e-8] [--max-iter 1000]
                    [--repeat 3]           seconds of a whole solve from zero to --tol, best
                                           of --repeat runs, with status, iterations and error
"""
import json
import statistics
import sys
import time

import numpy as np
import siconos.numerics as sn


def read_lcp(path):
    prob = sn.LCP(np.eye(1), np.zeros(1))
    sn.linearComplementarity_newFromFilename(prob, path)
    return prob


def is_sbm(prob):
    return not isinstance(prob.M, np.ndarray)


def solve_lcp(path):
    prob = read_lcp(path)
    n = prob.size
    z = np.zeros(n)
    w = np.zeros(n)
    if is_sbm(prob):
        solver = sn.SICONOS_LCP_NSGS_SBM
        so = sn.SolverOptions(solver)
        so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-10
        info = sn.lcp_nsgs_SBM(prob, z, w, so)
        name = "NSGS_SBM"
    else:
        so = sn.SolverOptions(sn.SICONOS_LCP_LEMKE)
        so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-10
        so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 100000
        info = sn.lcp_lexicolemke(prob, z, w, so)
        name = "LEMKE"
    err = sn.lcp_compute_error(prob, z, w, 1e-10)
    err = err[1] if isinstance(err, (list, tuple)) else err
    return {"file": path, "solver": name, "info": int(info), "z": list(map(float, z)),
            "error": float(err), "iterations": int(so.iparam[sn.SICONOS_IPARAM_ITER_DONE])}


def solve_fc3d(path, solver="NSGS", tol=1e-8, max_iter=1000):
    prob = sn.frictionContactProblemFromFile(path)
    n = 3 * prob.numberOfContacts
    r = np.zeros(n)
    u = np.zeros(n)
    sid = getattr(sn, "SICONOS_FRICTION_3D_" + solver)
    so = sn.SolverOptions(sid)
    so.dparam[sn.SICONOS_DPARAM_TOL] = tol
    so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = max_iter
    t = time.perf_counter()
    info = sn.fc3d_driver(prob, r, u, so)
    seconds = time.perf_counter() - t
    info_e, err = sn.fc3d_compute_error(prob, r, u, tol, so, float(np.linalg.norm(prob.q)))
    return {"file": path, "solver": solver, "info": int(info), "r": list(map(float, r)),
            "error": float(err), "iterations": int(so.iparam[sn.SICONOS_IPARAM_ITER_DONE]),
            "seconds": seconds}


def error_fc3d(path, answer_path):
    prob = sn.frictionContactProblemFromFile(path)
    with open(answer_path) as f:
        r = np.array(json.load(f)["r"], dtype=float)
    u = np.zeros_like(r)
    so = sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
    info, err = sn.fc3d_compute_error(prob, r, u, 1e-8, so, float(np.linalg.norm(prob.q)))
    return {"file": path, "error": float(err), "info": int(info)}


def bench_nsgs(path, sweeps=200, repeat=5):
    prob = sn.frictionContactProblemFromFile(path)
    n = 3 * prob.numberOfContacts
    best = float("inf")
    for _ in range(repeat):
        r = np.zeros(n)
        u = np.zeros(n)
        so = sn.SolverOptions(sn.SICONOS_FRICTION_3D_NSGS)
        so.dparam[sn.SICONOS_DPARAM_TOL] = 0.0
        so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = sweeps
        so.iparam[sn.SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION] = sn.SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_LIGHT
        t = time.perf_counter()
        sn.fc3d_nsgs(prob, r, u, so)
        best = min(best, (time.perf_counter() - t) / max(1, so.iparam[sn.SICONOS_IPARAM_ITER_DONE]))
    return {"file": path, "contacts": prob.numberOfContacts, "sweeps": sweeps, "seconds_per_sweep": best}


def bench_prox(path, tol=1e-8, max_iter=1000, repeat=5):
    prob = sn.frictionContactProblemFromFile(path)
    n = 3 * prob.numberOfContacts
    best = float("inf")
    iters = inner = info = 0
    for _ in range(repeat):
        r = np.zeros(n)
        u = np.zeros(n)
        so = sn.SolverOptions(sn.SICONOS_FRICTION_3D_PROX)
        so.dparam[sn.SICONOS_DPARAM_TOL] = tol
        so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = max_iter
        t = time.perf_counter()
        info = sn.fc3d_driver(prob, r, u, so)
        elapsed = time.perf_counter() - t
        iters = int(so.iparam[sn.SICONOS_IPARAM_ITER_DONE])
        inner = int(so.iparam[sn.SICONOS_FRICTION_3D_PROXIMAL_IPARAM_CUMULATIVE_ITER_DONE])
        best = min(best, elapsed / max(1, iters))
    return {"file": path, "contacts": prob.numberOfContacts, "info": int(info), "iterations": iters,
            "inner_iterations": inner, "seconds_per_iteration": best}


def bench_solve(path, solver="NSN_AC", tol=1e-8, max_iter=1000, repeat=3):
    """Best wall time of a whole solve from zero to `tol`, over `repeat` runs, and their median."""
    prob = sn.frictionContactProblemFromFile(path)
    n = 3 * prob.numberOfContacts
    sid = getattr(sn, "SICONOS_FRICTION_3D_" + solver)
    times = []
    info = iters = 0
    err = float("nan")
    for _ in range(repeat):
        r = np.zeros(n)
        u = np.zeros(n)
        so = sn.SolverOptions(sid)
        so.dparam[sn.SICONOS_DPARAM_TOL] = tol
        so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = max_iter
        t = time.perf_counter()
        info = sn.fc3d_driver(prob, r, u, so)
        times.append(time.perf_counter() - t)
        iters = int(so.iparam[sn.SICONOS_IPARAM_ITER_DONE])
        _, err = sn.fc3d_compute_error(prob, r, u, tol, so, float(np.linalg.norm(prob.q)))
    return {"file": path, "solver": solver, "contacts": prob.numberOfContacts, "info": int(info),
            "iterations": iters, "error": float(err), "seconds": min(times),
            "median": statistics.median(times), "timer": "python"}


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, rest = argv[1], argv[2:]
    opts = {}
    files = []
    i = 0
    while i < len(rest):
        if rest[i].startswith("--"):
            opts[rest[i][2:].replace("-", "_")] = rest[i + 1]
            i += 2
        else:
            files.append(rest[i])
            i += 1
    if cmd == "solve-lcp":
        out = [solve_lcp(f) for f in files]
    elif cmd == "solve-fc3d":
        out = [solve_fc3d(f, opts.get("solver", "NSGS"), float(opts.get("tol", 1e-8)),
                          int(opts.get("max_iter", 1000))) for f in files]
    elif cmd == "error-fc3d":
        out = [error_fc3d(files[i], files[i + 1]) for i in range(0, len(files) - 1, 2)]
    elif cmd == "bench-prox":
        out = [bench_prox(f, float(opts.get("tol", 1e-8)), int(opts.get("max_iter", 1000)),
                          int(opts.get("repeat", 5))) for f in files]
    elif cmd == "bench-solve":
        out = [bench_solve(f, opts.get("solver", "NSN_AC"), float(opts.get("tol", 1e-8)),
                           int(opts.get("max_iter", 1000)), int(opts.get("repeat", 3))) for f in files]
    elif cmd == "bench-nsgs":
        out = [bench_nsgs(f, int(opts.get("sweeps", 200)), int(opts.get("repeat", 5))) for f in files]
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for o in out:
        print(json.dumps(o), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
