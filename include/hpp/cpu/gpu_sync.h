//===- hpp/cpu/gpu_sync.h - __gpu_sync on the CPU -------------------------===//
//
// Part of hpp-rewrite. CPU reference runtime (also the device runtime's CPU
// backend).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// __gpu_sync() (spec 1.7): a launch-wide barrier of every work-item that
/// runs the body, on the launch's phase counter (hpp/cpu/launch_context.h).
/// The dialect's parallelFor and the device runtime's cooperative launches
/// (runtime/hpp/backend/cpu_cooperative.h) bind their work-groups to such a
/// launch; elsewhere the call is an error.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_GPU_SYNC_H
#define HPP_CPU_GPU_SYNC_H

#include "hpp/core/error.h"
#include "hpp/cpu/barrier_ops.h"

/// Waits until every work-item of the launch that runs the body has
/// reached a __gpu_sync (a launch-wide barrier; spec 1.7).
inline void __gpu_sync(const char *CallFile = __builtin_FILE(),
                       int CallLine = __builtin_LINE()) {
  ::hpp::cpu::GroupExecutor &E =
      ::hpp::cpu::deviceExecutor("__gpu_sync", CallFile, CallLine);
  if (!E.launch())
    throw ::hpp::RuntimeError("__gpu_sync", CallFile, CallLine,
                              "__gpu_sync needs a parallelFor launch");
  ::hpp::cpu::barrierOp(E.launch()->gridBarrier(), true, 0, "__gpu_sync",
                        CallFile, CallLine);
}

#endif // HPP_CPU_GPU_SYNC_H
