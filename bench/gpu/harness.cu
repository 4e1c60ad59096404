// harness.cu — checks and times the launches of a kernel suite and writes
// them as warpsight measured data (harness.h; docs/measuring.md).
//
// Per launch: allocate every buffer with exactly its element count, fill it
// as the launch spec's initialiser says (from a pool per initialiser: the
// generator is prefix-stable, so one pool of the largest count serves every
// smaller buffer), run it once and compare with the C reference, then time
// it with CUDA events:
//   cold: before each timed launch, cudaMemsetAsync over a buffer twice the
//         L2's size (what NVBench does with one L2's worth), so the launch
//         finds none of its data in the L2;
//   warm: one untimed launch, then the timed ones back to back.
// Every launch of a condition is enqueued without a host synchronisation
// between them; the CSV's seconds is the median, seconds_min/seconds_max the
// spread.
#include "harness.h"

#include "emu/rng.h"

#include <errno.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>

namespace gb {

size_t type_size(Type t) { return t == F64 ? 8 : 4; }
const char *type_name(Type t) {
  static const char *const names[] = {"f32", "f64", "s32", "u32"};
  return names[t];
}
static bool is_int(Type t) { return t == S32 || t == U32; }

Init zero() { return Init(); }
Init rnd(uint64_t seed, double min, double max) {
  Init i;
  i.kind = Init::RANDOM, i.seed = seed, i.a = min, i.b = max;
  return i;
}
Init iota(double start, double step) {
  Init i;
  i.kind = Init::IOTA, i.a = start, i.b = step;
  return i;
}
Init constant(double v) {
  Init i;
  i.kind = Init::CONSTANT, i.a = v;
  return i;
}
Arg buf(const char *name, Type t, size_t count, Init init) {
  Arg a;
  a.buffer = true, a.name = name, a.type = t, a.count = count, a.init = init;
  return a;
}
Arg scalar(const char *name, Type t, double value) {
  Arg a;
  a.name = name, a.type = t, a.value = value;
  return a;
}

std::string label(const char *size_name, long long size, dim3 block) {
  std::string s = std::string(size_name) + std::to_string(size) + "-b" + std::to_string(block.x);
  if (block.y > 1 || block.z > 1) s += "x" + std::to_string(block.y);
  if (block.z > 1) s += "x" + std::to_string(block.z);
  return s;
}

template <class T>
static bool close_t(const char *what, const T *got, const double *want, size_t n, double tol,
                    std::string *why) {
  for (size_t i = 0; i < n; i++) {
    double d = std::fabs((double)got[i] - want[i]), s = std::fmax(1.0, std::fabs(want[i]));
    if (!(d <= tol * s)) {
      char b[256];
      snprintf(b, sizeof b, "%s[%zu] = %.9g, reference %.9g (tolerance %g)", what, i,
               (double)got[i], want[i], tol);
      *why = b;
      return false;
    }
  }
  return true;
}
bool close_to(const char *what, const float *got, const double *want, size_t n, double tol,
              std::string *why) {
  return close_t(what, got, want, n, tol, why);
}
bool close_to(const char *what, const double *got, const double *want, size_t n, double tol,
              std::string *why) {
  return close_t(what, got, want, n, tol, why);
}

std::vector<double> matmul_ref(const float *a, const float *b, long long n) {
  std::vector<double> c((size_t)(n * n), 0.0);
  for (long long i = 0; i < n; i++)
    for (long long k = 0; k < n; k++) {
      double x = a[i * n + k];
      for (long long j = 0; j < n; j++)
        c[i * n + j] += x * b[k * n + j];
    }
  return c;
}

// ---- initialisers, as the launch spec defines them (docs/launch-spec.md) ----

// Element i = 0 .. n-1 of an initialiser, written to out as type t.
static void generate(void *out, Type t, const Init &in, size_t n) {
  uint64_t st = in.seed;
  for (size_t i = 0; i < n; i++) {
    double v = 0;
    int64_t iv = 0;
    switch (in.kind) {
    case Init::ZERO:
      break;
    case Init::CONSTANT:
      v = in.a, iv = (int64_t)in.a;
      break;
    case Init::IOTA:
      v = in.a + (double)i * in.b;
      iv = (int64_t)((uint64_t)(int64_t)in.a + (uint64_t)i * (uint64_t)(int64_t)in.b);
      break;
    case Init::RANDOM:
      if (is_int(t))
        iv = ws_rng_int(&st, (int64_t)in.a, (int64_t)in.b);
      else
        v = ws_rng_real(&st, in.a, in.b);
      break;
    }
    switch (t) {
    case F32:
      ((float *)out)[i] = (float)v;
      break; // round to nearest even
    case F64:
      ((double *)out)[i] = v;
      break;
    case S32:
      ((int32_t *)out)[i] = (int32_t)(uint32_t)iv;
      break;
    case U32:
      ((uint32_t *)out)[i] = (uint32_t)iv;
      break;
    }
  }
}

// ---- options ----

struct Options {
  std::string out; // the output folder
  Level level = FULL;
  std::string gpu;  // the CSV's gpu column
  std::string arch; // sm_XX: the PTX files' suffix
  int reps = 0;     // timed launches per condition (0: the level's)
  size_t flush = 0; // bytes written before each cold launch (0: 2 x L2)
  double check_ops =
      1 << 23; // largest reference work checked (vectors up to 2^22, products up to 128^3)
  std::vector<std::string> only; // kernels to run (empty: all)
  std::string driver;            // the CSV's driver column: the driver release
  std::string date;              // the CSV's date column: when measured
  bool list = false;             // --list: print the launches, touch no device
  bool save = false;             // --save-outputs: write each launch's output buffers
  double stop_after = 0;         // --stop-after S: start no launch after S seconds (0: no limit)
};

static void usage(const char *suite) {
  fprintf(stderr,
          "usage: %s --out DIR --arch sm_XX [--level tiny|quick|full] [--gpu NAME]\n"
          "          [--reps N] [--flush-bytes N] [--check-ops N] [--only K,K]\n"
          "          [--driver RELEASE] [--date DATE] [--stop-after SECONDS] [--save-outputs]\n"
          "          [--list]\n"
          "Checks and times the %s suite's kernels (bench/gpu, docs/measuring.md);\n"
          "writes DIR/parts/%s.csv and DIR/launches/SOURCE/KERNEL.LABEL.json.\n",
          suite, suite, suite);
}

static bool parse_count(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || *end || errno || !(v >= 0) || v > 1e18) return false;
  *out = v;
  return true;
}

