"""``examples/article.ipynb`` runs in a real Jupyter kernel (nbclient + ipykernel, this venv's Python): the article's
ops written by hand, its network and its run reproduce the reference loss, every graph cell shows an SVG picture,
and executing it never changes the file (it is executed in memory, never written back)."""

from __future__ import annotations

import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell

from autograd_core.learn.presets import named_preset_config
from autograd_core.learn.training import Trainer

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "examples" / "article.ipynb"
KERNEL = "autograd-playground-tests"  # a kernelspec of our own, written for the run: this venv's Python, no other
PROBE = "import sys\nprint(repr(losses[0]), repr(losses[-1]), sys.executable)"
# The kernel runs the article's 100 epochs in plain Python and the test the library's: slow.  One worker runs the
# module (CI's slow run is ``--dist loadgroup``), so the notebook is executed once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("notebook")]


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """(the notebook as executed in memory, with a last probe cell; the file's bytes before; after)."""
    before = NOTEBOOK.read_bytes()
    notebook = nbformat.reads(before.decode("utf-8"), as_version=4)
    notebook.cells.append(new_code_cell(PROBE))
    home = tmp_path_factory.mktemp("jupyter")
    spec = home / "data" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": KERNEL, "language": "python"}))
    isolated = {  # no user's kernels, profile or startup files: the kernel is the one above, run as CI runs it
        "JUPYTER_PATH": str(home / "data"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "IPYTHONDIR": str(home / "ipython"),
        "MPLBACKEND": "Agg",
    }
    saved = {name: os.environ.get(name) for name in isolated}
    os.environ.update(isolated)
    try:
        client = NotebookClient(
            notebook, kernel_name=KERNEL, timeout=900, resources={"metadata": {"path": str(NOTEBOOK.parent)}}
        )
        client.execute()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return notebook, before, NOTEBOOK.read_bytes()


def _text(cell) -> str:
    return "".join(out.get("text", "") for out in cell.outputs if out.output_type == "stream")


def test_the_articles_run_reproduces_the_reference_loss_in_this_venvs_kernel(executed):
    notebook, _, _ = executed
    first, last, executable = _text(notebook.cells[-1]).split()
    assert executable == sys.executable  # the kernel was this venv's Python
    trainer = Trainer(named_preset_config("article"))
    trainer.run()
    # the library's run of the article: the loss the 100th epoch's forward pass computed (before its update)
    assert float(last) == pytest.approx(trainer.history[98].train_loss, abs=1e-6)
    assert round(float(first), 3) == 0.700 and f"{float(last):.6f}" == "0.606000"
    (summary,) = [_text(cell) for cell in notebook.cells if cell.source.startswith('print(f"loss of the first')]
    assert summary.strip() == "loss of the first epoch 0.700, of the 100th 0.606000"


def test_every_graph_cell_shows_an_svg_picture(executed):
    notebook, _, _ = executed
    graphs = [cell for cell in notebook.cells if "graph" in cell.metadata.get("tags", [])]
    assert len(graphs) == 4
    pictures = []
    for cell in graphs:
        results = [out for out in cell.outputs if out.output_type == "execute_result"]
        assert len(results) == 1 and "image/svg+xml" in results[0].data, cell.source
        pictures.append(results[0].data["image/svg+xml"])
        ET.fromstring(pictures[-1])  # well-formed
    hand_made, _, neuron, whole_loss = pictures
    assert re.search(r">L( = \*)?</text>", hand_made) and "grad 6" in hand_made and "grad −4" in hand_made
    assert re.search(r">o( = sigmoid)?</text>", neuron) and "data 0.1192" in neuron  # σ(2·(−3) + 0·1 + 4)
    assert 'fill="#1e1f24"' in neuron  # in the dark theme, on its own background
    assert "too many to draw one by one" in whole_loss and len(whole_loss.encode()) < 300_000


def test_executing_the_notebook_leaves_the_file_unchanged(executed):
    _, before, after = executed
    assert after == before
    on_disk = nbformat.reads(after.decode("utf-8"), as_version=4)
    nbformat.validate(on_disk)
    code = [cell for cell in on_disk.cells if cell.cell_type == "code"]
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code)  # committed without outputs
