/*
 * kernel_name.h — kernel names in the CLI, in one place: C++ kernels are
 * shown demangled (`reduce<float, 256u>`: ws_report_kernel_label), and --kernel or a launch spec's
 * "kernel" may give the mangled or the demangled name (util/demangle.h).
 */
#ifndef WS_CLI_KERNEL_NAME_H
#define WS_CLI_KERNEL_NAME_H

#include <stddef.h>

#include "warpsight/ptx.h"

/* Do `a` and `b` name the same kernel (either may be mangled)? */
int cli_kernel_same(const char *a, const char *b);
/* The function of m that `query` names: the exact name first, else the one
 * whose demangled name matches; NULL when none (or, demangled, several). */
const ws_ptx_function *cli_kernel_find(const ws_ptx_module *m, const char *query);

/* The kernel a command runs: --kernel `kernel` when given (it selects from
 * the module, whatever the spec's "kernel" says; the spec's arguments must
 * then fit it), else the spec's.  spec->kernel becomes the PTX's own
 * (mangled) name.  NULL, with an error in d listing the module's kernels,
 * when the module has no such kernel; WS_ENOMEM is reported as such. */
struct ws_launch_spec;
const ws_ptx_function *cli_kernel_select(struct ws_launch_spec *spec, const ws_ptx_module *m,
                                         const char *kernel, ws_diag *d);

#endif
