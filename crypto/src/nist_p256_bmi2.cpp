// SPDX-License-Identifier: Apache-2.0
// The P-256 kernel over the mulx/adcx/adox field of p256_field_adx.hpp: the
// same point formulas and scalar multiplications as the portable kernel
// (nist_scalar_mul.hpp), instantiated with the other field, and its table
// scans in AVX2 words (nist_table_select.hpp). For CPUs with AVX2, BMI2 and
// ADX (the avx2 level); p256_kernel_choice() (nist_p256.cpp) picks it at
// run time.
#include "detail/nist_kernel.hpp"
#include "detail/nist_scalar_mul.hpp"
#include "detail/p256_field_adx.hpp"

namespace sealwire::crypto::detail {
namespace {

// p256_adx_curve: P-256's parameters with the four-limb mulx field.
struct p256_adx_curve : p256_curve {
  using field = p256_adx_field;
};
using E = ec<p256_adx_curve>;
// ec_point::cmov takes the field's cmov when it has one, else a masked XOR:
// this field's must keep matching (a drift would only be slower, silently).
static_assert(requires(p256_adx_field::fe& r, const p256_adx_field::fe& a) {
  p256_adx_field::cmov(r, a, std::uint64_t{});
});

}  // namespace

const nist_kernel p256_kernel_bmi2 = {"bmi2", &E::shared, &E::base, &E::base_x, &E::verify_r_bytes};

}  // namespace sealwire::crypto::detail
