//===- TileCost.h - What a shared-memory tile of a load would save -*- C++
//-*-===//
//
// roofline-global-reuse advises a shared-memory tile; this prices it. The
// reuse that costs something is between warps: a warp request reads each
// address once, however many of its lanes name it. The re-reads are served
// by L1 as long as what the block loads between two reads of a sector fits
// in its share of L1 (the unified L1/shared capacity left after the
// resident blocks' shared memory, split between them): for a re-read in the
// same walk of the addresses (other warps in the same iteration, a lane's
// sector over the next few) the loads of those iterations, for one in a
// later walk (a loop that does not move the address repeating one that
// does) the loads of a walk. Beyond that the missing share comes from L2,
// and that L2 traffic, timed at the GPU's L2 bandwidth, is what a tile
// saves. (Nsight Compute on an H200 shows the naive and
// coalesced GEMMs' L2 reads equal to each block's distinct bytes: L1 keeps
// their near re-reads, though the block's footprint is 16 times L1.) DRAM
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
