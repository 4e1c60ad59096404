/*
 * fuzz_csv_generic.c — libFuzzer entry point for the measured-times loader,
 * the generic format (docs/validation.md, "Your own kernels"): fuzz_csv.h
 * after that header.
 */
#define FUZZ_CSV_HEADER "kernel_file,kernel,launch,gpu,seconds,size,registers,shared_bytes\n"
#include "fuzz_csv.h"
