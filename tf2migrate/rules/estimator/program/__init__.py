"""The Estimator program found and read whole: its `Estimator(...)` call and everything it is built from
or used by, in this module or, for a package, in the module whose helper builds it.
"""
