#!/usr/bin/env bash
# Copies this machine's Open MPI runtime (Debian packages openmpi-bin, libopenmpi3, openmpi-common, libpmix2 and
# the libraries they load) into DEST, relocated, for a GPU machine without MPI (run_gpus.sh's scaling record):
# copy DEST there and `source DEST/env.sh` puts its mpirun first on PATH and its libraries and plugins in use.
#   usage: stage_openmpi.sh DEST
set -euo pipefail
dest=$(realpath -m "${1:?usage: stage_openmpi.sh DEST}")
rm -rf "$dest"; mkdir -p "$dest/root" "$dest/deps"
for pkg in openmpi-bin libopenmpi3 openmpi-common libpmix2; do
  dpkg -L "$pkg" | while read -r f; do
    case "$f" in */man/*|*/doc/*|*java*|*oshmem*|*/bin/shmem*|*/bin/osh*) continue ;; esac
    if [ -f "$f" ] || [ -L "$f" ]; then (cd / && cp -a --parents "${f#/}" "$dest/root/"); fi
  done
done
# Libraries the runtime loads from outside those packages (hwloc, libevent, ...), but not the C runtime.
find "$dest/root" -type f \( -name '*.so*' -o -perm -u+x \) | while read -r f; do
  { ldd "$f" 2>/dev/null || true; } | awk '/=> \// {print $3}'
done | sort -u | while read -r so; do
  case "$(basename "$so")" in
    libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libstdc++.so*|libgcc_s.so*|libz.so*) ;;
    *) [ -e "$dest/root$so" ] || cp -L "$so" "$dest/deps/" ;;
  esac
done
ln -sf orterun "$dest/root/usr/bin/mpirun"; ln -sf orterun "$dest/root/usr/bin/mpiexec"
lib=usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
cat >"$dest/env.sh" <<ENV
here=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=\$here/root/usr PMIX_INSTALL_PREFIX=\$here/root/$lib/pmix2
export PMIX_MCA_mca_base_component_path=\$here/root/$lib/pmix2/lib/pmix
export OPAL_LIBDIR=\$here/root/$lib/openmpi/lib OPAL_PKGLIBDIR=\$here/root/$lib/openmpi/lib/openmpi3
export OPAL_DATADIR=\$here/root/usr/share OPAL_PKGDATADIR=\$here/root/usr/share/openmpi OPAL_SYSCONFDIR=\$here/root/etc/openmpi
export PATH=\$here/root/usr/bin:\$PATH
export LD_LIBRARY_PATH=\$here/root/$lib:\$here/root/$lib/openmpi/lib:\$here/root/$lib/pmix2/lib:\$here/deps\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
ENV
du -sh "$dest"
