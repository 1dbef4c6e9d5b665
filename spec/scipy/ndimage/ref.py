"""SciPy 1.10's values for the ndimage and interpolate specs: writes
spec/scipy/ndimage/ref.lua. Run: python3 spec/scipy/ndimage/ref.py"""
import numpy as np
from scipy import ndimage as ndi
from scipy import interpolate as si

MODES = ['reflect', 'constant', 'nearest', 'mirror', 'wrap', 'grid-constant', 'grid-mirror', 'grid-wrap']
CODES = ['nearest', 'wrap', 'reflect', 'mirror', 'constant', 'grid-wrap', 'grid-constant']
out = []


def lua(v):
    if isinstance(v, (list, tuple, np.ndarray)):
        return '{' + ', '.join(lua(e) for e in v) + '}'
    if isinstance(v, (bool, np.bool_)):
        return 'true' if v else 'false'
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    f = float(v)
    if f != f:
        return '0/0'
    if f in (float('inf'), float('-inf')):
        return ('' if f > 0 else '-') + 'math.huge'
    return repr(f)


def put(name, v):
    out.append('R[%r] = %s' % (name, lua(v)))


# the host-compiled CUDA (cuda_host_spec): prefilter and 1-D interpolation
base = np.array([1, 2, 4, 8, 16, 3, -1, 5.])
for mode in range(7):
    for order in range(2, 6):
        put('spline/%d/%d' % (mode, order), ndi.spline_filter1d(base[:7], order, mode=CODES[mode]))
cs = np.array([-13.5, -2.5, -1.5, -1.0, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 3.75, 4, 6.5, 6.75, 7, 7.25, 7.5, 8.25, 9.5, 17.3])
put('coords', cs)
for n in (7, 8):
    for mode in range(7):
        for order in range(6):
            put('interp/%d/%d/%d' % (n, mode, order),
                ndi.map_coordinates(base[:n], [cs], order=order, mode=CODES[mode], cval=-10))

# GPU specs: a fixed odd x even image
rng = np.random.default_rng(5)
img = np.round(rng.random((7, 6)) * 10, 3)
put('img', img)
for m in MODES:
    put('gauss/' + m, ndi.gaussian_filter(img, 1.0, mode=m, cval=0.5))
    put('uniform/' + m, ndi.uniform_filter(img, (3, 2), mode=m, cval=0.5))
    put('median/' + m, ndi.median_filter(img, 3, mode=m, cval=0.5))
    put('minimum/' + m, ndi.minimum_filter(img, (2, 3), mode=m, cval=0.5))
    put('maximum1d/' + m, ndi.maximum_filter1d(img, 4, axis=0, mode=m, cval=0.5))
    put('corr1d/' + m, ndi.correlate1d(img, [1, -2, 3, 0.5], axis=1, mode=m, cval=0.5, origin=1))
    put('sobel/' + m, ndi.sobel(img, 0, mode=m, cval=0.5))
w = np.array([[0, 1, 2], [1, -3, 0.5]])
put('w', w)
put('correlate', ndi.correlate(img, w, mode='mirror'))
put('convolve', ndi.convolve(img, w, mode='wrap', origin=(0, 1)))
put('gauss_order', ndi.gaussian_filter(img, (1.5, 0.8), order=(1, 2)))
put('gauss_laplace', ndi.gaussian_laplace(img, 1.2))
put('gauss_gradmag', ndi.gaussian_gradient_magnitude(img, 1.2))
put('laplace', ndi.laplace(img))
put('prewitt', ndi.prewitt(img, 1))
fp = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]], bool)
put('fp', fp)
put('rank', ndi.rank_filter(img, 2, footprint=fp))
put('percentile', ndi.percentile_filter(img, 70, size=(3, 4)))
put('median_fp', ndi.median_filter(img, footprint=fp, mode='constant', cval=2))
put('img_u8', (img * 20).astype(np.uint8))
put('uniform_u8', ndi.uniform_filter((img * 20).astype(np.uint8), 3))
put('img_i32', ((img - 5) * 7).astype(np.int32))
put('uniform1d_i32', ndi.uniform_filter1d(((img - 5) * 7).astype(np.int32), 4, axis=0, mode='nearest'))
put('median_i32', ndi.median_filter((img * 100).astype(np.int32), 5))
put('generic_mean', ndi.generic_filter(img, np.mean, size=3, mode='nearest'))
# interpolation
for m in MODES:
    for order in range(6):
        put('zoom/%s/%d' % (m, order), ndi.zoom(img, (1.5, 0.7), order=order, mode=m, cval=-1))
        put('shift/%s/%d' % (m, order), ndi.shift(img, (0.4, -1.3), order=order, mode=m, cval=-1))
