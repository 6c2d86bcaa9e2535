<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ec::widgets::GraphView</name>
    <message>
        <source>Drag to pan, wheel or +/− to zoom, 0 to fit. Click a block to expand it, its header to collapse it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ops</source>
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
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
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
    <name>ec::widgets::SummaryPanel</name>
    <message>
        <source>No model loaded.</source>
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
        <source>The language changes when the workbench is restarted.</source>
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
        <source>Models (*.onnx *.tflite *.pt *.pth *.keras *.h5);;All files (*)</source>
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
</context>
<context>
    <name>ec::workbench::ModelLoader</name>
    <message>
        <source>%1: unknown error while opening the model</source>
        <translation type="unfinished"></translation>
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
</context>
</TS>
