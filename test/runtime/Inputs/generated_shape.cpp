// A hand-written source in the shape hpp-rewrite produces (docs/design.md):
// outlined __global__ kernels taking the range and the captures, launched
// through hpp::launchKernel. It must compile unchanged with nvcc, hipcc and
// a plain C++ compiler (the CPU backend), and, run, it checks its results.
#include <hpp/runtime.h>
using namespace hpp;

#include <cstdio>

/// Outlined by hpp-rewrite from the parallelFor at shape.cpp:12:3.
__global__ void hpp_saxpy_pfor0(hpp::Range<1, 1> hpp_range, const float a,
                                const hpp::Pointer<float> x,
                                const hpp::Pointer<float> y,
                                const hpp::Pointer<int> group,
                                const hpp::Pointer<Atomic<int>> ran) {
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    // y = a * x + y, one work-item per element; the trailing work-items of
    // the last group must not get here.
    size_t k = i.getX();
    y[k] = a * x[k] + y[k];
    group[k] = int(i.getGroupX() * 10000 + i.getLocalX() * 10 +
                   (i.getLocalSizeX() == 64 ? 1 : 0));
    ran[0].add(1);
  }
}

void saxpy(float a, Pointer<float> x, Pointer<float> y, Pointer<int> group,
           Pointer<Atomic<int>> ran, int n) {
  hpp::launchKernel(hpp_saxpy_pfor0, Range<1, 1>(Range<1>(n), Range<1>(64)), a,
                    x, y, group, ran);
}

/// Outlined by hpp-rewrite from the parallelFor at shape.cpp:30:3.
__global__ void hpp_fill2d_pfor0(hpp::Range<2> hpp_range,
                                 const hpp::Pointer<int> out, const int nx) {
  hpp::Index<2> idx = hpp::detail::kernelIndex(hpp_range);
  if (!idx.inGlobalRange())
    return;
  {
    // Work-group shared memory; each work-item uses its own slot, so no
    // barrier is needed.
    __shared__ int slot[16 * 16];
    const size_t l = idx.getLocalY() * 16 + idx.getLocalX();
    slot[l] = int(idx.getX() + 1000 * idx.getY()) *
              (idx.getLocalSizeX() == 16 && idx.getLocalSizeY() == 16 &&
                       idx.getGlobalSizeY() == idx.get_global_size(1)
                   ? 1
                   : -1);
    out[idx.getY() * nx + idx.getX()] = slot[l];
  }
}

void fill2d(Pointer<int> out, int nx, int ny) {
  hpp::launchKernel(hpp_fill2d_pfor0, Range<2>(nx, ny), out, nx);
}

/// Was `__device(hpp) inline int flatten(...)` in the dialect source.
__host__ __device__ inline int flatten(int x, int y, int z) {
  return x + 100 * y + 10000 * z;
}

/// Outlined by hpp-rewrite from the parallelFor at shape.cpp:45:3.
__global__ void hpp_fill3d_pfor0(hpp::Range<3> hpp_range,
                                 const hpp::Pointer<int> out, const int nx,
                                 const int ny) {
  hpp::Index<3> idx = hpp::detail::kernelIndex(hpp_range);
  if (!idx.inGlobalRange())
    return;
  {
    size_t k = (idx.getZ() * ny + idx.getY()) * nx + idx.getX();
    out[k] = flatten(int(idx.getX()), int(idx.getY()), int(idx.getZ()));
  }
}

void fill3d(Pointer<int> out, int nx, int ny, int nz) {
  hpp::launchKernel(hpp_fill3d_pfor0, Range<3>(nx, ny, nz), out, nx, ny);
}

/// Outlined by hpp-rewrite from the parallelFor at shape.cpp:60:3.
template <class T>
__global__ void hpp_reduce_pfor0(hpp::Range<1> hpp_range,
                                 const hpp::Pointer<T> in,
                                 const hpp::Pointer<hpp::Atomic<T>> acc) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    T v = in[i.getX()];
    acc[0].add(v);
    acc[1].min(v);
    acc[2].max(v);
    atomicAdd(acc, T(1)); // free function on Pointer<Atomic<T>>: acc[0] += 1
    acc[3].compareExchange(T(0), T(7));
    acc[4].exchange(T(3));
    acc[5].sub(T(1));
  }
}

template <class T> void reduce(Pointer<T> in, Pointer<Atomic<T>> acc, int n) {
  hpp::launchKernel(hpp_reduce_pfor0<T>, Range<1>(n), in, acc);
}

/// Outlined by hpp-rewrite from the parallelFor at shape.cpp:80:3.
__global__ void hpp_warp_pfor0(hpp::Range<1> hpp_range,
                               const hpp::Pointer<int> out) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {
    out[0] = hpp::getWarpSize();
    out[1] = int(hpp::getWarpFullMask() == ~hpp::LaneMask(0));
  }
}

/// Outlined by hpp-rewrite from the parallelFor at shape.cpp:90:3 (no
/// captures).
__global__ void hpp_nothing_pfor0(hpp::Range<1> hpp_range) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  {}
}

static int Failures = 0;
static void expect(bool Ok, const char *What) {
  if (!Ok) {
    std::printf("FAILED: %s\n", What);
    ++Failures;
  }
}

