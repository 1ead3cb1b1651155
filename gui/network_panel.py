"""The network builder: hidden layers, neurons per layer, activation, initialisation, seed.

Every change goes to the controller as new settings (a new network means new
weights from the seed); the panel redraws itself from ``configChanged`` so an
opened session shows its own network.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from autograd_core.nn import ACTIVATION_HELP, ACTIVATIONS, INITIALISATIONS
from gui.training_controller import TrainingController, parameter_count

MAX_HIDDEN_LAYERS = 6  # the library allows 8; six already trains slowly on a scalar engine
MAX_NEURONS = 32
INIT_HELP = {
    "uniform": "weights drawn from U(−1, 1), as micrograd",
    "he": "He: normal with variance 2/fan-in, suited to ReLU",
    "xavier": "Xavier/Glorot: uniform scaled by fan-in and fan-out, suited to tanh/sigmoid",
}


class NetworkPanel(QGroupBox):
    """Builder controls; the parameter count updates as you type."""

    def __init__(self, controller: TrainingController, parent=None):
        super().__init__("Network", parent)
        self.controller = controller
        self._updating = False
        self.layer_spins: list[QSpinBox] = []
        self.remove_buttons: list[QToolButton] = []

        self.layers_box = QVBoxLayout()
        self.layers_box.setSpacing(2)
        self.add_button = QPushButton("+ Add hidden layer")
        self.add_button.setToolTip(
            f"Add a hidden layer (at most {MAX_HIDDEN_LAYERS}); it starts as wide as the last one"
        )
        self.add_button.clicked.connect(self.add_layer)

        self.activation = QComboBox()
        for name in ACTIVATIONS:
            self.activation.addItem(name, name)
            self.activation.setItemData(self.activation.count() - 1, ACTIVATION_HELP[name], Qt.ItemDataRole.ToolTipRole)
        self.activation.setToolTip("Activation of the hidden neurons (the output is a linear score)")
        self.init = QComboBox()
        for name in INITIALISATIONS:
            self.init.addItem(name, name)
            self.init.setItemData(self.init.count() - 1, INIT_HELP[name], Qt.ItemDataRole.ToolTipRole)
        self.init.setToolTip("How the initial weights are drawn (biases start at 0)")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setKeyboardTracking(False)
        self.seed.setToolTip("Seed of the initial weights: the same seed gives the same starting network")
        self.param_count = QLabel()
        self.param_count.setToolTip("Number of weights and biases the optimiser adjusts")

        form = QFormLayout()
        form.addRow("Activation", self.activation)
        form.addRow("Initialisation", self.init)
        form.addRow("Weight seed", self.seed)
        layout = QVBoxLayout(self)
        layout.addLayout(self.layers_box)
        layout.addWidget(self.add_button)
        layout.addLayout(form)
        layout.addWidget(self.param_count)

        self.activation.currentIndexChanged.connect(self._send)
        self.init.currentIndexChanged.connect(self._send)
        self.seed.valueChanged.connect(self._send)
        controller.configChanged.connect(self.show_config)
        self.show_config(controller.config)

    # ----------------------------------------------------------- widgets ↔ config

    def layers(self) -> list[int]:
        return [spin.value() for spin in self.layer_spins]

    def show_config(self, config) -> None:
        """Show ``config``'s network without sending it back."""
        self._updating = True
        try:
            self._rebuild_rows(list(config.layers))
            self.activation.setCurrentIndex(max(0, self.activation.findData(config.activation)))
            self.init.setCurrentIndex(max(0, self.init.findData(config.init)))
            self.seed.setValue(int(config.seed))
        finally:
            self._updating = False
        self._show_count()

    def _rebuild_rows(self, layers: list[int]) -> None:
        while self.layers_box.count():
            row = self.layers_box.takeAt(0)
            if row.widget() is not None:
                row.widget().deleteLater()
        self.layer_spins, self.remove_buttons = [], []
        for i, width in enumerate(layers):
            row = QWidget()
            h = QHBoxLayout(row)
            h.setContentsMargins(0, 0, 0, 0)
            label = QLabel(f"Hidden layer {i + 1}")
            spin = QSpinBox()
            spin.setRange(1, MAX_NEURONS)
            spin.setValue(int(width))
            spin.setSuffix(" neurons")
            spin.setKeyboardTracking(False)
            spin.setToolTip(f"Neurons in hidden layer {i + 1} (1–{MAX_NEURONS})")
            spin.valueChanged.connect(self._send)
            remove = QToolButton()
            remove.setText("−")
            remove.setToolTip(f"Remove hidden layer {i + 1}")
            remove.clicked.connect(lambda _=False, index=i: self.remove_layer(index))
            h.addWidget(label)
            h.addWidget(spin, 1)
            h.addWidget(remove)
            self.layers_box.addWidget(row)
            self.layer_spins.append(spin)
            self.remove_buttons.append(remove)
        if not layers:
            note = QLabel("No hidden layer: a linear model (logistic regression).")
            note.setObjectName("hintLabel")
            note.setWordWrap(True)
            self.layers_box.addWidget(note)
        self.add_button.setEnabled(len(layers) < MAX_HIDDEN_LAYERS)

    def add_layer(self) -> None:
        layers = self.layers()
        if len(layers) >= MAX_HIDDEN_LAYERS:
            return
        layers.append(layers[-1] if layers else 4)
        self._updating = True
        self._rebuild_rows(layers)
        self._updating = False
        self._send()

    def remove_layer(self, index: int) -> None:
        layers = self.layers()
        if 0 <= index < len(layers):
            del layers[index]
            self._updating = True
            self._rebuild_rows(layers)
            self._updating = False
            self._send()

    def _show_count(self) -> None:
        n = parameter_count(self.layers())
        sizes = " → ".join(str(s) for s in [2, *self.layers(), 1])
        self.param_count.setText(f"<b>{n}</b> parameters &nbsp; ({sizes})")

    def _send(self) -> None:
        self._show_count()
        if self._updating:
            return
        self.controller.update_settings(
            layers=self.layers(),
            activation=self.activation.currentData(),
            init=self.init.currentData(),
            seed=self.seed.value(),
        )
