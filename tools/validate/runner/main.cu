// main.cu: the validation runner. Times every registered case (drivers/*.cu)
// on the GPU with CUDA events, verifies its output, and measures the ceilings
// (device-to-device copy bandwidth, cuBLAS SGEMM and bf16 GEMM) in the same
// process. Writes one JSON object per case. See tools/validate/README.md.
//
//   runner --list                      cases, as JSON lines (no GPU needed)
//   runner [--case ID]... [--reps N] [--warmup N] [--out DIR]
//   runner --ceilings [--out DIR]      measure the ceilings
//   runner --profile --case ID         one launcher call and nothing else (for ncu)
//   runner --device                    device properties
//
// Built with --default-stream per-thread: the kernel files' launchers use the
// default stream, which is then cudaStreamPerThread; that stream can be
// captured into a CUDA graph, which is how the runner reads the grid, block
// and shared memory of the launches a launcher makes without running them.
#include "common.h"

#include <cuda_bf16.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>

namespace {

const cudaStream_t kStream = cudaStreamPerThread;

// ---- options -----------------------------------------------------------------

struct Options {
  bool list = false, ceilings = false, profile = false, device = false;
  std::vector<std::string> cases; // empty: all
  int reps = 30;                  // minimum timed repetitions
  int max_reps = 200;             // short kernels get more, up to this
  int warmup = 3;
  std::string out;                // directory; empty: stdout
  std::string command;            // this process's command line
};

void usage(FILE *f) {
  std::fprintf(f,
               "usage: runner [--list] [--device] [--ceilings] [--profile] [--case ID]...\n"
               "              [--reps N] [--max-reps N] [--warmup N] [--out DIR]\n"
               "  --list       print the cases as JSON lines and exit (no GPU needed)\n"
               "  --device     print the device properties as JSON and exit\n"
               "  --ceilings   measure copy bandwidth, cuBLAS SGEMM and bf16 GEMM at 8192^3\n"
               "  --profile    one launcher call per case, nothing else (run under ncu)\n"
               "  --case ID    run this case (repeatable; default: all)\n"
               "  --reps N     at least N timed repetitions (default 30, minimum 20)\n"
               "  --max-reps N short kernels repeat until ~0.25 s, at most N times (default 200)\n"
               "  --warmup N   at least N warm-up calls (default 3; warm-up lasts >= 0.1 s)\n"
               "  --out DIR    write DIR/<case>.json and DIR/ceilings.json instead of stdout\n");
}

std::string shell_quote(const std::string &s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-+=./:,@%") == std::string::npos)
    return s;
  std::string o = "'";
  for (char c : s)
    o += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

int parse_int(const char *s, const char *what) {
  char *end = nullptr;
  long v = std::strtol(s, &end, 10);
  if (!end || *end || v <= 0 || v > 1000000)
    DIE(std::string("bad value for ") + what + ": " + s);
  return static_cast<int>(v);
}

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 0; i < argc; ++i)
    o.command += (i ? " " : "") + shell_quote(argv[i]);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&](const char *what) -> const char * {
      if (i + 1 >= argc)
        DIE(std::string("missing value for ") + what);
      return argv[++i];
    };
    if (a == "--list") o.list = true;
    else if (a == "--device") o.device = true;
    else if (a == "--ceilings") o.ceilings = true;
    else if (a == "--profile") o.profile = true;
    else if (a == "--case") o.cases.push_back(next("--case"));
    else if (a == "--reps") o.reps = parse_int(next("--reps"), "--reps");
    else if (a == "--max-reps") o.max_reps = parse_int(next("--max-reps"), "--max-reps");
    else if (a == "--warmup") o.warmup = parse_int(next("--warmup"), "--warmup");
    else if (a == "--out") o.out = next("--out");
    else if (a == "-h" || a == "--help") { usage(stdout); std::exit(0); }
    else { usage(stderr); DIE("unknown argument: " + a); }
  }
  if (o.reps < 20)
    std::fprintf(stderr, "runner: warning: --reps %d is below the 20 the method asks for\n", o.reps);
  o.max_reps = std::max(o.max_reps, o.reps);
  return o;
}

