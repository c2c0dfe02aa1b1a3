"""partpicker: validate deep-learning workstation builds and pick the cheapest one that works."""

__version__ = "0.1.0"
