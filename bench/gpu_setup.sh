#!/usr/bin/env bash
# Source this on the GPU machine, in the repository root: the packages its image lacks, carried as
# wheels in .whl/ and Debian packages in .deb/ (bubblewrap, libseccomp; bench/gpu_carry.sh fetches both
# here), made ready for the judge.
python3 -m pip install -q --no-index --no-deps --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || return 1
python3 -m compileall -q judge cudajudge sandbox server >/dev/null   # as an installed judge has them
export PYTHONPATH=/tmp/site:$PWD
mkdir -p /tmp/debroot
for f in .deb/*.deb; do dpkg -x "$f" /tmp/debroot; done
export PATH=/tmp/debroot/usr/bin:$PATH
ldconfig -p | grep -q 'libseccomp\.so\.2' || export LD_LIBRARY_PATH=/tmp/debroot/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PYTHONUNBUFFERED=1
python3 -c "from sandbox import bubblewrap, seccomp_filter; print('bubblewrap:', bubblewrap.available())"
