"""The parent's room: the two sides (programs, codemod), the processes and tasks of each, the cluster plan, the
network and PID namespaces, and the recordings of an original. Nothing here is imported inside a child."""