put('zoom_grid', ndi.zoom(img, 2, order=3, mode='grid-constant', grid_mode=True))
crd = np.array([[0.5, 3.2, -0.4, 6.1, 2.0], [1.5, 0.1, 4.9, 5.2, -0.7]])
put('crd', crd)
for order in range(6):
    put('mapc/%d' % order, ndi.map_coordinates(img, crd, order=order, mode='reflect'))
put('affine', ndi.affine_transform(img, [[0.9, 0.2], [-0.1, 1.1]], offset=(0.5, -0.3), output_shape=(5, 8), order=3))
put('rotate', ndi.rotate(img, 30, order=1))
put('rotate90', ndi.rotate(img, 90, order=3))
put('spline2d', ndi.spline_filter(img, 3))
put('map_u8', ndi.map_coordinates((img * 20).astype(np.uint8), crd, order=1))
# measurements
lab = np.array([[1, 1, 0, 2, 2, 0], [0, 1, 0, 0, 2, 0], [3, 0, 0, 0, 0, 4], [3, 3, 0, 4, 4, 4],
                [0, 0, 0, 0, 0, 0], [5, 0, 5, 0, 6, 6], [5, 5, 5, 0, 0, 6]])
put('lab', lab)
blobs = img > 5
put('blobs', blobs)
L, n = ndi.label(blobs)
put('label', L)
put('label_n', n)
L8, n8 = ndi.label(blobs, np.ones((3, 3)))
put('label8', L8)
put('label8_n', n8)
idx = [1, 2, 4, 6, 7]
put('sum', ndi.sum_labels(img, lab, idx))
put('mean', ndi.mean(img, lab, idx))
put('variance', ndi.variance(img, lab, idx))
put('std1', ndi.standard_deviation(img, lab, 2))
put('minimum', ndi.minimum(img, lab, idx[:4]))
put('maximum', ndi.maximum(img, lab, idx[:4]))
put('median_lab', ndi.median(img, lab, idx[:4]))
put('minpos', [[p + 1 for p in t] for t in ndi.minimum_position(img, lab, idx[:4])])
put('maxpos', [p + 1 for p in ndi.maximum_position(img, lab, 3)])
put('com', [list(t) for t in ndi.center_of_mass(img, lab, idx[:4])])
put('com_all', list(ndi.center_of_mass(img)))
put('hist', ndi.histogram(img, 0, 10, 5, lab, 1))
put('sum_all', ndi.sum_labels(img))
put('sum_pos', ndi.sum_labels(img, lab))
fo = ndi.find_objects(lab)
put('find_objects', [[[s.start + 1, s.stop] for s in o] for o in fo])
# morphology
put('erosion', ndi.binary_erosion(blobs))
put('dilation', ndi.binary_dilation(blobs, iterations=2))
put('opening', ndi.binary_opening(blobs, np.ones((2, 2))))
put('closing', ndi.binary_closing(blobs))
put('erosion_border', ndi.binary_erosion(blobs, border_value=1, origin=(0, 1)))
put('fill_holes', ndi.binary_fill_holes(np.array([[1, 1, 1, 1, 0], [1, 0, 0, 1, 0], [1, 1, 1, 1, 0], [0, 0, 0, 0, 0]])))
put('hit_or_miss', ndi.binary_hit_or_miss(blobs, [[0, 1, 0], [1, 1, 1], [0, 0, 0]]))
seed = np.zeros_like(blobs)
seed[0, 0] = True
put('propagation', ndi.binary_propagation(seed, mask=blobs))
put('grey_erosion', ndi.grey_erosion(img, size=(3, 2)))
put('grey_dilation', ndi.grey_dilation(img, footprint=fp))
put('grey_dilation_st', ndi.grey_dilation(img, structure=[[0, 1], [2, 0.5]]))
put('grey_opening', ndi.grey_opening(img, 3))
put('white_tophat', ndi.white_tophat(img, 3))
put('black_tophat', ndi.black_tophat(img, 3))
put('mgrad', ndi.morphological_gradient(img, 3))
put('mlaplace', ndi.morphological_laplace(img, 3))
put('gbs', ndi.generate_binary_structure(2, 2))
put('iterate', ndi.iterate_structure(ndi.generate_binary_structure(2, 1), 2))
feat = np.ones((7, 6), bool)
feat[1, 4] = False
feat[5, 1] = False
put('feat', feat)
put('edt', ndi.distance_transform_edt(feat))
put('edt_s', ndi.distance_transform_edt(feat, sampling=(2, 0.5)))
d, ind = ndi.distance_transform_edt(feat, return_indices=True)
put('edt_ind', ind + 1)
# fourier
fimg = np.fft.fft2(img)
put('fgauss_re', ndi.fourier_gaussian(fimg, 1.5).real)
put('funiform_re', ndi.fourier_uniform(fimg, 2).real)
put('fellipsoid_re', ndi.fourier_ellipsoid(fimg, (2, 3)).real)
put('fshift_im', ndi.fourier_shift(fimg, (1, 0.5)).imag)
# interpolate
x = np.array([0, 0.5, 1.2, 2.0, 2.9, 3.5, 5.0])
y = np.sin(x) + x
xq = np.array([-0.3, 0, 0.1, 0.7, 1.9, 2.5, 3.2, 4.4, 5.0, 5.6])
put('ix', x)
put('iy', y)
put('iq', xq)
for kind in ['linear', 'nearest', 'nearest-up', 'previous', 'next', 'slinear', 'quadratic', 'cubic']:
    put('interp1d/' + kind, si.interp1d(x, y, kind=kind, bounds_error=False, fill_value='extrapolate')(xq) if kind not in ('previous', 'next', 'nearest-up', 'nearest') else si.interp1d(x, y, kind=kind, bounds_error=False, fill_value=(-1, 9))(xq))
