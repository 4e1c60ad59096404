// harness.h — what the kernel suites of bench/gpu share (docs/measuring.md).
//
// A suite is a list of launches (`Launch`): a kernel's host stub, its grid,
// block and dynamic shared bytes, and its arguments written as a warpsight
// launch spec writes them (docs/launch-spec.md): buffers with an initialiser
// (zero, random, iota, constant) and scalars.  The harness builds every
// buffer exactly as the launch spec's initialiser does (the generator of
// src/emu/rng.h), so the spec it writes beside a measured row describes the
// very inputs that were timed; runs the launch once and compares its outputs
// with the suite's C reference; then times it cold (the L2 flushed before
// every launch) and warm (back to back) with CUDA events, and writes one CSV
// row per condition in warpsight's generic format (docs/validation.md).
//
// Invariants: a buffer argument's device allocation holds exactly `count`
// elements (so under `warpsight exec` an access past it is a fault, as it
// would be in `warpsight run`); rows are written only for launches whose
// check passed or was not run (too costly for the reference, see --check-ops).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gb {

// Element types of launch-spec buffers and scalars used by the suites.
enum Type { F32, F64, S32, U32 };
size_t type_size(Type t);
const char *type_name(Type t); // the launch spec's name: "f32", ...

// A buffer's initialiser (docs/launch-spec.md, "Initialisers").
struct Init {
  enum Kind { ZERO, RANDOM, IOTA, CONSTANT } kind = ZERO;
  uint64_t seed = 0; // RANDOM
  double a = 0;      // RANDOM: min; IOTA: start; CONSTANT: the value
  double b = 0;      // RANDOM: max; IOTA: step
};
Init zero();
Init rnd(uint64_t seed, double min, double max);
Init iota(double start, double step);
Init constant(double v);

// One kernel argument: a buffer (pointer parameter) or a scalar.
struct Arg {
  bool buffer = false; // true: a device buffer of `count` elements
  std::string name;    // the spec's "buffer" or "scalar" name
  Type type = F32;     // element type, or the scalar's type
  size_t count = 0;    // buffer: elements
  Init init;           // buffer: initial contents
  double value = 0;    // scalar: its value (integers exact below 2^53)
};
Arg buf(const char *name, Type t, size_t count, Init init);
Arg scalar(const char *name, Type t, double value);

struct Result;
// A suite's C reference: true when the launch's outputs are right; else
// false with the first difference in *why.
typedef bool (*CheckFn)(const Result &r, std::string *why);

// One launch of a suite.
struct Launch {
  std::string kernel;    // the kernel's name in its PTX (extern "C")
  const void *func = 0;  // its host stub
  std::string src;       // the kernel source's base name: its PTX is kernels/<src>.<arch>.ptx
  dim3 grid, block;      // as launched
  size_t dyn_shared = 0; // dynamic shared bytes per block
  std::vector<Arg> args; // in the kernel's parameter order
  long long size = 0;    // the problem size: the CSV's size column
  std::string label;     // names the launch spec: launches/<src>/<kernel>.<label>.json
  CheckFn check = 0;     // the C reference
  double ref_ops = 0;    // the reference's work, in inner-loop steps (see --check-ops)
};

// A launch's buffers before and after it ran, on the host, for its check.
struct Result {
  const Launch *launch; // the launch checked
  std::vector<std::vector<unsigned char>>
      before; // per argument: initial contents (empty for scalars)
  std::vector<std::vector<unsigned char>> after; // per argument: contents after the launch
  template <class T> const T *in(size_t i) const { return (const T *)before[i].data(); }
  template <class T> const T *out(size_t i) const { return (const T *)after[i].data(); }
  long long ival(size_t i) const { return (long long)launch->args[i].value; } // a scalar argument
  size_t count(size_t i) const { return launch->args[i].count; }
};

// Compare n values with a reference: |got - want| <= tol * max(1, |want|)
// (so tol is relative for large values and absolute near zero); on a
// difference, *why names the buffer, index and both values.
bool close_to(const char *what, const float *got, const double *want, size_t n, double tol,
              std::string *why);
bool close_to(const char *what, const double *got, const double *want, size_t n, double tol,
              std::string *why);
template <class T>
bool equal(const char *what, const T *got, const T *want, size_t n, std::string *why) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      *why = std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(got[i]) +
             ", reference " + std::to_string(want[i]);
      return false;
    }
  return true;
}

// c = a b for n x n row-major float matrices, in double (the suites' product
// references).
std::vector<double> matmul_ref(const float *a, const float *b, long long n);

// How much to measure.
enum Level { TINY, QUICK, FULL };
// pick(level, tiny, quick, full): a suite's list for the level (a copy, so
// that a range-for over it outlives the arguments).
template <class T> T pick(Level l, const T &tiny, const T &quick, const T &full) {
  return l == TINY ? tiny : l == QUICK ? quick : full;
}

// Median, minimum and maximum of a list of times.
struct Stats {
  double median = 0, min = 0, max = 0;
};
Stats stats(std::vector<double> v);

// Times reps launches of L (argument pointers argp), each between two CUDA
// events, all enqueued without a host synchronisation: cold, each after a
// cudaMemsetAsync of flush_bytes at flush; warm, after one untimed launch.
// Appends the seconds of each to *out.
cudaError_t time_launches(const Launch &L, void **argp, int reps, void *flush, size_t flush_bytes,
                          bool cold, std::vector<double> *out);

// mkdir -p; a whole file written at once.  False on an error (errno set).
bool mkdir_p(const std::string &path);
bool write_file(const std::string &path, const std::string &text);

// A launch's label from its size and block: "n4096-b256", "n512-b16x16".
std::string label(const char *size_name, long long size, dim3 block);

// The suite's entry point, called by its main(): parses the options (see
// usage in harness.cu), builds the suite's launches for the level, checks,
// times and writes them.  Returns the process exit status.
int bench_main(int argc, char **argv, const char *suite, std::vector<Launch> (*make)(Level));

} // namespace gb
