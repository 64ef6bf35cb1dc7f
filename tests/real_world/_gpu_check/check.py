# Temporary: builds each tests/real_world/*.cu with nvcc + real CUB and checks it on the GPU.
import ctypes, glob, os, subprocess, sys, time, tomllib
import numpy as np, cupy as cp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROB = {3: "003-sum-reduction", 9: "009-inclusive-prefix-sum", 17: "017-radix-sort", 18: "018-sort-in-place", 19: "019-top-k"}
SIG = {3: ("float*, float*, int", "a, b, n"), 9: ("float*, float*, int", "a, b, n"),
       17: ("unsigned int*, unsigned int*, int", "a, b, n"), 18: ("float*, int", "a, n"),
       19: ("float*, float*, int, int", "a, b, n, k")}
U = 2.0 ** -24

def build(path, p):
    d = f"/tmp/gb/{os.path.basename(path)[:-3]}"
    os.makedirs(d, exist_ok=True)
    open(f"{d}/solve.h", "w").write("")
    params, call = SIG[p]
    names = call.split(", ")
    decl = ", ".join(f"{t} {n}" for t, n in zip(params.split(", "), names))
    open(f"{d}/w.cu", "w").write(f'#include "{path}"\nextern "C" void entry({decl}) {{ solve({call}); }}\n')
    r = subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-shared", "-Xcompiler", "-fPIC", "-I", d, f"{d}/w.cu", "-o", f"{d}/lib.so"],
                       capture_output=True, text=True)
    if r.returncode:
        print("BUILD FAIL", path, r.stderr[-3000:]); return None
    if r.stderr.strip(): print("  nvcc warnings:", r.stderr.strip()[-1500:])
    return ctypes.CDLL(f"{d}/lib.so").entry

def sizes(p):
    t = tomllib.load(open(f"{ROOT}/../../problems/{PROB[p]}/problem.toml", "rb"))
    return [s for g in t["tests"] for s in g["sizes"]]

def gen(p, n, dist, rng):
    if p in (3, 9):
        if dist == "all-equal": return cp.full(n, 0.3, dtype=cp.float32)
        if dist == "cancel": x = rng.uniform(-1, 1, n, dtype=cp.float32); x[::7] += 1e4; x[3::7] -= 1e4; return x
        return rng.uniform(-1, 1, n, dtype=cp.float32)
    if p == 17:
        x = rng.integers(0, 2**32, n, dtype=cp.uint64).astype(cp.uint32)
        if dist == "all-equal": return cp.full(n, 0x9abcdef1, dtype=cp.uint32)
        if dist == "few": return (x % 4) * 0x40000001
        if dist == "sorted": return cp.sort(x)
        if dist == "reversed": return cp.sort(x)[::-1].copy()
        if dist == "small": return (x % 50).astype(cp.uint32)
        return x
    x = rng.uniform(-1000, 1000, n, dtype=cp.float32)
    if p == 18:
        z = rng.random(n) < 0.03; x[z] = cp.where(rng.random(int(z.sum())) < 0.5, 0.0, -0.0).astype(cp.float32)
    if dist == "all-equal": return cp.full(n, 3.5, dtype=cp.float32)
    if dist == "few": return cp.floor(x / 500) * 250
    if dist == "sorted": return cp.sort(x)
    if dist == "reversed": return cp.sort(x)[::-1].copy()
    return x

def check(p, fn, s, dist, rng):
    n = s["N"]; k = s.get("k", 0)
    x = gen(p, n, dist, rng); x0 = x.copy()
    if p == 3: out = cp.full(1, cp.nan, dtype=cp.float32)
    elif p == 9: out = cp.full(n, cp.nan, dtype=cp.float32)
    elif p == 17: out = cp.full(n, 0xCDCDCDCD, dtype=cp.uint32)
    elif p == 19: out = cp.full(k, cp.nan, dtype=cp.float32)
    cp.cuda.runtime.deviceSynchronize(); t0 = time.perf_counter()
    if p == 18: fn(ctypes.c_void_p(x.data.ptr), n)
    elif p == 19: fn(ctypes.c_void_p(x.data.ptr), ctypes.c_void_p(out.data.ptr), n, k)
    else: fn(ctypes.c_void_p(x.data.ptr), ctypes.c_void_p(out.data.ptr), n)
    cp.cuda.runtime.deviceSynchronize(); dt = time.perf_counter() - t0
    if p != 18 and not bool((x == x0).all()): return False, "input modified", dt
    if p == 3:
        xd = x.astype(cp.float64); S = float(xd.sum()); tol = 2 * np.sqrt(n) * U * float(cp.abs(xd).sum()) + U * abs(S)
        ok = abs(float(out[0]) - S) <= tol; msg = f"got {float(out[0])} want {S} tol {tol}"
    elif p == 9:
        xd = x.astype(cp.float64); S = cp.cumsum(xd); C = cp.cumsum(cp.abs(xd))
        tol = 4 * cp.sqrt(cp.arange(1, n + 1)) * U * C + 2 * U * cp.abs(S)
        bad = cp.abs(out.astype(cp.float64) - S) > tol; bad |= cp.isnan(out)
        ok = not bool(bad.any()); msg = "" if ok else f"first bad {int(cp.argmax(bad))} of {int(bad.sum())}"
    elif p == 17:
        bad = out != cp.sort(x); ok = not bool(bad.any()); msg = "" if ok else f"{int(bad.sum())} wrong, first {int(cp.argmax(bad))}"
    elif p == 18:
        bad = x != cp.sort(x0); ok = not bool(bad.any()); msg = "" if ok else f"{int(bad.sum())} wrong, first {int(cp.argmax(bad))}"
    else:
        want = cp.sort(x)[::-1][:k]; bad = out != want; ok = not bool(bad.any()); msg = "" if ok else f"{int(bad.sum())} wrong"
    return ok, msg, dt

DISTS = {3: ["uniform", "all-equal", "cancel"], 9: ["uniform", "all-equal", "cancel"],
         17: ["uniform", "few", "all-equal", "sorted", "reversed", "small"],
         18: ["uniform", "few", "all-equal", "sorted", "reversed"], 19: ["uniform", "few", "all-equal", "sorted", "reversed"]}

files = sorted(glob.glob(f"{ROOT}/p*.cu")) if len(sys.argv) < 2 else sys.argv[1:]
rng = cp.random.default_rng(7)
for path in files:
    p = int(os.path.basename(path)[1:].split("_")[0])
    fn = build(path, p)
    if fn is None: continue
    fails, slowest = [], (0, None)
    for s in sizes(p):
        for dist in DISTS[p]:
            if s["N"] >= 10**7 and dist not in ("uniform", "reversed", "all-equal"): continue
            ok, msg, dt = check(p, fn, s, dist, rng)
            if not ok: fails.append(f"{s} {dist}: {msg}")
            if dt > slowest[0]: slowest = (dt, f"{s} {dist}")
    print(f"{os.path.basename(path)}: {'OK' if not fails else 'FAIL'}; slowest call {slowest[0]*1e3:.1f} ms ({slowest[1]})", flush=True)
    for f in fails[:5]: print("   ", f)
