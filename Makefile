# The README's two commands: `make serve` and `make test`. Everything else supports them.
SHELL := /bin/bash
export NO_MKDOCS_2_WARNING := 1

PY := .venv/bin/python
# The Python packages: the test tools too by default; `make build EXTRAS=` (the Pages workflow) installs
# the runtime dependencies only. Versions are pinned by constraints.txt (`make constraints` renews it).
EXTRAS := test
VENV_STAMP := .venv/.installed-$(or $(EXTRAS),runtime)
NODE_STAMP := node_modules/.installed
CHROMIUM := /usr/bin/chromium
# The browsers the tests drive, all Debian packages (never a browser download): Chromium; Firefox ESR and
# WebKitGTK on Xvfb (tests/test_cross_browser.py), WebKit's page in a bare GTK window of the system
# python3 (tests/cross_browser/wkhost.py); Mesa's software OpenGL, on which the tests' Chromium draws
# WebGL (tests/browser_helpers.py). One file each package installs stands for it.
BROWSER_PACKAGES := chromium firefox-esr webkit2gtk-driver xvfb python3-gi gir1.2-gtk-3.0 gir1.2-webkit2-4.1 \
	libegl-mesa0 libgl1-mesa-dri
BROWSERS := $(CHROMIUM) /usr/bin/firefox-esr /usr/bin/WebKitWebDriver /usr/bin/Xvfb \
	/usr/share/doc/python3-gi/copyright /usr/share/doc/gir1.2-webkit2-4.1/copyright \
	/usr/share/doc/libegl-mesa0/copyright /usr/share/doc/libgl1-mesa-dri/copyright

.PHONY: serve test build bundle constraints bench lint typecheck test-ts test-py shots corpus fuzz i18n-status setup clean browser-packages

# The Python packages and the Node ones side by side (each installer keeps to about one core). No
# bytecode is compiled at install (pip's is one file at a time, over every package installed): Python
# compiles a module the first time one is imported and keeps it (__pycache__, ignored by git).
setup:
	@$(MAKE) --no-print-directory -j2 $(VENV_STAMP) $(NODE_STAMP)

$(VENV_STAMP): pyproject.toml constraints.txt
	test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install --quiet --disable-pip-version-check --no-compile -c constraints.txt \
		-e '.$(if $(EXTRAS),[$(EXTRAS)])'
	touch $@

# After changing a dependency range in pyproject.toml: pin what a fresh install resolves to today.
constraints:
	rm -rf .build/constraints-venv && python3 -m venv .build/constraints-venv
	.build/constraints-venv/bin/pip install --quiet --disable-pip-version-check -e '.[test]'
	{ echo "# Pinned versions of every Python package a checkout installs (make constraints renews it)."; \
	  .build/constraints-venv/bin/pip freeze --exclude-editable | LC_ALL=C sort -f; } > constraints.txt
	rm -rf .build/constraints-venv

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# What .ci/run installs on a fresh machine before anything else.
browser-packages:
	@echo $(BROWSER_PACKAGES)

# Installs the browsers when one is missing (one apt-get for all: a grouped target).
$(BROWSERS) &:
	@if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq $(BROWSER_PACKAGES) >/dev/null; \
	else sudo apt-get update -qq && sudo apt-get install -y -qq $(BROWSER_PACKAGES) >/dev/null; fi

# With Node, the player is bundled again whenever its TypeScript changes (and MkDocs reloads the page);
# without it, the shipped bundle is served as is.
serve: $(VENV_STAMP)
	@watcher=; if [ -x node_modules/.bin/esbuild ]; then $(PY) -m tinydag_mkdocs.base.bundle --watch & watcher=$$!; fi; \
	trap '[ -z "$$watcher" ] || kill $$watcher' EXIT; .venv/bin/mkdocs serve --livereload

# Python alone: the player bundle ships with the plugin (plugins/tinydag_mkdocs/assets/).
build: $(VENV_STAMP)
	.venv/bin/mkdocs build --strict --site-dir site

# After changing src/player, src/widgets or src/inference: write the shipped bundles (make test fails while they are stale).
bundle: setup
	$(PY) -m tinydag_mkdocs.base.bundle

lint: setup
	.venv/bin/ruff check src plugins tests scripts bench
	npx biome ci .

typecheck: setup
	npx tsc --noEmit -p .
	$(PY) -m mypy

test-ts: setup
	npm test --silent

# The tests without a browser on both cores (pytest-xdist; the site is built once for both workers),
# then the Chromium tests on both cores (one Chromium per worker), then those whose subject is timing
# (marker `alone`: layout shifts while waking, a slowed CPU) one at a time with nothing beside them,
# then the Firefox and WebKit smoke suite, one engine per core. `worksteal`: a worker that runs out
# takes tests queued for the other, so neither core idles while the other ends a long queue.
test-py: setup $(BROWSERS)
	$(PY) -m pytest -q -n 2 --dist worksteal -m "not browser and not crossbrowser"
	$(PY) -m pytest -q -n 2 --dist worksteal -m "browser and not alone"
	$(PY) -m pytest -q -m "browser and alone"
	$(PY) -m pytest -q -n 2 --dist loadgroup -m crossbrowser  # Firefox and WebKit side by side

# Screenshots for people to look at (not part of make test): .build/shots/*.png, the default graph in
# the middle of backward and the crowded neuron at its end, each language, desktop and phone, light and dark.
shots: setup $(CHROMIUM)
	$(PY) -m pytest -q -m shots

# The checks that need no browser side by side (each mostly on one core; each one's output kept together),
# then the pytest phases in their order.
test: setup
	@$(MAKE) --no-print-directory -j2 --output-sync=target lint typecheck test-ts
	@$(MAKE) --no-print-directory test-py

# Regenerate the shared Python -> TypeScript test vectors (tests/vectors/).
corpus: setup
	$(PY) scripts/make_vectors.py

# Hostile input with a bigger budget than `make test` (same tests, tests/test_fuzz_*.py): 100,000
# engine inputs per side, every malformed block and strings file through a real build, 500 random
# argument lists per command line. Prints the counts and the libm outcome-disagreement rates.
fuzz: setup
	CI=1 TINYDAG_FUZZ_INPUTS=100000 TINYDAG_FUZZ_ARGV=500 $(PY) -m pytest -q -s -p no:cacheprovider \
		tests/test_fuzz_engine.py tests/test_fuzz_plugin.py tests/test_fuzz_cli.py

# Which pages and UI strings are missing or older than English, per language.
i18n-status: $(VENV_STAMP)
	$(PY) -m tinydag_mkdocs.site.i18n_status

bench: setup $(BROWSERS)
	$(PY) -m bench

clean:
	rm -rf site .build .venv node_modules
