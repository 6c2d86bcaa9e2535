// The ONE table of CPU kernels: {op, summary, function}. Add a row here when a
// kernel is written; rows follow the op table's order (checked at start-up in
// debug builds).
#include "core/runtime/kernel_registry.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "core/errors.h"
#include "core/runtime/kernels/kernels.h"

namespace ec::runtime {
namespace {

using K = ir::OpKind;

const KernelEntry kKernels[] = {
    {K::Conv, "im2col + Eigen GEMM, any spatial rank, groups, dilations, auto_pad (f32)", &kernels::kernel_Conv},
    {K::ConvTranspose, "direct scatter, groups, dilations, output_padding/output_shape (f32)", &kernels::kernel_ConvTranspose},
    {K::ConvInteger, "int32 sums of (x - x_zp)(w - w_zp): im2col into the int16 GEMM, groups, 1-3 spatial dims", &kernels::kernel_ConvInteger},
    {K::QLinearConv, "ConvInteger's sums + bias, requantised in float as ONNX Runtime (per-tensor or per-channel w)", &kernels::kernel_QLinearConv},
    {K::Gemm, "Eigen for f32, loops otherwise; C broadcast", &kernels::kernel_Gemm},
    {K::MatMul, "numpy batch broadcasting; Eigen for f32/f64", &kernels::kernel_MatMul},
    {K::MatMulInteger, "int32 (a - a_zp)(b - b_zp) on the int16 GEMM, zero points per tensor/row/column", &kernels::kernel_MatMulInteger},
    {K::QLinearMatMul, "MatMulInteger's sums requantised in float as ONNX Runtime (per-tensor or per-row/column scales)", &kernels::kernel_QLinearMatMul},
    {K::FullyConnected, "x * W^T + b (TFLite weight layout), f32", &kernels::kernel_FullyConnected},
    {K::Einsum, "direct summation over all index letters, with ... broadcasting", &kernels::kernel_Einsum},
    {K::Det, "LU determinant per matrix", &kernels::kernel_Det},
    {K::MaxPool, "any spatial rank, ceil_mode, dilations, optional indices", &kernels::kernel_MaxPool},
    {K::AveragePool, "any spatial rank, ceil_mode, count_include_pad", &kernels::kernel_AveragePool},
    {K::LpPool, "reference loops", &kernels::kernel_LpPool},
    {K::GlobalAveragePool, "reference loops", &kernels::kernel_GlobalAveragePool},
    {K::GlobalMaxPool, "reference loops", &kernels::kernel_GlobalMaxPool},
    {K::GlobalLpPool, "reference loops", &kernels::kernel_GlobalLpPool},
    {K::MaxUnpool, "zeros, then each value written back at its MaxPool index; output_shape optional", &kernels::kernel_MaxUnpool},
    {K::RoiAlign, "bilinear samples per bin, avg or max (ONNX Runtime's), half_pixel or output_half_pixel", &kernels::kernel_RoiAlign},
    {K::BatchNormalization, "inference form: y = x * a + b per channel", &kernels::kernel_BatchNormalization},
    {K::InstanceNormalization, "reference, double accumulation", &kernels::kernel_InstanceNormalization},
    {K::LayerNormalization, "trailing dims from axis; optional Mean/InvStdDev", &kernels::kernel_LayerNormalization},
    {K::GroupNormalization, "reference, double accumulation", &kernels::kernel_GroupNormalization},
    {K::LpNormalization, "reference, double accumulation", &kernels::kernel_LpNormalization},
    {K::LRN, "reference, double accumulation", &kernels::kernel_LRN},
    {K::MeanVarianceNormalization, "reference, double accumulation", &kernels::kernel_MeanVarianceNormalization},
    {K::Relu, "element-wise, f32/f64", &kernels::kernel_Relu},
    {K::LeakyRelu, "element-wise, f32/f64", &kernels::kernel_LeakyRelu},
    {K::PRelu, "element-wise, f32/f64", &kernels::kernel_PRelu},
    {K::Elu, "element-wise, f32/f64", &kernels::kernel_Elu},
    {K::Selu, "element-wise, f32/f64", &kernels::kernel_Selu},
    {K::Celu, "element-wise, f32/f64", &kernels::kernel_Celu},
    {K::ThresholdedRelu, "element-wise, f32/f64", &kernels::kernel_ThresholdedRelu},
    {K::Sigmoid, "element-wise, f32/f64", &kernels::kernel_Sigmoid},
    {K::HardSigmoid, "element-wise, f32/f64", &kernels::kernel_HardSigmoid},
    {K::HardSwish, "element-wise, f32/f64", &kernels::kernel_HardSwish},
    {K::Tanh, "element-wise, f32/f64", &kernels::kernel_Tanh},
    {K::Softplus, "element-wise, f32/f64", &kernels::kernel_Softplus},
    {K::Softsign, "element-wise, f32/f64", &kernels::kernel_Softsign},
    {K::Gelu, "element-wise, f32/f64", &kernels::kernel_Gelu},
    {K::Mish, "element-wise, f32/f64", &kernels::kernel_Mish},
    {K::Clip, "element-wise, f32/f64", &kernels::kernel_Clip},
    {K::Softmax, "max-subtracted, along one axis", &kernels::kernel_Softmax},
    {K::LogSoftmax, "element-wise, f32/f64", &kernels::kernel_LogSoftmax},
    {K::Hardmax, "element-wise, f32/f64", &kernels::kernel_Hardmax},
    {K::Add, "element-wise, numpy broadcasting", &kernels::kernel_Add},
    {K::Sub, "element-wise, numpy broadcasting", &kernels::kernel_Sub},
    {K::Mul, "element-wise, numpy broadcasting", &kernels::kernel_Mul},
    {K::Div, "element-wise, numpy broadcasting", &kernels::kernel_Div},
    {K::Pow, "element-wise, numpy broadcasting", &kernels::kernel_Pow},
    {K::Mod, "element-wise, numpy broadcasting", &kernels::kernel_Mod},
    {K::Max, "element-wise, numpy broadcasting", &kernels::kernel_Max},
    {K::Min, "element-wise, numpy broadcasting", &kernels::kernel_Min},
    {K::Mean, "element-wise, numpy broadcasting", &kernels::kernel_Mean},
    {K::Sum, "element-wise, numpy broadcasting", &kernels::kernel_Sum},
    {K::Abs, "element-wise, numpy broadcasting", &kernels::kernel_Abs},
    {K::Neg, "element-wise, numpy broadcasting", &kernels::kernel_Neg},
    {K::Sign, "element-wise, numpy broadcasting", &kernels::kernel_Sign},
    {K::Reciprocal, "element-wise, numpy broadcasting", &kernels::kernel_Reciprocal},
    {K::Sqrt, "element-wise, numpy broadcasting", &kernels::kernel_Sqrt},
    {K::Exp, "element-wise, numpy broadcasting", &kernels::kernel_Exp},
    {K::Log, "element-wise, numpy broadcasting", &kernels::kernel_Log},
    {K::Floor, "element-wise, numpy broadcasting", &kernels::kernel_Floor},
    {K::Ceil, "element-wise, numpy broadcasting", &kernels::kernel_Ceil},
    {K::Round, "element-wise, numpy broadcasting", &kernels::kernel_Round},
    {K::Erf, "element-wise, numpy broadcasting", &kernels::kernel_Erf},
    {K::Sin, "element-wise, numpy broadcasting", &kernels::kernel_Sin},
    {K::Cos, "element-wise, numpy broadcasting", &kernels::kernel_Cos},
    {K::Tan, "element-wise, numpy broadcasting", &kernels::kernel_Tan},
    {K::Asin, "element-wise, numpy broadcasting", &kernels::kernel_Asin},
    {K::Acos, "element-wise, numpy broadcasting", &kernels::kernel_Acos},
    {K::Atan, "element-wise, numpy broadcasting", &kernels::kernel_Atan},
    {K::Sinh, "element-wise, numpy broadcasting", &kernels::kernel_Sinh},
    {K::Cosh, "element-wise, numpy broadcasting", &kernels::kernel_Cosh},
    {K::Asinh, "element-wise, numpy broadcasting", &kernels::kernel_Asinh},
    {K::Acosh, "element-wise, numpy broadcasting", &kernels::kernel_Acosh},
    {K::Atanh, "element-wise, numpy broadcasting", &kernels::kernel_Atanh},
    {K::IsNaN, "element-wise, numpy broadcasting", &kernels::kernel_IsNaN},
    {K::IsInf, "element-wise, numpy broadcasting", &kernels::kernel_IsInf},
    {K::BitShift, "element-wise, numpy broadcasting", &kernels::kernel_BitShift},
    {K::BitwiseAnd, "element-wise, numpy broadcasting", &kernels::kernel_BitwiseAnd},
    {K::BitwiseOr, "element-wise, numpy broadcasting", &kernels::kernel_BitwiseOr},
    {K::BitwiseXor, "element-wise, numpy broadcasting", &kernels::kernel_BitwiseXor},
    {K::BitwiseNot, "element-wise, numpy broadcasting", &kernels::kernel_BitwiseNot},
    {K::Equal, "bool result, numpy broadcasting", &kernels::kernel_Equal},
    {K::Greater, "bool result, numpy broadcasting", &kernels::kernel_Greater},
    {K::GreaterOrEqual, "bool result, numpy broadcasting", &kernels::kernel_GreaterOrEqual},
    {K::Less, "bool result, numpy broadcasting", &kernels::kernel_Less},
    {K::LessOrEqual, "bool result, numpy broadcasting", &kernels::kernel_LessOrEqual},
    {K::And, "bool result, numpy broadcasting", &kernels::kernel_And},
    {K::Or, "bool result, numpy broadcasting", &kernels::kernel_Or},
    {K::Xor, "bool result, numpy broadcasting", &kernels::kernel_Xor},
    {K::Not, "bool result, numpy broadcasting", &kernels::kernel_Not},
    {K::Where, "bool result, numpy broadcasting", &kernels::kernel_Where},
    {K::ReduceSum, "reference loops, double accumulation for floats", &kernels::kernel_ReduceSum},
    {K::ReduceMean, "reference loops, double accumulation for floats", &kernels::kernel_ReduceMean},
    {K::ReduceMax, "reference loops, double accumulation for floats", &kernels::kernel_ReduceMax},
    {K::ReduceMin, "reference loops, double accumulation for floats", &kernels::kernel_ReduceMin},
    {K::ReduceProd, "reference loops, double accumulation for floats", &kernels::kernel_ReduceProd},
    {K::ReduceL1, "reference loops, double accumulation for floats", &kernels::kernel_ReduceL1},
    {K::ReduceL2, "reference loops, double accumulation for floats", &kernels::kernel_ReduceL2},
    {K::ReduceLogSum, "reference loops, double accumulation for floats", &kernels::kernel_ReduceLogSum},
    {K::ReduceLogSumExp, "reference loops, double accumulation for floats", &kernels::kernel_ReduceLogSumExp},
    {K::ReduceSumSquare, "reference loops, double accumulation for floats", &kernels::kernel_ReduceSumSquare},
    {K::ArgMax, "reference loops, double accumulation for floats", &kernels::kernel_ArgMax},
    {K::ArgMin, "reference loops, double accumulation for floats", &kernels::kernel_ArgMin},
    {K::CumSum, "reference loops, double accumulation for floats", &kernels::kernel_CumSum},
    {K::TopK, "reference loops, double accumulation for floats", &kernels::kernel_TopK},
    {K::Reshape, "no copy (shares storage)", &kernels::kernel_Reshape},
    {K::Flatten, "no copy", &kernels::kernel_Flatten},
    {K::Squeeze, "no copy", &kernels::kernel_Squeeze},
    {K::Unsqueeze, "no copy", &kernels::kernel_Unsqueeze},
    {K::Transpose, "byte copies, any fixed-size dtype", &kernels::kernel_Transpose},
    {K::Concat, "byte copies, any fixed-size dtype", &kernels::kernel_Concat},
    {K::Split, "byte copies, any fixed-size dtype", &kernels::kernel_Split},
    {K::Slice, "numpy clamping, negative steps", &kernels::kernel_Slice},
    {K::Gather, "byte copies, any fixed-size dtype", &kernels::kernel_Gather},
    {K::GatherElements, "byte copies, any fixed-size dtype", &kernels::kernel_GatherElements},
    {K::GatherND, "byte copies, any fixed-size dtype", &kernels::kernel_GatherND},
    {K::ScatterElements, "byte copies, any fixed-size dtype", &kernels::kernel_ScatterElements},
    {K::ScatterND, "byte copies, any fixed-size dtype", &kernels::kernel_ScatterND},
    {K::Pad, "constant, reflect, edge, wrap; negative pads crop", &kernels::kernel_Pad},
    {K::Tile, "byte copies, any fixed-size dtype", &kernels::kernel_Tile},
    {K::Expand, "byte copies, any fixed-size dtype", &kernels::kernel_Expand},
    {K::Shape, "byte copies, any fixed-size dtype", &kernels::kernel_Shape},
    {K::Size, "byte copies, any fixed-size dtype", &kernels::kernel_Size},
    {K::Identity, "no copy", &kernels::kernel_Identity},
    {K::Cast, "between numeric and bool dtypes; float->int truncates and saturates", &kernels::kernel_Cast},
    {K::CastLike, "byte copies, any fixed-size dtype", &kernels::kernel_CastLike},
    {K::DepthToSpace, "byte copies, any fixed-size dtype", &kernels::kernel_DepthToSpace},
    {K::SpaceToDepth, "byte copies, any fixed-size dtype", &kernels::kernel_SpaceToDepth},
    {K::Resize, "nearest/linear/cubic over any axes, all coordinate modes", &kernels::kernel_Resize},
    {K::Compress, "byte copies, any fixed-size dtype", &kernels::kernel_Compress},
    {K::ReverseSequence, "byte copies, any fixed-size dtype", &kernels::kernel_ReverseSequence},
    {K::Trilu, "byte copies, any fixed-size dtype", &kernels::kernel_Trilu},
    {K::OneHot, "byte copies, any fixed-size dtype", &kernels::kernel_OneHot},
    {K::NonZero, "byte copies, any fixed-size dtype", &kernels::kernel_NonZero},
    {K::Unique, "stable sort of elements or slices; sorted or first-occurrence order, 4 outputs", &kernels::kernel_Unique},
    {K::EyeLike, "byte copies, any fixed-size dtype", &kernels::kernel_EyeLike},
    {K::GridSample, "4-D: nearest/bilinear/bicubic, zeros/border/reflection, align_corners (f32/f64)", &kernels::kernel_GridSample},
    {K::ConstantOfShape, "reference", &kernels::kernel_ConstantOfShape},
    {K::Range, "reference", &kernels::kernel_Range},
    {K::QuantizeLinear, "round half to even, saturate; per tensor or per axis", &kernels::kernel_QuantizeLinear},
    {K::DequantizeLinear, "(q - zero_point) * scale; per tensor or per axis", &kernels::kernel_DequantizeLinear},
    {K::DynamicQuantizeLinear, "u8 with a range including 0", &kernels::kernel_DynamicQuantizeLinear},
    {K::LSTM, "reference loops; peepholes, clip, input_forget, both layouts", &kernels::kernel_LSTM},
    {K::GRU, "reference loops; linear_before_reset, clip, both layouts", &kernels::kernel_GRU},
    {K::RNN, "reference loops; clip, both layouts", &kernels::kernel_RNN},
    {K::Dropout, "inference: identity, mask all true", &kernels::kernel_Dropout},
    {K::NonMaxSuppression, "greedy per batch and class, IoU > threshold suppresses", &kernels::kernel_NonMaxSuppression},
    {K::DFT, "double precision: radix-2 FFT for powers of two, else direct sums; real or complex, onesided, inverse", &kernels::kernel_DFT},
    {K::STFT, "frames x window through the DFT; onesided", &kernels::kernel_STFT},
    {K::HannWindow, "cosine-sum window, periodic or symmetric", &kernels::kernel_HannWindow},
    {K::HammingWindow, "cosine-sum window, periodic or symmetric", &kernels::kernel_HammingWindow},
    {K::BlackmanWindow, "cosine-sum window, periodic or symmetric", &kernels::kernel_BlackmanWindow},
    {K::MelWeightMatrix, "triangular mel filters, as the ONNX reference", &kernels::kernel_MelWeightMatrix},
};

[[maybe_unused]] bool rows_in_op_order() {
  for (std::size_t i = 1; i < std::size(kKernels); ++i)
    if (static_cast<int>(kKernels[i - 1].kind) >= static_cast<int>(kKernels[i].kind)) return false;
  return true;
}

}  // namespace

std::span<const KernelEntry> kernel_table() { return kKernels; }

const KernelEntry* find_kernel(ir::OpKind kind) {
  assert(rows_in_op_order());
  // Sorted by kind: binary search.
  const auto* it = std::lower_bound(std::begin(kKernels), std::end(kKernels), kind,
                                    [](const KernelEntry& e, ir::OpKind k) { return static_cast<int>(e.kind) < static_cast<int>(k); });
  return it != std::end(kKernels) && it->kind == kind ? it : nullptr;
}

std::vector<Tensor> run_kernel(const ir::Operation& op, std::span<const Tensor> inputs) {
  const KernelEntry* k = op.is_known() ? find_kernel(op.kind) : nullptr;
  if (!k)
    throw UnsupportedOpError(op.op_type, "the CPU runtime",
                             "no CPU kernel for this op yet; replace it in the model or open an issue", op.name);
  return k->run(op, inputs);
}

}  // namespace ec::runtime
