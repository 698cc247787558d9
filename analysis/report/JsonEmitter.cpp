//===- JsonEmitter.cpp ----------------------------------------------------===//

#include "Counters.h"
#include "Emitters.h"
#include "Version.h"

#include "llvm/Support/JSON.h"

using namespace roofline;
using llvm::json::OStream;

std::string roofline::reportKey(const std::string &Counter) {
  std::string K = Counter;
  for (char &C : K)
    if (C == '.')
      C = '_';
  return K;
}

static void value(OStream &J, const std::optional<Rational> &V) {
  if (!V) {
    J.value(nullptr);
    return;
  }
  if (auto I = V->toInt64())
    J.value(*I);
  else
    J.value(V->toDouble());
}

static void number(OStream &J, const std::optional<double> &V) {
  if (V)
    J.value(*V);
  else
    J.value(nullptr);
}

/// "Key": number-or-null.
template <typename T>
static void attr(OStream &J, const char *Key, const std::optional<T> &V) {
  J.attributeBegin(Key);
  if constexpr (std::is_same_v<T, Rational>)
    value(J, V);
  else
    number(J, V);
  J.attributeEnd();
}

static void quantity(OStream &J, const Quantity &Q, bool WithExpr) {
  J.object([&] {
    if (WithExpr) {
      J.attributeBegin("expr");
      if (Q.Formula)
        J.value(*Q.Formula);
      else
        J.value(nullptr);
      J.attributeEnd();
    }
    attr(J, "value", Q.Value);
  });
}

// Counters grouped the way the schema nests them.
static const char *const FlatOrder[] = {counter::FlopsTotal,
                                        counter::Divisions,
                                        counter::SpecialFamily,
                                        counter::GlobalLoads,
                                        counter::GlobalLoadBytes,
                                        counter::GlobalStores,
                                        counter::GlobalStoreBytes,
                                        counter::SharedLoadBytes,
                                        counter::SharedStoreBytes,
                                        counter::SharedBytes,
                                        counter::Atomics,
                                        counter::AtomicBytes,
                                        counter::SharedAtomics,
                                        "shuffles",
                                        "mma"};

template <typename GetFn>
static void counters(OStream &J, const std::vector<std::string> &Names,
                     GetFn Emit) {
  auto ByPrecision = [&](const char *Key, llvm::StringRef Prefix) {
    J.attributeObject(Key, [&] {
      for (const std::string &N : Names)
        if (llvm::StringRef(N).starts_with(Prefix)) {
          J.attributeBegin(N.substr(Prefix.size()));
          Emit(N);
          J.attributeEnd();
        }
    });
  };
  ByPrecision("flops", counter::FlopsPrefix);
  ByPrecision("flops_executed", counter::ExecutedFlopsPrefix);
  for (const char *F : FlatOrder) {
    std::string N = F;
    if (N == counter::SpecialFamily) {
      J.attributeObject("special", [&] {
        for (const std::string &S : Names)
          if (S.rfind(counter::SpecialPrefix, 0) == 0) {
            J.attributeBegin(S.substr(8));
            Emit(S);
            J.attributeEnd();
          }
      });
      continue;
    }
    bool Present = false;
    for (const std::string &S : Names)
      Present |= S == N;
    if (!Present)
      continue;
    J.attributeBegin(reportKey(N));
    Emit(N);
    J.attributeEnd();
  }
}

static std::vector<std::string> namesOf(const KernelCounts &KC) {
  std::vector<std::string> Names;
  for (auto &KV : KC.PerThread)
    if (KV.first.rfind(counter::DivPrefix, 0) != 0)
      Names.push_back(KV.first);
  return Names;
}

static void dims(OStream &J, const char *Key, const std::optional<Dim3> &D) {
  J.attributeBegin(Key);
  if (!D)
    J.value(nullptr);
  else
    J.array([&] {
      for (int64_t V : D->V)
        J.value(V);
    });
  J.attributeEnd();
}

