// SPDX-License-Identifier: Apache-2.0
// ECDSA signing and verification (FIPS 186-5 6.4) on P-256, P-384 and P-521
// with RFC 6979 nonces, over the curve arithmetic of detail/nist_scalar_mul.hpp
// and the group-order field of detail/nist_curves.hpp.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/crypto/ecdsa.hpp>
#include <sealwire/crypto/hmac.hpp>
#include <sealwire/crypto/random.hpp>

#include "detail/ecdsa_der.hpp"
#include "detail/nist_kernel.hpp"
#include "detail/nist_scalar_mul.hpp"
#include "detail/safegcd_inverse.hpp"

#include <cstring>

namespace sealwire::crypto {
namespace {

template <nist_curve C>
struct ops {
  using curve = detail::curve_t<C>;
  using E = detail::ec<curve>;
  using F = typename curve::field;
  using S = typename curve::scalar_field;
  using sfe = typename S::fe;
  using H = typename ecdsa<C>::hash;
  static constexpr std::size_t L = curve::bytes;
  // qlen, the bit length of n (RFC 6979 2.3.2): 256, 384, 521.
  static constexpr std::size_t qlen = curve::bits;
  static constexpr std::size_t hlen = H::digest_size;
  static_assert((qlen + 7) / 8 == L);
  static_assert(ecdsa<C>::max_der_signature_size == detail::der_signature_max(L));

  static constexpr auto n_be = detail::from_hex<L>(curve::n_hex);
  // n - 2, the Fermat exponent of the scalar inversion (n ends in an odd byte above 2).
  static constexpr auto n_minus_2 = [] {
    auto e = n_be;
    e.b[L - 1] = static_cast<std::uint8_t>(e.b[L - 1] - 2);
    return e;
  }();

  // bits2int (RFC 6979 2.3.2): the leftmost qlen bits of in as an integer,
  // written as L big-endian bytes (below 2^qlen, not reduced).
  static void bits2int(std::uint8_t* out, std::span<const std::uint8_t> in) noexcept {
    std::memset(out, 0, L);
    if (in.size() * 8 <= qlen) {
      std::memcpy(out + L - in.size(), in.data(), in.size());
      return;
    }
    constexpr unsigned shift = 8 * L - qlen;  // 7 for P-521, else 0
    std::uint8_t prev = 0;
    for (std::size_t i = 0; i < L; ++i) {
      out[i] = shift == 0 ? in[i] : static_cast<std::uint8_t>(in[i] >> shift | prev << (8 - shift));
      prev = in[i];
    }
  }

  // scalar_of reads L big-endian bytes below R as a Montgomery scalar mod n
  // (the product with R^2 reduces any such value).
  static void scalar_of(sfe& out, const std::uint8_t* be) noexcept { static_cast<void>(S::from_bytes(out, be)); }

  // digest_scalar: e = bits2int(digest) mod n (FIPS 186-5 6.4.1 step 4).
  static void digest_scalar(sfe& out, std::span<const std::uint8_t> digest) noexcept {
    std::uint8_t t[L];
    bits2int(t, digest);
    scalar_of(out, t);
  }

  static const sfe& one() noexcept {
    static const sfe v = [] {
      std::uint8_t b[L] = {};
      b[L - 1] = 1;
      sfe x;
      scalar_of(x, b);
      return x;
    }();
    return v;
  }

  // invert: 1 / a mod n, the same operations for every a (constant time):
  // by divsteps for P-256 (detail/safegcd_inverse.hpp, on the Montgomery
  // limbs a R scaled by R^2: (a R)^-1 R^2 = a^-1 R), else a^(n-2) (Fermat).
  static void invert(sfe& out, const sfe& a) noexcept {
    if constexpr (C == nist_curve::p256) {
      static constexpr detail::safegcd_modulus mod = detail::make_safegcd_modulus(S::p.v);
      detail::safegcd_invert(out.v, a.v, S::r2.v, mod);
    } else {
      detail::pow_public<S>(out, a, n_minus_2.b, L, one());
    }
  }

  // in_range is true when 0 < v < n; v may be secret, only the verdict leaves.
  static bool in_range(const std::uint8_t* v) noexcept { return detail::scalar_in_range<curve>(v); }

  // decode_key reads a public key (SEC 1 uncompressed, validated as ECDH does).
  static bool decode_key(typename E::affine& q, std::span<const std::uint8_t> pub) noexcept {
    return pub.size() == ecdsa<C>::public_key_size && pub[0] == 0x04 && E::decode_point(q, pub.data() + 1);
  }