for bc in ['not-a-knot', 'natural', 'clamped']:
    put('cs/' + bc, si.CubicSpline(x, y, bc_type=bc)(xq))
    put('csd/' + bc, si.CubicSpline(x, y, bc_type=bc)(xq, 1))
yp = np.sin(2 * np.pi * x / 5.0)
put('iyp', yp)
put('cs/periodic', si.CubicSpline(x, yp, bc_type='periodic')(xq))
put('cs3', si.CubicSpline(x[:3], y[:3])(xq))
put('cs_anti', si.CubicSpline(x, y).antiderivative()(xq))
put('pchip', si.PchipInterpolator(x, y)(xq))
put('akima', si.Akima1DInterpolator(x, y)(xq))
for k in (0, 1, 2, 3, 5):
    put('mis/%d' % k, si.make_interp_spline(x, y, k=k)(xq))
t = [0, 0, 0, 0, 1.5, 3.0, 5, 5, 5, 5]
put('lsq_t', t)
put('lsq', si.make_lsq_spline(x, y, t, k=3)(xq))
put('ius', si.InterpolatedUnivariateSpline(x, y, k=2)(xq))
put('krogh', si.KroghInterpolator(x, y)(xq))
put('bary', si.BarycentricInterpolator(x, y)(xq))
g1, g2 = np.array([0, 1, 2.5, 4]), np.array([-1, 0, 1, 3, 3.5])
vals = np.outer(g1, g2) + g1[:, None] ** 2
pts = np.array([[0.5, -0.5], [3.9, 3.4], [2.5, 1.0], [0, -1], [1.7, 2.2]])
put('rg_vals', vals)
put('rg_pts', pts)
put('rgi_linear', si.RegularGridInterpolator((g1, g2), vals)(pts))
put('rgi_nearest', si.RegularGridInterpolator((g1, g2), vals, method='nearest')(pts))
P = np.array([[0, 0], [1, 0], [0, 1], [1, 1], [0.5, 0.4], [0.2, 0.8]])
dv = P[:, 0] ** 2 + np.sin(P[:, 1])
put('rbf_P', P)
put('rbf_d', dv)
put('rbf', si.RBFInterpolator(P, dv)(pts / 4))
put('nearestnd', si.NearestNDInterpolator(P, dv)(pts / 4))

