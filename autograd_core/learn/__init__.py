"""Learning: networks, losses, optimizers, data, the Trainer, presets, regression and inspection."""
