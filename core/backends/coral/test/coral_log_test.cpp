// The edgetpu_compiler log parser on the verbatim logs quoted in
// the Edge TPU research notes (appendix A, C, E).
#include <gtest/gtest.h>

#include "core/backends/coral/compiler_log.h"

using namespace ec::backends::coral;

TEST(CompilerLog, StdoutWithoutTable) {  // google-coral/edgetpu#433
  const auto log = parse_compiler_log(R"(Edge TPU Compiler version 16.0.384591198
Started a compilation timeout timer of 180 seconds.

Model compiled successfully in 96 ms.

Input model: inference_proxy_mobilenet_quantized_v2.tflite
Input size: 7.02MiB
Output model: inference_proxy_mobilenet_quantized_v2_edgetpu.tflite
Output size: 7.14MiB
On-chip memory used for caching model parameters: 80.00KiB
On-chip memory remaining for caching model parameters: 6.04MiB
Off-chip memory used for streaming uncached model parameters: 0.00B
Number of Edge TPU subgraphs: 1
Total number of operations: 191
Operation log: inference_proxy_mobilenet_quantized_v2_edgetpu.log

Model successfully compiled but not all operations are supported by the Edge TPU. A percentage of the model will instead run on the CPU, which is slower. If possible, consider updating your model to use only operations supported by the Edge TPU. For details, visit g.co/coral/model-reqs.
Number of operations that will run on Edge TPU: 1
Number of operations that will run on CPU: 190
See the operation log file for individual operation details.
Compilation child process completed within timeout period.
Compilation succeeded!
)");
  EXPECT_EQ(log.version, "16.0.384591198");
  EXPECT_TRUE(log.succeeded);
  EXPECT_EQ(log.ops_on_tpu, 1);
  EXPECT_EQ(log.ops_on_cpu, 190);
  EXPECT_EQ(log.subgraphs, 1);
  EXPECT_EQ(log.total_ops, 191);
  EXPECT_EQ(log.on_chip_used, "80.00KiB");
  EXPECT_EQ(log.off_chip_used, "0.00B");
  EXPECT_TRUE(log.rows.empty());
}

TEST(CompilerLog, StatusTable) {  // google-coral/edgetpu#342
  const auto log = parse_compiler_log(R"(Number of operations that will run on Edge TPU: 2
Number of operations that will run on CPU: 153

Operator                       Count      Status


TRANSPOSE                      70         Operation not supported
FULLY_CONNECTED                1          More than one subgraph is not supported
PAD                            1          Mapped to Edge TPU
PAD                            17         More than one subgraph is not supported
ADD                            10         More than one subgraph is not supported
MEAN                           2          More than one subgraph is not supported
CONV_2D                        35         More than one subgraph is not supported
QUANTIZE                       1          Mapped to Edge TPU
QUANTIZE                       1          Operation is otherwise supported, but not mapped due to some unspecified limitation
DEPTHWISE_CONV_2D              17         More than one subgraph is not supported
)");
  ASSERT_EQ(log.rows.size(), 10u);
  EXPECT_EQ(log.rows[0].op, "TRANSPOSE");
  EXPECT_EQ(log.rows[0].count, 70);
  EXPECT_EQ(log.rows[0].status, "Operation not supported");
  EXPECT_EQ(log.rows[8].status, "Operation is otherwise supported, but not mapped due to some unspecified limitation");
  int total = 0;
  for (const auto& r : log.rows) total += r.count;
  EXPECT_EQ(total, 155);
}

TEST(CompilerLog, OperationLogFile) {  // nrf20 README, compiler 15.0.340273435
  const auto log = parse_compiler_log(R"(Edge TPU Compiler version 15.0.340273435
Input: mnist4.tflite
Output: mnist4_edgetpu.tflite

Operator                       Count      Status

RESHAPE                        1          Mapped to Edge TPU
CONV_2D                        2          Mapped to Edge TPU
SOFTMAX                        1          Mapped to Edge TPU
QUANTIZE                       1          Operation is otherwise supported, but not mapped due to some unspecified limitation
DEQUANTIZE                     1          Operation is working on an unsupported data type
MAX_POOL_2D                    2          Mapped to Edge TPU
FULLY_CONNECTED                2          Mapped to Edge TPU
)");
  EXPECT_EQ(log.version, "15.0.340273435");
  EXPECT_EQ(log.input_model, "mnist4.tflite");
  EXPECT_EQ(log.rows.size(), 7u);
  EXPECT_EQ(log.ops_on_tpu, 8);
  EXPECT_EQ(log.ops_on_cpu, 2);
}

TEST(CompilerLog, WholeModelFailure) {  // #313
  const auto log = parse_compiler_log("Edge TPU Compiler version 2.0.267685300\nInvalid model: x.tflite\nModel not quantized\n");
  EXPECT_FALSE(log.succeeded);
  ASSERT_EQ(log.errors.size(), 2u);
  EXPECT_EQ(log.errors[1], "Model not quantized");
}
