"""SciPy's and NumPy's answers for spec/scipy/linalg/linalg_spec.lua, written as ref.lua.

    /usr/bin/python3 spec/scipy/linalg/ref.py > spec/scipy/linalg/ref.lua

Needs SciPy (1.10 was used). The specs read the Lua file; they never run
this script. Complex values are {re, im} pairs (what ga.array takes);
positions SciPy returns 0-based are written 1-based (API.md §14).
"""
import numpy as np
import scipy.linalg as sl

rng = np.random.default_rng(20261127)


def lua(v):
    if isinstance(v, (list, tuple)):
        return "{" + ", ".join(lua(x) for x in v) + "}"
    if isinstance(v, np.ndarray):
        return lua(v.tolist())
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (complex, np.complexfloating)):
        return "{%s, %s}" % (lua(float(v.real)), lua(float(v.imag)))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if f != f:
            return "0/0"
        if f in (float("inf"), float("-inf")):
            return "math.huge" if f > 0 else "-math.huge"
        return repr(f)
    if isinstance(v, str):
        return '"%s"' % v
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


def rnd(*shape):
    return np.round(rng.standard_normal(shape), 3)


# triangular solves
L = np.tril(rnd(4, 4)) + 4 * np.eye(4)
U = np.triu(rnd(4, 4)) + 4 * np.eye(4)
b = rnd(4)
B = rnd(4, 2)
put("tri_L", L)
put("tri_U", U)
put("tri_b", b)
put("tri_B", B)
put("tri_L_b", sl.solve_triangular(L, b, lower=True))
put("tri_L_B_T", sl.solve_triangular(L, B, lower=True, trans=1))
put("tri_U_B", sl.solve_triangular(U, B))
put("tri_L_b_unit", sl.solve_triangular(L, b, lower=True, unit_diagonal=True))
Lc = L + 1j * np.tril(rnd(4, 4))
put("tri_Lc", Lc)
put("tri_Lc_b_C", sl.solve_triangular(Lc, b, lower=True, trans=2))

# LU
A4 = rnd(4, 4)
lu, piv = sl.lu_factor(A4)
put("lu_A", A4)
put("lu_lu", lu)
put("lu_piv", piv + 1)
put("lu_b", b)
for t in (0, 1, 2):
    put("lu_solve_%d" % t, sl.lu_solve((lu, piv), B, trans=t))
for name, shape in (("sq", (4, 4)), ("tall", (5, 3)), ("wide", (3, 5))):
    a = rnd(*shape)
    P, Lf, Uf = sl.lu(a)
    put("lu_%s_a" % name, a)
    put("lu_%s_P" % name, P)
    put("lu_%s_L" % name, Lf)
    put("lu_%s_U" % name, Uf)
    PL, U2 = sl.lu(a, permute_l=True)
    put("lu_%s_PL" % name, PL)

# Cholesky
M = rnd(4, 4)
S = M @ M.T + 4 * np.eye(4)
put("cho_S", S)
c, low = sl.cho_factor(S, lower=True)
put("cho_L", np.tril(c))
c, low = sl.cho_factor(S)
put("cho_U", np.triu(c))
put("cho_x", sl.cho_solve((c, low), B))

# matrix functions
E1 = rnd(3, 3) * 0.01
E2 = rnd(4, 4)
E3 = rnd(4, 4) * 6
put("expm_E1", E1)
put("expm_E2", E2)
put("expm_E3", E3)
put("expm_r1", sl.expm(E1))
put("expm_r2", sl.expm(E2))
put("expm_r3", sl.expm(E3))
Ec = rnd(3, 3) + 1j * rnd(3, 3)
put("expm_Ec", Ec)
put("expm_rc", sl.expm(Ec))
put("sqrtm_S", S)
put("sqrtm_rS", sl.sqrtm(S))
N = np.array([[4.0, 1.0, 0.5], [0.2, 3.0, 0.1], [0.3, 0.4, 5.0]])
put("sqrtm_N", N)
put("sqrtm_rN", sl.sqrtm(N))
put("logm_rN", sl.logm(N))
put("logm_rS", sl.logm(S))
Neg = np.array([[-2.0, 0.5], [0.1, 3.0]])
put("neg", Neg)
put("sqrtm_neg", sl.sqrtm(Neg))
put("logm_neg", sl.logm(Neg))
# a negative eigenvalue (-3) and a complex pair just above the negative axis
# (-1.998 -+ i): the turn off the cut must stay below the pair's angle
Near = np.array([[-1.998, -1.0, 0.0], [1.0, -1.998, 0.0], [0.0, 0.5, -3.0]])
put("near", Near)
put("sqrtm_near", sl.sqrtm(Near))
put("logm_near", sl.logm(Near))