# scattered data: random points (a unique Delaunay triangulation), queries
# inside and outside the hull
srng = np.random.default_rng(77)
sP = srng.random((25, 2))
sv = np.sin(3 * sP[:, 0]) + sP[:, 1] ** 2
sv2 = np.stack([sv, sP[:, 0] * sP[:, 1]], axis=1)
sQ = np.vstack([srng.random((10, 2)), [[1.5, 0.5], [-0.2, 0.3]]])
put('sc_P', sP)
put('sc_v', sv)
put('sc_v2', sv2)
put('sc_Q', sQ)
put('lnd', si.LinearNDInterpolator(sP, sv)(sQ))
put('lnd2', si.LinearNDInterpolator(sP, sv2, fill_value=-1.0)(sQ))
sPs = sP * np.array([1.0, 100.0])
put('lnd_rescale', si.LinearNDInterpolator(sPs, sv, rescale=True)(sQ * np.array([1.0, 100.0])))
s3P = srng.random((20, 3))
s3v = s3P[:, 0] + 2 * s3P[:, 1] * s3P[:, 2]
s3Q = np.vstack([srng.random((8, 3)) * 0.6 + 0.2, [[2.0, 0.5, 0.5]]])
put('sc3_P', s3P)
put('sc3_v', s3v)
put('sc3_Q', s3Q)
put('lnd3', si.LinearNDInterpolator(s3P, s3v)(s3Q))
ct = si.CloughTocher2DInterpolator(sP, sv)
put('ct', ct(sQ))
put('ct_grad', ct.grad.reshape(len(sP), 2))
put('ct2', si.CloughTocher2DInterpolator(sP, sv2)(sQ))
# NdPPoly (SciPy 1.10's) and NdBSpline (SciPy 1.12's; here the tensor
# product of 1.10's 1-D B-spline bases, which is its definition)
tx, ty = np.array([0.0, 0.5, 1.2, 2.0]), np.array([-1.0, 0.0, 1.5])
tc = srng.standard_normal((3, 2, 3, 2))
tQ = np.vstack([srng.random((6, 2)) * [2.0, 2.5] + [0.0, -1.0], [[2.5, 0.0], [0.3, -1.4]]])
tp = si.NdPPoly(tc, (tx, ty))
put('np_c', tc)
put('np_x', tx)
put('np_y', ty)
put('np_Q', tQ)
put('np_v', tp(tQ))
put('np_noext', tp(tQ, extrapolate=False))
put('np_d10', tp(tQ, nu=(1, 0)))
put('np_d12', tp(tQ, nu=(1, 2)))
tc3 = srng.standard_normal((3, 2, 3, 2, 2))
put('np_c3', tc3)
put('np_v3', si.NdPPoly(tc3, (tx, ty))(tQ))
kx, ky = 3, 2
bx = np.r_[[0.0] * 4, 0.4, 0.9, 1.3, [2.0] * 4]
by = np.r_[[-1.0] * 3, -0.2, 0.7, [1.5] * 3]
nx, ny = len(bx) - kx - 1, len(by) - ky - 1
bc = srng.standard_normal((nx, ny))
bQ = np.vstack([srng.random((6, 2)) * [2.0, 2.5] + [0.0, -1.0], [[2.3, 0.0]]])


def basis(t, k, n, x, nu=0):
    return np.array([(BS(t, np.eye(n)[j], k).derivative(nu) if nu else BS(t, np.eye(n)[j], k))(x) for j in range(n)])


from scipy.interpolate import BSpline as BS
Bx, By = basis(bx, kx, nx, bQ[:, 0]), basis(by, ky, ny, bQ[:, 1])
put('nb_tx', bx)
put('nb_ty', by)
put('nb_c', bc)
put('nb_Q', bQ)
put('nb_v', np.einsum('ij,iq,jq->q', bc, Bx, By))
Bx1, By2 = basis(bx, kx, nx, bQ[:, 0], 1), basis(by, ky, ny, bQ[:, 1], 2)
put('nb_d12', np.einsum('ij,iq,jq->q', bc, Bx1, By2))
bc2 = srng.standard_normal((nx, ny, 2))
put('nb_c2', bc2)
put('nb_v2', np.einsum('ijc,iq,jq->qc', bc2, Bx, By))
put('ct_rescale', si.CloughTocher2DInterpolator(sPs, sv, rescale=True)(sQ * np.array([1.0, 100.0])))

with open(__file__.replace('ref.py', 'ref.lua'), 'w') as f:
    f.write('-- written by ref.py (SciPy 1.10): do not edit\nlocal R = {}\n')
    f.write('\n'.join(out))
    f.write('\nreturn R\n')