static int parse_options(Options *o, int argc, char **argv, const char *suite) {
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    double x;
    if (a == "-h" || a == "--help") {
      usage(suite);
      exit(0);
    }
    if (a == "--list" || a == "--save-outputs") {
      (a == "--list" ? o->list : o->save) = true;
      continue;
    }
    if (!v) {
      fprintf(stderr, "%s: %s needs a value (or is unknown)\n", suite, a.c_str());
      return 2;
    }
    i++;
    if (a == "--out")
      o->out = v;
    else if (a == "--gpu")
      o->gpu = v;
    else if (a == "--driver")
      o->driver = v;
    else if (a == "--date")
      o->date = v;
    else if (a == "--arch")
      o->arch = v;
    else if (a == "--level") {
      std::string l = v;
      if (l == "tiny")
        o->level = TINY;
      else if (l == "quick")
        o->level = QUICK;
      else if (l == "full")
        o->level = FULL;
      else {
        fprintf(stderr, "%s: --level expects tiny, quick or full, got '%s'\n", suite, v);
        return 2;
      }
    } else if (a == "--reps" && parse_count(v, &x) && x >= 1 && x <= 1000)
      o->reps = (int)x;
    else if (a == "--flush-bytes" && parse_count(v, &x) && x >= 1)
      o->flush = (size_t)x;
    else if (a == "--check-ops" && parse_count(v, &x))
      o->check_ops = x;
    else if (a == "--stop-after" && parse_count(v, &x) && x > 0)
      o->stop_after = x;
    else if (a == "--only") {
      std::string s = v;
      for (size_t p = 0, q; p <= s.size(); p = q + 1) {
        q = s.find(',', p);
        if (q == std::string::npos) q = s.size();
        if (q > p) o->only.push_back(s.substr(p, q - p));
      }
    } else {
      fprintf(stderr, "%s: bad option or value: %s %s\n", suite, a.c_str(), v);
      usage(suite);
      return 2;
    }
  }
  if (!o->list && (o->out.empty() || o->arch.empty())) {
    usage(suite);
    return 2;
  }
  return 0;
}

