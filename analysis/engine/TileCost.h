//===- TileCost.h - What a shared-memory tile of a load would save -*- C++
//-*-===//
//
// roofline-global-reuse advises a shared-memory tile; this prices it. The
// reuse that costs something is between warps: a warp request reads each
// address once, however many of its lanes name it. The re-reads are served
// by L1 as long as the block's loads fit in its share of L1 (the unified
// L1/shared capacity left after the resident blocks' shared memory, split
// between them); beyond that the missing share comes from L2, and that L2
// traffic, timed at the GPU's L2 bandwidth, is what a tile saves. DRAM
// traffic does not change: the cache model already fetches a block's
// distinct bytes once. See docs/findings.md.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_ROOFLINE_TILECOST_H
#define CUDA_ROOFLINE_TILECOST_H

#include "AccessAnalysis.h"
#include "GpuDatabase.h"
#include "LaunchSpec.h"

#include <vector>

namespace roofline {

/// Sets AccessInfo::Tile on every global load of Accesses whose reuse was
/// measured (a launch with grid and block), for the launch's Block, the
/// shared memory each block uses (static plus dynamic), the distinct bytes
/// block (0,0,0) loads (blockLoadFootprint; none: unknown) and the registers
/// a thread needs (ptxas; 0: unknown), which with the rest decide how many
/// blocks share an SM's L1.
void priceTiles(std::vector<AccessInfo> &Accesses, const GpuSpec &Gpu,
                const Dim3 &Block, uint64_t SharedPerBlock,
                std::optional<uint64_t> BlockLoads, unsigned Registers = 0);

} // namespace roofline

#endif