  // ---- RFC 6979 3.2: the HMAC-DRBG that derives k ----
  //
  // One HMAC object stays keyed with the current K, so the steps that MAC
  // under the same K (V = HMAC_K(V) after each new K, and the candidate
  // blocks) do not hash the key pads again. Destruction wipes K's state
  // (hmac's destructor) and V.
  class drbg {
   public:
    drbg() noexcept = default;
    drbg(const drbg&) = delete;
    drbg& operator=(const drbg&) = delete;
    ~drbg() { ct::wipe(v_, hlen); }

    // Steps b-g: x is int2octets(d), h is bits2octets(h1), extra the
    // hedged variant's random bytes (RFC 6979 3.6; empty when deterministic).
    void init(const std::uint8_t* x, const std::uint8_t* h, std::span<const std::uint8_t> extra) noexcept {
      std::uint8_t k[hlen] = {};
      std::memset(v_, 0x01, hlen);
      mac_.init(k);
      for (std::uint8_t sep : {std::uint8_t{0x00}, std::uint8_t{0x01}}) {
        const std::uint8_t sep_byte[1] = {sep};
        mac(k, v(), std::span<const std::uint8_t>(sep_byte), std::span<const std::uint8_t>(x, L),
            std::span<const std::uint8_t>(h, L), extra);
        mac_.init(k);
        mac(v_, v());
      }
      ct::wipe(k, hlen);
    }

    // Step h.1-h.2: the next candidate k = bits2int(T) for T of at least
    // qlen bits, as L big-endian bytes.
    void generate(std::uint8_t* k) noexcept {
      constexpr std::size_t blocks = (L + hlen - 1) / hlen;
      std::uint8_t t[blocks * hlen];
      for (std::size_t i = 0; i < blocks; ++i) {
        mac(v_, v());
        std::memcpy(t + i * hlen, v_, hlen);
      }
      bits2int(k, std::span<const std::uint8_t>(t, blocks * hlen));
      ct::wipe(t, sizeof t);
    }

    // Step h.3: after a rejected candidate (out of range, or r or s zero).
    void reseed() noexcept {
      const std::uint8_t zero[1] = {0};
      std::uint8_t k[hlen];
      mac(k, v(), std::span<const std::uint8_t>(zero));
      mac_.init(k);
      mac(v_, v());
      ct::wipe(k, hlen);
    }

   private:
    std::span<const std::uint8_t> v() const noexcept { return std::span<const std::uint8_t>(v_, hlen); }

    // mac: out = HMAC_K(parts...) under the current K. The parts are read
    // before out is written, so out may be V itself.
    template <class... Parts>
    void mac(std::uint8_t* out, const Parts&... parts) noexcept {
      (mac_.update(parts), ...);
      mac_.finish(std::span<std::uint8_t, hlen>(out, hlen));
    }

    hmac<H> mac_;
    std::uint8_t v_[hlen];
  };

  // sign writes r and s (L bytes each) for private key d (in [1, n-1]) and
  // a digest. Constant time in d and k: the only branches on secret-derived
  // values are the verdicts of the candidate checks, each declassified.
  static result<void> sign(std::uint8_t* r_out, std::uint8_t* s_out, const std::uint8_t* d,
                           std::span<const std::uint8_t> digest, const ecdsa_sign_options& opt) noexcept {
    drbg g;
    struct state {
      std::uint8_t h[L], k[L], x1[L], extra[L];
      sfe e, dm, km, kinv, rm, sm, t;
    } s;
    std::span<const std::uint8_t> extra;
    if (opt.hedged) {
      if (auto rr = random_bytes(std::span<std::uint8_t>(s.extra, L)); !rr) {
        ct::wipe_object(s);
        return rr;
      }
      extra = std::span<const std::uint8_t>(s.extra, L);
    }
    digest_scalar(s.e, digest);
    S::to_bytes(s.h, s.e);  // bits2octets(h1) = int2octets(bits2int(h1) mod n)
    g.init(d, s.h, extra);
    scalar_of(s.dm, d);
    for (;;) {
      g.generate(s.k);
      if (!in_range(s.k)) {
        g.reseed();
        continue;
      }
      // r = x(k G) mod n (FIPS 186-5 6.4.1 steps 5-8).
      base_x(s.x1, s.k);
      scalar_of(s.rm, s.x1);
      S::to_bytes(r_out, s.rm);
      ct::declassify(r_out, L);  // r is part of the signature
      // s = k^-1 (e + r d) mod n (step 10).
      scalar_of(s.km, s.k);
      invert(s.kinv, s.km);
      S::mul(s.t, s.rm, s.dm);
      S::add(s.t, s.t, s.e);
      S::mul(s.sm, s.kinv, s.t);
      S::to_bytes(s_out, s.sm);
      ct::declassify(s_out, L);
      if (is_zero(r_out) || is_zero(s_out)) {
        g.reseed();
        continue;
      }
      break;
    }
    if (opt.low_s && above_half_n(s_out)) {
      // s = n - s, on public bytes.
      std::uint8_t borrow = 0;
      for (std::size_t i = L; i-- > 0;) {
        const unsigned diff = unsigned{n_be.b[i]} - s_out[i] - borrow;
        s_out[i] = static_cast<std::uint8_t>(diff);
        borrow = static_cast<std::uint8_t>((diff >> 8) & 1);
      }
    }
    ct::wipe_object(s);
    return {};
  }

