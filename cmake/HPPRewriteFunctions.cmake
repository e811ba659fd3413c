#===- HPPRewriteFunctions.cmake - hpp-rewrite as a build step ------------===#
#
# Part of hpp-rewrite. Installed with the CMake package (find_package(
# HPPRewrite)); docs/guide.md, "Use it in a build", explains it.
#
#   hpp_add_executable(<name> SOURCES <src>... [LANGUAGE CUDA|HIP|CXX]
#                      [ROOT <dir>] [PORT])
#   hpp_target_sources(<target> SOURCES <src>... [LANGUAGE CUDA|HIP|CXX]
#                      [ROOT <dir>] [PORT])
#
# PORT: the sources are CUDA as it is written (.cu, and the C++ host
# sources that call the CUDA runtime), rewritten by `hpp-rewrite --port`
# (docs/port.md); everything else is the same.
#
# A target's dialect sources are rewritten by hpp-rewrite at build time,
# together, with the project headers they include (the headers under ROOT,
# by default PROJECT_SOURCE_DIR, widened to hold every source), into
# <binary dir>/hpp-rewrite/<target>/[<config>/]: each source at its path
# below the root with the suffix .cu, .hip or .cpp, each project header at
# its path below the root (<config> with multi-config generators only).
# The outputs are compiled in the language given and linked with
# hpp::runtime. The language defaults to
# HPP_LANGUAGE, else CUDA when the project enabled CUDA, else HIP when it
# enabled HIP, else CXX: the same output on the runtime's CPU backend,
# which builds and runs on any machine.
#
# The rewrite parses with the flags of the compile it feeds, per
# configuration: the target's definitions, include directories and
# compile options (its usage requirements included), CMAKE_<LANG>_FLAGS
# and CMAKE_<LANG>_FLAGS_<CONFIG> (their values at the end of the
# configure), and the language standard. CMake writes them at generate
# time to <binary dir>/hpp-rewrite/<target>.flags/<LANG>-<config>.txt, one
# argument a line, which the tool reads with --flags-file and filters with
# --parse-flags-only (options that do not change the parse, such as nvcc's
# code generation options, are dropped). It re-runs when a source, a
# header one includes (the depfile the tool writes), the flags, or the tool
# change; an output that comes out the same is not written again, so only
# what includes a changed output is compiled again.
#
#===----------------------------------------------------------------------===#
include_guard(GLOBAL)

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "hpp-rewrite's CMake functions need CMake 3.20 or "
                      "later, not ${CMAKE_VERSION}")
endif()

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