static void access(OStream &J, const AccessInfo &A) {
  J.object([&] {
    J.attribute("file", A.Loc.File);
    J.attribute("line", int64_t(A.Loc.Line));
    J.attribute("column", int64_t(A.Loc.Column));
    J.attribute("expr", A.Expr);
    J.attribute("base", A.Base);
    J.attribute("space", A.Space == MemSpace::Shared ? "shared" : "global");
    J.attribute("kind", A.kind());
    J.attribute("bytes", int64_t(A.Width));
    attr(J, "count_per_thread", A.CountPerThread);
    if (!A.Reachable)
      J.attribute("reachable", false);
    bool Known = A.Unknown.empty();
    J.attribute("class", !Known ? std::string("irregular")
                         : !A.StrideFormula.empty()
                             ? "strided:" + A.StrideFormula
                             : accessClassName(A.Class, A.StrideElements));
    std::optional<int64_t> Sectors, Ways, Wavefronts, Distinct, Lanes;
    std::optional<double> Efficiency;
    if (A.Sectors) {
      Sectors = A.Sectors->Sectors;
      Efficiency = A.Sectors->efficiency();
      Distinct = int64_t(A.Sectors->BytesUsed);
      Lanes = int64_t(A.Sectors->ActiveLanes);
    }
    if (A.Banks) {
      Ways = A.Banks->Ways;
      Wavefronts = A.Banks->Wavefronts;
    }
    if (A.Space == MemSpace::Global) {
      attr(J, "sectors_per_request", Sectors);
      attr(J, "efficiency", Efficiency);
      attr(J, "bytes_per_request", Distinct);
      attr(J, "active_lanes", Lanes);
      if (A.MaxSectors)
        J.attribute("sectors_per_request_max", int64_t(A.MaxSectors));
    } else {
      if (A.MachineWidth)
        J.attribute("machine_bytes", int64_t(A.MachineWidth));
      attr(J, "bank_conflict_ways", Ways);
      attr(J, "wavefronts_per_request", Wavefronts);
      if (A.BankFix)
        J.attribute("bank_conflict_cause",
                    A.BankFix->acrossRows() ? "across_rows" : "within_row");
    }
    if (A.Space == MemSpace::Global && !A.IsStore && !A.IsAtomic) {
      attr(J, "reuse_factor", A.reuseFactor());
      J.attributeObject("reuse", [&] {
        attr(J, "in_block", A.blockReuse());
        std::optional<int64_t> GR, GD;
        if (A.GridRequested)
          GR = int64_t(*A.GridRequested);
        if (A.GridDistinct)
          GD = int64_t(*A.GridDistinct);
        attr(J, "requested_bytes", GR);
        attr(J, "distinct_bytes", GD);
        J.attributeArray("shared_by", [&] {
          for (const std::string &D : A.SharedBy)
            J.value(D);
        });
        J.attribute("same_thread", A.SameThreadReuse);
        J.attribute("staged", A.StagedInShared      ? "shared"
                              : A.StagedInRegisters ? "registers"
                                                    : "none");
        if (const TileSaving *T = A.Tile ? &*A.Tile : nullptr)
          J.attributeObject("tile", [&] {
            J.attribute("between_warps", T->BetweenWarps);
            J.attribute("scalar", T->Scalar);
            J.attribute("reread_bytes", int64_t(T->ReReadBytes));
            if (!T->Why.empty()) {
              J.attribute("unknown", T->Why);
              return;
            }
            J.attribute("block_load_bytes", int64_t(T->BlockLoadBytes));
            J.attribute("l1_per_block", int64_t(T->L1PerBlock));
            J.attribute("window_bytes", int64_t(T->WindowBytes));
            J.attribute("far_reread_bytes", int64_t(T->FarReReadBytes));
            J.attribute("far_window_bytes", int64_t(T->FarWindowBytes));
            J.attribute("l2_bytes_saved", int64_t(T->L2Bytes));
            J.attribute("seconds_saved", T->Seconds);
            J.attribute("at_dram_bandwidth", T->AtDram);
          });
      });
    }
    if (!A.ValidFor.empty())
      J.attribute("valid_for", A.ValidFor);
    if (!A.BlockAssumption.empty())
      J.attribute("block_assumption", A.BlockAssumption);
    if (!Known)
      J.attribute("unknown", A.Unknown);
  });
}

