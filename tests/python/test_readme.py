"""The README's Python example (app/python/README.md, the first ```python block) runs as
written, from a folder laid out like the project after `cmake --build --preset ci`
(build/ci/resources/sample_cnn.onnx), with the built package on PYTHONPATH."""
import os
import re
import subprocess
import sys


def test_readme_example_runs(tmp_path):
    source = os.environ["EC_SOURCE_DIR"]
    text = open(os.path.join(source, "app", "python", "README.md")).read()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "no ```python block in app/python/README.md"
    resources = tmp_path / "build" / "ci" / "resources"
    resources.mkdir(parents=True)
    os.symlink(os.environ["EC_SAMPLE_MODEL"], resources / "sample_cnn.onnx")
    script = tmp_path / "example.py"
    script.write_text(blocks[0])
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, env=os.environ,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    print(r.stdout)
    assert "ops on the TPU" in r.stdout and (tmp_path / "sample_edgetpu.tflite").exists()


def test_readme_import_command():
    # the README's import line names the folder the build fills
    source = os.environ["EC_SOURCE_DIR"]
    text = open(os.path.join(source, "app", "python", "README.md")).read()
    assert "PYTHONPATH=build/ci/python /usr/bin/python3" in text
    import edgecompiler
    built = os.path.join(os.environ["EC_BINARY_DIR"], "python", "edgecompiler")
    assert os.path.samefile(os.path.dirname(edgecompiler.__file__), built)


def test_top_readme_python_lines(tmp_path):
    # the top README's Python command(s), run from a folder whose build/ci is this build
    source = os.environ["EC_SOURCE_DIR"]
    lines = [l.strip() for l in open(os.path.join(source, "README.md")).read().splitlines()
             if l.startswith("    PYTHONPATH=build/ci/python")]
    assert lines, "the top README has no Python command"
    (tmp_path / "build").mkdir()
    os.symlink(os.environ["EC_BINARY_DIR"], tmp_path / "build" / "ci")
    for line in lines:
        r = subprocess.run(["bash", "-euo", "pipefail", "-c", line], cwd=tmp_path, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, (line, r.stderr)