// ---- files ----

bool mkdir_p(const std::string &path) {
  for (size_t p = 1; p <= path.size(); p++)
    if (p == path.size() || path[p] == '/') {
      std::string d = path.substr(0, p);
      if (mkdir(d.c_str(), 0777) && errno != EEXIST) return false;
    }
  return true;
}

static std::string num(double v, bool integer) {
  char b[64];
  if (integer)
    snprintf(b, sizeof b, "%lld", (long long)v);
  else
    snprintf(b, sizeof b, "%.17g", v);
  return b;
}

// The launch spec of L (docs/launch-spec.md).
static std::string spec_json(const Launch &L) {
  std::string s = "{\"kernel\": \"" + L.kernel + "\", \"grid\": [" + std::to_string(L.grid.x) +
                  ", " + std::to_string(L.grid.y) + ", " + std::to_string(L.grid.z) +
                  "], \"block\": [" + std::to_string(L.block.x) + ", " + std::to_string(L.block.y) +
                  ", " + std::to_string(L.block.z) +
                  "], \"dynamic_shared_bytes\": " + std::to_string(L.dyn_shared) +
                  ",\n \"args\": [";
  for (size_t i = 0; i < L.args.size(); i++) {
    const Arg &a = L.args[i];
    bool in = is_int(a.type);
    s += i ? ",\n          " : "";
    if (!a.buffer) {
      s += "{\"scalar\": \"" + a.name + "\", \"type\": \"" + type_name(a.type) +
           "\", \"value\": " + num(a.value, in) + "}";
      continue;
    }
    s += "{\"buffer\": \"" + a.name + "\", \"type\": \"" + type_name(a.type) +
         "\", \"count\": " + std::to_string(a.count) + ", ";
    if (a.init.kind == Init::ZERO) s += "\"output\": \"" + a.name + ".bin\", "; // see check_outputs
    s += "\"init\": ";
    const Init &n = a.init;
    switch (n.kind) {
    case Init::ZERO:
      s += "\"zero\"";
      break;
    case Init::CONSTANT:
      s += "{\"constant\": " + num(n.a, in) + "}";
      break;
    case Init::IOTA:
      s += "{\"iota\": {\"start\": " + num(n.a, in) + ", \"step\": " + num(n.b, in) + "}}";
      break;
    case Init::RANDOM:
      s += "{\"random\": {\"seed\": " + std::to_string(n.seed) + ", \"min\": " + num(n.a, in) +
           ", \"max\": " + num(n.b, in) + "}}";
      break;
    }
    s += "}";
  }
  return s + "]}\n";
}

bool write_file(const std::string &path, const std::string &text) {
  FILE *f = fopen(path.c_str(), "w");
  if (!f) return false;
  bool ok = fwrite(text.data(), 1, text.size(), f) == text.size();
  return fclose(f) == 0 && ok;
}

// ---- device state ----

struct Pool {
  void *dev = 0;
  size_t count = 0;
};