void emit(const Options &o, const std::string &name, const std::string &json) {
  if (o.out.empty()) {
    std::printf("%s\n", json.c_str());
    std::fflush(stdout);
    return;
  }
  std::string path = o.out + "/" + name + ".json";
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f)
    DIE("cannot write " + path + ": " + std::strerror(errno));
  std::fprintf(f, "%s\n", json.c_str());
  if (std::fclose(f) != 0)
    DIE("cannot write " + path);
}

// ---- case list ---------------------------------------------------------------

std::string case_json(const CaseInfo &c) {
  std::string params, args = "[" + json_str(c.file);
  for (const auto &p : c.params) {
    params += (params.empty() ? "" : ",") + json_str(p.first) + ":" + std::to_string(p.second);
    args += ",\"--param\"," + json_str(p.first + "=" + std::to_string(p.second));
  }
  for (const auto &a : c.analyzer_extra)
    args += "," + json_str(a);
  args += "]";
  return "{\"id\":" + json_str(c.id) + ",\"file\":" + json_str(c.file) +
         ",\"name\":" + json_str(c.name) + ",\"params\":{" + params + "}" +
         ",\"size_tag\":" + json_str(c.size_tag()) + ",\"analyzer_args\":" + args +
         ",\"launches\":" + std::to_string(c.launches) + ",\"precision\":" + json_str(c.precision) +
         ",\"reference\":" + json_str(c.reference) + "}";
}

// ---- NVML, loaded at run time (clocks while the timed loop runs) -------------

struct Nvml {
  using Fn0 = int (*)();
  using FnHandlePci = int (*)(const char *, void **);
  using FnHandleIdx = int (*)(unsigned, void **);
  using FnCount = int (*)(unsigned *);
  using FnClock = int (*)(void *, int, unsigned *);
  using FnReasons = int (*)(void *, unsigned long long *);
  using FnDriver = int (*)(char *, unsigned);
  void *dev = nullptr;
  FnClock clock = nullptr;
  FnReasons reasons = nullptr;
  std::string driver_version;
  std::string error;

