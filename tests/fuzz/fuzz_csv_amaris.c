/*
 * fuzz_csv_amaris.c — libFuzzer entry point for the measured-times loader,
 * the Amarís et al. format (data/validation/README.md): fuzz_csv.h after
 * that header.
 */
#define FUZZ_CSV_HEADER                                                                         \
  "gpu_name,compute_version,max_clock_rate,num_of_cores,AppName,Kernel,Input.Size,Grid.X,"     \
  "Grid.Y,Grid.Z,Block.X,Block.Y,Block.Z,Registers.Per.Thread,Static.SMem,Dynamic.SMem,"       \
  "Duration\n"
#include "fuzz_csv.h"
