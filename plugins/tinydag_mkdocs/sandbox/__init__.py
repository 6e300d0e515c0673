"""The sandboxes: ```tinydag blocks -> timelines (by content hash) -> a static figure and the embedded
player data, and the lesson's "open in the sandbox" links."""