  Nvml() {
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) { error = "libnvidia-ml.so.1 not loadable"; return; }
    auto init = reinterpret_cast<Fn0>(dlsym(lib, "nvmlInit_v2"));
    auto by_pci = reinterpret_cast<FnHandlePci>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    auto by_idx = reinterpret_cast<FnHandleIdx>(dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
    auto count = reinterpret_cast<FnCount>(dlsym(lib, "nvmlDeviceGetCount_v2"));
    auto drv = reinterpret_cast<FnDriver>(dlsym(lib, "nvmlSystemGetDriverVersion"));
    clock = reinterpret_cast<FnClock>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    reasons = reinterpret_cast<FnReasons>(dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons"));
    if (!reasons)
      reasons = reinterpret_cast<FnReasons>(dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    if (!init || !clock || init() != 0) { error = "nvmlInit failed"; clock = nullptr; return; }
    if (drv) {
      char b[96] = {0};
      if (drv(b, sizeof b) == 0)
        driver_version = b;
    }
    int cur = 0;
    char bus[64] = {0};
    if (cudaGetDevice(&cur) == cudaSuccess && cudaDeviceGetPCIBusId(bus, sizeof bus, cur) == cudaSuccess &&
        by_pci && by_pci(bus, &dev) == 0)
      return;
    unsigned n = 0;
    if (count && by_idx && count(&n) == 0 && n == 1 && by_idx(0, &dev) == 0)
      return;
    dev = nullptr;
    error = "no NVML handle for the CUDA device";
  }

  // {"sm_mhz":..,"mem_mhz":..,"event_reasons":..} or "null".
  std::string sample() const {
    if (!dev || !clock)
      return "null";
    unsigned sm = 0, mem = 0;
    unsigned long long r = 0;
    bool ok_sm = clock(dev, 1 /*NVML_CLOCK_SM*/, &sm) == 0;
    bool ok_mem = clock(dev, 2 /*NVML_CLOCK_MEM*/, &mem) == 0;
    bool ok_r = reasons && reasons(dev, &r) == 0;
    return std::string("{\"sm_mhz\":") + (ok_sm ? std::to_string(sm) : "null") +
           ",\"mem_mhz\":" + (ok_mem ? std::to_string(mem) : "null") +
           ",\"event_reasons\":" + (ok_r ? std::to_string(r) : "null") + "}";
  }
};

const Nvml &nvml() {
  static Nvml n;
  return n;
}

// ---- device ------------------------------------------------------------------

struct Device {
  cudaDeviceProp prop{};
  int ordinal = 0;
  std::string json;
};

std::string version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

const Device &device() {
  static Device d;
  static bool done = false;
  if (done)
    return d;
  done = true;
  CK(cudaGetDevice(&d.ordinal));
  CK(cudaGetDeviceProperties(&d.prop, d.ordinal));
  int clk = 0, mclk = 0, bus = 0, drv = 0, rt = 0, cbmaj = 0, cbmin = 0, cbpatch = 0;
  CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, d.ordinal));
  CK(cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, d.ordinal));
  CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, d.ordinal));
  CK(cudaDriverGetVersion(&drv));
  CK(cudaRuntimeGetVersion(&rt));
  CKB(cublasGetProperty(MAJOR_VERSION, &cbmaj));
  CKB(cublasGetProperty(MINOR_VERSION, &cbmin));
  CKB(cublasGetProperty(PATCH_LEVEL, &cbpatch));
  char pci[64] = {0};
  CK(cudaDeviceGetPCIBusId(pci, sizeof pci, d.ordinal));
  const Nvml &n = nvml();
  d.json = "{\"name\":" + json_str(d.prop.name) + ",\"compute_capability\":\"" +
           std::to_string(d.prop.major) + "." + std::to_string(d.prop.minor) + "\"" +
           ",\"sm_count\":" + std::to_string(d.prop.multiProcessorCount) +
           ",\"l2_cache_bytes\":" + std::to_string(d.prop.l2CacheSize) +
           ",\"global_memory_bytes\":" + std::to_string(d.prop.totalGlobalMem) +
           ",\"shared_memory_per_sm_bytes\":" + std::to_string(d.prop.sharedMemPerMultiprocessor) +
           ",\"max_sm_clock_mhz\":" + std::to_string(clk / 1000) +
           ",\"max_mem_clock_mhz\":" + std::to_string(mclk / 1000) +
           ",\"memory_bus_width_bits\":" + std::to_string(bus) + ",\"pci_bus_id\":" + json_str(pci) +
           ",\"cuda_driver_version\":" + json_str(version_string(drv)) +
           ",\"cuda_runtime_version\":" + json_str(version_string(rt)) +
           ",\"cublas_version\":\"" + std::to_string(cbmaj) + "." + std::to_string(cbmin) + "." +
           std::to_string(cbpatch) + "\"" + ",\"driver_version\":" +
           (n.driver_version.empty() ? std::string("null") : json_str(n.driver_version)) +
           ",\"nvml\":" + (n.error.empty() ? std::string("null") : json_str(n.error)) + "}";
  return d;
}

// ---- L2 flush: read a buffer of at least twice the L2 size -------------------
// Reading (not writing) leaves the L2 full of clean lines: a written buffer
// would leave dirty lines whose write-back the next (timed) kernel would pay.

__global__ void l2_flush_read(const float4 *buf, size_t n4, float *sink) {
  float acc = 0.0f;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n4;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    float4 v = buf[i];
    acc += v.x + v.y + v.z + v.w;
  }
  if (acc == 1234.5f) // the buffer is zero: never true, but the loads must happen
    *sink = acc;
}

