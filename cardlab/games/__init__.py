"""The built-in games, one package each (``cardlab/games/<game>/``). Importing this package imports every
game package, and each registers its one :class:`~cardlab.engine.spec.GameSpec` with
:func:`cardlab.engine.register`."""

import importlib
import pkgutil

for _info in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_info.name}")
