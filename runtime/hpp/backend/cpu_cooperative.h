//===- hpp/backend/cpu_cooperative.h - Cooperative launches on the CPU ----===//
//
// Part of hpp-rewrite. Device runtime, CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A cooperative launch on the CPU backend: the kernel calls __gpu_sync (or
/// waits across work-groups), so every work-group must be resident at once.
/// Each work-group runs on its own host thread (the backend's `__shared__`
/// variables are thread_local, so two groups cannot share a thread), its
/// work-items fibers of a GroupExecutor bound to this launch
/// (hpp::cpu::LaunchContext): a launch-wide wait parks the work-item, and a
/// group whose remaining work-items all wait so suspends while its thread
/// sleeps until another group releases something. When every thread sleeps
/// the launch is deadlocked: hpp::RuntimeError with a waiting work-item's
/// file:line, never a hang. A launch larger than HPP_CPU_MAX_RESIDENT
/// work-items, or than 4096 work-groups, cannot be resident: refused as a
/// GPU refuses it.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_COOPERATIVE_H
#define HPP_RUNTIME_BACKEND_CPU_COOPERATIVE_H

#include "hpp/backend/cpu_executor.h"
#include "hpp/cpu/device_sim.h"
#include "hpp/cpu/launch_context.h"

#include <string>
#include <thread>
#include <vector>

namespace hpp {
namespace cpu_backend {

/// The most work-groups a cooperative launch may have on the CPU backend
/// (one host thread each).
constexpr std::uint64_t MaxCooperativeGroups = 4096;

/// Runs a cooperative launch: every work-group at once, each on a thread.
/// The work-item reaches it through a function and a pointer, as in
/// GridExecutor: compiled once, not once per kernel.
class CooperativeExecutor : public hpp::cpu::LaunchContext {
public:
  /// \p Options: the work-items that run the body (InRange, __gpu_sync's
  /// participants), each work-group's dynamic shared memory and the
  /// range's global size. \p Run (\p Item) runs one work-item.
  CooperativeExecutor(const dim3 &Grid, const dim3 &Block,
                      const hpp::detail::LaunchOptions &Options,
                      void (*Run)(void *), void *Item)
      : LaunchContext(Options.InRange), Grid(Grid), Block(Block),
        SharedBytes(Options.SharedBytes), Global{Options.GlobalSize[0],
                                                 Options.GlobalSize[1],
                                                 Options.GlobalSize[2]},
        RunItem(Run), ItemArg(Item), Width(hpp::cpu::mvectorWidth()) {}

  void run() {
    const std::uint64_t Groups = itemCount(Grid);
    const std::uint64_t Items = Groups * itemCount(Block);
    if (Items > hpp::cpu::maxResidentItems() || Groups > MaxCooperativeGroups)
      throw RuntimeError(
          "hpp::launchKernel", __FILE__, __LINE__,
          "a launch with __gpu_sync needs its " + std::to_string(Groups) +
              " work-groups (" + std::to_string(Items) +
              " work-items) resident at once; the CPU backend holds at most " +
              std::to_string(hpp::cpu::maxResidentItems()) +
              " work-items (HPP_CPU_MAX_RESIDENT) in at most " +
              std::to_string(MaxCooperativeGroups) + " work-groups");
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Active = unsigned(Groups);
    }
    std::vector<std::thread> Threads;
    Threads.reserve(Groups);
    // Its work-items run on the launching thread's device (as the thread
    // pool's do: hpp/cpu/thread_pool.h).
    const hpp::cpu::DeviceSite Site = hpp::cpu::currentLaunchSite();
    for (std::uint64_t N = 0; N != Groups; ++N)
      Threads.emplace_back([this, N, Site] {
        hpp::cpu::ExecutingScope OnDevice(Site);
        work(N);
      });
    for (std::thread &T : Threads)
      T.join();
    if (Error)
      std::rethrow_exception(Error);
  }

private:
  void work(std::uint64_t N) {
    gridDim = Grid;
    blockDim = Block;
    blockIdx = dim3(unsigned(N % Grid.x), unsigned(N / Grid.x % Grid.y),
                    unsigned(N / (std::uint64_t(Grid.x) * Grid.y)));
    const unsigned X = Block.x, XY = Block.x * Block.y;
    auto Item = [this](std::size_t) { RunItem(ItemArg); };
    auto OnResume = [X, XY](std::size_t Id) {
      const unsigned L = static_cast<unsigned>(Id);
      threadIdx = dim3(L % X, L % XY / X, L / XY);
    };
    try {
      beginGroupMemory(SharedBytes, blockIdx);
      hpp::cpu::GroupExecutor Exec(Width);
      Exec.setLaunch(this, std::size_t(N));
      const hpp::detail::IndexFields Fields =
          groupFields(Grid, Block, blockIdx, Global);
      Exec.setIndexBase(groupIndexBase(Fields));
      Exec.start(std::size_t(itemCount(Block)), Item, OnResume);
      for (;;) {
        if (Failed.load(std::memory_order_relaxed)) {
          Exec.abandon();
          break;
        }
        const std::uint64_t Seen = epoch();
        bool Done = true;
        try {
          Done = Exec.resume();
        } catch (...) {
          fail(std::current_exception()); // The group is over.
        }
        if (Done)
          break;
        if (!sleep(Seen, Exec.firstParked(), std::size_t(N))) {
          Exec.abandon();
          break;
        }
      }
    } catch (...) {
      fail(std::current_exception());
    }
    leave();
  }

  dim3 Grid;
  dim3 Block;
  std::size_t SharedBytes;
  std::size_t Global[3];
  void (*RunItem)(void *);
  void *ItemArg;
  unsigned Width;
};

} // namespace cpu_backend
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_CPU_COOPERATIVE_H