struct Flusher {
  std::unique_ptr<DevBuf<float4>> buf;
  std::unique_ptr<DevBuf<float>> sink;
  int blocks = 0;
  size_t bytes = 0;
  Flusher() {
    const Device &d = device();
    bytes = std::max<size_t>(2 * static_cast<size_t>(d.prop.l2CacheSize), size_t(64) << 20);
    bytes = (bytes + 15) / 16 * 16;
    buf.reset(new DevBuf<float4>(bytes / 16));
    sink.reset(new DevBuf<float>(1));
    CK(cudaMemset(buf->p, 0, buf->bytes()));
    blocks = d.prop.multiProcessorCount * 8;
  }
  void flush() {
    l2_flush_read<<<blocks, 256, 0, kStream>>>(buf->p, buf->n, sink->p);
    CK_LAUNCH();
  }
};

Flusher &flusher() {
  static Flusher *f = new Flusher(); // never destroyed: outlives the static buffers' users
  return *f;
}

// ---- launches of one launcher call, read from a captured graph ---------------

std::string dim3_json(dim3 d) {
  return "[" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + "]";
}

// Returns the JSON array of launches, or sets *error and returns "null".
std::string capture_launches(Instance &inst, std::string *error) {
  cudaGraph_t g = nullptr;
  cudaError_t e = cudaStreamBeginCapture(kStream, cudaStreamCaptureModeRelaxed);
  if (e != cudaSuccess) {
    cudaGetLastError();
    *error = std::string("cudaStreamBeginCapture: ") + cudaGetErrorString(e);
    return "null";
  }
  inst.launch();
  cudaError_t le = cudaGetLastError();
  e = cudaStreamEndCapture(kStream, &g);
  cudaGetLastError();
  if (le != cudaSuccess || e != cudaSuccess || !g) {
    if (g)
      cudaGraphDestroy(g);
    *error = std::string("capture: ") + cudaGetErrorString(le != cudaSuccess ? le : e);
    return "null";
  }
  size_t n = 0;
  std::string out = "[";
  if (cudaGraphGetNodes(g, nullptr, &n) == cudaSuccess && n > 0) {
    std::vector<cudaGraphNode_t> nodes(n);
    if (cudaGraphGetNodes(g, nodes.data(), &n) == cudaSuccess) {
      int k = 0;
      for (size_t i = 0; i < n; ++i) {
        cudaGraphNodeType t;
        if (cudaGraphNodeGetType(nodes[i], &t) != cudaSuccess || t != cudaGraphNodeTypeKernel)
          continue;
        cudaKernelNodeParams p{};
        if (cudaGraphKernelNodeGetParams(nodes[i], &p) != cudaSuccess) {
          cudaGetLastError();
          continue;
        }
        std::string item = "{\"grid\":" + dim3_json(p.gridDim) + ",\"block\":" + dim3_json(p.blockDim) +
                           ",\"smem\":" + std::to_string(p.sharedMemBytes);
        cudaFuncAttributes fa{};
        if (cudaFuncGetAttributes(&fa, p.func) == cudaSuccess)
          item += ",\"static_smem\":" + std::to_string(fa.sharedSizeBytes) +
                  ",\"registers\":" + std::to_string(fa.numRegs);
        int nb = 0;
        int threads = static_cast<int>(p.blockDim.x * p.blockDim.y * p.blockDim.z);
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, p.func, threads, p.sharedMemBytes) ==
            cudaSuccess)
          item += ",\"max_active_blocks_per_sm\":" + std::to_string(nb);
        const char *fname = nullptr;
        if (cudaFuncGetName(&fname, p.func) == cudaSuccess && fname)
          item += ",\"function\":" + json_str(fname);
        cudaGetLastError();
        out += (k++ ? "," : "") + item + "}";
      }
    }
  }
  cudaGraphDestroy(g);
  cudaGetLastError();
  return out + "]";
}

// ---- timing --------------------------------------------------------------------

