"""The engine's speed: ``.venv/bin/python -m benchmarks.engine [--quick]``.

The same table as ``python -m scoring bench`` (``scoring.tools.bench`` measures it);
the figures are kept in the Engine section of docs/benchmarks.md.
"""

from scoring.tools.bench import main

if __name__ == "__main__":
    raise SystemExit(main())
