// avgfilter: linear 9-pixel (3x3 box) averaging filter on a width x height
// greyscale float image; neighbours outside the image are clamped to the
// nearest edge pixel. Stands for Hong & Kim's "Linear" filter workload
// (nine loads per output, neighbouring threads share most of them).
extern "C" __global__ void avgfilter(const float *in, float *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float sum = 0.0f;
        for (int dy = -1; dy <= 1; ++dy) {
            int yy = min(max(y + dy, 0), height - 1);
            for (int dx = -1; dx <= 1; ++dx) {
                int xx = min(max(x + dx, 0), width - 1);
                sum += in[yy * width + xx];
            }
        }
        out[y * width + x] = sum / 9.0f;
    }
}
