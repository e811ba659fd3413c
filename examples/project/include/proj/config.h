//===- proj/config.h - The project's sizes --------------------*- C++ -*-===//
//
// Part of hpp-rewrite: examples/project, a dialect project of several
// sources and headers (README.md).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Sizes the build may change with -D (the CMake project passes
/// -DPROJ_GROUP=...): the rewrite parses with the build's flags, so the
/// kernels get the value the host code sees.
///
//===----------------------------------------------------------------------===//
#ifndef PROJ_CONFIG_H
#define PROJ_CONFIG_H

/// Work-items per work-group of the project's launches.
#ifndef PROJ_GROUP
#define PROJ_GROUP 128
#endif

/// Elements the program works on unless its argument says otherwise.
#ifndef PROJ_DEFAULT_N
#define PROJ_DEFAULT_N 10000
#endif

#endif // PROJ_CONFIG_H