# <out>: <text> as a generator expression that evaluates to <text>.
function(_hpp_genex_literal out text)
  string(REPLACE "$<" "@HPP_DOLLAR_ANGLE@" text "${text}")
  string(REPLACE ">" "$<ANGLE-R>" text "${text}")
  string(REPLACE "," "$<COMMA>" text "${text}")
  string(REPLACE ";" "$<SEMICOLON>" text "${text}")
  string(REPLACE "@HPP_DOLLAR_ANGLE@" "$<1:$><" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# <out>: the string <flags> (a compiler's flags as CMake keeps them in
# CMAKE_<LANG>_FLAGS) as a generator expression of one argument a line.
function(_hpp_flag_lines out flags)
  if(CMAKE_HOST_WIN32)
    separate_arguments(args WINDOWS_COMMAND "${flags}")
  else()
    separate_arguments(args UNIX_COMMAND "${flags}")
  endif()
  set(text "")
  foreach(a IN LISTS args)
    _hpp_genex_literal(a "${a}")
    string(APPEND text "${a}\n")
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# <out>: "<prefix><item>" a line for each item of the list that the
# generator expression <list> gives; nothing for an empty list.
function(_hpp_genex_lines out list prefix)
  set(${out}
      "$<$<NOT:$<STREQUAL:${list},>>:${prefix}$<JOIN:${list},\n${prefix}>\n>"
      PARENT_SCOPE)
endfunction()

# <out>: a generator expression for the language standard option that
# CMake gives <target>'s <lang> compiles: the higher of <LANG>_STANDARD and
# the <lang>_std_NN compile features (usage requirements included), with
# or without extensions (<LANG>_EXTENSIONS, else the compiler's default),
# spelled as CMake spells it for that compiler (nvcc has no GNU mode).
function(_hpp_standard_option out target lang)
  string(TOLOWER "${lang}" prefix)
  set(std "$<TARGET_PROPERTY:${target},${lang}_STANDARD>")
  set(features "$<TARGET_PROPERTY:${target},COMPILE_FEATURES>")
  set(levels 26 23 20 17 14 11 98)
  set(level "")
  list(REVERSE levels)
  foreach(l IN LISTS levels) # The innermost test is the lowest level.
    set(level "$<IF:$<OR:$<STREQUAL:${std},${l}>,$<IN_LIST:${prefix}_std_${l},${features}>>,${l},${level}>")
  endforeach()
  if(DEFINED CMAKE_${lang}_EXTENSIONS_DEFAULT)
    set(default_ext "${CMAKE_${lang}_EXTENSIONS_DEFAULT}")
  else()
    set(default_ext ON)
  endif()
  if(default_ext)
    set(default_ext 1)
  else()
    set(default_ext 0)
  endif()
  set(ext_prop "$<TARGET_PROPERTY:${target},${lang}_EXTENSIONS>")
  set(ext "$<IF:$<STREQUAL:${ext_prop},>,${default_ext},$<BOOL:${ext_prop}>>")
  set(option "")
  foreach(l IN LISTS levels)
    _hpp_genex_literal(plain "${CMAKE_${lang}${l}_STANDARD_COMPILE_OPTION}")
    _hpp_genex_literal(gnu "${CMAKE_${lang}${l}_EXTENSION_COMPILE_OPTION}")
    string(APPEND option "$<$<STREQUAL:${level},${l}>:$<IF:${ext},${gnu},${plain}>>")
  endforeach()
  set(${out} "${option}" PARENT_SCOPE)
endfunction()

# Writes, at generate time, the flags of <target>'s <lang> compiles to
# <base>-<config>.txt, one argument a line, in the order the compile line
# has them: definitions, include directories, CMAKE_<LANG>_FLAGS,
# CMAKE_<LANG>_FLAGS_<CONFIG>, compile options, language standard. Runs at
# the end of the top-level directory (cmake_language(DEFER)), so that the
# flag variables have the values the compile takes: those at the end of
# the target's directory.
function(_hpp_write_flags target lang base)
  get_target_property(dir ${target} SOURCE_DIR)
  get_directory_property(flags DIRECTORY "${dir}" DEFINITION
                         CMAKE_${lang}_FLAGS)
  _hpp_flag_lines(lang_flags "${flags}")
  get_property(multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi)
    set(configs ${CMAKE_CONFIGURATION_TYPES})
  else()
    get_directory_property(configs DIRECTORY "${dir}" DEFINITION
                           CMAKE_BUILD_TYPE)
  endif()
  set(config_flags "")
  foreach(c IN LISTS configs)
    string(TOUPPER "${c}" C)
    get_directory_property(flags DIRECTORY "${dir}" DEFINITION
                           CMAKE_${lang}_FLAGS_${C})
    _hpp_flag_lines(lines "${flags}")
    string(APPEND config_flags "$<$<CONFIG:${c}>:${lines}>")
  endforeach()
  _hpp_genex_lines(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>"
                   "-D")
  _hpp_genex_lines(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>"
                   "-I")
  _hpp_genex_lines(opts "$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>" "")
  _hpp_standard_option(std ${target} ${lang})
  # One file per enabled language (CMake evaluates $<COMPILE_LANGUAGE>,
  # which compile options may test, per language); the rewrite reads
  # <lang>'s.
  file(GENERATE OUTPUT "${base}$<COMPILE_LANGUAGE>-$<CONFIG>.txt"
       CONTENT "${defs}${incs}${lang_flags}${config_flags}${opts}$<$<BOOL:${std}>:${std}\n>"
       TARGET ${target})
endfunction()

# <out>: the deepest directory that holds <dir> and every path of <paths>.
function(_hpp_common_directory out dir)
  set(common "${dir}")
  foreach(p IN LISTS ARGN)
    get_filename_component(d "${p}" DIRECTORY)
    while(TRUE)
      file(RELATIVE_PATH rel "${common}" "${d}")
      if(NOT rel MATCHES "^\\.\\.(/|$)" AND NOT IS_ABSOLUTE "${rel}")
        break()
      endif()
      get_filename_component(parent "${common}" DIRECTORY)
      if(parent STREQUAL common)
        break()
      endif()
      set(common "${parent}")
    endwhile()
  endforeach()
  set(${out} "${common}" PARENT_SCOPE)
endfunction()

function(hpp_target_sources target)
  cmake_parse_arguments(HPP "PORT" "LANGUAGE;ROOT" "SOURCES" ${ARGN})
  if(HPP_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "hpp_target_sources: unexpected arguments: ${HPP_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT HPP_SOURCES)
    message(FATAL_ERROR "hpp_target_sources(${target}): no SOURCES")
  endif()
  _hpp_language(lang "${HPP_LANGUAGE}")

  # The flags of the target's compiles in this language, written once per
  # target and language when the configure ends.
  set(base "${CMAKE_CURRENT_BINARY_DIR}/hpp-rewrite/${target}.flags/")
  get_target_property(written ${target} _HPP_REWRITE_FLAGS_${lang})
  if(NOT written)
    set_property(TARGET ${target} PROPERTY _HPP_REWRITE_FLAGS_${lang} "${base}")
    cmake_language(EVAL CODE "
      cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]]
        CALL _hpp_write_flags [[${target}]] [[${lang}]] [[${base}]])")
  endif()

  # Every dialect source of a target is rewritten by one command (its
  # project headers once for all of them), made when this directory ends.
  get_target_property(done_lang ${target} _HPP_REWRITE_LANGUAGE)
  get_target_property(done_dir ${target} _HPP_REWRITE_DIRECTORY)
  get_target_property(done_sources ${target} _HPP_REWRITE_SOURCES)
  if(NOT done_sources)
    set(done_sources "")
  endif()
  if(done_lang AND NOT done_lang STREQUAL lang)
    message(FATAL_ERROR "hpp-rewrite: the dialect sources of ${target} are "
                        "rewritten together, in LANGUAGE ${done_lang}, not "
                        "${lang}: put the ${lang} sources in a target of their "
                        "own (an OBJECT library)")
  endif()
  get_target_property(done_port ${target} _HPP_REWRITE_PORT)
  if(done_lang AND NOT done_port STREQUAL "${HPP_PORT}")
    message(FATAL_ERROR "hpp-rewrite: the sources of ${target} are rewritten "
                        "together: give PORT to every hpp_target_sources of "
                        "${target}, or to none")
  endif()
  if(done_dir AND NOT done_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "hpp-rewrite: the dialect sources of ${target} are "
                        "added in '${done_dir}'; add them all there")
  endif()
  foreach(src IN LISTS HPP_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE)
    file(TO_CMAKE_PATH "${abs}" abs)
    if(NOT abs IN_LIST done_sources)
      list(APPEND done_sources "${abs}")
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY _HPP_REWRITE_SOURCES "${done_sources}")
  if(HPP_ROOT)
    get_filename_component(root "${HPP_ROOT}" ABSOLUTE)
    set_property(TARGET ${target} PROPERTY _HPP_REWRITE_ROOT "${root}")
  endif()
  if(NOT done_lang)
    set_property(TARGET ${target} PROPERTY _HPP_REWRITE_LANGUAGE "${lang}")
    set_property(TARGET ${target} PROPERTY _HPP_REWRITE_PORT "${HPP_PORT}")
    set_property(TARGET ${target} PROPERTY _HPP_REWRITE_DIRECTORY
                                           "${CMAKE_CURRENT_SOURCE_DIR}")
    cmake_language(EVAL CODE "
      cmake_language(DEFER CALL _hpp_rewrite_command [[${target}]])")
  endif()

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

# The one command that rewrites <target>'s dialect sources and the project
# headers they include, into <binary dir>/hpp-rewrite/<target>/[<config>/]:
# each source at its path below the project root, with the language's
# suffix (.cu, .hip, .cpp), and every project header it reads beside it.
function(_hpp_rewrite_command target)
  get_target_property(sources ${target} _HPP_REWRITE_SOURCES)
  get_target_property(lang ${target} _HPP_REWRITE_LANGUAGE)
  get_target_property(base ${target} _HPP_REWRITE_FLAGS_${lang})
  get_target_property(root ${target} _HPP_REWRITE_ROOT)
  get_target_property(port ${target} _HPP_REWRITE_PORT)
  set(mode "")
  if(port)
    set(mode --port)
  endif()
  if(NOT root)
    set(root "${PROJECT_SOURCE_DIR}")
  endif()
  # The root holds every source.
  _hpp_common_directory(root "${root}" ${sources})
  if(lang STREQUAL "CUDA")
    set(ext cu)
  elseif(lang STREQUAL "HIP")
    set(ext hip)
  else()
    set(ext cpp)
  endif()
  set(flags "${base}${lang}-$<CONFIG>.txt")
  get_property(multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  set(tree "${CMAKE_CURRENT_BINARY_DIR}/hpp-rewrite/${target}")
  if(multi)
    if(CMAKE_VERSION VERSION_LESS 3.21)
      message(FATAL_ERROR "hpp-rewrite: a multi-config generator needs CMake "
                          "3.21 or later (a DEPFILE per configuration)")
    endif()
    # Each configuration has its flags, so its own rewrite.
    string(APPEND tree "/$<CONFIG>")
  else()
    file(MAKE_DIRECTORY "${tree}")
  endif()
  set(outputs "")
  set(shown "")
  foreach(src IN LISTS sources)
    file(RELATIVE_PATH rel "${root}" "${src}")
    list(APPEND outputs "${tree}/${rel}.${ext}")
    file(RELATIVE_PATH s "${CMAKE_CURRENT_SOURCE_DIR}" "${src}")
    list(APPEND shown "${s}")
  endforeach()
  list(JOIN shown ", " shown)
  # --absolute-includes: the outputs, compiled from the build tree, find
  # the headers beside the sources that lie outside the root as the
  # sources do (a project header is written beside them). --pch-dir: the
  # sources of the build share the dialect header, precompiled once per set
  # of flags. An output that comes out the same is not written again, and
  # the build compiles again only what includes a changed one.
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND hpp::rewrite ${mode} ${sources} --root "${root}" --output-dir "${tree}"
            --output-suffix ".${ext}" --depfile "${tree}/hpp-rewrite.d"
            --absolute-includes --parse-flags-only "--flags-file=${flags}"
            "--pch-dir=${CMAKE_BINARY_DIR}/hpp-rewrite/pch" --quiet
    DEPENDS ${sources} "${flags}" hpp::rewrite "$<TARGET_FILE:hpp::rewrite>"
    DEPFILE "${tree}/hpp-rewrite.d"
    COMMENT "Rewriting ${shown} (hpp-rewrite)"
    VERBATIM)
  if(NOT multi)
    set_source_files_properties(${outputs} PROPERTIES LANGUAGE ${lang}
                                                      GENERATED TRUE)
  endif()
  target_sources(${target} PRIVATE ${outputs})
endfunction()

# The arguments are hpp_target_sources's, which checks them.
function(hpp_add_executable name)
  add_executable(${name})
  hpp_target_sources(${name} ${ARGN})
endfunction()
