"""The Optimizer lab area: its state and its widgets."""
