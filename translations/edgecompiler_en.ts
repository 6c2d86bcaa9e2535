<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>CoreMessages</name>
    <message numerus="yes">
        <source>%n Identity removed</source>
        <translation>
            <numerusform>%n Identity removed</numerusform>
            <numerusform>%n Identity removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Dropout removed</source>
        <translation>
            <numerusform>%n Dropout removed</numerusform>
            <numerusform>%n Dropout removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n same-type Cast removed</source>
        <translation>
            <numerusform>%n same-type Cast removed</numerusform>
            <numerusform>%n same-type Cast removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n redundant Reshape removed</source>
        <translation>
            <numerusform>%n redundant Reshape removed</numerusform>
            <numerusform>%n redundant Reshape removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Pad of zeros removed</source>
        <translation>
            <numerusform>%n Pad of zeros removed</numerusform>
            <numerusform>%n Pad of zeros removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) folded to constants</source>
        <translation>
            <numerusform>%n op folded to constants</numerusform>
            <numerusform>%n ops folded to constants</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n shape op(s) folded (static shapes)</source>
        <translation>
            <numerusform>%n shape op folded (static shapes)</numerusform>
            <numerusform>%n shape ops folded (static shapes)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n result(s) left unfolded (too large)</source>
        <translation>
            <numerusform>%n result left unfolded (too large)</numerusform>
            <numerusform>%n results left unfolded (too large)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n duplicate op(s) merged</source>
        <translation>
            <numerusform>%n duplicate op merged</numerusform>
            <numerusform>%n duplicate ops merged</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n duplicate constant(s) merged</source>
        <translation>
            <numerusform>%n duplicate constant merged</numerusform>
            <numerusform>%n duplicate constants merged</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n dead op(s) removed</source>
        <translation>
            <numerusform>%n dead op removed</numerusform>
            <numerusform>%n dead ops removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n unused tensor(s) removed</source>
        <translation>
            <numerusform>%n unused tensor removed</numerusform>
            <numerusform>%n unused tensors removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n activation(s) fused</source>
        <translation>
            <numerusform>%n activation fused</numerusform>
            <numerusform>%n activations fused</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GELU pattern(s) fused</source>
        <translation>
            <numerusform>%n GELU pattern fused</numerusform>
            <numerusform>%n GELU patterns fused</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n HardSwish pattern(s) fused</source>
        <translation>
            <numerusform>%n HardSwish pattern fused</numerusform>
            <numerusform>%n HardSwish patterns fused</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) removed</source>
        <translation>
            <numerusform>%n op removed</numerusform>
            <numerusform>%n ops removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n LayerNorm pattern(s) fused</source>
        <translation>
            <numerusform>%n LayerNorm pattern fused</numerusform>
            <numerusform>%n LayerNorm patterns fused</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) converted to NHWC</source>
        <translation>
            <numerusform>%n op converted to NHWC</numerusform>
            <numerusform>%n ops converted to NHWC</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Transpose(s) inserted at the edges</source>
        <translation>
            <numerusform>%n Transpose inserted at the edges</numerusform>
            <numerusform>%n Transposes inserted at the edges</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Transpose pair(s) cancelled</source>
        <translation>
            <numerusform>%n Transpose pair cancelled</numerusform>
            <numerusform>%n Transpose pairs cancelled</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) decomposed</source>
        <translation>
            <numerusform>%n op decomposed</numerusform>
            <numerusform>%n ops decomposed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) made</source>
        <translation>
            <numerusform>%n op made</numerusform>
            <numerusform>%n ops made</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Conv+BatchNorm fused</source>
        <translation>
            <numerusform>%n Conv+BatchNorm fused</numerusform>
            <numerusform>%n Conv+BatchNorm fused</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Conv+Add(bias) fused</source>
        <translation>
            <numerusform>%n Conv+Add(bias) fused</numerusform>
            <numerusform>%n Conv+Add(bias) fused</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n MatMul+Add -&gt; FullyConnected</source>
        <translation>
            <numerusform>%n MatMul+Add -&gt; FullyConnected</numerusform>
            <numerusform>%n MatMul+Add -&gt; FullyConnected</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Conv kernel(s) trimmed to the taps that read the input</source>
        <translation>
            <numerusform>%n Conv kernel trimmed to the taps that read the input</numerusform>
            <numerusform>%n Conv kernels trimmed to the taps that read the input</numerusform>
        </translation>
    </message>
    <message>
        <source>every rule holds (segment %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; it stays on the CPU without splitting the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>supported itself, but it reads the result of &apos;%1&apos;, which runs on the CPU; the compiler maps one Edge TPU segment by default, and everything after the first unsupported op goes to the CPU; make &apos;%1&apos; map (or replace it) or allow more segments (--num-segments)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>supported itself, but it reads the result of &apos;%1&apos;, which runs on the CPU; the %2 Edge TPU segments allowed are used up; make &apos;%1&apos; map (or replace it) or allow more segments (--num-segments)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; written by the TFLite writer (the graph has no op of its own for it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edge TPU segment %1: the ops edgetpu_compiler mapped, compiled into one executable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edge TPU segment %1: the ops edgetpu_compiler mapped, compiled into one executable of %2 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>left on the CPU by edgetpu_compiler: a float-&gt;int8 QUANTIZE at the input stays on the CPU without splitting the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>left on the CPU by edgetpu_compiler; by our rules: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>left on the CPU by edgetpu_compiler although our rules map it; it follows &apos;%1&apos;, the first op on the CPU (one segment by default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>left on the CPU by edgetpu_compiler although our rules map it: a limitation the rules do not capture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every rule holds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not in the Edge TPU&apos;s supported-operation table (google-coral/edgetpu #353, #272); rewrite it as x * relu6(x + 3) / 6 (the registered override does)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not in the Edge TPU&apos;s supported-operation table (#597); rewrite it as max(x, alpha * x) (the registered override does)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not in the Edge TPU&apos;s supported-operation table (custom op &apos;%2&apos;); it runs on the CPU; move it to the end of the model or replace it by supported ops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not in the Edge TPU&apos;s supported-operation table; replace it by supported ops or register an override for %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; has shape %2: the Edge TPU needs sizes constant at compile time; export with fixed input sizes (batch 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DEQUANTIZE writes float tensor &apos;%1&apos;: the Edge TPU computes only 8-bit tensors; keep it at the model&apos;s end (it runs on the CPU) or give the model int8 outputs (compile writes int8 I/O for the models it quantises)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; is %2: the Edge TPU takes only 8-bit quantised tensors; quantise the model (--quantize ptq) or keep this op at the model&apos;s edge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; is %2 without quantisation params: the Edge TPU takes only 8-bit quantised tensors; quantise the model (--quantize ptq) or keep this op at the model&apos;s edge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameter &apos;%1&apos; is f32: the Edge TPU needs 8-bit quantised parameters; quantise the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; has shape %2: dim %3 (size %4) is outside the 3 innermost dims; only those may be &gt; 1 (use batch 1, fold the extra dim)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has a fused activation function; the Edge TPU maps it only without one (apply the activation as a separate op)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>constant input &apos;%1&apos; is not all zeros; a constant CONCATENATION input must be a zero pad</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a constant input needs exactly 2 inputs (it has %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dilations are %1 (y) and %2 (x); use the same dilation in both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a convolution in %1 groups; the Edge TPU compiler (2021) predates TFLite&apos;s grouped CONV_2D: write one CONV_2D per group (the grouped_conv_per_group override)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output &apos;%1&apos; has shape %2; the output must be one-dimensional (only the innermost dim &gt; 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>input &apos;%1&apos; has shape %2; SOFTMAX maps only a 1-D input (only the innermost dim &gt; 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>input has %1 elements; SOFTMAX maps at most 16,000</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reduces over the batch dimension (axis 0); reduce over the other axes only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reduces the z (innermost) dimension of size %1, which is not a multiple of 4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pads the batch dimension; pad only the other dimensions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>batch %1: input/output must be 3-dimensional (batch 1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>resizes %1 -&gt; %2 with align_corners: a 1-pixel input has no corner-aligned scale (loss in precision); use a broadcast (e.g. TILE on CPU) or align_corners=false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>resizes %1 -&gt; %2 with align_corners: (out-1)/(in-1) is not a whole number (loss in precision); pick sizes with a whole scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>resizes %1 -&gt; %2: not a whole scale factor (loss in precision)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a stride is %1; STRIDED_SLICE maps only with all strides 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>squeezes axis %1 after a dim &gt; 1 of %2 (needs a relayout); squeeze only leading 1s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alpha &apos;%1&apos; has shape %2; alpha must be 1-dimensional (Keras: shared_axes=[1,2])</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a %1-D TRANSPOSE is not supported (#274); use at most 4-D</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clip with bounds other than [0, 6], [-1, 1] or [0, inf) has no TFLite op the Edge TPU maps (RELU6, RELU_N1_TO_1, RELU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QUANTIZE reads %1 tensor &apos;%2&apos;: float -&gt; 8-bit conversion runs on the CPU (a leading QUANTIZE does not split the model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Coral Edge TPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apple silicon (Core ML .mlpackage)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU (reference)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n batch dim(s) fixed</source>
        <translation>
            <numerusform>%n batch dim fixed</numerusform>
            <numerusform>%n batch dims fixed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Transpose(s) of unit dims made Reshapes</source>
        <translation>
            <numerusform>%n Transpose of unit dims made a Reshape</numerusform>
            <numerusform>%n Transposes of unit dims made Reshapes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Concat(s) written without unit dims</source>
        <translation>
            <numerusform>%n Concat written without unit dims</numerusform>
            <numerusform>%n Concats written without unit dims</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ec::widgets::BenchmarkPanel</name>
    <message>
        <source>Recorded as run %1 in the run history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not recorded: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>init (load + prepare)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first inference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>timed runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stdev</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p50</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p90</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p95</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p99</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 inferences/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>activation arena</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per-op profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ops, sum %2 (%3% of the mean)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timed runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warm-up runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads (0 = every core)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Record in the run history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Figure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Figures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency per run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time per op</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Running %n timed run(s)…</source>
        <translation>
            <numerusform>Running %n timed run…</numerusform>
            <numerusform>Running %n timed runs…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>warm-up mean (%n run(s))</source>
        <translation>
            <numerusform>warm-up mean (%n run)</numerusform>
            <numerusform>warm-up mean (%n runs)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ec::widgets::ChannelHeatmap</name>
    <message>
        <source>channel %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max |error|: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No layer has per-channel weights.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not quantised yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Per-channel weight SQNR (dB): %n layer(s) × output channels</source>
        <translation>
            <numerusform>Per-channel weight SQNR (dB): %n layer × output channels</numerusform>
            <numerusform>Per-channel weight SQNR (dB): %n layers × output channels</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Per-channel max |weight error|: %n layer(s) × output channels</source>
        <translation>
            <numerusform>Per-channel max |weight error|: %n layer × output channels</numerusform>
            <numerusform>Per-channel max |weight error|: %n layers × output channels</numerusform>
        </translation>
    </message>
    <message>
        <source>channel 0 → last (each row spans its own channel count)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>|error|</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::ComparePairsModel</name>
    <message>
        <source>name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>origin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (NHWC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NaN/Inf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor (A)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor (B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matched by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR (dB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max rel. error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max abs. error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::CompareView</name>
    <message>
        <source>%1 ↔ %2: SQNR %3 dB, max rel. error %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ↔ %2: not compared (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only in A: fused into %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only in A: removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only in B: added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>exact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR ≥ 60 dB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR 30–60 dB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR &lt; 30 dB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NaN/Inf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only in A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only in B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No comparison yet: Model › Compare With… runs both models on the same inputs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no divergence beyond float noise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first divergence: %1 (%2), SQNR %3 dB</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s) compared, %1 exact, on %2 sample(s); %3.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>NaN/Inf first in B at %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changes numerics: max rel. error %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float noise: max rel. error %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass %1: %2 (%3 → %4 ops) — %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 did not change the graph.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changed attributes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changed attributes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::DeviceListModel</name>
    <message>
        <source>virtual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>physical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not available: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vendor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discovered by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Availability</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::DevicesPanel</name>
    <message>
        <source>Provider of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a device to edit how it is reached.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be read; fix or delete it before saving</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>id of a remote device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add remote device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiler</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiler</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invoker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remote directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remote command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty: the device&apos;s provider. Empty fields inherit the device&apos;s values.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::GraphDiffModel</name>
    <message>
        <source>removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(absent)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>inputs: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outputs: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::GraphView</name>
    <message>
        <source>%1 ops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Laying out…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drag to pan, wheel, pinch or +/− to zoom, 0 or a double-click on the background to fit. Click a block to expand it, its header to collapse it.
On an op: k kernel · s stride · pad top/left/bottom/right · g groups · d dilation.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::LatencyChart</name>
    <message>
        <source>latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>timed run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::LatencyHistogram</name>
    <message>
        <source>runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p50 %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p95 %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p99 %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::LogModel</name>
    <message>
        <source>Trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Debug</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Critical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::LogPanel</name>
    <message>
        <source>Clear the log</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::MessageBar</name>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::ModelSummaryModel</name>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Producer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IR version</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Inputs (%n)</source>
        <translation>
            <numerusform>Input (%n)</numerusform>
            <numerusform>Inputs (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Outputs (%n)</source>
        <translation>
            <numerusform>Output (%n)</numerusform>
            <numerusform>Outputs (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Size and compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameter size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MACs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MACs not counted for</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) with unknown shapes</source>
        <translation>
            <numerusform>%n op with unknown shapes</numerusform>
            <numerusform>%n ops with unknown shapes</numerusform>
        </translation>
    </message>
    <message>
        <source>Operations by type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ops the IR does not know</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation warnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Property</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 of %3 ops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 quantised tensors, %2 per channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (float)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::OpFormat</name>
    <message>
        <source>k: kernel size %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>s: stride %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pad: padding top %1, left %2, bottom %3, right %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pad: padding at the start / end of each spatial axis %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>g: groups %1 (input channels split into %1 groups)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d: dilation %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::OpTimeChart</name>
    <message>
        <source>mean ms per run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms (mean over the timed runs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2%</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::OperationListModel</name>
    <message>
        <source>#</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::PartitionOpModel</name>
    <message>
        <source>TPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU (after unsupported)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
(placed after the unsupported op “%2”)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Placement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2: %3
%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Override</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Neural Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::PartitionPanel</name>
    <message>
        <source>Operator / Count / Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU (unsupported)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU (after the first unsupported op)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No compile yet: Model › Compile for target…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Target %1 (%2): %3 of %n op(s) on the TPU, %4 on the CPU; %5 TPU segment(s); %6.</source>
        <translation>
            <numerusform>Target %1 (%2): %3 of %n op on the TPU, %4 on the CPU; %5 TPU segment(s); %6.</numerusform>
            <numerusform>Target %1 (%2): %3 of %n ops on the TPU, %4 on the CPU; %5 TPU segment(s); %6.</numerusform>
        </translation>
    </message>
    <message>
        <source>Estimated latency %1 ms (estimate).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Neural Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Target %1 (%2): of %n op(s), %3 on the Neural Engine, %4 on the GPU, %5 on the CPU; %6.</source>
        <translation>
            <numerusform>Target %1 (%2): of %n op, %3 on the Neural Engine, %4 on the GPU, %5 on the CPU; %6.</numerusform>
            <numerusform>Target %1 (%2): of %n ops, %3 on the Neural Engine, %4 on the GPU, %5 on the CPU; %6.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ec::widgets::PartitionStatusModel</name>
    <message>
        <source>Operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::PassListModel</name>
    <message>
        <source>invalid graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n note(s)</source>
        <translation>
            <numerusform>%n note</numerusform>
            <numerusform>%n notes</numerusform>
        </translation>
    </message>
    <message>
        <source>no change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ops</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::PassesPanel</name>
    <message numerus="yes">
        <source>original (%n op(s))</source>
        <translation>
            <numerusform>original (%n op)</numerusform>
            <numerusform>original (%n ops)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: after %2, final (%n op(s))</source>
        <translation>
            <numerusform>%1: after %2, final (%n op)</numerusform>
            <numerusform>%1: after %2, final (%n ops)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: after %2 (%n op(s))</source>
        <translation>
            <numerusform>%1: after %2 (%n op)</numerusform>
            <numerusform>%1: after %2 (%n ops)</numerusform>
        </translation>
    </message>
    <message>
        <source>Show %1 in the graph view (removed ops in red)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show %1 in the graph view (added ops in green)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 removed, %2 added, %3 changed, %4 unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n constant(s) touched</source>
        <translation>
            <numerusform>%n constant touched</numerusform>
            <numerusform>%n constants touched</numerusform>
        </translation>
    </message>
    <message>
        <source>Run Model › Optimize (Ctrl+Shift+O) to see what each pass does to the graph.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snapshot the diff starts from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Snapshot the diff goes to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a change to select its op in the graph</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::PropertiesModel</name>
    <message>
        <source>(not given)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>constant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>graph input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>producer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click to go to the producer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quantisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min %1 · max %2 · mean %3 · std %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>consumers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>graph output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click to go to this consumer</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
    <message>
        <source>Operation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Index</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>input %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Property</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::PropertiesPanel</name>
    <message>
        <source>Click an op in the graph to see its properties.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Histogram of %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::QuantLayerModel</name>
    <message>
        <source>weights: %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output SQNR: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weight SQNR: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>worst channel: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kept in float, the model&apos;s SQNR would gain %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in float: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>marked to stay in float at the next run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>int8 → float at next run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>int8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep %1 in float when re-quantising</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep in float: checked ops stay in float when the model is re-quantised</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signal-to-quantisation-noise ratio of the op&apos;s output: int8 execution vs float</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR of the int8 weights against the float weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The output channel whose weights lost the most</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model SQNR gained when only this op is kept in float</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Float</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output SQNR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight SQNR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Worst channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Channels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sensitivity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::QuantPanel</name>
    <message>
        <source>Re-quantise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calibration Data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NumPy arrays, (N, C, H, W) float32 (*.npy);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Calibration: %n random sample(s) (uniform, fixed seed)</source>
        <translation>
            <numerusform>Calibration: %n random sample (uniform, fixed seed)</numerusform>
            <numerusform>Calibration: %n random samples (uniform, fixed seed)</numerusform>
        </translation>
    </message>
    <message>
        <source>No calibration data chosen: random inputs from a fixed seed, of each input&apos;s type: floating-point inputs uniform in [-1, 1), integer inputs (token ids) uniform over the rows of the table they index (else 0 or 1). Choose a .npy file of real inputs for meaningful ranges.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calibration: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>calibrating</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measuring error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sensitivity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per channel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min/max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1th percentile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output “%1”: SQNR %2, top-1 agreement %3%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output “%1”: SQNR not measured (no data)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) in int8</source>
        <translation>
            <numerusform>%n layer in int8</numerusform>
            <numerusform>%n layers in int8</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) in float</source>
        <translation>
            <numerusform>%n op in float</numerusform>
            <numerusform>%n ops in float</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n warning</numerusform>
            <numerusform>%n warnings</numerusform>
        </translation>
    </message>
    <message>
        <source>Quantise the model to int8 again with the calibration data and the layers marked “Float” kept in float</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the running quantisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calibration data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the inputs the activation ranges are measured on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a .npy File…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Random Samples (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-channel weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Float graph coloured by SQNR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantised graph</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run Tools › Quantise… (or the Quantise button above) to quantise the model to int8 and see where it loses accuracy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR per Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-Channel Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output SQNR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight SQNR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one bar per quantised layer, in graph order: hover for its name, click to select it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR (dB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max |error|</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log counts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a layer to select it in the graph; check “Float” to keep it in float at the next run</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::QuantTensorModel</name>
    <message>
        <source>(graph input)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>observed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clipping range: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scale %1, zero point %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Producer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Observed range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clipping range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zero point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQNR</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::RunCompareModel</name>
    <message>
        <source>Welch&apos;s t-test on the means: p = %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bootstrap of the recorded latencies: 95% interval of the change [%1, %2]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a single measurement per run: no noise model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n/a</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>beyond noise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>within noise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Statistic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 (A)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 (B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Noise</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::RunHistoryModel</name>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time (UTC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p99 ms</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::RunHistoryPanel</name>
    <message>
        <source>Run %1 (A)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 (B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) in %1. Select two to compare.</source>
        <translation>
            <numerusform>%n run in %1. Select two to compare.</numerusform>
            <numerusform>%n runs in %1. Select two to compare.</numerusform>
        </translation>
    </message>
    <message>
        <source>mean</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::SearchBar</name>
    <message>
        <source>Find op or tensor by name or type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::SqnrChart</name>
    <message>
        <source>#%1 %2 (%3)
%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output SQNR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weight SQNR</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::SummaryPanel</name>
    <message>
        <source>No model loaded.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::TableCsv</name>
    <message>
        <source>%1: the table has no data</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::TensorHistogram</name>
    <message numerus="yes">
        <source>[%1, %2): %n value(s)</source>
        <translation>
            <numerusform>[%1, %2): %n value</numerusform>
            <numerusform>[%1, %2): %n values</numerusform>
        </translation>
    </message>
    <message>
        <source>outside the clipping range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a tensor (or a layer) to see its values.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not quantised yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clip [%1, %2] · scale %3 · zero point %4 · %5% clipped · SQNR %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>count (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clip min %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clip max %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::TimelineChart</name>
    <message>
        <source>target compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>override</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU eager</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No attempt to show.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No compile yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2: %3 (%4 ms)
%5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::TimelineModel</name>
    <message>
        <source>ok</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration (ms)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::widgets::TimelinePanel</name>
    <message>
        <source>Failures only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No compile yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s), %1 failed</source>
        <translation>
            <numerusform>%n attempt, %1 failed</numerusform>
            <numerusform>%n attempts, %1 failed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ec::workbench::BenchController</name>
    <message>
        <source>%1 on %2: %3 ms, estimate (not measured)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::workbench::CompareController</name>
    <message>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare With</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare Pass &amp;Stages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the default pass pipeline stage by stage and show how each pass changes the numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare &amp;With…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run a second model (its compiled or quantised form, another version) on the same inputs and show where the numbers differ, layer by layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comparing the pass stages…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comparing with %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pass stages compared</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compared with %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare cancelled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::workbench::CompareRunner</name>
    <message>
        <source>Opening %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::workbench::CompileController</name>
    <message>
        <source>Partition</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backend Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Neural Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on the %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compile for Target…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Partition the model for a target and show what runs on the accelerator and why the rest does not</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile for Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Post-training int8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None (the model is already quantised, or Core ML float)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>int8 weights (Core ML)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: random samples (fixed seed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calibration Data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NumPy arrays (*.npy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edge TPU segments the compiler may map (edgetpu_compiler --num_segments); 1 puts everything after the first unsupported op on the CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fp16 (Neural Engine capable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fp32 (GPU and CPU only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All (Neural Engine, GPU, CPU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU and Neural Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU and GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Target:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quantisation:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calibration &amp;data:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calibration s&amp;amples:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Segments:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Precision:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compute &amp;units:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Deployment target:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>calibrating</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measuring error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>partitioning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling: %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled (prediction): %1 op(s) on the Neural Engine, %2 on the GPU, %3 on the CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiled: %1 op(s) on the TPU, %2 on the CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compiling for %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU (unsupported)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU (after the first unsupported op)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Placement (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read from the compiled file: the split its compiler made</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::workbench::DevicesBenchController</name>
    <message>
        <source>Devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Devices saved to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms per op (benchmark), bright = slower</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not timed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark: mean %1 ms, p99 %2 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Benchmark not started: no model is open or one is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Benchmark…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time the open model: latency statistics, histogram and time per op</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run &amp;History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every recorded compile and benchmark; compare two runs</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::workbench::ExportController</name>
    <message>
        <source>Export cancelled; nothing was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export HTML Report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML report (*.html)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ONNX model (*.onnx)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TensorFlow Lite model (*.tflite)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IR text form (*.eir)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph as &amp;SVG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph as &amp;PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Whole Graph…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every op as laid out now (expanded groups, overlay and legend as shown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Visible Area…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the graph view shows now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;HTML Report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One self-contained HTML file: the graph, and the compile, quantisation and benchmark results</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model as &amp;ONNX…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model as &amp;TFLite…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model as &amp;EIR…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The graph shown (optimised, quantised or compiled) as a model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current &amp;Table as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rows of the table last focused, as the panel shows them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the folder %1 does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the folder %1 cannot be written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not export %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>another export is still running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Whole Graph as PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Visible Area as PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Whole Graph as SVG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Visible Area as SVG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name the picture *.svg or *.png</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no graph is shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the image could not be written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 × %2 px</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Laying out and drawing %n op(s)</source>
        <translation>
            <numerusform>Laying out and drawing %n op</numerusform>
            <numerusform>Laying out and drawing %n ops</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op box(es)</source>
        <translation>
            <numerusform>%n op box</numerusform>
            <numerusform>%n op boxes</numerusform>
        </translation>
    </message>
    <message>
        <source>no model is open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name the report *.html</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Laying out %n op(s) for the report</source>
        <translation>
            <numerusform>Laying out %n op for the report</numerusform>
            <numerusform>Laying out %n ops for the report</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s)</source>
        <translation>
            <numerusform>%n op</numerusform>
            <numerusform>%n ops</numerusform>
        </translation>
    </message>
    <message>
        <source>Export Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name the model *.onnx, *.tflite or *.eir</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Writing %n op(s)</source>
        <translation>
            <numerusform>Writing %n op</numerusform>
            <numerusform>Writing %n ops</numerusform>
        </translation>
    </message>
    <message>
        <source>no table has the focus; click into a table first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Table as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no table to export</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n row</numerusform>
            <numerusform>%n rows</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ec::workbench::JobRunner</name>
    <message>
        <source>unknown error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::workbench::MainWindow</name>
    <message>
        <source>edgecompiler Workbench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model with File › Open… (Ctrl+O) or drop a model file here.
Supported: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About edgecompiler Workbench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop waiting for this model. The file is still read to the end in the background.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled opening %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — edgecompiler Workbench</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Opened %1: %n operation(s)</source>
        <translation>
            <numerusform>Opened %1: %n operation</numerusform>
            <numerusform>Opened %1: %n operations</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About edgecompiler Workbench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;edgecompiler Workbench %1&lt;/h3&gt;&lt;p&gt;A model-compilation workbench for edge AI: open a model, inspect it, and (in later versions) optimise, quantise and compile it for an accelerator.&lt;/p&gt;&lt;p&gt;Model formats: %2&lt;br&gt;Built with Qt %3.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Properties</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find ops and tensors by name or type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find &amp;Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fit to Window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Expand All Groups</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Collapse All Groups</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No translation for %1 is available.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model that is a folder: a Core ML .mlpackage or a TensorFlow SavedModel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Models (%1);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Model Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input Shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 does not record the shapes of its inputs.
%2

Enter them as NAME=1,3,224,224 (several separated by spaces):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layout reset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a Model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the Sample Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent Models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put every panel back where it was on first start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optimised</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quantised</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compiled for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2) — edgecompiler Workbench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph: zoom in / out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+ / −, wheel, pinch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph: fit to window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0, double-click on the background</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph: clear the selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Esc</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Graph: pan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drag, Shift+wheel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::workbench::PassesController</name>
    <message>
        <source>Passes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Optimize (Default Pipeline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the default optimisation passes and show what each one changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimized: %1 → %2 operations in %3 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimization failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::workbench::QuantController</name>
    <message>
        <source>Quantisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quantise…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantise the model to int8 and show where it loses accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calibrated on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Quantised: %n layer(s) in int8</source>
        <translation>
            <numerusform>Quantised: %n layer in int8</numerusform>
            <numerusform>Quantised: %n layers in int8</numerusform>
        </translation>
    </message>
    <message>
        <source>Quantisation failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantisation failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantisation cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantising…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output SQNR (dB), dark = worse</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float (not quantised)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ec::workbench::QuantRunner</name>
    <message>
        <source>“%1” %2 uniform in [%3, %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” %2 token ids uniform in [0, %3), the rows of the table “%4” it indexes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” %2 integers 0 or 1 (no table it indexes was found)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n random sample(s) (seed %1): %2</source>
        <translation>
            <numerusform>%n random sample (seed %1): %2</numerusform>
            <numerusform>%n random samples (seed %1): %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n sample(s))</source>
        <translation>
            <numerusform>%1 (%n sample)</numerusform>
            <numerusform>%1 (%n samples)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Model-compilation workbench for edge AI.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model file to open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open MODEL, save an image of the window to &lt;file&gt; and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only one model file can be opened.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the screenshot to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timed out waiting for the model to load.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the default optimisation passes once MODEL is open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quantise MODEL to int8 once it is open (random calibration samples).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edgecompiler-workbench: no display (DISPLAY and WAYLAND_DISPLAY are unset): run it under xvfb-run -a, set QT_QPA_PLATFORM=offscreen for --screenshot, or use the CLI (edgecompile inspect MODEL).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An input&apos;s shape where the model does not record it (TorchScript): NAME=1,3,224,224; repeat per input.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the panel &lt;name&gt; (passes, quant, partition, timeline, benchmark, runHistory, devices) in front for the screenshot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --screenshot: also write the layout&apos;s measurements to &lt;file&gt; (JSON).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --screenshot: the window&apos;s size, WIDTHxHEIGHT (default 1280x800).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--window-size takes WIDTHxHEIGHT, e.g. 1920x1080.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write the report to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time MODEL on the host CPU with &lt;n&gt; runs once it is open (after the other steps asked for) and show the Benchmark panel.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--bench takes a number of runs, e.g. --bench 50.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile MODEL for &lt;target&gt; (%1) once it is open (after the passes of --optimize if given) and show the partition.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
