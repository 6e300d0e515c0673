"""Firefox and WebKit for the cross-browser tests and the benchmark: drivers.py and what it starts."""
