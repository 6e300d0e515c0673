"""Page 00's build-time widgets: ```tinydag-<kind> fences (the knob, the gears) -> engine data and a
static figure; registry.py finds the fences and dispatches to the kinds."""
