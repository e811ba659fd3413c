//===- hpp/backend/cpu_warp.h - Warp operations ---------------------------------===//
//
// Part of hpp-rewrite. Device runtime. (Being written: issue 3.)
//
//===----------------------------------------------------------------------===//
#ifndef HPP_RUNTIME_BACKEND_CPU_WARP_H
#define HPP_RUNTIME_BACKEND_CPU_WARP_H
#endif
