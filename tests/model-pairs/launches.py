"""launches.py — the launch specs of the realistic-kernel corpus
(pairs.cu, pregenerated pairs.sm_75.ptx), shared by tests/cli/model_pairs.sh
and tests/cli/advise_corpus.sh: `launches` maps a launch's name to its spec
(docs/launch-spec.md).  Standard library only."""

N = 1 << 18

def buf(name, typ, count, init):
    return {"buffer": name, "type": typ, "count": count, "init": init}
def rnd(seed, lo, hi):
    return {"random": {"seed": seed, "min": lo, "max": hi}}
def sc(name, typ, v):
    return {"scalar": name, "type": typ, "value": v}
def f32(name, count=N, seed=1):
    return buf(name, "f32", count, rnd(seed, 0, 1))
def out(name, count=N, typ="f32"):
    return buf(name, typ, count, "zero")
def lin(kernel, args, n=N, threads=256):
    return {"kernel": kernel, "grid": [(n + threads - 1) // threads, 1, 1],
            "block": [threads, 1, 1], "args": args}

ROWS, RLEN, T = 1024, 256, 512
spmv_args = [buf("rowptr", "s32", ROWS + 1, {"iota": {"start": 0, "step": RLEN}}),
             buf("col", "s32", ROWS * RLEN, rnd(3, 0, ROWS - 1)),
             f32("val", ROWS * RLEN, 4), f32("x", ROWS, 5), out("y", ROWS), sc("rows", "s32", ROWS)]
tr = lambda k: {"kernel": k, "grid": [T // 32, T // 32, 1], "block": [32, 8, 1],
                "args": [f32("in", T * T), out("out", T * T), sc("n", "s32", T)]}
MM = 128
mm = lambda k: {"kernel": k, "grid": [MM // 16, MM // 16, 1], "block": [16, 16, 1],
                "args": [f32("a", MM * MM), f32("b", MM * MM, 2), out("c", MM * MM), sc("n", "s32", MM)]}
hist = lambda init, k="histogram": {"kernel": k, "grid": [64, 1, 1], "block": [256, 1, 1],
                     "args": [buf("in", "u32", N, init), out("bins", 256, "u32"), sc("n", "s32", N)]}
launches = {
    "copy_coalesced": lin("copy_coalesced", [f32("in"), out("out"), sc("n", "s32", N)]),
    "copy_uncoalesced": lin("copy_uncoalesced", [f32("in"), out("out"), sc("n", "s32", N)]),
    "vector_add": lin("vector_add", [f32("a"), f32("b", seed=2), out("c"), sc("n", "s32", N)]),
    "saxpy": lin("saxpy", [sc("a", "f32", 2.5), f32("x"), f32("y", seed=2), sc("n", "s32", N)]),
    "gather": lin("gather", [f32("in"), buf("idx", "s32", N, rnd(7, 0, N - 1)), out("out"), sc("n", "s32", N)]),
    "stencil_1d": lin("stencil_1d", [f32("in"), out("out"), sc("n", "s32", N)]),
    "stencil_2d": {"kernel": "stencil_2d", "grid": [16, 64, 1], "block": [32, 8, 1],
                   "args": [f32("in", T * T), out("out", T * T), sc("w", "s32", T), sc("h", "s32", T)]},
    "spmv_scalar": lin("spmv_scalar", spmv_args, ROWS),
    "spmv_vector": lin("spmv_vector", spmv_args, ROWS * 32),
    "transpose_naive": tr("transpose_naive"),
    "transpose_tiled": tr("transpose_tiled"),
    "transpose_padded": tr("transpose_padded"),
    "histogram_uniform": hist(rnd(8, 0, 255)),
    "histogram_skewed": hist({"constant": 7}),
    "reduce_tree": lin("reduce_tree", [f32("in"), out("out", N // 256), sc("n", "s32", N)]),
    "reduce_shuffle": lin("reduce_shuffle", [f32("in"), out("out", N // 256), sc("n", "s32", N)]),
    "atomic_per_block": lin("atomic_per_block", [f32("in"), out("sum", 1), sc("n", "s32", N)]),
    "atomic_per_element": lin("atomic_per_element", [f32("in"), out("sum", 1), sc("n", "s32", N)]),
    "matmul_naive": mm("matmul_naive"),
    "matmul_tiled": mm("matmul_tiled"),
    "sfu_heavy": lin("sfu_heavy", [f32("in"), out("out"), sc("n", "s32", N)]),
    "fp64_poly": lin("fp64_poly", [buf("in", "f64", N // 4, rnd(9, 0, 1)), out("out", N // 4, "f64"),
                                   sc("n", "s32", N // 4)], N // 4),
    "divergent": lin("divergent", [f32("in"), out("out"), sc("n", "s32", N)]),
}

# Short rows (4 nonzeros): a warp per row leaves 28 of 32 lanes idle.
SROWS, SLEN = 8192, 4
spmv_short = [buf("rowptr", "s32", SROWS + 1, {"iota": {"start": 0, "step": SLEN}}),
              buf("col", "s32", SROWS * SLEN, rnd(3, 0, SROWS - 1)),
              f32("val", SROWS * SLEN, 4), f32("x", SROWS, 5), out("y", SROWS), sc("rows", "s32", SROWS)]
dot = lambda k: lin(k, [f32("a"), f32("b", seed=2), out("sum", 1), sc("n", "s32", N)])
launches.update({
    "spmv_scalar_short": lin("spmv_scalar", spmv_short, SROWS),
    "spmv_vector_short": lin("spmv_vector", spmv_short, SROWS * 32),
    "histogram_global_uniform": hist(rnd(8, 0, 255), "histogram_global"),
    "histogram_global_skewed": hist({"constant": 7}, "histogram_global"),
    "dot_atomic_naive": dot("dot_atomic_naive"),
    "dot_atomic_warp": dot("dot_atomic_warp"),
    "dot_atomic_block": dot("dot_atomic_block"),
})
