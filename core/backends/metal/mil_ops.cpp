#include "core/backends/metal/mil_ops.h"

#include <array>

namespace ec::backends::metal {
namespace {

using I = MilIn;
constexpr MilInputDef kX[] = {{"x", I::T, true}};
constexpr MilInputDef kBinary[] = {{"x", I::Any, true}, {"y", I::Any, true}};
constexpr MilInputDef kCast[] = {{"x", I::Any, true}, {"dtype", I::String, true}};
// iOS15/conv.py: conv(x, weight, bias, strides, pad_type, pad, dilations, groups)
constexpr MilInputDef kConv[] = {{"x", I::T, true},         {"weight", I::T, true},      {"bias", I::T, false},
                                 {"strides", I::Int32, false}, {"pad_type", I::String, false}, {"pad", I::Int32, false},
                                 {"dilations", I::Int32, false}, {"groups", I::Int32, false}};
// iOS15/conv.py: conv_transpose(x, weight[C_in, C_out/groups, *K], bias, pad, output_shape, pad_type, strides,
// dilations, groups)
constexpr MilInputDef kConvTranspose[] = {{"x", I::T, true},          {"weight", I::T, true},        {"bias", I::T, false},
                                          {"pad", I::Int32, false},   {"output_shape", I::Int32, false},
                                          {"pad_type", I::String, false}, {"strides", I::Int32, false},
                                          {"dilations", I::Int32, false}, {"groups", I::Int32, false}};
// iOS15/recurrent.py (fp16 from iOS17/recurrent.py): lstm gates [i, f, o, z], gru gates [r, o, z]
constexpr MilInputDef kLstm[] = {{"x", I::T, true},
                                 {"initial_h", I::T, true},
                                 {"initial_c", I::T, true},
                                 {"weight_ih", I::T, true},
                                 {"weight_hh", I::T, true},
                                 {"bias", I::T, false},
                                 {"peephole", I::T, false},
                                 {"weight_ih_back", I::T, false},
                                 {"weight_hh_back", I::T, false},
                                 {"bias_back", I::T, false},
                                 {"peephole_back", I::T, false},
                                 {"direction", I::String, false},
                                 {"output_sequence", I::Bool, false},
                                 {"recurrent_activation", I::String, false},
                                 {"cell_activation", I::String, false},
                                 {"activation", I::String, false},
                                 {"clip", I::T, false}};
constexpr MilInputDef kGru[] = {{"x", I::T, true},          {"initial_h", I::T, true},
                                {"weight_ih", I::T, true},  {"weight_hh", I::T, true},
                                {"bias", I::T, false},      {"direction", I::String, false},
                                {"output_sequence", I::Bool, false}, {"recurrent_activation", I::String, false},
                                {"activation", I::String, false}};
constexpr MilInputDef kRnn[] = {{"x", I::T, true},         {"initial_h", I::T, true},         {"weight_ih", I::T, true},
                                {"weight_hh", I::T, true}, {"bias", I::T, false},             {"direction", I::String, false},
                                {"output_sequence", I::Bool, false}, {"activation", I::String, false}};
// tensor_transformation.py reverse(x, axes)
constexpr MilInputDef kReverse[] = {{"x", I::Any, true}, {"axes", I::Int32, false}};
// iOS15/linear.py
constexpr MilInputDef kLinear[] = {{"x", I::T, true}, {"weight", I::T, true}, {"bias", I::T, false}};
constexpr MilInputDef kMatmul[] = {{"x", I::T, true}, {"y", I::T, true}, {"transpose_x", I::Bool, false},
                                   {"transpose_y", I::Bool, false}};
// elementwise_unary.py clip(x, alpha, beta); activation.py leaky_relu(x, alpha), sigmoid_hard(x, alpha, beta)
constexpr MilInputDef kClip[] = {{"x", I::T, true}, {"alpha", I::T, true}, {"beta", I::T, true}};
constexpr MilInputDef kLeaky[] = {{"x", I::T, true}, {"alpha", I::T, false}};
constexpr MilInputDef kHardSig[] = {{"x", I::T, true}, {"alpha", I::T, false}, {"beta", I::T, false}};
constexpr MilInputDef kGelu[] = {{"x", I::T, true}, {"mode", I::String, false}};
constexpr MilInputDef kSoftmax[] = {{"x", I::T, true}, {"axis", I::Int32, false}};
// pool.py
constexpr MilInputDef kMaxPool[] = {{"x", I::T, true}, {"kernel_sizes", I::Int32, true}, {"strides", I::Int32, false},
                                    {"pad_type", I::String, true}, {"pad", I::Int32, false}, {"ceil_mode", I::Bool, false}};
constexpr MilInputDef kAvgPool[] = {{"x", I::T, true},        {"kernel_sizes", I::Int32, true},
                                    {"strides", I::Int32, false}, {"pad_type", I::String, true},
                                    {"pad", I::Int32, false},     {"exclude_padding_from_average", I::Bool, false},
                                    {"ceil_mode", I::Bool, false}};
// reduction.py
constexpr MilInputDef kReduce[] = {{"x", I::T, true}, {"axes", I::Int32, false}, {"keep_dims", I::Bool, false}};
// tensor_transformation.py / tensor_operation.py
constexpr MilInputDef kReshape[] = {{"x", I::Any, true}, {"shape", I::Int32, true}};
constexpr MilInputDef kTranspose[] = {{"x", I::Any, true}, {"perm", I::Int32, true}};
// tensor_operation.py split(x, num_splits, split_sizes, axis)
constexpr MilInputDef kSplit[] = {{"x", I::Any, true}, {"num_splits", I::Int32, false}, {"split_sizes", I::Int32, false},
                                  {"axis", I::Int32, true}};
constexpr MilInputDef kConcat[] = {{"values", I::T, true, 15, true}, {"axis", I::Int32, true}, {"interleave", I::Bool, false}};
constexpr MilInputDef kPad[] = {{"x", I::T, true}, {"pad", I::Int32, true}, {"mode", I::String, false},
                                {"constant_val", I::T, false}};
constexpr MilInputDef kGather[] = {{"x", I::Any, true}, {"indices", I::Indices, true}, {"axis", I::Int32, false},
                                   {"batch_dims", I::Int32, false, 16}, {"validate_indices", I::Bool, false, 17}};
constexpr MilInputDef kSlice[] = {{"x", I::Any, true},           {"begin", I::Int32, true},
                                  {"end", I::Int32, true},       {"stride", I::Int32, false},
                                  {"begin_mask", I::Bool, false}, {"end_mask", I::Bool, false},
                                  {"squeeze_mask", I::Bool, false}};
// normalization.py
constexpr MilInputDef kBatchNorm[] = {{"x", I::T, true},      {"mean", I::T, true},  {"variance", I::T, true},
                                      {"gamma", I::T, false}, {"beta", I::T, false}, {"epsilon", I::T, false}};
constexpr MilInputDef kLayerNorm[] = {{"x", I::T, true}, {"axes", I::Int32, false}, {"gamma", I::T, false},
                                      {"beta", I::T, false}, {"epsilon", I::T, false}};
// image_resizing.py (half_pixel_centers from iOS16)
constexpr MilInputDef kUpNearest[] = {{"x", I::T, true}, {"scale_factor_height", I::Any, false},
                                      {"scale_factor_width", I::Any, false}};
constexpr MilInputDef kUpBilinear[] = {{"x", I::T, true},
                                       {"scale_factor_height", I::Any, false},
                                       {"scale_factor_width", I::Any, false},
                                       {"align_corners", I::Bool, false},
                                       {"half_pixel_centers", I::Bool, false, 16}};
// iOS15/image_resizing.py resize_bilinear(x, target_size_height, target_size_width, sampling_mode)
constexpr MilInputDef kResizeBilinear[] = {{"x", I::T, true}, {"target_size_height", I::Int32, false},
                                           {"target_size_width", I::Int32, false}, {"sampling_mode", I::String, false}};
// iOS18/compression.py constexpr_blockwise_shift_scale(data, scale, offset)
constexpr MilInputDef kShiftScale[] = {{"data", I::Any, true}, {"scale", I::Any, true}, {"offset", I::Any, false}};
// iOS17/quantization_ops.py quantize(input, zero_point, scale, axis, output_dtype), dequantize(input, zero_point, scale, axis)
constexpr MilInputDef kQuantize[] = {{"input", I::T, true}, {"zero_point", I::Any, false}, {"scale", I::T, true},
                                     {"axis", I::Int32, false}, {"output_dtype", I::String, true}};
constexpr MilInputDef kDequantize[] = {{"input", I::Any, true}, {"zero_point", I::Any, false}, {"scale", I::T, true},
                                       {"axis", I::Int32, false}};
constexpr MilInputDef kNone[] = {{"", I::Any, false}};

const std::array kOps = std::to_array<MilOpDef>({
    {"const", 15, std::span(kNone, 0)},
    {"cast", 15, kCast},
    {"conv", 15, kConv},
    {"conv_transpose", 15, kConvTranspose},
    {"lstm", 15, kLstm, false, 17},
    {"gru", 15, kGru, false, 17},
    {"rnn", 15, kRnn, false, 17},
    {"reverse", 15, kReverse},
    {"linear", 15, kLinear},
    {"matmul", 15, kMatmul},
    {"add", 15, kBinary},
    {"sub", 15, kBinary},
    {"mul", 15, kBinary},
    {"real_div", 15, kBinary},
    {"pow", 15, kBinary},
    {"maximum", 15, kBinary},
    {"minimum", 15, kBinary},
    {"relu", 15, kX},
    {"sigmoid", 15, kX},
    {"tanh", 15, kX},
    {"sqrt", 15, kX},
    {"exp", 15, kX},
    {"erf", 15, kX},
    {"identity", 15, kX},
    {"abs", 15, kX},
    {"log", 15, kX},
    {"floor", 15, kX},
    {"ceil", 15, kX},
    {"sin", 15, kX},
    {"cos", 15, kX},
    {"sign", 15, kX},
    {"split", 15, kSplit},
    {"clip", 15, kClip},
    {"leaky_relu", 15, kLeaky},
    {"sigmoid_hard", 15, kHardSig},
    {"gelu", 15, kGelu},
    {"softmax", 15, kSoftmax},
    {"max_pool", 15, kMaxPool},
    {"avg_pool", 15, kAvgPool},
    {"reduce_mean", 15, kReduce},
    {"reduce_sum", 15, kReduce},
    {"reduce_max", 15, kReduce},
    {"reshape", 15, kReshape},
    {"transpose", 15, kTranspose},
    {"concat", 15, kConcat},
    {"pad", 15, kPad},
    {"gather", 15, kGather},
    {"slice_by_index", 15, kSlice},
    {"batch_norm", 15, kBatchNorm},
    {"layer_norm", 15, kLayerNorm},
    {"upsample_nearest_neighbor", 15, kUpNearest},
    {"upsample_bilinear", 15, kUpBilinear},
    {"resize_bilinear", 15, kResizeBilinear},
    // iOS16/constexpr_ops.py: quantized_data, zero_point, scale, axis (attributes up to iOS17)
    {"constexpr_affine_dequantize", 16, std::span(kNone, 0), true},
    {"constexpr_blockwise_shift_scale", 18, kShiftScale},
    {"quantize", 17, kQuantize},
    {"dequantize", 17, kDequantize},
});

}  // namespace

std::span<const MilOpDef> mil_op_table() { return kOps; }

const MilOpDef* find_mil_op(std::string_view type) {
  for (const auto& d : kOps)
    if (d.type == type) return &d;
  return nullptr;
}

}  // namespace ec::backends::metal