  static bool is_zero(const std::uint8_t* v) noexcept {
    std::uint8_t acc = 0;
    for (std::size_t i = 0; i < L; ++i) acc |= v[i];
    return acc == 0;
  }

  // above_half_n: s > (n - 1) / 2 for a public s, that is 2 s > n.
  static bool above_half_n(const std::uint8_t* sv) noexcept {
    std::uint8_t twice[L + 1];
    unsigned carry = 0;
    for (std::size_t i = L; i-- > 0;) {
      carry += 2u * sv[i];
      twice[i + 1] = static_cast<std::uint8_t>(carry);
      carry >>= 8;
    }
    twice[0] = static_cast<std::uint8_t>(carry);
    std::uint8_t n1[L + 1] = {};
    std::memcpy(n1 + 1, n_be.b, L);
    return detail::be_less_than_mask(n1, twice, L + 1) != 0;
  }

  // verify (FIPS 186-5 6.4.2) on public inputs, variable time.
  static result<void> verify(std::span<const std::uint8_t> pub, std::span<const std::uint8_t> digest,
                             const std::uint8_t* r, const std::uint8_t* sv) noexcept {
    typename E::affine q;
    if (!decode_key(q, pub)) return crypto_errc::invalid_public_key;
    if (!in_range(r) || !in_range(sv)) return crypto_errc::invalid_signature;
    sfe e, sm, w, rm, u;
    std::uint8_t u1[L], u2[L];
    digest_scalar(e, digest);
    scalar_of(sm, sv);
    S::invert_vartime(w, sm);  // s is public
    scalar_of(rm, r);
    S::mul(u, e, w);
    S::to_bytes(u1, u);
    S::mul(u, rm, w);
    S::to_bytes(u2, u);
    if (verify_r(u1, u2, q, pub.data() + 1, r)) return {};
    return crypto_errc::invalid_signature;
  }

  // base_x: x(k G) as L bytes, k secret; P-256 and P-521 through their
  // kernel tables.
  static void base_x(std::uint8_t* x, const std::uint8_t* k) noexcept {
    if constexpr (detail::has_kernels<C>) {
      detail::kernel_of<C>().base_x(x, k);
    } else {
      E::base_x(x, k);
    }
  }

  // verify_r: u1 G + u2 Q is not the identity and its x mod n is r (public
  // inputs; q is the decoded key, q_xy its X || Y, which the P-256 and
  // P-521 kernels decode for their own fields).
  static bool verify_r(const std::uint8_t* u1, const std::uint8_t* u2, const typename E::affine& q,
                       const std::uint8_t* q_xy, const std::uint8_t* r) noexcept {
    if constexpr (detail::has_kernels<C>) {
      return detail::kernel_of<C>().verify_r(u1, u2, q_xy, r);
    } else {
      return E::verify_r(u1, u2, q, r);
    }
  }

