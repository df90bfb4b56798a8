"""The helper's side of a program spread over a package (`model.py`'s builder, converted with the
`task.py` that trains it), and the finding when the two cannot convert together.
"""