struct Bench {
  Options opt;
  const char *suite;
  cudaDeviceProp prop;
  std::map<std::tuple<int, int, uint64_t, double, double>, Pool> pools; // by type and initialiser
  void *flush = 0;
  size_t flush_bytes = 0;
  int reps = 0;
  FILE *csv = 0;
  std::string device; // the CSV's device column: the board's name, as a CSV cell
  int rows = 0, failed = 0, skipped = 0, checked = 0;
  bool first = false; // the launch is its kernel's first (always checked)
};

// A CUDA error that leaves the context unusable ends the suite.
static bool fatal(cudaError_t e) {
  return e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure ||
         e == cudaErrorMisalignedAddress || e == cudaErrorAssert || e == cudaErrorLaunchTimeout ||
         e == cudaErrorIllegalInstruction || e == cudaErrorHardwareStackError ||
         e == cudaErrorInvalidPc;
}

// A device buffer holding at least n elements of the initialiser.
static void *pool_get(Bench *B, Type t, const Init &in, size_t n, cudaError_t *err) {
  Pool &p = B->pools[std::make_tuple((int)t, (int)in.kind, in.seed, in.a, in.b)];
  *err = cudaSuccess;
  if (p.count >= n) return p.dev;
  if (p.dev) cudaFree(p.dev);
  p.dev = 0, p.count = 0;
  std::vector<unsigned char> host(n * type_size(t));
  generate(host.data(), t, in, n);
  if ((*err = cudaMalloc(&p.dev, host.size())) != cudaSuccess) return p.dev = 0;
  if ((*err = cudaMemcpy(p.dev, host.data(), host.size(), cudaMemcpyHostToDevice)) != cudaSuccess)
    return 0;
  p.count = n;
  return p.dev;
}

Stats stats(std::vector<double> v) {
  Stats s;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.min = v.front(), s.max = v.back();
  return s;
}

// The kernel's argument values, kept where cudaLaunchKernel's pointers point.
union Slot {
  void *p;
  int32_t i;
  uint32_t u;
  float f;
  double d;
};

cudaError_t time_launches(const Launch &L, void **argp, int reps, void *flush, size_t flush_bytes,
                          bool cold, std::vector<double> *out) {
  std::vector<cudaEvent_t> ev(2 * reps);
  cudaError_t e = cudaSuccess;
  for (auto &x : ev)
    if (!e) e = cudaEventCreate(&x);
  if (!e && !cold) e = cudaLaunchKernel(L.func, L.grid, L.block, argp, L.dyn_shared, 0);
  for (int r = 0; r < reps && !e; r++) {
    if (cold) e = cudaMemsetAsync(flush, r & 0xff, flush_bytes, 0);
    if (!e) e = cudaEventRecord(ev[2 * r], 0);
    if (!e) e = cudaLaunchKernel(L.func, L.grid, L.block, argp, L.dyn_shared, 0);
    if (!e) e = cudaEventRecord(ev[2 * r + 1], 0);
  }
  if (!e) e = cudaDeviceSynchronize();
  for (int r = 0; r < reps && !e; r++) {
    float ms = 0;
    e = cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1]);
    out->push_back(ms * 1e-3);
  }
  for (auto &x : ev)
    if (x) cudaEventDestroy(x);
  return e;
}

static std::string us(double s) {
  char b[32];
  snprintf(b, sizeof b, s < 1e-3 ? "%.2f us" : "%.4g ms", s < 1e-3 ? s * 1e6 : s * 1e3);
  return b;
}

