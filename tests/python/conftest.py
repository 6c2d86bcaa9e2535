"""Shared fixtures of the Python API tests: the CLI they compare with, the sample
model, the exported torch models, and a CLI runner."""
import json
import os
import subprocess

import numpy as np
import pytest


def env(name):
    value = os.environ.get(name)
    if not value:
        pytest.skip(f"{name} is not set (run through ctest)")
    return value


@pytest.fixture(scope="session")
def cli():
    path = env("EC_CLI")

    def run(*args, check=True):
        r = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and r.returncode != 0:
            raise AssertionError(f"edgecompile {' '.join(map(str, args))}: exit {r.returncode}: {r.stderr}")
        return r

    run.path = path
    run.json = lambda *args: json.loads(run(*args).stdout)
    return run


@pytest.fixture(scope="session")
def sample_model():
    return env("EC_SAMPLE_MODEL")


@pytest.fixture(scope="session")
def models_dir():
    return env("EC_TEST_MODELS_DIR")


@pytest.fixture
def sample_input(sample_model):
    import edgecompiler as ec
    spec = ec.load(sample_model).inputs[0]
    shape = [d if isinstance(d, int) else 1 for d in spec.shape]
    return spec.name, np.random.default_rng(1).standard_normal(shape).astype(np.float32)
