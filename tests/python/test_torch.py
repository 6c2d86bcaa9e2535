"""InferenceSession.run against PyTorch on the same weights (torch.manual_seed(0),
torchvision weights=None, exported with torch.onnx.export by tests/models/export_models.py):
within 1e-4 x max|output| on mobilenet_v2 and on the LSTM text model."""
import os
import sys

import numpy as np
import pytest

import edgecompiler as ec

sys.path.insert(0, os.path.join(os.environ.get("EC_SOURCE_DIR", ""), "tests", "models"))


@pytest.mark.parametrize("name", ["mobilenet_v2", "lstm_text"])
def test_equals_pytorch(models_dir, name):
    torch = pytest.importorskip("torch")
    from export_models import build_model
    model, x = build_model(name)
    with torch.no_grad():
        want = model(x).numpy()
    path = os.path.join(models_dir, f"{name}.onnx")
    with ec.InferenceSession(path) as s:
        assert s.inputs[0].dtype == x.numpy().dtype  # int64 token ids stay int64
        got = s.run({"input": x.numpy()})["output"]
    assert got.dtype == np.float32 and got.shape == want.shape
    err = float(np.max(np.abs(got - want)))
    bound = 1e-4 * float(np.max(np.abs(want)))
    print(f"{name}: max |ec - torch| = {err:.3g}, bound {bound:.3g}")
    assert err <= bound, f"{name}: {err} > {bound}"


def test_torchscript_with_input_shapes(tmp_path):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.LazyLinear(5))
    x = torch.randn(1, 3, 8, 8)
    net(x)
    net.eval()
    path = tmp_path / "net.pt"
    torch.jit.script(net).save(str(path))
    with pytest.raises(ec.Error):
        ec.load(str(path))  # a scripted module records no input shape
    m = ec.load(str(path), input_shapes={"": [1, 3, 8, 8]})
    assert m.format == "torchscript" and m.inputs[0].shape == (1, 3, 8, 8)
    with torch.no_grad():
        want = net(x).numpy()
    got = ec.InferenceSession(m, threads=1).run({m.inputs[0].name: x.numpy()})
    got = next(iter(got.values()))
    assert np.max(np.abs(got - want)) <= 1e-4 * np.max(np.abs(want))
