"""The engine: the Tensor, the op table, higher-order and forward-mode derivatives."""
