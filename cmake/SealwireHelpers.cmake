# SPDX-License-Identifier: Apache-2.0
# Shared build settings for sealwire's targets.

# Warnings for our own code (not exported to users of the installed package).
add_library(sealwire_warnings INTERFACE)
target_compile_options(sealwire_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Wnull-dereference)
# The same for code built on Asio's coroutines and strands, without
# -Wnull-dereference and (GCC) -Wmismatched-new-delete, which GCC 12 reports
# inside inlined Asio internals (its coroutine frame allocator).
add_library(sealwire_asio_warnings INTERFACE)
target_compile_options(sealwire_asio_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  $<$<CXX_COMPILER_ID:GNU>:-Wno-mismatched-new-delete>)

# The ABI may change with every minor version while sealwire is below 1.0
# (docs/architecture.md, "Versions and stability"), so the shared libraries'
# SONAME carries MAJOR.MINOR until then and MAJOR after.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(SEALWIRE_SOVERSION "${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}")
else()
  set(SEALWIRE_SOVERSION "${PROJECT_VERSION_MAJOR}")
endif()

# sealwire_install_component(NAME TARGET) installs a component's target into
# its own export set (sealwire-NAME-targets.cmake), so that find_package
# loads exactly the components asked for, and its headers.
function(sealwire_install_component name target)
  if(NOT SEALWIRE_INSTALL)
    return()
  endif()
  install(TARGETS ${target} EXPORT sealwire-${name}-targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT sealwire-${name}-targets NAMESPACE sealwire:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sealwire)
endfunction()

# Extra compile options for the libraries' own sources only (not for tests,
# examples or benchmarks). The asan preset builds everything at -O0 and the
# libraries at -O1: the tests spend their time in the libraries, while most
# of the build time goes to test and example code (GoogleTest, Asio).
set(SEALWIRE_LIBRARY_FLAGS "" CACHE STRING "Extra compile options for the sealwire libraries' sources")
separate_arguments(SEALWIRE_LIBRARY_FLAGS)

# SEALWIRE_TESTED_ONLY leaves out of `all` the programs no test runs (the
# chat demo, the interactive chat client, the long differential run): the
# sanitizer presets build only what their tests execute. Those programs stay
# targets, so `cmake --build ... --target sealwire-demo` still builds them.
option(SEALWIRE_TESTED_ONLY "Leave programs no test runs out of the default build" OFF)

# sealwire_untested(TARGET...) marks programs that no test runs.
function(sealwire_untested)
  if(SEALWIRE_TESTED_ONLY)
    set_target_properties(${ARGN} PROPERTIES EXCLUDE_FROM_ALL TRUE)
  endif()
endfunction()

