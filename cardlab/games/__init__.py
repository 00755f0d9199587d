"""The built-in games. Importing this package imports every module in it, and each module registers
its game with :func:`cardlab.engine.register`."""

import importlib
import pkgutil

for _info in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_info.name}")
