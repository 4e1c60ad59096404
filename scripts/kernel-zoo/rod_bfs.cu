// Rodinia style BFS: one level of frontier expansion over a CSR graph (two kernels)
struct Node { int start; int nedges; };
extern "C" __global__ void bfs_expand(const Node *nodes, const int *edges, bool *mask, bool *updating,
                                      const bool *visited, int *cost, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && mask[tid]) {
        mask[tid] = false;
        for (int i = nodes[tid].start; i < nodes[tid].start + nodes[tid].nedges; i++) {
            int id = edges[i];
            if (!visited[id]) {
                cost[id] = cost[tid] + 1;
                updating[id] = true;
            }
        }
    }
}
extern "C" __global__ void bfs_update(bool *mask, bool *updating, bool *visited, int *over, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && updating[tid]) {
        mask[tid] = true;
        visited[tid] = true;
        *over = 1;
        updating[tid] = false;
    }
}
