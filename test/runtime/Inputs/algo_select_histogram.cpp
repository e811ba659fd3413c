//===- test/runtime/Inputs/algo_select_histogram.cpp - select, histogram --===//
//
// Part of hpp-rewrite. Input of algo-select-histogram-builds.test: calls
// hpp::select and hpp::histogram through <hpp/runtime.h> with every element
// type, sample type and count type they take, so that each backend's
// kernels are instantiated (on a GPU: backend/gpu_select.h and
// backend/gpu_histogram.h), and prints what the CPU backend computes.
//
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>

#include <cstdio>

/// Keeps x below a bound.
template <class T> struct Below {
  T Bound;
  HPP_HD bool operator()(const T &X) const { return X < Bound; }
};

/// Selects the elements of 0, 1, ..., N - 1 below N / 3.
template <class T> std::size_t selectThird(std::size_t N) {
  hpp::Pointer<T> In = hpp::allocate<T>(N), Out = hpp::allocate<T>(N);
  for (std::size_t I = 0; I < N; ++I)
    In[I] = T(I);
  const std::size_t Kept = hpp::select(In, Out, N, Below<T>{T(N / 3)});
  const bool Ordered = Kept == 0 || Out[Kept - 1] == T(Kept - 1);
  hpp::deallocate(Out);
  hpp::deallocate(In);
  return Ordered ? Kept : ~std::size_t(0);
}

/// Counts I % 300 for I < N in 10 bins over [Lo, Hi); returns bins[0] and
/// bins[9] as one number.
template <class T, class C> long long histogramOf(std::size_t N, T Lo, T Hi) {
  hpp::Pointer<T> In = hpp::allocate<T>(N);
  hpp::Pointer<C> Bins = hpp::allocate<C>(10);
  for (std::size_t I = 0; I < N; ++I)
    In[I] = T(I % 300);
  hpp::histogram(In, N, Bins, 10, Lo, Hi);
  const long long R = (long long)Bins[0] * 100000 + (long long)Bins[9];
  hpp::deallocate(Bins);
  hpp::deallocate(In);
  return R;
}

int main() {
  try {
    std::printf("select float %zu\n", selectThird<float>(10000));
    std::printf("select double %zu\n", selectThird<double>(10000));
    std::printf("select int %zu\n", selectThird<int>(10000));
    std::printf("select unsigned %zu\n", selectThird<unsigned>(10000));
    std::printf("select long long %zu\n", selectThird<long long>(10000));
    std::printf("histogram float %lld\n",
                histogramOf<float, int>(3000, 0.0f, 100.0f));
    std::printf("histogram double %lld\n",
                histogramOf<double, unsigned long long>(3000, 0.0, 100.0));
    std::printf("histogram int %lld\n",
                histogramOf<int, unsigned>(3000, 0, 100));
    std::printf("histogram unsigned char %lld\n",
                histogramOf<unsigned char, long long>(3000, 0, 100));
    std::printf("histogram short %lld\n",
                histogramOf<short, int>(3000, 0, 100));
  } catch (const hpp::RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
  return 0;
}