  // parse_der: DER to r and s; false for anything but strict DER.
  static bool parse_der(std::uint8_t* r, std::uint8_t* sv, std::span<const std::uint8_t> der) noexcept {
    return detail::der_decode_signature(r, sv, der, L);
  }
};

template <nist_curve C>
result<void> verify_p1363(std::span<const std::uint8_t> pub, std::span<const std::uint8_t> digest,
                          std::span<const std::uint8_t> sig) noexcept {
  using O = ops<C>;
  // The key is checked before the signature's length, so a bad key reports
  // invalid_public_key whatever the signature.
  if (sig.size() != 2 * O::L) {
    typename O::E::affine q;
    return O::decode_key(q, pub) ? crypto_errc::invalid_signature : crypto_errc::invalid_public_key;
  }
  return O::verify(pub, digest, sig.data(), sig.data() + O::L);
}

template <nist_curve C>
result<void> verify_der_digest(std::span<const std::uint8_t> pub, std::span<const std::uint8_t> digest,
                               std::span<const std::uint8_t> sig) noexcept {
  using O = ops<C>;
  std::uint8_t rs[2 * O::L];
  if (!O::parse_der(rs, rs + O::L, sig)) {
    // An unparsable signature: report the key first, as verify_p1363 does.
    return verify_p1363<C>(pub, digest, std::span<const std::uint8_t>());
  }
  return O::verify(pub, digest, rs, rs + O::L);
}

}  // namespace

template <nist_curve C>
result<typename ecdsa<C>::signing_key> ecdsa<C>::signing_key::from_private_key(private_key_span d) noexcept {
  signing_key key;
  if (auto r = ecdh_nist<C>::public_key(std::span<std::uint8_t, public_key_size>(key.public_), d); !r) return r.error();
  std::memcpy(key.d_.data(), d.data(), private_key_size);
  return key;
}

template <nist_curve C>
result<typename ecdsa<C>::signing_key> ecdsa<C>::signing_key::generate() noexcept {
  signing_key key;
  if (auto r = ecdh_nist<C>::generate(key.d_.span(), std::span<std::uint8_t, public_key_size>(key.public_)); !r) {
    return r.error();
  }
  return key;
}

template <nist_curve C>
result<void> ecdsa<C>::signing_key::sign_digest(signature_span out, std::span<const std::uint8_t> digest,
                                                ecdsa_sign_options options) const noexcept {
  auto r = ops<C>::sign(out.data(), out.data() + scalar_size, d_.data(), digest, options);
  if (!r) ct::wipe(out);
  return r;
}

template <nist_curve C>
result<void> ecdsa<C>::signing_key::sign(signature_span out, std::span<const std::uint8_t> message,
                                         ecdsa_sign_options options) const noexcept {
  std::uint8_t h[digest_size];
  hash::hash(h, message);
  return sign_digest(out, h, options);
}

template <nist_curve C>
result<std::size_t> ecdsa<C>::signing_key::sign_digest_der(der_span out, std::span<const std::uint8_t> digest,
                                                           ecdsa_sign_options options) const noexcept {
  std::uint8_t rs[signature_size];
  if (auto r = sign_digest(rs, digest, options); !r) {
    ct::wipe(out);
    return r.error();
  }
  return detail::der_encode_signature(out.data(), rs, rs + scalar_size, scalar_size);
}

template <nist_curve C>
result<std::size_t> ecdsa<C>::signing_key::sign_der(der_span out, std::span<const std::uint8_t> message,
                                                    ecdsa_sign_options options) const noexcept {
  std::uint8_t h[digest_size];
  hash::hash(h, message);
  return sign_digest_der(out, h, options);
}

template <nist_curve C>
result<void> ecdsa<C>::verify(std::span<const std::uint8_t> public_key, std::span<const std::uint8_t> message,
                              std::span<const std::uint8_t> signature) noexcept {
  std::uint8_t h[digest_size];
  hash::hash(h, message);
  return verify_p1363<C>(public_key, h, signature);
}

template <nist_curve C>
result<void> ecdsa<C>::verify_der(std::span<const std::uint8_t> public_key, std::span<const std::uint8_t> message,
                                  std::span<const std::uint8_t> signature) noexcept {
  std::uint8_t h[digest_size];
  hash::hash(h, message);
  return verify_der_digest<C>(public_key, h, signature);
}

template <nist_curve C>
result<void> ecdsa<C>::verify_digest(std::span<const std::uint8_t> public_key, std::span<const std::uint8_t> digest,
                                     std::span<const std::uint8_t> signature) noexcept {
  return verify_p1363<C>(public_key, digest, signature);
}

template <nist_curve C>
result<void> ecdsa<C>::verify_digest_der(std::span<const std::uint8_t> public_key,
                                         std::span<const std::uint8_t> digest,
                                         std::span<const std::uint8_t> signature) noexcept {
  return verify_der_digest<C>(public_key, digest, signature);
}

template <nist_curve C>
result<void> ecdsa<C>::der_to_p1363(signature_span out, std::span<const std::uint8_t> der) noexcept {
  using O = ops<C>;
  if (!O::parse_der(out.data(), out.data() + scalar_size, der) || !O::in_range(out.data()) ||
      !O::in_range(out.data() + scalar_size)) {
    ct::wipe(out);
    return crypto_errc::invalid_signature;
  }
  return {};
}

template <nist_curve C>
result<std::size_t> ecdsa<C>::p1363_to_der(der_span out, std::span<const std::uint8_t> sig) noexcept {
  using O = ops<C>;
  if (sig.size() != signature_size || !O::in_range(sig.data()) || !O::in_range(sig.data() + scalar_size)) {
    return crypto_errc::invalid_signature;
  }
  return detail::der_encode_signature(out.data(), sig.data(), sig.data() + scalar_size, scalar_size);
}

template <nist_curve C>
std::string_view ecdsa<C>::provider() noexcept {
  if constexpr (detail::has_kernels<C>) return detail::kernel_of<C>().name;
  return "portable";
}

template struct ecdsa<nist_curve::p256>;
template struct ecdsa<nist_curve::p384>;
template struct ecdsa<nist_curve::p521>;

}  // namespace sealwire::crypto
