// The order hpp::reduce folds the tiles' values in (hpp/core/algorithm_order.h,
// refReduceTree): its shape for 1 to 9 values, written out, and the same
// tree defined another way (the balanced binary tree over the next power of
// two, a missing right child leaving the left one) against refReduceTree
// and refReduce for every count of values up to 1100, with an operation
// that is neither associative nor commutative (any other order changes the
// result). test/runtime/reduce-order.test checks the output.
#include "hpp/core/algorithm_order.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Shape {
  std::string operator()(const std::string &A, const std::string &B) const {
    return "(" + A + " " + B + ")";
  }
};

/// Neither associative nor commutative.
struct Mix {
  std::uint64_t operator()(std::uint64_t A, std::uint64_t B) const {
    return A * 1000003u + (B ^ (B >> 7)) + 17;
  }
};

/// The node over values [Lo, Lo + Size) of V[0 .. M) (Size a power of two,
/// Lo < M): the aligned binary tree.
std::uint64_t node(const std::vector<std::uint64_t> &V, std::size_t Lo,
                   std::size_t Size) {
  if (Size == 1)
    return V[Lo];
  const std::uint64_t Left = node(V, Lo, Size / 2);
  if (Lo + Size / 2 >= V.size())
    return Left;
  return Mix()(Left, node(V, Lo + Size / 2, Size / 2));
}

std::uint64_t tree(const std::vector<std::uint64_t> &V) {
  std::size_t Size = 1;
  while (Size < V.size())
    Size *= 2;
  return node(V, 0, Size);
}

} // namespace

int main() {
  using namespace hpp::detail;
  Shape S;
  for (std::size_t M = 1; M <= 9; ++M) {
    std::vector<std::string> V;
    for (std::size_t I = 0; I < M; ++I)
      V.push_back(std::to_string(I));
    std::printf("%zu: %s\n", M, refReduceTree(V.data(), M, S).c_str());
  }
  Mix O;
  int Bad = 0;
  for (std::size_t M = 1; M <= 1100; ++M) {
    std::vector<std::uint64_t> V(M);
    for (std::size_t I = 0; I < M; ++I)
      V[I] = I * 2654435761u + M;
    std::vector<std::uint64_t> W = V;
    if (refReduceTree(W.data(), M, O) != tree(V))
      ++Bad;
  }
  // refReduce: the tiles (ReduceShape<uint64_t>::Tile = 4096 elements),
  // then the tree over their values, then init.
  const std::size_t Tile = ReduceShape<std::uint64_t>::Tile;
  for (std::size_t N : {std::size_t(1), Tile, Tile + 1, 5 * Tile + 3}) {
    std::vector<std::uint64_t> In(N), Tiles;
    for (std::size_t I = 0; I < N; ++I)
      In[I] = I * 11400714819323198485ull;
    for (std::size_t B = 0; B < N; B += Tile)
      Tiles.push_back(
          refReduceTile(In.data() + B, N - B < Tile ? N - B : Tile, O));
    if (refReduce(In.data(), N, std::uint64_t(5), O) != O(5, tree(Tiles)))
      ++Bad;
  }
  std::printf("tree: %d differences\n", Bad);
  return Bad != 0;
}