struct Stats {
  std::vector<double> t; // seconds
  double median = 0, min = 0, max = 0, mean = 0;
};

Stats stats(std::vector<double> t) {
  Stats s;
  s.t = t;
  std::sort(t.begin(), t.end());
  size_t n = t.size();
  s.median = (n % 2) ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  s.min = t.front();
  s.max = t.back();
  s.mean = std::accumulate(t.begin(), t.end(), 0.0) / n;
  return s;
}

double wall() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Calls fn `warmup` times at least and for 0.1 s at least (at most 2000 calls).
// Returns calls made and the mean wall time per call.
std::pair<int, double> warm_up(const std::function<void()> &fn, int warmup) {
  int calls = 0;
  double t0 = wall(), el = 0.0;
  while (calls < warmup || (el < 0.1 && calls < 2000)) {
    fn();
    ++calls;
    if (calls % 8 == 0 || calls >= warmup) {
      CK(cudaStreamSynchronize(kStream));
      el = wall() - t0;
    }
  }
  CK(cudaStreamSynchronize(kStream));
  el = wall() - t0;
  return {calls, el / calls};
}

// Event-timed repetitions of fn, each preceded (outside the timed span) by pre.
// Samples clocks while the queued work runs.
Stats timed(const std::function<void()> &fn, const std::function<void()> &pre, int reps,
            std::string *clock_during, std::string *clock_after) {
  std::vector<cudaEvent_t> a(reps), b(reps);
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventCreate(&a[r]));
    CK(cudaEventCreate(&b[r]));
  }
  for (int r = 0; r < reps; ++r) {
    if (pre)
      pre();
    CK(cudaEventRecord(a[r], kStream));
    fn();
    CK(cudaEventRecord(b[r], kStream));
  }
  if (clock_during)
    *clock_during = nvml().sample();
  CK(cudaStreamSynchronize(kStream));
  if (clock_after)
    *clock_after = nvml().sample();
  std::vector<double> t(reps);
  for (int r = 0; r < reps; ++r) {
    float ms = 0.0f;
    CK(cudaEventElapsedTime(&ms, a[r], b[r]));
    t[r] = ms * 1e-3;
    CK(cudaEventDestroy(a[r]));
    CK(cudaEventDestroy(b[r]));
  }
  return stats(t);
}

// A closed JSON object; `extra` ("\"k\":v,...") is added inside it.
std::string stats_json(const Stats &s, int warmup, const std::string &extra = "") {
  std::string times;
  for (double v : s.t)
    times += (times.empty() ? "" : ",") + json_num(v);
  return "{\"median_s\":" + json_num(s.median) + ",\"min_s\":" + json_num(s.min) +
         ",\"max_s\":" + json_num(s.max) + ",\"mean_s\":" + json_num(s.mean) +
         ",\"repetitions\":" + std::to_string(s.t.size()) + ",\"warmup\":" + std::to_string(warmup) +
         ",\"times_s\":[" + times + "]" + (extra.empty() ? "" : "," + extra) + "}";
}

std::string case_result_json(const CaseInfo &c, const Stats &s, int warm, size_t flush_bytes,
                             const Verification &v, const std::string &launches,
                             const std::string &during, const std::string &after,
                             const std::string &command, const std::string &warnings,
                             const std::string &device_json) {
  return "{\"id\":" + json_str(c.id) + ",\"case\":" + case_json(c) + ",\"device\":" + device_json +
         ",\"timing\":" +
         stats_json(s, warm,
                    "\"l2_flush\":true,\"l2_flush_method\":\"read\",\"l2_flush_bytes\":" +
                        std::to_string(flush_bytes) + ",\"timed_unit\":\"one call of the host launcher\"") +
         ",\"verification\":" + verification_json(v) + ",\"launches\":" + launches +
         ",\"clocks\":{\"during\":" + during + ",\"after\":" + after + "}" +
         ",\"runner_command\":" + json_str(command) + ",\"warnings\":[" + warnings + "]}";
}

