"""The ``spider-vision`` command line: a thin layer over the library, one module per command."""
