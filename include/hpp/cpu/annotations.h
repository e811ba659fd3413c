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
///  - on a lambda, directly after the parameter list, before `mutable` and
///    before a trailing return type:
///    `[=](Index<1> i) __device(hpp) { ... }`,
///    `[=](Channel<T> *c) __device(coord) -> bool { ... }`;
///  - on a function, at the start of the declaration:
///    `__device(hpp) inline float f(float x) { ... }`.
/// Clang rejects a GNU attribute after `mutable`, and drops one written
/// after a trailing return type (it would apply to the return type).
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_ANNOTATIONS_H
#define HPP_CPU_ANNOTATIONS_H

#ifndef __device
#if defined(__HPP_REWRITE__)
#define __device(kind) __attribute__((annotate("hpp.device." #kind)))
#else
#define __device(kind)
#endif
#endif

#endif // HPP_CPU_ANNOTATIONS_H
