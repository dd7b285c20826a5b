// SPDX-License-Identifier: Apache-2.0
// RFC 9420 8.4: chaining the pre-shared keys into psk_secret.
#include <sealwire/record/group/psk.hpp>

#include <sealwire/record/group/codec.hpp>
#include <sealwire/record/group/crypto_helpers.hpp>
#include <sealwire/record/group/group_error.hpp>

#include <array>
#include <limits>

namespace sealwire::record::group {

result<crypto::secret_bytes> derive_psk_secret(const suite_algorithms& suite, std::span<const psk_input> psks) {
  if (psks.size() > std::numeric_limits<std::uint16_t>::max()) return group_errc::invalid_argument;
  const std::size_t nh = suite.hash_size();
  const std::array<std::uint8_t, max_hash_size> zero{};
  crypto::secret_bytes secret(nh);  // psk_secret_[0] = 0
  const auto count = static_cast<std::uint16_t>(psks.size());
  for (std::uint16_t i = 0; i < count; ++i) {
    crypto::secret_array<max_hash_size> extracted;
    suite.extract(extracted.span(), bytes_view(zero).first(nh), psks[i].psk);
    // PSKLabel { PreSharedKeyID id; uint16 index; uint16 count; }
    writer label;
    label.fixed(psks[i].id);
    label.u16(i);
    label.u16(count);
    if (!label.ok()) return label.error();
    crypto::secret_array<max_hash_size> input;
    if (auto r = expand_with_label(suite, input.span().first(nh), extracted.span().first(nh), "derived psk",
                                   label.data());
        !r) {
      return r.error();
    }
    crypto::secret_array<max_hash_size> next;
    suite.extract(next.span(), input.span().first(nh), secret.span());
    std::copy_n(next.data(), nh, secret.data());
  }
  return secret;
}

}  // namespace sealwire::record::group
