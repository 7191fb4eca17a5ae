# Sourced by scripts/build.sh and scripts/test.sh: Debian's emscripten (em++, emar, emcmake: Python
# programs started through a shell wrapper that runs "${EMSDK_PYTHON:-python3}") runs under Debian's own
# python3, the one its package depends on. The python3 first on the PATH may be a version manager's shim
# (pyenv's is a bash script that starts pyenv, then Python): 0.45 CPU-s more per start, and a wasm build
# starts em++ about a hundred times (the modules and dist/: 143 against 124 CPU-s, 76 against 66 s).
# A caller's own EMSDK_PYTHON is kept.
if [ -z "${EMSDK_PYTHON:-}" ] && [ -x /usr/bin/python3 ]; then
  export EMSDK_PYTHON=/usr/bin/python3
fi
