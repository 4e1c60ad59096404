// Rodinia style hotspot: thermal stencil with a shared tile and clamped borders, one step per launch
#define BS 16
extern "C" __global__ void hotspot(const float *power, const float *temp_src, float *temp_dst,
                                   int cols, int rows, float cap, float rx, float ry, float rz, float step)
{
    __shared__ float t[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BS + tx, y = blockIdx.y * BS + ty;
    int cx = min(x, cols - 1), cy = min(y, rows - 1);
    t[ty][tx] = temp_src[cy * cols + cx];
    __syncthreads();
    if (x < cols && y < rows) {
        float c = t[ty][tx];
        float n = ty > 0 ? t[ty - 1][tx] : temp_src[max(cy - 1, 0) * cols + cx];
        float s = ty < BS - 1 ? t[ty + 1][tx] : temp_src[min(cy + 1, rows - 1) * cols + cx];
        float w = tx > 0 ? t[ty][tx - 1] : temp_src[cy * cols + max(cx - 1, 0)];
        float e = tx < BS - 1 ? t[ty][tx + 1] : temp_src[cy * cols + min(cx + 1, cols - 1)];
        temp_dst[y * cols + x] = c + (step / cap) * (power[y * cols + x] + (s + n - 2.0f * c) * ry
                                                     + (e + w - 2.0f * c) * rx + (80.0f - c) * rz);
    }
}
