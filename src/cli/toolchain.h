/*
 * toolchain.h — the CUDA tools the CLI calls: compiling a .cu file to PTX
 * and reading `ptxas -v` on it (the tools found, run and their report read
 * by util/tool.h, shared with the CUDA runtime).  Shared by `analyze`,
 * `profile` and `predict`.
 */
#ifndef WS_CLI_TOOLCHAIN_H
#define WS_CLI_TOOLCHAIN_H

#include <stddef.h>
#include <stdio.h>

#include "util/tool.h"

void cli_print_file(FILE *to, const char *path);
int cli_has_suffix(const char *s, const char *suf);
/* Remove a temporary folder made by cli_compile_cu. */
void cli_rm_tmp(const char *dir);
/* Compile FILE.cu with nvcc -ptx -arch=ARCH into DIR/in.ptx (DIR a new
 * temporary folder) and, when ptxas is found, read `ptxas -v` into pl
 * (*have_ptxas = 1).  Returns 0, or EXIT_USAGE after printing why ("nvcc
 * not found ..." names what to do instead).  `cmd` names the subcommand in
 * messages. */
int cli_compile_cu(const char *cmd, const char *file, const char *arch, char *dir, size_t dirn,
                   ws_ptxas_list *pl, int *have_ptxas);
/* The oldest and newest sm that `nvcc --list-gpu-arch` names (75 and 121
 * for CUDA 13), or 0 and 0 when nvcc is not found or says nothing. */
void cli_nvcc_archs(int *lo, int *hi);

#endif
