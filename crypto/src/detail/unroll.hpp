// SPDX-License-Identifier: Apache-2.0
// SEALWIRE_UNROLL: unroll the loop that follows (up to 16 trips). The NIST
// curves' limb loops and table scans have constant trip counts; unrolled,
// the limbs stay in registers and constants become immediates.
#pragma once

#ifndef SEALWIRE_UNROLL
#define SEALWIRE_UNROLL _Pragma("GCC unroll 16")
#endif
