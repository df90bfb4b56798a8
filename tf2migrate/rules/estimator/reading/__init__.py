"""Reading TF1 shapes as written, deciding nothing: the uses of a program's names, a model_fn's spec and
modes, where a statement stands, and where an Estimator is built (`main()`, an if/else, a builder
function, a model_fn closure).
"""
