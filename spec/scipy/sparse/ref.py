"""SciPy's answers for spec/scipy/sparse/*_spec.lua, written as ref.lua.

    /usr/bin/python3 spec/scipy/sparse/ref.py > spec/scipy/sparse/ref.lua

Needs SciPy (1.10 was used). The specs read the Lua file; they never run
this script. Matrices are written dense (row lists); positions SciPy gives
0-based are written 1-based (API.md §14); labels and offsets are values.
"""
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sl
import scipy.sparse.csgraph as cg

rng = np.random.default_rng(20261128)


def lua(v):
    if isinstance(v, (list, tuple)):
        return "{" + ", ".join(lua(x) for x in v) + "}"
    if isinstance(v, np.ndarray):
        return lua(v.tolist())
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if f != f:
            return "0/0"
        if f in (float("inf"), float("-inf")):
            return "math.huge" if f > 0 else "-math.huge"
        return repr(f)
    raise TypeError(type(v))


def wrapped(text, width=116):
    """text split after commas into lines of at most width characters"""
    lines, cur = [], ""
    for part in text.split(", "):
        piece = part if not cur else cur + ", " + part
        if len(piece) + 4 > width and cur:
            lines.append(cur + ",")
            cur = part
        else:
            cur = piece
    lines.append(cur)
    return "\n    ".join(lines)


out = {}


def put(name, value):
    out[name] = value


def dense(S):
    return np.asarray(S.toarray())


# a small nonsymmetric sparse matrix with duplicates-free structure
D = np.round(rng.standard_normal((6, 5)), 2) * (rng.random((6, 5)) < 0.45)
D[2, :] = 0
put("D", D)
E = np.round(rng.standard_normal((6, 5)), 2) * (rng.random((6, 5)) < 0.45)
put("E", E)
S, T = sp.csr_matrix(D), sp.csr_matrix(E)
put("D_plus_E", dense(S + T))
put("D_mul_E", dense(S.multiply(T)))
put("D_max_E", dense(S.maximum(T)))
put("D_min_E", dense(S.minimum(T)))
put("D_max_0", dense(S.maximum(0)))
put("D_sum", float(S.sum()))
put("D_sum1", np.asarray(S.sum(axis=0)).ravel())
put("D_sum2", np.asarray(S.sum(axis=1)).ravel())
put("D_mean1", np.asarray(S.mean(axis=0)).ravel())
put("D_max", float(S.max()))
put("D_min", float(S.min()))
put("D_max1", dense(S.max(axis=0)).ravel())
put("D_min2", dense(S.min(axis=1)).ravel())
put("D_argmax", int(S.argmax()) + 1)
put("D_argmin", int(S.argmin()) + 1)
put("D_argmax1", np.asarray(S.argmax(axis=0)).ravel() + 1)
put("D_argmin2", np.asarray(S.argmin(axis=1)).ravel() + 1)
put("D_diag", S.diagonal())
put("D_diag1", S.diagonal(1))
put("D_diagm2", S.diagonal(-2))
put("D_count_nonzero", S.count_nonzero())
put("D_abs", dense(abs(S)))
put("D_sqrt_abs", dense(abs(S).sqrt()))
put("D_power3", dense(S.power(3)))
put("D_tril", dense(sp.tril(S, -1)))
put("D_triu1", dense(sp.triu(S, 1)))
I, J, V = sp.find(S)
# row-major, as SciPy >= 1.13 (its COO sum_duplicates sorts in C order) and
# CuPy give them; SciPy 1.10's lexsort put them column by column
order = np.lexsort((J, I))
I, J, V = I[order], J[order], V[order]
put("D_find_I", I + 1)
put("D_find_J", J + 1)
put("D_find_V", V)
dia = S.todia()
put("D_dia_offsets", dia.offsets)
put("D_dia_data", dia.data)
put("kron", dense(sp.kron(sp.csr_matrix([[1, 2], [0, 3]]), sp.csr_matrix([[0, 1], [1, 0], [2, 2]]))))
put("kronsum", dense(sp.kronsum(sp.csr_matrix([[1, 2], [0, 3]]), sp.csr_matrix([[0, 1, 1], [1, 0, 0], [2, 2, 5]]))))
put("hstack", dense(sp.hstack([S, T])))
put("vstack", dense(sp.vstack([S, T])))
put("bmat", dense(sp.bmat([[S, None], [None, T]])))
put("block_diag", dense(sp.block_diag([S, sp.csr_matrix([[7.0]]), T])))
put("spdiags", dense(sp.spdiags(np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]), [0, -1, 2], 4, 4)))
put("diags", dense(sp.diags([[1, 2, 3], [4, 5], [6]], [0, 1, -2], shape=(3, 3))))
put("dia_from", dense(sp.dia_matrix((np.array([[1, 2, 3, 4], [5, 6, 7, 8]]), [0, 1]), shape=(4, 4))))

