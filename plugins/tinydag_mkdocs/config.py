"""The plugin's options in mkdocs.yml. Paths are relative to the folder of mkdocs.yml."""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c


class TinyDagConfig(base.Config):
    enabled = c.Type(bool, default=True)  # off: sandbox blocks stay plain code (`make bench` compares)
    strings_dir = c.Type(str, default="src/player/strings")  # <lang>.yml per language; en.yml rules
    player_entry = c.Type(str, default="src/player/main.ts")  # bundled as assets/tinydag/player.js
    player_css = c.Type(str, default="src/player/player.css")  # bundled as assets/tinydag/player.css
    esbuild = c.Type(str, default="node_modules/.bin/esbuild")
    cache_dir = c.Type(str, default=".cache/tinydag")  # the player bundle, by content hash
    watch = c.ListOfItems(c.Type(str), default=["src", "plugins"])  # `mkdocs serve` rebuilds on change
