"""MkDocs adapter for tinydag: sandbox blocks -> embedded timelines + the bundled player."""
