/*
 * launch_check.h — what the CLI checks about a launch spec against the
 * kernel before running it (issue 23): module variables the kernel reads
 * that the spec never sets.
 */
#ifndef WS_CLI_LAUNCH_CHECK_H
#define WS_CLI_LAUNCH_CHECK_H

#include "warpsight/emu.h"
#include "warpsight/ptx.h"

/* A warning in d for each `.const` (__constant__) or `.global`
 * (__device__) variable of m without a PTX initialiser that kernel k, or a
 * function it calls, reads -- loads or atomics naming it, or its address
 * taken -- and that spec's "variables" do not set: the kernel reads zeros
 * there, which is rarely what a program that fills it with
 * cudaMemcpyToSymbol meant.  Variables only stored to are not named. */
void cli_warn_unset_vars(const ws_ptx_module *m, const ws_ptx_function *k, const ws_launch_spec *spec,
                         ws_diag *d);

#endif
