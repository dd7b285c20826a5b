// SPDX-License-Identifier: Apache-2.0
// RFC 9420 6.3.2: sender_data_key and sender_data_nonce.
#include <sealwire/record/group/sender_data_keys.hpp>

#include <sealwire/record/group/crypto_helpers.hpp>

#include <algorithm>

namespace sealwire::record::group {

result<sender_data_keys> derive_sender_data_keys(const suite_algorithms& suite, bytes_view sender_data_secret,
                                                 bytes_view ciphertext) {
  // ciphertext_sample = ciphertext[0..KDF.Nh-1], or the whole ciphertext when shorter.
  const bytes_view sample = ciphertext.first(std::min(ciphertext.size(), suite.hash_size()));
  sender_data_keys out;
  out.key_size = suite.key_size();
  if (auto r = expand_with_label(suite, out.key.span().first(out.key_size), sender_data_secret, "key", sample); !r) {
    return r.error();
  }
  if (auto r = expand_with_label(suite, out.nonce.span(), sender_data_secret, "nonce", sample); !r) return r.error();
  return out;
}

}  // namespace sealwire::record::group
