"""Builds the solver's optional native core; everything else is in pyproject.toml.

If no C compiler is available the package still installs and the solver runs
its pure-Python search (slower, same results).
"""

from __future__ import annotations

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """Build the extension when possible; never fail the install because of it."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any build failure falls back to Python
            print(f"warning: native solver not built ({error}); using the pure-Python search")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            print(f"warning: native solver not built ({error}); using the pure-Python search")


setup(
    ext_modules=[
        Extension(
            "spider_vision.solver._native",
            sources=["spider_vision/solver/_native.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
