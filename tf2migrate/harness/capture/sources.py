"""The program's source files as text: the child reads them to choose the API, the parent to learn the facts."""


def read_sources(files):
    """(path, text) of each readable file; a file that cannot be read is left to fail when it is imported."""
    out = []
    for path in files:
        try:
            with open(path, encoding="utf-8") as f:
                out.append((path, f.read()))
        except (OSError, UnicodeDecodeError):
            continue
    return out
