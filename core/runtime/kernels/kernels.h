// Declarations of the reference kernels, one file per op family. The table
// that maps ops to them is kernel_registry.cpp.
#pragma once

#include <span>
#include <vector>

#include "core/ir/graph.h"
#include "core/runtime/tensor.h"

namespace ec::runtime::kernels {

#define EC_KERNEL(Op) \
  std::vector<Tensor> kernel_##Op(const ir::Operation& op, std::span<const Tensor> inputs);

// elementwise.cpp: arithmetic, math, comparison, logic (numpy broadcasting)
EC_KERNEL(Add) EC_KERNEL(Sub) EC_KERNEL(Mul) EC_KERNEL(Div) EC_KERNEL(Pow) EC_KERNEL(Mod)
EC_KERNEL(Max) EC_KERNEL(Min) EC_KERNEL(Mean) EC_KERNEL(Sum)
EC_KERNEL(Abs) EC_KERNEL(Neg) EC_KERNEL(Sign) EC_KERNEL(Reciprocal) EC_KERNEL(Sqrt) EC_KERNEL(Exp)
EC_KERNEL(Log) EC_KERNEL(Floor) EC_KERNEL(Ceil) EC_KERNEL(Round) EC_KERNEL(Erf) EC_KERNEL(Sin)
EC_KERNEL(Cos) EC_KERNEL(Tan) EC_KERNEL(Asin) EC_KERNEL(Acos) EC_KERNEL(Atan) EC_KERNEL(Sinh)
EC_KERNEL(Cosh) EC_KERNEL(Asinh) EC_KERNEL(Acosh) EC_KERNEL(Atanh) EC_KERNEL(IsNaN) EC_KERNEL(IsInf)
EC_KERNEL(BitShift) EC_KERNEL(BitwiseAnd) EC_KERNEL(BitwiseOr) EC_KERNEL(BitwiseXor) EC_KERNEL(BitwiseNot)
EC_KERNEL(Equal) EC_KERNEL(Greater) EC_KERNEL(GreaterOrEqual) EC_KERNEL(Less) EC_KERNEL(LessOrEqual)
EC_KERNEL(And) EC_KERNEL(Or) EC_KERNEL(Xor) EC_KERNEL(Not) EC_KERNEL(Where)

// activations.cpp
EC_KERNEL(Relu) EC_KERNEL(LeakyRelu) EC_KERNEL(PRelu) EC_KERNEL(Elu) EC_KERNEL(Selu) EC_KERNEL(Celu)
EC_KERNEL(ThresholdedRelu) EC_KERNEL(Sigmoid) EC_KERNEL(HardSigmoid) EC_KERNEL(HardSwish)
EC_KERNEL(Tanh) EC_KERNEL(Softplus) EC_KERNEL(Softsign) EC_KERNEL(Gelu) EC_KERNEL(Mish) EC_KERNEL(Clip)
EC_KERNEL(Softmax) EC_KERNEL(LogSoftmax) EC_KERNEL(Hardmax)

// conv.cpp
EC_KERNEL(Conv) EC_KERNEL(ConvTranspose)

// integer_ops.cpp (exact int32 products) and qlinear.cpp (ONNX Runtime's QOperator format)
EC_KERNEL(ConvInteger) EC_KERNEL(MatMulInteger) EC_KERNEL(QLinearConv) EC_KERNEL(QLinearMatMul)

// linear.cpp
EC_KERNEL(Gemm) EC_KERNEL(MatMul) EC_KERNEL(FullyConnected) EC_KERNEL(Einsum) EC_KERNEL(Det)

// pooling.cpp
EC_KERNEL(MaxPool) EC_KERNEL(AveragePool) EC_KERNEL(LpPool) EC_KERNEL(GlobalAveragePool)
EC_KERNEL(GlobalMaxPool) EC_KERNEL(GlobalLpPool)

// normalization.cpp
EC_KERNEL(BatchNormalization) EC_KERNEL(InstanceNormalization) EC_KERNEL(LayerNormalization)
EC_KERNEL(GroupNormalization) EC_KERNEL(LpNormalization) EC_KERNEL(LRN)
EC_KERNEL(MeanVarianceNormalization)

// reduction.cpp
EC_KERNEL(ReduceSum) EC_KERNEL(ReduceMean) EC_KERNEL(ReduceMax) EC_KERNEL(ReduceMin)
EC_KERNEL(ReduceProd) EC_KERNEL(ReduceL1) EC_KERNEL(ReduceL2) EC_KERNEL(ReduceLogSum)
EC_KERNEL(ReduceLogSumExp) EC_KERNEL(ReduceSumSquare) EC_KERNEL(ArgMax) EC_KERNEL(ArgMin)
EC_KERNEL(CumSum) EC_KERNEL(TopK)

// data_movement.cpp
EC_KERNEL(Reshape) EC_KERNEL(Flatten) EC_KERNEL(Squeeze) EC_KERNEL(Unsqueeze) EC_KERNEL(Transpose)
EC_KERNEL(Concat) EC_KERNEL(Split) EC_KERNEL(Slice) EC_KERNEL(Gather) EC_KERNEL(GatherElements)
EC_KERNEL(GatherND) EC_KERNEL(ScatterElements) EC_KERNEL(ScatterND) EC_KERNEL(Pad) EC_KERNEL(Tile)
EC_KERNEL(Expand) EC_KERNEL(Shape) EC_KERNEL(Size) EC_KERNEL(Identity) EC_KERNEL(Cast)
EC_KERNEL(CastLike) EC_KERNEL(DepthToSpace) EC_KERNEL(SpaceToDepth) EC_KERNEL(Resize)
EC_KERNEL(Compress) EC_KERNEL(Trilu) EC_KERNEL(OneHot) EC_KERNEL(NonZero) EC_KERNEL(EyeLike)
EC_KERNEL(ReverseSequence) EC_KERNEL(Dropout)

// sampling.cpp
EC_KERNEL(GridSample) EC_KERNEL(RoiAlign)

// unique.cpp, unpool.cpp
EC_KERNEL(Unique) EC_KERNEL(MaxUnpool)

// spectral.cpp
EC_KERNEL(DFT) EC_KERNEL(STFT) EC_KERNEL(MelWeightMatrix)

// generators.cpp
EC_KERNEL(ConstantOfShape) EC_KERNEL(Range) EC_KERNEL(HannWindow) EC_KERNEL(HammingWindow)
EC_KERNEL(BlackmanWindow)

// recurrent.cpp
EC_KERNEL(LSTM) EC_KERNEL(GRU) EC_KERNEL(RNN)

// detection.cpp
EC_KERNEL(NonMaxSuppression)

// quantization.cpp
EC_KERNEL(QuantizeLinear) EC_KERNEL(DequantizeLinear) EC_KERNEL(DynamicQuantizeLinear)

#undef EC_KERNEL

}  // namespace ec::runtime::kernels
