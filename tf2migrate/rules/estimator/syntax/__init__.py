"""LibCST helpers every phase uses: a call's arguments bound to its TF1 signature, the respelled source
of kept expressions, generated code built from templates. Nothing Estimator-specific is decided here.
"""
