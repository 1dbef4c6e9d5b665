"""SciPy's answers for spec/scipy/spatial/spatial_spec.lua, written as ref.lua.

    /usr/bin/python3 spec/scipy/spatial/ref.py > spec/scipy/spatial/ref.lua

Indices SciPy gives 0-based are written 1-based (API.md §14). hellinger and
kl_divergence are RAFT's (CuPy's) definitions, computed here in NumPy.
"""
import numpy as np
import scipy.spatial as ss
import scipy.spatial.distance as sd

rng = np.random.default_rng(20261129)


def lua(v):
    if isinstance(v, dict):
        return "{" + ", ".join("%s = %s" % (k, lua(v[k])) for k in sorted(v)) + "}"
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
        if f in (float("inf"), float("-inf")):
            return "math.huge" if f > 0 else "-math.huge"
        return repr(f)
    raise TypeError(type(v))


def wrapped(text, width=116):
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
XA = np.round(rng.standard_normal((5, 3)), 3)
XB = np.round(rng.standard_normal((4, 3)), 3)
w = np.array([0.5, 2.0, 1.0])
P = rng.random((5, 3)) + 0.1
Q = rng.random((4, 3)) + 0.1
out["XA"], out["XB"], out["w"] = XA, XB, w
out["P"], out["Q"] = P, Q
for m in ["euclidean", "sqeuclidean", "cityblock", "chebyshev", "canberra", "cosine", "correlation"]:
    out["cdist_" + m] = sd.cdist(XA, XB, m)
    out["cdist_w_" + m] = sd.cdist(XA, XB, m, w=w)
    out["pdist_" + m] = sd.pdist(XA, m)
out["cdist_minkowski3"] = sd.cdist(XA, XB, "minkowski", p=3)
BA = XA > 0
BB = XB > 0
out["BA"], out["BB"] = BA.astype(float), BB.astype(float)
for m in ["hamming", "russellrao"]:
    out["cdist_" + m] = sd.cdist(BA, BB, m)
out["cdist_jensenshannon"] = sd.cdist(P, Q, "jensenshannon")
Pn, Qn = P / P.sum(1, keepdims=True), Q / Q.sum(1, keepdims=True)
out["Pn"], out["Qn"] = Pn, Qn
out["hellinger"] = np.sqrt(np.maximum(1 - np.sqrt(Pn[:, None, :] * Qn[None, :, :]).sum(-1), 0))
out["kl"] = (Pn[:, None, :] * np.log(Pn[:, None, :] / Qn[None, :, :])).sum(-1)
out["minkowski"] = sd.minkowski(XA[0], XB[0], 3, w)
out["correlation_nc"] = sd.correlation(XA[0], XB[0], centered=False)
out["js_base2"] = sd.jensenshannon(P[0], Q[0], base=2)
out["distance_matrix"] = ss.distance_matrix(XA, XB, p=1)
pts = np.round(rng.random((30, 2)), 3)
qs = np.round(rng.random((4, 2)), 3)
t = ss.KDTree(pts)
d, i = t.query(qs, k=3)
out["pts"], out["qs"] = pts, qs
out["q_d"], out["q_i"] = d, i + 1
d1, i1 = t.query(qs, k=1)
out["q1_d"], out["q1_i"] = d1, i1 + 1
db, ib = t.query(qs, k=[2, 4], distance_upper_bound=0.15)
out["qb_d"], out["qb_i"] = db, np.where(ib == len(pts), len(pts), ib) + 1
out["ball"] = [np.array(sorted(b)) + 1 for b in t.query_ball_point(qs, 0.2)]
out["ball_len"] = t.query_ball_point(qs, 0.2, return_length=True)
out["pairs"] = np.array(sorted(t.query_pairs(0.1))) + 1
out["count"] = t.count_neighbors(ss.KDTree(qs), 0.2)
# Delaunay: simplices and hull facets as sorted 1-based vertex sets (our
# numbering and order differ from Qhull's), find_simplex as the vertex
# set of the simplex found ({} outside), vertex_neighbor_vertices per vertex
def vsets(rows):
    return sorted(sorted(int(v) + 1 for v in r) for r in rows)


for name, shape in [("del2", (40, 2)), ("del3", (25, 3)), ("del4", (16, 4))]:
    P = rng.random(shape)
    tri = ss.Delaunay(P)
    Q = np.vstack([rng.random((12, shape[1])), rng.random((3, shape[1])) * 3 - 1])
    found = tri.find_simplex(Q)
    indptr, indices = tri.vertex_neighbor_vertices
    out[name] = {"P": P, "Q": Q, "simplices": vsets(tri.simplices), "hull": vsets(tri.convex_hull),
                 "found": [sorted(int(v) + 1 for v in tri.simplices[f]) if f >= 0 else [] for f in found],
                 "vnv": [sorted(int(v) + 1 for v in indices[indptr[k]:indptr[k + 1]]) for k in range(len(P))]}
G = np.array([[i, j] for i in range(5) for j in range(4)], dtype=float)
out["grid"] = {"P": G, "nsimplex": len(ss.Delaunay(G).simplices)}
names = sorted(out)
print("-- written by spec/scipy/spatial/ref.py (SciPy %s); do not edit" % __import__("scipy").__version__)
print("return {")
for nm in names:
    print(wrapped('  ["%s"] = %s,' % (nm, lua(out[nm]))))
print("}")
