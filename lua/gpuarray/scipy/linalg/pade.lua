--- The diagonal Pade approximants of e^x behind expm (Higham 2005), one
-- table for the GPU expm (scipy/linalg/matfuncs.lua) and the host one of
-- the LTI code (scipy/signal/host/mat.lua). Pure data.
return {
  -- coefficients[m] = b_0..b_m, b_j = (2m-j)! m! / ((2m)! j! (m-j)!)
  -- scaled to b_m = 1 (a spec recomputes them)
  coefficients = {
    [3] = { 120, 60, 12, 1 },
    [5] = { 30240, 15120, 3360, 420, 30, 1 },
    [7] = { 17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1 },
    [9] = { 17643225600, 8821612800, 2075673600, 302702400, 30270240, 2162160, 110880, 3960, 90, 1 },
    [13] = { 64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000,
             10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1 },
  },
  -- {m, the largest 1-norm degree m is accurate for}, ascending (Table 2.3
  -- for double precision, 2.2 for single)
  theta = {
    double = { { 3, 1.495585217958292e-2 }, { 5, 2.539398330063230e-1 }, { 7, 9.504178996162932e-1 },
               { 9, 2.097847961257068 }, { 13, 5.371920351148152 } },
    single = { { 3, 4.258730016922831e-1 }, { 5, 1.880152677804762 }, { 7, 3.925724783138660 } },
  },
}
