// SPDX-License-Identifier: Apache-2.0
// Test support implementation.
#include "vectors.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sealwire::test {

bytes hex(std::string_view s) {
  bytes out;
  out.reserve(s.size() / 2);
  int hi = -1;
  for (char c : s) {
    int v;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
    else if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == ':') continue;
    else throw std::invalid_argument("bad hex digit in test data: " + std::string(s));
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(static_cast<std::uint8_t>(hi * 16 + v));
      hi = -1;
    }
  }
  if (hi >= 0) throw std::invalid_argument("odd-length hex in test data: " + std::string(s));
  return out;
}

std::string to_hex(std::span<const std::uint8_t> b) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(b.size() * 2);
  for (auto x : b) {
    s.push_back(digits[x >> 4]);
    s.push_back(digits[x & 15]);
  }
  return s;
}

bytes add_le(const bytes& a, const bytes& b) {
  bytes out(a.size());
  unsigned carry = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    carry += static_cast<unsigned>(a[i]) + b.at(i);
    out[i] = static_cast<std::uint8_t>(carry);
    carry >>= 8;
  }
  return out;
}

bytes concat(std::initializer_list<bytes> parts) {
  bytes out;
  for (const bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

bytes add_small(bytes x, unsigned v) {
  for (std::size_t i = x.size(); i-- > 0 && v != 0;) {
    v += x[i];
    x[i] = static_cast<std::uint8_t>(v);
    v >>= 8;
  }
  return x;
}

bool has_flag(const nlohmann::json& c, std::string_view flag) {
  const auto& flags = c["flags"];
  return std::any_of(flags.begin(), flags.end(), [&](const auto& f) { return f.template get<std::string>() == flag; });
}

bytes hex_of(const nlohmann::json& v) { return hex(v.get<std::string>()); }

std::filesystem::path vectors_dir() {
  if (const char* env = std::getenv("SEALWIRE_VECTORS_DIR"); env != nullptr && *env != '\0') return env;
  return SEALWIRE_VECTORS_DIR_DEFAULT;
}

std::optional<std::filesystem::path> find_vector(std::string_view relative) {
  const auto dir = vectors_dir();
  if (dir.empty()) return std::nullopt;
  auto p = dir / relative;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p, ec)) return std::nullopt;
  return p;
}

std::string missing_vector_message(std::string_view relative) {
  const auto dir = vectors_dir();
  if (dir.empty()) {
    return "vector file " + std::string(relative) + " not found: SEALWIRE_VECTORS_DIR is empty";
  }
  return "vector file " + std::string(relative) + " not found in " + dir.string() +
         " (SEALWIRE_VECTORS_DIR; the files ship in tests/vectors)";
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + p.string());
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

nlohmann::json load_json(const std::filesystem::path& p) { return nlohmann::json::parse(read_text(p)); }

namespace {
std::uint64_t splitmix(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

seeded_random::seeded_random(std::uint64_t seed) noexcept {
  for (auto& w : s_) w = splitmix(seed);
}

std::uint64_t seeded_random::next() noexcept {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t seeded_random::uniform(std::uint64_t bound) noexcept { return bound == 0 ? 0 : next() % bound; }

bytes seeded_random::fill(std::size_t n) {
  bytes b(n);
  (void)fill(std::span<std::uint8_t>(b));
  return b;
}

result<void> seeded_random::fill(std::span<std::uint8_t> out) noexcept {
  for (auto& x : out) x = static_cast<std::uint8_t>(next() >> 56);
  return {};
}

int differential_cases(int fallback) {
  if (const char* env = std::getenv("SEALWIRE_DIFFERENTIAL_CASES")) return std::max(1, std::atoi(env));
  return fallback;
}

std::vector<crypto::cpu::level> cpu_levels() {
  auto l = crypto::cpu::available_levels();
  return {l.begin(), l.end()};
}

void comparison_report::add(std::string& list, std::string_view name) {
  if (!list.empty()) list += ",";
  list += name;
}

void comparison_report::report(std::string_view what) const {
  ::testing::Test::RecordProperty("compared", compared_.empty() ? "none" : compared_);
  ::testing::Test::RecordProperty("not_runnable", not_runnable_.empty() ? "none" : not_runnable_);
  std::printf("[ compared ] %.*s: %s against portable; not runnable on this CPU: %s\n", static_cast<int>(what.size()),
              what.data(), compared_.empty() ? "nothing" : compared_.c_str(),
              not_runnable_.empty() ? "none" : not_runnable_.c_str());
}

void report_levels(std::string_view what) {
  const auto runnable = cpu_levels();
  comparison_report r;
  for (const auto level : crypto::cpu::all_levels) {
    if (level == crypto::cpu::level::portable) continue;
    if (std::find(runnable.begin(), runnable.end(), level) != runnable.end()) {
      r.compared(crypto::cpu::name(level));
    } else {
      r.not_runnable(crypto::cpu::name(level));
    }
  }
  r.report(what);
}

}  // namespace sealwire::test