static void csv_row(Bench *B, const Launch &L, const cudaFuncAttributes &fa, bool cold,
                    const Stats &s) {
  // Registers above 255 only come from a runtime that counts PTX virtual
  // registers (warpsight exec): the column is then left empty, as unknown.
  std::string regs = fa.numRegs > 0 && fa.numRegs <= 255 ? std::to_string(fa.numRegs) : "";
  fprintf(
      B->csv,
      "kernels/%s.%s.ptx,%s,launches/%s/%s.%s.json,%s,%.6e,%lld,%s,%zu,%s,%.6e,%.6e,%d,%s,%s,%s\n",
      L.src.c_str(), B->opt.arch.c_str(), L.kernel.c_str(), L.src.c_str(), L.kernel.c_str(),
      L.label.c_str(), B->opt.gpu.c_str(), s.median, L.size, regs.c_str(),
      fa.sharedSizeBytes + L.dyn_shared, cold ? "cold" : "warm", s.min, s.max, B->reps,
      B->device.c_str(), B->opt.driver.c_str(), B->opt.date.c_str());
  B->rows++;
}

// Allocates L's buffers with exactly their counts and fills them; *slot
// holds the argument values, *argp points at them, *owned lists the
// allocations to free.
static cudaError_t setup(Bench *B, const Launch &L, std::vector<Slot> *slot,
                         std::vector<void *> *argp, std::vector<void *> *owned) {
  size_t na = L.args.size();
  slot->assign(na, Slot());
  argp->assign(na, NULL);
  for (size_t i = 0; i < na; i++) {
    const Arg &a = L.args[i];
    Slot &s = (*slot)[i];
    (*argp)[i] = &s;
    if (!a.buffer) {
      switch (a.type) {
      case F32:
        s.f = (float)a.value;
        break;
      case F64:
        s.d = a.value;
        break;
      case S32:
        s.i = (int32_t)(int64_t)a.value;
        break;
      case U32:
        s.u = (uint32_t)(int64_t)a.value;
        break;
      }
      continue;
    }
    size_t bytes = a.count * type_size(a.type);
    cudaError_t e = cudaMalloc(&s.p, bytes);
    if (e) return e;
    owned->push_back(s.p);
    if (a.init.kind == Init::ZERO) {
      e = cudaMemset(s.p, 0, bytes);
    } else {
      void *src = pool_get(B, a.type, a.init, a.count, &e);
      if (!e) e = cudaMemcpy(s.p, src, bytes, cudaMemcpyDeviceToDevice);
    }
    if (e) return e;
  }
  return cudaSuccess;
}

// After L's first launch: compares its buffers with the C reference (when
// its cost is within --check-ops, or L is its kernel's first launch) and, with --save-outputs,
// writes its output buffers (the zero-initialised ones) where `warpsight run` of the launch spec
// would: outputs/SRC/KERNEL.LABEL/NAME.bin.  *verdict says what was done; *ok is false when the
// reference differs.
static cudaError_t check_outputs(Bench *B, const Launch &L, const std::vector<Slot> &slot, bool *ok,
                                 std::string *verdict) {
  bool checking = L.check && (L.ref_ops <= B->opt.check_ops || B->first);
  *ok = true;
  *verdict = "not checked (reference too costly)";
  if (!checking && !B->opt.save) return cudaSuccess;
  Result r;
  r.launch = &L;
  r.before.resize(L.args.size()), r.after.resize(L.args.size());
  std::string dir = B->opt.out + "/outputs/" + L.src + "/" + L.kernel + "." + L.label;
  for (size_t i = 0; i < L.args.size(); i++) {
    const Arg &a = L.args[i];
    if (!a.buffer) continue;
    r.after[i].resize(a.count * type_size(a.type));
    cudaError_t e =
        cudaMemcpy(r.after[i].data(), slot[i].p, r.after[i].size(), cudaMemcpyDeviceToHost);
    if (e) return e;
    if (checking) {
      r.before[i].resize(r.after[i].size());
      generate(r.before[i].data(), a.type, a.init, a.count);
    }
    if (B->opt.save && a.init.kind == Init::ZERO &&
        !(mkdir_p(dir) &&
          write_file(dir + "/" + a.name + ".bin",
                     std::string((const char *)r.after[i].data(), r.after[i].size())))) {
      *ok = false;
      *verdict = "FAIL cannot write " + dir + "/" + a.name + ".bin";
      return cudaSuccess;
    }
  }
  if (checking) {
    std::string why;
    *ok = L.check(r, &why);
    *verdict = *ok ? "PASS" : "FAIL " + why;
    B->checked++;
  }
  return cudaSuccess;
}