# special matrices
put("toeplitz_1", sl.toeplitz([1, 2, 3], [1, 4, 5, 6]))
put("toeplitz_2", sl.toeplitz([1.0, 2 + 3j, 4 - 1j]))
put("hankel_1", sl.hankel([1, 17, 99]))
put("hankel_2", sl.hankel([1, 2, 3, 4], [4, 7, 7, 8, 9]))
put("circulant", sl.circulant([1, 2, 3, 4]))
put("hilbert", sl.hilbert(4))
put("companion", sl.companion([1, -10, 31, -30]))
for mode in ("full", "same", "valid"):
    put("convmat_" + mode, sl.convolution_matrix([-1, 4, -2], 5, mode=mode))
put("convmat_long_same", sl.convolution_matrix([1, 2, 3, 4, 5, 6], 3, mode="same"))
put("dft", sl.dft(5))
put("dft_sqrtn", sl.dft(4, scale="sqrtn"))
put("fiedler", sl.fiedler([1, 4, 12, 45, 77]))
put("fiedler_companion", sl.fiedler_companion([1.0, -16.0, 86.0, -176.0, 105.0]))
put("fiedler_companion_6", sl.fiedler_companion([2.0, -3.0, 1.0, 5.0, -7.0, 4.0, 9.0]))
put("hadamard", sl.hadamard(4))
put("helmert", sl.helmert(5))
put("helmert_full", sl.helmert(4, full=True))
put("leslie", sl.leslie([0.1, 2.0, 1.0, 0.1], [0.2, 0.8, 0.7]))
put("block_diag", sl.block_diag([[1, 0], [0, 1]], [[3, 4, 5], [6, 7, 8]], [[7]], [1, 2]))
ka, kb = rnd(2, 3), rnd(4, 3)
put("kr_a", ka)
put("kr_b", kb)
put("khatri_rao", sl.khatri_rao(ka, kb))
band = np.zeros((5, 6))
band[3, 1] = 1
band[0, 4] = 2
put("band", band)
put("band_lu", list(sl.bandwidth(band)))

# numpy.linalg additions
Ge = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]])     # eigenvalues +-i, 2
put("eig_G", Ge)
put("eig_G_w", np.sort_complex(np.linalg.eigvals(Ge)))
Gr = rnd(4, 4)
Gr = Gr @ Gr.T + np.diag([1.0, 2.0, 3.0, 4.0])
put("eig_R", Gr)
put("eig_R_w", np.sort(np.linalg.eigvals(Gr)))
Cx = rnd(3, 3) + 1j * rnd(3, 3)
put("eig_C", Cx)
put("eig_C_w", np.sort_complex(np.linalg.eigvals(Cx)))
Cd = rnd(4, 4)
put("cond_A", Cd)
for p in (None, 1, -1, 2, -2, np.inf, "fro", "nuc"):
    put("cond_%s" % (p if p is not None else "none"), np.linalg.cond(Cd, p))
T6 = rnd(6, 2, 3)
put("tsolve_a", T6)
bt = rnd(6)
put("tsolve_b", bt)
put("tsolve_x", np.linalg.tensorsolve(T6, bt))
Ti = rnd(4, 6, 8, 3) * 0 + rnd(24, 24).reshape(4, 6, 8, 3)
put("tinv_a", Ti)
put("tinv", np.linalg.tensorinv(Ti, ind=2))
m1, m2, m3, m4 = rnd(3, 5), rnd(5, 2), rnd(2, 6), rnd(6)
put("md", [m1, m2, m3, m4])
put("md_r", np.linalg.multi_dot([m1, m2, m3, m4]))
cx1, cx2 = rnd(4, 3), rnd(3)
put("cross_a", cx1)
put("cross_b", cx2)
put("cross", np.cross(cx1, cx2))

names = sorted(out)
print("-- written by spec/scipy/linalg/ref.py (SciPy %s, NumPy %s); do not edit" %
      (__import__("scipy").__version__, np.__version__))
print("return {")
for n in names:
    print(wrapped("  [\"%s\"] = %s," % (n, lua(out[n]))))
print("}")
