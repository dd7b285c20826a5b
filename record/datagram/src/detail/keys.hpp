// SPDX-License-Identifier: Apache-2.0
// Internal: a datagram direction's keys (docs/protocol.md 9.1): the epoch
// secrets, AEAD keys and IVs, the header protection key and its mask
// (9.3, RFC 9001 5.4.3 and 5.4.4).
#pragma once

#include <sealwire/crypto/aead.hpp>
#include <sealwire/crypto/aes.hpp>
#include <sealwire/crypto/secret.hpp>
#include <sealwire/hpke/suite.hpp>
#include <sealwire/record/config.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace sealwire::record::datagram::detail {

using bytes_view = std::span<const std::uint8_t>;

// suite is what a channel's keys are derived and used with.
struct suite {
  record_aead aead = record_aead::chacha20_poly1305;
  crypto::aead_algorithm alg = crypto::aead_algorithm::chacha20_poly1305;
  hpke::kdf_id kdf = hpke::kdf_id::hkdf_sha256;
  std::size_t nh = 32, nk = 32, nn = 12, nhp = 32;
};

// make_suite fills in the sizes of an AEAD and KDF the record protocol has;
// false for any other.
bool make_suite(suite& s, record_aead aead, hpke::kdf_id kdf) noexcept;

// epoch_keys are one epoch's AEAD key and IV, and (while a successor may
// still be derived from it) its secret dg_e.
struct epoch_keys {
  std::uint64_t epoch = 0;
  crypto::secret_array<64> secret;  // dg_e, nh bytes; wiped once the successor exists
  crypto::aead_key key;
  crypto::secret_array<24> iv;  // nn bytes used
  bool live = false;

  // wipe wipes secret, key and IV; the epoch is no longer live.
  void wipe() noexcept;
};

// set_epoch makes `k` epoch `epoch` with secret dg_e: key and IV derived.
void set_epoch(const suite& s, epoch_keys& k, std::uint64_t epoch, bytes_view secret) noexcept;
// next_epoch makes `next` the successor of `k` (dg_{e+1} from k's secret).
void next_epoch(const suite& s, const epoch_keys& k, epoch_keys& next) noexcept;
// make_nonce writes iv XOR (0^(nn-8) || u64 seq).
void make_nonce(const suite& s, const epoch_keys& k, std::uint64_t seq, std::uint8_t* nonce) noexcept;

// header_protection derives masks from body samples (9.3).
class header_protection {
 public:
  // init sets the key: hp = ExpandLabel(dg_0, "dg hp", "", Nhp).
  void init(const suite& s, bytes_view dg0) noexcept;
  // init_key sets the hp key itself (tests).
  void init_key(const suite& s, bytes_view hp) noexcept;
  // mask writes the 5 mask bytes for a 16-byte sample.
  void mask(std::span<std::uint8_t, 5> out, std::span<const std::uint8_t, 16> sample) noexcept;
  void wipe() noexcept;

 private:
  bool aes_ = false;
  crypto::aes_block_cipher aes_cipher_;
  crypto::secret_array<32> chacha_key_;
};

// aead_blocks_limit and integrity_limit are the AEAD's per-key limits (9.6).
std::uint64_t aead_blocks_limit(crypto::aead_algorithm alg) noexcept;
std::uint64_t aead_integrity_limit(crypto::aead_algorithm alg) noexcept;

}  // namespace sealwire::record::datagram::detail
