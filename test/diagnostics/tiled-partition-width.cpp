// cooperative_groups tiles wider than the smallest warp (32 lanes: NVIDIA,
// and RDNA in wave32) are reported in the main file, host and device code
// alike, with a fix-it to MVECTOR_MIN where the width is a literal. They are
// warnings: the source is still rewritten, and the tiles stay as written.
// The declarations may come from the SDK (the mock <cooperative_groups.h>,
// with the SDK's versioned inner namespace) or from the runtime header.
// RUN: %hpp_rewrite %s -o %t.cpp -- -isystem %inputs/mock 2>&1 | FileCheck %s --check-prefixes=CHECK-MESSAGES,DIALECT --implicit-check-not="{{warning|error}}:"
// RUN: %hpp_rewrite %s -o %t.fix.cpp -- -isystem %inputs/mock -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIXIT --implicit-check-not=fix-it:
// RUN: FileCheck %s --check-prefix=OUT < %t.cpp
// RUN: %hpp_rewrite %s -o %t.rt.cpp -- -DUSE_RUNTIME_HEADER 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not="{{warning|error}}:"

#ifdef USE_RUNTIME_HEADER
#include <hpp/runtime.h>
#else
#include <hpp/hpp.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#endif

constexpr unsigned TileWidth = 64;

void hostTiles() {
  auto t64 = cg::tiled_partition<64>(cg::this_thread_block());
  // CHECK-MESSAGES: tiled-partition-width.cpp:[[@LINE-1]]:34: warning: 'tiled_partition<64>' needs a warp of at least 64 lanes; warps are 32 wide on NVIDIA and on RDNA (wave32) [hpp-tiled-partition-width]
  // CHECK-MESSAGES: tiled-partition-width.cpp:[[@LINE-2]]:34: note: MVECTOR_MIN (32) fits every warp; for the width of the executing warp, known only at run time, partition by hpp::getWarpSize()
  // FIXIT: fix-it:"{{.*}}tiled-partition-width.cpp":{[[@LINE-3]]:34-[[@LINE-3]]:36}:"MVECTOR_MIN"
  // OUT: auto t64 = cg::tiled_partition<64>(cg::this_thread_block());
  t64.sync();
  cooperative_groups::thread_block_tile<64> tile =
      cooperative_groups::tiled_partition<64>(cg::this_thread_block());
  // CHECK-MESSAGES: tiled-partition-width.cpp:[[@LINE-2]]:41: warning: 'thread_block_tile<64>' needs a warp of at least 64 lanes
  // CHECK-MESSAGES: :[[@LINE-3]]:41: note: MVECTOR_MIN
  // CHECK-MESSAGES: tiled-partition-width.cpp:[[@LINE-3]]:43: warning: 'tiled_partition<64>' needs a warp of at least 64 lanes
  // CHECK-MESSAGES: :[[@LINE-4]]:43: note: MVECTOR_MIN
  // FIXIT: fix-it:"{{.*}}tiled-partition-width.cpp":{[[@LINE-6]]:41-[[@LINE-6]]:43}:"MVECTOR_MIN"
  // FIXIT: fix-it:"{{.*}}tiled-partition-width.cpp":{[[@LINE-6]]:43-[[@LINE-6]]:45}:"MVECTOR_MIN"
  tile.sync();
  // A named width is reported too, with no fix-it (the constant may have
  // other uses).
  cg::tiled_partition<TileWidth>(cg::this_thread_block()).sync();
  // CHECK-MESSAGES: tiled-partition-width.cpp:[[@LINE-1]]:23: warning: 'tiled_partition<64>' needs a warp of at least 64 lanes
  // CHECK-MESSAGES: :[[@LINE-2]]:23: note: MVECTOR_MIN
  // Tiles that fit every warp are fine.
  cg::tiled_partition<32>(cg::this_thread_block()).sync();
  cg::tiled_partition<16>(cg::this_thread_block()).sync();
  cg::tiled_partition<MVECTOR_MIN>(cg::this_thread_block()).sync();
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(cg::this_thread_block());
  t8.sync();
}

// In a template: the pattern is checked once (an unresolved call when the
// parent group is dependent); a dependent width is not known.
template <class Group, unsigned W> void tileOf(const Group &g) {
  cg::tiled_partition<64>(g).sync();
  // CHECK-MESSAGES: tiled-partition-width.cpp:[[@LINE-1]]:23: warning: 'tiled_partition<64>' needs a warp of at least 64 lanes
  // CHECK-MESSAGES: :[[@LINE-2]]:23: note: MVECTOR_MIN
  // FIXIT: fix-it:"{{.*}}tiled-partition-width.cpp":{[[@LINE-3]]:23-[[@LINE-3]]:25}:"MVECTOR_MIN"
  cg::tiled_partition<W>(g).sync();
}
template void tileOf<cg::thread_block, 64>(const cg::thread_block &);

// A tiled_partition of another namespace is not cooperative_groups'.
namespace mine {
template <unsigned N, class P> int tiled_partition(const P &) { return N; }
} // namespace mine
int notATile() { return mine::tiled_partition<64>(0); }

#ifndef USE_RUNTIME_HEADER
// Wider still (the runtime's CPU backend rejects tiles over 64 itself).
void wideTile() { cg::tiled_partition<128>(cg::this_thread_block()).sync(); }
// DIALECT: tiled-partition-width.cpp:[[@LINE-1]]:39: warning: 'tiled_partition<128>' needs a warp of at least 128 lanes
// DIALECT: :[[@LINE-2]]:39: note: MVECTOR_MIN
// FIXIT: fix-it:"{{.*}}tiled-partition-width.cpp":{[[@LINE-3]]:39-[[@LINE-3]]:42}:"MVECTOR_MIN"

using namespace hpp;
void deviceTiles(Pointer<int> p, int n) {
  parallelFor(Range<1>(n), [=](Index<1> i) __device(hpp) {
    cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
    // DIALECT: tiled-partition-width.cpp:[[@LINE-1]]:27: warning: 'thread_block_tile<64>' needs a warp of at least 64 lanes
    // DIALECT: :[[@LINE-2]]:27: note: MVECTOR_MIN
    // DIALECT: tiled-partition-width.cpp:[[@LINE-3]]:58: warning: 'tiled_partition<64>' needs a warp of at least 64 lanes
    // DIALECT: :[[@LINE-4]]:58: note: MVECTOR_MIN
    // FIXIT: fix-it:"{{.*}}tiled-partition-width.cpp":{[[@LINE-5]]:27-[[@LINE-5]]:29}:"MVECTOR_MIN"
    // FIXIT: fix-it:"{{.*}}tiled-partition-width.cpp":{[[@LINE-6]]:58-[[@LINE-6]]:60}:"MVECTOR_MIN"
    // OUT: cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
    p[i.getX()] = int(tile.size());
  });
}
#endif
