"""Inputs of the zoo's BFS specs that no launch-spec initialiser can say: a random graph
(CSR, 1-6 edges per node) and a frontier of ~1 node in 16.  Deterministic; written to argv[1]."""
import random, struct, sys, os
out = sys.argv[1]
n, epn = 1 << 20, 6
rng = random.Random(20)
nodes, edges = [], []
for i in range(n):
    k = rng.randint(1, epn)
    nodes += [i * epn, k]
edges = [rng.randrange(n) for _ in range(n * epn)]
mask = bytes(1 if rng.random() < 1 / 16 else 0 for _ in range(n))
visited = bytes(m | (1 if rng.random() < 0.25 else 0) for m in mask)
def w(name, fmt, vals):
    with open(os.path.join(out, name), "wb") as f:
        f.write(struct.pack("<%d%s" % (len(vals), fmt), *vals))
w("bfs_nodes.bin", "i", nodes)
w("bfs_edges.bin", "i", edges)
open(os.path.join(out, "bfs_mask.bin"), "wb").write(mask)
open(os.path.join(out, "bfs_visited.bin"), "wb").write(visited)
