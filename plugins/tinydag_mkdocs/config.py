"""The plugin's options in mkdocs.yml. Paths are relative to the folder of mkdocs.yml."""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c


class TinyDagConfig(base.Config):
    enabled = c.Type(bool, default=True)  # off: sandbox blocks stay plain code (`make bench` compares)
    strings_dir = c.Type(str, default="src/player/strings")  # <lang>.yml per language; en.yml rules
    watch = c.ListOfItems(c.Type(str), default=["src", "plugins"])  # `mkdocs serve` rebuilds on change