template <class T> static void checkReduce(const char *Name, int n) {
  Pointer<T> in = allocate<T>(n);
  Pointer<Atomic<T>> acc = allocate<Atomic<T>>(6);
  T Sum = 0;
  for (int k = 0; k < n; ++k) {
    in[k] = T((k * 37) % 101); // 0..100, both ends reached
    Sum += in[k];
  }
  acc[1].store(T(1000));
  acc[2].store(T(0));
  acc[5].store(T(n));
  reduce<T>(in, acc, n);
  expect(acc[0].load() == Sum + T(n), "reduce: add");
  expect(acc[1].load() == T(0), "reduce: min");
  expect(acc[2].load() == T(100), "reduce: max");
  expect(acc[3].load() == T(7), "reduce: compareExchange");
  expect(acc[4].load() == T(3), "reduce: exchange");
  expect(acc[5].load() == T(0), "reduce: sub");
  std::printf("reduce<%s>: sum %.1f min %.1f max %.1f\n", Name,
              double(acc[0].load()), double(acc[1].load()),
              double(acc[2].load()));
  deallocate(acc);
  deallocate(in);
}

int main() {
  try {
    // 1D with a local range and trailing work-items: 1000 = 15 * 64 + 40.
    const int n = 1000;
    Pointer<float> x = allocate<float>(n), y = allocate<float>(n);
    Pointer<int> group = allocate<int>(n);
    Pointer<Atomic<int>> ran = allocate<Atomic<int>>(1);
    for (int k = 0; k < n; ++k) {
      x[k] = float(k);
      y[k] = 1.0f;
    }
    saxpy(2.0f, x, y, group, ran, n);
    bool Ok = true;
    for (int k = 0; k < n; ++k)
      Ok = Ok && y[k] == 2.0f * k + 1.0f &&
           group[k] == (k / 64) * 10000 + (k % 64) * 10 + 1;
    expect(Ok, "saxpy: values and indices");
    expect(ran[0].load() == n, "saxpy: trailing work-items did not run");
    std::printf("saxpy: y[999] = %.1f, %d work-items ran, last group %d\n",
                y[n - 1], ran[0].load(), group[n - 1] / 10000);

    // 2D, default 16x16 work-groups, extents not multiples of 16.
    const int nx = 37, ny = 19;
    Pointer<int> out2 = allocate<int>(nx * ny);
    fill2d(out2, nx, ny);
    Ok = true;
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        Ok = Ok && out2[j * nx + i] == i + 1000 * j;
    expect(Ok, "fill2d");
    std::printf("fill2d: out[18][36] = %d\n", out2[18 * nx + 36]);

    // 3D, default 8x8x4 work-groups.
    const int mx = 10, my = 9, mz = 5;
    Pointer<int> out3 = allocate<int>(mx * my * mz);
    fill3d(out3, mx, my, mz);
    Ok = true;
    for (int k = 0; k < mz; ++k)
      for (int j = 0; j < my; ++j)
        for (int i = 0; i < mx; ++i)
          Ok = Ok && out3[(k * my + j) * mx + i] == i + 100 * j + 10000 * k;
    expect(Ok, "fill3d");
    std::printf("fill3d: out[4][8][9] = %d\n", out3[(4 * my + 8) * mx + 9]);

    // A template kernel, launched as hpp_reduce_pfor0<T>, over atomics.
    checkReduce<int>("int", 4096);
    checkReduce<unsigned>("unsigned", 4096);
    checkReduce<long long>("long long", 4096);
    checkReduce<unsigned long long>("unsigned long long", 4096);
    checkReduce<float>("float", 4096);
    checkReduce<double>("double", 4096);

    // An empty range launches nothing.
    fill2d(out2, 0, ny);
    hpp::launchKernel(hpp_nothing_pfor0, Range<1>(0));
    hpp::launchKernel(hpp_nothing_pfor0, Range<1>(5));
    expect(out2[0] == 0, "empty range");

    // Warp width.
    Pointer<int> warp = allocate<int>(2);
    hpp::launchKernel(hpp_warp_pfor0, Range<1>(1), warp);
    const int Host = hpp::getWarpSize(0);
    expect(warp[0] == Host, "device and host warp size agree");
    std::printf("warp: device %d host %d max %d min %d mask %d bits %s\n",
                warp[0], Host, hpp::getMaxWarpSize(), hpp::getMinWarpSize(),
                int(sizeof(hpp::LaneMask) * 8), warp[1] ? "full" : "low32");
    static_assert(MVECTOR_MAX == hpp::getMaxWarpSize(), "MVECTOR_MAX");
    static_assert(MVECTOR_MIN == 32, "MVECTOR_MIN");

    deallocate(warp);
    deallocate(out3);
    deallocate(out2);
    deallocate(ran);
    deallocate(group);
    deallocate(y);
    deallocate(x);
  } catch (const hpp::RuntimeError &E) {
    std::printf("RuntimeError: %s\n", E.what());
    return 2;
  }
  std::printf("%s\n", Failures == 0 ? "ALL OK" : "SOME FAILED");
  return Failures == 0 ? 0 : 1;
}
