"""edgecompiler: compile trained models for edge accelerators, run and benchmark them.

    import edgecompiler as ec
    model = ec.load("model.onnx")
    result = ec.compile(model, target="coral", calibration_data=calib)   # numpy (N, ...)
    with ec.InferenceSession("model.onnx", threads=1) as s:
        outputs = s.run({"input": x})

The functions are the core library's flows, the same the `edgecompile` CLI and the
workbench run (app/python/README.md). Errors are ec.Error subclasses whose message
is the line the CLI prints.
"""
from ._core import (  # noqa: F401
    BackendError,
    BackendUnavailableError,
    CompileResult,
    Error,
    FrontendError,
    GraphError,
    InferenceSession,
    InputError,
    IoError,
    Model,
    QuantizationError,
    Stats,
    TensorSpec,
    UnsupportedError,
    UsageError,
    compare,
    compile,
    devices,
    load,
    optimize,
    quantize,
)
from . import runs  # noqa: F401

__version__ = "0.1.0"

__all__ = [
    "BackendError", "BackendUnavailableError", "CompileResult", "Error", "FrontendError", "GraphError",
    "InferenceSession", "InputError", "IoError", "Model", "QuantizationError", "Stats", "TensorSpec",
    "UnsupportedError", "UsageError", "compare", "compile", "devices", "load", "optimize", "quantize", "runs",
]
