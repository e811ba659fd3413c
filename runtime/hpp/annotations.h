//===- hpp/annotations.h - __device(kind) in rewritten sources -----------===//
//
// Part of hpp-rewrite. Device runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite replaces every `__device(hpp)` it can edit. The one it cannot
/// is written inside a macro's definition (`#define DEF(T) __device(hpp) T
/// f(T x) { ... }`), in front of a function declaration (the tool refuses
/// every other such use: lib/Rules/DeviceFunctionRule.cpp); for it,
/// `__device(hpp)` means `__host__ __device__`, as the tool's rewrite of
/// the annotation does. While hpp-rewrite parses the output (__HPP_REWRITE__
/// defined) it is the dialect's own definition, included from
/// include/hpp/cpu/annotations.h, so that a second rewrite changes nothing
/// and is as silent as the first (a coordinator's `-> bool __device(coord)`
/// needs that header's diagnostic pragmas).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_ANNOTATIONS_H
#define HPP_RUNTIME_ANNOTATIONS_H

#if defined(__HPP_REWRITE__)
#include "hpp/cpu/annotations.h"
#elif !defined(__device)
#define __device(kind) HPP_DEVICE_QUALIFIERS_##kind
#endif

#define HPP_DEVICE_QUALIFIERS_hpp __host__ __device__
/// A channel's coordinator predicate, `[=](Channel<T> *c) -> bool
/// __device(coord) { ... }`, stays host code in rewritten sources:
/// executeWith evaluates it on the host, on a probe channel, to find the
/// batch size (hpp/channel.h).
#define HPP_DEVICE_QUALIFIERS_coord

#endif // HPP_RUNTIME_ANNOTATIONS_H
