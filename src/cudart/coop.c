/*
 * coop.c — cooperative launches: cudaLaunchCooperativeKernel and the
 * cooperative attribute of cudaLaunchKernelExC (docs/exec.md,
 * "Cooperative launches").  As on a GPU, the grid must fit on the device
 * at once: no more blocks than the occupancy of the kernel's block allows
 * on every SM (cudaErrorCooperativeLaunchTooLarge otherwise).  The launch
 * then runs in the emulator with every block resident (src/emu/coop.c), so
 * that cooperative groups' grid.sync() completes.
 */
#include "cudart/exports_device.h"
#include "cudart/rt.h"

/* The checks of a cooperative launch, then the launch itself. */
static cudaError_t coop_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                               cudaStream_t stream) {
  ws_rt *rt = rt_enter();
  cudaError_t e = rt_sticky(rt);
  rt_func *f = e ? NULL : rt_find_func(rt, func);
  if (!e && !f) e = cudaErrorInvalidDeviceFunction;
  if (!e) e = rt_check_config(rt, f, grid, block, shared);
  ws_prof_resources r;
  if (!e) e = rt_func_resources(rt, f, &r, NULL);
  if (!e) {
    uint64_t blocks = (uint64_t)grid.x * grid.y * grid.z;
    uint64_t per_sm = (uint64_t)rt_active_blocks(rt, &r, (int)(block.x * block.y * block.z), shared);
    if (blocks > per_sm * (uint64_t)rt->gpu->sms) e = cudaErrorCooperativeLaunchTooLarge;
  }
  if (!e) e = rt_launch_call(rt, func, grid, block, args, shared, stream, 1);
  return rt_done(e);
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream) {
  return coop_launch(func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                             size_t sharedMem, cudaStream_t stream) {
  return coop_launch(func, gridDim, blockDim, args, sharedMem, stream);
}

/* cudaLaunchKernelExC's cooperative attribute (launch.c) */
cudaError_t rt_launch_cooperative(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                  cudaStream_t stream) {
  return coop_launch(func, grid, block, args, shared, stream);
}
