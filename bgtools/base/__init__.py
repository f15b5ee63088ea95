"""The foundation below every layer: the exception root, atomic file output, cache folders.

It imports nothing else of bgtools, and every other subpackage may import it.
"""