static void finding(OStream &J, const Finding &F) {
  J.object([&] {
    J.attribute("check", F.Check);
    J.attribute("level", F.Level);
    J.attribute("file", F.Loc.File);
    J.attribute("line", int64_t(F.Loc.Line));
    J.attribute("column", int64_t(F.Loc.Column));
    J.attribute("message", F.Message);
    J.attributeArray("notes", [&] {
      for (const FindingNote &N : F.Notes)
        J.object([&] {
          J.attribute("file", N.Loc.File);
          J.attribute("line", int64_t(N.Loc.Line));
          J.attribute("column", int64_t(N.Loc.Column));
          J.attribute("message", N.Message);
        });
    });
    if (F.Seconds)
      J.attribute("cost_seconds", *F.Seconds);
  });
}

/// "launch": the launch the counts are for and where it came from.
static void launchAttr(OStream &J, const KernelReport &K) {
  J.attributeObject("launch", [&] {
    dims(J, "grid", K.Launch.Grid);
    dims(J, "block", K.Launch.Block);
    J.attribute("smem", K.Launch.SharedBytes);
    J.attribute("source", launchSourceName(K.Launch.Source));
    if (!K.Launch.Loc.File.empty()) {
      J.attribute("location_file", K.Launch.Loc.File);
      J.attribute("location_line", int64_t(K.Launch.Loc.Line));
      J.attribute("location_column", int64_t(K.Launch.Loc.Column));
    }
    if (!K.Launch.Iteration.empty())
      J.attribute("iteration", K.Launch.Iteration);
    if (!K.Launch.Unresolved.empty())
      J.attribute("unresolved", K.Launch.Unresolved);
  });
}

/// The values the analysis used: template arguments, parameters, the
/// pointers assumed non-null and the thread the per-thread counts are of.
static void inputsAttrs(OStream &J, const KernelReport &K) {
  const KernelCounts &KC = K.Counts;
  J.attributeObject("template_args", [&] {
    for (auto &KV : K.Decl.TemplateArgs)
      J.attribute(KV.first, KV.second);
  });
  J.attributeObject("params", [&] {
    for (auto &KV : K.Params)
      J.attribute(KV.first, KV.second);
  });
  J.attributeArray("assumed_non_null", [&] {
    for (const std::string &P : K.AssumedNonNull)
      J.value(P);
  });
  J.attributeObject("thread", [&] {
    J.attributeArray("threadIdx", [&] {
      for (int I = 0; I < 3; ++I)
        J.value(KC.Representative[I]);
    });
    J.attributeArray("blockIdx", [&] {
      for (int I = 3; I < 6; ++I)
        J.value(KC.Representative[I]);
    });
  });
}

/// "dram_bytes" of the totals: the bounds and the cache model's estimate.
static void dramBytesAttr(OStream &J, const KernelCounts &KC,
                          const RooflineMetrics &M) {
  J.attributeObject("dram_bytes", [&] {
    attr(J, "lower", M.DramLower);
    attr(J, "upper", M.DramUpper);
    if (!KC.UpperPartial.empty())
      J.attribute("upper_partial", KC.UpperPartial);
    J.attribute("lower_exact", KC.Compulsory.Exact);
    attr(J, "estimate", M.DramEstimate);
    J.attributeObject("cache_model", [&] {
      const CacheEstimate &E = KC.Estimate;
      J.attribute("blocks_per_sm", int64_t(E.BlocksPerSM));
      J.attribute("limited_by", E.Limiter);
      J.attribute("blocks_per_wave", int64_t(E.BlocksPerWave));
      J.attribute("waves", int64_t(E.Waves));
      J.attribute("waves_walked", int64_t(E.WavesAnalyzed));
      J.attribute("fits_in_l2", E.FitsInL2);
      if (!E.Why.empty())
        J.attribute("unknown", E.Why);
    });
  });
}

