//===- hpp/channel_launch.h - A launch that writes a channel ----*- C++ -*-===//
//
// Part of hpp-rewrite. Device runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The part of Channel<T> (hpp/channel.h) that follows one launch writing
/// the channel: prepare() before it (the storage, the counter's shift, the
/// eager consumers' batches), launched() behind it on its stream (the eager
/// consumer launches, the copy of the state for the host) and collect()
/// after its wait (what it wrote, and its errors).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CHANNEL_LAUNCH_H
#define HPP_CHANNEL_LAUNCH_H

#include "hpp/channel.h"

namespace hpp {

template <class T>
void Channel<T>::prepare(detail::ChannelWriter<T> &W, std::size_t InRange,
                         detail::LaunchOptions &Options,
                         detail::LaunchScratch &Scratch) {
  // A task's launch on its stream (GPU; the CPU backend runs a task's
  // launch as a parallelFor's).
  const bool InTask = Options.Stream != nullptr;
  awaitTask();
  if (Active == &Scratch)
    throw RuntimeError("hpp::launchKernel", __FILE__, __LINE__,
                       name() + " is passed twice to one launch");
  if (Active)
    collect(); // An enclosing launch's writes: its kernel is complete.
  void *Stream = InTask ? Options.Stream : detail::afterLaunchStream();
  if (MustWait) { // An abandoned launch may still copy the state.
    detail::waitForAfterLaunch(Stream);
    MustWait = false;
  }
  if (!DevState) {
    DevState = static_cast<State *>(ChannelMemory::device(sizeof(State)));
    HostState = ChannelMemory::Mirrored
                    ? static_cast<State *>(ChannelMemory::host(sizeof(State)))
                    : DevState;
    MirrorOnDevice = static_cast<State *>(ChannelMemory::onDevice(HostState));
    StateStale = true;
  }
  if (W.Bound && InRange > (SIZE_MAX / 2 - Count) / W.Bound)
    throw RuntimeError("hpp::launchKernel", __FILE__, __LINE__,
                       "the writes of a launch of " + std::to_string(InRange) +
                           " work-items into " + name() +
                           " overflow the storage's size");
  const std::size_t MaxWrites = InRange * W.Bound;
  const std::size_t Keep = Count - Head;
  threshold(Keep + MaxWrites); // The most values the launch can leave.
  const std::size_t Room =
      Batch ? MaxWrites : std::min(MaxWrites, Cap - std::min(Keep, Cap));
  // While a batch of this channel is being consumed, the values stay
  // where that batch's launch reads them.
  if (Dispatching)
    place(Head, Count + Room, Stream);
  else
    place(0, Keep + Room, Stream);
  // The counter is only reset (a copy before the launch) after an error
  // or an abandoned launch; otherwise it goes on from where the last
  // launch left it, and Shift maps it onto the storage.
  if (StateStale) {
    *HostState = State{};
    HostState->Reserved = DevCount = Count;
    if (ChannelMemory::Mirrored)
      ChannelMemory::copy(DevState, HostState, sizeof(State), Stream);
    StateStale = false;
  }
  Shift = DevCount - Count;
  W = {Storage, DevState, Stored, Cap, Batch, Head, Shift, this, W.Bound};
  Eager = 0;
#if !defined(HPP_BACKEND_CPU)
  if (InTask && Batch && Consumer) { // Every batch it can complete.
    checkTaskWrites();
    Eager = (Keep + MaxWrites) / Batch;
  } else if (Batch && Consumer && Consumer->eager() && !Dispatching) {
    Eager = std::min<std::size_t>(detail::channelEagerLaunches(),
                                  (Keep + MaxWrites) / Batch);
  }
#endif
  if (InTask) {
    Pending = Options.TaskWork;
    TaskErrors = Options.StreamErrors;
  }
  prepareEager(Stream);
  SelfWriteFrom = Dispatching ? Count : NoSelfWrite;
  Active = &Scratch;
  Scratch.AfterLaunch.push_back(
      {this, &launchedHook, &finishHook, &cancelHook});
}

template <class T> void Channel<T>::prepareEager(void *Stream) {
  EagerScratch.clear();
  EagerLaunches.clear();
  EagerScratch.reserve(Eager);
  EagerLaunches.reserve(Eager);
  try {
    for (std::size_t B = 0; B < Eager; ++B) {
      const std::size_t First = Head + std::size_t(B) * Batch;
      detail::LaunchOptions O;
      O.Stream = Stream;
      O.WaitsInKernel = true; // ChannelBatch::ready waits for the producer.
      O.StreamErrors = TaskErrors; // A task's consumers: its work checks.
      EagerScratch.emplace_back();
      O.KeepScratch = &EagerScratch.back();
      EagerLaunches.push_back(Consumer->prepare(
          O,
          detail::ChannelBatch<T>{
              Storage + First, Batch, DevState, First + Batch + Shift,
              B == 0 && ChannelMemory::Mirrored ? MirrorOnDevice : nullptr}));
    }
  } catch (const RuntimeError &E) {
    Eager = 0;
    EagerLaunches.clear();
    EagerScratch.clear();
    if (detail::isLaunchError(E))
      throw E.at(ExecFile, ExecLine);
    throw;
  } catch (...) {
    Eager = 0;
    EagerLaunches.clear();
    EagerScratch.clear();
    throw;
  }
}

template <class T> void Channel<T>::launched(void *Stream) {
  // Prepared before the producer was launched (prepareEager): only the
  // launch calls stand between the producer and its first consumer.
  try {
    for (detail::PreparedLaunch &Launch : EagerLaunches)
      if (Launch)
        Launch();
  } catch (const RuntimeError &E) {
    if (detail::isLaunchError(E))
      throw E.at(ExecFile, ExecLine);
    throw;
  }
  // The first eager launch copies the state (ChannelBatch::Mirror).
  if (ChannelMemory::Mirrored && Eager == 0)
    ChannelMemory::copy(HostState, DevState, sizeof(State), Stream);
}

template <class T> void Channel<T>::collect() {
  Active = nullptr;
  Pending = nullptr;
  TaskErrors = nullptr;
  EagerLaunches.clear();
  EagerScratch.clear();
  for (T *P : Retired)
    ChannelMemory::freeDevice(P);
  Retired.clear();
  const State S = *HostState;
  DevCount = S.Reserved;
  const std::size_t Written =
      std::size_t(std::min<unsigned long long>(S.Reserved - Shift, Stored));
  if (Batch) {
    Count = Written;
    Head += std::min<std::size_t>(Eager, (Count - Head) / Batch) * Batch;
  } else {
    Count = std::min(Written, Head + Cap);
  }
  Eager = 0;
  StateStale = S.Full || S.Overflow; // Reset the flags before the next.
  // A consumer writing into its own channel: in the reference, the batch
  // it consumes and its own writes stay in the channel while it runs, so
  // the write that fills the capacity fails whatever the timing.
  const std::size_t From = SelfWriteFrom;
  SelfWriteFrom = NoSelfWrite;
  if (From != NoSelfWrite && Batch && Count - From + Batch > Cap)
    throw RuntimeError("Channel::write", __FILE__, __LINE__,
                       detail::channelSelfFullMessage(name()));
  if (S.Full) {
#if defined(HPP_BACKEND_CPU)
    if (S.FullFile)
      throw RuntimeError("Channel::write", S.FullFile, S.FullLine,
                         fullMessage());
#else
    if (S.FullFile)
      throw RuntimeError(
          "Channel::write",
          detail::readDeviceString(S.FullFile, detail::launchDeviceId()),
          S.FullLine, fullMessage());
#endif
    throw RuntimeError("Channel::write", __FILE__, __LINE__, fullMessage());
  }
  if (S.Overflow)
    throw RuntimeError("Channel::write", __FILE__, __LINE__,
                       name() + " received more writes than its launch "
                                "reserved storage for (the bound on the "
                                "writes of one work-item that hpp-rewrite "
                                "computed is wrong); those were dropped");
}

} // namespace hpp

#endif // HPP_CHANNEL_LAUNCH_H
