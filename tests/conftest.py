import os

os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