# linear systems
n = 40
lap = sp.diags([-np.ones(n - 1), 2.2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1], format="csr")
b = np.cos(np.arange(n) * 0.3)
put("spd_n", n)
put("spd", dense(lap))
put("spd_b", b)
put("spd_x", np.linalg.solve(lap.toarray(), b))
cd = sp.diags([-1.3 * np.ones(n - 1), 3.0 * np.ones(n), -0.7 * np.ones(n - 1), 0.2 * np.ones(n - 3)],
              [-1, 0, 1, 3], format="csr")
put("ns", dense(cd))
put("ns_x", np.linalg.solve(cd.toarray(), b))
ill = sp.diags([np.logspace(0, 8, n)], [0], format="csr") + sp.diags([1e-3 * np.ones(n - 1)], [1])
put("ill", dense(ill))
put("ill_x", np.linalg.solve(ill.toarray(), b))
x, info = sl.cg(ill, b, tol=1e-12, maxiter=5, atol=0)
put("ill_cg_info", info)
R = np.round(rng.standard_normal((30, 12)), 2) * (rng.random((30, 12)) < 0.5) + np.eye(30, 12)
rb = np.round(rng.standard_normal(30), 2)
put("ls_A", R)
put("ls_b", rb)
put("ls_x", np.linalg.lstsq(R, rb, rcond=None)[0])
lt = sp.tril(sp.csr_matrix(R[:12, :12] + 3 * np.eye(12)))
put("tri_L", dense(lt))
put("tri_x", sl.spsolve_triangular(lt.tocsr(), rb[:12], lower=True))
put("tri_xu", sl.spsolve_triangular(lt.T.tocsr(), rb[:12], lower=False))

# eigen and functions
w = np.linalg.eigvalsh(lap.toarray())
put("spd_w_top3", w[-3:])
put("spd_w_low3", w[:3])
sv = np.linalg.svd(R, compute_uv=False)
put("ls_s_top3", np.sort(sv[:3]))
put("spd_norm_fro", sl.norm(lap))
put("spd_norm_1", sl.norm(lap, 1))
put("ns_norm_inf", sl.norm(cd, np.inf))
put("ns_norm_m1", sl.norm(cd, -1))
put("ns_norm_ax2", sl.norm(cd, axis=1))
put("ns_pow3", dense(sl.matrix_power(cd, 3)) if hasattr(sl, "matrix_power") else
    np.linalg.matrix_power(cd.toarray(), 3))
small = sp.csr_matrix(np.round(rng.standard_normal((8, 8)), 2) * (rng.random((8, 8)) < 0.4) * 0.5)
put("em_A", dense(small))
eb = np.round(rng.standard_normal((8, 2)), 2)
put("em_B", eb)
put("em", sl.expm_multiply(small, eb))
put("em_lin", sl.expm_multiply(small, eb[:, 0], start=0, stop=1, num=4, endpoint=True))

# graphs
G = np.zeros((9, 9))
for u, v in [(0, 1), (1, 2), (2, 0), (3, 4), (5, 6), (6, 7), (7, 5), (2, 3), (8, 8)]:
    G[u, v] = 1
put("G", G)
nc, lab = cg.connected_components(sp.csr_matrix(G), directed=True, connection="weak")
put("G_weak_n", nc)
put("G_weak_labels", lab)
nc, lab = cg.connected_components(sp.csr_matrix(G), directed=True, connection="strong")
put("G_strong_n", nc)
put("G_strong_labels", lab)

names = sorted(out)
print("-- written by spec/scipy/sparse/ref.py (SciPy %s, NumPy %s); do not edit" %
      (__import__("scipy").__version__, np.__version__))
print("return {")
for nm in names:
    print(wrapped('  ["%s"] = %s,' % (nm, lua(out[nm]))))
print("}")
