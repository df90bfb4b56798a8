"""Writing the Keras program from the plan: the model builder (`keras_source.py`), each top-level
statement's replacement, the runs, the splice of the new body, and the check of the output before it
is written.
"""