// Checks and times one launch.  Returns a CUDA error that ends the suite.
static cudaError_t run_launch(Bench *B, const Launch &L) {
  std::vector<Slot> slot;
  std::vector<void *> argp, owned;
  cudaError_t e = setup(B, L, &slot, &argp, &owned);
  std::string name = L.kernel + " " + L.label;
  if (e == cudaErrorMemoryAllocation) {
    printf("  %-44s SKIP: %s (out of device memory for its buffers)\n", name.c_str(),
           cudaGetErrorName(e));
    cudaGetLastError();
    B->skipped++;
    for (void *p : owned)
      cudaFree(p);
    return cudaSuccess;
  }
  // The first launch: the reference check, and lazy module loading out of
  // the timed ones.
  if (!e) e = cudaLaunchKernel(L.func, L.grid, L.block, argp.data(), L.dyn_shared, 0);
  if (!e) e = cudaDeviceSynchronize();
  std::string verdict;
  bool ok = true;
  if (!e) e = check_outputs(B, L, slot, &ok, &verdict);
  cudaFuncAttributes fa;
  memset(&fa, 0, sizeof fa);
  std::vector<double> cold, warm;
  if (!e) e = cudaFuncGetAttributes(&fa, L.func);
  if (!e && ok) e = time_launches(L, argp.data(), B->reps, B->flush, B->flush_bytes, true, &cold);
  if (!e && ok) e = time_launches(L, argp.data(), B->reps, B->flush, B->flush_bytes, false, &warm);
  for (void *p : owned)
    cudaFree(p);
  if (e) {
    printf("  %-44s ERROR: %s: %s\n", name.c_str(), cudaGetErrorName(e), cudaGetErrorString(e));
    B->failed++;
    if (!fatal(e)) cudaGetLastError();
    return fatal(e) ? e : cudaSuccess;
  }
  if (!ok) {
    printf("  %-44s %s (no rows written)\n", name.c_str(), verdict.c_str());
    B->failed++;
    return cudaSuccess;
  }
  Stats c = stats(cold), w = stats(warm);
  printf("  %-44s cold %s [%s, %s]  warm %s [%s, %s]  %s\n", name.c_str(), us(c.median).c_str(),
         us(c.min).c_str(), us(c.max).c_str(), us(w.median).c_str(), us(w.min).c_str(),
         us(w.max).c_str(), verdict.c_str());
  if (c.median > 0 && w.median > 0) {
    csv_row(B, L, fa, true, c);
    csv_row(B, L, fa, false, w);
    fflush(B->csv); // a run cut short keeps its rows
  } else {
    printf("  %-44s no rows: a median time is not positive\n", name.c_str());
    B->skipped++;
  }
  return cudaSuccess;
}

