// Devices on the CPU reference runtime (test/runtime/devices.test): data
// split over every simulated device, computed there, copied back and checked
// against plain C++; futures across devices; and the errors, each at the
// line marked "LINE: name" (run with that name as the argument).
#include <hpp/hpp.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace hpp;

static int run(const std::string &Mode) {
  const int N = getDeviceCount();
  const std::vector<Device> Ds = getDevices();
  if (Mode == "count") {
    std::printf("devices: %d %zu default: %d\n", N, Ds.size(),
                getDefaultDevice().getId());
    Pointer<int> P = allocate<int>(4);
    std::printf("allocate on: %d\n", P.getDevice().getId());
    deallocate(P);
    return 0;
  }
  if (Mode == "main") {
    // Data split over the devices: each part copied to its device,
    // computed there, copied back.
    const std::size_t Total = 1000;
    Pointer<float> In = allocate<float>(Total), Out = allocate<float>(Total);
    for (std::size_t I = 0; I != Total; ++I)
      In[I] = float(I % 97) * 0.5f;
    std::vector<float> TaskSums;
    for (int D = 0; D != N; ++D) {
      const std::size_t Begin = Total * D / N, End = Total * (D + 1) / N;
      const std::size_t Len = End - Begin;
      Pointer<float> Part = allocate<float>(Len, Ds[D]);
      if (Part.getDevice() != Ds[D])
        std::printf("wrong device\n");
      copy(Part, 0, In, Begin, Len);
      parallelFor(Ds[D], Range<1>(Len), [=](Index<1> I) __device(hpp) {
        Part[I] = Part[I] * 2.0f + 1.0f;
      });
      Task<float, Index<1>> T([=](Index<1> I) __device(hpp) {
        return Part[I] + 1.0f;
      });
      std::vector<float> V = T.enqueue(Ds[D], Range<1>(Len)).get();
      for (std::size_t I = 0; I != Len; ++I)
        if (!(std::fabs(V[I] - (float((Begin + I) % 97) + 2.0f)) <= 1e-6f))
          std::printf("task result %zu wrong\n", Begin + I);
      // The runtime's algorithms run on their input's device.
      Pointer<float> Scan = allocate<float>(Len, Ds[D]);
      inclusiveScan(Part, Scan, Len);
      if (Len && !(std::fabs(Scan[Len - 1] - reduce(Part, Len)) <= 1e-2f))
        std::printf("scan/reduce on device %d wrong\n", D);
      copy(Out, Begin, Part, 0, Len);
      deallocate(Scan);
      deallocate(Part);
    }
    std::size_t Bad = 0;
    for (std::size_t I = 0; I != Total; ++I)
      if (!(std::fabs(Out[I] - (float(I % 97) + 1.0f)) <= 1e-6f))
        ++Bad;
    std::printf("parts: %zu wrong; %s\n", Bad, Bad ? "FAILED" : "verified");

    // The same part sizes with per-work-group memory, on each device.
    const std::size_t G = 64;
    Pointer<int> Sums = allocate<int>(N * 4);
    for (int D = 0; D != N; ++D) {
      Pointer<int> Local = allocate<int>(4 * G, Ds[D]);
      DistArray<int> Arr;
      Region<int> R = Arr.allocRegion(G);
      parallelFor(Ds[D], Range<1, 1>(Range<1>(4 * G), Range<1>(G)), Arr,
                  [=](Index<1, 1> I, BoundDistArray<int> A) __device(hpp) {
                    Segment<int> S = A(R);
                    S[I.getLocalX()] = int(I.getX()) + D;
                    S.barrier();
                    if (I.getLocalX() == 0) {
                      int Sum = 0;
                      for (std::size_t K = 0; K != G; ++K)
                        Sum += S[K];
                      Local[I.getGroupX()] = Sum;
                    }
                  });
      copy(Sums, std::size_t(D) * 4, Local, 0, 4);
      deallocate(Local);
    }
    Bad = 0;
    for (int D = 0; D != N; ++D)
      for (int Grp = 0; Grp != 4; ++Grp) {
        int Want = 0;
        for (std::size_t K = 0; K != G; ++K)
          Want += int(Grp * G + K) + D;
        Bad += Sums[D * 4 + Grp] != Want;
      }
    std::printf("groups: %zu wrong; %s\n", Bad, Bad ? "FAILED" : "verified");

    // Futures across devices: a task on the first device, a copy to the
    // last after it, a task on the last after the copy.
    const Device First = Ds.front(), Last = Ds.back();
    const std::size_t M = 300;
    Pointer<int> A = allocate<int>(M, First), B = allocate<int>(M, Last);
    Task<void, Index<1>> Fill([=](Index<1> I) __device(hpp) {
      A[I] = int(I) * 3;
    });
    Task<int, Index<1>> Read([=](Index<1> I) __device(hpp) {
      return B[I] + 1;
    });
    Future<void> F = Fill.enqueue(First, Range<1>(M));
    Future<void> C = copyAsync(B, 0, A, 0, M, F);
    std::vector<int> V = Read.enqueue(Last, Range<1>(M), C).get();
    Bad = 0;
    for (std::size_t I = 0; I != M; ++I)
      Bad += V[I] != int(I) * 3 + 1;
    Future<void> C2 = copyAsync(A, 0, B, 100, 200);
    C2.wait();
    Bad += A[0] != 300 || A[199] != 897 || A[200] != 600;
    std::printf("futures: %zu wrong; %s\n", Bad, Bad ? "FAILED" : "verified");

    // Peer access: kernels on the first device use the last one's memory.
    std::printf("canAccessPeer: %d\n", int(canAccessPeer(First, Last)));
    enablePeerAccess(First, Last);
    enablePeerAccess(First, Last); // Twice is harmless.
    Pointer<int> Total2 = allocate<int>(1, First);
    parallelFor(First, Range<1>(M), [=](Index<1> I) __device(hpp) {
      atomicAdd(&Total2[0], B[I]);
    });
    std::printf("peer sum: %d\n", *Total2);

    // A failed task: the copy after it does not happen and fails naming it.
    Task<void, Index<1>> Boom([=](Index<1> I) __device(hpp) {
      if (I.getX() == 3)
        throw RuntimeError("body", "devices.cpp", 1, "boom");
    });
    Future<void> FB = Boom.enqueue(Last, Range<1>(8));
    A[0] = -1;
    Future<void> CB = copyAsync(B, 0, A, 0, 1, FB);
    try {
      CB.wait();
      std::printf("no error\n");
    } catch (const RuntimeError &E) {
      std::printf("failed after: %s\nB[0] still %d\n", E.what(), B[0]);
    }
    deallocate(A);
    deallocate(B);
    deallocate(Total2);
    deallocate(In);
    deallocate(Out);
    return 0;
  }
  // The errors: device 0's memory in kernels on the last device.
  const Device Last = Ds.back();
  Pointer<float> Mem = allocate<float>(16, Device(0)); // LINE: alloc
  if (Mode == "forgot") {
    // One work-item of the last of 16 work-groups, whichever pool thread
    // runs it.
    parallelFor(Last, Range<1>(4096), [=](Index<1> I) __device(hpp) { // LINE: forgot
      if (I.getX() == 4000)
        Mem[I.getX() % 16] += 1.0f;
    });
  } else if (Mode == "forgot-task") {
    Task<float, Index<1>> T([=](Index<1> I) __device(hpp) { return Mem[I]; });
    Future<std::vector<float>> F = T.enqueue(Last, Range<1>(16)); // LINE: forgot-task
    F.get();
  } else if (Mode == "peer") {
    std::printf("canAccessPeer: %d %d\n", int(canAccessPeer(Last, Device(0))),
                int(canAccessPeer(Last, Last)));
    Pointer<float> Dst = allocate<float>(16, Last);
    Mem[5] = 2.5f;
    copy(Dst, Mem, 16);
    std::printf("copied: %g\n", Dst[5]);
    enablePeerAccess(Last, Device(0)); // LINE: peer
    parallelFor(Last, Range<1>(16), [=](Index<1> I) __device(hpp) {
      Mem[I] += Dst[I];
    });
    std::printf("peer: %g\n", Mem[5]);
  } else if (Mode == "algo") {
    Pointer<float> In = allocate<float>(16, Last);
    std::printf("reduce: %g\n", reduce(In, 16));
    inclusiveScan(In, Mem, 16); // LINE: algo
  } else if (Mode == "baddev") {
    allocate<float>(16, Device(7)); // LINE: baddev
  } else if (Mode == "baddev-launch") {
    parallelFor(Device(7), Range<1>(16), [=](Index<1>) __device(hpp) {}); // LINE: baddev-launch
  } else if (Mode == "oob") {
    Pointer<float> Dst = allocate<float>(8, Last);
    copy(Dst, 2, Mem, 12, 6); // LINE: oob
  } else if (Mode == "oob-async") {
    Pointer<float> Dst = allocate<float>(8, Last);
    copyAsync(Dst, 0, Mem, 0, 9); // LINE: oob-async
  }
  std::printf("no error\n");
  return 0;
}

int main(int argc, char **argv) {
  try {
    if (argc > 1 && std::strcmp(argv[1], "env") == 0) {
      std::printf("default: %d\n", getDefaultDevice().getId()); // LINE: env
      return 0;
    }
    if (argc > 1 && std::strcmp(argv[1], "envcount") == 0) {
      std::printf("devices: %d\n", getDeviceCount()); // LINE: envcount
      return 0;
    }
    return run(argc > 1 ? argv[1] : "main");
  } catch (const RuntimeError &E) {
    std::printf("error: %s\n", E.what());
    return 1;
  }
}
