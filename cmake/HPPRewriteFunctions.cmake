#===- HPPRewriteFunctions.cmake - hpp-rewrite as a build step ------------===#
#
# Part of hpp-rewrite. Installed with the CMake package (find_package(
# HPPRewrite)); docs/guide.md, "Use it in a build", explains it.
#
#   hpp_add_executable(<name> SOURCES <src>... [LANGUAGE CUDA|HIP|CXX])
#   hpp_target_sources(<target> SOURCES <src>... [LANGUAGE CUDA|HIP|CXX])
#
# Each source is rewritten by hpp-rewrite at build time into
# <binary dir>/hpp-rewrite/<target>/[<config>/]<source path>.<cu|hip|cpp>
# (<config> with multi-config generators only), which is compiled in the
# language given and linked with hpp::runtime. The language defaults to
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
# code generation options, are dropped). It re-runs when the source, a
# header it includes (the depfile the tool writes), the flags, or the tool
# change.
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

# <out>: where <source> is rewritten to, below <root>: its path relative
# to the current source directory, each leading `..` written `__` (as CMake
# names object files), or below `__root/` when no relative path exists (a
# source on another drive).
function(_hpp_output_path out root source ext)
  file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${source}")
  if(IS_ABSOLUTE "${rel}")
    string(REGEX REPLACE "^([A-Za-z]):" "\\1" rel "${rel}")
    string(REGEX REPLACE "^/" "" rel "${rel}")
    set(rel "__root/${rel}")
  endif()
  set(up "")
  while(rel MATCHES "^\\.\\./(.*)$")
    set(rel "${CMAKE_MATCH_1}")
    string(APPEND up "__/")
  endwhile()
  set(${out} "${root}/${up}${rel}.${ext}" PARENT_SCOPE)
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

  # The flags of the target's compiles in this language, written once per
  # target and language when the configure ends.
  set(base "${CMAKE_CURRENT_BINARY_DIR}/hpp-rewrite/${target}.flags/")
  get_target_property(written ${target} _HPP_REWRITE_FLAGS_${lang})
  if(NOT written)
    set_property(TARGET ${target} PROPERTY _HPP_REWRITE_FLAGS_${lang} "${base}")
    cmake_language(EVAL CODE "
      cmake_language(DEFER DIRECTORY [[${CMAKE_SOURCE_DIR}]]
        CALL _hpp_write_flags [[${target}]] [[${lang}]] [[${base}]])")
  else()
    set(base "${written}")
  endif()
  set(flags "${base}${lang}-$<CONFIG>.txt")

  get_property(multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  set(root "${CMAKE_CURRENT_BINARY_DIR}/hpp-rewrite/${target}")
  if(multi)
    if(CMAKE_VERSION VERSION_LESS 3.21)
      message(FATAL_ERROR "hpp-rewrite: a multi-config generator needs CMake "
                          "3.21 or later (a DEPFILE per configuration)")
    endif()
    # Each configuration has its flags, so its own rewrite.
    string(APPEND root "/$<CONFIG>")
  endif()

  # Each source is rewritten once per target; two sources never share an
  # output.
  foreach(p SOURCES LANGUAGES OUTPUTS)
    get_target_property(done_${p} ${target} _HPP_REWRITE_${p})
    if(NOT done_${p})
      set(done_${p} "")
    endif()
  endforeach()
  foreach(src IN LISTS HPP_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE)
    file(TO_CMAKE_PATH "${abs}" abs)
    _hpp_output_path(out "${root}" "${abs}" ${ext})
    list(FIND done_SOURCES "${abs}" seen)
    if(NOT seen EQUAL -1)
      list(GET done_LANGUAGES ${seen} seen_lang)
      if(NOT seen_lang STREQUAL lang)
        message(FATAL_ERROR "hpp-rewrite: '${abs}' is already a source of "
                            "${target} in LANGUAGE ${seen_lang}, not ${lang}")
      endif()
      continue()
    endif()
    list(FIND done_OUTPUTS "${out}" clash)
    if(NOT clash EQUAL -1)
      list(GET done_SOURCES ${clash} other)
      message(FATAL_ERROR "hpp-rewrite: '${abs}' and '${other}' would be "
                          "rewritten to the same file '${out}'")
    endif()
    list(APPEND done_SOURCES "${abs}")
    list(APPEND done_LANGUAGES "${lang}")
    list(APPEND done_OUTPUTS "${out}")

    file(RELATIVE_PATH shown "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    if(NOT multi)
      get_filename_component(outdir "${out}" DIRECTORY)
      file(MAKE_DIRECTORY "${outdir}")
    endif()
    # --absolute-includes: the output, compiled from the build tree, finds
    # the headers beside the source as the source does. --pch-dir: the
    # sources of the build share the dialect header, precompiled once per
    # set of flags.
    add_custom_command(
      OUTPUT "${out}"
      COMMAND hpp::rewrite "${abs}" -o "${out}" --depfile "${out}.d"
              --absolute-includes --parse-flags-only "--flags-file=${flags}"
              "--pch-dir=${CMAKE_BINARY_DIR}/hpp-rewrite/pch"
      DEPENDS "${abs}" "${flags}" hpp::rewrite "$<TARGET_FILE:hpp::rewrite>"
      DEPFILE "${out}.d"
      COMMENT "Rewriting ${shown} (hpp-rewrite)"
      VERBATIM)
    if(NOT multi)
      set_source_files_properties("${out}" PROPERTIES LANGUAGE ${lang}
                                                       GENERATED TRUE)
    endif()
    target_sources(${target} PRIVATE "${out}")
  endforeach()
  foreach(p SOURCES LANGUAGES OUTPUTS)
    set_property(TARGET ${target} PROPERTY _HPP_REWRITE_${p} "${done_${p}}")
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
