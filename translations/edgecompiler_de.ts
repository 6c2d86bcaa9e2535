<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>CoreMessages</name>
    <message numerus="yes">
        <source>%n Identity removed</source>
        <translation>
            <numerusform>%n Identity entfernt</numerusform>
            <numerusform>%n Identity entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Dropout removed</source>
        <translation>
            <numerusform>%n Dropout entfernt</numerusform>
            <numerusform>%n Dropout entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n same-type Cast removed</source>
        <translation>
            <numerusform>%n Cast auf denselben Typ entfernt</numerusform>
            <numerusform>%n Casts auf denselben Typ entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n redundant Reshape removed</source>
        <translation>
            <numerusform>%n überflüssiges Reshape entfernt</numerusform>
            <numerusform>%n überflüssige Reshapes entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Pad of zeros removed</source>
        <translation>
            <numerusform>%n Pad mit Nullen entfernt</numerusform>
            <numerusform>%n Pads mit Nullen entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) folded to constants</source>
        <translation>
            <numerusform>%n Op zu Konstanten gefaltet</numerusform>
            <numerusform>%n Ops zu Konstanten gefaltet</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n shape op(s) folded (static shapes)</source>
        <translation>
            <numerusform>%n Form-Op gefaltet (statische Formen)</numerusform>
            <numerusform>%n Form-Ops gefaltet (statische Formen)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n result(s) left unfolded (too large)</source>
        <translation>
            <numerusform>%n Ergebnis nicht gefaltet (zu groß)</numerusform>
            <numerusform>%n Ergebnisse nicht gefaltet (zu groß)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n duplicate op(s) merged</source>
        <translation>
            <numerusform>%n doppelte Op zusammengeführt</numerusform>
            <numerusform>%n doppelte Ops zusammengeführt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n duplicate constant(s) merged</source>
        <translation>
            <numerusform>%n doppelte Konstante zusammengeführt</numerusform>
            <numerusform>%n doppelte Konstanten zusammengeführt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n dead op(s) removed</source>
        <translation>
            <numerusform>%n tote Op entfernt</numerusform>
            <numerusform>%n tote Ops entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n unused tensor(s) removed</source>
        <translation>
            <numerusform>%n ungenutzter Tensor entfernt</numerusform>
            <numerusform>%n ungenutzte Tensoren entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n activation(s) fused</source>
        <translation>
            <numerusform>%n Aktivierung verschmolzen</numerusform>
            <numerusform>%n Aktivierungen verschmolzen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GELU pattern(s) fused</source>
        <translation>
            <numerusform>%n GELU-Muster verschmolzen</numerusform>
            <numerusform>%n GELU-Muster verschmolzen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n HardSwish pattern(s) fused</source>
        <translation>
            <numerusform>%n HardSwish-Muster verschmolzen</numerusform>
            <numerusform>%n HardSwish-Muster verschmolzen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) removed</source>
        <translation>
            <numerusform>%n Op entfernt</numerusform>
            <numerusform>%n Ops entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n LayerNorm pattern(s) fused</source>
        <translation>
            <numerusform>%n LayerNorm-Muster verschmolzen</numerusform>
            <numerusform>%n LayerNorm-Muster verschmolzen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) converted to NHWC</source>
        <translation>
            <numerusform>%n Op nach NHWC umgestellt</numerusform>
            <numerusform>%n Ops nach NHWC umgestellt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Transpose(s) inserted at the edges</source>
        <translation>
            <numerusform>%n Transpose an den Rändern eingefügt</numerusform>
            <numerusform>%n Transposes an den Rändern eingefügt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Transpose pair(s) cancelled</source>
        <translation>
            <numerusform>%n Transpose-Paar aufgehoben</numerusform>
            <numerusform>%n Transpose-Paare aufgehoben</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) decomposed</source>
        <translation>
            <numerusform>%n Op zerlegt</numerusform>
            <numerusform>%n Ops zerlegt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) made</source>
        <translation>
            <numerusform>%n Op erzeugt</numerusform>
            <numerusform>%n Ops erzeugt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Conv+BatchNorm fused</source>
        <translation>
            <numerusform>%n Conv+BatchNorm verschmolzen</numerusform>
            <numerusform>%n Conv+BatchNorm verschmolzen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Conv+Add(bias) fused</source>
        <translation>
            <numerusform>%n Conv+Add(Bias) verschmolzen</numerusform>
            <numerusform>%n Conv+Add(Bias) verschmolzen</numerusform>
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
            <numerusform>%n Conv-Kern auf die Abgriffe gekürzt, die die Eingabe lesen</numerusform>
            <numerusform>%n Conv-Kerne auf die Abgriffe gekürzt, die die Eingabe lesen</numerusform>
        </translation>
    </message>
    <message>
        <source>every rule holds (segment %1)</source>
        <translation>alle Regeln erfüllt (Segment %1)</translation>
    </message>
    <message>
        <source>%1</source>
        <translation>%1</translation>
    </message>
    <message>
        <source>%1; it stays on the CPU without splitting the model</source>
        <translation>%1; sie bleibt auf der CPU, ohne das Modell zu teilen</translation>
    </message>
    <message>
        <source>supported itself, but it reads the result of &apos;%1&apos;, which runs on the CPU; the compiler maps one Edge TPU segment by default, and everything after the first unsupported op goes to the CPU; make &apos;%1&apos; map (or replace it) or allow more segments (--num-segments)</source>
        <translation>selbst unterstützt, liest aber das Ergebnis von &apos;%1&apos;, das auf der CPU läuft; der Compiler bildet standardmäßig ein Edge-TPU-Segment ab, und alles nach der ersten nicht unterstützten Op kommt auf die CPU; &apos;%1&apos; abbildbar machen (oder ersetzen) oder mehr Segmente erlauben (--num-segments)</translation>
    </message>
    <message>
        <source>supported itself, but it reads the result of &apos;%1&apos;, which runs on the CPU; the %2 Edge TPU segments allowed are used up; make &apos;%1&apos; map (or replace it) or allow more segments (--num-segments)</source>
        <translation>selbst unterstützt, liest aber das Ergebnis von &apos;%1&apos;, das auf der CPU läuft; die %2 erlaubten Edge-TPU-Segmente sind aufgebraucht; &apos;%1&apos; abbildbar machen (oder ersetzen) oder mehr Segmente erlauben (--num-segments)</translation>
    </message>
    <message>
        <source>%1; written by the TFLite writer (the graph has no op of its own for it)</source>
        <translation>%1; vom TFLite-Writer geschrieben (der Graph hat keine eigene Op dafür)</translation>
    </message>
    <message>
        <source>Edge TPU segment %1: the ops edgetpu_compiler mapped, compiled into one executable</source>
        <translation>Edge-TPU-Segment %1: die von edgetpu_compiler abgebildeten Ops, in ein Executable kompiliert</translation>
    </message>
    <message>
        <source>Edge TPU segment %1: the ops edgetpu_compiler mapped, compiled into one executable of %2 bytes</source>
        <translation>Edge-TPU-Segment %1: die von edgetpu_compiler abgebildeten Ops, in ein Executable von %2 Bytes kompiliert</translation>
    </message>
    <message>
        <source>left on the CPU by edgetpu_compiler: a float-&gt;int8 QUANTIZE at the input stays on the CPU without splitting the model</source>
        <translation>von edgetpu_compiler auf der CPU gelassen: ein float-&gt;int8-QUANTIZE am Eingang bleibt auf der CPU, ohne das Modell zu teilen</translation>
    </message>
    <message>
        <source>left on the CPU by edgetpu_compiler; by our rules: %1</source>
        <translation>von edgetpu_compiler auf der CPU gelassen; nach unseren Regeln: %1</translation>
    </message>
    <message>
        <source>left on the CPU by edgetpu_compiler although our rules map it; it follows &apos;%1&apos;, the first op on the CPU (one segment by default)</source>
        <translation>von edgetpu_compiler auf der CPU gelassen, obwohl unsere Regeln sie abbilden; sie folgt auf &apos;%1&apos;, die erste Op auf der CPU (standardmäßig ein Segment)</translation>
    </message>
    <message>
        <source>left on the CPU by edgetpu_compiler although our rules map it: a limitation the rules do not capture</source>
        <translation>von edgetpu_compiler auf der CPU gelassen, obwohl unsere Regeln sie abbilden: eine Einschränkung, die die Regeln nicht erfassen</translation>
    </message>
    <message>
        <source>every rule holds</source>
        <translation>alle Regeln erfüllt</translation>
    </message>
    <message>
        <source>%1 is not in the Edge TPU&apos;s supported-operation table (google-coral/edgetpu #353, #272); rewrite it as x * relu6(x + 3) / 6 (the registered override does)</source>
        <translation>%1 steht nicht in der Tabelle der von der Edge TPU unterstützten Operationen (google-coral/edgetpu #353, #272); als x * relu6(x + 3) / 6 umschreiben (der registrierte Override tut das)</translation>
    </message>
    <message>
        <source>%1 is not in the Edge TPU&apos;s supported-operation table (#597); rewrite it as max(x, alpha * x) (the registered override does)</source>
        <translation>%1 steht nicht in der Tabelle der von der Edge TPU unterstützten Operationen (#597); als max(x, alpha * x) umschreiben (der registrierte Override tut das)</translation>
    </message>
    <message>
        <source>%1 is not in the Edge TPU&apos;s supported-operation table (custom op &apos;%2&apos;); it runs on the CPU; move it to the end of the model or replace it by supported ops</source>
        <translation>%1 steht nicht in der Tabelle der von der Edge TPU unterstützten Operationen (eigene Op &apos;%2&apos;); sie läuft auf der CPU; ans Ende des Modells verschieben oder durch unterstützte Ops ersetzen</translation>
    </message>
    <message>
        <source>%1 is not in the Edge TPU&apos;s supported-operation table; replace it by supported ops or register an override for %2</source>
        <translation>%1 steht nicht in der Tabelle der von der Edge TPU unterstützten Operationen; durch unterstützte Ops ersetzen oder einen Override für %2 registrieren</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; has shape %2: the Edge TPU needs sizes constant at compile time; export with fixed input sizes (batch 1)</source>
        <translation>Tensor &apos;%1&apos; hat die Form %2: die Edge TPU braucht zur Kompilierzeit feste Größen; mit festen Eingabegrößen exportieren (Batch 1)</translation>
    </message>
    <message>
        <source>DEQUANTIZE writes float tensor &apos;%1&apos;: the Edge TPU computes only 8-bit tensors; keep it at the model&apos;s end (it runs on the CPU) or give the model int8 outputs (compile writes int8 I/O for the models it quantises)</source>
        <translation>DEQUANTIZE schreibt den Float-Tensor &apos;%1&apos;: die Edge TPU rechnet nur mit 8-Bit-Tensoren; am Ende des Modells lassen (läuft auf der CPU) oder dem Modell int8-Ausgaben geben (compile schreibt int8-Ein-/Ausgaben für die Modelle, die es quantisiert)</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; is %2: the Edge TPU takes only 8-bit quantised tensors; quantise the model (--quantize ptq) or keep this op at the model&apos;s edge</source>
        <translation>Tensor &apos;%1&apos; ist %2: die Edge TPU nimmt nur 8-Bit-quantisierte Tensoren; das Modell quantisieren (--quantize ptq) oder diese Op am Rand des Modells lassen</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; is %2 without quantisation params: the Edge TPU takes only 8-bit quantised tensors; quantise the model (--quantize ptq) or keep this op at the model&apos;s edge</source>
        <translation>Tensor &apos;%1&apos; ist %2 ohne Quantisierungsparameter: die Edge TPU nimmt nur 8-Bit-quantisierte Tensoren; das Modell quantisieren (--quantize ptq) oder diese Op am Rand des Modells lassen</translation>
    </message>
    <message>
        <source>parameter &apos;%1&apos; is f32: the Edge TPU needs 8-bit quantised parameters; quantise the model</source>
        <translation>Parameter &apos;%1&apos; ist f32: die Edge TPU braucht 8-Bit-quantisierte Parameter; das Modell quantisieren</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; has shape %2: dim %3 (size %4) is outside the 3 innermost dims; only those may be &gt; 1 (use batch 1, fold the extra dim)</source>
        <translation>Tensor &apos;%1&apos; hat die Form %2: Dimension %3 (Größe %4) liegt außerhalb der 3 innersten Dimensionen; nur diese dürfen &gt; 1 sein (Batch 1 verwenden, die zusätzliche Dimension einfalten)</translation>
    </message>
    <message>
        <source>%1 has a fused activation function; the Edge TPU maps it only without one (apply the activation as a separate op)</source>
        <translation>%1 hat eine verschmolzene Aktivierungsfunktion; die Edge TPU bildet sie nur ohne ab (die Aktivierung als eigene Op anwenden)</translation>
    </message>
    <message>
        <source>constant input &apos;%1&apos; is not all zeros; a constant CONCATENATION input must be a zero pad</source>
        <translation>konstante Eingabe &apos;%1&apos; ist nicht ganz null; eine konstante CONCATENATION-Eingabe muss ein Null-Pad sein</translation>
    </message>
    <message>
        <source>a constant input needs exactly 2 inputs (it has %1)</source>
        <translation>eine konstante Eingabe braucht genau 2 Eingaben (sie hat %1)</translation>
    </message>
    <message>
        <source>dilations are %1 (y) and %2 (x); use the same dilation in both</source>
        <translation>Dilatationen sind %1 (y) und %2 (x); in beiden dieselbe Dilatation verwenden</translation>
    </message>
    <message>
        <source>a convolution in %1 groups; the Edge TPU compiler (2021) predates TFLite&apos;s grouped CONV_2D: write one CONV_2D per group (the grouped_conv_per_group override)</source>
        <translation>eine Faltung in %1 Gruppen; der Edge-TPU-Compiler (2021) ist älter als TFLites gruppiertes CONV_2D: ein CONV_2D je Gruppe schreiben (der Override grouped_conv_per_group)</translation>
    </message>
    <message>
        <source>output &apos;%1&apos; has shape %2; the output must be one-dimensional (only the innermost dim &gt; 1)</source>
        <translation>Ausgabe &apos;%1&apos; hat die Form %2; die Ausgabe muss eindimensional sein (nur die innerste Dimension &gt; 1)</translation>
    </message>
    <message>
        <source>input &apos;%1&apos; has shape %2; SOFTMAX maps only a 1-D input (only the innermost dim &gt; 1)</source>
        <translation>Eingabe &apos;%1&apos; hat die Form %2; SOFTMAX bildet nur eine 1-D-Eingabe ab (nur die innerste Dimension &gt; 1)</translation>
    </message>
    <message>
        <source>input has %1 elements; SOFTMAX maps at most 16,000</source>
        <translation>Eingabe hat %1 Elemente; SOFTMAX bildet höchstens 16.000 ab</translation>
    </message>
    <message>
        <source>reduces over the batch dimension (axis 0); reduce over the other axes only</source>
        <translation>reduziert über die Batch-Dimension (Achse 0); nur über die anderen Achsen reduzieren</translation>
    </message>
    <message>
        <source>reduces the z (innermost) dimension of size %1, which is not a multiple of 4</source>
        <translation>reduziert die z-Dimension (innerste) der Größe %1, die kein Vielfaches von 4 ist</translation>
    </message>
    <message>
        <source>pads the batch dimension; pad only the other dimensions</source>
        <translation>füllt die Batch-Dimension auf; nur die anderen Dimensionen auffüllen</translation>
    </message>
    <message>
        <source>batch %1: input/output must be 3-dimensional (batch 1)</source>
        <translation>Batch %1: Ein-/Ausgabe muss dreidimensional sein (Batch 1)</translation>
    </message>
    <message>
        <source>resizes %1 -&gt; %2 with align_corners: a 1-pixel input has no corner-aligned scale (loss in precision); use a broadcast (e.g. TILE on CPU) or align_corners=false</source>
        <translation>skaliert %1 -&gt; %2 mit align_corners: eine 1-Pixel-Eingabe hat keinen eckenbündigen Maßstab (Genauigkeitsverlust); einen Broadcast verwenden (z. B. TILE auf der CPU) oder align_corners=false</translation>
    </message>
    <message>
        <source>resizes %1 -&gt; %2 with align_corners: (out-1)/(in-1) is not a whole number (loss in precision); pick sizes with a whole scale</source>
        <translation>skaliert %1 -&gt; %2 mit align_corners: (out-1)/(in-1) ist keine ganze Zahl (Genauigkeitsverlust); Größen mit ganzzahligem Maßstab wählen</translation>
    </message>
    <message>
        <source>resizes %1 -&gt; %2: not a whole scale factor (loss in precision)</source>
        <translation>skaliert %1 -&gt; %2: kein ganzzahliger Skalierungsfaktor (Genauigkeitsverlust)</translation>
    </message>
    <message>
        <source>a stride is %1; STRIDED_SLICE maps only with all strides 1</source>
        <translation>eine Schrittweite ist %1; STRIDED_SLICE wird nur mit allen Schrittweiten 1 abgebildet</translation>
    </message>
    <message>
        <source>squeezes axis %1 after a dim &gt; 1 of %2 (needs a relayout); squeeze only leading 1s</source>
        <translation>entfernt Achse %1 nach einer Dimension &gt; 1 von %2 (braucht ein Umordnen); nur führende 1en entfernen</translation>
    </message>
    <message>
        <source>alpha &apos;%1&apos; has shape %2; alpha must be 1-dimensional (Keras: shared_axes=[1,2])</source>
        <translation>alpha &apos;%1&apos; hat die Form %2; alpha muss eindimensional sein (Keras: shared_axes=[1,2])</translation>
    </message>
    <message>
        <source>a %1-D TRANSPOSE is not supported (#274); use at most 4-D</source>
        <translation>ein %1-D-TRANSPOSE wird nicht unterstützt (#274); höchstens 4-D verwenden</translation>
    </message>
    <message>
        <source>Clip with bounds other than [0, 6], [-1, 1] or [0, inf) has no TFLite op the Edge TPU maps (RELU6, RELU_N1_TO_1, RELU)</source>
        <translation>Clip mit anderen Grenzen als [0, 6], [-1, 1] oder [0, inf) hat keine TFLite-Op, die die Edge TPU abbildet (RELU6, RELU_N1_TO_1, RELU)</translation>
    </message>
    <message>
        <source>QUANTIZE reads %1 tensor &apos;%2&apos;: float -&gt; 8-bit conversion runs on the CPU (a leading QUANTIZE does not split the model)</source>
        <translation>QUANTIZE liest den %1-Tensor &apos;%2&apos;: die Umwandlung float -&gt; 8 Bit läuft auf der CPU (ein führendes QUANTIZE teilt das Modell nicht)</translation>
    </message>
    <message>
        <source>Coral Edge TPU</source>
        <translation>Coral Edge TPU</translation>
    </message>
    <message>
        <source>Apple silicon (Core ML .mlpackage)</source>
        <translation>Apple Silicon (Core ML .mlpackage)</translation>
    </message>
    <message>
        <source>CPU (reference)</source>
        <translation>CPU (Referenz)</translation>
    </message>
    <message numerus="yes">
        <source>%n batch dim(s) fixed</source>
        <translation>
            <numerusform>%n Batch-Dimension festgelegt</numerusform>
            <numerusform>%n Batch-Dimensionen festgelegt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Transpose(s) of unit dims made Reshapes</source>
        <translation>
            <numerusform>%n Transpose über Einheitsdimensionen zu Reshape gemacht</numerusform>
            <numerusform>%n Transposes über Einheitsdimensionen zu Reshapes gemacht</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n Concat(s) written without unit dims</source>
        <translation>
            <numerusform>%n Concat ohne Einheitsdimensionen geschrieben</numerusform>
            <numerusform>%n Concats ohne Einheitsdimensionen geschrieben</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ec::widgets::BenchmarkPanel</name>
    <message>
        <source>Recorded as run %1 in the run history.</source>
        <translation>Als Lauf %1 im Laufverlauf aufgezeichnet.</translation>
    </message>
    <message>
        <source>Not recorded: %1</source>
        <translation>Nicht aufgezeichnet: %1</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>No model open.</source>
        <translation>Kein Modell geöffnet.</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>Modell: %1</translation>
    </message>
    <message numerus="yes">
        <source>Running %n timed run(s)…</source>
        <translation>
            <numerusform>%n gemessener Lauf läuft…</numerusform>
            <numerusform>%n gemessene Läufe laufen…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>init (load + prepare)</source>
        <translation>Init (Laden + Vorbereiten)</translation>
    </message>
    <message>
        <source>first inference</source>
        <translation>erste Inferenz</translation>
    </message>
    <message numerus="yes">
        <source>warm-up mean (%n run(s))</source>
        <translation>
            <numerusform>Aufwärm-Mittel (%n Lauf)</numerusform>
            <numerusform>Aufwärm-Mittel (%n Läufe)</numerusform>
        </translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>timed runs</source>
        <translation>gemessene Läufe</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>stdev</source>
        <translation>Std.-Abw.</translation>
    </message>
    <message>
        <source>min</source>
        <translation>Min.</translation>
    </message>
    <message>
        <source>max</source>
        <translation>Max.</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p90</source>
        <translation>p90</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>throughput</source>
        <translation>Durchsatz</translation>
    </message>
    <message>
        <source>%1 inferences/s</source>
        <translation>%1 Inferenzen/s</translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation>Spitzenspeicher</translation>
    </message>
    <message>
        <source>activation arena</source>
        <translation>Aktivierungs-Arena</translation>
    </message>
    <message>
        <source>threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>per-op profile</source>
        <translation>Profil je Op</translation>
    </message>
    <message>
        <source>%1 ops, sum %2 (%3% of the mean)</source>
        <translation>%1 Ops, Summe %2 (%3 % des Mittelwerts)</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Timed runs</source>
        <translation>Gemessene Läufe</translation>
    </message>
    <message>
        <source>Warm-up runs</source>
        <translation>Aufwärmläufe</translation>
    </message>
    <message>
        <source>Threads (0 = every core)</source>
        <translation>Threads (0 = alle Kerne)</translation>
    </message>
    <message>
        <source>Record in the run history</source>
        <translation>Im Laufverlauf aufzeichnen</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>Kennzahl</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>Kennzahlen</translation>
    </message>
    <message>
        <source>Latency per run</source>
        <translation>Latenz je Lauf</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>Histogramm</translation>
    </message>
    <message>
        <source>Time per op</source>
        <translation>Zeit je Op</translation>
    </message>
</context>
<context>
    <name>ec::widgets::ChannelHeatmap</name>
    <message>
        <source>channel %1 of %2</source>
        <translation>Kanal %1 von %2</translation>
    </message>
    <message>
        <source>SQNR: %1</source>
        <translation>SQNR: %1</translation>
    </message>
    <message>
        <source>max |error|: %1</source>
        <translation>max. |Fehler|: %1</translation>
    </message>
    <message>
        <source>No layer has per-channel weights.</source>
        <translation>Keine Schicht hat kanalweise Gewichte.</translation>
    </message>
    <message>
        <source>Not quantised yet.</source>
        <translation>Noch nicht quantisiert.</translation>
    </message>
    <message numerus="yes">
        <source>Per-channel weight SQNR (dB): %n layer(s) × output channels</source>
        <translation>
            <numerusform>Kanalweises Gewichts-SQNR (dB): %n Schicht × Ausgabekanäle</numerusform>
            <numerusform>Kanalweises Gewichts-SQNR (dB): %n Schichten × Ausgabekanäle</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Per-channel max |weight error|: %n layer(s) × output channels</source>
        <translation>
            <numerusform>Kanalweiser max. |Gewichtsfehler|: %n Schicht × Ausgabekanäle</numerusform>
            <numerusform>Kanalweiser max. |Gewichtsfehler|: %n Schichten × Ausgabekanäle</numerusform>
        </translation>
    </message>
    <message>
        <source>channel 0 → last (each row spans its own channel count)</source>
        <translation>Kanal 0 → letzter (jede Zeile über ihre eigene Kanalzahl)</translation>
    </message>
    <message>
        <source>dB</source>
        <translation>dB</translation>
    </message>
    <message>
        <source>|error|</source>
        <translation>|Fehler|</translation>
    </message>
</context>
<context>
    <name>ec::widgets::ComparePairsModel</name>
    <message>
        <source>name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>origin</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <source>position</source>
        <translation>Position</translation>
    </message>
    <message>
        <source>%1 (NHWC)</source>
        <translation>%1 (NHWC)</translation>
    </message>
    <message>
        <source>NaN/Inf</source>
        <translation>NaN/Inf</translation>
    </message>
    <message>
        <source>exact</source>
        <translation>exakt</translation>
    </message>
    <message>
        <source>Tensor (A)</source>
        <translation>Tensor (A)</translation>
    </message>
    <message>
        <source>Tensor (B)</source>
        <translation>Tensor (B)</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>Op</translation>
    </message>
    <message>
        <source>Matched by</source>
        <translation>Zugeordnet über</translation>
    </message>
    <message>
        <source>SQNR (dB)</source>
        <translation>SQNR (dB)</translation>
    </message>
    <message>
        <source>Max rel. error</source>
        <translation>Max. rel. Fehler</translation>
    </message>
    <message>
        <source>Max abs. error</source>
        <translation>Max. abs. Fehler</translation>
    </message>
    <message>
        <source>Cosine</source>
        <translation>Kosinus</translation>
    </message>
</context>
<context>
    <name>ec::widgets::CompareView</name>
    <message>
        <source>%1 ↔ %2: SQNR %3 dB, max rel. error %4</source>
        <translation>%1 ↔ %2: SQNR %3 dB, max. rel. Fehler %4</translation>
    </message>
    <message>
        <source>%1 ↔ %2: not compared (%3)</source>
        <translation>%1 ↔ %2: nicht verglichen (%3)</translation>
    </message>
    <message>
        <source>only in A: fused into %1</source>
        <translation>nur in A: verschmolzen in %1</translation>
    </message>
    <message>
        <source>only in A: removed</source>
        <translation>nur in A: entfernt</translation>
    </message>
    <message>
        <source>only in B: added</source>
        <translation>nur in B: hinzugefügt</translation>
    </message>
    <message>
        <source>exact</source>
        <translation>exakt</translation>
    </message>
    <message>
        <source>SQNR ≥ 60 dB</source>
        <translation>SQNR ≥ 60 dB</translation>
    </message>
    <message>
        <source>SQNR 30–60 dB</source>
        <translation>SQNR 30–60 dB</translation>
    </message>
    <message>
        <source>SQNR &lt; 30 dB</source>
        <translation>SQNR &lt; 30 dB</translation>
    </message>
    <message>
        <source>NaN/Inf</source>
        <translation>NaN/Inf</translation>
    </message>
    <message>
        <source>only in A</source>
        <translation>nur in A</translation>
    </message>
    <message>
        <source>only in B</source>
        <translation>nur in B</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>No comparison yet: Model › Compare With… runs both models on the same inputs.</source>
        <translation>Noch kein Vergleich: Modell › Vergleichen mit… führt beide Modelle mit denselben Eingaben aus.</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A: %1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B: %1</translation>
    </message>
    <message>
        <source>no divergence beyond float noise</source>
        <translation>keine Abweichung über das Gleitkommarauschen hinaus</translation>
    </message>
    <message>
        <source>first divergence: %1 (%2), SQNR %3 dB</source>
        <translation>erste Abweichung: %1 (%2), SQNR %3 dB</translation>
    </message>
    <message numerus="yes">
        <source>%n tensor(s) compared, %1 exact, on %2 sample(s); %3.</source>
        <translation>
            <numerusform>%n Tensor verglichen, %1 exakt, mit %2 Stichprobe(n); %3.</numerusform>
            <numerusform>%n Tensoren verglichen, %1 exakt, mit %2 Stichprobe(n); %3.</numerusform>
        </translation>
    </message>
    <message>
        <source>NaN/Inf first in B at %1.</source>
        <translation>NaN/Inf zuerst in B bei %1.</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <source>changes numerics: max rel. error %1</source>
        <translation>ändert die Zahlen: max. rel. Fehler %1</translation>
    </message>
    <message>
        <source>float noise: max rel. error %1</source>
        <translation>Gleitkommarauschen: max. rel. Fehler %1</translation>
    </message>
    <message>
        <source>Pass %1: %2 (%3 → %4 ops) — %5</source>
        <translation>Pass %1: %2 (%3 → %4 Ops) — %5</translation>
    </message>
    <message>
        <source>Before %1</source>
        <translation>Vor %1</translation>
    </message>
    <message>
        <source>After %1</source>
        <translation>Nach %1</translation>
    </message>
    <message>
        <source>%1 did not change the graph.</source>
        <translation>%1 hat den Graphen nicht verändert.</translation>
    </message>
    <message>
        <source>changed attributes: %1</source>
        <translation>geänderte Attribute: %1</translation>
    </message>
    <message>
        <source>changed attributes</source>
        <translation>geänderte Attribute</translation>
    </message>
</context>
<context>
    <name>ec::widgets::DeviceListModel</name>
    <message>
        <source>virtual</source>
        <translation>virtuell</translation>
    </message>
    <message>
        <source>physical</source>
        <translation>physisch</translation>
    </message>
    <message>
        <source>available</source>
        <translation>verfügbar</translation>
    </message>
    <message>
        <source>not available: %1</source>
        <translation>nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Vendor</source>
        <translation>Hersteller</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Discovered by</source>
        <translation>Gefunden durch</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Availability</source>
        <translation>Verfügbarkeit</translation>
    </message>
</context>
<context>
    <name>ec::widgets::DevicesPanel</name>
    <message>
        <source>Provider of %1</source>
        <translation>Provider von %1</translation>
    </message>
    <message>
        <source>Select a device to edit how it is reached.</source>
        <translation>Ein Gerät auswählen, um festzulegen, wie es erreicht wird.</translation>
    </message>
    <message>
        <source>%1 could not be read; fix or delete it before saving</source>
        <translation>%1 konnte nicht gelesen werden; vor dem Speichern korrigieren oder löschen</translation>
    </message>
    <message>
        <source>Saved to %1</source>
        <translation>Gespeichert in %1</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>id of a remote device</source>
        <translation>ID eines entfernten Geräts</translation>
    </message>
    <message>
        <source>Add remote device</source>
        <translation>Entferntes Gerät hinzufügen</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Compiler</source>
        <translation>Compiler</translation>
    </message>
    <message>
        <source>Profiler</source>
        <translation>Profiler</translation>
    </message>
    <message>
        <source>Invoker</source>
        <translation>Ausführung</translation>
    </message>
    <message>
        <source>Provider type</source>
        <translation>Provider-Typ</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>Key file</source>
        <translation>Schlüsseldatei</translation>
    </message>
    <message>
        <source>Remote directory</source>
        <translation>Entferntes Verzeichnis</translation>
    </message>
    <message>
        <source>Remote command</source>
        <translation>Entfernter Befehl</translation>
    </message>
    <message>
        <source>Empty: the device&apos;s provider. Empty fields inherit the device&apos;s values.</source>
        <translation>Leer: der Provider des Geräts. Leere Felder übernehmen die Werte des Geräts.</translation>
    </message>
</context>
<context>
    <name>ec::widgets::GraphDiffModel</name>
    <message>
        <source>removed</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>added</source>
        <translation>hinzugefügt</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>geändert</translation>
    </message>
    <message>
        <source>type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>(absent)</source>
        <translation>(nicht vorhanden)</translation>
    </message>
    <message>
        <source>inputs</source>
        <translation>Eingänge</translation>
    </message>
    <message>
        <source>outputs</source>
        <translation>Ausgänge</translation>
    </message>
    <message>
        <source>inputs: %1</source>
        <translation>Eingänge: %1</translation>
    </message>
    <message>
        <source>outputs: %1</source>
        <translation>Ausgänge: %1</translation>
    </message>
    <message>
        <source>before</source>
        <translation>vorher</translation>
    </message>
    <message>
        <source>after</source>
        <translation>nachher</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>Op</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>What changed</source>
        <translation>Was sich änderte</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
</context>
<context>
    <name>ec::widgets::GraphView</name>
    <message>
        <source>%1 ops</source>
        <translation>%1 Operationen</translation>
    </message>
    <message>
        <source>Laying out…</source>
        <translation>Wird angeordnet…</translation>
    </message>
    <message>
        <source>Drag to pan, wheel, pinch or +/− to zoom, 0 or a double-click on the background to fit. Click a block to expand it, its header to collapse it.
On an op: k kernel · s stride · pad top/left/bottom/right · g groups · d dilation.</source>
        <translation>Ziehen zum Verschieben, Mausrad, Zwei-Finger-Zoom oder +/− zum Zoomen, 0 oder Doppelklick auf den Hintergrund zum Einpassen. Einen Block anklicken zum Aufklappen, seinen Kopf zum Zuklappen.
Auf einer Op: k Kernel · s Schrittweite · pad oben/links/unten/rechts · g Gruppen · d Dilatation.</translation>
    </message>
</context>
<context>
    <name>ec::widgets::LatencyChart</name>
    <message>
        <source>latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>timed run</source>
        <translation>gemessener Lauf</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
</context>
<context>
    <name>ec::widgets::LatencyHistogram</name>
    <message>
        <source>runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>latency (ms)</source>
        <translation>Latenz (ms)</translation>
    </message>
    <message>
        <source>p50 %1 ms</source>
        <translation>p50 %1 ms</translation>
    </message>
    <message>
        <source>p95 %1 ms</source>
        <translation>p95 %1 ms</translation>
    </message>
    <message>
        <source>p99 %1 ms</source>
        <translation>p99 %1 ms</translation>
    </message>
</context>
<context>
    <name>ec::widgets::LogModel</name>
    <message>
        <source>Trace</source>
        <translation>Trace</translation>
    </message>
    <message>
        <source>Debug</source>
        <translation>Debug</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>Info</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>Kritisch</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
</context>
<context>
    <name>ec::widgets::LogPanel</name>
    <message>
        <source>Clear the log</source>
        <translation>Protokoll leeren</translation>
    </message>
</context>
<context>
    <name>ec::widgets::MessageBar</name>
    <message>
        <source>Dismiss</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>ec::widgets::ModelSummaryModel</name>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>Producer</source>
        <translation>Erzeuger</translation>
    </message>
    <message>
        <source>Opset</source>
        <translation>Opset</translation>
    </message>
    <message>
        <source>IR version</source>
        <translation>IR-Version</translation>
    </message>
    <message numerus="yes">
        <source>Inputs (%n)</source>
        <translation>
            <numerusform>Eingang (%n)</numerusform>
            <numerusform>Eingänge (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Outputs (%n)</source>
        <translation>
            <numerusform>Ausgang (%n)</numerusform>
            <numerusform>Ausgänge (%n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Size and compute</source>
        <translation>Größe und Rechenaufwand</translation>
    </message>
    <message>
        <source>Operations</source>
        <translation>Operationen</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Parameter size</source>
        <translation>Parametergröße</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Byte</translation>
    </message>
    <message>
        <source>MACs</source>
        <translation>MACs</translation>
    </message>
    <message>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
    <message>
        <source>MACs not counted for</source>
        <translation>MACs nicht gezählt für</translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) with unknown shapes</source>
        <translation>
            <numerusform>%n Operation mit unbekannter Form</numerusform>
            <numerusform>%n Operationen mit unbekannten Formen</numerusform>
        </translation>
    </message>
    <message>
        <source>Operations by type</source>
        <translation>Operationen nach Typ</translation>
    </message>
    <message>
        <source>Ops the IR does not know</source>
        <translation>Der IR unbekannte Operationen</translation>
    </message>
    <message>
        <source>Validation warnings</source>
        <translation>Validierungswarnungen</translation>
    </message>
    <message>
        <source>Warning %1</source>
        <translation>Warnung %1</translation>
    </message>
    <message>
        <source>Property</source>
        <translation>Eigenschaft</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Quantisation</source>
        <translation>Quantisierung</translation>
    </message>
    <message>
        <source>%1: %2 of %3 ops</source>
        <translation>%1: %2 von %3 Operationen</translation>
    </message>
    <message>
        <source>%1 quantised tensors, %2 per channel</source>
        <translation>%1 quantisierte Tensoren, %2 pro Kanal</translation>
    </message>
    <message>
        <source>none (float)</source>
        <translation>keine (Gleitkomma)</translation>
    </message>
</context>
<context>
    <name>ec::widgets::OpFormat</name>
    <message>
        <source>k: kernel size %1</source>
        <translation>k: Kernelgröße %1</translation>
    </message>
    <message>
        <source>s: stride %1</source>
        <translation>s: Schrittweite %1</translation>
    </message>
    <message>
        <source>pad: padding top %1, left %2, bottom %3, right %4</source>
        <translation>pad: Auffüllung oben %1, links %2, unten %3, rechts %4</translation>
    </message>
    <message>
        <source>pad: padding at the start / end of each spatial axis %1</source>
        <translation>pad: Auffüllung am Anfang / Ende jeder räumlichen Achse %1</translation>
    </message>
    <message>
        <source>g: groups %1 (input channels split into %1 groups)</source>
        <translation>g: Gruppen %1 (Eingangskanäle in %1 Gruppen aufgeteilt)</translation>
    </message>
    <message>
        <source>d: dilation %1</source>
        <translation>d: Dilatation %1</translation>
    </message>
</context>
<context>
    <name>ec::widgets::OpTimeChart</name>
    <message>
        <source>mean ms per run</source>
        <translation>mittlere ms je Lauf</translation>
    </message>
    <message>
        <source>ms (mean over the timed runs)</source>
        <translation>ms (Mittel über die gemessenen Läufe)</translation>
    </message>
    <message>
        <source>%1 %2%</source>
        <translation>%1 %2 %</translation>
    </message>
</context>
<context>
    <name>ec::widgets::OperationListModel</name>
    <message>
        <source>#</source>
        <translation>Nr.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Output type</source>
        <translation>Ausgabetyp</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>Eingänge</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>Ausgänge</translation>
    </message>
</context>
<context>
    <name>ec::widgets::PartitionOpModel</name>
    <message>
        <source>TPU</source>
        <translation>TPU</translation>
    </message>
    <message>
        <source>CPU (after unsupported)</source>
        <translation>CPU (nach nicht unterstützter Op)</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>%1
(placed after the unsupported op “%2”)</source>
        <translation>%1
(nach der nicht unterstützten Op „%2“ platziert)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Placement</source>
        <translation>Platzierung</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>%1 — %2: %3
%4</source>
        <translation>%1 — %2: %3
%4</translation>
    </message>
    <message>
        <source>Target op</source>
        <translation>Zieloperation</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Segment</source>
        <translation>Segment</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nach</translation>
    </message>
    <message>
        <source>Override</source>
        <translation>Ersetzung</translation>
    </message>
    <message>
        <source>Neural Engine</source>
        <translation>Neural Engine</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
</context>
<context>
    <name>ec::widgets::PartitionPanel</name>
    <message>
        <source>Operator / Count / Status</source>
        <translation>Operator / Anzahl / Status</translation>
    </message>
    <message>
        <source>Operations</source>
        <translation>Operationen</translation>
    </message>
    <message>
        <source>TPU</source>
        <translation>TPU</translation>
    </message>
    <message>
        <source>CPU (unsupported)</source>
        <translation>CPU (nicht unterstützt)</translation>
    </message>
    <message>
        <source>CPU (after the first unsupported op)</source>
        <translation>CPU (nach der ersten nicht unterstützten Op)</translation>
    </message>
    <message>
        <source>No compile yet: Model › Compile for target…</source>
        <translation>Noch nicht kompiliert: Modell › Für Ziel kompilieren…</translation>
    </message>
    <message numerus="yes">
        <source>Target %1 (%2): %3 of %n op(s) on the TPU, %4 on the CPU; %5 TPU segment(s); %6.</source>
        <translation>
            <numerusform>Ziel %1 (%2): %3 von %n Op auf der TPU, %4 auf der CPU; %5 TPU-Segment(e); %6.</numerusform>
            <numerusform>Ziel %1 (%2): %3 von %n Ops auf der TPU, %4 auf der CPU; %5 TPU-Segment(e); %6.</numerusform>
        </translation>
    </message>
    <message>
        <source>Estimated latency %1 ms (estimate).</source>
        <translation>Geschätzte Latenz %1 ms (Schätzung).</translation>
    </message>
    <message>
        <source>Neural Engine</source>
        <translation>Neural Engine</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message numerus="yes">
        <source>Target %1 (%2): of %n op(s), %3 on the Neural Engine, %4 on the GPU, %5 on the CPU; %6.</source>
        <translation>
            <numerusform>Ziel %1 (%2): von %n Op %3 auf der Neural Engine, %4 auf der GPU, %5 auf der CPU; %6.</numerusform>
            <numerusform>Ziel %1 (%2): von %n Ops %3 auf der Neural Engine, %4 auf der GPU, %5 auf der CPU; %6.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ec::widgets::PartitionStatusModel</name>
    <message>
        <source>Operator</source>
        <translation>Operator</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
</context>
<context>
    <name>ec::widgets::PassListModel</name>
    <message>
        <source>invalid graph</source>
        <translation>ungültiger Graph</translation>
    </message>
    <message numerus="yes">
        <source>%n note(s)</source>
        <translation>
            <numerusform>%n Hinweis</numerusform>
            <numerusform>%n Hinweise</numerusform>
        </translation>
    </message>
    <message>
        <source>no change</source>
        <translation>keine Änderung</translation>
    </message>
    <message>
        <source>warning: </source>
        <translation>Warnung: </translation>
    </message>
    <message>
        <source>note: </source>
        <translation>Hinweis: </translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>Pass</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>Zeit (ms)</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>Ops</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>Statistik</translation>
    </message>
</context>
<context>
    <name>ec::widgets::PassesPanel</name>
    <message numerus="yes">
        <source>original (%n op(s))</source>
        <translation>
            <numerusform>Original (%n Op)</numerusform>
            <numerusform>Original (%n Ops)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: after %2, final (%n op(s))</source>
        <translation>
            <numerusform>%1: nach %2, endgültig (%n Op)</numerusform>
            <numerusform>%1: nach %2, endgültig (%n Ops)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: after %2 (%n op(s))</source>
        <translation>
            <numerusform>%1: nach %2 (%n Op)</numerusform>
            <numerusform>%1: nach %2 (%n Ops)</numerusform>
        </translation>
    </message>
    <message>
        <source>Show %1 in the graph view (removed ops in red)</source>
        <translation>%1 in der Graphansicht zeigen (entfernte Ops rot)</translation>
    </message>
    <message>
        <source>Show %1 in the graph view (added ops in green)</source>
        <translation>%1 in der Graphansicht zeigen (hinzugefügte Ops grün)</translation>
    </message>
    <message>
        <source>%1 removed, %2 added, %3 changed, %4 unchanged</source>
        <translation>%1 entfernt, %2 hinzugefügt, %3 geändert, %4 unverändert</translation>
    </message>
    <message numerus="yes">
        <source>%n constant(s) touched</source>
        <translation>
            <numerusform>%n Konstante berührt</numerusform>
            <numerusform>%n Konstanten berührt</numerusform>
        </translation>
    </message>
    <message>
        <source>Run Model › Optimize (Ctrl+Shift+O) to see what each pass does to the graph.</source>
        <translation>Modell › Optimieren (Strg+Umschalt+O) ausführen, um zu sehen, was jeder Pass am Graphen ändert.</translation>
    </message>
    <message>
        <source>Snapshot the diff starts from</source>
        <translation>Stand, von dem der Vergleich ausgeht</translation>
    </message>
    <message>
        <source>Snapshot the diff goes to</source>
        <translation>Stand, zu dem der Vergleich führt</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Zeigen</translation>
    </message>
    <message>
        <source>Click a change to select its op in the graph</source>
        <translation>Eine Änderung anklicken, um ihre Op im Graphen auszuwählen</translation>
    </message>
</context>
<context>
    <name>ec::widgets::PropertiesModel</name>
    <message>
        <source>(not given)</source>
        <translation>(nicht angegeben)</translation>
    </message>
    <message>
        <source>type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>constant</source>
        <translation>Konstante</translation>
    </message>
    <message>
        <source>graph input</source>
        <translation>Graph-Eingang</translation>
    </message>
    <message>
        <source>producer</source>
        <translation>Erzeuger</translation>
    </message>
    <message>
        <source>Click to go to the producer</source>
        <translation>Klicken, um zum Erzeuger zu springen</translation>
    </message>
    <message>
        <source>quantisation</source>
        <translation>Quantisierung</translation>
    </message>
    <message>
        <source>values</source>
        <translation>Werte</translation>
    </message>
    <message>
        <source>min %1 · max %2 · mean %3 · std %4</source>
        <translation>Min. %1 · Max. %2 · Mittel %3 · Std.-Abw. %4</translation>
    </message>
    <message>
        <source>%1 values</source>
        <translation>%1 Werte</translation>
    </message>
    <message>
        <source>consumers</source>
        <translation>Verbraucher</translation>
    </message>
    <message>
        <source>graph output</source>
        <translation>Graph-Ausgang</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Click to go to this consumer</source>
        <translation>Klicken, um zu diesem Verbraucher zu springen</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… und %n weiterer</numerusform>
            <numerusform>… und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>Operation</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>Index</source>
        <translation>Index</translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation>Attribute</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>Eingänge</translation>
    </message>
    <message>
        <source>input %1</source>
        <translation>Eingang %1</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>Ausgänge</translation>
    </message>
    <message>
        <source>output %1</source>
        <translation>Ausgang %1</translation>
    </message>
    <message>
        <source>Property</source>
        <translation>Eigenschaft</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
</context>
<context>
    <name>ec::widgets::PropertiesPanel</name>
    <message>
        <source>Click an op in the graph to see its properties.</source>
        <translation>Eine Operation im Graphen anklicken, um ihre Eigenschaften zu sehen.</translation>
    </message>
    <message>
        <source>Histogram of %1</source>
        <translation>Histogramm von %1</translation>
    </message>
</context>
<context>
    <name>ec::widgets::QuantLayerModel</name>
    <message>
        <source>weights: %1, %2</source>
        <translation>Gewichte: %1, %2</translation>
    </message>
    <message>
        <source>per channel</source>
        <translation>pro Kanal</translation>
    </message>
    <message>
        <source>per tensor</source>
        <translation>pro Tensor</translation>
    </message>
    <message>
        <source>output SQNR: %1</source>
        <translation>Ausgabe-SQNR: %1</translation>
    </message>
    <message>
        <source>weight SQNR: %1</source>
        <translation>Gewichts-SQNR: %1</translation>
    </message>
    <message>
        <source>worst channel: %1 (%2)</source>
        <translation>schlechtester Kanal: %1 (%2)</translation>
    </message>
    <message>
        <source>kept in float, the model&apos;s SQNR would gain %1</source>
        <translation>in Float belassen, gewänne das SQNR des Modells %1</translation>
    </message>
    <message>
        <source>in float: %1</source>
        <translation>in Float: %1</translation>
    </message>
    <message>
        <source>marked to stay in float at the next run</source>
        <translation>markiert, beim nächsten Lauf in Float zu bleiben</translation>
    </message>
    <message>
        <source>float: %1</source>
        <translation>Float: %1</translation>
    </message>
    <message>
        <source>int8 → float at next run</source>
        <translation>int8 → Float beim nächsten Lauf</translation>
    </message>
    <message>
        <source>int8</source>
        <translation>int8</translation>
    </message>
    <message>
        <source>Keep %1 in float when re-quantising</source>
        <translation>%1 beim erneuten Quantisieren in Float belassen</translation>
    </message>
    <message>
        <source>Keep in float: checked ops stay in float when the model is re-quantised</source>
        <translation>In Float belassen: markierte Ops bleiben beim erneuten Quantisieren in Float</translation>
    </message>
    <message>
        <source>Signal-to-quantisation-noise ratio of the op&apos;s output: int8 execution vs float</source>
        <translation>Signal-Quantisierungsrausch-Verhältnis der Op-Ausgabe: int8-Ausführung gegen Float</translation>
    </message>
    <message>
        <source>SQNR of the int8 weights against the float weights</source>
        <translation>SQNR der int8-Gewichte gegen die Float-Gewichte</translation>
    </message>
    <message>
        <source>The output channel whose weights lost the most</source>
        <translation>Der Ausgabekanal, dessen Gewichte am meisten verloren</translation>
    </message>
    <message>
        <source>Model SQNR gained when only this op is kept in float</source>
        <translation>SQNR-Gewinn des Modells, wenn nur diese Op in Float bleibt</translation>
    </message>
    <message>
        <source>Float</source>
        <translation>Float</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>Op</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Output SQNR</source>
        <translation>Ausgabe-SQNR</translation>
    </message>
    <message>
        <source>Weight SQNR</source>
        <translation>Gewichts-SQNR</translation>
    </message>
    <message>
        <source>Worst channel</source>
        <translation>Schlechtester Kanal</translation>
    </message>
    <message>
        <source>Channels</source>
        <translation>Kanäle</translation>
    </message>
    <message>
        <source>Sensitivity</source>
        <translation>Empfindlichkeit</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
</context>
<context>
    <name>ec::widgets::QuantPanel</name>
    <message>
        <source>Re-quantise</source>
        <translation>Neu quantisieren</translation>
    </message>
    <message>
        <source>Quantise</source>
        <translation>Quantisieren</translation>
    </message>
    <message>
        <source>Calibration Data</source>
        <translation>Kalibrierdaten</translation>
    </message>
    <message>
        <source>NumPy arrays, (N, C, H, W) float32 (*.npy);;All files (*)</source>
        <translation>NumPy-Arrays, (N, C, H, W) float32 (*.npy);;Alle Dateien (*)</translation>
    </message>
    <message numerus="yes">
        <source>Calibration: %n random sample(s) (uniform, fixed seed)</source>
        <translation>
            <numerusform>Kalibrierung: %n Zufallsstichprobe (gleichverteilt, fester Seed)</numerusform>
            <numerusform>Kalibrierung: %n Zufallsstichproben (gleichverteilt, fester Seed)</numerusform>
        </translation>
    </message>
    <message>
        <source>No calibration data chosen: random inputs from a fixed seed, of each input&apos;s type: floating-point inputs uniform in [-1, 1), integer inputs (token ids) uniform over the rows of the table they index (else 0 or 1). Choose a .npy file of real inputs for meaningful ranges.</source>
        <translation>Keine Kalibrierdaten gewählt: Zufallseingaben aus einem festen Seed, im Typ jeder Eingabe: Gleitkomma-Eingaben gleichverteilt in [-1, 1), ganzzahlige Eingaben (Token-IDs) gleichverteilt über die Zeilen der Tabelle, die sie indizieren (sonst 0 oder 1). Für aussagekräftige Wertebereiche eine .npy-Datei mit echten Eingaben wählen.</translation>
    </message>
    <message>
        <source>Calibration: %1</source>
        <translation>Kalibrierung: %1</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>startet…</translation>
    </message>
    <message>
        <source>calibrating</source>
        <translation>kalibriert</translation>
    </message>
    <message>
        <source>measuring error</source>
        <translation>misst Fehler</translation>
    </message>
    <message>
        <source>sensitivity</source>
        <translation>Empfindlichkeit</translation>
    </message>
    <message>
        <source>per channel</source>
        <translation>pro Kanal</translation>
    </message>
    <message>
        <source>per tensor</source>
        <translation>pro Tensor</translation>
    </message>
    <message>
        <source>min/max</source>
        <translation>Min/Max</translation>
    </message>
    <message>
        <source>%1th percentile</source>
        <translation>%1. Perzentil</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>output “%1”: SQNR %2, top-1 agreement %3%</source>
        <translation>Ausgabe „%1“: SQNR %2, Top-1-Übereinstimmung %3 %</translation>
    </message>
    <message>
        <source>output “%1”: SQNR not measured (no data)</source>
        <translation>Ausgabe „%1“: SQNR nicht gemessen (keine Daten)</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) in int8</source>
        <translation>
            <numerusform>%n Schicht in int8</numerusform>
            <numerusform>%n Schichten in int8</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s) in float</source>
        <translation>
            <numerusform>%n Op in Float</numerusform>
            <numerusform>%n Ops in Float</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n Warnung</numerusform>
            <numerusform>%n Warnungen</numerusform>
        </translation>
    </message>
    <message>
        <source>Quantise the model to int8 again with the calibration data and the layers marked “Float” kept in float</source>
        <translation>Das Modell erneut nach int8 quantisieren, mit den Kalibrierdaten und den mit „Float“ markierten Schichten in Float</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop the running quantisation</source>
        <translation>Die laufende Quantisierung anhalten</translation>
    </message>
    <message>
        <source>Calibration data</source>
        <translation>Kalibrierdaten</translation>
    </message>
    <message>
        <source>Choose the inputs the activation ranges are measured on</source>
        <translation>Die Eingaben wählen, an denen die Aktivierungsbereiche gemessen werden</translation>
    </message>
    <message>
        <source>Choose a .npy File…</source>
        <translation>.npy-Datei wählen…</translation>
    </message>
    <message>
        <source>Random Samples (%1)</source>
        <translation>Zufallsstichproben (%1)</translation>
    </message>
    <message>
        <source>Per-channel weights</source>
        <translation>Kanalweise Gewichte</translation>
    </message>
    <message>
        <source>Graph:</source>
        <translation>Graph:</translation>
    </message>
    <message>
        <source>Float graph coloured by SQNR</source>
        <translation>Float-Graph nach SQNR eingefärbt</translation>
    </message>
    <message>
        <source>Quantised graph</source>
        <translation>Quantisierter Graph</translation>
    </message>
    <message>
        <source>Run Tools › Quantise… (or the Quantise button above) to quantise the model to int8 and see where it loses accuracy.</source>
        <translation>Werkzeuge › Quantisieren… (oder die Schaltfläche Quantisieren oben) ausführen, um das Modell nach int8 zu quantisieren und zu sehen, wo es an Genauigkeit verliert.</translation>
    </message>
    <message>
        <source>SQNR per Layer</source>
        <translation>SQNR pro Schicht</translation>
    </message>
    <message>
        <source>Per-Channel Error</source>
        <translation>Fehler pro Kanal</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>Tensoren</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Zeigen:</translation>
    </message>
    <message>
        <source>Output SQNR</source>
        <translation>Ausgabe-SQNR</translation>
    </message>
    <message>
        <source>Weight SQNR</source>
        <translation>Gewichts-SQNR</translation>
    </message>
    <message>
        <source>one bar per quantised layer, in graph order: hover for its name, click to select it</source>
        <translation>ein Balken pro quantisierter Schicht, in Graphreihenfolge: darüberfahren für den Namen, anklicken zum Auswählen</translation>
    </message>
    <message>
        <source>SQNR (dB)</source>
        <translation>SQNR (dB)</translation>
    </message>
    <message>
        <source>Max |error|</source>
        <translation>Max. |Fehler|</translation>
    </message>
    <message>
        <source>Log counts</source>
        <translation>Logarithmische Anzahlen</translation>
    </message>
    <message>
        <source>Click a layer to select it in the graph; check “Float” to keep it in float at the next run</source>
        <translation>Eine Schicht anklicken, um sie im Graphen auszuwählen; „Float“ ankreuzen, um sie beim nächsten Lauf in Float zu belassen</translation>
    </message>
</context>
<context>
    <name>ec::widgets::QuantTensorModel</name>
    <message>
        <source>(graph input)</source>
        <translation>(Grapheingabe)</translation>
    </message>
    <message>
        <source>observed: %1</source>
        <translation>beobachtet: %1</translation>
    </message>
    <message>
        <source>clipping range: %1</source>
        <translation>Begrenzungsbereich: %1</translation>
    </message>
    <message>
        <source>scale %1, zero point %2</source>
        <translation>Skala %1, Nullpunkt %2</translation>
    </message>
    <message>
        <source>SQNR: %1</source>
        <translation>SQNR: %1</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>Tensor</translation>
    </message>
    <message>
        <source>Producer</source>
        <translation>Erzeuger</translation>
    </message>
    <message>
        <source>Observed range</source>
        <translation>Beobachteter Bereich</translation>
    </message>
    <message>
        <source>Clipping range</source>
        <translation>Begrenzungsbereich</translation>
    </message>
    <message>
        <source>Scale</source>
        <translation>Skala</translation>
    </message>
    <message>
        <source>Zero point</source>
        <translation>Nullpunkt</translation>
    </message>
    <message>
        <source>Clipped</source>
        <translation>Begrenzt</translation>
    </message>
    <message>
        <source>SQNR</source>
        <translation>SQNR</translation>
    </message>
</context>
<context>
    <name>ec::widgets::RunCompareModel</name>
    <message>
        <source>Welch&apos;s t-test on the means: p = %1</source>
        <translation>Welch-t-Test der Mittelwerte: p = %1</translation>
    </message>
    <message>
        <source>bootstrap of the recorded latencies: 95% interval of the change [%1, %2]</source>
        <translation>Bootstrap der aufgezeichneten Latenzen: 95-%-Intervall der Änderung [%1, %2]</translation>
    </message>
    <message>
        <source>a single measurement per run: no noise model</source>
        <translation>eine einzelne Messung je Lauf: kein Rauschmodell</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>beyond noise</source>
        <translation>über dem Rauschen</translation>
    </message>
    <message>
        <source>within noise</source>
        <translation>im Rauschen</translation>
    </message>
    <message>
        <source>Statistic</source>
        <translation>Statistik</translation>
    </message>
    <message>
        <source>Run %1 (A)</source>
        <translation>Lauf %1 (A)</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>Run %1 (B)</source>
        <translation>Lauf %1 (B)</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Change %</source>
        <translation>Änderung %</translation>
    </message>
    <message>
        <source>Noise</source>
        <translation>Rauschen</translation>
    </message>
</context>
<context>
    <name>ec::widgets::RunHistoryModel</name>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Time (UTC)</source>
        <translation>Zeit (UTC)</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Mean ms</source>
        <translation>Mittel ms</translation>
    </message>
    <message>
        <source>p99 ms</source>
        <translation>p99 ms</translation>
    </message>
</context>
<context>
    <name>ec::widgets::RunHistoryPanel</name>
    <message numerus="yes">
        <source>%n run(s) in %1. Select two to compare.</source>
        <translation>
            <numerusform>%n Lauf in %1. Zum Vergleichen zwei auswählen.</numerusform>
            <numerusform>%n Läufe in %1. Zum Vergleichen zwei auswählen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Run %1 (A)</source>
        <translation>Lauf %1 (A)</translation>
    </message>
    <message>
        <source>Run %1 (B)</source>
        <translation>Lauf %1 (B)</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>Mittelwert</translation>
    </message>
</context>
<context>
    <name>ec::widgets::SearchBar</name>
    <message>
        <source>Find op or tensor by name or type</source>
        <translation>Operation oder Tensor nach Name oder Typ suchen</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>Vorheriger</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>Vorheriger Treffer (Umschalt+Eingabe)</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Nächster</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>Nächster Treffer (Eingabe)</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>Schließen (Esc)</translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>Keine Treffer</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
</context>
<context>
    <name>ec::widgets::SqnrChart</name>
    <message>
        <source>#%1 %2 (%3)
%4</source>
        <translation>#%1 %2 (%3)
%4</translation>
    </message>
    <message>
        <source>dB</source>
        <translation>dB</translation>
    </message>
    <message>
        <source>output SQNR</source>
        <translation>Ausgabe-SQNR</translation>
    </message>
    <message>
        <source>weight SQNR</source>
        <translation>Gewichts-SQNR</translation>
    </message>
</context>
<context>
    <name>ec::widgets::SummaryPanel</name>
    <message>
        <source>No model loaded.</source>
        <translation>Kein Modell geladen.</translation>
    </message>
</context>
<context>
    <name>ec::widgets::TableCsv</name>
    <message>
        <source>%1: the table has no data</source>
        <translation>%1: Die Tabelle enthält keine Daten</translation>
    </message>
</context>
<context>
    <name>ec::widgets::TensorHistogram</name>
    <message numerus="yes">
        <source>[%1, %2): %n value(s)</source>
        <translation>
            <numerusform>[%1, %2): %n Wert</numerusform>
            <numerusform>[%1, %2): %n Werte</numerusform>
        </translation>
    </message>
    <message>
        <source>outside the clipping range</source>
        <translation>außerhalb des Begrenzungsbereichs</translation>
    </message>
    <message>
        <source>Select a tensor (or a layer) to see its values.</source>
        <translation>Einen Tensor (oder eine Schicht) auswählen, um seine Werte zu sehen.</translation>
    </message>
    <message>
        <source>Not quantised yet.</source>
        <translation>Noch nicht quantisiert.</translation>
    </message>
    <message>
        <source>clip [%1, %2] · scale %3 · zero point %4 · %5% clipped · SQNR %6</source>
        <translation>Begrenzung [%1, %2] · Skala %3 · Nullpunkt %4 · %5 % begrenzt · SQNR %6</translation>
    </message>
    <message>
        <source>count (log)</source>
        <translation>Anzahl (log)</translation>
    </message>
    <message>
        <source>count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>clip min %1</source>
        <translation>Begrenzung min. %1</translation>
    </message>
    <message>
        <source>clip max %1</source>
        <translation>Begrenzung max. %1</translation>
    </message>
</context>
<context>
    <name>ec::widgets::TimelineChart</name>
    <message>
        <source>target compile</source>
        <translation>Zielkompilierung</translation>
    </message>
    <message>
        <source>override</source>
        <translation>Ersetzung</translation>
    </message>
    <message>
        <source>CPU eager</source>
        <translation>CPU direkt</translation>
    </message>
    <message>
        <source>No attempt to show.</source>
        <translation>Kein Versuch anzuzeigen.</translation>
    </message>
    <message>
        <source>No compile yet.</source>
        <translation>Noch nicht kompiliert.</translation>
    </message>
    <message>
        <source>%1 %2 ms</source>
        <translation>%1 %2 ms</translation>
    </message>
    <message>
        <source>%1 — %2: %3 (%4 ms)
%5</source>
        <translation>%1 — %2: %3 (%4 ms)
%5</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>ec::widgets::TimelineModel</name>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>Einheit</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>Stufe</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Duration (ms)</source>
        <translation>Dauer (ms)</translation>
    </message>
</context>
<context>
    <name>ec::widgets::TimelinePanel</name>
    <message>
        <source>Failures only</source>
        <translation>Nur Fehlschläge</translation>
    </message>
    <message>
        <source>No compile yet.</source>
        <translation>Noch nicht kompiliert.</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s), %1 failed</source>
        <translation>
            <numerusform>%n Versuch, %1 fehlgeschlagen</numerusform>
            <numerusform>%n Versuche, %1 fehlgeschlagen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ec::workbench::BenchController</name>
    <message>
        <source>%1 on %2: %3 ms, estimate (not measured)</source>
        <translation>%1 auf %2: %3 ms, Schätzung (nicht gemessen)</translation>
    </message>
</context>
<context>
    <name>ec::workbench::CompareController</name>
    <message>
        <source>Compare</source>
        <translation>Vergleichen</translation>
    </message>
    <message>
        <source>Compare With</source>
        <translation>Vergleichen mit</translation>
    </message>
    <message>
        <source>Compare Pass &amp;Stages</source>
        <translation>Pass-&amp;Stufen vergleichen</translation>
    </message>
    <message>
        <source>Run the default pass pipeline stage by stage and show how each pass changes the numbers</source>
        <translation>Die Standard-Pass-Pipeline Stufe für Stufe ausführen und zeigen, wie jeder Pass die Zahlen verändert</translation>
    </message>
    <message>
        <source>Compare &amp;With…</source>
        <translation>&amp;Vergleichen mit…</translation>
    </message>
    <message>
        <source>Run a second model (its compiled or quantised form, another version) on the same inputs and show where the numbers differ, layer by layer</source>
        <translation>Ein zweites Modell (seine kompilierte oder quantisierte Form, eine andere Version) mit denselben Eingaben ausführen und Schicht für Schicht zeigen, wo die Zahlen abweichen</translation>
    </message>
    <message>
        <source>Comparing the pass stages…</source>
        <translation>Pass-Stufen werden verglichen…</translation>
    </message>
    <message>
        <source>Comparing with %1…</source>
        <translation>Vergleich mit %1…</translation>
    </message>
    <message>
        <source>Pass stages compared</source>
        <translation>Pass-Stufen verglichen</translation>
    </message>
    <message>
        <source>Compared with %1</source>
        <translation>Verglichen mit %1</translation>
    </message>
    <message>
        <source>Compare failed: %1</source>
        <translation>Vergleich fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Compare cancelled</source>
        <translation>Vergleich abgebrochen</translation>
    </message>
</context>
<context>
    <name>ec::workbench::CompareRunner</name>
    <message>
        <source>Opening %1</source>
        <translation>%1 wird geöffnet</translation>
    </message>
</context>
<context>
    <name>ec::workbench::CompileController</name>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>Backend Timeline</source>
        <translation>Backend-Zeitleiste</translation>
    </message>
    <message>
        <source>Neural Engine</source>
        <translation>Neural Engine</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>TPU</source>
        <translation>TPU</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>%1 on the %2: %3</source>
        <translation>%1 auf der %2: %3</translation>
    </message>
    <message>
        <source>&amp;Compile for Target…</source>
        <translation>Für Ziel &amp;kompilieren…</translation>
    </message>
    <message>
        <source>Partition the model for a target and show what runs on the accelerator and why the rest does not</source>
        <translation>Das Modell für ein Ziel partitionieren und zeigen, was auf dem Beschleuniger läuft und warum der Rest nicht</translation>
    </message>
    <message>
        <source>Compile for Target</source>
        <translation>Für Ziel kompilieren</translation>
    </message>
    <message>
        <source>Post-training int8</source>
        <translation>Post-Training int8</translation>
    </message>
    <message>
        <source>None (the model is already quantised, or Core ML float)</source>
        <translation>Keine (das Modell ist bereits quantisiert, oder Core ML in Gleitkomma)</translation>
    </message>
    <message>
        <source>int8 weights (Core ML)</source>
        <translation>int8-Gewichte (Core ML)</translation>
    </message>
    <message>
        <source>none: random samples (fixed seed)</source>
        <translation>keine: Zufallsstichproben (fester Seed)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Calibration Data</source>
        <translation>Kalibrierdaten</translation>
    </message>
    <message>
        <source>NumPy arrays (*.npy)</source>
        <translation>NumPy-Arrays (*.npy)</translation>
    </message>
    <message>
        <source>Edge TPU segments the compiler may map (edgetpu_compiler --num_segments); 1 puts everything after the first unsupported op on the CPU</source>
        <translation>Edge-TPU-Segmente, die der Compiler abbilden darf (edgetpu_compiler --num_segments); bei 1 läuft alles nach der ersten nicht unterstützten Operation auf der CPU</translation>
    </message>
    <message>
        <source>fp16 (Neural Engine capable)</source>
        <translation>fp16 (Neural-Engine-fähig)</translation>
    </message>
    <message>
        <source>fp32 (GPU and CPU only)</source>
        <translation>fp32 (nur GPU und CPU)</translation>
    </message>
    <message>
        <source>All (Neural Engine, GPU, CPU)</source>
        <translation>Alle (Neural Engine, GPU, CPU)</translation>
    </message>
    <message>
        <source>CPU and Neural Engine</source>
        <translation>CPU und Neural Engine</translation>
    </message>
    <message>
        <source>CPU and GPU</source>
        <translation>CPU und GPU</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>Nur CPU</translation>
    </message>
    <message>
        <source>&amp;Target:</source>
        <translation>&amp;Ziel:</translation>
    </message>
    <message>
        <source>&amp;Quantisation:</source>
        <translation>&amp;Quantisierung:</translation>
    </message>
    <message>
        <source>Calibration &amp;data:</source>
        <translation>Kalibrier&amp;daten:</translation>
    </message>
    <message>
        <source>Calibration s&amp;amples:</source>
        <translation>Kalibrier&amp;stichproben:</translation>
    </message>
    <message>
        <source>&amp;Segments:</source>
        <translation>&amp;Segmente:</translation>
    </message>
    <message>
        <source>&amp;Precision:</source>
        <translation>&amp;Genauigkeit:</translation>
    </message>
    <message>
        <source>Compute &amp;units:</source>
        <translation>Rechen&amp;einheiten:</translation>
    </message>
    <message>
        <source>&amp;Deployment target:</source>
        <translation>&amp;Zielplattform:</translation>
    </message>
    <message>
        <source>Compile</source>
        <translation>Kompilieren</translation>
    </message>
    <message>
        <source>calibrating</source>
        <translation>kalibriert</translation>
    </message>
    <message>
        <source>measuring error</source>
        <translation>misst Fehler</translation>
    </message>
    <message>
        <source>partitioning</source>
        <translation>partitioniert</translation>
    </message>
    <message>
        <source>Compiling: %1…</source>
        <translation>Kompiliert: %1…</translation>
    </message>
    <message>
        <source>Compiled (prediction): %1 op(s) on the Neural Engine, %2 on the GPU, %3 on the CPU</source>
        <translation>Kompiliert (Vorhersage): %1 Op(s) auf der Neural Engine, %2 auf der GPU, %3 auf der CPU</translation>
    </message>
    <message>
        <source>Compiled: %1 op(s) on the TPU, %2 on the CPU</source>
        <translation>Kompiliert: %1 Op(s) auf der TPU, %2 auf der CPU</translation>
    </message>
    <message>
        <source>Compile failed: %1</source>
        <translation>Kompilieren fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Compile failed</source>
        <translation>Kompilieren fehlgeschlagen</translation>
    </message>
    <message>
        <source>Compile cancelled</source>
        <translation>Kompilieren abgebrochen</translation>
    </message>
    <message>
        <source>Compiling…</source>
        <translation>Kompiliert…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Compiling for %1…</source>
        <translation>Kompiliert für %1…</translation>
    </message>
    <message>
        <source>CPU (unsupported)</source>
        <translation>CPU (nicht unterstützt)</translation>
    </message>
    <message>
        <source>CPU (after the first unsupported op)</source>
        <translation>CPU (nach der ersten nicht unterstützten Op)</translation>
    </message>
    <message>
        <source>Placement (%1)</source>
        <translation>Platzierung (%1)</translation>
    </message>
    <message>
        <source>Read from the compiled file: the split its compiler made</source>
        <translation>Aus der kompilierten Datei gelesen: die Aufteilung ihres Compilers</translation>
    </message>
</context>
<context>
    <name>ec::workbench::DevicesBenchController</name>
    <message>
        <source>Devices</source>
        <translation>Geräte</translation>
    </message>
    <message>
        <source>Devices saved to %1</source>
        <translation>Geräte gespeichert in %1</translation>
    </message>
    <message>
        <source>Benchmark</source>
        <translation>Benchmark</translation>
    </message>
    <message>
        <source>Run History</source>
        <translation>Laufverlauf</translation>
    </message>
    <message>
        <source>ms per op (benchmark), bright = slower</source>
        <translation>ms je Op (Benchmark), hell = langsamer</translation>
    </message>
    <message>
        <source>not timed</source>
        <translation>nicht gemessen</translation>
    </message>
    <message>
        <source>Benchmark: mean %1 ms, p99 %2 ms</source>
        <translation>Benchmark: Mittelwert %1 ms, p99 %2 ms</translation>
    </message>
    <message>
        <source>Benchmark failed: %1</source>
        <translation>Benchmark fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Benchmark not started: no model is open or one is running</source>
        <translation>Benchmark nicht gestartet: kein Modell geöffnet oder es läuft bereits eines</translation>
    </message>
    <message>
        <source>&amp;Benchmark…</source>
        <translation>&amp;Benchmark…</translation>
    </message>
    <message>
        <source>Time the open model: latency statistics, histogram and time per op</source>
        <translation>Das geöffnete Modell messen: Latenzstatistik, Histogramm und Zeit je Op</translation>
    </message>
    <message>
        <source>Run &amp;History</source>
        <translation>Lauf&amp;verlauf</translation>
    </message>
    <message>
        <source>Every recorded compile and benchmark; compare two runs</source>
        <translation>Jede aufgezeichnete Kompilierung und jeder Benchmark; zwei Läufe vergleichen</translation>
    </message>
</context>
<context>
    <name>ec::workbench::ExportController</name>
    <message>
        <source>Export cancelled; nothing was written.</source>
        <translation>Export abgebrochen; es wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>Export HTML Report</source>
        <translation>HTML-Bericht exportieren</translation>
    </message>
    <message>
        <source>HTML report (*.html)</source>
        <translation>HTML-Bericht (*.html)</translation>
    </message>
    <message>
        <source>ONNX model (*.onnx)</source>
        <translation>ONNX-Modell (*.onnx)</translation>
    </message>
    <message>
        <source>TensorFlow Lite model (*.tflite)</source>
        <translation>TensorFlow-Lite-Modell (*.tflite)</translation>
    </message>
    <message>
        <source>IR text form (*.eir)</source>
        <translation>IR-Textform (*.eir)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Exportieren</translation>
    </message>
    <message>
        <source>Graph as &amp;SVG</source>
        <translation>Graph als &amp;SVG</translation>
    </message>
    <message>
        <source>Graph as &amp;PNG</source>
        <translation>Graph als &amp;PNG</translation>
    </message>
    <message>
        <source>&amp;Whole Graph…</source>
        <translation>&amp;Ganzer Graph…</translation>
    </message>
    <message>
        <source>Every op as laid out now (expanded groups, overlay and legend as shown)</source>
        <translation>Alle Operationen im aktuellen Layout (aufgeklappte Gruppen, Einfärbung und Legende wie angezeigt)</translation>
    </message>
    <message>
        <source>&amp;Visible Area…</source>
        <translation>&amp;Sichtbarer Bereich…</translation>
    </message>
    <message>
        <source>What the graph view shows now</source>
        <translation>Was die Graphansicht gerade zeigt</translation>
    </message>
    <message>
        <source>&amp;HTML Report…</source>
        <translation>&amp;HTML-Bericht…</translation>
    </message>
    <message>
        <source>One self-contained HTML file: the graph, and the compile, quantisation and benchmark results</source>
        <translation>Eine eigenständige HTML-Datei: der Graph sowie die Kompilierungs-, Quantisierungs- und Benchmark-Ergebnisse</translation>
    </message>
    <message>
        <source>Model as &amp;ONNX…</source>
        <translation>Modell als &amp;ONNX…</translation>
    </message>
    <message>
        <source>Model as &amp;TFLite…</source>
        <translation>Modell als &amp;TFLite…</translation>
    </message>
    <message>
        <source>Model as &amp;EIR…</source>
        <translation>Modell als &amp;EIR…</translation>
    </message>
    <message>
        <source>The graph shown (optimised, quantised or compiled) as a model file</source>
        <translation>Der angezeigte Graph (optimiert, quantisiert oder kompiliert) als Modelldatei</translation>
    </message>
    <message>
        <source>Current &amp;Table as CSV…</source>
        <translation>Aktuelle &amp;Tabelle als CSV…</translation>
    </message>
    <message>
        <source>The rows of the table last focused, as the panel shows them</source>
        <translation>Die Zeilen der zuletzt fokussierten Tabelle, wie das Panel sie zeigt</translation>
    </message>
    <message>
        <source>Export as CSV…</source>
        <translation>Als CSV exportieren…</translation>
    </message>
    <message>
        <source>the folder %1 does not exist</source>
        <translation>der Ordner %1 existiert nicht</translation>
    </message>
    <message>
        <source>the folder %1 cannot be written</source>
        <translation>in den Ordner %1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>Export fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Could not export %1: %2</source>
        <translation>%1 konnte nicht exportiert werden: %2</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1 exportiert</translation>
    </message>
    <message>
        <source>Exported %1 (%2)</source>
        <translation>%1 exportiert (%2)</translation>
    </message>
    <message>
        <source>another export is still running</source>
        <translation>ein anderer Export läuft noch</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Export</translation>
    </message>
    <message>
        <source>Writing %1…</source>
        <translation>%1 wird geschrieben…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Export Whole Graph as PNG</source>
        <translation>Ganzen Graph als PNG exportieren</translation>
    </message>
    <message>
        <source>Export Visible Area as PNG</source>
        <translation>Sichtbaren Bereich als PNG exportieren</translation>
    </message>
    <message>
        <source>Export Whole Graph as SVG</source>
        <translation>Ganzen Graph als SVG exportieren</translation>
    </message>
    <message>
        <source>Export Visible Area as SVG</source>
        <translation>Sichtbaren Bereich als SVG exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG-Bild (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG-Bild (*.svg)</translation>
    </message>
    <message>
        <source>name the picture *.svg or *.png</source>
        <translation>das Bild muss *.svg oder *.png heißen</translation>
    </message>
    <message>
        <source>no graph is shown</source>
        <translation>es wird kein Graph angezeigt</translation>
    </message>
    <message>
        <source>the image could not be written</source>
        <translation>das Bild konnte nicht geschrieben werden</translation>
    </message>
    <message>
        <source>%1 × %2 px</source>
        <translation>%1 × %2 px</translation>
    </message>
    <message numerus="yes">
        <source>Laying out and drawing %n op(s)</source>
        <translation>
            <numerusform>%n Operation wird angeordnet und gezeichnet</numerusform>
            <numerusform>%n Operationen werden angeordnet und gezeichnet</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op box(es)</source>
        <translation>
            <numerusform>%n Operationsknoten</numerusform>
            <numerusform>%n Operationsknoten</numerusform>
        </translation>
    </message>
    <message>
        <source>no model is open</source>
        <translation>es ist kein Modell geöffnet</translation>
    </message>
    <message>
        <source>name the report *.html</source>
        <translation>der Bericht muss *.html heißen</translation>
    </message>
    <message numerus="yes">
        <source>Laying out %n op(s) for the report</source>
        <translation>
            <numerusform>%n Operation wird für den Bericht angeordnet</numerusform>
            <numerusform>%n Operationen werden für den Bericht angeordnet</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n op(s)</source>
        <translation>
            <numerusform>%n Operation</numerusform>
            <numerusform>%n Operationen</numerusform>
        </translation>
    </message>
    <message>
        <source>Export Model</source>
        <translation>Modell exportieren</translation>
    </message>
    <message>
        <source>name the model *.onnx, *.tflite or *.eir</source>
        <translation>das Modell muss *.onnx, *.tflite oder *.eir heißen</translation>
    </message>
    <message numerus="yes">
        <source>Writing %n op(s)</source>
        <translation>
            <numerusform>%n Operation wird geschrieben</numerusform>
            <numerusform>%n Operationen werden geschrieben</numerusform>
        </translation>
    </message>
    <message>
        <source>no table has the focus; click into a table first</source>
        <translation>keine Tabelle hat den Fokus; zuerst in eine Tabelle klicken</translation>
    </message>
    <message>
        <source>Export Table as CSV</source>
        <translation>Tabelle als CSV exportieren</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV-Tabelle (*.csv)</translation>
    </message>
    <message>
        <source>no table to export</source>
        <translation>keine Tabelle zum Exportieren</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n Zeile</numerusform>
            <numerusform>%n Zeilen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ec::workbench::JobRunner</name>
    <message>
        <source>unknown error</source>
        <translation>unbekannter Fehler</translation>
    </message>
</context>
<context>
    <name>ec::workbench::MainWindow</name>
    <message>
        <source>edgecompiler Workbench</source>
        <translation>edgecompiler Workbench</translation>
    </message>
    <message>
        <source>Open a model with File › Open… (Ctrl+O) or drop a model file here.
Supported: %1</source>
        <translation>Öffnen Sie ein Modell mit Datei › Öffnen… (Strg+O) oder ziehen Sie eine Modelldatei hierher.
Unterstützt: %1</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open a model file</source>
        <translation>Eine Modelldatei öffnen</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About edgecompiler Workbench</source>
        <translation>Ü&amp;ber edgecompiler Workbench</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop waiting for this model. The file is still read to the end in the background.</source>
        <translation>Nicht länger auf dieses Modell warten. Die Datei wird im Hintergrund trotzdem zu Ende gelesen.</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>Open Model</source>
        <translation>Modell öffnen</translation>
    </message>
    <message>
        <source>Cancelled opening %1</source>
        <translation>Öffnen von %1 abgebrochen</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet…</translation>
    </message>
    <message>
        <source>%1 — edgecompiler Workbench</source>
        <translation>%1 — edgecompiler Workbench</translation>
    </message>
    <message numerus="yes">
        <source>Opened %1: %n operation(s)</source>
        <translation>
            <numerusform>%1 geöffnet: %n Operation</numerusform>
            <numerusform>%1 geöffnet: %n Operationen</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation>%1 konnte nicht geöffnet werden</translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation>Liste &amp;leeren</translation>
    </message>
    <message>
        <source>About edgecompiler Workbench</source>
        <translation>Über edgecompiler Workbench</translation>
    </message>
    <message>
        <source>&lt;h3&gt;edgecompiler Workbench %1&lt;/h3&gt;&lt;p&gt;A model-compilation workbench for edge AI: open a model, inspect it, and (in later versions) optimise, quantise and compile it for an accelerator.&lt;/p&gt;&lt;p&gt;Model formats: %2&lt;br&gt;Built with Qt %3.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;edgecompiler Workbench %1&lt;/h3&gt;&lt;p&gt;Eine Werkbank zum Kompilieren von Modellen für Edge-KI: Modell öffnen, untersuchen und (in späteren Versionen) für einen Beschleuniger optimieren, quantisieren und kompilieren.&lt;/p&gt;&lt;p&gt;Modellformate: %2&lt;br&gt;Erstellt mit Qt %3.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Properties</source>
        <translation>Eigenschaften</translation>
    </message>
    <message>
        <source>Operations</source>
        <translation>Operationen</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>&amp;Suchen…</translation>
    </message>
    <message>
        <source>Find ops and tensors by name or type</source>
        <translation>Operationen und Tensoren nach Name oder Typ suchen</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>&amp;Weitersuchen</translation>
    </message>
    <message>
        <source>Find &amp;Previous</source>
        <translation>&amp;Rückwärts suchen</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>&amp;Vergrößern</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <source>&amp;Fit to Window</source>
        <translation>An &amp;Fenster anpassen</translation>
    </message>
    <message>
        <source>&amp;Expand All Groups</source>
        <translation>Alle Gruppen &amp;aufklappen</translation>
    </message>
    <message>
        <source>&amp;Collapse All Groups</source>
        <translation>Alle Gruppen &amp;zuklappen</translation>
    </message>
    <message>
        <source>No translation for %1 is available.</source>
        <translation>Für %1 gibt es keine Übersetzung.</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>&amp;Modell</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>&amp;Werkzeuge</translation>
    </message>
    <message>
        <source>Open &amp;Folder…</source>
        <translation>&amp;Ordner öffnen…</translation>
    </message>
    <message>
        <source>Open a model that is a folder: a Core ML .mlpackage or a TensorFlow SavedModel</source>
        <translation>Ein Modell öffnen, das ein Ordner ist: ein Core-ML-.mlpackage oder ein TensorFlow-SavedModel</translation>
    </message>
    <message>
        <source>Models (%1);;All files (*)</source>
        <translation>Modelle (%1);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open Model Folder</source>
        <translation>Modellordner öffnen</translation>
    </message>
    <message>
        <source>Input Shapes</source>
        <translation>Eingabeformen</translation>
    </message>
    <message>
        <source>%1 does not record the shapes of its inputs.
%2

Enter them as NAME=1,3,224,224 (several separated by spaces):</source>
        <translation>%1 enthält die Formen seiner Eingaben nicht.
%2

Geben Sie sie als NAME=1,3,224,224 ein (mehrere durch Leerzeichen getrennt):</translation>
    </message>
    <message>
        <source>Layout reset</source>
        <translation>Anordnung zurückgesetzt</translation>
    </message>
    <message>
        <source>Open a Model…</source>
        <translation>Ein Modell öffnen…</translation>
    </message>
    <message>
        <source>Open the Sample Model</source>
        <translation>Das Beispielmodell öffnen</translation>
    </message>
    <message>
        <source>Recent Models</source>
        <translation>Zuletzt geöffnete Modelle</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>Anordnung &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>Put every panel back where it was on first start</source>
        <translation>Jedes Feld an seinen Platz beim ersten Start zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>optimised</source>
        <translation>optimiert</translation>
    </message>
    <message>
        <source>quantised</source>
        <translation>quantisiert</translation>
    </message>
    <message>
        <source>compiled for %1</source>
        <translation>kompiliert für %1</translation>
    </message>
    <message>
        <source>%1 (%2) — edgecompiler Workbench</source>
        <translation>%1 (%2) — edgecompiler Workbench</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Kürzel</translation>
    </message>
    <message>
        <source>Graph: zoom in / out</source>
        <translation>Graph: vergrößern / verkleinern</translation>
    </message>
    <message>
        <source>+ / −, wheel, pinch</source>
        <translation>+ / −, Mausrad, Zwei-Finger-Zoom</translation>
    </message>
    <message>
        <source>Graph: fit to window</source>
        <translation>Graph: an Fenster anpassen</translation>
    </message>
    <message>
        <source>0, double-click on the background</source>
        <translation>0, Doppelklick auf den Hintergrund</translation>
    </message>
    <message>
        <source>Graph: clear the selection</source>
        <translation>Graph: Auswahl aufheben</translation>
    </message>
    <message>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Graph: pan</source>
        <translation>Graph: verschieben</translation>
    </message>
    <message>
        <source>drag, Shift+wheel</source>
        <translation>Ziehen, Umschalt+Mausrad</translation>
    </message>
</context>
<context>
    <name>ec::workbench::PassesController</name>
    <message>
        <source>Passes</source>
        <translation>Passes</translation>
    </message>
    <message>
        <source>&amp;Optimize (Default Pipeline)</source>
        <translation>&amp;Optimieren (Standard-Pipeline)</translation>
    </message>
    <message>
        <source>Run the default optimisation passes and show what each one changed</source>
        <translation>Die Standard-Optimierungspasses ausführen und zeigen, was jeder änderte</translation>
    </message>
    <message>
        <source>Optimizing…</source>
        <translation>Optimiert…</translation>
    </message>
    <message>
        <source>Optimized: %1 → %2 operations in %3 ms</source>
        <translation>Optimiert: %1 → %2 Operationen in %3 ms</translation>
    </message>
    <message>
        <source>Optimization failed</source>
        <translation>Optimierung fehlgeschlagen</translation>
    </message>
</context>
<context>
    <name>ec::workbench::QuantController</name>
    <message>
        <source>Quantisation</source>
        <translation>Quantisierung</translation>
    </message>
    <message>
        <source>&amp;Quantise…</source>
        <translation>&amp;Quantisieren…</translation>
    </message>
    <message>
        <source>Quantise the model to int8 and show where it loses accuracy</source>
        <translation>Das Modell nach int8 quantisieren und zeigen, wo es an Genauigkeit verliert</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>&amp;Werkzeuge</translation>
    </message>
    <message>
        <source>Calibrated on %1</source>
        <translation>Kalibriert auf %1</translation>
    </message>
    <message numerus="yes">
        <source>Quantised: %n layer(s) in int8</source>
        <translation>
            <numerusform>Quantisiert: %n Schicht in int8</numerusform>
            <numerusform>Quantisiert: %n Schichten in int8</numerusform>
        </translation>
    </message>
    <message>
        <source>Quantisation failed: %1</source>
        <translation>Quantisierung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Quantisation failed</source>
        <translation>Quantisierung fehlgeschlagen</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Quantisation cancelled</source>
        <translation>Quantisierung abgebrochen</translation>
    </message>
    <message>
        <source>Quantising…</source>
        <translation>Quantisiert…</translation>
    </message>
    <message>
        <source>output SQNR (dB), dark = worse</source>
        <translation>Ausgabe-SQNR (dB), dunkel = schlechter</translation>
    </message>
    <message>
        <source>float (not quantised)</source>
        <translation>float (nicht quantisiert)</translation>
    </message>
</context>
<context>
    <name>ec::workbench::QuantRunner</name>
    <message>
        <source>“%1” %2 uniform in [%3, %4)</source>
        <translation>„%1“ %2 gleichverteilt in [%3, %4)</translation>
    </message>
    <message>
        <source>“%1” %2 token ids uniform in [0, %3), the rows of the table “%4” it indexes</source>
        <translation>„%1“ %2 Token-IDs gleichverteilt in [0, %3), die Zeilen der Tabelle „%4“, die sie indiziert</translation>
    </message>
    <message>
        <source>“%1” %2 integers 0 or 1 (no table it indexes was found)</source>
        <translation>„%1“ %2 ganze Zahlen 0 oder 1 (keine Tabelle gefunden, die sie indiziert)</translation>
    </message>
    <message numerus="yes">
        <source>%n random sample(s) (seed %1): %2</source>
        <translation>
            <numerusform>%n Zufallsstichprobe (Seed %1): %2</numerusform>
            <numerusform>%n Zufallsstichproben (Seed %1): %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n sample(s))</source>
        <translation>
            <numerusform>%1 (%n Stichprobe)</numerusform>
            <numerusform>%1 (%n Stichproben)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Model-compilation workbench for edge AI.</source>
        <translation>Werkbank zum Kompilieren von Modellen für Edge-KI.</translation>
    </message>
    <message>
        <source>Model file to open.</source>
        <translation>Zu öffnende Modelldatei.</translation>
    </message>
    <message>
        <source>Open MODEL, save an image of the window to &lt;file&gt; and exit.</source>
        <translation>MODELL öffnen, ein Bild des Fensters in &lt;file&gt; speichern und beenden.</translation>
    </message>
    <message>
        <source>Only one model file can be opened.</source>
        <translation>Es kann nur eine Modelldatei geöffnet werden.</translation>
    </message>
    <message>
        <source>Cannot write the screenshot to %1</source>
        <translation>Das Bildschirmfoto kann nicht nach %1 geschrieben werden</translation>
    </message>
    <message>
        <source>Timed out waiting for the model to load.</source>
        <translation>Zeitüberschreitung beim Laden des Modells.</translation>
    </message>
    <message>
        <source>Run the default optimisation passes once MODEL is open.</source>
        <translation>Die Standard-Optimierungspasses ausführen, sobald MODEL geöffnet ist.</translation>
    </message>
    <message>
        <source>Quantise MODEL to int8 once it is open (random calibration samples).</source>
        <translation>MODEL nach int8 quantisieren, sobald es geöffnet ist (zufällige Kalibrierstichproben).</translation>
    </message>
    <message>
        <source>edgecompiler-workbench: no display (DISPLAY and WAYLAND_DISPLAY are unset): run it under xvfb-run -a, set QT_QPA_PLATFORM=offscreen for --screenshot, or use the CLI (edgecompile inspect MODEL).</source>
        <translation>edgecompiler-workbench: keine Anzeige (DISPLAY und WAYLAND_DISPLAY sind nicht gesetzt): unter xvfb-run -a starten, für --screenshot QT_QPA_PLATFORM=offscreen setzen oder die CLI verwenden (edgecompile inspect MODEL).</translation>
    </message>
    <message>
        <source>An input&apos;s shape where the model does not record it (TorchScript): NAME=1,3,224,224; repeat per input.</source>
        <translation>Die Form einer Eingabe, wo das Modell sie nicht enthält (TorchScript): NAME=1,3,224,224; je Eingabe wiederholen.</translation>
    </message>
    <message>
        <source>Show the panel &lt;name&gt; (passes, quant, partition, timeline, benchmark, runHistory, devices) in front for the screenshot.</source>
        <translation>Das Feld &lt;name&gt; (passes, quant, partition, timeline, benchmark, runHistory, devices) für das Bildschirmfoto nach vorn holen.</translation>
    </message>
    <message>
        <source>With --screenshot: also write the layout&apos;s measurements to &lt;file&gt; (JSON).</source>
        <translation>Mit --screenshot: auch die Maße der Anordnung nach &lt;file&gt; schreiben (JSON).</translation>
    </message>
    <message>
        <source>With --screenshot: the window&apos;s size, WIDTHxHEIGHT (default 1280x800).</source>
        <translation>Mit --screenshot: die Fenstergröße, BREITExHÖHE (Standard 1280x800).</translation>
    </message>
    <message>
        <source>--window-size takes WIDTHxHEIGHT, e.g. 1920x1080.</source>
        <translation>--window-size nimmt BREITExHÖHE, z. B. 1920x1080.</translation>
    </message>
    <message>
        <source>Cannot write the report to %1</source>
        <translation>Der Bericht kann nicht nach %1 geschrieben werden</translation>
    </message>
    <message>
        <source>Time MODEL on the host CPU with &lt;n&gt; runs once it is open (after the other steps asked for) and show the Benchmark panel.</source>
        <translation>MODEL nach dem Öffnen (nach den übrigen verlangten Schritten) mit &lt;n&gt; Läufen auf der Host-CPU messen und das Benchmark-Panel zeigen.</translation>
    </message>
    <message>
        <source>--bench takes a number of runs, e.g. --bench 50.</source>
        <translation>--bench erwartet eine Anzahl Läufe, z. B. --bench 50.</translation>
    </message>
    <message>
        <source>Compile MODEL for &lt;target&gt; (%1) once it is open (after the passes of --optimize if given) and show the partition.</source>
        <translation>MODEL für &lt;target&gt; (%1) kompilieren, sobald es geöffnet ist (nach den Passes von --optimize, falls angegeben), und die Partition zeigen.</translation>
    </message>
</context>
</TS>
