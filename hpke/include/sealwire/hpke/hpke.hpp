// SPDX-License-Identifier: Apache-2.0
// HPKE (RFC 9180), everything: hybrid public-key encryption in all four
// modes, every RFC suite (X25519, X448, P-256, P-384, P-521; HKDF-SHA256/384/512;
// AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305, export-only), secret export.
// Start with single_shot.hpp (one call each way) and keys.hpp; context.hpp
// holds the contexts for several messages and the PSK and auth modes.
#pragma once

#include <sealwire/hpke/context.hpp>
#include <sealwire/hpke/error.hpp>
#include <sealwire/hpke/keys.hpp>
#include <sealwire/hpke/single_shot.hpp>
#include <sealwire/hpke/suite.hpp>
