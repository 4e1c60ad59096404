// listrank: list ranking by pointer jumping (Wyllie's algorithm), the
// irregular-access workload of Kothapalli et al. (HiPC'09). succ[i] is the
// successor of node i, -1 for the tail. rank[i] becomes the number of links
// from i to the tail. One block does all the work so that __syncthreads()
// can separate the rounds; each thread handles nodes t, t + blockDim.x, ...
// Each round reads one (rank, next) pair of buffers and writes the other:
//     r'[i] = r[i] + r[next[i]],  next'[i] = next[next[i]]   (next[i] != -1)
// ceil(log2 n) rounds suffice; an odd round count leaves the result in
// rank_tmp, which is then copied into rank.
// Launch with one block; rank, rank_tmp, next_a, next_b hold n ints each.
extern "C" __global__ void listrank(const int *succ, int *rank, int *rank_tmp,
                                    int *next_a, int *next_b, int n)
{
    if (blockIdx.x != 0)
        return;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        rank[i] = succ[i] < 0 ? 0 : 1;
        next_a[i] = succ[i];
    }
    __syncthreads();
    int rounds = 0;
    while ((1 << rounds) < n)
        ++rounds;
    int *r_in = rank, *r_out = rank_tmp, *n_in = next_a, *n_out = next_b;
    for (int k = 0; k < rounds; ++k) {
        for (int i = threadIdx.x; i < n; i += blockDim.x) {
            int nx = n_in[i];
            if (nx >= 0) {
                r_out[i] = r_in[i] + r_in[nx];
                n_out[i] = n_in[nx];
            } else {
                r_out[i] = r_in[i];
                n_out[i] = nx;
            }
        }
        __syncthreads();
        int *t = r_in; r_in = r_out; r_out = t;
        t = n_in; n_in = n_out; n_out = t;
    }
    if (r_in != rank)
        for (int i = threadIdx.x; i < n; i += blockDim.x)
            rank[i] = r_in[i];
}