/// The counters per thread, per block and over the grid, then the paths
/// the threads take.
static void countsAttrs(OStream &J, const KernelReport &K) {
  const KernelCounts &KC = K.Counts;
  std::vector<std::string> Names = namesOf(KC);
  J.attributeObject("per_thread", [&] {
    counters(J, Names, [&](const std::string &N) {
      auto It = KC.PerThread.find(N);
      quantity(J, It == KC.PerThread.end() ? Quantity() : It->second, true);
    });
  });
  J.attributeObject("per_block", [&] {
    counters(J, Names, [&](const std::string &N) {
      auto It = KC.PerBlock.find(N);
      quantity(J, It == KC.PerBlock.end() ? Quantity() : It->second, true);
    });
  });
  J.attributeObject("totals", [&] {
    counters(J, Names, [&](const std::string &N) {
      auto It = KC.Totals.find(N);
      value(J, It == KC.Totals.end() ? std::nullopt : It->second);
    });
    J.attributeObject("threads", [&] {
      attr(J, "launched", KC.ThreadsLaunched);
      attr(J, "active", KC.ThreadsActive);
    });
    dramBytesAttr(J, KC, K.Metrics);
  });
  J.attributeArray("paths", [&] {
    for (const PathCount &P : KC.Paths)
      J.object([&] {
        J.attribute("guard", P.Guard);
        J.attribute("file", P.Loc.File);
        J.attribute("line", int64_t(P.Loc.Line));
        J.attribute("column", int64_t(P.Loc.Column));
        attr(J, "threads_block", P.BlockThreads);
        attr(J, "threads_grid", P.GridThreads);
      });
  });
}

/// "arithmetic_intensity" and "speed_of_light": the roofline itself.
static void rooflineAttrs(OStream &J, const KernelReport &K,
                          const GpuSpec &Gpu) {
  const KernelCounts &KC = K.Counts;
  const RooflineMetrics &M = K.Metrics;
  J.attributeObject("arithmetic_intensity", [&] {
    attr(J, "lower", M.AILower);
    attr(J, "upper", M.AIUpper);
    attr(J, "requested", M.AIRequested);
    J.attributeBegin("per_thread_formula");
    if (KC.IntensityFormula)
      J.value(*KC.IntensityFormula);
    else
      J.value(nullptr);
    J.attributeEnd();
    attr(J, "estimate", M.AIEstimate);
  });
  J.attributeObject("speed_of_light", [&] {
    // With unknown counts only a lower bound is known (Metrics.h).
    attr(J, "seconds", M.Seconds ? M.Seconds : M.LowerBound);
    attr(J, "seconds_upper", M.SecondsUpper);
    J.attribute("bound", M.Bound);
    J.attribute("precision", M.Precision);
    J.attribute("unit", computeUnitName(M.Unit));
    attr(J, "ridge", M.Ridge);
    attr(J, "peak_flops", M.Peak);
    J.attribute("bandwidth", Gpu.DramBandwidth);
    if (!M.Note.empty())
      J.attribute("note", M.Note);
    attr(J, "seconds_estimate", M.SecondsEstimate);
    J.attribute("lower_bound", !M.Seconds && M.LowerBound.has_value());
  });
}

