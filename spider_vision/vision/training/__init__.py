"""Training of the vision models (needs the ``[train]`` extra: torch, onnx, onnxscript).

Nothing at run time imports this package.
"""
