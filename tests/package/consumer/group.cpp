// SPDX-License-Identifier: Apache-2.0
// Uses sealwire::group (the MLS codec) from an installed package: a
// variable-length integer written and read back, and a non-minimal one refused.
#include <sealwire/record/group/codec.hpp>

#include <cstdint>
#include <cstdio>

int main() {
  using namespace sealwire::record::group;
  writer w;
  w.varint(300);
  const auto bytes = w.take();
  reader r(bytes);
  const bool round_trip = r.varint() == 300 && r.ok();
  const std::uint8_t padded[] = {0x40, 0x05};
  reader bad(padded);
  (void)bad.varint();
  const bool refused = bad.error() == codec_errc::non_minimal_varint;
  std::printf("group: %d\n", round_trip && refused);
  return round_trip && refused ? 0 : 1;
}
