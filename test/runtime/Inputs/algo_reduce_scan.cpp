// hpp::reduce, hpp::inclusiveScan and hpp::exclusiveScan on the device
// runtime (test/runtime/algo-reduce-scan-builds.test): float, double, int
// and long long, Plus, Maximum and a user functor, in place and not, each
// result compared bit for bit with the reference of
// hpp/core/algorithm_order.h. On the CPU backend the kernels are that
// reference; on a GPU (run by hand) the kernels of
// runtime/hpp/backend/gpu_reduce.h and gpu_scan.h.
#include <hpp/runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

/// A user functor: the sum of absolute values (associative only up to
/// rounding, which is what the fixed order is for).
struct AbsPlus {
  template <class T> HPP_HD T operator()(const T &A, const T &B) const {
    return (A < T(0) ? -A : A) + (B < T(0) ? -B : B);
  }
};

static int Cases = 0, Failed = 0;

template <class T> static T value(std::size_t K) {
  std::size_t H = (K * 2654435761u) ^ (K >> 7);
  return T(static_cast<long long>(H % 2001) - 1000) / T(8);
}

template <class T, class Op>
static void check(std::size_t N, const char *TypeName, const char *OpName) {
  hpp::Pointer<T> In = hpp::allocate<T>(N ? N : 1);
  hpp::Pointer<T> Out = hpp::allocate<T>(N ? N : 1);
  std::vector<T> Host(N), Ref(N ? N : 1), Got(N ? N : 1);
  for (std::size_t K = 0; K < N; ++K)
    In[K] = Host[K] = value<T>(K);
  const T Init = T(3);
  auto Report = [&](const char *What, bool Ok) {
    ++Cases;
    if (!Ok) {
      ++Failed;
      std::printf("FAIL %s %s %s n=%zu\n", What, TypeName, OpName, N);
    }
  };
  const T R = hpp::reduce(In, N, Init, Op());
  const T RRef = hpp::detail::refReduce(Host.data(), N, Init, Op());
  Report("reduce", std::memcmp(&R, &RRef, sizeof(T)) == 0);
  for (int Exclusive = 0; Exclusive < 2; ++Exclusive)
    for (int InPlace = 0; InPlace < 2; ++InPlace) {
      for (std::size_t K = 0; K < N; ++K)
        In[K] = Host[K];
      hpp::Pointer<T> Dst = InPlace ? In : Out;
      if (Exclusive)
        hpp::exclusiveScan(In, Dst, N, Init, Op());
      else
        hpp::inclusiveScan(In, Dst, N, Op());
      hpp::detail::refScan(Host.data(), Ref.data(), N, Exclusive != 0, Init,
                           Op());
      for (std::size_t K = 0; K < N; ++K)
        Got[K] = Dst[K];
      Report(Exclusive
                 ? (InPlace ? "exclusiveScan(in place)" : "exclusiveScan")
                 : (InPlace ? "inclusiveScan(in place)" : "inclusiveScan"),
             N == 0 || std::memcmp(Got.data(), Ref.data(), N * sizeof(T)) == 0);
    }
  hpp::deallocate(Out);
  hpp::deallocate(In);
}

template <class T> static void checkType(const char *TypeName) {
  const std::size_t Sizes[] = {0, 1, 33, 4097, 8193, 70001};
  for (std::size_t N : Sizes) {
    check<T, hpp::Plus<T>>(N, TypeName, "Plus");
    check<T, hpp::Maximum<T>>(N, TypeName, "Maximum");
    check<T, AbsPlus>(N, TypeName, "AbsPlus");
  }
}

int main() {
  try {
    checkType<float>("float");
    checkType<double>("double");
    checkType<int>("int");
    checkType<long long>("long long");
  } catch (const hpp::RuntimeError &E) {
    std::printf("RuntimeError: %s\n", E.what());
    return 1;
  }
  std::printf("algorithms: %d cases, %d failed\n", Cases, Failed);
  return Failed ? 1 : 0;
}
