"""The child's room: `child.py` patches TensorFlow and Keras (each capture module's `install`), runs the
program, and writes what it observed. Imports only this room and `compare` (the shared observations), never
`running` or `report`: a child is a plain interpreter that must not need the parent's side."""
