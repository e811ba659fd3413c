//===- hpp/backend/cpu_task.h - Enqueued tasks on the CPU backend ---------===//
//
// Part of hpp-rewrite. Device runtime, CPU backend.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// detail::submitTask for the CPU backend: the task becomes a
/// cpu::DeferredWork, run as the reference runtime runs its tasks
/// (hpp/cpu/sync.h). The shape is checked at the enqueue, as a GPU launch
/// checks it.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_TASK_H
#define HPP_RUNTIME_BACKEND_CPU_TASK_H

#include "hpp/core/error.h"
#include "hpp/core/future.h"
#include "hpp/core/range.h"
#include "hpp/cpu/sync.h"
#include "hpp/launch.h"

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace hpp {
namespace detail {

template <class R> std::vector<R> fetchHostResults(void *Out, std::size_t N) {
  const R *P = static_cast<const R *>(Out);
  return std::vector<R>(P, P + N);
}

/// Enqueues \p L's launch over \p Rg on device \p Device after \p After;
/// see the file comment.
template <class R, int N, class LauncherT>
Future<std::conditional_t<std::is_void<R>::value, void, std::vector<R>>>
submitTask(const std::shared_ptr<const LauncherT> &L, const Range<N, N> &Rg,
           std::vector<std::shared_ptr<Work>> After, int Device,
           const char *File, int Line) {
  using Slot = std::conditional_t<std::is_void<R>::value, char, R>;
  const LaunchShape Shape = launchShapeFor(Rg);
  if (Rg.size() && !cpu_backend::validShape(Shape.Grid, Shape.Block))
    throw RuntimeError("hpp::launchKernel", File, Line,
                       "invalid work-group shape " +
                           std::to_string(Shape.Block.x) + "x" +
                           std::to_string(Shape.Block.y) + "x" +
                           std::to_string(Shape.Block.z));
  const std::size_t Count = Rg.size();
  for (auto &D : After)
    D->addDependent();
  std::shared_ptr<Slot> Buffer(new Slot[Count ? Count : 1](),
                               std::default_delete<Slot[]>());
  auto W = std::make_shared<cpu::DeferredWork>(
      [L, Rg, Buffer, Device, File, Line] {
        LaunchOptions O;
        O.Task = true;
        try {
          // Its work-items run on the task's device.
          cpu::RunOnDevice OnDevice(Device, File, Line);
          if constexpr (std::is_void<R>::value)
            L->launch(O, Rg, TaskResult<void>{});
          else
            L->launch(O, Rg, TaskResult<R>{Buffer.get()});
        } catch (const RuntimeError &E) {
          if (isLaunchError(E))
            throw E.at(File, Line);
          throw;
        }
      },
      std::move(After), File, Line);
  cpu::TaskQueue::get().push(W);
  if constexpr (std::is_void<R>::value)
    return FutureAccess::make<void>(W, nullptr, 0);
  else
    return FutureAccess::make<std::vector<R>>(W, Buffer, Count,
                                              &fetchHostResults<R>);
}

} // namespace detail
} // namespace hpp

#endif // HPP_RUNTIME_BACKEND_CPU_TASK_H
