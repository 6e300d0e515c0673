"""The plugin's options in mkdocs.yml. Paths are relative to the folder of mkdocs.yml.

    plugins:
      - tinydag:
          sandboxes: {enabled: true}   # ```tinydag blocks -> the player (off: they stay code)
          widgets: {enabled: true}     # ```tinydag-knob / -gears -> page 00's widgets (off: code)
          site: {enabled: true}        # notices, hreflang, search per language, typography, HTML fixes
"""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c


class WingConfig(base.Config):
    enabled = c.Type(bool, default=True)


class TinyDagConfig(base.Config):
    enabled = c.Type(bool, default=True)  # off: the plugin changes nothing (`make bench` compares)
    sandboxes = c.SubConfig(WingConfig)
    widgets = c.SubConfig(WingConfig)
    site = c.SubConfig(WingConfig)
    strings_dir = c.Type(str, default="src/player/strings")  # <lang>.yml per language; en.yml rules
    watch = c.ListOfItems(c.Type(str), default=["src", "plugins"])  # `mkdocs serve` rebuilds on change
