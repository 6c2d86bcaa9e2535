<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>ec::widgets::GraphView</name>
    <message>
        <source>Drag to pan, wheel or +/− to zoom, 0 to fit. Click a block to expand it, its header to collapse it.</source>
        <translation>Ziehen zum Verschieben, Mausrad oder +/− zum Zoomen, 0 zum Einpassen. Einen Block anklicken, um ihn aufzuklappen, seinen Kopf, um ihn zuzuklappen.</translation>
    </message>
    <message>
        <source>%1 ops</source>
        <translation>%1 Operationen</translation>
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
    <name>ec::widgets::SummaryPanel</name>
    <message>
        <source>No model loaded.</source>
        <translation>Kein Modell geladen.</translation>
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
        <source>The language changes when the workbench is restarted.</source>
        <translation>Die Sprache wechselt beim nächsten Start der Workbench.</translation>
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
        <source>Models (*.onnx *.tflite *.pt *.pth *.keras *.h5);;All files (*)</source>
        <translation>Modelle (*.onnx *.tflite *.pt *.pth *.keras *.h5);;Alle Dateien (*)</translation>
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
</context>
<context>
    <name>ec::workbench::ModelLoader</name>
    <message>
        <source>%1: unknown error while opening the model</source>
        <translation>%1: unbekannter Fehler beim Öffnen des Modells</translation>
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
</context>
</TS>
