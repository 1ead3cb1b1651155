"""One naming scheme, counted from 1, shared by the model's own labels and every view."""

from autograd_core.language.naming import connection_name, input_name, unit_name
from autograd_core.language.naming import parameter_name as name_of
from autograd_core.learn.inspection import parameter_index, parameter_name
from autograd_core.learn.nn import MLP


def test_names_count_from_one():
    assert [input_name(i) for i in range(2)] == ["x1", "x2"]
    assert unit_name(0, 1) == "x2" and unit_name(2, 0) == "L2.n1"
    assert name_of(1, 2, 1) == "L1.n3.w2" and name_of(2, 0, None) == "L2.n1.b"
    assert connection_name(1, 2, 1) == "x2 → L1.n3" and connection_name(2, 0, 3) == "L1.n4 → L2.n1"


def test_model_labels_agree_with_the_scheme():
    model = MLP(2, [4, 1], seed=0)
    for layer, unit, source in ((0, 2, 1), (1, 0, 3), (1, 0, None)):
        assert parameter_name(model, parameter_index(model, layer, unit, source)) == name_of(layer + 1, unit, source)
