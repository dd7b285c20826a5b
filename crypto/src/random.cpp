// SPDX-License-Identifier: Apache-2.0
// The CSPRNG entry point on getrandom(2), with a replaceable source.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/random.hpp>
#include <sealwire/crypto/result.hpp>

#include <atomic>
#include <cerrno>
#include <sys/random.h>

namespace sealwire::crypto {
namespace {

class getrandom_source final : public random_source {
 public:
  result<void> fill(std::span<std::uint8_t> out) noexcept override {
    std::size_t done = 0;
    while (done < out.size()) {
      // getrandom may return fewer bytes than asked (above 256) or be interrupted.
      const ssize_t n = ::getrandom(out.data() + done, out.size() - done, 0);
      if (n < 0) {
        if (errno == EINTR) continue;
        return crypto_errc::rng_failure;
      }
      done += static_cast<std::size_t>(n);
    }
    return {};
  }
};

getrandom_source g_os;
std::atomic<random_source*> g_source{nullptr};

}  // namespace

random_source& os_random_source() noexcept { return g_os; }

random_source* set_random_source(random_source* src) noexcept { return g_source.exchange(src); }

result<void> random_bytes(std::span<std::uint8_t> out) noexcept {
  random_source* src = g_source.load();
  result<void> r = (src != nullptr ? *src : g_os).fill(out);
  if (!r) ct::wipe(out);
  return r;
}

}  // namespace sealwire::crypto
