# The README's quick start: `make run` and `make test`. Each installs what is
# missing (scripts/install-deps), configures and builds with the default preset.
.PHONY: all deps build run test format format-check clean

all: build

deps:
	@scripts/install-deps

build: deps
	@cmake --preset default >/dev/null || cmake --preset default
	@cmake --build --preset default

run: build
	@scripts/run-main

test: build
	@ctest --preset default -j2

format-check: deps
	@scripts/format --check

format:
	@scripts/format

clean:
	rm -rf build build-debug build-release
