//===- hpp/cpu/annotations.h - The __device(kind) annotation -------------===//
//
// Part of hpp-rewrite. CPU reference runtime.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `__device(hpp)` marks device code, `__device(coord)` a coordinator
/// predicate. Compiled for the CPU the annotation is empty; while hpp-rewrite
/// parses the file (__HPP_REWRITE__ defined) it becomes
/// `annotate("hpp.device.<kind>")`, which the tool finds in the AST.
///
/// Where to write it:
///  - `__device(hpp)` on a lambda, directly after the parameter list, before
///    `mutable` and before a trailing return type:
///    `[=](Index<1> i) __device(hpp) { ... }`;
///  - on a function, at the start of the declaration:
///    `__device(hpp) inline float f(float x) { ... }`;
///  - `__device(coord)` as the paper writes it, after the trailing return
///    type, `[=](Channel<T> *c) -> bool __device(coord) { ... }`, or before
///    it.
/// Clang rejects a GNU attribute after `mutable`, and drops one written
/// after a trailing return type (it would apply to the return type) with a
/// -Wignored-attributes warning. That warning is right for `__device(hpp)`
/// (the lambda would not be marked) and silenced for `__device(coord)`:
/// hpp-rewrite finds a coordinator's mark in its text (lib/Dialect/Coordinators.h).
/// The diagnostic pragmas act where the macro is expanded, around the
/// attribute only; the attribute itself is spelled in `__device`'s own
/// body, where the tool looks for it (lib/Dialect/DeviceCode.h).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_ANNOTATIONS_H
#define HPP_CPU_ANNOTATIONS_H

#ifndef __device
#if defined(__HPP_REWRITE__)
#define __device(kind)                                                         \
  HPP_REWRITE_PRAGMA_BEGIN_##kind                                              \
  __attribute__((annotate("hpp.device." #kind))) HPP_REWRITE_PRAGMA_END_##kind
#define HPP_REWRITE_PRAGMA_BEGIN_hpp
#define HPP_REWRITE_PRAGMA_END_hpp
#define HPP_REWRITE_PRAGMA_BEGIN_coord                                        \
  _Pragma("clang diagnostic push")                                             \
  _Pragma("clang diagnostic ignored \"-Wignored-attributes\"")
#define HPP_REWRITE_PRAGMA_END_coord _Pragma("clang diagnostic pop")
#else
#define __device(kind)
#endif
#endif

#endif // HPP_CPU_ANNOTATIONS_H
