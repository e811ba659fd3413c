#===- HPPRewriteFunctions.cmake - hpp-rewrite as a build step ------------===#
#
# Part of hpp-rewrite. Installed with the CMake package (find_package(
# HPPRewrite)); docs/guide.md, "Use it in a build", explains it.
#
#   hpp_add_executable(<name> SOURCES <src>... [LANGUAGE CUDA|HIP|CXX])
#   hpp_target_sources(<target> SOURCES <src>... [LANGUAGE CUDA|HIP|CXX])
#
# Each source is rewritten by hpp-rewrite at build time into
# <binary dir>/hpp-rewrite/<target>/<source path>.<cu|hip|cpp>, which is
# compiled in the language given and linked with hpp::runtime. The rewrite
# re-runs only when the source, a header it includes (the depfile the tool
# writes), or the tool changes. The language defaults to HPP_LANGUAGE, else
# CUDA when the project enabled CUDA, else HIP when it enabled HIP, else
# CXX: the same output on the runtime's CPU backend, which builds and runs
# on any machine.
#
#===----------------------------------------------------------------------===#
include_guard(GLOBAL)

find_package(Threads REQUIRED)

# The language a target's rewritten sources are compiled as.
function(_hpp_language out requested)
  if(requested)
    set(lang "${requested}")
  elseif(HPP_LANGUAGE)
    set(lang "${HPP_LANGUAGE}")
  else()
    get_property(enabled GLOBAL PROPERTY ENABLED_LANGUAGES)
    if("CUDA" IN_LIST enabled)
      set(lang CUDA)
    elseif("HIP" IN_LIST enabled)
      set(lang HIP)
    else()
      set(lang CXX)
    endif()
  endif()
  if(NOT lang MATCHES "^(CUDA|HIP|CXX)$")
    message(FATAL_ERROR
      "hpp-rewrite: LANGUAGE must be CUDA, HIP or CXX, not '${lang}'")
  endif()
  get_property(enabled GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT lang IN_LIST enabled)
    message(FATAL_ERROR
      "hpp-rewrite: LANGUAGE ${lang} is not enabled in this project: add it "
      "to project(... LANGUAGES ...) or enable_language(${lang}), or use "
      "LANGUAGE CXX to build on the CPU runtime")
  endif()
  set(${out} "${lang}" PARENT_SCOPE)
endfunction()

function(hpp_target_sources target)
  cmake_parse_arguments(HPP "" "LANGUAGE" "SOURCES" ${ARGN})
  if(HPP_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "hpp_target_sources: unexpected arguments: ${HPP_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT HPP_SOURCES)
    message(FATAL_ERROR "hpp_target_sources(${target}): no SOURCES")
  endif()
  _hpp_language(lang "${HPP_LANGUAGE}")
  if(lang STREQUAL "CUDA")
    set(ext cu)
  elseif(lang STREQUAL "HIP")
    set(ext hip)
  else()
    set(ext cpp)
  endif()

  # The target's include directories and definitions reach the rewrite's
  # parse, as they reach the compile.
  set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")

  foreach(src IN LISTS HPP_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE)
    file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    if(rel MATCHES "^\\.\\./")
      get_filename_component(rel "${abs}" NAME)
    endif()
    set(out "${CMAKE_CURRENT_BINARY_DIR}/hpp-rewrite/${target}/${rel}.${ext}")
    get_filename_component(outdir "${out}" DIRECTORY)
    file(MAKE_DIRECTORY "${outdir}")
    add_custom_command(
      OUTPUT "${out}"
      COMMAND hpp::rewrite "${abs}" -o "${out}" --depfile "${out}.d" --
              -std=c++17 "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
              "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>"
      DEPENDS "${abs}" hpp::rewrite "$<TARGET_FILE:hpp::rewrite>"
      DEPFILE "${out}.d"
      COMMENT "Rewriting ${rel} (hpp-rewrite)"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    set_source_files_properties("${out}" PROPERTIES LANGUAGE ${lang}
                                                     GENERATED TRUE)
    target_sources(${target} PRIVATE "${out}")
  endforeach()
  target_link_libraries(${target} PRIVATE hpp::runtime)
  if(lang STREQUAL "CXX")
    target_link_libraries(${target} PRIVATE Threads::Threads)
  endif()
  # The runtime is C++17 in every language.
  foreach(l CXX CUDA HIP)
    get_target_property(std ${target} ${l}_STANDARD)
    if(NOT std)
      set_target_properties(${target} PROPERTIES ${l}_STANDARD 17
                                                 ${l}_STANDARD_REQUIRED ON)
    endif()
  endforeach()
endfunction()

# The arguments are hpp_target_sources's, which checks them.
function(hpp_add_executable name)
  add_executable(${name})
  hpp_target_sources(${name} ${ARGN})
endfunction()
