// Part of hpp-rewrite: input of test/runtime/consumer-order.test, in the
// form of rewritten code. A channel consumer kernel may take the
// BoundDistArray before its batch, `(range, BoundDistArray<U>,
// ChannelBatch<T>, captures...)`, the order of the paper's consumer
// lambda (hpp/channel_kernel.h, BoundBeforeBatch), as well as after it
// (the order hpp-rewrite emits). Both sum the same batches.
#include <hpp/runtime.h>

#include <cstdio>

using namespace hpp;

constexpr std::size_t K = 64;

/// The paper's order: the BoundDistArray first.
__global__ void hpp_bound_first(hpp::Range<1, 1> hpp_range,
                                hpp::BoundDistArray<int> a,
                                hpp::detail::ChannelBatch<int> hpp_batch,
                                const hpp::Region<int> sums,
                                const hpp::Pointer<int> total) {
  if (!hpp_batch.ready())
    return;
  hpp::Index<1, 1> index = hpp::detail::kernelIndex(hpp_range);
  if (!index.inGlobalRange())
    return;
  hpp::Span<int> v = hpp_batch.span();
  Segment<int> s = a(sums);
  std::size_t l = index.getLocalX();
  s[l] = l < v.size() ? v[l] : 0;
  s.barrier();
  for (std::size_t half = K / 2; half > 0; half /= 2) {
    if (l < half)
      s[l] += s[l + half];
    s.barrier();
  }
  if (l == 0)
    atomicAdd(total, s[0]);
}

/// The order hpp-rewrite emits: the batch first.
__global__ void hpp_batch_first(hpp::Range<1, 1> hpp_range,
                                hpp::detail::ChannelBatch<int> hpp_batch,
                                hpp::BoundDistArray<int> a,
                                const hpp::Region<int> sums,
                                const hpp::Pointer<int> total) {
  if (!hpp_batch.ready())
    return;
  hpp::Index<1, 1> index = hpp::detail::kernelIndex(hpp_range);
  if (!index.inGlobalRange())
    return;
  hpp::Span<int> v = hpp_batch.span();
  Segment<int> s = a(sums);
  std::size_t l = index.getLocalX();
  s[l] = l < v.size() ? v[l] : 0;
  s.barrier();
  for (std::size_t half = K / 2; half > 0; half /= 2) {
    if (l < half)
      s[l] += s[l + half];
    s.barrier();
  }
  if (l == 0)
    atomicAdd(total, s[0]);
}

__global__ void hpp_write(hpp::Range<1> hpp_range,
                          hpp::detail::ChannelWriter<int> c) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  c.write(int(i.getX()));
}

template <class KernelT> int reduce(KernelT Kernel) {
  Pointer<int> total = allocate<int>(1);
  total[0] = 0;
  DistArray<int> darray;
  Region<int> sums = darray.allocRegion(K);
  Channel<int> c(2 * K);
  c.executeWith(
      [=](Channel<int> *c) -> bool __device(coord) { return c->size() >= K; },
      Range<1, 1>(K, K), darray,
      hpp::detail::consumerKernel(Kernel, sums, total));
  hpp::launchKernel(hpp_write, Range<1>(1024), hpp::detail::channelWriter(c, 1));
  int Sum = total[0];
  deallocate(total);
  return Sum;
}

int main() {
  std::printf("bound first: %d\n", reduce(hpp_bound_first));
  std::printf("batch first: %d\n", reduce(hpp_batch_first));
  return 0;
}
