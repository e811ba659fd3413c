//===- test/runtime/Inputs/channel_errors.cpp - Channel misuse, rewritten -===//
//
// Part of hpp-rewrite. Input of channel-errors.test.
//
//===----------------------------------------------------------------------===//
//
// Channels misused, in the form hpp-rewrite emits: each mode must end in
// the RuntimeError (and the warning) that the CPU reference runtime gives
// for the same dialect program (include/hpp/cpu/channel.h). Usage:
// channel_errors MODE, MODE one of
//  - no-consumer: 10 writes into a channel of 4 without executeWith;
//  - never: the same with a predicate that holds for no size up to 4;
//  - task-full: a Task that writes 10 values into a channel of 4 without
//    a consumer: the error comes out of the future's wait();
//  - task-dropped: the same with the future destroyed unobserved: the
//    next parallelFor reports the error;
//  - task-chained: a Task that writes a channel whose consumer writes a
//    channel: refused at the enqueue (the device runtime's own);
//  - capacity0: a channel of capacity 0;
//  - twice: executeWith called twice;
//  - warning: 3 values left in a channel when it is destroyed (no error).
// Prints the error's what() and exits 1 when the expected RuntimeError
// arrives. The declaration of the channel is marked "DECL: MODE", the
// line the error names "LINE: MODE".
//
//===----------------------------------------------------------------------===//
#include <hpp/runtime.h>
using namespace hpp;

#include <cstdio>
#include <cstring>

__global__ void hpp_main_pfor0(hpp::Range<1> hpp_range,
                               hpp::detail::ChannelWriter<int> c) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  { c.write(int(i)); } // LINE: no-consumer LINE: never
}

__global__ void hpp_main_consumer0(hpp::Range<1, 1> hpp_range,
                                   hpp::detail::ChannelBatch<int> hpp_batch,
                                   const hpp::Pointer<int> Sum) {
  if (!hpp_batch.ready())
    return;
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  hpp::Span<int> data = hpp_batch.span();
  {
    if (i.getLocalX() < data.size())
      atomicAdd(Sum, data[i.getLocalX()]);
  }
}

__global__ void hpp_main_consumer1(hpp::Range<1, 1> hpp_range,
                                   hpp::detail::ChannelBatch<int> hpp_batch,
                                   hpp::detail::ChannelWriter<int> d) {
  if (!hpp_batch.ready())
    return;
  hpp::Index<1, 1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  hpp::Span<int> data = hpp_batch.span();
  {
    if (i.getLocalX() < data.size())
      d.write(data[i.getLocalX()]);
  }
}

__global__ void hpp_main_pfor1(hpp::Range<1> hpp_range,
                               const hpp::Pointer<int> Sum) {
  hpp::Index<1> i = hpp::detail::kernelIndex(hpp_range);
  if (!i.inGlobalRange())
    return;
  { Sum[0] = 1; }
}

__global__ void hpp_main_task0(hpp::Range<1, 1> hpp_range,
                               hpp::detail::TaskResult<void> hpp_result,
                               hpp::detail::ChannelWriter<int> c) {
  if (!hpp_result.runs())
    return;
  hpp::Index<1> i(hpp::detail::kernelIndex(hpp_range).fields());
  if (!i.inGlobalRange())
    return;
  { c.write(int(i)); } // LINE: task-full LINE: task-dropped
}

static int run(const char *Mode, Pointer<int> Sum) {
  try {
    if (!std::strcmp(Mode, "no-consumer")) {
      Channel<int> c(4); // DECL: no-consumer
      hpp::launchKernel(hpp_main_pfor0, Range<1>(10),
                        hpp::detail::channelWriter(c, 1u));
    } else if (!std::strcmp(Mode, "never")) {
      Channel<int> c(4); // DECL: never
      c.executeWith(
          [=](Channel<int>* c) -> bool __device(coord) { return c->size() > 4; },
          Range<1, 1>(4, 4), hpp::detail::consumerKernel(hpp_main_consumer0, Sum));
      hpp::launchKernel(hpp_main_pfor0, Range<1>(10),
                        hpp::detail::channelWriter(c, 1u));
    } else if (!std::strcmp(Mode, "task-full")) {
      Channel<int> c(4); // DECL: task-full
      Task<void, Index<1>> t(hpp::detail::taskKernel(
          hpp_main_task0, hpp::detail::channelWriter(c, 1u)));
      Future<void> f = t.enqueue(Range<1>(10)); // ENQUEUE: task-full
      f.wait();
    } else if (!std::strcmp(Mode, "task-dropped")) {
      Channel<int> c(4); // DECL: task-dropped
      Task<void, Index<1>> t(hpp::detail::taskKernel(
          hpp_main_task0, hpp::detail::channelWriter(c, 1u)));
      { Future<void> f = t.enqueue(Range<1>(10)); } // ENQUEUE: task-dropped
      hpp::launchKernel(hpp_main_pfor1, Range<1>(1), Sum); // SYNC: task-dropped
    } else if (!std::strcmp(Mode, "task-chained")) {
      Channel<int> d(64);
      Channel<int> c(64); // DECL: task-chained
      c.executeWith(
          [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 4; },
          Range<1, 1>(4, 4),
          hpp::detail::consumerKernel(hpp_main_consumer1,
                                      hpp::detail::channelWriter(d, 1u)));
      Task<void, Index<1>> t(hpp::detail::taskKernel(
          hpp_main_task0, hpp::detail::channelWriter(c, 1u)));
      Future<void> f = t.enqueue(Range<1>(8)); // LINE: task-chained
      f.wait();
    } else if (!std::strcmp(Mode, "capacity0")) {
      Channel<int> c(0); // LINE: capacity0
    } else if (!std::strcmp(Mode, "twice")) {
      Channel<int> c(8); // DECL: twice
      c.executeWith(
          [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 4; },
          Range<1, 1>(4, 4), hpp::detail::consumerKernel(hpp_main_consumer0, Sum));
      c.executeWith( // LINE: twice
          [=](Channel<int>* c) -> bool __device(coord) { return c->size() >= 2; },
          Range<1, 1>(4, 4), hpp::detail::consumerKernel(hpp_main_consumer0, Sum));
    } else if (!std::strcmp(Mode, "warning")) {
      Channel<int> c(10); // DECL: warning
      hpp::launchKernel(hpp_main_pfor0, Range<1>(3),
                        hpp::detail::channelWriter(c, 1u));
      std::printf("left: %zu\n", c.size());
      std::fflush(stdout);
      return 0;
    }
    std::printf("no error\n");
    return 0;
  } catch (const RuntimeError &E) {
    std::printf("what: %s\n", E.what());
    std::fflush(stdout);
    return 1;
  }
}

int main(int argc, char **argv) {
  Pointer<int> Sum = allocate<int>(1);
  const int Status = run(argc > 1 ? argv[1] : "", Sum);
  deallocate(Sum);
  return Status;
}
