//===- test/Inputs/mock/cooperative_groups.h - Mock cooperative groups ----===//
//
// Part of hpp-rewrite's tests: just enough of <cooperative_groups.h> for
// the rewriter to parse a dialect source that partitions work-groups into
// tiles, with no CUDA or ROCm SDK installed. Like the SDK's, the API lives
// in a versioned namespace inside cooperative_groups. Never compiled into
// programs.
//
//===----------------------------------------------------------------------===//
#ifndef HPP_TEST_MOCK_COOPERATIVE_GROUPS_H
#define HPP_TEST_MOCK_COOPERATIVE_GROUPS_H
namespace cooperative_groups {
namespace __v1 {
class thread_block {
public:
  void sync() const {}
  unsigned thread_rank() const { return 0; }
};
inline thread_block this_thread_block() { return thread_block(); }

/// A tile of a known parent converts to the parent-erased tile, as in the
/// SDK.
template <unsigned Size, class ParentT = void> class thread_block_tile;
template <unsigned Size> class thread_block_tile<Size, void> {
public:
  void sync() const {}
  static constexpr unsigned size() { return Size; }
  unsigned thread_rank() const { return 0; }
  template <class T> T shfl_down(T Var, unsigned) const { return Var; }
};
template <unsigned Size, class ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {};

template <unsigned Size, class ParentT>
thread_block_tile<Size, ParentT> tiled_partition(const ParentT &) {
  return thread_block_tile<Size, ParentT>();
}
} // namespace __v1
using namespace __v1;
} // namespace cooperative_groups
#endif
