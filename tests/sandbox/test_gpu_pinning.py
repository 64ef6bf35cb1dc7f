"""A worker pinned to one GPU: its run child gets that GPU's UUID and, in bubblewrap, only that GPU's node."""
from __future__ import annotations

import sys

from sandbox import bubblewrap
from sandbox.gpus import Gpu, _minor, gpu_model_key
from sandbox.runner import run_child

GPU = Gpu(index=1, uuid="GPU-0b1c2d3e-aaaa-bbbb-cccc-0123456789ab", name="NVIDIA H100 80GB HBM3", minor=5)


def test_gpu_model_keys_route_the_same_model_to_the_same_queue():
    assert gpu_model_key("NVIDIA H100 80GB HBM3") == gpu_model_key("h100-80gb-hbm3") == "h100-80gb-hbm3"
    assert gpu_model_key("NVIDIA GeForce RTX 4090") == "geforce-rtx-4090"
    assert GPU.model == "h100-80gb-hbm3" and GPU.device_node == "/dev/nvidia5"


def test_the_device_minor_comes_from_the_drivers_pci_entry(tmp_path, monkeypatch):
    entry = tmp_path / "0000:18:00.0"
    entry.mkdir()
    (entry / "information").write_text("Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:   \t\t 123\nDevice Minor: \t 3\n")
    monkeypatch.setattr("sandbox.gpus.DRIVER_GPUS", tmp_path)
    assert _minor("00000000:18:00.0") == 3           # nvidia-smi's bus id has 8 digits of domain
    assert _minor("00000000:19:00.0") is None


def test_run_child_of_a_pinned_worker_sees_only_its_gpu(tmp_path, monkeypatch):
    node = tmp_path / "gpu-node"                     # stands in for /dev/nvidia5 (binds need an existing path)
    node.touch()
    pinned = Gpu(GPU.index, GPU.uuid, GPU.name, None)
    monkeypatch.setattr(Gpu, "device_node", property(lambda self: str(node)))
    monkeypatch.setattr(bubblewrap, "available", lambda: True)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1")
    child = run_child("judge.runner", gpu=True, build_dir=tmp_path, hidden=[],
                      device=pinned)
    assert child.env["CUDA_VISIBLE_DEVICES"] == GPU.uuid and child.env["CUDA_DEVICE_ORDER"] == "PCI_BUS_ID"
    command = child.command
    binds = [command[i + 1] for i, arg in enumerate(command) if arg == "--dev-bind"]
    assert [b for b in binds if b not in bubblewrap.GPU_NODES] == [str(node)]      # no other GPU's node
    assert command[command.index("CUDA_VISIBLE_DEVICES") + 1] == GPU.uuid     # bubblewrap's --setenv

    unpinned = run_child("judge.runner", gpu=True, build_dir=tmp_path, hidden=[])
    assert unpinned.env["CUDA_VISIBLE_DEVICES"] == "0,1"                        # as before: the environment's choice
    assert sys.executable in unpinned.command


def test_gpu_presence_is_read_from_the_drivers_list_without_starting_a_process(tmp_path, monkeypatch):
    import judge.backends.choice as choice

    monkeypatch.setattr(choice, "find_spec", lambda name: object())     # as if CuPy were installed
    monkeypatch.setattr(choice, "DRIVER_GPUS", tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "no-tools"))                # and no nvidia-smi to fall back on
    choice.gpu_available.cache_clear()
    try:
        assert not choice.gpu_available()                             # the driver lists no GPU
        (tmp_path / "0000:18:00.0").mkdir()
        choice.gpu_available.cache_clear()
        assert choice.gpu_available()
    finally:
        choice.gpu_available.cache_clear()