int bench_main(int argc, char **argv, const char *suite, std::vector<Launch> (*make)(Level)) {
  Bench B;
  B.suite = suite;
  int st = parse_options(&B.opt, argc, argv, suite);
  if (st) return st;
  if (B.opt.list) {
    for (const Launch &L : make(B.opt.level))
      printf("%s %s grid %u,%u,%u block %u,%u,%u\n", L.kernel.c_str(), L.label.c_str(), L.grid.x,
             L.grid.y, L.grid.z, L.block.x, L.block.y, L.block.z);
    return 0;
  }
  cudaError_t e = cudaGetDeviceProperties(&B.prop, 0);
  if (e) {
    fprintf(stderr, "%s: no CUDA device: %s\n", suite, cudaGetErrorString(e));
    return 2;
  }
  if (B.opt.gpu.empty()) B.opt.gpu = B.prop.name;
  for (const std::string *cell : {&B.opt.gpu, &B.opt.driver, &B.opt.date})
    if (cell->find_first_of(",\"\n") != std::string::npos) {
      fprintf(stderr, "%s: '%s': a CSV cell here cannot hold a comma, a quote or a newline\n",
              suite, cell->c_str());
      return 2;
    }
  B.device = B.prop.name;
  std::replace_if(
      B.device.begin(), B.device.end(), [](char ch) { return ch == ',' || ch == '"'; }, ' ');
  B.reps = B.opt.reps ? B.opt.reps : B.opt.level == TINY ? 2 : B.opt.level == QUICK ? 5 : 10;
  B.flush_bytes = B.opt.flush ? B.opt.flush : 2 * (size_t)std::max(B.prop.l2CacheSize, 1 << 20);
  if ((e = cudaMalloc(&B.flush, B.flush_bytes)) != cudaSuccess) {
    fprintf(stderr, "%s: cannot allocate the %zu-byte L2 flush buffer: %s\n", suite, B.flush_bytes,
            cudaGetErrorString(e));
    return 2;
  }
  std::vector<Launch> all = make(B.opt.level), launches;
  for (const Launch &L : all)
    if (B.opt.only.empty() ||
        std::find(B.opt.only.begin(), B.opt.only.end(), L.kernel) != B.opt.only.end())
      launches.push_back(L);
  std::string part = B.opt.out + "/parts/" + suite + ".csv";
  if (!mkdir_p(B.opt.out + "/parts") || !(B.csv = fopen(part.c_str(), "w"))) {
    fprintf(stderr, "%s: cannot write %s: %s\n", suite, part.c_str(), strerror(errno));
    return 2;
  }
  fprintf(B.csv, "kernel_file,kernel,launch,gpu,seconds,size,registers,shared_bytes,l2,"
                 "seconds_min,seconds_max,reps,device,driver,date\n");
  printf("== %s: %zu launches on %s (CC %d.%d, %d SMs, L2 %d B); %d timed launches per "
         "condition; cold = %zu bytes written before each launch\n",
         suite, launches.size(), B.prop.name, B.prop.major, B.prop.minor,
         B.prop.multiProcessorCount, B.prop.l2CacheSize, B.reps, B.flush_bytes);
  auto t0 = std::chrono::steady_clock::now();
  std::string last;
  size_t done = 0;
  for (const Launch &L : launches) {
    double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (B.opt.stop_after > 0 && el > B.opt.stop_after) {
      printf("== %s: the time budget of %.0f s is spent: the last %zu launches were not run\n",
             suite, B.opt.stop_after, launches.size() - done);
      break;
    }
    done++;
    std::string dir = B.opt.out + "/launches/" + L.src;
    std::string spec = dir + "/" + L.kernel + "." + L.label + ".json";
    if (!mkdir_p(dir) || !write_file(spec, spec_json(L))) {
      fprintf(stderr, "%s: cannot write %s\n", suite, spec.c_str());
      return 2;
    }
    B.first = L.kernel != last;
    if (B.first) printf("%s (%s.cu)\n", L.kernel.c_str(), L.src.c_str());
    last = L.kernel;
    fflush(stdout);
    if ((e = run_launch(&B, L)) != cudaSuccess) {
      fprintf(stderr, "%s: the device is unusable after %s: stopping\n", suite,
              cudaGetErrorName(e));
      break;
    }
  }
  fclose(B.csv);
  for (auto &p : B.pools)
    cudaFree(p.second.dev);
  cudaFree(B.flush);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  printf("== %s: %d rows, %d launches checked against the C reference, %d failed, %d skipped, "
         "%.1f s\n",
         suite, B.rows, B.checked, B.failed, B.skipped, secs);
  return e ? 3 : B.failed ? 1 : 0;
}

} // namespace gb