std::string ceilings_json(double bw, size_t copy, const Stats &sc, int n, double flop, const Stats &ss,
                          const Stats &sb, int warm, const std::string &device_json,
                          const std::string &command) {
  auto part = [&](const char *name, const std::string &method, const std::string &size, const Stats &st) {
    return json_str(name) + ":{\"method\":" + json_str(method) + "," + size + ",\"timing\":" +
           stats_json(st, warm) + "}";
  };
  return "{\"dram_bandwidth_Bps\":" + json_num(bw) + ",\"fp32_flops\":" + json_num(flop / ss.median) +
         ",\"bf16_tensor_flops\":" + json_num(flop / sb.median) + ",\"details\":{" +
         part("copy", "cudaMemcpyAsync device to device; bandwidth counts bytes read + bytes written",
              "\"bytes_per_copy\":" + std::to_string(copy), sc) +
         "," +
         part("sgemm", "cublasSgemm, CUBLAS_DEFAULT_MATH (fp32, no TF32), random inputs, 2*n^3 FLOPs",
              "\"n\":" + std::to_string(n), ss) +
         "," +
         part("bf16_gemm", "cublasGemmEx, bf16 A, B and C, CUBLAS_COMPUTE_32F, random inputs, 2*n^3 FLOPs",
              "\"n\":" + std::to_string(n), sb) +
         "},\"device\":" + device_json + ",\"runner_command\":" + json_str(command) + "}";
}

// ---- one case ------------------------------------------------------------------

void run_case(const Options &o, const CaseInfo &c) {
  std::fprintf(stderr, "runner: %s (%s)\n", c.id.c_str(), c.size_tag().c_str());
  std::unique_ptr<Instance> inst = c.make();
  auto call = [&] {
    inst->launch();
    CK_LAUNCH();
  };
  // First call loads the module (lazy loading); it counts as warm-up.
  call();
  CK(cudaStreamSynchronize(kStream));
  std::string capture_error;
  std::string launches = capture_launches(*inst, &capture_error);
  Flusher &fl = flusher();
  auto [calls, per_call] = warm_up(call, std::max(0, o.warmup - 1));
  int warm = calls + 1;
  int reps = o.reps;
  if (per_call > 0 && per_call * reps < 0.25)
    reps = std::min(o.max_reps, std::max(reps, static_cast<int>(std::ceil(0.25 / per_call))));
  std::string during, after;
  Stats s = timed(call, [&] { fl.flush(); }, reps, &during, &after);
  // Verification: one call on fresh inputs.
  inst->reset();
  call();
  CK(cudaDeviceSynchronize());
  Verification v = inst->verify();
  std::string warnings;
  if (!capture_error.empty())
    warnings += json_str("launch capture failed: " + capture_error);
  std::string json = case_result_json(c, s, warm, fl.bytes, v, launches, during, after, o.command,
                                      warnings, device().json);
  emit(o, c.id, json);
  std::fprintf(stderr, "runner: %s median %.3f us over %d reps, verification %s (max rel err %.3g)\n",
               c.id.c_str(), s.median * 1e6, reps, v.passed ? "passed" : "FAILED", v.max_rel_error);
}

void profile_case(const CaseInfo &c) {
  std::unique_ptr<Instance> inst = c.make();
  inst->launch();
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
}

// ---- ceilings --------------------------------------------------------------------