# sealwire_add_component(NAME SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# declares the library sealwire_NAME with alias sealwire::NAME, public headers
# in NAME/include. Symbols are hidden unless marked SEALWIRE_API.
function(sealwire_add_component name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(sealwire_${name} ${ARG_SOURCES})
  add_library(sealwire::${name} ALIAS sealwire_${name})
  set_target_properties(sealwire_${name} PROPERTIES
    EXPORT_NAME ${name}
    OUTPUT_NAME sealwire_${name}
    POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    VERSION ${PROJECT_VERSION}
    SOVERSION ${SEALWIRE_SOVERSION})
  target_compile_features(sealwire_${name} PUBLIC cxx_std_20)
  target_include_directories(sealwire_${name}
    PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(sealwire_${name}
    PUBLIC ${ARG_PUBLIC_DEPS}
    PRIVATE ${ARG_PRIVATE_DEPS} $<BUILD_INTERFACE:sealwire_warnings>)
  target_compile_options(sealwire_${name} PRIVATE ${SEALWIRE_LIBRARY_FLAGS})
  sealwire_install_component(${name} sealwire_${name})
endfunction()

# The four-limb Curve25519 field's inline assembly (fe25519_4x64.hpp) takes
# each limb as a memory operand. Unoptimised, clang puts every such address
# in a register of its own and runs out ("inline assembly requires more
# registers than available"); GCC copes. So the files that include it
# (x25519_bmi2.cpp and its test) get -O1 with clang in a configuration that
# adds no optimisation of its own (Debug, an empty build type), unless
# CMAKE_CXX_FLAGS already asks for some: a per-file flag comes last on the
# command line and would lower an -O2 given there.
set(SEALWIRE_MULX_ASM_FLAGS "")
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang" AND NOT CMAKE_CXX_FLAGS MATCHES "(^| )-O([1-3sz]|fast)( |$)")
  set(SEALWIRE_MULX_ASM_FLAGS "$<$<NOT:$<CONFIG:Release,RelWithDebInfo,MinSizeRel>>:-O1>")
endif()

# sealwire_isa_sources(TARGET LEVEL files...) compiles instruction-set kernels
# with their own flags, so nothing else in the library is built for a newer CPU.
function(sealwire_isa_sources target level)
  # Each file gets exactly the features its kernels are selected for at run time.
  if(level STREQUAL "sse41")
    set(flags -msse4.1 -mssse3)
  elseif(level STREQUAL "shani")
    set(flags -msse4.1 -mssse3 -msha)
  elseif(level STREQUAL "bmi2")
    set(flags -mbmi2 -madx)
  elseif(level STREQUAL "avx2")
    set(flags -mavx2)
  elseif(level STREQUAL "avx2_bmi2")
    # Scalar rounds with rorx beside AVX2 vectors: both belong to the avx2 level.
    set(flags -mavx2 -mbmi2 -madx)
  elseif(level STREQUAL "avx512")
    set(flags -mavx512f -mavx512vl -mavx512bw -mavx2)
  elseif(level STREQUAL "avx512_bmi2")
    # Scalar rounds with rorx beside AVX-512VL vectors (the dispatcher checks BMI2 too).
    set(flags -mavx512f -mavx512vl -mavx512bw -mavx2 -mbmi2 -madx)
  elseif(level STREQUAL "ifma")
    set(flags -mavx512f -mavx512vl -mavx512bw -mavx512ifma -mavx2)
  elseif(level STREQUAL "aesni")
    # AES-NI and PCLMULQDQ belong to the sse41 run-time level.
    set(flags -msse4.1 -mssse3 -maes -mpclmul)
  elseif(level STREQUAL "vaes")
    # VAES and VPCLMULQDQ belong to the avx512 run-time level.
    set(flags -mavx512f -mavx512vl -mavx512bw -mavx2 -mvaes -mvpclmulqdq -maes -mpclmul)
  else()
    message(FATAL_ERROR "unknown instruction-set level ${level}")
  endif()
  if(level MATCHES "^(avx512|avx512_bmi2|ifma|vaes)$")
    # GCC 12's avx512fintrin.h trips -Wmaybe-uninitialized on its own
    # _mm512_undefined_* placeholders; the warning is about the header.
    list(APPEND flags $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized> $<$<CXX_COMPILER_ID:GNU>:-Wno-uninitialized>)
  endif()
  target_sources(${target} PRIVATE ${ARGN})
  set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target} PROPERTIES COMPILE_OPTIONS "${flags}")
endfunction()

# sealwire_pkg_config(NAME DESCRIPTION REQUIRES LIBS) writes and installs
# sealwire-NAME.pc. It adds no -std= flag: consumers compile as C++20 themselves.
function(sealwire_pkg_config name description requires libs)
  if(NOT SEALWIRE_INSTALL)
    return()
  endif()
  set(SEALWIRE_PC_NAME "sealwire-${name}")
  set(SEALWIRE_PC_DESCRIPTION "${description}")
  set(SEALWIRE_PC_REQUIRES "${requires}")
  set(SEALWIRE_PC_LIBS "${libs}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/sealwire-component.pc.in
                 ${PROJECT_BINARY_DIR}/pkgconfig/sealwire-${name}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/sealwire-${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
