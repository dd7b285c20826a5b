// SPDX-License-Identifier: Apache-2.0
// SEALWIRE_API marks the public API of sealwire's shared libraries, which are
// built with hidden symbol visibility; nothing unmarked is exported. Every
// public header includes it; an application has nothing to call here.
#pragma once

// On ELF platforms the same attribute serves the library that defines a
// symbol and the program that uses it. sealwire targets Linux (getrandom(2));
// other platforms are not supported, so no dllexport/dllimport pair is needed.
#if defined(__GNUC__) || defined(__clang__)
#define SEALWIRE_API __attribute__((visibility("default")))
#else
#define SEALWIRE_API
#endif