std::string ceilings(const Options &o) {
  const int reps = std::max(o.reps, 20);
  const int warm = std::max(o.warmup, 3);
  // Device-to-device copy: bytes read + bytes written per copy.
  size_t free_b = 0, total_b = 0;
  CK(cudaMemGetInfo(&free_b, &total_b));
  size_t copy = std::min<size_t>(size_t(1) << 30, free_b / 4) / 256 * 256;
  double bw = 0.0;
  Stats sc;
  {
    DevBuf<char> src(copy), dst(copy);
    CK(cudaMemset(src.p, 0x5A, copy));
    CK(cudaMemset(dst.p, 0, copy));
    auto fn = [&] { CK(cudaMemcpyAsync(dst.p, src.p, copy, cudaMemcpyDeviceToDevice, kStream)); };
    warm_up(fn, warm);
    sc = timed(fn, nullptr, reps, nullptr, nullptr);
    bw = 2.0 * static_cast<double>(copy) / sc.median;
  }
  std::fprintf(stderr, "runner: copy %.1f GB/s\n", bw * 1e-9);
  // cuBLAS SGEMM, 8192^3, random inputs, fp32 (no TF32).
  const int n = 8192;
  const size_t nn = static_cast<size_t>(n) * n;
  const double flop = 2.0 * n * static_cast<double>(n) * n;
  const float one = 1.0f, zero = 0.0f;
  Stats ss, sb;
  {
    DevBuf<float> A(nn), B(nn), C(nn);
    A.upload(random_floats(nn, 101));
    B.upload(random_floats(nn, 102));
    CK(cudaMemset(C.p, 0, C.bytes()));
    cublasHandle_t h = cublas_handle();
    CKB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    auto fn = [&] { CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A.p, n, B.p, n, &zero, C.p, n)); };
    warm_up(fn, warm);
    ss = timed(fn, nullptr, reps, nullptr, nullptr);
  }
  std::fprintf(stderr, "runner: sgemm %.1f TFLOP/s\n", flop / ss.median * 1e-12);
  // cuBLAS bf16 GEMM (bf16 in and out, fp32 compute), 8192^3, random inputs.
  {
    DevBuf<uint16_t> A(nn), B(nn), C(nn);
    A.upload(random_bf16_bits(nn, 103));
    B.upload(random_bf16_bits(nn, 104));
    CK(cudaMemset(C.p, 0, C.bytes()));
    cublasHandle_t h = cublas_handle();
    auto fn = [&] {
      CKB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A.p, CUDA_R_16BF, n, B.p,
                       CUDA_R_16BF, n, &zero, C.p, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT));
    };
    warm_up(fn, warm);
    sb = timed(fn, nullptr, reps, nullptr, nullptr);
  }
  std::fprintf(stderr, "runner: bf16 gemm %.1f TFLOP/s\n", flop / sb.median * 1e-12);
  CK(cudaDeviceSynchronize());
  return ceilings_json(bw, copy, sc, n, flop, ss, sb, warm, device().json, o.command);
}

} // namespace

int main(int argc, char **argv) {
  Options o = parse(argc, argv);
  std::vector<CaseInfo> &all = case_registry();
  std::sort(all.begin(), all.end(), [](const CaseInfo &a, const CaseInfo &b) {
    return a.file != b.file ? a.file < b.file : a.id < b.id;
  });
  std::vector<const CaseInfo *> sel;
  for (const std::string &id : o.cases) {
    if (id == "all") {
      sel.clear();
      break;
    }
    auto it = std::find_if(all.begin(), all.end(), [&](const CaseInfo &c) { return c.id == id; });
    if (it == all.end())
      DIE("unknown case: " + id + " (see --list)");
    sel.push_back(&*it);
  }
  if (sel.empty())
    for (const CaseInfo &c : all)
      sel.push_back(&c);

  if (o.list) { // no CUDA call: works without a GPU
    for (const CaseInfo *c : sel)
      std::printf("%s\n", case_json(*c).c_str());
    return 0;
  }
  CK(cudaSetDevice(0));
  if (o.device) {
    std::printf("%s\n", device().json.c_str());
    return 0;
  }
  if (o.profile) { // nothing but the case's own launches: ncu sees only those
    for (const CaseInfo *c : sel)
      profile_case(*c);
    return 0;
  }
  if (o.ceilings) {
    emit(o, "ceilings", ceilings(o));
    if (o.cases.empty())
      return 0;
  }
  for (const CaseInfo *c : sel)
    run_case(o, *c);
  return 0;
}
