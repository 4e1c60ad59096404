// sm_80 warp intrinsics: __reduce_add_sync / __reduce_max_sync (redux.sync) and __match_any_sync (match.any)
extern "C" __global__ void redux_match(const unsigned *keys, unsigned *group_counts, unsigned *warp_sum,
                                       unsigned *warp_max, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned k = i < n ? keys[i] : 0xffffffffu;
    unsigned peers = __match_any_sync(0xffffffffu, k);
    unsigned s = __reduce_add_sync(0xffffffffu, k & 0xffu);
    unsigned m = __reduce_max_sync(0xffffffffu, k);
    int leader = __ffs(peers) - 1;
    if (i < n && (threadIdx.x & 31) == leader) atomicAdd(&group_counts[k & 63u], __popc(peers));
    if ((threadIdx.x & 31) == 0 && i < n) { warp_sum[i >> 5] = s; warp_max[i >> 5] = m; }
}
