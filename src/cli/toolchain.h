/*
 * toolchain.h — the CUDA tools the CLI calls: compiling a .cu file to PTX
 * and running `ptxas -v` (the tools found and the report read by
 * util/tool.h, shared with the CUDA runtime).  Shared by `analyze`,
 * `profile` and `predict`.
 */
#ifndef WS_CLI_TOOLCHAIN_H
#define WS_CLI_TOOLCHAIN_H

#include <stddef.h>
#include <stdio.h>

#include "util/tool.h"

/* A file name as an argument of a tool the CLI starts: "./PATH" (in buf)
 * when PATH begins with '-', which the tool would read as an option, else
 * PATH itself; NULL when buf is too small.  Every file argument of nvcc
 * and ptxas goes through it. */
const char *cli_tool_file(char *buf, size_t n, const char *path);
/* Run argv with stdout and stderr into `log`; returns the exit status or -1. */
int cli_run_tool(char *const argv[], const char *log);
void cli_print_file(FILE *to, const char *path);
/* Read a `ptxas -v` log into l (ws_tool_ptxas_parse); nothing when the
 * log cannot be read. */
void cli_ptxas_parse_log(const char *path, ws_ptxas_list *l);
int cli_has_suffix(const char *s, const char *suf);
/* Remove a temporary folder made by cli_compile_cu / cli_ptxas_on_ptx. */
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
/* Run `ptxas -v -arch=ARCH` on a PTX file and read its report into pl.
 * Returns 1 when ptxas ran and succeeded, 0 otherwise (not found, failed). */
int cli_ptxas_on_ptx(const char *ptx_path, const char *arch, ws_ptxas_list *pl);

#endif
