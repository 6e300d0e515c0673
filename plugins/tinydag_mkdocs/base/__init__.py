"""The shared base of the plugin: fences with file lines, YAML with line numbers, UI strings, numbers
as the browser writes them, JSON for a page, git history, static-i18n's state and the shipped bundles."""
