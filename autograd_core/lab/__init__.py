"""The optimizer lab's numerics: surfaces f(x, y), races of optimizers, loss landscapes."""
