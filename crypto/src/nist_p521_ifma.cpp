// SPDX-License-Identifier: Apache-2.0
// The P-521 kernel over the AVX-512 IFMA field of p521_field_ifma.hpp
// (eleven 48-bit limbs in two zmm registers): the same point formulas and
// scalar multiplications as the portable kernel (nist_scalar_mul.hpp),
// instantiated with the other field, and its table scans in AVX2 words
// (nist_table_select.hpp). For the avx512 level; p521_kernel_choice()
// (nist_p521.cpp) picks it at run time.
#include "detail/nist_kernel.hpp"
#include "detail/nist_scalar_mul.hpp"
#include "detail/p521_field_ifma.hpp"

namespace sealwire::crypto::detail {
namespace {

// p521_ifma_curve: P-521's parameters with the IFMA field.
struct p521_ifma_curve : p521_curve {
  using field = p521_ifma_field;
};
using E = ec<p521_ifma_curve>;
// ec_point picks the field's cmov, half and add_lazy when it has them: this
// field's must keep matching (a drift would only be slower, silently).
static_assert(requires(p521_ifma_field::fe& r, const p521_ifma_field::fe& a) {
  p521_ifma_field::cmov(r, a, std::uint64_t{});
  p521_ifma_field::half(r, a);
  p521_ifma_field::add_lazy(r, a, a);
});

}  // namespace

const nist_kernel p521_kernel_ifma = {"avx512ifma", &E::shared, &E::base, &E::base_x, &E::verify_r_bytes};

}  // namespace sealwire::crypto::detail
