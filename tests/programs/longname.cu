// A kernel template instantiated over two types with long names, so that
// its mangled name passes the 255 bytes a file name may have (issue 24, row
// 16: `exec --report` wrote no chart for such a kernel, without a word).
// Two instantiations that differ only at the end of the name must still get
// two charts.
#include "check.h"
#include <vector>

namespace a_rather_long_namespace_name_as_template_libraries_and_generated_code_have_them_often {
struct first_policy_type_with_a_long_descriptive_name_for_the_test_of_file_names {
  __device__ static float apply(float x) { return 2.0f * x; }
};
struct second_policy_type_with_a_long_descriptive_name_for_the_test_of_file_names_y {
  __device__ static float apply(float x) { return x + 1.0f; }
};
struct third_policy_type_with_a_long_descriptive_name_for_the_test_of_file_names_x {
  __device__ static float apply(float x) { return x * x; }
};
}  // namespace a_rather_long_namespace_name_as_template_libraries_and_generated_code_have_them_often
namespace ns = a_rather_long_namespace_name_as_template_libraries_and_generated_code_have_them_often;

template <typename P, typename Q>
__global__ void apply_two_policies(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Q::apply(P::apply(x[i]));
}

int main() {
  const int n = 256;
  std::vector<float> x(n), want1(n), want2(n), got1(n), got2(n);
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 17) - 8;
    want1[i] = 2.0f * x[i] + 1.0f;
    want2[i] = (2.0f * x[i]) * (2.0f * x[i]);
  }
  float *dx, *dout;
  CK(cudaMalloc(&dx, n * sizeof(float)));
  CK(cudaMalloc(&dout, n * sizeof(float)));
  CK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  apply_two_policies<ns::first_policy_type_with_a_long_descriptive_name_for_the_test_of_file_names,
                     ns::second_policy_type_with_a_long_descriptive_name_for_the_test_of_file_names_y>
      <<<2, 128>>>(dx, dout, n);
  CK(cudaMemcpy(got1.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  apply_two_policies<ns::first_policy_type_with_a_long_descriptive_name_for_the_test_of_file_names,
                     ns::third_policy_type_with_a_long_descriptive_name_for_the_test_of_file_names_x>
      <<<2, 128>>>(dx, dout, n);
  CK(cudaMemcpy(got2.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = close_all("longname first", got1.data(), want1.data(), n) &&
            close_all("longname second", got2.data(), want2.data(), n);
  return ok ? 0 : 1;
}