/// Without sizes: the roofline over the sizes swept (docs/counting.md), or
/// why there is none.
static void sizeSweepAttr(OStream &J, const KernelReport &K,
                          const GpuSpec &Gpu) {
  if (K.Sweep) {
    const SizeSweep &Sw = *K.Sweep;
    J.attributeObject("size_sweep", [&] {
      J.attributeArray("sizes", [&] {
        for (const std::string &N : Sw.Names)
          J.value(N);
      });
      if (!Sw.LaunchAssumption.empty())
        J.attribute("launch_assumption", Sw.LaunchAssumption);
      // The bound of the largest sizes, from the first size that has it.
      J.attribute("bound",
                  Sw.Points.back().ComputeBound ? "compute" : "memory");
      J.attribute("bound_from", Sw.Points[Sw.from()].Size);
      J.attribute("precision", Sw.Precision);
      J.attribute("unit", computeUnitName(Sw.Unit));
      attr(J, "ridge", Sw.Ridge);
      J.attribute("verdict", Sw.verdict(Gpu));
      J.attributeArray("samples", [&] {
        for (const SizeSweep::Point &P : Sw.Points)
          J.object([&] {
            J.attribute("size", P.Size);
            J.attribute("flops", P.Flops);
            J.attribute("dram_bytes_lower", P.Bytes);
            J.attribute("intensity", P.intensity());
            J.attribute("bound", P.ComputeBound ? "compute" : "memory");
          });
      });
    });
  } else if (!K.SweepWhyNot.empty() && !K.MissingSizes.empty()) {
    J.attributeObject("size_sweep",
                      [&] { J.attribute("unknown", K.SweepWhyNot); });
  }
}

/// "predicted": the implementation's time, every resource's share, and the
/// grid's machine instructions it is computed from.
static void predictedAttr(OStream &J, const KernelReport &K) {
  const Prediction &P = K.Predicted;
  const KernelCounts &KC = K.Counts;
  J.attributeObject("predicted", [&] {
    attr(J, "seconds", P.Seconds);
    J.attribute("limiter", P.Limiter);
    if (!P.Why.empty())
      J.attribute("unknown", P.Why);
    J.attributeArray("resources", [&] {
      for (const ResourceTime &R : P.Resources)
        J.object([&] {
          J.attribute("name", R.Name);
          J.attribute("title", R.Title);
          J.attribute("unit", R.Unit);
          J.attribute("work", R.Work);
          J.attribute("throughput", R.Throughput);
          J.attribute("seconds", R.Seconds);
          J.attribute("utilization", P.Seconds && *P.Seconds > 0
                                         ? R.Seconds / *P.Seconds
                                         : 0.0);
          if (R.PerFma > 0)
            J.attribute("per_fma", R.PerFma);
          if (!R.Detail.empty())
            J.attribute("detail", R.Detail);
        });
    });
    J.attributeArray("left_out", [&] {
      for (const std::string &L : P.LeftOut)
        J.value(L);
    });
    if (const Occupancy &O = KC.Occ; O.BlocksPerSM)
      J.attributeObject("occupancy", [&] {
        if (O.Registers) {
          J.attribute("registers_per_thread", O.Registers);
          J.attribute("spill_store_bytes", O.SpillStoreBytes);
          J.attribute("spill_load_bytes", O.SpillLoadBytes);
        } else {
          J.attribute("registers_unknown", O.RegistersWhy);
        }
        J.attribute("blocks_per_sm", O.BlocksPerSM);
        J.attribute("warps_per_sm", O.WarpsPerSM);
        J.attribute("max_warps_per_sm", O.MaxWarpsPerSM);
        J.attribute("limited_by", O.Limiter);
        J.attribute("warps_in_flight", O.WarpsInFlight);
        J.attribute("blocks", O.Blocks);
        J.attribute("busiest_sm_blocks", O.BusiestSMBlocks);
      });
    J.attributeObject("instructions", [&] {
      llvm::StringRef Prefix(counter::InstPrefix);
      for (auto &KV : KC.Instructions)
        J.attribute(llvm::StringRef(KV.first).drop_front(Prefix.size()),
                    KV.second.toDouble());
      if (!KC.InstructionsWhy.empty())
        J.attribute("unknown", KC.InstructionsWhy);
      if (!KC.InstructionsPartial.empty())
        J.attribute("partial", KC.InstructionsPartial);
    });
  });
}

