#!/usr/bin/env bash
# Run here, in the repository root, before a GPU session: fetch what the GPU machine's image lacks into
# .whl/ (Python 3.12 wheels) and .deb/ (bubblewrap, libseccomp), both ignored by git; carry both to the
# machine and `. bench/gpu_setup.sh` there. The versions are those of this checkout's virtual environment.
set -euo pipefail
cd "$(dirname "$0")/.."
grep -qx '/.deb/' .git/info/exclude 2>/dev/null || echo '/.deb/' >> .git/info/exclude
packages=(pydantic pydantic_core annotated-types typing-inspection typing_extensions tree-sitter tree-sitter-cuda
          pyelftools pyseccomp nvidia-cuda-cccl nvidia-cuda-crt)
pinned=()
for name in "${packages[@]}"; do
  pinned+=("$name==$(python -c "import importlib.metadata as m; print(m.version('$name'))")")
done
rm -rf .whl && mkdir -p .whl .deb
python -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d .whl "${pinned[@]}"
(cd .deb && apt-get download bubblewrap libseccomp2)
du -sh .whl .deb
