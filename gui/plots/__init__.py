"""The training area's views: boundary, curves, network diagram, neuron maps, slices, landscape."""