/// One kernel's object, in the schema's order (docs/json-schema.md).
static void kernel(OStream &J, const KernelReport &K, const GpuSpec &Gpu) {
  J.object([&] {
    J.attribute("name", K.Decl.Name);
    J.attribute("file", K.Decl.Loc.File);
    J.attribute("line", int64_t(K.Decl.Loc.Line));
    J.attribute("column", int64_t(K.Decl.Loc.Column));
    launchAttr(J, K);
    inputsAttrs(J, K);
    countsAttrs(J, K);
    rooflineAttrs(J, K, Gpu);
    predictedAttr(J, K);
    sizeSweepAttr(J, K, Gpu);
    J.attributeArray("accesses", [&] {
      for (const AccessInfo &A : K.Accesses)
        access(J, A);
    });
    J.attributeArray("findings", [&] {
      for (const Finding &F : K.Findings)
        finding(J, F);
    });
    J.attributeArray("unknowns", [&] {
      for (const UnknownReason &U : K.Counts.Unknowns)
        J.object([&] {
          J.attribute("reason", U.Reason);
          J.attribute("file", U.Loc.File);
          J.attribute("line", int64_t(U.Loc.Line));
          J.attribute("column", int64_t(U.Loc.Column));
        });
    });
  });
}

void roofline::emitJson(llvm::raw_ostream &OS,
                        const std::vector<FileReport> &Files) {
  OStream J(OS, 2);
  J.object([&] {
    J.attribute("tool", "cuda-roofline");
    J.attribute("version", ToolVersion);
    const GpuSpec *Gpu = Files.empty() ? nullptr : Files.front().Gpu;
    J.attributeObject("gpu", [&] {
      if (!Gpu)
        return;
      J.attribute("id", Gpu->Id);
      J.attribute("name", Gpu->Name);
      J.attribute("arch", Gpu->Arch);
      J.attribute("dram_bandwidth", Gpu->DramBandwidth);
    });
    J.attributeArray("kernels", [&] {
      for (const FileReport &F : Files)
        for (const KernelReport &K : F.Kernels)
          kernel(J, K, *F.Gpu);
    });
    J.attributeArray("uninstantiated_templates", [&] {
      for (const FileReport &F : Files)
        for (const auto &T : F.UninstantiatedTemplates)
          J.object([&] {
            J.attribute("name", T.first);
            J.attribute("file", T.second.File);
            J.attribute("line", int64_t(T.second.Line));
            J.attribute("column", int64_t(T.second.Column));
          });
    });
    // Kept after roofline-not-analyzed's check selection and NOLINT, like
    // every finding.
    J.attributeArray("not_analyzed", [&] {
      for (const FileReport &F : Files)
        for (const NotAnalyzed &N : F.Lost) {
          if (llvm::none_of(F.Findings, [&](const Finding &Fd) {
                return Fd.Loc.File == N.Loc.File && Fd.Loc.Line == N.Loc.Line &&
                       Fd.Loc.Column == N.Loc.Column &&
                       Fd.Message == N.message();
              }))
            continue;
          J.object([&] {
            J.attribute("kind", N.Kind);
            J.attribute("name", N.Name);
            J.attribute("file", N.Loc.File);
            J.attribute("line", int64_t(N.Loc.Line));
            J.attribute("column", int64_t(N.Loc.Column));
            J.attribute("message", N.message());
            if (!N.Via.empty())
              J.attribute("via", N.Via);
            J.attributeObject("error", [&] {
              J.attribute("message", N.Error.Message);
              J.attribute("file", N.Error.Where.File);
              J.attribute("line", int64_t(N.Error.Where.Line));
              J.attribute("column", int64_t(N.Error.Where.Column));
            });
          });
        }
    });
  });
  OS << "\n";
}
